// A __shared__ cuda::barrier at namespace scope: a reference there would
// need dynamic initialisation in device code, so the driver cannot declare
// it as nvcc does; it says so and does not guess.
#include <cuda/barrier>

__shared__ cuda::barrier<cuda::thread_scope_block> bar;

__global__ void k(float *out) {
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1.0f;
}
