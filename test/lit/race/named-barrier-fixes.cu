// RUN: %check_all_front_ends %s shmem-race
// The fix-its apply, and what they fix is clean for every check (the two
// races that get no fix-it remain):
// RUN: cp %s %t.cu
// RUN: %clang-tidy --load=%tidy_plugin --checks=-*,shmem-race --fix --quiet %t.cu -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 %cuda_flags > /dev/null 2>&1
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %not %shmem-lint --checks='shmem-*' %t.cu | FileCheck --check-prefix=AFTER --implicit-check-not=warning: %s
// AFTER: :{{[0-9]+}}:9: warning: thread 0 reads s[47]
// AFTER: :{{[0-9]+}}:11: warning: thread 0 reads s[47]
// AFTER: :{{[0-9]+}}:22: warning: thread 31 reads s[32]

// Where not every thread passes between two racing accesses, a
// __syncthreads() between them is the divergent barrier the other check
// reports. The race check offers the named barrier the threads that do
// pass need, as a fix-it, checked by analysing the pair again with it.

// Both accesses in a branch that warps 0-1 take (issue #25's example).
// shmem-lint: block=256
__global__ void inBranch(float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x;
    y = s[63 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread 0 reads s[63] (line [[@LINE-1]]) while thread 63 writes s[63] (line [[@LINE-2]]); no barrier between them; only warps 0, 1 run lines [[@LINE-2]] and [[@LINE-1]], so a __syncthreads() between them would be a divergent barrier: add 'bar.sync 1, 64;' before the read at line [[@LINE-1]] (named barrier 1 for the 64 threads that run them), or close the branch before line [[@LINE-1]], call __syncthreads() there and open the branch again after it [shmem-race]
    // FIXED: {{^}}    s[threadIdx.x] = threadIdx.x;
    // FIXED-NEXT: {{^}}    asm volatile("bar.sync 1, 64;");
    // FIXED-NEXT: {{^}}    y = s[63 - threadIdx.x];
  }
  out[threadIdx.x] = y;
}

// On one line: the barrier goes in the line.
// shmem-lint: block=256
__global__ void inBranchOneLine(float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) { s[threadIdx.x] = 1.0f; y = s[63 - threadIdx.x]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: thread 0 reads s[63] (line [[@LINE-1]]) while thread 63 writes s[63] (line [[@LINE-1]]); no barrier between them; only warps 0, 1 run line [[@LINE-1]], so a __syncthreads() between them would be a divergent barrier: add 'bar.sync 1, 64;' before the read at line [[@LINE-1]] (named barrier 1 for the 64 threads that run them), or close the branch before line [[@LINE-1]], call __syncthreads() there and open the branch again after it [shmem-race]
  // FIXED: {{^}}  if (threadIdx.x < 64) { s[threadIdx.x] = 1.0f; asm volatile("bar.sync 1, 64;"); y = s[63 - threadIdx.x]; }
  out[threadIdx.x] = y;
}

// Not whole warps: no named barrier fits.
// shmem-lint: block=256
__global__ void inBranchPartialWarp(float *out) {
  __shared__ float s[48];
  float y = 0;
  if (threadIdx.x < 48) {
    s[threadIdx.x] = threadIdx.x;
    y = s[47 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread 0 reads s[47] (line [[@LINE-1]]) while thread 47 writes s[47] (line [[@LINE-2]]); no barrier between them; only threads with threadIdx.x < 48 run lines [[@LINE-2]] and [[@LINE-1]], so a __syncthreads() between them would be a divergent barrier: close the branch before line [[@LINE-1]], call __syncthreads() there and open the branch again after it [shmem-race]
  }
  out[threadIdx.x] = y;
}

// Nested in a branch some threads skip: a barrier beside the inner if would
// be divergent too, so that is not the advice; 48 threads are not whole
// warps, so no named barrier either.
// shmem-lint: block=256
__global__ void inNestedBranch(float *out) {
  __shared__ float s[48];
  float y = 0;
  if (threadIdx.x < 128) {
    if (threadIdx.x < 48) {
      s[threadIdx.x] = threadIdx.x;
      y = s[47 - threadIdx.x];
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: thread 0 reads s[47] (line [[@LINE-1]]) while thread 47 writes s[47] (line [[@LINE-2]]); no barrier between them; only threads with threadIdx.x < 48 run lines [[@LINE-2]] and [[@LINE-1]], so a __syncthreads() between them would be a divergent barrier: order them where every thread passes, or with a barrier of the threads that run them [shmem-race]
    }
  }
  out[threadIdx.x] = y;
}

// Two warp roles: the pair, an arrive after the write and a sync before the
// read.
// shmem-lint: block=256
__global__ void roles(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x;
  if (tid < 128) {
    buf[tid] = in[tid];
    // FIXED: {{^}}    buf[tid] = in[tid];
    // FIXED-NEXT: {{^}}    asm volatile("bar.arrive 1, 256;");
  } else {
    float v = buf[tid - 128];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: thread 128 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-5]]); no barrier between them; warps 0-3 write and warps 4-7 read in the two arms of the branch at line [[@LINE-6]], where a __syncthreads() would be a divergent barrier: add 'bar.arrive 1, 256;' after line [[@LINE-5]] in warps 0-3 and 'bar.sync 1, 256;' before line [[@LINE-1]] in warps 4-7 (named barrier 1 for the 256 threads of both) [shmem-race]
    // FIXED: {{^}}    asm volatile("bar.sync 1, 256;");
    // FIXED-NEXT: {{^}}    float v = buf[tid - 128];
    out[tid] = v;
  }
}

// After an early exit the inactive threads may have left, and a
// __syncthreads() waits only for those that have not: the usual advice.
// shmem-lint: block=256
__global__ void afterExit(float *out, int n) {
  __shared__ float s[256];
  if (threadIdx.x >= n)
    return;
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
}
