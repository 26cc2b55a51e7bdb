// RUN: %check_all_front_ends %s shmem-race
// (-DAG: remarks come after the findings, and their notes after them.)
//
// The race search has a probe budget per kernel and block shape. Where it
// stops, the pairs it did not analyse are said (a remark, not a warning:
// it counts as no finding, and -Werror leaves it alone), never dropped.

// Eight updates of each thread's own element in a loop unrolled 64 times,
// over 1024 threads, at an offset the kernel is given: no race, but each
// of the 512 instances meets every other in one barrier interval, and
// 64 Mi probes run out before the pairs do.
// shmem-lint: block=1024
__global__ void many_pairs(float *out, unsigned base) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: note: kernel 'many_pairs' not fully analysed for a block of 1024 threads (shmem-lint annotation)
  __shared__ float s[2048];
  unsigned t = threadIdx.x + base;
  s[t] = 0;
  for (int i = 0; i < 64; ++i) {
    s[t] += 1;
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:5: remark: race pairs after the first {{[0-9]+}} not analysed: probe budget reached [shmem-race]
    s[t] += 2;
    s[t] += 3;
    s[t] += 4;
    s[t] += 5;
    s[t] += 6;
    s[t] += 7;
    s[t] += 8;
  }
  out[t] = s[t];
}

// Negative: the same updates unrolled 8 times fit in the budget; every
// pair is analysed and nothing is said (an unexpected remark fails).
// shmem-lint: block=1024
__global__ void fewer_pairs(float *out, unsigned base) {
  __shared__ float s[2048];
  unsigned t = threadIdx.x + base;
  s[t] = 0;
  for (int i = 0; i < 8; ++i) {
    s[t] += 1;
    s[t] += 2;
    s[t] += 3;
    s[t] += 4;
    s[t] += 5;
    s[t] += 6;
    s[t] += 7;
    s[t] += 8;
  }
  out[t] = s[t];
}

// Negative: the same updates at the thread's own index. Every offset is
// known, each word has one thread over all instances of both accesses of a
// pair, so no pair needs a scan: all are judged and nothing is said.
// shmem-lint: block=1024
__global__ void owned_words(float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = 0;
  for (int i = 0; i < 64; ++i) {
    s[t] += 1;
    s[t] += 2;
    s[t] += 3;
    s[t] += 4;
    s[t] += 5;
    s[t] += 6;
    s[t] += 7;
    s[t] += 8;
  }
  out[t] = s[t];
}

// Negative: the same with 128 instances of one update in a nest: more
// than 64 Ki (instance, thread) offsets to list, still judged without a
// scan (cudaTensorCoreGemm's unrolled tile copy has as many).
// shmem-lint: block=1024
__global__ void owned_words_nested(float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      s[t] += i * j;
  out[t] = s[t];
}

// Negative: one thread's store against every thread's updates of its own
// element. The store's list of words is one word long, the updates' 1024
// words: the one is looked up among the many (not merged), and its thread
// is the only one on it in both.
// shmem-lint: block=1024
__global__ void owned_word_of_one(float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  if (t == 5)
    s[5] = 1;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      s[t] += i * j;
  out[t] = s[t];
}

// Positive: the same store made by a thread that does not own the word:
// the lookup finds two threads on it, and the pair is analysed (a race).
// shmem-lint: block=1024
__global__ void foreign_word_of_one(float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  if (t == 6)
    s[5] = 1;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      s[t] += i * j;
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:7: warning: thread 5 reads s[5] {{.*}} while thread 6 writes s[5] (line [[@LINE-4]]){{.*}} [shmem-race]
  out[t] = s[t];
}

// Negative: each thread's own word 16 KiB from the next (a dynamic array,
// one row per thread): the words lie too far apart to be listed in a table
// over their span, and are hashed instead; still judged without a scan.
// shmem-lint: block=1024
__global__ void owned_scattered_words(float *out) {
  extern __shared__ float rows[];
  unsigned t = threadIdx.x;
  if (t == 5)
    rows[5 * 4096] = 1;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      rows[t * 4096] += i * j;
  out[t] = rows[t * 4096];
}

// Positive: the same, the store made by a thread that does not own the
// row: two threads on one word, and the pair is analysed (a race).
// shmem-lint: block=1024
__global__ void foreign_scattered_word(float *out) {
  extern __shared__ float rows[];
  unsigned t = threadIdx.x;
  if (t == 6)
    rows[5 * 4096] = 1;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      rows[t * 4096] += i * j;
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:7: warning: thread 5 reads rows[20480] {{.*}} while thread 6 writes rows[20480] (line [[@LINE-4]]){{.*}} [shmem-race]
  out[t] = rows[t * 4096];
}

// Negative: a real race is still reported as a warning beside nothing else.
// shmem-lint: block=64
__global__ void one_race(float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  out[t] = s[(t + 1) % 64];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:12: warning: {{.*}} [shmem-race]
}

// Once per location and reason: both instantiations run out of probes at
// the same access, and the gap is said once, for the first.
// shmem-lint: block=1024
template <int N> __global__ void twice(float *out, unsigned base) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:34: note: in instantiation 'twice<1>'
// CHECK-MESSAGES-DAG: :[[@LINE-2]]:34: note: kernel 'twice<1>' not fully analysed for a block of 1024 threads (shmem-lint annotation)
  __shared__ float s[2048];
  unsigned t = threadIdx.x + base;
  s[t] = 0;
  for (int i = 0; i < 64; ++i) {
    s[t] += N;
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:5: remark: race pairs after the first {{[0-9]+}} not analysed: probe budget reached [shmem-race]
    s[t] += 2;
    s[t] += 3;
    s[t] += 4;
    s[t] += 5;
    s[t] += 6;
    s[t] += 7;
    s[t] += 8;
  }
  out[t] = s[t];
}
template __global__ void twice<1>(float *, unsigned);
template __global__ void twice<2>(float *, unsigned);

// In a helper, the gap names the call through which the kernel reached it.
__device__ void bump(float *s, unsigned t) {
  for (int i = 0; i < 64; ++i) {
    s[t] += 1;
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:5: remark: race pairs after the first {{[0-9]+}} not analysed: probe budget reached [shmem-race]
    s[t] += 2;
    s[t] += 3;
    s[t] += 4;
    s[t] += 5;
    s[t] += 6;
    s[t] += 7;
    s[t] += 8;
  }
}
// shmem-lint: block=1024
__global__ void via_helper(float *out, unsigned base) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: note: kernel 'via_helper' not fully analysed for a block of 1024 threads (shmem-lint annotation)
  __shared__ float s[2048];
  unsigned t = threadIdx.x + base;
  s[t] = 0;
  bump(s, t);
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:3: note: in the call from kernel 'via_helper'
  out[t] = s[t];
}
