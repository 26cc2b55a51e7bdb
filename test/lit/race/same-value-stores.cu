// RUN: %check_all_front_ends %s shmem-race
// RUN: %check_all_front_ends %s shmem-race --prefix=CHECK-BENIGN --tidy-config='{CheckOptions: {shmem-race.ReportBenign: true}}' --plugin-args=report-benign=1 --driver-args=--report-benign=1
// With the toolkit's own cooperative groups (cg::reduce takes its operand
// by forwarding reference there), the same findings:
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit --checks=shmem-race %s -- -std=c++17 -isystem %cuda_toolkit/include/cccl | FileCheck --check-prefix=CHECK-MESSAGES %s %}

// Threads that store the same value to one word race only benignly, which
// is reported only with ReportBenign. Which values are the same comes from
// the uniformity analysis: a warp-uniform value stored by lanes of one
// warp, a block-uniform value stored by any threads, in one instance of one
// store. A thread that stores such a value and reads it back reads that
// value whichever store it sees.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// After a __shfl_xor_sync butterfly every lane of a warp holds the sum
// (ggml's mul_mat_vec_f lets every lane store it).
// shmem-lint: block=64
__global__ void everyLaneStores(const float *in, float *out) {
  __shared__ float buf[2];
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  buf[threadIdx.x / 32] = v;
  // CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 1 writes buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-1]]) with no barrier between them; every lane of the warp stores the same value [shmem-race]
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] + buf[1];
}

// The same with the sums in a local array, one per column, as ggml's
// mul_mat_vec_f keeps them.
template <int width = 32> __device__ float warpSum(float x) {
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, width);
  return x;
}

// shmem-lint: block=64
__global__ void perColumnSums(const float *in, float *out, int stride) {
  __shared__ float buf[2];
  float sum[4];
  for (int j = 0; j < 4; ++j)
    sum[j] = in[j * stride + threadIdx.x];
  for (int j = 0; j < 4; ++j) {
    sum[j] = warpSum(sum[j]);
    buf[threadIdx.x / 32] = sum[j];
    // CHECK-BENIGN: :[[@LINE-1]]:5: warning: benign race: thread 1 writes buf[0] (line [[@LINE-1]], j = 0) while thread 0 writes buf[0] (line [[@LINE-1]], j = 0) with no barrier between them; every lane of the warp stores the same value [shmem-race]
    __syncthreads();
    if (threadIdx.x == 0)
      out[j] = buf[0] + buf[1];
    __syncthreads();
  }
}

// shmem-lint: block=64
__global__ void oneLaneStores(const float *in, float *out) {
  __shared__ float buf[2];
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0)
    buf[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] + buf[1];
}

// cg::reduce over a warp tile: one result per warp.
// shmem-lint: block=128
__global__ void tileReduce(const int *in, int *out) {
  __shared__ int buf[4];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int sum = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  buf[tile.meta_group_rank()] = sum;
  // CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 1 writes buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-1]]) with no barrier between them; every lane of the warp stores the same value [shmem-race]
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] + buf[1] + buf[2] + buf[3];
}

// Every thread stores one pointer, then reads it back.
// shmem-lint: block=64
__global__ void samePointer(float *a, float *b, int which) {
  __shared__ float *p;
  p = which ? a : b;
  // CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 32 writes p (line [[@LINE-1]]) while thread 0 writes p (line [[@LINE-1]]) with no barrier between them; every thread stores the same value [shmem-race]
  float *q = p;
  q[threadIdx.x] = 1.0f;
}

// A block-wide vote, stored by every thread.
// shmem-lint: block=64
__global__ void blockVote(const int *in, int *out) {
  __shared__ int any;
  any = __syncthreads_or(in[threadIdx.x]);
  // CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 32 writes any (line [[@LINE-1]]) while thread 0 writes any (line [[@LINE-1]]) with no barrier between them; every thread stores the same value [shmem-race]
  __syncthreads();
  out[threadIdx.x] = any;
}

//===----------------------------------------------------------------------===//
// Different values: still races.
//===----------------------------------------------------------------------===//

