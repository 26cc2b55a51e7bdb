// RUN: %check_all_front_ends %s shmem-race

// A call the walker does not follow has an unknown result, except a
// well-known pure function (__popc, __clz, __ffs, __brev, abs) of uniform
// arguments, whose result is one value in every thread. The walker
// classifies a call once and takes its later evaluations from that (an
// unrolled loop evaluates one call again at every iteration): each kernel
// below stores in the loop's second iteration only, with the value of the
// call's second evaluation.

// Every thread stores its own index to one word: a race.
// shmem-lint: block=64
__global__ void pureOfUniform(unsigned c) {
  __shared__ int s[64];
  for (int i = 0; i < 2; ++i) {
    int j = __popc(c + i);
    if (i == 1)
      s[j] = threadIdx.x;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: thread {{[0-9]+}} writes s[{{[0-9]+}}] (line [[@LINE-1]], i = 1) while thread {{[0-9]+}} writes s[{{[0-9]+}}] (line [[@LINE-1]], i = 1); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer{{.*}} [shmem-race]
  }
}

// The word depends on the thread: not known, and nothing is claimed.
// shmem-lint: block=64
__global__ void pureOfVarying(unsigned c) {
  __shared__ int s[64];
  for (int i = 0; i < 2; ++i) {
    int j = __popc(c + threadIdx.x + i);
    if (i == 1)
      s[j] = threadIdx.x;
  }
}

// Not a function known to be pure: its result may differ per thread.
__device__ int pick(unsigned);
// shmem-lint: block=64
__global__ void opaqueOfUniform(unsigned c) {
  __shared__ int s[64];
  for (int i = 0; i < 2; ++i) {
    int j = pick(c + i);
    if (i == 1)
      s[j] = threadIdx.x;
  }
}
