// EXPECT: race
// Parity double-buffered smoothing that drops the per-iteration barrier, assuming two buffers make it safe (reads of buf[cur] race with the next iteration's writes).
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256

__global__ void smooth(const float *in, float *out, int iters) {
  __shared__ float buf[2][BLOCK];
  unsigned tid = threadIdx.x;
  buf[0][tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    int cur = it & 1;
    int nxt = cur ^ 1;
    float left = buf[cur][(tid + BLOCK - 1) % BLOCK];
    float right = buf[cur][(tid + 1) % BLOCK];
    buf[nxt][tid] = 0.5f * (left + right);
    // BUG: no __syncthreads(); the next iteration reads neighbours of
    // buf[nxt] that may not be written yet, and overwrites buf[cur]
    // while neighbours may still read it.
  }
  out[blockIdx.x * BLOCK + tid] = buf[iters & 1][tid];
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, BLOCK * sizeof(float));
  cudaMalloc(&out, BLOCK * sizeof(float));
  cudaMemset(in, 0, BLOCK * sizeof(float));
  smooth<<<1, BLOCK>>>(in, out, 8);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("smooth: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
