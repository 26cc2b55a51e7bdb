// RUN: %check_all_front_ends %s shmem-race

// A branch condition that depends on data, `tid > i && ranks[tid] ==
// ranks[i]`, is not known per thread; its known part still rules threads
// out: a thread with tid <= i cannot take the branch. (cuda-samples' dxtc
// resolves equal ranks this way.)

// shmem-lint: block=32
__global__ void resolveRanks(int *out) {
  __shared__ int ranks[32];
  int tid = threadIdx.x;
  ranks[tid] = out[tid];
  __syncthreads();
  for (int i = 0; i < 31; i++) {
    // Thread i reads ranks[i] and never writes it (i > i is false).
    if (tid > i && ranks[tid] == ranks[i])
      ++ranks[tid];
    __syncthreads();
  }
  out[tid] = ranks[tid];
}

// With `>=` thread i may write the ranks[i] the others read: a race.
// shmem-lint: block=32
__global__ void resolveRanksInclusive(int *out) {
  __shared__ int ranks[32];
  int tid = threadIdx.x;
  ranks[tid] = out[tid];
  __syncthreads();
  for (int i = 0; i < 31; i++) {
    if (tid >= i && ranks[tid] == ranks[i])
      ++ranks[tid];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread 0 writes ranks[0] (line [[@LINE-1]], i = 0) while thread 1 reads ranks[0] (line [[@LINE-2]], i = 0); no barrier between them
    __syncthreads();
  }
  out[tid] = ranks[tid];
}

// `||` rules threads out of the else branch: threads 0-15 never store, so
// threads t and t + 16 never both store to s[t % 16].
// shmem-lint: block=32
__global__ void elseOfOr(int *out) {
  __shared__ int s[16];
  int tid = threadIdx.x;
  if (tid < 16 || out[tid] > 0)
    out[tid] = 0;
  else
    s[tid % 16] = tid;
  __syncthreads();
  out[tid] += s[tid % 16];
}
