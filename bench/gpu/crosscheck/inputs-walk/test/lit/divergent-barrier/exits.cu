// RUN: %check_all_front_ends %s shmem-divergent-barrier
// RUN: %check_all_front_ends %s shmem-divergent-barrier --prefix=CHECK-STRICT --tidy-config='{CheckOptions: {shmem-divergent-barrier.StrictExits: true}}' --plugin-args=strict-exits=1 --driver-args=--strict-exits=1

// Barriers after a thread-dependent return, continue, break or goto. Blocks
// of 128 threads.
//
// A bar.sync waits only for the threads that have not exited (PTX ISA 6 and
// later), so threads that returned from the kernel do not make a barrier
// divergent; CHECK-STRICT is the CUDA C++ guide's reading (StrictExits), which
// asks for a block-uniform condition all the same. Threads that jump past a
// barrier without exiting are reported either way.

__global__ void earlyReturn(const float *in, float *out, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  if (tid >= n)
    return;
  // CHECK-STRICT: :[[@LINE+2]]:3: warning: __syncthreads() is reached only by the threads for which 'tid >= n' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
  s[tid] = in[tid];
  __syncthreads();
  // CHECK-STRICT: :[[@LINE-5]]:7: note: this condition depends on threadIdx.x; keep the threads alive to the barrier instead of returning early (guard the work that follows instead)
  // CHECK-STRICT: :[[@LINE-5]]:5: note: the threads that do not reach the barrier return early here
  // The survivors read only what survivors wrote (exit-data.cu): silent.
  out[tid] = s[(tid + 1) % n];
}

// With a constant bound the trace knows exactly who is left.
__global__ void earlyReturnConstant(const float *in, float *out) {
  if (threadIdx.x >= 100)
    return;
  __syncthreads();
  // CHECK-STRICT: :[[@LINE-1]]:3: warning: __syncthreads() is reached only by threads with threadIdx.x < 100 (100 of 128 threads); the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
}

__global__ void skipWithContinue(float *out, int rounds) {
  __shared__ float s[128];
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == r)
      continue;
    s[threadIdx.x] = r;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x == r' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-5]]:9: note: this condition depends on threadIdx.x; let every thread reach the barrier instead of jumping past it (guard the work instead)
    // CHECK-STRICT: :[[@LINE-3]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x == r' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-STRICT: :[[@LINE-7]]:9: note: this condition depends on threadIdx.x; let every thread reach the barrier instead of jumping past it (guard the work instead)
  }
}

// Threads that break out miss the barriers of every later iteration,
// including the one at the top of the loop.
__global__ void leaveWithBreak(const int *keys, float *out, int rounds) {
  __shared__ int s[128];
  for (int r = 0; r < rounds; ++r) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 's[threadIdx.x] == keys[r]' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-STRICT: :[[@LINE-2]]:5: warning: __syncthreads() is reached only by the threads for which 's[threadIdx.x] == keys[r]' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    if (s[threadIdx.x] == keys[r])
      break;
    s[threadIdx.x] += 1;
  }
}

__global__ void jumpWithGoto(float *out) {
  if (threadIdx.x & 1)
    goto done;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x & 1' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-STRICT: :[[@LINE-2]]:3: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x & 1' is false; the other threads jump past it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  out[threadIdx.x] = 1;
done:
  out[threadIdx.x] += 1;
}

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// Whole blocks return: every thread of a block agrees.
__global__ void blockReturn(float *out, int blocks) {
  if (blockIdx.x >= blocks)
    return;
  __syncthreads();
}

// The thread-dependent return comes after the last barrier.
__global__ void returnAfterLastBarrier(const float *in, float *out, int n) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x >= n)
    return;
  out[threadIdx.x] = s[127 - threadIdx.x];
}

// Guarding the work instead of returning keeps every thread on the barrier.
__global__ void guardInsteadOfReturn(const float *in, float *out, int n) {
  __shared__ float s[128];
  bool active = threadIdx.x < n;
  if (active)
    s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (active)
    out[threadIdx.x] = s[(threadIdx.x + 1) % n];
}

// A uniform continue: every thread skips the same iterations.
__global__ void uniformContinue(float *out, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    if (r % 2 == 1)
      continue;
    __syncthreads();
  }
}

// Threads leave the search loop at different iterations, but the barrier
// is after it.
__global__ void breakBeforeBarrier(const int *keys, int *out) {
  int k = 0;
  for (; k < 8; ++k)
    if (keys[k] == (int)threadIdx.x)
      break;
  __syncthreads();
  out[threadIdx.x] = k;
}

//===----------------------------------------------------------------------===//
// What is an exit and what is not.
//===----------------------------------------------------------------------===//

