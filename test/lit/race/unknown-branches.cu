// RUN: %check_all_front_ends %s shmem-race

// Branch sides are dropped only where the walker saw every execution of
// the branch exactly; elsewhere both sides stay paths.

// A helper whose condition holds in one call and not in the other: the
// facts are per call, so only the second call's skipped barrier reports.
__device__ void stage(float *s, unsigned width) {
  if (width > 32)
    __syncthreads();
}

// shmem-lint: block=256
__global__ void twoCalls(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  stage(s, blockDim.x);
  float a = s[255 - threadIdx.x];
  stage(s, blockDim.x);
  s[threadIdx.x] = a;
  stage(s, 16);
  out[threadIdx.x] = s[(threadIdx.x + 128) % 256];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[128] (line 22) while thread 128 writes s[128] (line 20); no barrier between them: the __syncthreads() at line 10 does not run: no thread of this block takes its side of the branch at line 9; add __syncthreads() between line 20 and line 22 [shmem-race]
}

// A switch on a value not known per thread runs its body as straight-line
// code: `wait` is 1 at the test, but 0 entered at case 1. Both stay paths.
// shmem-lint: block=256
__global__ void switchFallthrough(float *out, int mode) {
  __shared__ float s[256];
  int wait = 0;
  s[threadIdx.x] = out[threadIdx.x];
  switch (mode) {
  case 0:
    wait = 1;
    [[fallthrough]];
  case 1:
    if (wait == 1)
      __syncthreads();
    break;
  default:
    __syncthreads();
  }
  out[threadIdx.x] = s[255 - threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line 44) while thread 255 writes s[255] (line 32); no barrier between them; add __syncthreads() between line 32 and line 44 [shmem-race]
}

// The walker takes the branch once, before the goto runs it again with
// `wait` 0: in a function with a goto no side is dropped.
// shmem-lint: block=256
__global__ void gotoAgain(float *out) {
  __shared__ float s[256];
  int wait = 1;
  s[threadIdx.x] = out[threadIdx.x];
again:
  if (wait == 1)
    __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line 58) while thread 255 writes s[255] (line 54); no barrier between them; add __syncthreads() between line 54 and line 58 [shmem-race]
  __syncthreads();
  s[threadIdx.x] = 2.0f;
  if (out[0] > 0) {
    wait = 0;
    goto again;
  }
}

// A switch on a value known in every thread (the block is 256 threads):
// each thread runs from the case its value selects, so the branch inside
// is known. Entered at case 2, `wait` is 1 and every thread waits: no race.
// shmem-lint: block=256
__global__ void switchKnown(float *out) {
  __shared__ float s[256];
  int wait = 0;
  s[threadIdx.x] = out[threadIdx.x];
  switch (blockDim.x / 128) {
  case 2:
    wait = 1;
    [[fallthrough]];
  case 1:
    if (wait == 1)
      __syncthreads();
    break;
  default:
    __syncthreads();
  }
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// Entered at case 1, `wait` is 0: no thread waits.
// shmem-lint: block=256
__global__ void switchKnownSkips(float *out) {
  __shared__ float s[256];
  int wait = 0;
  s[threadIdx.x] = out[threadIdx.x];
  switch (blockDim.x / 256) {
  case 2:
    wait = 1;
    [[fallthrough]];
  case 1:
    if (wait == 1)
      __syncthreads();
    break;
  default:
    __syncthreads();
  }
  out[threadIdx.x] = s[255 - threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line 107) while thread 255 writes s[255] (line 95); no barrier between them: the __syncthreads() at line 102 does not run: no thread of this block takes its side of the branch at line 101; add __syncthreads() between line 95 and line 107 [shmem-race]
}
