// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Warp-invariant values: lane l holds the same value in every warp
// (`tid % 32`, a load at such an index). A full-warp reduction of one is
// the same in every warp, so it is block-uniform and may decide a block
// barrier; a full-warp reduction of anything else is only warp-uniform.
// Modelled on ggml's flash_attn_mask_to_KV_max: each warp stores its vote
// to buf[warp], and after a barrier every thread reduces buf[tid % 32]
// again, so every warp reduces the same 32 words. Blocks of 128 threads.

#define WARP 32

// A shuffle-xor butterfly over offsets 16 ... 1: every lane ends with the
// same value.
template <int width = WARP>
__device__ __forceinline__ int warpAll(int x) {
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
  return x;
}

__device__ __forceinline__ float warpMin(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x = fminf(x, __shfl_xor_sync(0xffffffff, x, offset));
  return x;
}

// shmem-lint: block=128
__global__ void maskToMax(const float *mask, int *out, int tiles, int stride) {
  const int tid = threadIdx.x;
  __shared__ int buf[WARP];
  if (tid < WARP)
    buf[tid] = 1;
  __syncthreads();
  int kv = (tiles - 1) * 64;
  for (; kv >= 0; kv -= 64) {
    int allInf = 1;
    for (int j = 0; j < 4; ++j)
      allInf = allInf && int(mask[j * stride + kv / 2 + tid] < -1e30f);
    allInf = warpAll(allInf);
    if (tid % WARP == 0)
      buf[tid / WARP] = allInf;
    __syncthreads();
    allInf = buf[tid % WARP];
    __syncthreads();
    allInf = warpAll(allInf);
    if (!allInf)
      break;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = kv + 64;
}

// The same with __all_sync, a straight-line butterfly, a min butterfly and
// a block of 32 x 4 (threadIdx.x is the lane).
// shmem-lint: block=128
__global__ void intrinsics(const float *in, float *out, int n) {
  __shared__ float buf[WARP];
  unsigned tid = threadIdx.x, lane = tid & 31;
  for (int i = 0; i < n; ++i) {
    float v = in[i * 128 + tid];
    if (lane == 0)
      buf[tid / 32] = v;
    __syncthreads();
    float w = buf[lane];
    if (__all_sync(0xffffffff, w > 0.0f))
      break;
    w += __shfl_xor_sync(0xffffffff, w, 16);
    w += __shfl_xor_sync(0xffffffff, w, 8);
    w += __shfl_xor_sync(0xffffffff, w, 4);
    w += __shfl_xor_sync(0xffffffff, w, 2);
    w += __shfl_xor_sync(0xffffffff, w, 1);
    if (w > 1.0f)
      break;
    if (warpMin(buf[lane]) < 0.0f)
      break;
    __syncthreads();
  }
}

// shmem-lint: block=32x4
__global__ void twoDimensional(const int *in, int n) {
  __shared__ int buf[WARP];
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0)
      buf[threadIdx.y] = in[i * 4 + threadIdx.y];
    __syncthreads();
    if (__any_sync(0xffffffff, buf[threadIdx.x] != 0))
      return;
    __syncthreads();
  }
}

//===----------------------------------------------------------------------===//
// Still reported.
//===----------------------------------------------------------------------===//

// Every thread reduces buf[tid]: each warp a different slice, so the
// result differs between warps.
// shmem-lint: block=128
__global__ void perWarpSlice(const float *mask, int *out, int tiles) {
  const int tid = threadIdx.x;
  __shared__ int buf[128];
  int kv = (tiles - 1) * 64;
  for (; kv >= 0; kv -= 64) {
    buf[tid] = int(mask[kv + tid] < -1e30f);
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which '!allInf' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE+3]]:9: note: this condition depends on a warp-wide vote or reduction, which may differ between warps; let every thread reach the barrier instead of jumping past it (guard the work instead)
    // CHECK-MESSAGES: :[[@LINE+3]]:7: note: the threads that do not reach the barrier break out of the loop here
    int allInf = warpAll(buf[tid]);
    if (!allInf)
      break;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = kv + 64;
}

// A butterfly that stops at offset 2 leaves lanes l and l ^ 1 apart.
// shmem-lint: block=128
__global__ void partialButterfly(const int *in, int n) {
  __shared__ int buf[WARP];
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x < WARP)
      buf[threadIdx.x] = in[i * 32 + threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'x != 0' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    int x = buf[threadIdx.x % WARP];
    for (int offset = 16; offset > 1; offset >>= 1)
      x += __shfl_xor_sync(0xffffffff, x, offset);
    if (x != 0)
      break;
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: this condition depends on the value loaded by 'buf[threadIdx.x % WARP]' from a thread-dependent address; let every thread reach the barrier instead of jumping past it (guard the work instead)
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: the threads that do not reach the barrier break out of the loop here
    // The lanes that broke out in an earlier iteration miss the shuffles of
    // the next: the collective is divergent too.
    // CHECK-MESSAGES: :[[@LINE-7]]:12: warning: __shfl_xor_sync(0xffffffff, x, offset) is reached only by the lanes for which 'x != 0' is false, but every lane of the warp must reach it, so the result is undefined [shmem-divergent-barrier]
  }
}

// A vote over half a warp is not the same in the other half.
// shmem-lint: block=128
__global__ void partialMask(const int *in, int n) {
  __shared__ int buf[WARP];
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x < WARP)
      buf[threadIdx.x] = in[i * 32 + threadIdx.x];
    __syncthreads();
    // Lanes 16-31 execute the vote without being in its mask.
    // CHECK-MESSAGES: :[[@LINE+1]]:9: warning: __all_sync() is executed by lanes 16-31 of each warp, which its mask 0xffff does not name; that is undefined behaviour: every lane that executes it must be in its mask [shmem-divergent-barrier]
    if (__all_sync(0x0000ffff, buf[threadIdx.x % WARP]))
      __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __syncthreads() is reached only by the threads for which '__all_sync(0x0000ffff, buf[threadIdx.x % WARP])' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition depends on '__all_sync(0x0000ffff, buf[threadIdx.x % WARP])', which may differ between warps;
  }
}

// A warp-invariant value with no reduction still differs between lanes.
// shmem-lint: block=128
__global__ void noReduction(const int *in) {
  __shared__ int buf[WARP];
  if (threadIdx.x < WARP)
    buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (buf[threadIdx.x % WARP] > 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'buf[threadIdx.x % WARP] > 0' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on the value loaded by 'buf[threadIdx.x % WARP]' from a thread-dependent address;
}

// Blocks of 48 threads: the second warp holds 16 lanes and reduces other
// values than the first.
// shmem-lint: block=48
__global__ void partialWarp(const int *in) {
  __shared__ int buf[WARP];
  if (threadIdx.x < WARP)
    buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (__any_sync(0xffffffff, buf[threadIdx.x % WARP]))
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which '__any_sync(0xffffffff, buf[threadIdx.x % WARP])' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on '__any_sync(0xffffffff, buf[threadIdx.x % WARP])', which may differ between warps;
}
