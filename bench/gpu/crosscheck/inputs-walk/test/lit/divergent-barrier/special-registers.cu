// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Inline asm that only copies a PTX special register into its output is
// as widely shared as the register (other asm outputs still vary between
// threads: inline-asm-known-limit.cu).

// One value per block: every thread of a block takes the same side.
__global__ void __launch_bounds__(128) clusterId(float *out) {
  unsigned rank;
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(rank));
  if (rank == 0)
    __syncthreads();
  out[threadIdx.x] = rank;
}

// One value for the launch.
__global__ void __launch_bounds__(128) clusterCount(float *out) {
  unsigned n;
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(n));
  for (unsigned i = 0; i < n; ++i)
    __syncthreads();
  out[threadIdx.x] = n;
}

// One value per warp: a block barrier under it splits the block.
__global__ void __launch_bounds__(128) warpId(float *out) {
  unsigned w;
  asm("mov.u32 %0, %%warpid;" : "=r"(w));
  if (w == 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'w == 0' is true; {{.*}} [shmem-divergent-barrier]
  out[threadIdx.x] = w;
}

// Each thread its own.
__global__ void __launch_bounds__(64) laneId(float *out) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane < 16)
    __syncwarp(0x0000ffffu);
  if (lane < 16)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'lane < 16' is true; {{.*}} [shmem-divergent-barrier]
  out[threadIdx.x] = lane;
}
