// RUN: %check_all_front_ends %s shmem-divergent-barrier
// The named-barrier fix-it applies, and the kernels it fixes are clean
// for every check (the two it does not fix remain):
// RUN: cp %s %t.cu
// RUN: %clang-tidy --load=%tidy_plugin --checks=-*,shmem-divergent-barrier --fix --quiet %t.cu -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 %cuda_flags > /dev/null 2>&1
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %not %shmem-lint --checks='shmem-*' %t.cu | FileCheck --check-prefix=AFTER --implicit-check-not=warning: %s
// AFTER: :{{[0-9]+}}:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 64
// AFTER: :{{[0-9]+}}:26: warning: thread 64 reads s[0]
// AFTER: :{{[0-9]+}}:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 48

// A __syncthreads() in a branch only some threads take (issue #25): the
// advice to hoist it says where, and the named barrier of the warps that
// reach it is the fix-it; each is checked by analysing the kernel's races
// again with the barrier as the fix would make it.

// Warps 0-1 fill and read: the named barrier for their 64 threads keeps
// what the barrier orders, and is the fix-it.
// shmem-lint: block=256
__global__ void inBranch(float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 64 (64 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it: end the branch before line [[@LINE-2]] and open it again after the barrier, with the same condition (analysed with every thread waiting there: no new race); or, since warps 0, 1 are the threads that reach it, make it their named barrier, asm volatile("bar.sync 1, 64;") (analysed: no new race)
    // FIXED: {{^}}    asm volatile("bar.sync 1, 64;");
    y = s[63 - threadIdx.x];
  }
  out[threadIdx.x] = y;
}

// Warp 2 reads after the branch what warp 0 wrote in it: the hoisted
// barrier orders that, a named barrier for warps 0-1 would not. No fix-it.
// shmem-lint: block=256
__global__ void readAfter(float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 64 (64 of 256 threads)
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it: end the branch before line [[@LINE-2]] and open it again after the barrier, with the same condition (analysed with every thread waiting there: no new race, and it orders what the branch leaves racing: thread 64 reads s[0] (line [[@LINE+4]]) while thread 0 writes it (line [[@LINE-3]])); a named barrier for warps 0, 1 alone ('bar.sync 1, 64;') would leave that race
    // FIXED: {{^}}    __syncthreads();
    y = s[63 - threadIdx.x];
  }
  out[threadIdx.x] = y + s[threadIdx.x % 64];
}

// 48 threads are not whole warps: no named barrier. Reopening the branch
// needs the condition kept (the branch changes 'lim') and 'k' declared
// before it; the note says so.
// shmem-lint: block=256
__global__ void partialWarp(float *out) {
  __shared__ float s[64];
  float y = 0;
  int lim = 48;
  if (threadIdx.x < lim) {
    int k = threadIdx.x;
    lim = 0;
    s[k] = k;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 48 (48 of 256 threads)
    // CHECK-MESSAGES: :[[@LINE-6]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it: end the branch before line [[@LINE-2]] and open it again after the barrier, with the same condition, kept in a variable before the branch (it changes 'lim'), and 'k' declared before the branch (analysed with every thread waiting there: no new race)
    y = s[47 - k];
  }
  out[threadIdx.x] = y;
}

// Barrier 1 is taken: the fix uses 2.
// shmem-lint: block=256
__global__ void idTaken(float *out) {
  __shared__ float s[64];
  asm volatile("bar.sync 1, 256;");
  float y = 0;
  if (threadIdx.x >= 192) {
    s[threadIdx.x - 192] = threadIdx.x;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x >= 192 (64 of 256 threads)
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; {{.*}}; or, since warps 6, 7 are the threads that reach it, make it their named barrier, asm volatile("bar.sync 2, 64;") (analysed: no new race)
    // FIXED: {{^}}    asm volatile("bar.sync 2, 64;");
    y = s[255 - threadIdx.x];
  }
  out[threadIdx.x] = y;
}

// In a loop inside the branch: no one place to end the branch at, so no
// split advice; the named barrier stands in each iteration.
// shmem-lint: block=256
__global__ void nested(float *out, int n) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) {
    for (int i = 0; i < 2; ++i) {
      s[threadIdx.x] = i;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __syncthreads() is reached only by threads with threadIdx.x < 64 (64 of 256 threads)
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it; or, since warps 0, 1 are the threads that reach it, make it their named barrier, asm volatile("bar.sync 1, 64;") (analysed: no new race)
      // FIXED: {{^}}      asm volatile("bar.sync 1, 64;");
      y += s[63 - threadIdx.x];
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __syncthreads() is reached only by threads with threadIdx.x < 64 (64 of 256 threads)
      // CHECK-MESSAGES: :[[@LINE-10]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it; or, since warps 0, 1 are the threads that reach it, make it their named barrier, asm volatile("bar.sync 1, 64;") (analysed: no new race)
      // FIXED: {{^}}      asm volatile("bar.sync 1, 64;");
    }
  }
  out[threadIdx.x] = y;
}
