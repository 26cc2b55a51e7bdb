// A NOLINTBEGIN with no NOLINTEND suppresses nothing (as in clang-tidy,
// which also reports the marker).
__global__ void unmatched(float *out, int c) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  // NOLINTBEGIN(shmem-bank-conflict)
  out[0] = tile[threadIdx.x][c];
}

int main() { unmatched<<<1, dim3(32, 8)>>>(nullptr, 0); }