// Threads that return inside the loop that holds the barrier have waited
// at it in the rounds before: not a harmless early exit. On an H200 this
// kernel hangs (bench/gpu/crosscheck, fourth run), so it is reported by
// default too.
__global__ void returnInLoop(float *out, int rounds) {
  __shared__ float s[128];
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == r)
      return;
    s[threadIdx.x] = r;
    __syncthreads();
    // CHECK-STRICT: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x == r' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
    // CHECK-STRICT: :[[@LINE-5]]:9: note: this condition depends on threadIdx.x; keep the threads alive to the barrier instead of returning early (guard the work that follows instead)
    // CHECK-STRICT: :[[@LINE-5]]:7: note: the threads that do not reach the barrier return early here
    // CHECK-MESSAGES: :[[@LINE-4]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x == r' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
  }
}

__device__ void syncAndStore(float *s) {
  __syncthreads();
  s[threadIdx.x] = 2;
}

// The barrier in the helper waits for the threads that have not exited.
__global__ void callAfterExit(float *out, int n) {
  __shared__ float s[128];
  if (threadIdx.x >= n)
    return;
  syncAndStore(s);
  // CHECK-STRICT: :[[@LINE-1]]:3: warning: the call to 'syncAndStore' executes __syncthreads() but is reached only by the threads for which 'threadIdx.x >= n' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
  // CHECK-STRICT: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; keep the threads alive to the barrier instead of returning early (guard the work that follows instead)
  // CHECK-STRICT: :[[@LINE-4]]:5: note: the threads that do not reach the barrier return early here
  // CHECK-STRICT: :[[@LINE-13]]:3: note: the barrier is here
}

// bar.sync 0 is the barrier __syncthreads() compiles to.
__global__ void asmAfterExit(float *out, int n) {
  if (threadIdx.x >= n)
    return;
  asm volatile("bar.sync 0;");
  // CHECK-STRICT: :[[@LINE-1]]:3: warning: inline asm 'bar.sync' is reached only by the threads for which 'threadIdx.x >= n' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
  // CHECK-STRICT: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; keep the threads alive to the barrier instead of returning early (guard the work that follows instead)
  // CHECK-STRICT: :[[@LINE-4]]:5: note: the threads that do not reach the barrier return early here
}

// A return from a __device__ function is no exit: the threads that leave
// the helper early go on to the kernel's barrier while the others wait at
// the helper's.
__device__ void syncIfInRange(float *s, int n) {
  if (threadIdx.x >= n)
    return;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x >= n' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; keep the threads alive to the barrier instead of returning early (guard the work that follows instead)
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: the threads that do not reach the barrier return early here
  // CHECK-STRICT: :[[@LINE-4]]:3: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x >= n' is false; the other threads have returned, so it does not synchronise the whole block (undefined behaviour) [shmem-divergent-barrier]
  // CHECK-STRICT: :[[@LINE-7]]:7: note: this condition depends on threadIdx.x; keep the threads alive to the barrier instead of returning early (guard the work that follows instead)
  // CHECK-STRICT: :[[@LINE-7]]:5: note: the threads that do not reach the barrier return early here
  s[threadIdx.x] = 1;
}
__global__ void helperReturn(float *out, int n) {
  __shared__ float s[128];
  syncIfInRange(s, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: in the call from kernel 'helperReturn'
  // CHECK-STRICT: :[[@LINE-2]]:3: note: in the call from kernel 'helperReturn'
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// After an exit, a thread-dependent branch around the barrier still makes
// the survivors skip it.
__global__ void exitThenBranch(float *out, int n) {
  if (threadIdx.x >= n)
    return;
  if (threadIdx.x < 64)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x < 64' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  // CHECK-STRICT: :[[@LINE-3]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x < 64' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-STRICT: :[[@LINE-5]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  earlyReturn<<<1, 128>>>(nullptr, nullptr, argc);
  earlyReturnConstant<<<1, 128>>>(nullptr, nullptr);
  skipWithContinue<<<1, 128>>>(nullptr, argc);
  leaveWithBreak<<<1, 128>>>(nullptr, nullptr, argc);
  jumpWithGoto<<<1, 128>>>(nullptr);
  blockReturn<<<8, 128>>>(nullptr, argc);
  returnAfterLastBarrier<<<1, 128>>>(nullptr, nullptr, argc);
  guardInsteadOfReturn<<<1, 128>>>(nullptr, nullptr, argc);
  uniformContinue<<<1, 128>>>(nullptr, argc);
  breakBeforeBarrier<<<1, 128>>>(nullptr, nullptr);
  returnInLoop<<<1, 128>>>(nullptr, argc);
  callAfterExit<<<1, 128>>>(nullptr, argc);
  asmAfterExit<<<1, 128>>>(nullptr, argc);
  helperReturn<<<1, 128>>>(nullptr, argc);
  exitThenBranch<<<1, 128>>>(nullptr, argc);
}
