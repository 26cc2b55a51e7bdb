// RUN: %check_all_front_ends %s shmem-race

// Reads of cp.async destinations before and after their wait. The kernels
// are those of bench/gpu/widths/asyncrace.cu; on the H200 (4096 blocks x 50
// launches) the racy ones return wrong values (ownNoWait: every value,
// barrierBeforeWait: 52,428,574 of 52,428,800, waitNoBarrier: 132,103,
// twoStagesEarly: 419,024) and racecheck reports each; the others return
// none wrong and racecheck is clean.
#include <cuda_pipeline_primitives.h>

constexpr int N = 256;

#define PROLOGUE                                                               \
  __shared__ float s[N];                                                       \
  int t = threadIdx.x;                                                         \
  const float *g = in + blockIdx.x * N;                                        \
  s[t] = -1.0f;                                                                \
  __syncthreads();

__global__ void __launch_bounds__(N) ownNoWait(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  float v = s[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: race with an async copy: thread 0 reads 's[0]' while the copy it issued at line 22 may still be writing it; the copy is complete only after the wait at line 26: read after it [shmem-race]
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

__global__ void __launch_bounds__(N) ownWaited(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = s[t];
}

// The barrier orders the read after every thread's issue, not after the
// copies: only the wait completes them.
__global__ void __launch_bounds__(N) barrierBeforeWait(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __syncthreads();
  float v = s[(t + 1) % N];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: race with an async copy: thread 0 reads 's[1]' while the copy thread 1 issued at line 42 may still be writing it; a barrier does not complete an async copy: thread 1 must wait for it (line 47) before the barrier that orders this read [shmem-race]
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

__global__ void __launch_bounds__(N) waitThenBarrier(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}

// Each thread waits for its own copy only: the neighbour's needs a barrier.
__global__ void __launch_bounds__(N) waitNoBarrier(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  // CHECK-MESSAGES: :[[@LINE+3]]:29: warning: thread 31 reads s[32] (line [[@LINE+3]]) while thread 32 writes s[32] (line [[@LINE-1]]); no barrier between them; add __syncthreads() between line [[@LINE-1]] and line [[@LINE+3]] [shmem-race]
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}

// wait_prior(1) leaves the newest group in flight.
__global__ void __launch_bounds__(N) twoStagesEarly(float *out, const float *in) {
  __shared__ float s2[2][N];
  int t = threadIdx.x;
  const float *g = in + blockIdx.x * N;
  s2[0][t] = s2[1][t] = -1.0f;
  __syncthreads();
  __pipeline_memcpy_async(&s2[0][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_memcpy_async(&s2[1][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  float v = s2[1][t];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: race with an async copy: thread 0 reads 's2[1][0]' while the copy it issued at line 79 may still be writing it; the copy is complete only after the wait at line 84: read after it [shmem-race]
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

__global__ void __launch_bounds__(N) twoStagesWaited(float *out, const float *in) {
  __shared__ float s2[2][N];
  int t = threadIdx.x;
  const float *g = in + blockIdx.x * N;
  s2[0][t] = s2[1][t] = -1.0f;
  __syncthreads();
  __pipeline_memcpy_async(&s2[0][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_memcpy_async(&s2[1][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  out[blockIdx.x * N + t] = s2[0][t];
}

// The inline-PTX form, as ggml's cp_async_cg_16 and CUTLASS write it.
__device__ void copy16(void *dst, const void *src) {
  unsigned d = __cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src));
}

__global__ void __launch_bounds__(N) asmNoWait(float4 *out, const float4 *in) {
  __shared__ float4 q[N];
  int t = threadIdx.x;
  copy16(&q[t], &in[t]);
  asm volatile("cp.async.commit_group;");
  __syncthreads();
  out[t] = q[N - 1 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: race with an async copy: thread 0 reads 'q[255]' while the copy thread 255 issued at line {{[0-9]+}} may still be writing it; no wait for that copy follows: add `cp.async.wait_all` (__pipeline_wait_prior(0)) before the read [shmem-race]
}

__global__ void __launch_bounds__(N) asmWaited(float4 *out, const float4 *in) {
  __shared__ float4 q[N];
  int t = threadIdx.x;
  copy16(&q[t], &in[t]);
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
  __syncthreads();
  out[t] = q[N - 1 - t];
}

__global__ void __launch_bounds__(N) asmWaitAll(float4 *out, const float4 *in) {
  __shared__ float4 q[N];
  int t = threadIdx.x;
  copy16(&q[t], &in[t]);
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  out[t] = q[N - 1 - t];
}

// cuda::memcpy_async completed through a cuda::barrier: the walk does not
// follow the barrier's phases, so it does not claim when the copy
// completes (declared here as <cuda/barrier> does, whose __shared__
// barrier clang does not accept).
namespace cuda {
struct barrier_like {
  __device__ void arrive_and_wait();
};
template <class T, class S, class B>
__device__ int memcpy_async(T *dst, const T *src, S size, B &sync);
} // namespace cuda

__global__ void __launch_bounds__(N) viaBarrier(float *out, const float *in,
                                                cuda::barrier_like &bar) {
  __shared__ float s[N];
  int t = threadIdx.x;
  cuda::memcpy_async(&s[t], &in[t], sizeof(float), bar);
  bar.arrive_and_wait();
  __syncthreads();
  out[t] = s[(t + 1) % N];
}

// Reads in a loop to a run-time bound, and under a data-dependent branch:
// each is evaluated where it may run (the loop's first iteration, the
// threads that may take the branch). From bench/gpu/random (r1000_39),
// where racecheck reports the first.
__global__ void __launch_bounds__(N) loopBeforeWait(float *out, const float *in, int n) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __syncthreads();
  float v = 0.0f;
  for (int i = 0; i < n; ++i)
    v += s[(t + 1 + i) % N];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: race with an async copy: thread 0 reads 's[1]' in the first iteration of the loop at line [[@LINE-2]] while the copy thread 1 issued at line [[@LINE-6]] may still be writing it; a barrier does not complete an async copy{{.*}} [shmem-race]
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

__global__ void __launch_bounds__(N) loopAfterWait(float *out, const float *in, int n) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  float v = 0.0f;
  for (int i = 0; i < n; ++i)
    v += s[(t + 1 + i) % N];
  out[blockIdx.x * N + t] = v;
}

__global__ void __launch_bounds__(N) branchBeforeWait(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __syncthreads();
  float v = 0.0f;
  if (in[t] >= 0.0f)
    v = s[(t + 1) % N];
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: race with an async copy: thread 0 reads 's[1]' while the copy thread 1 issued at line [[@LINE-6]] may still be writing it{{.*}} [shmem-race]
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

__global__ void __launch_bounds__(N) branchAfterWait(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  float v = 0.0f;
  if (in[t] >= 0.0f)
    v = s[(t + 1) % N];
  out[blockIdx.x * N + t] = v;
}

// cooperative_groups::memcpy_async: the group's threads copy the bytes
// between them (thread r the 16-byte pieces r, r + N, ...), complete at
// cg::wait(group), which also syncs the group.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void __launch_bounds__(N) groupWaited(float *out, const float *in) {
  __shared__ float s4[4 * N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s4, in, sizeof(float) * 4 * N);
  cg::wait(block);
  out[threadIdx.x] = s4[(threadIdx.x * 4 + 5) % (4 * N)];
}

__global__ void __launch_bounds__(N) groupOwnEarly(float *out, const float *in) {
  __shared__ float s4[4 * N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s4, in, sizeof(float) * 4 * N);
  float v = s4[threadIdx.x * 4 + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: race with an async copy: thread 0 reads 's4[1]' while the copy it issued at line [[@LINE-2]] may still be writing it; the copy is complete only after the wait at line [[@LINE+1]]: read after it [shmem-race]
  cg::wait(block);
  out[threadIdx.x] = v;
}

// A warp's tile copies its own quarter; wait_prior<0> waits for it.
__global__ void __launch_bounds__(N) tileWaited(float *out, const float *in) {
  __shared__ float s4[4 * N];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned w = block.thread_rank() / 32;
  cg::memcpy_async(tile, s4 + w * 128, in + w * 128, sizeof(float) * 128);
  cg::wait_prior<0>(tile);
  out[threadIdx.x] = s4[w * 128 + (tile.thread_rank() * 4 + 5) % 128];
}

// The size as libcu++'s samples write it, an aligned_size_t held in a
// variable (cuda-samples' globalToShmemAsyncCopy): the copy is seen.
#include <cuda/pipeline>
__global__ void __launch_bounds__(N) shapeEarly(float4 *out, const float4 *in) {
  __shared__ float4 q4[N];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const auto shape = cuda::aligned_size_t<16>(sizeof(float4));
  pipe.producer_acquire();
  cuda::memcpy_async(&q4[threadIdx.x], &in[threadIdx.x], shape, pipe);
  pipe.producer_commit();
  float4 v = q4[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: race with an async copy: thread 0 reads 'q4[0]' while the copy it issued at line [[@LINE-3]] may still be writing it; the copy is complete only after the wait at line [[@LINE+1]]: read after it [shmem-race]
  pipe.consumer_wait();
  out[threadIdx.x] = v;
}

// A byte count that is no multiple of 16 (N + 1 floats): 4-byte pieces,
// thread t copying elements t and t + N (thread 0 also the last).
__global__ void __launch_bounds__(N) groupFourByteEarly(float *out, const float *in) {
  __shared__ float s5[N + 1];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s5, in, sizeof(float) * (N + 1));
  float v = s5[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: race with an async copy: thread 0 reads 's5[0]' while the copy it issued at line [[@LINE-2]] may still be writing it; the copy is complete only after the wait at line [[@LINE+1]]: read after it [shmem-race]
  cg::wait(block);
  out[threadIdx.x] = v + s5[N];
}
