// RUN: %check_all_front_ends %s shmem-race

// Per-thread histograms (cuda-samples' histogram64): each thread counts
// into a column of its own, `s[data * 64 + column(tid)]`. The data can't
// be enumerated, but it only moves a thread along its column: two threads
// with different columns (mod 64) never meet, so no possible race. A
// column shared by two threads is still reported.

// The column is a permutation of the thread index (as histogram64 spreads
// threads over banks), reached through a per-thread base pointer: silent.
// shmem-lint: block=64
__global__ void perThreadColumns(const unsigned *in, int n, unsigned *out) {
  __shared__ unsigned char s[64 * 64];
  const unsigned pos = (threadIdx.x & 15) << 2 | (threadIdx.x & 48) >> 4;
  unsigned char *base = s + pos;
  for (int i = 0; i < 64; ++i)
    s[threadIdx.x + i * 64] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += 64)
    base[((in[i] >> 2) & 63u) * 64]++;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same with the column spelled in the index and 32-bit counters.
// shmem-lint: block=64
__global__ void columnsInIndex(const unsigned *in, int n, unsigned *out) {
  __shared__ unsigned s[16 * 64];
  for (int i = threadIdx.x; i < n; i += 64)
    s[(in[i] & 15u) * 64 + threadIdx.x] += 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// 64 threads but 32 columns: threads t and t + 32 share a column.
// shmem-lint: block=64
__global__ void sharedColumns(const unsigned *in, int n, unsigned *out) {
  __shared__ unsigned s[16 * 32];
  for (int i = threadIdx.x; i < n; i += 64)
    s[(in[i] & 15u) * 32 + (threadIdx.x & 31)] += 1;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: possible race: non-atomic read-modify-write of an element of s (line 40) whose address depends on data (value loaded from memory); two threads that pick the same element lose an update; use an atomic (atomicAdd) [shmem-race]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Columns of bytes updated as 16-bit words: thread t's word covers column
// t + 1, another thread's byte column.
// shmem-lint: block=64
__global__ void overlappingWidths(const unsigned *in, int n, unsigned *out) {
  __shared__ unsigned char s[16 * 128];
  for (int i = threadIdx.x; i < n; i += 64)
    *(unsigned short *)&s[(in[i] & 15u) * 128 + threadIdx.x] += 1;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: possible race: non-atomic read-modify-write of an element of s (line 52) whose address depends on data (value loaded from memory); two threads that pick the same element lose an update; use an atomic (atomicAdd) [shmem-race]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same 16-bit counters two bytes apart: each thread's word is its own.
// shmem-lint: block=64
__global__ void disjointWidths(const unsigned *in, int n, unsigned *out) {
  __shared__ unsigned char s[16 * 128];
  for (int i = threadIdx.x; i < n; i += 64)
    *(unsigned short *)&s[(in[i] & 15u) * 128 + 2 * threadIdx.x] += 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
