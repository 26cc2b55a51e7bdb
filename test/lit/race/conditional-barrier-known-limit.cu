// RUN: %check_all_front_ends %s shmem-race

// Known limit (found in ggml's soft_max_f32): a barrier under a branch is
// skipped on the branch's other path even when the condition is true in
// every thread of the analysed shape. Two block reductions share a buffer
// and the kernel separates them with `if (blockDim.x > 32) __syncthreads();`
// (the reductions only touch the buffer when blockDim.x > 32 too). With 256
// threads the barrier always runs; the race analysis still pairs the second
// reduction's write with the first one's read along the path that skips
// it. The same holds for a loop's exit test (rodinia's huffman scan: a
// barrier at the top of a loop that runs 8 times is skipped on the paths
// that leave the loop early, or run it 0 times, which no thread takes). This test pins the false alarms; the fix is for the walker to record
// constant branch conditions so that the barrier intervals drop the edge
// no thread takes.

__device__ float reduce(float v, float *buf) {
  if (blockDim.x > 32) {
    if (threadIdx.x % 32 == 0)
      buf[threadIdx.x / 32] = v;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: thread 0 writes buf[0] (line 19) while thread 32 reads buf[0] (line 22); no barrier between them; add __syncthreads() between line 30 and line 34 [shmem-race]
    __syncthreads();
    v = buf[threadIdx.x % 32];
  }
  return v;
}

// shmem-lint: block=256
__global__ void twoReductions(float *out) {
  extern __shared__ float buf[];
  float m = reduce(out[threadIdx.x], buf);
  if (blockDim.x > 32) {
    __syncthreads();
  }
  m = reduce(m, buf);
  out[threadIdx.x] = m;
}

// The same barrier unconditional: silent.
// shmem-lint: block=256
__global__ void twoReductionsBarrier(float *out) {
  extern __shared__ float buf[];
  float m = reduce(out[threadIdx.x], buf);
  __syncthreads();
  m = reduce(m, buf);
  out[threadIdx.x] = m;
}

// A barrier at the top of a loop with a known, non-zero trip count.
// shmem-lint: block=256
__global__ void barrierAtLoopTop(unsigned *out) {
  __shared__ unsigned as[256];
  as[threadIdx.x] = out[threadIdx.x];
  for (unsigned d = blockDim.x >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (threadIdx.x < d)
      as[threadIdx.x] += 1;
  }
  if (threadIdx.x == 0)
    as[255] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes as[255] (line 59) while thread 255 writes as[255] (line 52); no barrier between them; add __syncthreads() between line 52 and line 59 [shmem-race]
  __syncthreads();
  out[threadIdx.x] = as[threadIdx.x];
}
