#include "shared.cuh"

// shmem-lint: block=32
__global__ void b_kernel(double *out) {
  __shared__ double b[32][32];
  b[threadIdx.x][2] = out[0];
  __syncthreads();
  out[threadIdx.x] = b[2][threadIdx.x];
}
