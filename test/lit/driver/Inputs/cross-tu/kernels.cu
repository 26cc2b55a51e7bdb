// Kernels defined here and launched from main.cu: their block shapes and
// constant arguments are at main.cu's launches.
#include "common.cuh"

__global__ void strided(float *out, int ld) {
  extern __shared__ float s[];
  s[threadIdx.x * ld] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x * ld];
}

// Conflict-free for a block of 32 or fewer: row r of 32 floats holds one
// warp's values. A block of 256 (the shape assumed with no launch) would
// make threads 0 and 32 store different values to one word.
__global__ void oneWarp(float *out) {
  __shared__ float row[32];
  row[threadIdx.x % 32] = threadIdx.x;
  __syncwarp();
  out[threadIdx.x] = row[31 - threadIdx.x % 32];
}
