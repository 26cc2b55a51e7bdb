// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Barriers inside lambdas and function objects, followed at the call like
// any __device__ function. Blocks of 64 threads.

// A lambda that synchronises, called by some threads only.
// shmem-lint: block=64
__global__ void lambdaUnderThreadBranch(float *out) {
  __shared__ float s[64];
  auto sync = [] { __syncthreads(); };
  s[threadIdx.x] = 0.0f;
  if (threadIdx.x < 16)
    sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the call to 'sync' executes __syncthreads() but is reached only by threads with threadIdx.x < 16 (16 of 64 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  // CHECK-MESSAGES: :[[@LINE-6]]:20: note: the barrier is here
  out[threadIdx.x] = s[threadIdx.x];
}

// The same under a condition every thread of the block evaluates alike.
// shmem-lint: block=64
__global__ void lambdaUnderBlockBranch(float *out) {
  __shared__ float s[64];
  auto sync = [] { __syncthreads(); };
  s[threadIdx.x] = 0.0f;
  if (blockIdx.x < 16)
    sync();
  out[threadIdx.x] = s[threadIdx.x];
}

// The lambda decides on a variable it captures by reference.
// shmem-lint: block=64
__global__ void capturedThreadIndex(float *out) {
  int t = threadIdx.x;
  auto syncIfSmall = [&] {
    if (t < 16)
      __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __syncthreads() is reached only by threads with threadIdx.x < 16 (16 of 64 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: this condition depends on threadIdx.x;
  };
  syncIfSmall();
}

// shmem-lint: block=64
__global__ void capturedBlockIndex(float *out) {
  int t = blockIdx.x;
  auto syncIfSmall = [&] {
    if (t < 16)
      __syncthreads();
  };
  syncIfSmall();
}

// A function object's call operator synchronises.
struct Stage {
  float *const s;
  __device__ explicit Stage(float *p) : s(p) {}
  __device__ float operator()(int i) const {
    s[i] = 1.0f;
    __syncthreads();
    return s[63 - i];
  }
};

// shmem-lint: block=64
__global__ void functorUnderThreadBranch(float *out) {
  __shared__ float s[64];
  Stage stage(s);
  if (threadIdx.x % 2 == 0)
    out[threadIdx.x] = stage(threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the call to 'stage' executes __syncthreads() but is reached only by threads with threadIdx.x % 2 == 0 (32 of 64 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  // CHECK-MESSAGES: :[[@LINE-13]]:5: note: the barrier is here
}

// shmem-lint: block=64
__global__ void functorEveryThread(float *out) {
  __shared__ float s[64];
  Stage stage(s);
  out[threadIdx.x] = stage(threadIdx.x);
}
