// EXPECT: race
// Tree reduction in shared memory with the __syncthreads inside the halving loop left out (only one barrier after the load).
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256

__global__ void blockSum(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    // BUG: missing __syncthreads() between steps
  }
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
