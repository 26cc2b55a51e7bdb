// RUN: %check_all_front_ends %s shmem-race

// Named barriers order exactly the threads they gather: a producer's
// bar.arrive before a consumer's bar.sync orders the producer's writes
// before the consumer's reads, and nothing else. Correct warp-specialised
// pipelines are silent; a missing or misplaced arrive is a race, and the
// fix for two accesses in the two arms of a warp-role branch is a named
// barrier pair, not a __syncthreads() that only one arm would reach.

__device__ void barSync(int id, int n) {
  asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(n) : "memory");
}
__device__ void barArrive(int id, int n) {
  asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(n) : "memory");
}

// shmem-lint: block=256
__global__ void arriveThenSync(const float *in, float *out) {
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

// Both roles wait: a bar.sync in each arm.
// shmem-lint: block=256
__global__ void syncInBothArms(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
    barSync(1, 256);
  } else {
    barSync(1, 256);
    out[tid] = buf[tid - 128];
  }
}

// After a barrier both arms pass, the two arms run together again: the
// write after the producer's bar.sync races with the read after the
// consumer's. (A block barrier in both arms would hide this.)
// shmem-lint: block=256
__global__ void afterTheBarrier(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    barSync(1, 256);
    buf[tid] = in[tid];
  } else {
    barSync(1, 256);
    out[tid] = buf[tid - 128];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 128 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-4]]); no barrier between them; warps 0-3 write and warps 4-7 read in the two arms of the branch at line [[@LINE-6]], where a __syncthreads() would be a divergent barrier: add 'bar.arrive 2, 256;' after line [[@LINE-4]] in warps 0-3 and 'bar.sync 2, 256;' before line [[@LINE-1]] in warps 4-7 (named barrier 2 for the 256 threads of both) [shmem-race]
  }
}

// The consumers read before they wait.
// shmem-lint: block=256
__global__ void readBeforeSync(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
    barArrive(1, 256);
  } else {
    out[tid] = buf[tid - 128];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 128 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-4]]); no barrier between them; warps 0-3 write and warps 4-7 read in the two arms of the branch at line [[@LINE-5]], where a __syncthreads() would be a divergent barrier: add 'bar.arrive 2, 256;' after line [[@LINE-4]] in warps 0-3 and 'bar.sync 2, 256;' before line [[@LINE-1]] in warps 4-7 (named barrier 2 for the 256 threads of both) [shmem-race]
    barSync(1, 256);
  }
}

// No arrive: the consumers' barrier gathers only themselves.
// shmem-lint: block=256
__global__ void missingArrive(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
  } else {
    barSync(1, 128);
    out[tid] = buf[tid - 128];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 128 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-4]]); no barrier between them; warps 0-3 write and warps 4-7 read in the two arms of the branch at line [[@LINE-5]], where a __syncthreads() would be a divergent barrier: add 'bar.arrive 2, 256;' after line [[@LINE-4]] in warps 0-3 and 'bar.sync 2, 256;' before line [[@LINE-1]] in warps 4-7 (named barrier 2 for the 256 threads of both) [shmem-race]
  }
}

// The count leaves the consumers out: a race that the barrier, used as
// meant, would prevent (shmem-named-barrier says what is wrong with it).
// shmem-lint: block=256
__global__ void countsOnlyProducers(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    buf[tid] = in[tid];
    barArrive(1, 128);
  } else {
    barSync(1, 128);
    out[tid] = buf[tid - 128];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 128 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-5]]); no barrier between them: named barrier 1 (line [[@LINE-4]]) would order them if it were used as meant; see its shmem-named-barrier warning [shmem-race]
  }
}

// Two groups at two ids are not ordered with each other.
// shmem-lint: block=256
__global__ void twoGroups(const float *in, float *out) {
  __shared__ float buf[64];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 2) {
    buf[tid] = in[tid];
    barArrive(1, 128);
  } else if (warp < 4) {
    barSync(1, 128);
    out[tid] = buf[tid - 64];
  } else if (warp < 6) {
    barArrive(2, 128);
  } else {
    barSync(2, 128);
    out[tid] = buf[tid - 192];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 192 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-10]]); no barrier between them; warps 0, 1 write and warps 6, 7 read in the two arms of the branch at line [[@LINE-11]], where a __syncthreads() would be a divergent barrier: add 'bar.arrive 3, 128;' after line [[@LINE-10]] in warps 0, 1 and 'bar.sync 3, 128;' before line [[@LINE-1]] in warps 6, 7 (named barrier 3 for the 128 threads of both) [shmem-race]
  }
}

