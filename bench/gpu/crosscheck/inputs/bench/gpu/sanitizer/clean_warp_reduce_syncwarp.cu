// EXPECT: clean
// Block reduction whose last warp reads into a register, __syncwarp, then writes, __syncwarp, at every step.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256

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
  if (tid < 32) {
    float v = s[tid] + s[tid + 32];
    s[tid] = v;
    __syncwarp();
    for (unsigned off = 16; off > 0; off >>= 1) {
      if (tid < off)
        v += s[tid + off];
      __syncwarp();
      if (tid < off)
        s[tid] = v;
      __syncwarp();
    }
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
