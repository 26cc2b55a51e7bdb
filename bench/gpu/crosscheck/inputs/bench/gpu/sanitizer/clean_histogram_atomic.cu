// EXPECT: clean
// Shared-memory histogram updated with atomicAdd, barriers around the zeroing and the flush.
#include <cuda_runtime.h>
#include <cstdio>

#define BINS 16

__global__ void histogram(const unsigned char *data, int n, unsigned *global) {
  __shared__ unsigned hist[BINS];
  if (threadIdx.x < BINS)
    hist[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&hist[data[i] % BINS], 1u);
  __syncthreads();
  if (threadIdx.x < BINS)
    atomicAdd(&global[threadIdx.x], hist[threadIdx.x]);
}

int main() {
  const int n = 4096;
  unsigned char *data = nullptr;
  unsigned *hist = nullptr;
  cudaMalloc(&data, n);
  cudaMalloc(&hist, BINS * sizeof(unsigned));
  cudaMemset(data, 3, n);
  cudaMemset(hist, 0, BINS * sizeof(unsigned));
  histogram<<<2, 256>>>(data, n, hist);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("histogram: %s\n", cudaGetErrorString(err));
  cudaFree(data);
  cudaFree(hist);
  return err == cudaSuccess ? 0 : 1;
}
