// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Warp collectives (__shfl_*_sync, votes, __match_*_sync, __reduce_*_sync)
// synchronise the lanes of their mask like __syncwarp(mask): every
// non-exited lane the mask names must execute the same call, and only those
// lanes. Blocks of 128 threads.

__global__ void halfWarpFullMaskShuffle(const int *in, int *out) {
  unsigned lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_down_sync(0xffffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_down_sync(0xffffffff, v, 1) is reached only by lanes 0-15 of each warp; lanes 16-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; make the mask name exactly the lanes that take the branch (for example with __ballot_sync(0xffffffff, condition) before it) or hoist the call out of the branch
  out[threadIdx.x] = v;
}

// `x && ...` skips the shuffle in the lanes where x is false.
__global__ void shortCircuitButterfly(const int *in, int *out) {
  int x = in[threadIdx.x] > 0;
  for (int o = 16; o > 0; o >>= 1)
    x = x && __shfl_xor_sync(0xffffffff, x, o);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: __shfl_xor_sync(0xffffffff, x, o) is reached only by the lanes for which 'x' is true, but every lane of the warp must reach it, so the result is undefined [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-2]]:9: note: this condition depends on the value loaded by 'in[threadIdx.x]' from a thread-dependent address; make the mask name exactly the lanes that take the branch (for example with __ballot_sync(0xffffffff, condition) before it) or hoist the call out of the branch
  out[threadIdx.x] = x;
}

__global__ void conditionalBallot(const int *in, unsigned *out) {
  unsigned lane = threadIdx.x % 32;
  bool c = lane % 2 == 0;
  unsigned b = c ? __ballot_sync(~0u, in[threadIdx.x] > 0) : 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: __ballot_sync(~0u, in[threadIdx.x] > 0) is reached only by lanes 0, 2, 4, ..., 30 of each warp; lanes 1, 3, 5, ..., 31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
  out[threadIdx.x] = b;
}

__global__ void laneDependentTripCount(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (unsigned i = 0; i < threadIdx.x % 4; ++i)
    v += __any_sync(0xffffffff, v > i);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __any_sync(0xffffffff, v > i) runs a lane-dependent number of times: the condition 'i < threadIdx.x % 4' of the loop at line [[@LINE-2]] differs between lanes, so the result is undefined [shmem-divergent-barrier]
  out[threadIdx.x] = v;
}

// The mask is right for the lanes that call, but the others it names don't.
__global__ void ballotMaskTooWide(const int *in, int *out) {
  unsigned lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  unsigned m = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 8)
    v = __shfl_sync(m, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: __shfl_sync(m, v, 0) is reached only by lanes 0-7 of each warp; lanes 8-15, which its mask 0xffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
  out[threadIdx.x] = v;
}

// Every collective the CUDA guide lists, each under a lane-dependent branch.
__global__ void everyCollective(const int *in, int *out) {
  unsigned lane = threadIdx.x % 32;
  unsigned u = in[threadIdx.x];
  int v = in[threadIdx.x], pred = 0;
  if (lane == 0) {
    v += __shfl_sync(0xffffffff, v, 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_sync(0xffffffff, v, 3) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __shfl_up_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_up_sync(0xffffffff, v, 1) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __all_sync(0xffffffff, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __all_sync(0xffffffff, v) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __uni_sync(0xffffffff, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __uni_sync(0xffffffff, v) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __match_any_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __match_any_sync(0xffffffff, u) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __match_all_sync(0xffffffff, u, &pred);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __match_all_sync(0xffffffff, u, &pred) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __reduce_add_sync(0xffffffff, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __reduce_add_sync(0xffffffff, v) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    v += __reduce_min_sync(0xffffffff, v) + __reduce_max_sync(0xffffffff, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __reduce_min_sync(0xffffffff, v) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-2]]:45: warning: __reduce_max_sync(0xffffffff, v) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    u = __reduce_and_sync(0xffffffff, u) ^ __reduce_or_sync(0xffffffff, u) ^
        __reduce_xor_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-2]]:9: warning: __reduce_and_sync(0xffffffff, u) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-3]]:44: warning: __reduce_or_sync(0xffffffff, u) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: warning: __reduce_xor_sync(0xffffffff, u) is reached only by lane 0 of each warp; lanes 1-31, which its mask 0xffffffff names, never arrive, so the result is undefined [shmem-divergent-barrier]
  }
  out[threadIdx.x] = v + u + pred;
}

