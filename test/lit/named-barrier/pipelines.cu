// RUN: %check_all_front_ends %s shmem-named-barrier

// Multi-stage pipelines: a ring of buffers, FULL barriers the producer
// arrives at and the consumer waits on, EMPTY barriers the other way. A
// producer that only arrives at FULL must not arrive again before every
// consumer has waited on the previous generation; waiting on EMPTY first is
// what guarantees it.

__device__ void barSync(int id, int n) {
  asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(n) : "memory");
}
__device__ void barArrive(int id, int n) {
  asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(n) : "memory");
}

// Two stages, six tiles (the loops are unrolled): FULL = 1 + s, EMPTY =
// 3 + s. The consumers free the first two stages before the producers
// need them, and arrive at EMPTY only for tiles that will be refilled.
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

// Without the EMPTY wait the producers run ahead: their second arrival at
// barrier 1 may come before any consumer waited on the first generation,
// and the two generations' arrivals mix.
// shmem-lint: block=256
__global__ void ringWithoutEmpty(const float *in, float *out) {
  __shared__ float buf[2][128];
  int tid = threadIdx.x, warp = tid / 32;
  if (warp < 4) {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      buf[s][tid] = in[k * 128 + tid];
      barArrive(1 + s, 256);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: warps 0-3 may arrive at barrier 1 for the second time before warps 4-7 arrived the first time: nothing they wait for in between follows those arrivals, so the arrivals of two generations mix and the barrier no longer orders the threads it was meant to [shmem-named-barrier]
      // CHECK-MESSAGES: :[[@LINE+5]]:7: note: the first arrival of warps 4-7
    }
  } else {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      barSync(1 + s, 256);
      out[k * 128 + tid - 128] = buf[s][tid - 128];
    }
  }
}

// A run-time number of tiles, every use waiting: the loop is walked once
// for every iteration, and the counts hold in each. But each generation is
// waited for at two bar.sync instructions, one per arm: bar.sync is
// barrier.sync.aligned, which PTX requires all threads to execute as one
// instruction, and compute-sanitizer's synccheck stops the kernel
// (bench/gpu/named-barrier/h200.txt). The hardware counts them alike.
// shmem-lint: block=256
__global__ void bothWait(const float *in, float *out, int tiles) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  for (int k = 0; k < tiles; ++k) {
    if (warp < 4) {
      buf[tid] = in[k * 128 + tid];
      barSync(1, 256);
      barSync(2, 256);
    } else {
      barSync(1, 256);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: warps 4-7 wait for barrier 1 at this 'bar.sync' and warps 0-3 at the one at line [[@LINE-4]], for one generation: 'bar.sync' is 'barrier.sync.aligned', which PTX requires all threads to execute as one instruction (undefined behaviour otherwise); compute-sanitizer's synccheck stops the kernel with 'Barrier error detected' [shmem-named-barrier]
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: warps 0-3 wait here
      // CHECK-MESSAGES: :[[@LINE-3]]:7: note: wait at one instruction, or write 'barrier.sync 1, 256;' (not aligned) at both
      out[k * 128 + tid - 128] = buf[tid - 128];
      barSync(2, 256);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: warps 4-7 wait for barrier 2 at this 'bar.sync' and warps 0-3 at the one at line [[@LINE-8]], for one generation: 'bar.sync' is 'barrier.sync.aligned', which PTX requires all threads to execute as one instruction (undefined behaviour otherwise); compute-sanitizer's synccheck stops the kernel with 'Barrier error detected' [shmem-named-barrier]
    }
  }
}

// The same with barrier.sync, which is not aligned: silent.
__device__ void barSyncAnywhere(int id, int n) {
  asm volatile("barrier.sync %0, %1;" : : "r"(id), "r"(n) : "memory");
}
// shmem-lint: block=256
__global__ void bothWaitUnaligned(const float *in, float *out, int tiles) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  for (int k = 0; k < tiles; ++k) {
    if (warp < 4) {
      buf[tid] = in[k * 128 + tid];
      barSyncAnywhere(1, 256);
      barSyncAnywhere(2, 256);
    } else {
      barSyncAnywhere(1, 256);
      out[k * 128 + tid - 128] = buf[tid - 128];
      barSyncAnywhere(2, 256);
    }
  }
}

// The same with the wrong count in one role: checked per iteration.
// shmem-lint: block=256
__global__ void bothWaitMiscounted(const float *in, float *out, int tiles) {
  __shared__ float buf[128];
  int tid = threadIdx.x, warp = tid / 32;
  for (int k = 0; k < tiles; ++k) {
    if (warp < 4) {
      buf[tid] = in[k * 128 + tid];
      barSync(1, 256);
    } else {
      barSync(1, 128);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: barrier 1 is given different thread counts: 128 by warps 4-7 at 'bar.sync', 256 by warps 0-3 at line [[@LINE-3]], with no block-wide barrier between; every use of one barrier must give the same count [shmem-named-barrier]
      out[k * 128 + tid - 128] = buf[tid - 128];
    }
  }
}
