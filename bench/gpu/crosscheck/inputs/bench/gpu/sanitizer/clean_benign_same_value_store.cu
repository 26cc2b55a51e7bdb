// EXPECT: clean
// Every thread stores the same constant to one shared flag before a barrier (benign same-value write-write), then all read it.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void setFlag(int *out) {
  __shared__ int flag;
  flag = 1; // all threads store the same value: benign
  __syncthreads();
  out[threadIdx.x] = flag;
}

int main() {
  int *out = nullptr;
  cudaMalloc(&out, 256 * sizeof(int));
  setFlag<<<1, 256>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("setFlag: %s\n", cudaGetErrorString(err));
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
