// EXPECT: clean
// 1-D three-point stencil with halo cells, a __syncthreads between filling the shared window and reading neighbours.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256

__global__ void stencil3(const float *in, float *out) {
  __shared__ float s[BLOCK + 2];
  int tid = threadIdx.x;
  int gid = blockIdx.x * BLOCK + tid;
  s[tid + 1] = in[gid];
  if (tid == 0)
    s[0] = 0.0f;
  if (tid == BLOCK - 1)
    s[BLOCK + 1] = 0.0f;
  __syncthreads();
  out[gid] = s[tid] + s[tid + 1] + s[tid + 2];
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 2 * BLOCK * sizeof(float));
  cudaMalloc(&out, 2 * BLOCK * sizeof(float));
  cudaMemset(in, 0, 2 * BLOCK * sizeof(float));
  stencil3<<<2, BLOCK>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("stencil3: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
