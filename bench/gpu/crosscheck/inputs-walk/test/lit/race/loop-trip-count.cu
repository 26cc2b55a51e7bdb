// RUN: %check_all_front_ends %s shmem-race

// Loops whose tests the walker knows: a loop whose first test holds in
// every thread is not skipped (rodinia's huffman scan: a barrier at the top
// of a loop that runs 8 times), and a tag that leaves a loop with a known
// trip count through its condition left after the last iteration.

// The first test holds (blockDim.x >> 1 > 0): the store before the loop and
// the store after it are separated by the barrier of the first iteration.
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
  __syncthreads();
  out[threadIdx.x] = as[threadIdx.x];
}

// The same loop from a run-time bound: it may run no iteration at all.
// shmem-lint: block=256
__global__ void barrierAtLoopTopMaybeNone(unsigned *out, unsigned n) {
  __shared__ unsigned as[256];
  as[threadIdx.x] = out[threadIdx.x];
  for (unsigned d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (threadIdx.x < d)
      as[threadIdx.x] += 1;
  }
  if (threadIdx.x == 0)
    as[255] = 0;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes as[255] (line 36) while thread 255 writes as[255] (line 29); no barrier between them; add __syncthreads() between line 29 and line 36 [shmem-race]
  __syncthreads();
  out[threadIdx.x] = as[threadIdx.x];
}

// A loop too long to unroll whose first test still holds (the counter is
// the same in every thread).
// shmem-lint: block=256
__global__ void longLoopRuns(unsigned *out) {
  __shared__ unsigned as[256];
  as[threadIdx.x] = out[threadIdx.x];
  for (int k = 0; k < 100; ++k) {
    __syncthreads();
    if (threadIdx.x < 128)
      as[threadIdx.x] += 1;
  }
  if (threadIdx.x == 0)
    as[255] = 0;
  __syncthreads();
  out[threadIdx.x] = as[threadIdx.x];
}

// shmem-lint: block=256
__global__ void longLoopMaybeNone(unsigned *out, int n) {
  __shared__ unsigned as[256];
  as[threadIdx.x] = out[threadIdx.x];
  for (int k = 0; k < n; ++k) {
    __syncthreads();
    if (threadIdx.x < 128)
      as[threadIdx.x] += 1;
  }
  if (threadIdx.x == 0)
    as[255] = 0;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes as[255] (line 69) while thread 255 writes as[255] (line 62); no barrier between them; add __syncthreads() between line 62 and line 69 [shmem-race]
  __syncthreads();
  out[threadIdx.x] = as[threadIdx.x];
}

// A tree reduction with its barrier at the top of the body, inside an outer
// loop with no trailing barrier. The race is real: thread 1 rewrites acc[1]
// in the next outer iteration while thread 0 may still read it at
// stride == 1. Only the last inner iteration reaches the next outer one
// (every earlier one waits at the next barrier), so that is the witness.
// shmem-lint: block=256
__global__ void reduceEachTile(float *out, const float *in, int n) {
  __shared__ float acc[256];
  unsigned tid = threadIdx.x;
  for (int base = 0; base < n; base += 256) {
    acc[tid] = in[base + tid];
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 1 writes acc[1] (line 85) in the next iteration of the loop at line 84 while thread 0 reads acc[1] (line 90, stride = 1); no barrier between them; add __syncwarp() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one (both threads are in warp 0) [shmem-race]
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
      __syncthreads();
      if (tid < stride)
        acc[tid] += acc[tid + stride];
    }
    if (tid == 0)
      out[base] = acc[0];
  }
}

// With the trailing barrier: silent.
// shmem-lint: block=256
__global__ void reduceEachTileSynced(float *out, const float *in, int n) {
  __shared__ float acc[256];
  unsigned tid = threadIdx.x;
  for (int base = 0; base < n; base += 256) {
    acc[tid] = in[base + tid];
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
      __syncthreads();
      if (tid < stride)
        acc[tid] += acc[tid + stride];
    }
    if (tid == 0)
      out[base] = acc[0];
    __syncthreads();
  }
}

// A counter declared without a value and set by each loop under a branch
// (Rodinia's lud_diagonal): the threads that run the inner loop all start
// it at 0, so its trips are known (i + 1 of them), although the threads
// that skip it hold another value. Thread 2 reads shadow[1][0] and
// shadow[0][2], never the shadow[1][1] thread 1 writes.
// shmem-lint: block=16
__global__ void counterUnderBranch(float *m) {
  int i, j;
  __shared__ float shadow[16][16];
  for (i = 0; i < 16; i++)
    shadow[i][threadIdx.x] = m[i * 16 + threadIdx.x];
  __syncthreads();
  for (i = 0; i < 15; i++) {
    if (threadIdx.x > i) {
      for (j = 0; j < i; j++)
        shadow[threadIdx.x][i] -= shadow[threadIdx.x][j] * shadow[j][i];
      shadow[threadIdx.x][i] /= shadow[i][i];
    }
    __syncthreads();
    if (threadIdx.x > i) {
      for (j = 0; j < i + 1; j++)
        shadow[i + 1][threadIdx.x] -= shadow[i + 1][j] * shadow[j][threadIdx.x];
    }
    __syncthreads();
  }
}
