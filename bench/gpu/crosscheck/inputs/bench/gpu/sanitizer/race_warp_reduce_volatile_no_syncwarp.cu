// EXPECT: race
// Classic warp-synchronous tail of a block reduction through a volatile pointer with no __syncwarp (unsafe under independent thread scheduling).
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256

__device__ void warpReduce(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void blockSum(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(s, tid); // BUG: relies on implicit warp synchrony
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 4 * BLOCK * sizeof(float));
  cudaMalloc(&out, 4 * sizeof(float));
  cudaMemset(in, 0, 4 * BLOCK * sizeof(float));
  blockSum<<<4, BLOCK>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("blockSum: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
