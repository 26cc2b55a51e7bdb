#include "tile.h"

// shmem-lint: block=32
__global__ void c_kernel(int *out) {
  __shared__ int c[TILE][TILE];
  c[threadIdx.x][3] = out[0];
  __syncthreads();
  out[threadIdx.x] = c[3][threadIdx.x];
}
