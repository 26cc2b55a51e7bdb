// EXPECT: race
// Tiled loop that refills the shared tile each iteration without the trailing __syncthreads, so fast threads overwrite values slow threads still read (write-after-read).
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
    // BUG: missing trailing __syncthreads(); the next iteration's store
    // to tile[] races with the reads above.
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
