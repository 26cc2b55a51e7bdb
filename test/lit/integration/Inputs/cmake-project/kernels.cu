#include "tile.h"

// A planted 32-way bank conflict: the column of a 32x32 float tile.
// shmem-lint: block=32x32
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y]; // the conflict
}

// A race and a divergent barrier. cmake-nvcc.test checks all three findings;
// cmake-helper.test (no CUDA toolkit needed) checks the bank conflict.
// shmem-lint: block=256
__global__ void reduce(const float *in, float *out) {
  __shared__ float sum[256];
  unsigned t = threadIdx.x;
  sum[t] = in[blockIdx.x * 256 + t];
  // Race: no barrier between the writes above and the neighbour's read.
  float left = sum[(t + 255) % 256];
  if (t < 128) {
    sum[t] += left;
    __syncthreads(); // divergent: threads 128-255 never arrive
  }
  if (t == 0)
    out[blockIdx.x] = sum[0];
}
