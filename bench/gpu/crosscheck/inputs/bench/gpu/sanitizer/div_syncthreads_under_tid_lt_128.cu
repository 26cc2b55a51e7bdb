// EXPECT: divergent-barrier
// __syncthreads inside if (threadIdx.x < 128) in a block of 256 threads: half the block never reaches the barrier.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void halfBlockExchange(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  if (tid < 128) {
    s[tid] = in[tid];
    __syncthreads(); // BUG: threads 128..255 skip this barrier
    out[tid] = s[127 - tid];
  } else {
    out[tid] = 0.0f;
  }
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float));
  halfBlockExchange<<<1, 256>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("halfBlockExchange: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
