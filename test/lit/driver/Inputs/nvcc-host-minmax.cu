// Host code as nvcc accepts it: min and max of float, mixed signedness and
// 64-bit operands, which clang's CUDA headers declare for device code only.
#include <cuda_runtime.h>

__global__ void column(float *out, int ld) {
  __shared__ float s[32 * 32];
  s[threadIdx.x] = 0.0f;
  __syncthreads();
  // max(unsigned, int): the unsigned overload; a 32-way conflict.
  out[threadIdx.x] = s[max(threadIdx.x * 32, 0)];
  // min(int, int) clamps to the row: conflict-free.
  out[threadIdx.x] += s[min((int)threadIdx.x, 31)] + max(out[0], 1.0f);
}

int main() {
  float scale = max(192.0f / 7, 1.0f);
  unsigned n = min(1024, 512u);
  long long big = max(1LL << 40, 3LL);
  double d = min(2.0, 1.5f);
  column<<<1, 32>>>(nullptr, int(scale + n + big + d));
}
