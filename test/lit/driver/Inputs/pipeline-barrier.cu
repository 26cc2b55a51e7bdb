// A warp-specialised pipeline over cuda::barrier (pranjalssh/fast.cu's
// matmul kernels 4-6 in miniature): a producer thread and two consumer
// warpgroups hand stages over through full and empty barriers initialised
// for the threads that use them, not for the block.
#include <cuda/barrier>
using barrier = cuda::barrier<cuda::thread_scope_block>;

// Barriers of 257 threads: the producer's and the consumers' waits are
// theirs alone.
__global__ void __launch_bounds__(384) pipeline(float *out) {
  __shared__ barrier full[2], empty[2];
  __shared__ float buf[2][256];
  int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 2; ++i) {
      init(&full[i], 2 * 128 + 1);
      init(&empty[i], 2 * 128 + 1);
    }
  }
  __syncthreads();
  if (wg == 0) {
    if (tid == 0)
      for (int i = 0; i < 8; ++i) {
        empty[i % 2].wait(empty[i % 2].arrive());
        full[i % 2].arrive();
      }
  } else {
    for (int i = 0; i < 2; ++i)
      (void)empty[i].arrive();
    for (int i = 0; i < 8; ++i) {
      full[i % 2].wait(full[i % 2].arrive());
      out[threadIdx.x] += buf[i % 2][tid];
      (void)empty[i % 2].arrive();
    }
  }
}

// The same waits on barriers of the whole block: only some threads reach
// them, and the block hangs.
__global__ void __launch_bounds__(384) blockBarriers(float *out) {
  __shared__ barrier full[2], empty[2];
  int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 2; ++i) {
      init(&full[i], blockDim.x);
      init(&empty[i], blockDim.x);
    }
  }
  __syncthreads();
  if (wg == 0) {
    if (tid == 0)
      for (int i = 0; i < 8; ++i)
        empty[i % 2].wait(empty[i % 2].arrive());
  }
}
