// Inline asm that reads PTX special registers the way nvcc accepts it: a
// lone `%` before the register's name (pranjalssh/fast.cu's clustered
// GEMMs). clang refuses these strings; the driver doubles the `%`.
#include <cstdint>

#define CTARANK "%cluster_ctarank"

// The cluster's id is one value per block: branching on it keeps every
// thread of the block together, so the barrier is reached by all.
__global__ void __launch_bounds__(128) perBlock(float *out) {
  __shared__ float s[128];
  uint32_t rank;
  asm volatile("mov.u32 %0, %clusterid.x;\n" : "=r"(rank) :);
  s[threadIdx.x] = rank;
  if (rank % 2 == 0)
    __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}

// Through a macro: the `%` is doubled where the macro is defined.
__global__ void __launch_bounds__(128) throughMacro(float *out) {
  uint32_t rank;
  asm volatile("mov.u32 %0, " CTARANK ";" : "=r"(rank));
  if (rank == 0)
    __syncthreads();
  out[threadIdx.x] = rank;
}

// The lane id is each thread's own: a barrier under it is divergent. The
// finding's column on the rewritten line is the user's.
__global__ void __launch_bounds__(64) perThread(float *out) {
  uint32_t lane;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(lane)); if (lane < 16) __syncthreads();
  out[threadIdx.x] = lane;
}
