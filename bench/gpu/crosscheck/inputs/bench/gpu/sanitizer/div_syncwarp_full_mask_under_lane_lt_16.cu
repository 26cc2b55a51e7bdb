// EXPECT: divergent-barrier
// __syncwarp() with the default full mask under if (lane < 16): the mask names lanes 16..31, which never arrive.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void halfWarpSwap(const int *in, int *out) {
  __shared__ int s[4][32];
  unsigned lane = threadIdx.x % 32;
  unsigned warp = threadIdx.x / 32;
  int v = in[threadIdx.x];
  if (lane < 16) {
    s[warp][lane] = v;
    __syncwarp(); // BUG: full mask, but only lanes 0..15 are here
    v = s[warp][lane ^ 1];
  }
  out[threadIdx.x] = v;
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&out, 128 * sizeof(int));
  cudaMemset(in, 0, 128 * sizeof(int));
  halfWarpSwap<<<1, 128>>>(in, out);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("halfWarpSwap: %s\n", cudaGetErrorString(err));
  cudaFree(in);
  cudaFree(out);
  return err == cudaSuccess ? 0 : 1;
}
