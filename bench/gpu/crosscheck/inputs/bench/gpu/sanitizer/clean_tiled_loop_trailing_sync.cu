// EXPECT: clean
// Tiled loop that refills the shared tile each iteration, with a barrier after the fill and a trailing barrier before the next fill.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256

__global__ void tiledWindowSum(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK];
  float acc = 0.0f;
  for (int base = 0; base < n; base += BLOCK) {
    tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      acc += tile[(threadIdx.x + 32 * k) % BLOCK];
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = acc;
}

int main() {
  const int n = 4 * BLOCK;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, BLOCK * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  tiledWindowSum<<<1, BLOCK>>>(in, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("tiledWindowSum: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
