#include "shared.cuh"

// shmem-lint: block=32
__global__ void a_kernel(float *out) {
  __shared__ float a[32][32];
  a[threadIdx.x][1] = out[0];
  __syncthreads();
  out[threadIdx.x] = a[1][threadIdx.x];
}
