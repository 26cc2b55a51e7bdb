// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Barriers inside __device__ functions. Blocks of 128 threads.

__device__ float blockSum(float *s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (unsigned k = 64; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    // Called after an exit (nestedCallAfterReturn), s[64] is never stored.
    // CHECK-MESSAGES: :[[@LINE-2]]:25: warning: thread 0 reads s[64] (line 10, k = 64), which only thread 64 writes (line 6), but thread 64 has returned at line 34 when n = 64; threads that have exited do not wait at a barrier, so thread 0 reads a value that was never written [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE+21]]:5: note: 64 of 128 threads, thread 64 among them, return here when n = 64; keep them to the barrier and let them store a neutral value (guard the load, not the thread)
    __syncthreads();
  }
  return s[0];
}

// One level further down.
__device__ float normalise(float *s, float v) { return v / blockSum(s, v); }

__global__ void callUnderBranch(const float *in, float *out) {
  __shared__ float s[128];
  if (threadIdx.x < 64)
    out[0] = blockSum(s, in[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the call to 'blockSum' executes __syncthreads() but is reached only by threads with threadIdx.x < 64 (64 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  // CHECK-MESSAGES: :[[@LINE-21]]:3: note: the barrier is here
}

__global__ void nestedCallAfterReturn(const float *in, float *out, int n) {
  __shared__ float s[128];
  if (threadIdx.x >= n)
    return;
  // The threads that returned do not hold up the barriers in blockSum
  // (exits.cu); the data they leave unwritten is reported there.
  out[threadIdx.x] = normalise(s, in[threadIdx.x]);
}

// The helper decides on its argument: divergent when it is the thread
// index, not when it is the block index (below).
__device__ void syncIfSmall(int v) {
  if (v < 16)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 16 (16 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: in the call from kernel 'helperDecides'
}

__global__ void helperDecides(float *out) {
  syncIfSmall(threadIdx.x);
}

// Thread-dependent values coming back from helpers.
__device__ unsigned laneOf() { return threadIdx.x & 31; }
__device__ void threadIndexInto(int &t) { t = threadIdx.x; }

__global__ void valuesFromHelpers(float *out) {
  if (laneOf() == 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x % 32 == 0 (4 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  int t = 0;
  threadIndexInto(t);
  if (t < 5)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 't < 5' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
}

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

__global__ void callFromEveryThread(const float *in, float *out) {
  __shared__ float s[128];
  float total = blockSum(s, in[threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
  // The helper's result is a load every thread makes from s[0].
  if (total > 0.0f)
    __syncthreads();
}

__global__ void blockDecides(float *out) { syncIfSmall(blockIdx.x); }

__device__ unsigned warpOf() { return threadIdx.x / 32; }
__device__ void blockIndexInto(int &b) { b = blockIdx.x; }

__global__ void uniformValuesFromHelpers(float *out) {
  if (warpOf() == 0)
    __syncwarp();
  int b = 0;
  blockIndexInto(b);
  if (b < 5)
    __syncthreads();
}

// A call through a pointer the program cannot change reaches one function
// (ggml's mmq calls its tile loaders so): followed like a direct call, its
// barriers and its result's uniformity included.
__device__ void stage(float *s) {
  s[threadIdx.x] = 0.0f;
  __syncthreads();
}
constexpr void (*const_stage)(float *) = stage;
__device__ int threadRank() { return threadIdx.x; }
constexpr int (*const_rank)() = threadRank;

__global__ void throughConstantPointer(float *out) {
  __shared__ float s[128];
  if (const_rank() < 32)
    const_stage(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the call to 'stage' executes __syncthreads() but is reached only by threads with threadIdx.x < 32 (32 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the barrier is here
  // Negative: every thread calls it.
  const_stage(s);
  out[threadIdx.x] = s[127 - threadIdx.x];
}

// The path to the barrier names the function the pointer reaches.
__device__ void outerStage(float *s) { const_stage(s); }
__global__ void pathThroughConstantPointer(float *out) {
  __shared__ float s[128];
  if (threadIdx.x < 64)
    outerStage(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the call to 'outerStage' executes __syncthreads() but is reached only by threads with threadIdx.x < 64 (64 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  // CHECK-MESSAGES: :[[@LINE-7]]:40: note: which calls 'stage' here
  out[threadIdx.x] = s[0];
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  callUnderBranch<<<1, 128>>>(nullptr, nullptr);
  nestedCallAfterReturn<<<1, 128>>>(nullptr, nullptr, argc);
  helperDecides<<<1, 128>>>(nullptr);
  valuesFromHelpers<<<1, 128>>>(nullptr);
  callFromEveryThread<<<1, 128>>>(nullptr, nullptr);
  blockDecides<<<8, 128>>>(nullptr);
  uniformValuesFromHelpers<<<8, 128>>>(nullptr);
  throughConstantPointer<<<1, 128>>>(nullptr);
  pathThroughConstantPointer<<<1, 128>>>(nullptr);
}
