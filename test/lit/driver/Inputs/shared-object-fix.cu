// A fix-it after a rewritten __shared__ object, on its line and below it,
// lands where it belongs in this file, not in the rewritten text.
#include <cuda/barrier>

__global__ void column(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar; __shared__ float t[32][32];
  __shared__ float u[32][32];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  for (int j = 0; j < 32; ++j) {
    t[j][threadIdx.x] = j;
    u[j][threadIdx.x] = j;
  }
  bar.arrive_and_wait();
  out[threadIdx.x] = t[threadIdx.x][0] + u[threadIdx.x][1];
}

void run(float *out) { column<<<1, 32>>>(out); }
