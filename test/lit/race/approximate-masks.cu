// RUN: %check_all_front_ends %s shmem-race

// After a data-dependent exit the walker does not know which threads are
// still there (its mask may hold some that left, or miss some that stayed).
// A branch or loop test with one value in every thread still goes one way
// whichever threads arrive, so the paths it rules out stay ruled out; a
// test that differs by thread does not (ggml's flash attention: its K loop
// of one iteration, with the barriers in it, ran after such exits).

// The loop runs once in every thread that is there: its barrier orders
// the write before it and the read after it.
// shmem-lint: block=64
__global__ void oneTripAfterExit(const float *in, float *out) {
  __shared__ float s[64];
  if (in[threadIdx.x] < 0)
    return;
  s[threadIdx.x] = in[threadIdx.x];
  for (int k0 = 0; k0 >= 0; k0 -= 256)
    __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// The same for a branch that holds for the block's shape.
// shmem-lint: block=64
__global__ void uniformBranchAfterExit(const float *in, float *out) {
  __shared__ float s[64];
  if (in[threadIdx.x] < 0)
    return;
  s[threadIdx.x] = in[threadIdx.x];
  if (blockDim.x > 32)
    __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// A loop that may run no iteration: no barrier then.
// shmem-lint: block=64
__global__ void maybeNoTripAfterExit(const float *in, float *out, int n) {
  __shared__ float s[64];
  if (in[threadIdx.x] < 0)
    return;
  s[threadIdx.x] = in[threadIdx.x];
  for (int k0 = 0; k0 < n; ++k0)
    __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
// CHECK-MESSAGES: :[[@LINE-2]]:22: warning: thread 0 reads s[63] (line [[@LINE-2]]) while thread 63 writes s[63] (line [[@LINE-5]]); no barrier between them

// A branch no thread of the shape takes.
// shmem-lint: block=64
__global__ void uniformBranchNotTakenAfterExit(const float *in, float *out) {
  __shared__ float s[64];
  if (in[threadIdx.x] < 0)
    return;
  s[threadIdx.x] = in[threadIdx.x];
  if (blockDim.x > 64)
    __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
// CHECK-MESSAGES: :[[@LINE-2]]:22: warning: thread 0 reads s[63] (line [[@LINE-2]]) while thread 63 writes s[63] (line [[@LINE-5]]); no barrier between them
