// EXPECT: clean
// Bounds guard without an early return: out-of-range threads skip the load and store but still reach the __syncthreads (n = 100, block 128).
#include <cuda_runtime.h>
#include <cstdio>

__global__ void rotate(const float *in, float *out, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  bool inRange = tid < n;
  if (inRange)
    s[tid] = in[tid];
  __syncthreads();
  if (inRange)
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
