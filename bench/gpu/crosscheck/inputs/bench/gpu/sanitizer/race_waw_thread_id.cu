// EXPECT: race
// Every thread stores its own threadIdx.x to one shared word (write-write with different values), then all read it back.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void lastWriterWins(int *out) {
  __shared__ int owner;
  owner = threadIdx.x; // BUG: 256 threads write different values
  __syncthreads();
  out[threadIdx.x] = owner;
}

int main() {
  int *out = nullptr;
  cudaMalloc(&out, 256 * sizeof(int));
  lastWriterWins<<<1, 256>>>(out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("lastWriterWins: %s\n", cudaGetErrorString(err));
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
