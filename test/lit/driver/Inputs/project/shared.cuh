// Included from a.cu and b.cu: its finding must be reported once.
#include "tile.h"

// shmem-lint: block=32
__global__ void shared_kernel(float *out) {
  __shared__ float tile[TILE][TILE + TILE_PAD];
  tile[threadIdx.x][0] = out[0];
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}
