// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Warp barriers: every lane named in the mask must arrive, and only those.
// Blocks of 128 threads.

__global__ void fullMaskHalfWarp(const int *in, int *out) {
  __shared__ int s[4][32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[threadIdx.x];
  if (lane < 16) {
    s[warp][lane] = v;
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp() is reached only by lanes 0-15 of each warp; lanes 16-31, which its mask names, never arrive, so the warp may hang [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; make the mask name exactly the lanes that take the branch (for example with __ballot_sync(0xffffffff, condition) before it) or hoist the barrier out of the branch
    v = s[warp][lane ^ 1];
  }
  out[threadIdx.x] = v;
}

__global__ void maskOfTheOtherHalf(int *out) {
  unsigned lane = threadIdx.x % 32;
  if (lane >= 16)
    __syncwarp(0x0000ffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp(0x0000ffff) is executed by lanes 16-31 of each warp, which its mask does not name; that is undefined behaviour [shmem-divergent-barrier]
}

// An unknown, lane-dependent condition with a full mask.
__global__ void fullMaskDataDependent(const int *in, int *out) {
  if (in[threadIdx.x] > 0)
    __syncwarp(0xffffffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp(0xffffffff) is reached only by the lanes for which 'in[threadIdx.x] > 0' is true, but every lane of the warp must reach it, so the warp may hang [shmem-divergent-barrier]
}

__global__ void laneDependentLoop(int *out) {
  for (unsigned i = 0; i < threadIdx.x % 4; ++i)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp() runs a lane-dependent number of times: the condition 'i < threadIdx.x % 4' of the loop at line [[@LINE-2]] differs between lanes, so the warp may hang [shmem-divergent-barrier]
}

// A warp vote is the same in the whole warp, not in the whole block.
__global__ void voteForBlockBarrier(const int *in) {
  if (__any_sync(0xffffffff, in[threadIdx.x] > 0))
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which '__any_sync(0xffffffff, in[threadIdx.x] > 0)' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on '__any_sync(0xffffffff, in[threadIdx.x] > 0)', which may differ between warps;
}

// After an early return, the lanes that left need not arrive; the others
// still must. Threads 72-127 have returned: in warp 2 lanes 8-31 are gone.
__global__ void halfWarpAfterExit(int *out) {
  unsigned lane = threadIdx.x % 32;
  if (threadIdx.x >= 72)
    return;
  if (lane < 16)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp() is reached only by lanes 0-15 of warp 0; lanes 16-31, which its mask names, never arrive, so the warp may hang [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x;
  out[threadIdx.x] = 0;
}

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// The mask names exactly the lanes that take the branch.
__global__ void halfMaskHalfWarp(const int *in, int *out) {
  __shared__ int s[4][32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[threadIdx.x];
  if (lane < 16) {
    s[warp][lane] = v;
    __syncwarp(0x0000ffff);
    v = s[warp][lane ^ 1];
  }
  out[threadIdx.x] = v;
}

// Whole warps take the branch.
__global__ void warpUniformConditions(int *out, int n) {
  unsigned warp = threadIdx.x / 32;
  if (warp == 1)
    __syncwarp();
  if (threadIdx.x < 64)
    __syncwarp();
  if ((threadIdx.x >> 5) < n)
    __syncwarp();
  for (unsigned i = 0; i < warp; ++i)
    __syncwarp();
}

// Votes and broadcasts over a full warp are warp-uniform.
__global__ void warpCollectives(const int *in) {
  int v = in[threadIdx.x];
  if (__all_sync(0xffffffff, v > 0))
    __syncwarp();
  if (__ballot_sync(0xffffffff, v > 0) & 1)
    __syncwarp();
  if (__shfl_sync(0xffffffff, v, 0) > 0)
    __syncwarp();
}

// The mask is computed from the lanes that take the branch: no claim.
__global__ void computedMask(const int *in) {
  int v = in[threadIdx.x];
  unsigned mask = __ballot_sync(0xffffffff, v > 0);
  if (v > 0)
    __syncwarp(mask);
}

// No branch at all, but the constant mask leaves out half of the lanes that
// execute it (synccheck: "Invalid arguments").
__global__ void wholeWarpHalfMask(int *out) {
  __shared__ int s[4][32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s[warp][lane] = out[threadIdx.x];
  __syncwarp(0xffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: __syncwarp(0xffff) is executed by lanes 16-31 of each warp, which its mask does not name; that is undefined behaviour: every lane that executes it must be in its mask [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: name every executing lane in the mask (0xffff names lanes 0-15), or execute it only on those lanes
  out[threadIdx.x] = s[warp][lane ^ 1];
}

// The same mask is right when the block has only those 16 lanes.
// shmem-lint: block=16
__global__ void sixteenThreadsHalfMask(int *out) {
  __shared__ int s[16];
  s[threadIdx.x] = out[threadIdx.x];
  __syncwarp(0xffff);
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// An unconditional full mask, and a half mask reached only by its half
// through a helper: silent.
__device__ void halfSync() { __syncwarp(0x0000ffff); }
__global__ void unconditionalMasks(int *out) {
  __syncwarp(0xffffffff);
  if (threadIdx.x % 32 < 16)
    halfSync();
  out[threadIdx.x] = 0;
}

// A warp barrier after an early return: the returned lanes have exited, and
// __syncwarp waits only for the non-exited lanes of its mask.
__global__ void afterEarlyReturn(const int *in, int *out, int n) {
  __shared__ int s[128];
  int tid = threadIdx.x;
  if (tid >= n)
    return;
  s[tid] = in[tid];
  __syncwarp();
  if (in[tid] < 0)
    return;
  __syncwarp(0xffffffff);
  out[tid] = s[tid ^ 1];
}

int main() {
  halfWarpAfterExit<<<1, 128>>>(nullptr);
  afterEarlyReturn<<<1, 128>>>(nullptr, nullptr, 100);
  fullMaskHalfWarp<<<1, 128>>>(nullptr, nullptr);
  maskOfTheOtherHalf<<<1, 128>>>(nullptr);
  fullMaskDataDependent<<<1, 128>>>(nullptr, nullptr);
  laneDependentLoop<<<1, 128>>>(nullptr);
  voteForBlockBarrier<<<1, 128>>>(nullptr);
  halfMaskHalfWarp<<<1, 128>>>(nullptr, nullptr);
  warpUniformConditions<<<1, 128>>>(nullptr, 2);
  warpCollectives<<<1, 128>>>(nullptr);
  computedMask<<<1, 128>>>(nullptr);
  wholeWarpHalfMask<<<1, 128>>>(nullptr);
  unconditionalMasks<<<1, 128>>>(nullptr);
}
