// EXPECT: race
// Tile transpose that reads tile[tx][ty] (written by another thread) with no __syncthreads after the tile is filled (read-after-write).
#include <cuda_runtime.h>
#include <cstdio>

#define TILE 32

__global__ void transposeNoBarrier(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  // BUG: missing __syncthreads() before reading the tile transposed.
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int n = 64;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMemset(in, 0, n * n * sizeof(float));
  transposeNoBarrier<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(in, out, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("transposeNoBarrier: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
