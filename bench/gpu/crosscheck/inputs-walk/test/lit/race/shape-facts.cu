// RUN: %check_all_front_ends %s shmem-race

// Where no launch gives the shape, the shape assumed respects what the
// kernel's code says about it (ShapeFacts): no race is reported for
// threads the code rules out.

#include <cassert>

// Launched nowhere. Every thread indexes a row of 'tile' by threadIdx.x, so
// a block wider than 32 would write past the row: it is analysed for 32
// threads, where each thread has its own column and no write meets another.
__global__ void columnPerThread(const float *in, float *out) {
  __shared__ float tile[32][32];
  for (int i = 0; i < 32; ++i)
    tile[i][threadIdx.x] = in[i * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][0];
}

// The same through a variable that only holds threadIdx.x.
__global__ void columnPerThreadAlias(const float *in, float *out) {
  __shared__ float tile[32][32];
  const unsigned lane = threadIdx.x;
  for (int i = 0; i < 32; ++i)
    tile[i][lane] = in[i * 32 + lane];
  __syncthreads();
  out[lane] = tile[lane][0];
}

// Only threads below 32 reach the writes: nothing bounds the block, which
// is the assumed 256, and the writes stay race-free.
__global__ void guarded(const float *in, float *out) {
  __shared__ float tile[32][32];
  if (threadIdx.x < 32)
    for (int i = 0; i < 32; ++i)
      tile[i][threadIdx.x] = in[i * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[0][0];
}

// A thread may leave before the writes: they bound nothing, the block is
// the assumed 256, and threads 0 and 32 write one word.
__global__ void afterReturn(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  if (in[threadIdx.x] > n)
    return;
  for (int i = 0; i < 32; ++i)
    tile[i][threadIdx.x] = in[i * 32 + threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes tile[1][0] (line [[@LINE-1]], i = 1) in the next iteration of the loop at line [[@LINE-2]] while thread 32 writes tile[1][0] (line [[@LINE-1]], i = 0); no barrier between them
// CHECK-MESSAGES: :[[@LINE-7]]:17: note: analysed for a block of 256 threads (assumed)
  __syncthreads();
  out[threadIdx.x] = tile[0][0];
}

// The loop's first row depends on the thread: not every thread reaches
// every write, so the writes bound nothing.
__global__ void threadDependentLoop(const float *in, float *out) {
  __shared__ float tile[32][32];
  for (int i = threadIdx.x / 32; i < 32; i += 8)
    tile[i][threadIdx.x] = in[i * 32 + threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes tile[8][0] (line [[@LINE-1]]) in the next iteration of the loop at line [[@LINE-2]] while thread 128 writes tile[8][0]
// CHECK-MESSAGES: :[[@LINE-5]]:17: note: analysed for a block of 256 threads (assumed)
  __syncthreads();
  out[threadIdx.x] = tile[0][0];
}

// The kernel states its width; rows of 8 warps are assumed. In one row of
// 256, threads 0 and 32 would write t[0][0].
__global__ void assertedWidth(float *out) {
  __shared__ float t[8][33];
  assert(blockDim.x == 32);
  t[threadIdx.y % 8][threadIdx.x % 32] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x % 8][threadIdx.y];
}

// An early out on a shape other than the kernel's: the shape it keeps is
// the one analysed. A block of 64 x 1 would race on s[threadIdx.x % 32].
__global__ void earlyOut(float *out) {
  __shared__ float s[32][2];
  if (blockDim.x != 32 || blockDim.y != 2)
    return;
  s[threadIdx.x % 32][threadIdx.y] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32][1 - threadIdx.y];
}

// An assumption that states the width. (Clang warns that the getter behind
// blockDim.x might have side effects and drops the assumption from code
// generation; the analysis reads it all the same.)
#pragma clang diagnostic ignored "-Wassume"
__global__ void assumedWidth(float *out) {
  __shared__ float s[64];
  __builtin_assume(blockDim.x == 64);
  s[threadIdx.x % 64] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
