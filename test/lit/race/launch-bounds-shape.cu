// RUN: %check_all_front_ends %s shmem-race

// __launch_bounds__ bounds the thread count; it gives no shape. A kernel
// that reads threadIdx.y is analysed in rows of one warp (32 x N/32), the
// split ggml's flash attention, mmq and mmf launch with
// dim3(warp_size, nwarps) from a wrapper no launch-site rule follows; one
// that reads only threadIdx.x, or whose count is not whole warps, in one
// row of N threads.

// The meta data write of ggml's fattn-mma-f16.cuh (line 1475 at d99724f2):
// in 64 x 1, where threadIdx.y is 0 everywhere, threads 32 and 1 would both
// write meta[8]; in 32 x 2 every writer has its own word. The write to
// owner races in 32 x 2 only (threads (0,0) and (0,1)), which shows the
// shape used.
__global__ void __launch_bounds__(64) rowsOfWarps(float *out) {
  __shared__ float meta[64];
  __shared__ int owner[32];
  const int jc = threadIdx.y * 16 + (threadIdx.x % 2) * 8 + threadIdx.x / 4;
  if (threadIdx.x % 4 < 2)
    meta[jc] = threadIdx.x;
  owner[threadIdx.x] = threadIdx.y;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread (0,1) writes owner[0] (line [[@LINE-1]]) while thread (0,0) writes owner[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-MESSAGES: :[[@LINE-8]]:39: note: analysed for a block of 32x2 threads (__launch_bounds__(64) in rows of one warp: the kernel reads threadIdx.y or .z)
  __syncthreads();
  out[threadIdx.x + 32 * threadIdx.y] = meta[threadIdx.x] + owner[threadIdx.x];
}

// The same count, threadIdx.x only: one row of 64, where threads 0 and 32
// write s[0] (in 32 x 2 they would store the same value).
__global__ void __launch_bounds__(64) oneRow(float *out) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes s[0] (line [[@LINE-1]]) while thread 0 writes s[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-MESSAGES: :[[@LINE-4]]:39: note: analysed for a block of 64 threads (__launch_bounds__)
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32];
}

// 48 threads are no whole rows of warps: one row of 48 still.
__global__ void __launch_bounds__(48) notWholeWarps(float *out) {
  __shared__ int s[64];
  s[threadIdx.y * 32 + threadIdx.x % 32] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes s[0] (line [[@LINE-1]]) while thread 0 writes s[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-MESSAGES: :[[@LINE-4]]:39: note: analysed for a block of 48 threads (__launch_bounds__)
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// A read of threadIdx.y in a system header (the toolkit's cooperative
// groups linearising the thread index for every shape) says nothing of the
// kernel's shape: one row of 64, where threads 0 and 32 store different
// values to s[0] (in 32 x 2 they would store the same).
#include "Inputs/library-rank.h"
__global__ void __launch_bounds__(64) oneRowThroughLibrary(float *out) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes s[0] (line [[@LINE-1]]) while thread 0 writes s[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-MESSAGES: :[[@LINE-4]]:39: note: analysed for a block of 64 threads (__launch_bounds__)
  __syncthreads();
  out[library_rank()] = s[threadIdx.x % 32];
}

// The same read in the user's own code does: rows of one warp.
#include "Inputs/user-rank.h"
__global__ void __launch_bounds__(64) rowsThroughUserCode(float *out) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = user_rank();
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread (0,1) writes s[0] (line [[@LINE-1]]) while thread (0,0) writes s[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-MESSAGES: :[[@LINE-4]]:39: note: analysed for a block of 32x2 threads (__launch_bounds__(64) in rows of one warp: the kernel reads threadIdx.y or .z)
  __syncthreads();
  out[user_rank()] = s[threadIdx.x % 32];
}

// A group's thread_index() is threadIdx, which the kernel reads through
// it: rows of one warp too (the witness names threads by x and y).
#include <cooperative_groups.h>
__global__ void __launch_bounds__(64) rowsThroughThreadIndex(float *out) {
  __shared__ int s[32];
  s[0] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread (0,1) writes s[0] (line [[@LINE-1]]) while thread (1,0) writes s[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-MESSAGES: :[[@LINE-4]]:39: note: analysed for a block of 32x2 threads (__launch_bounds__(64) in rows of one warp: the kernel reads threadIdx.y or .z)
  __syncthreads();
  dim3 t = cooperative_groups::this_thread_block().thread_index();
  out[t.x + 32 * t.y] = s[0];
}

// An annotation still wins over the bound.
// shmem-lint: block=64
__global__ void __launch_bounds__(64) annotated(float *out) {
  __shared__ int s[64];
  s[threadIdx.x + threadIdx.y] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