// Offsets 16 ... 2 leave lanes l and l ^ 1 with different sums.
// shmem-lint: block=64
__global__ void partialButterfly(const float *in, float *out) {
  __shared__ float buf[2];
  float v = in[threadIdx.x];
  for (int o = 16; o > 1; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  buf[threadIdx.x / 32] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 1 writes buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer (both threads are in warp 0) [shmem-race]
  // CHECK-BENIGN: :[[@LINE-2]]:3: warning: thread 1 writes buf[0] (line [[@LINE-2]]) while thread 0 writes buf[0] (line [[@LINE-2]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer (both threads are in warp 0) [shmem-race]
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] + buf[1];
}

// A warp's sum stored by every warp to one word.
// shmem-lint: block=64
__global__ void warpSumToOneWord(const float *in, float *out) {
  __shared__ float total;
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  total = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes total (line [[@LINE-1]]) while thread 0 writes total (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  // CHECK-BENIGN: :[[@LINE-2]]:3: warning: thread 32 writes total (line [[@LINE-2]]) while thread 0 writes total (line [[@LINE-2]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  __syncthreads();
  out[blockIdx.x] = total;
}

// Tiles of 16: two results per warp.
// shmem-lint: block=64
__global__ void halfWarpTiles(const int *in, int *out) {
  __shared__ int buf[2];
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  buf[threadIdx.x / 32] = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 0 writes buf[0] (line [[@LINE-1]]) while thread 16 writes buf[0] (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer (both threads are in warp 0) [shmem-race]
  // CHECK-BENIGN: :[[@LINE-2]]:3: warning: thread 0 writes buf[0] (line [[@LINE-2]]) while thread 16 writes buf[0] (line [[@LINE-2]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer (both threads are in warp 0) [shmem-race]
  __syncthreads();
  out[threadIdx.x] = buf[0] + buf[1];
}

// One pointer per warp, read back by every thread.
// shmem-lint: block=64
__global__ void pointerPerWarp(float *a) {
  __shared__ float *p;
  p = a + threadIdx.x / 32 * 32;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes p (line [[@LINE-1]]) while thread 0 writes p (line [[@LINE-1]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  // CHECK-BENIGN: :[[@LINE-2]]:3: warning: thread 32 writes p (line [[@LINE-2]]) while thread 0 writes p (line [[@LINE-2]]); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  float *q = p;
  q[threadIdx.x % 32] = 1.0f;
}

// The same value in one iteration, another in the next: a thread already
// in the next iteration stores another value.
// shmem-lint: block=64
__global__ void valuePerIteration(const int *in, int *out, int n) {
  __shared__ int cur;
  int acc = 0;
  for (int k = 0; k < n; ++k) {
    cur = in[k];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes cur (line [[@LINE-1]]) in the next iteration of the loop at line [[@LINE-2]] while thread 32 writes cur (line [[@LINE-1]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
    // CHECK-BENIGN: :[[@LINE-2]]:5: warning: thread 0 writes cur (line [[@LINE-2]]) in the next iteration of the loop at line [[@LINE-3]] while thread 32 writes cur (line [[@LINE-2]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
    acc += cur;
  }
  out[threadIdx.x] = acc;
}

// A vector of constants, built with make_float2 (not constexpr) and stored
// through float2's operator=: the same value in every thread
// (bench/gpu/random: racecheck reports none of the 46 kernels that do so).
// shmem-lint: block=64
__global__ void vectorConstant(float *out) {
  __shared__ float2 v[32];
  v[threadIdx.x % 32] = make_float2(1.0f, 1.0f + 1.0f);
  // CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 32 writes v[0] (line [[@LINE-1]]) while thread 0 writes v[0] (line [[@LINE-1]]) with no barrier between them; every thread stores the same value [shmem-race]
  __syncthreads();
  float2 r = v[(threadIdx.x + 1) % 32];
  out[threadIdx.x] = r.x + r.y;
}

// One component per thread: different values, a write-write race.
// shmem-lint: block=64
__global__ void vectorPerThread(float *out) {
  __shared__ float2 v[32];
  v[threadIdx.x % 32] = make_float2(1.0f, (float)threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes v[0] (line [[@LINE-1]]) while thread 0 writes v[0] (line [[@LINE-1]]); {{.*}} [shmem-race]
  // CHECK-BENIGN: :[[@LINE-2]]:3: warning: thread 32 writes v[0] (line [[@LINE-2]]) while thread 0 writes v[0] (line [[@LINE-2]]); {{.*}} [shmem-race]
  __syncthreads();
  float2 r = v[(threadIdx.x + 1) % 32];
  out[threadIdx.x] = r.x + r.y;
}
