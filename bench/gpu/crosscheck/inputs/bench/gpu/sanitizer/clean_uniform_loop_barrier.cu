// EXPECT: clean
// __syncthreads inside a loop whose trip count is a kernel argument (uniform), with barriers both after the write and after the read.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void rounds(const float *in, float *out, int steps) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  float acc = in[tid];
  for (int i = 0; i < steps; ++i) {
    s[tid] = acc;
    __syncthreads();
    acc += s[(tid + 1) % 128];
    __syncthreads();
  }
  out[tid] = acc;
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemset(in, 0, 128 * sizeof(float));
  rounds<<<1, 128>>>(in, out, 3);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("rounds: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
