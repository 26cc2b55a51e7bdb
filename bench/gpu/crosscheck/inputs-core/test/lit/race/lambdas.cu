// RUN: %check_all_front_ends %s shmem-race

// Accesses and barriers inside a lambda or a function object's operator():
// the walk follows the call in context, so a barrier there separates what
// the caller does before and after it, and a variable a lambda changes
// through a by-reference capture holds its new value after the call.

// A function object that writes its element and returns its neighbour's,
// with no barrier between.
struct Shift {
  float *const s;
  __device__ explicit Shift(float *p) : s(p) {}
  __device__ float operator()(int i) const {
    s[i] = 1.0f;
    return s[i + 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
  }
};

// shmem-lint: block=64
__global__ void functorNoBarrier(float *out) {
  __shared__ float s[128];
  Shift shift(s);
  out[threadIdx.x] = shift(threadIdx.x);
}

// The same with the barrier inside the call operator: silent.
struct SyncedShift {
  float *const s;
  __device__ explicit SyncedShift(float *p) : s(p) {}
  __device__ float operator()(int i) const {
    s[i] = 1.0f;
    __syncthreads();
    return s[i + 1];
  }
};

// shmem-lint: block=64
__global__ void functorBarrier(float *out) {
  __shared__ float s[128];
  SyncedShift shift(s);
  out[threadIdx.x] = shift(threadIdx.x);
}

// A barrier inside a lambda: the read after the call is separated from the
// write before it.
// shmem-lint: block=64
__global__ void barrierInLambda(float *out) {
  __shared__ float s[128];
  auto sync = [] { __syncthreads(); };
  s[threadIdx.x] = 1.0f;
  sync();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

// The twin that never calls it races.
// shmem-lint: block=64
__global__ void lambdaNotCalled(float *out) {
  __shared__ float s[128];
  auto sync = [] { __syncthreads(); };
  s[threadIdx.x] = 1.0f;
  (void)sync;
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-3]]); no barrier between them; add __syncthreads() between line [[@LINE-3]] and line [[@LINE-1]] [shmem-race]
}

// A lambda that changes a variable it captures by reference: after one
// call k is 1 and every thread reads its own element back.
// shmem-lint: block=64
__global__ void captureByReference(float *out) {
  __shared__ float s[128];
  int k = 0;
  auto bump = [&] { k += 1; };
  bump();
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[threadIdx.x + k - 1];
}

// Called twice, k is 2: each thread reads its neighbour's element.
// shmem-lint: block=64
__global__ void captureByReferenceTwice(float *out) {
  __shared__ float s[128];
  int k = 0;
  auto bump = [&] { k += 1; };
  bump();
  bump();
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[threadIdx.x + k - 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
}
