// RUN: %check_all_front_ends %s shmem-race

// cuda_fp16's assignments are user-provided (`__half2::operator=(const
// __half2 &)`, `__half::operator=(float)`), in the toolkit's header, which
// the walk does not enter; each writes the whole object from its operand.
// They are stores of the element, as a trivial assignment is: races through
// them are found, and nothing is said of them as not analysed.
#include <cuda_fp16.h>

// Positive: a half2 tile written and read back by other threads with no
// barrier.
// shmem-lint: block=128
__global__ void halfPairs(const half2 *in, half2 *out) {
  __shared__ half2 s[128];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[127 - threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[127] (line
  // [[@LINE-1]]) while thread 127 writes s[127] (line [[@LINE-2]]); no barrier
  // between them; add __syncthreads() between line [[@LINE-2]] and line
  // [[@LINE-1]] [shmem-race]
}

// Positive: a __half element assigned a float (the conversion writes the
// two bytes).
// shmem-lint: block=64
__global__ void halfFromFloat(const float *in, half *out) {
  __shared__ half s[64];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 31 reads s[32] (line
  // [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-2]]); no barrier
  // between them; add __syncthreads() between line [[@LINE-2]] and line
  // [[@LINE-1]] [shmem-race]
}

// Negative: the same stores ordered by a barrier, and a half2 copied from
// one shared element to another by its owner only.
// shmem-lint: block=128
__global__ void halfPairsSynced(const half2 *in, half2 *out) {
  __shared__ half2 s[128], t[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  t[threadIdx.x] = s[127 - threadIdx.x];
  out[threadIdx.x] = t[threadIdx.x];
}
