// RUN: %check_all_front_ends %s shmem-out-of-bounds

// A shape the kernel states in its own code (an assert or an early out on
// blockDim) is no guess: out-of-bounds accesses are reported for it, as for
// a launch's. A guessed shape gives none.

#include <cassert>

// Written for 64 threads, with a tile of 32.
__global__ void assertedTooWide(float *out) {
  __shared__ float s[32];
  assert(blockDim.x == 64);
  s[threadIdx.x] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes s[32] (line [[@LINE-1]]), 0 bytes past the end of 's' (128 bytes, 'float[32]'); 32 of the threads that run it access outside it: threads with threadIdx.x >= 32 [shmem-out-of-bounds]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32];
}

// The same kernel written for 32 threads: in bounds.
__global__ void assertedFits(float *out) {
  __shared__ float s[32];
  assert(blockDim.x == 32);
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}

// An early out keeps the blocks of 128 threads: the neighbour read of the
// last thread is one past the tile.
__global__ void earlyOut(float *out) {
  __shared__ float s[128];
  if (blockDim.x != 128)
    return;
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 127 reads s[128] (line [[@LINE-1]]), 0 bytes past the end of 's' (512 bytes, 'float[128]'); 1 of the threads that run it accesses outside it: threads with threadIdx.x == 127 [shmem-out-of-bounds]
}

// No statement of the shape: 128 threads are assumed from the tile, and an
// assumed shape gives no out-of-bounds finding.
__global__ void guessed(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}
