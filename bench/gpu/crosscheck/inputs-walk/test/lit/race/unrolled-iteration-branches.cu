// RUN: %check_all_front_ends %s shmem-race

// A barrier skipped in some iterations of an unrolled loop only: the walker
// records per iteration which side of the branch some thread took, and a
// path through the skipping side starts from those iterations only. ggml's
// flash-attention tiles end each step with `if (k + nbatch < D)
// __syncthreads(); // Sync not needed on last iteration.`

// The barrier is skipped in the last iteration only: the read of iteration
// 0 is ordered before the write of iteration 1.
// shmem-lint: block=256
__global__ void skippedInLast(const float *g, float *out) {
  __shared__ float buf[256];
  float acc = 0;
#pragma unroll
  for (int k0 = 0; k0 < 2; ++k0) {
    buf[threadIdx.x] = g[k0 * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (k0 < 1)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// The same with the step in a helper (the branch is in the callee, the
// loop in the kernel), as ggml writes it.
__device__ void step(const float *g, float *buf, float &acc, int k0) {
  buf[threadIdx.x] = g[k0 + threadIdx.x];
  __syncthreads();
  acc += buf[(threadIdx.x + 1) % 256];
  if (k0 + 128 < 512)
    __syncthreads(); // Not needed after the last step.
}

// shmem-lint: block=256
__global__ void skippedInLastCall(const float *g, float *out) {
  __shared__ float buf[256];
  float acc = 0;
#pragma unroll
  for (int k0 = 0; k0 < 512; k0 += 128)
    step(g, buf, acc, k0);
  out[threadIdx.x] = acc;
}

// Skipped in the first iteration: its read races with the second's write.
// shmem-lint: block=256
__global__ void skippedInFirst(const float *g, float *out) {
  __shared__ float buf[256];
  float acc = 0;
#pragma unroll
  for (int k0 = 0; k0 < 2; ++k0) {
    buf[threadIdx.x] = g[k0 * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (k0 > 0)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}
// CHECK-MESSAGES: :[[@LINE-8]]:5: warning: thread 32 writes buf[32] (line [[@LINE-8]], k0 = 1) in the next iteration of the loop at line [[@LINE-9]] while thread 31 reads buf[32] (line [[@LINE-6]], k0 = 0); no barrier between them

// Skipped in the second of four: the witness is that iteration's read and
// the third's write, not the first's read.
// shmem-lint: block=256
__global__ void skippedInSecond(const float *g, float *out) {
  __shared__ float buf[256];
  float acc = 0;
#pragma unroll
  for (int k0 = 0; k0 < 4; ++k0) {
    buf[threadIdx.x] = g[k0 * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (k0 != 1)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}
// CHECK-MESSAGES: :[[@LINE-8]]:5: warning: thread 32 writes buf[32] (line [[@LINE-8]], k0 = 2) in the next iteration of the loop at line [[@LINE-9]] while thread 31 reads buf[32] (line [[@LINE-6]], k0 = 1); no barrier between them