// Ring pipeline, two stages, unrolled: FULL = 1 + s, EMPTY = 3 + s.
// shmem-lint: block=256
__global__ void ring(const float *in, float *out) {
  __shared__ float buf[2][128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      if (k >= 2)
        barSync(3 + s, 256);
      buf[s][tid] = in[k * 128 + tid];
      barArrive(1 + s, 256);
    }
  } else {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      barSync(1 + s, 256);
      out[k * 128 + tid - 128] = buf[s][tid - 128];
      if (k + 2 < 6)
        barArrive(3 + s, 256);
    }
  }
}

// The EMPTY wait comes after the write: the producers overwrite a stage
// the consumers may still read.
// shmem-lint: block=256
__global__ void ringEmptyWaitLate(const float *in, float *out) {
  __shared__ float buf[2][128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      buf[s][tid] = in[k * 128 + tid];
      if (k >= 2)
        barSync(3 + s, 256);
      barArrive(1 + s, 256);
    }
  } else {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      barSync(1 + s, 256);
      out[k * 128 + tid - 128] = buf[s][tid - 128];
      // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: thread 128 reads buf[0][0] (line [[@LINE-1]], k = 0) while thread 0 writes buf[0][0] (line 159, k = 2); no barrier between them; warps 0-3 write and warps 4-7 read in the two arms of the branch at line [[@LINE-13]], where a __syncthreads() would be a divergent barrier: order them after the branch, where both groups pass, or with a named barrier counting the threads of both, 'bar.arrive' after the access that must come first and 'bar.sync' before the other [shmem-race]
      if (k + 2 < 6)
        barArrive(3 + s, 256);
    }
  }
}

// A run-time number of tiles, both roles waiting at both barriers.
// shmem-lint: block=256
__global__ void loopBothWait(const float *in, float *out, int tiles) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  for (int k = 0; k < tiles; ++k) {
    if (warp < 4) {
      buf[tid] = in[k * 128 + tid];
      barSync(1, 256);
      barSync(2, 256);
    } else {
      barSync(1, 256);
      out[k * 128 + tid - 128] = buf[tid - 128];
      barSync(2, 256);
    }
  }
}

// Without the second barrier the next tile's write races with this read.
// shmem-lint: block=256
__global__ void loopNoTrailing(const float *in, float *out, int tiles) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  for (int k = 0; k < tiles; ++k) {
    if (warp < 4) {
      buf[tid] = in[k * 128 + tid];
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: thread 0 writes buf[0] (line [[@LINE-1]]) in the next iteration of the loop at line [[@LINE-3]] while thread 128 reads buf[0] (line [[@LINE+4]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
      barSync(1, 256);
    } else {
      barSync(1, 256);
      out[k * 128 + tid - 128] = buf[tid - 128];
    }
  }
}

// Roles that are not whole warps, and two ifs one after the other: no
// named barrier is offered.
// shmem-lint: block=128
__global__ void notWarpRoles(const float *in, float *out) {
  __shared__ float buf[48];
  int tid = threadIdx.x;
  if (tid < 48)
    buf[tid] = in[tid];
  else
    out[tid] = buf[tid - 48];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 48 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-3]]); no barrier between them; threads with threadIdx.x < 48 write and threads with threadIdx.x >= 48 read in the two arms of the branch at line [[@LINE-4]], where a __syncthreads() would be a divergent barrier: order them after the branch, where both groups pass, or with a named barrier counting the threads of both, 'bar.arrive' after the access that must come first and 'bar.sync' before the other [shmem-race]
}

// shmem-lint: block=256
__global__ void consecutiveIfs(const float *in, float *out) {
  __shared__ float buf[128];
  int tid = threadIdx.x;
  if (tid < 128)
    buf[tid] = in[tid];
  if (tid >= 128)
    out[tid] = buf[tid - 128];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: thread 128 reads buf[0] (line [[@LINE-1]]) while thread 0 writes buf[0] (line [[@LINE-3]]); no barrier between them; add __syncthreads() between line [[@LINE-3]] and line [[@LINE-1]] [shmem-race]
}

// Arrivals in a loop the walk does not unroll: which iteration's
// generation they join is not followed. The race check then takes each
// counted bar.sync to order the block, as before named barriers were
// modelled, and says so (gaps follow the findings: this kernel is last).
// shmem-lint: block=256
__global__ void loopArrive(const float *in, float *out, int tiles) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp >= 4)
    barArrive(2, 256);
  for (int k = 0; k < tiles; ++k) {
    if (warp < 4) {
      barSync(2, 256);
      buf[tid] = in[k * 128 + tid];
      // CHECK-MESSAGES: :[[@LINE-1]]:7: remark: races between threads that named barriers order not analysed exactly (each 'bar.sync' with a count taken to order the whole block): barrier 2 is not modelled: its uses are in different loops walked without unrolling [shmem-race]
      barArrive(1, 256);
    } else {
      barSync(1, 256);
      out[k * 128 + tid - 128] = buf[tid - 128];
      barArrive(2, 256);
    }
  }
}
