// EXPECT: clean
// Bounds check `if (threadIdx.x >= n) return;` before a __syncthreads, with n = 100 in a block of 128 (the last warp is split): the exited threads do not hold up the barrier, and the survivors read only survivors' elements.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void rotate(const float *in, float *out, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  if (tid >= n)
    return; // exited threads count as arrived at the barrier below (PTX ISA 6+)
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = s[(tid + 1) % n];
}

int main() {
  const int n = 100;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemset(in, 0, 128 * sizeof(float));
  rotate<<<1, 128>>>(in, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("rotate: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
