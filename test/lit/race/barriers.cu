// RUN: %check_all_front_ends %s shmem-race

// Every spelling of a block barrier orders the block; barriers and accesses
// inside __device__ helpers count where the helpers are called.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// shmem-lint: block=256
__global__ void cooperativeGroups(float *out) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  s[threadIdx.x] = out[threadIdx.x];
  block.sync();
  float v = s[255 - threadIdx.x];
  cg::this_thread_block().sync();
  s[threadIdx.x] = v;
  cg::sync(block);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

// shmem-lint: block=256
__global__ void syncthreadsCount(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  int positive = __syncthreads_count(s[threadIdx.x] > 0.0f);
  float v = s[255 - threadIdx.x];
  int all = __syncthreads_and(v > 0.0f);
  s[threadIdx.x] = v;
  int any = __syncthreads_or(v > 1.0f);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256] + positive + all + any;
}

// shmem-lint: block=256
__global__ void inlineAsmBarrier(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  asm volatile("bar.sync 0;");
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__device__ void store(float *p, float v) { p[threadIdx.x] = v; }
__device__ float neighbour(const float *p) { return p[(threadIdx.x + 1) % 256]; }
// CHECK-MESSAGES: :[[@LINE-1]]:53: warning: thread 31 reads s[32] (line 42) while thread 32 writes s[32] (line 41); no barrier between them; add __syncthreads() between line 58 and line 59 [shmem-race]
__device__ void blockBarrier() { __syncthreads(); }

// shmem-lint: block=256
__global__ void helpers(float *out) {
  __shared__ float s[256];
  store(s, out[threadIdx.x]);
  blockBarrier();
  out[threadIdx.x] = neighbour(s);
}

// The race is inside the helpers; the note names the call.
// shmem-lint: block=256
__global__ void helpersNoBarrier(float *out) {
  __shared__ float s[256];
  store(s, out[threadIdx.x]);
  out[threadIdx.x] = neighbour(s);
}

// Templates: each instantiation is analysed with its own tile size.
template <int N>
__global__ void shiftTile(float *out) {
  __shared__ float tile[N];
  tile[threadIdx.x] = out[threadIdx.x];
  if (N > 64)
    __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % N];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads tile[32] (line 69) while thread 32 writes tile[32] (line 66); no barrier between them: the __syncthreads() at line 68 does not run: no thread of this block takes its side of the branch at line 67; add __syncthreads() between line 66 and line 69 [shmem-race]
}

// All extern __shared__ arrays share one buffer.
// shmem-lint: block=128
__global__ void dynamicShared(float *out) {
  extern __shared__ float dyn[];
  float *first = dyn;
  float *second = dyn + 128;
  first[threadIdx.x] = out[threadIdx.x];
  second[threadIdx.x] = first[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = first[(threadIdx.x + 64) % 128] + dyn[128 + threadIdx.x];
  second[(threadIdx.x + 1) % 128] = 0.0f;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 31 writes dyn[160] (line 83) while thread 32 reads dyn[160] (line 82); no barrier between them; add __syncthreads() between line 82 and line 83 [shmem-race]
}

// bar.red and barrier.red are barriers too (a block-wide reduction that
// waits for every thread, PTX ISA "barrier"): they order the block.
// shmem-lint: block=256
__global__ void inlineAsmReductionBarrier(float *out) {
  __shared__ float s[256];
  int any;
  s[threadIdx.x] = out[threadIdx.x];
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; barrier.red.or.pred p, 0, p; selp.u32 %0, 1, 0, p; }"
               : "=r"(any) : "r"(threadIdx.x));
  float v = s[255 - threadIdx.x];
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.or.pred p, 0, p; selp.u32 %0, 1, 0, p; }"
               : "=r"(any) : "r"(threadIdx.x));
  s[threadIdx.x] = v + any;
  // Not a barrier: bar.arrive does not wait.
  asm volatile("bar.arrive 1, 256;");
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-4]]); no barrier between them; add __syncthreads() between line [[@LINE-4]] and line [[@LINE-1]] [shmem-race]
}

void launch(float *p) {
  shiftTile<128><<<1, 128>>>(p);
  shiftTile<64><<<1, 64>>>(p);
}
