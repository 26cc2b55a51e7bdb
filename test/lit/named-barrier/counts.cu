// RUN: %check_all_front_ends %s shmem-named-barrier

// The ids and thread counts of named barriers, in inline PTX and behind
// wrappers as CUTLASS's NamedBarrier writes them: right in the first
// kernels (silent), wrong in the rest.

struct NamedBarrier {
  __device__ static void sync(unsigned threads, unsigned id) {
    asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(threads) : "memory");
  }
  __device__ static void arrive(unsigned threads, unsigned id) {
    asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(threads) : "memory");
  }
};

// Producers arrive, consumers wait; the count adds both.
// shmem-lint: block=256
__global__ void producerConsumer(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
    asm volatile("bar.arrive 1, 256;");
  } else {
    asm volatile("bar.sync 1, 256;");
    out[tid] = buf[tid - 128];
  }
}

// The same through the wrappers, with two groups of two warps each meeting
// at their own id.
// shmem-lint: block=256
__global__ void wrappers(const float *in, float *out) {
  __shared__ float buf[256];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 2) {
    buf[tid] = in[tid];
    NamedBarrier::arrive(128, 1);
  } else if (warp < 4) {
    NamedBarrier::sync(128, 1);
    out[tid] = buf[tid - 64];
  } else if (warp < 6) {
    buf[tid] = in[tid];
    NamedBarrier::arrive(128, 2);
  } else {
    NamedBarrier::sync(128, 2);
    out[tid] = buf[tid - 64];
  }
}

// One id reused for another group after a block-wide barrier is fine.
// shmem-lint: block=128
__global__ void reusedAfterBarrier(float *out) {
  int warp = threadIdx.x / 32;
  if (warp < 2)
    asm volatile("bar.sync 1, 64;");
  __syncthreads();
  if (warp >= 2)
    asm volatile("bar.sync 1, 64;");
}

// An id out of range, and a count that is not whole warps.
// shmem-lint: block=128
__global__ void operands(float *out) {
  int warp = threadIdx.x / 32;
  if (warp < 2)
    asm volatile("bar.sync 16, 64;");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'bar.sync' names barrier 16 for warps 0, 1, but a block has 16 barriers, 0-15 (undefined behaviour) [shmem-named-barrier]
  __syncthreads();
  if (warp < 2)
    NamedBarrier::sync(48, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'bar.sync' counts 48 threads for warps 0, 1, but a barrier counts whole warps: the count must be a positive multiple of the warp size (32) [shmem-named-barrier]
}

// The issue's measured case: bar.sync 2, 64 run by 128 threads completes
// twice on an H200, for whichever two warps come first.
// shmem-lint: block=128
__global__ void tooMany(float *out) {
  asm volatile("bar.sync 2, 64;");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 128 threads arrive at barrier 2 (warps 0-3), which completes every 64 arrivals: whichever threads come first are released together, so it does not order the groups it was meant for [shmem-named-barrier]
}

// Counting only the producers: the consumers' wait pairs with whichever
// threads come first.
// shmem-lint: block=256
__global__ void countsOnlyProducers(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
    asm volatile("bar.arrive 1, 128;");
  } else {
    asm volatile("bar.sync 1, 128;");
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 256 threads arrive at barrier 1 (warps 0-7), which completes every 128 arrivals: whichever threads come first are released together, so it does not order the groups it was meant for [shmem-named-barrier]
    out[tid] = buf[tid - 128];
  }
}

// The producers never arrive: the consumers wait for 256 threads forever.
// shmem-lint: block=256
__global__ void missingArrive(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
  } else {
    NamedBarrier::sync(256, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier 1 waits for 256 threads, but only 128 arrive at it (warps 4-7): it never completes, so the threads waiting at 'bar.sync' hang [shmem-named-barrier]
    out[tid] = buf[tid - 128];
  }
}

// Two counts for one id between the same block-wide barriers.
// shmem-lint: block=256
__global__ void twoCounts(float *out) {
  int warp = threadIdx.x / 32;
  if (warp < 2)
    asm volatile("bar.sync 4, 64;");
  else if (warp < 4)
    asm volatile("bar.sync 4, 128;");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: barrier 4 is given different thread counts: 128 by warps 2, 3 at 'bar.sync', 64 by warps 0, 1 at line [[@LINE-3]], with no block-wide barrier between; every use of one barrier must give the same count [shmem-named-barrier]
}

// One group uses the id twice, the other once.
// shmem-lint: block=128
__global__ void unequalUses(float *out) {
  int warp = threadIdx.x / 32;
  if (warp < 2) {
    asm volatile("bar.sync 5, 128;");
    asm volatile("bar.sync 5, 128;");
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: warps 0, 1 use barrier 5 twice and warps 2, 3 one time fewer, with no block-wide barrier between: a generation waits for 128 threads, and the threads of its last one never all come [shmem-named-barrier]
  } else {
    asm volatile("bar.sync 5, 128;");
  }
}

// What the walk cannot know is said, not guessed.
// shmem-lint: block=128
__global__ void unknownId(float *out, int id) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync %0, 64;" ::"r"(id));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: remark: thread counts of 'bar.sync' not checked: its barrier id is not known in every thread [shmem-named-barrier]
}

// Launched nowhere and unannotated: the counts are about a shape the
// analysis would only guess.
__global__ void assumedShape(float *out) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: remark: thread counts of 'bar.sync' not checked: the block shape is assumed; state it with '// shmem-lint: block=X[xY[xZ]]' [shmem-named-barrier]
}