// A lane outside a constant mask executes the call.
__global__ void laneOutsideMask(const int *in, int *out) {
  int v = in[threadIdx.x];
  v = __shfl_xor_sync(0x0000ffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __shfl_xor_sync(0x0000ffff, v, 1) is executed by lanes 16-31 of each warp, which its mask 0xffff does not name; that is undefined behaviour: every lane that executes it must be in its mask [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: name every executing lane in the mask (0xffff names lanes 0-15), or execute it only on those lanes
  out[threadIdx.x] = v;
}

// A helper that shuffles, called under a lane-dependent branch.
__device__ int warpSum(int v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
__global__ void helperUnderBranch(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = warpSum(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the call to 'warpSum' executes __shfl_down_sync(0xffffffff, v, o) but is reached only by lanes 0-15 of each warp; lanes 16-31, which its mask names, never arrive, so the result is undefined [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; make the mask name exactly the lanes that take the branch (for example with __ballot_sync(0xffffffff, condition) before it) or hoist the call out of the branch
  // CHECK-MESSAGES: :[[@LINE-9]]:10: note: the collective is here
  out[threadIdx.x] = v;
}

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// Full-warp collectives that every lane reaches.
__global__ void wholeWarp(const int *in, int *out) {
  int v = in[threadIdx.x];
  v = warpSum(v);
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  if (__all_sync(0xffffffff, v > 0))
    v = __shfl_sync(0xffffffff, v, 0);
  if (threadIdx.x / 32 == 1)
    v = __shfl_xor_sync(0xffffffff, v, 1); // Whole warps take the branch.
  out[threadIdx.x] = v + b;
}

// The mask names exactly the lanes that take the branch.
__global__ void halfWarpHalfMask(const int *in, int *out) {
  unsigned lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_down_sync(0x0000ffff, v, 1);
  out[threadIdx.x] = v;
}

// A mask computed from the same condition, or from the active lanes.
__global__ void computedMasks(const int *in, int *out) {
  unsigned lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  unsigned m = __ballot_sync(~0u, lane < 16);
  if (lane < 16)
    v = __shfl_sync(m, v, 0);
  if (lane >= 8) {
    unsigned a = __activemask();
    v += __shfl_down_sync(a, v, 1);
  }
  // A mask from data the walk cannot follow: no claim.
  unsigned d = __ballot_sync(~0u, v > 0);
  if (v > 0)
    v = __shfl_sync(d, v, 0);
  out[threadIdx.x] = v;
}

// Lanes that returned need not arrive: the collective waits for the
// non-exited lanes of its mask.
__global__ void afterEarlyExit(const int *in, int *out, int n) {
  int tid = threadIdx.x;
  if (tid >= 72)
    return;
  int v = __shfl_down_sync(0xffffffff, in[tid], 1);
  if (in[tid] < 0)
    return;
  v += __shfl_xor_sync(0xffffffff, v, 1);
  out[tid] = v;
}

// Not launched, so the block shape is assumed (256 threads): a partial
// constant mask then likely encodes the real block width (cuda-samples'
// reduce7<T, 16>), and lanes outside it are the guess's (compare
// laneOutsideMask, launched with 128 threads).
__global__ void maskForNarrowBlock(const int *in, int *out) {
  int v = in[threadIdx.x];
  v = __shfl_xor_sync(0x0000ffff, v, 1);
  out[threadIdx.x] = v;
}

int main() {
  halfWarpFullMaskShuffle<<<1, 128>>>(nullptr, nullptr);
  shortCircuitButterfly<<<1, 128>>>(nullptr, nullptr);
  conditionalBallot<<<1, 128>>>(nullptr, nullptr);
  laneDependentTripCount<<<1, 128>>>(nullptr, nullptr);
  ballotMaskTooWide<<<1, 128>>>(nullptr, nullptr);
  everyCollective<<<1, 128>>>(nullptr, nullptr);
  laneOutsideMask<<<1, 128>>>(nullptr, nullptr);
  helperUnderBranch<<<1, 128>>>(nullptr, nullptr);
  wholeWarp<<<1, 128>>>(nullptr, nullptr);
  halfWarpHalfMask<<<1, 128>>>(nullptr, nullptr);
  computedMasks<<<1, 128>>>(nullptr, nullptr);
  afterEarlyExit<<<1, 128>>>(nullptr, nullptr, 72);
}
