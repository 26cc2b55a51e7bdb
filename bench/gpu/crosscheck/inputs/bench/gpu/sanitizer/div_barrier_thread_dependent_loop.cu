// EXPECT: divergent-barrier
// __syncthreads inside a loop whose trip count depends on threadIdx.x, so threads execute different numbers of barriers.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void ragged(const float *in, float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  float acc = in[tid];
  for (unsigned i = 0; i < tid % 4; ++i) {
    s[tid] = acc;
    __syncthreads(); // BUG: executed 0..3 times depending on the thread
    acc += s[(tid + 1) % 128];
  }
  out[tid] = acc;
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemset(in, 0, 128 * sizeof(float));
  ragged<<<1, 128>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("ragged: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
