// Block sum reductions.
//
// reduceEarlyExit returns early for out-of-range threads and then calls
// __syncthreads(): threads that returned never arrive (divergent barrier).
// reduceLegacyWarp finishes with the pre-Volta warp-synchronous idiom
// (volatile, no __syncwarp), a race on Volta and later. reduceStrided
// indexes sdata[2 * s * tid], a bank conflict that grows with s.
// reduceFixed is the same reduction written correctly.
#include <cuda_runtime.h>

__global__ void reduceEarlyExit(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  if (i >= n)
    return;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceLegacyWarp(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceStrided(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceFixed(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

void reduce(const float *in, float *out, int n) {
  int blocks = (n + 255) / 256;
  reduceEarlyExit<<<blocks, 256>>>(in, out, n);
  reduceLegacyWarp<<<blocks, 256>>>(in, out);
  reduceStrided<<<blocks, 256>>>(in, out);
  reduceFixed<<<blocks, 256>>>(in, out, n);
}
