// RUN: %check_all_front_ends %s shmem-race

// A loop the walker does not unroll (a run-time trip count) is walked with
// the variables it modifies at their value at the top of an iteration; a
// probe walk of the body finds which of them stay the same in every thread.
// The probe runs to a fixpoint: here `a` takes b's value, and b becomes the
// thread index, so `a` varies between threads only from the third iteration
// on, when threads split at `a < 32` and thread 32 reads what thread 31
// writes. One probe walk missed it (found only with the loop unrolled).

// shmem-lint: block=64
__global__ void laggedThreadIndex(float *out, int n) {
  __shared__ float s[64];
  int a = 0, b = 0;
  for (int i = 0; i < n; ++i) {
    if (a < 32)
      s[threadIdx.x] = 1.0f;
    else
      out[threadIdx.x] = s[threadIdx.x - 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: thread 32 reads s[31] (line [[@LINE-1]]) while thread 31 writes s[31] (line [[@LINE-3]]); no barrier between them; add __syncthreads() between line [[@LINE-3]] and line [[@LINE-1]] [shmem-race]
    a = b;
    b = threadIdx.x;
    __syncthreads();
  }
}

// The twin: b becomes the block index, the same in every thread, so all
// threads take one side of `a < 32` in each iteration.
// shmem-lint: block=64
__global__ void laggedBlockIndex(float *out, int n) {
  __shared__ float s[64];
  int a = 0, b = 0;
  for (int i = 0; i < n; ++i) {
    if (a < 32)
      s[threadIdx.x] = 1.0f;
    else
      out[threadIdx.x] = s[threadIdx.x - 1];
    a = b;
    b = blockIdx.x;
    __syncthreads();
  }
}

// Three steps of lag: c varies from the fourth iteration on.
// shmem-lint: block=64
__global__ void laggedTwice(float *out, int n) {
  __shared__ float s[64];
  int a = 0, b = 0, c = 0;
  for (int i = 0; i < n; ++i) {
    if (c < 32)
      s[threadIdx.x] = 1.0f;
    else
      out[threadIdx.x] = s[threadIdx.x - 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: thread 32 reads s[31] (line [[@LINE-1]]) while thread 31 writes s[31] (line [[@LINE-3]]); no barrier between them; add __syncthreads() between line [[@LINE-3]] and line [[@LINE-1]] [shmem-race]
    c = a;
    a = b;
    b = threadIdx.x;
    __syncthreads();
  }
}
