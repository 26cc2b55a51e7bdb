__global__ void k(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = out[0];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][1]; // NOLINT(shmem-bank-conflict)
  // NOLINTNEXTLINE(shmem-*)
  out[threadIdx.x] = tile[threadIdx.x][2];
  out[threadIdx.x] = tile[threadIdx.x][4]; // NOLINT(shmem-race)
}
int main() { k<<<1, 32>>>(nullptr); }
