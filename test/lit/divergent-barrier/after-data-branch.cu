// RUN: %check_all_front_ends %s shmem-divergent-barrier

// A branch on data splits the threads in a way the analysis does not know,
// but when neither side returns, breaks or continues every thread reaches
// the join: the barriers after it are judged with exact masks, as without
// the branch.

// shmem-lint: block=64
__global__ void afterDataBranch(int *out) {
  if (out[threadIdx.x] > 0)
    out[threadIdx.x] = 0;
  if (threadIdx.x % 32 < 16)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp() is reached only by lanes 0-15 of each warp; lanes 16-31, which its mask names, never arrive, so the warp may hang [shmem-divergent-barrier]
  if (threadIdx.x % 32 < 16)
    __syncwarp(0xffff);
}

// A side that returns: which threads are left is not known, so there is no
// exact mask to judge the partial mask by: no claim.
// shmem-lint: block=64
__global__ void afterDataReturn(int *out) {
  if (out[threadIdx.x] > 0)
    return;
  if (threadIdx.x % 32 < 16)
    __syncwarp(0xffff);
}
