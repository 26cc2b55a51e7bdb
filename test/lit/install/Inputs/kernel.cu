__global__ void transpose(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}
int main() { transpose<<<1, 32>>>(nullptr); }
