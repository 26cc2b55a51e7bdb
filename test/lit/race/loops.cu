// RUN: %check_all_front_ends %s shmem-race

// Races across loop iterations: the end of a loop body runs against the
// start of the next iteration unless a barrier separates them.

// A tree reduction with a barrier per step: silent.
// shmem-lint: block=256
__global__ void reduceBarrierPerStep(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// Without it, one step reads what the previous step is still writing.
// shmem-lint: block=256
__global__ void reduceMissingBarrier(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
// CHECK-MESSAGES: :[[@LINE-1]]:17: warning: thread 0 reads s[64] (line 31, stride = 64) in the next iteration of the loop at line 29 while thread 64 writes s[64] (line 31, stride = 128); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A tiled loop with both barriers: silent.
// shmem-lint: block=256
__global__ void tiledBothBarriers(const float *in, float *out, int n) {
  __shared__ float tile[256];
  float acc = 0.0f;
  for (int base = 0; base < n; base += 256) {
    tile[threadIdx.x] = in[base + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      acc += tile[(threadIdx.x + 32 * k) % 256];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// Without the trailing barrier the next iteration's store overwrites what
// slower threads still read.
// shmem-lint: block=256
__global__ void tiledNoTrailingBarrier(const float *in, float *out, int n) {
  __shared__ float tile[256];
  float acc = 0.0f;
  for (int base = 0; base < n; base += 256) {
    tile[threadIdx.x] = in[base + threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 32 writes tile[32] (line 61) in the next iteration of the loop at line 60 while thread 0 reads tile[32] (line 65, k = 1); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      acc += tile[(threadIdx.x + 32 * k) % 256];
  }
  out[threadIdx.x] = acc;
}

// A trip count unknown until run time, and too many iterations to unroll:
// the iteration stays symbolic, the race is still found.
// shmem-lint: block=128
__global__ void runTimeTrips(const float *in, float *out, int n) {
  __shared__ float s[128];
// CHECK-MESSAGES: :[[@LINE+2]]:5: warning: thread 32 writes s[32] (line [[@LINE+2]]) in the next iteration of the loop at line [[@LINE+1]] while thread 31 reads s[32] (line [[@LINE+4]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[(threadIdx.x + i) % 128];
  }
}

// shmem-lint: block=128
__global__ void manyTrips(const float *in, float *out) {
  __shared__ float s[128];
  for (int i = 0; i < 1000; ++i) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[(threadIdx.x + i) % 128];
    __syncthreads();
  }
}

// The last iteration's store runs against the read after the loop.
// shmem-lint: block=128
__global__ void afterTheLoop(const float *in, float *out, int n) {
  __shared__ float s[128];
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    s[threadIdx.x] = in[i];
  }
  out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads s[32] (line 102) while thread 32 writes s[32] (line 100); no barrier between them; add __syncthreads() between line 100 and line 102 [shmem-race]
}

// A while loop: the same as a for loop.
// shmem-lint: block=128
__global__ void whileLoop(const float *in, float *out, int n) {
  __shared__ float s[128];
  int i = 0;
// CHECK-MESSAGES: :[[@LINE+2]]:5: warning: thread 127 writes s[127] (line [[@LINE+2]]) in the next iteration of the loop at line [[@LINE+1]] while thread 0 reads s[127] (line [[@LINE+4]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
  while (i < n) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[127 - threadIdx.x];
    ++i;
  }
}

// Threads leave a block-stride loop at different iterations; with barriers
// around every use of the tile, still no race (whether every thread reaches
// the barrier is shmem-divergent-barrier's business).
// shmem-lint: block=128
__global__ void blockStride(const float *in, float *out) {
  __shared__ float s[128];
  for (int i = threadIdx.x; i < 1000; i += 128) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[127 - threadIdx.x];
    __syncthreads();
  }
}
