// RUN: %check_all_front_ends %s shmem-divergent-barrier

// A helper whose argument decides a branch the same way in every thread of
// the call: the side it does not take runs in no thread, and a barrier
// there waits for no one. Modelled on ggml's tile loader (fattn-tile.cuh),
// whose lambda returns for the copy widths a tile does not use
// (`if (stride_j == 0) return;`). Blocks of 256 threads (the default).

// Called only with a width whose stride is 0: every thread returns before
// the thread-dependent barrier.
__device__ void stageUnusedWidth(float *s, int width) {
  const int stride = 32 >> width;
  if (stride == 0)
    return;
  s[threadIdx.x] = 0.0f;
  if (threadIdx.x < stride)
    __syncthreads();
}

__global__ void unusedWidth(float *out) {
  __shared__ float s[128];
  stageUnusedWidth(s, 6);
  out[threadIdx.x] = 1.0f;
}

// A copy of the helper, called with a width that is used: the barrier runs
// under a thread-dependent condition and is reported. A copy, not a second
// call of the one above: a finding is reported once per location, and the
// kernel above must be seen to give none of its own.
__device__ void stageUsedWidth(float *s, int width) {
  const int stride = 32 >> width;
  if (stride == 0)
    return;
  s[threadIdx.x] = 0.0f;
  if (threadIdx.x < stride)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 16 (16 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: in the call from kernel 'usedWidth'
}

__global__ void usedWidth(float *out) {
  __shared__ float s[128];
  stageUsedWidth(s, 1);
  out[threadIdx.x] = 1.0f;
}

// A warp collective on the side not taken is not reported either: a loop
// whose trip count is known to be zero here.
__device__ float reduceFirst(float v, int n) {
  for (int i = 0; i < n; ++i)
    if (threadIdx.x < 16)
      v += __shfl_xor_sync(0xffffffffu, v, 1);
  return v;
}

__global__ void zeroTrips(float *out) {
  out[threadIdx.x] = reduceFirst(out[threadIdx.x], 0);
}
