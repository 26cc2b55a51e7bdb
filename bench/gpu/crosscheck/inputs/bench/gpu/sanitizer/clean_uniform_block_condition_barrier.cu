// EXPECT: clean
// __syncthreads under a blockIdx-based condition: uniform across each block, so every thread of a block agrees on the barrier.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 128

__global__ void oddBlocksReverse(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned gid = blockIdx.x * BLOCK + tid;
  if (blockIdx.x % 2 == 1) {
    s[tid] = in[gid];
    __syncthreads();
    out[gid] = s[BLOCK - 1 - tid];
  } else {
    out[gid] = in[gid];
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 4 * BLOCK * sizeof(float));
  cudaMalloc(&out, 4 * BLOCK * sizeof(float));
  cudaMemset(in, 0, 4 * BLOCK * sizeof(float));
  oddBlocksReverse<<<4, BLOCK>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("oddBlocksReverse: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
