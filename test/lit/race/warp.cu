// RUN: %check_all_front_ends %s shmem-race

// Warps: __syncwarp() orders the lanes its mask names, and nothing else.
// Legacy warp-synchronous code (volatile, no __syncwarp) is a race since
// Volta: lanes of a warp are scheduled independently.

// The classic tail of a block reduction. One finding for the chain.
// shmem-lint: block=64
__global__ void legacyWarpReduce(float *out) {
  __shared__ float s[64];
  volatile float *vs = s;
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    vs[tid] += vs[tid + 16];
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 16 writes s[16] (line 16) while thread 0 reads s[16] (line 16); no barrier between them; read into a register, then __syncwarp(), then write (both threads are in warp 0); 'volatile' does not make warp-synchronous code safe: since Volta, lanes of a warp are scheduled independently [shmem-race]
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
}

// The same in a helper, as it is usually written.
__device__ void warpReduce(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
// CHECK-MESSAGES: :[[@LINE-1]]:13: warning: thread 0 reads s[16] (line 28) while thread 16 writes s[16] (line 27); no barrier between them; add __syncwarp() between line 27 and line 28 (both threads are in warp 0); 'volatile' does not make warp-synchronous code safe: since Volta, lanes of a warp are scheduled independently [shmem-race]
  s[tid] += s[tid + 8];
}

// shmem-lint: block=128
__global__ void legacyHelper(float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32)
    warpReduce(s, tid);
}

// Read into a register, __syncwarp(), write, __syncwarp(): silent.
// shmem-lint: block=64
__global__ void syncwarpReduce(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    float v = s[tid];
    for (int off = 16; off > 0; off >>= 1) {
      v += s[tid + off];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
}

// __syncwarp() orders the lanes of one warp: silent.
// shmem-lint: block=256
__global__ void neighbourLane(int *out) {
  __shared__ int s[256];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s[threadIdx.x] = out[threadIdx.x];
  __syncwarp();
  out[threadIdx.x] = s[warp * 32 + (lane + 1) % 32];
}

// Without it: a race inside the warp, fixed by __syncwarp().
// shmem-lint: block=256
__global__ void neighbourLaneNoSync(int *out) {
  __shared__ int s[256];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[warp * 32 + (lane + 1) % 32];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[1] (line 77) while thread 1 writes s[1] (line 76); no barrier between them; add __syncwarp() between line 76 and line 77 (both threads are in warp 0) [shmem-race]
}

// __syncwarp() does not order threads of different warps.
// shmem-lint: block=256
__global__ void neighbourWarp(int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = out[threadIdx.x];
  __syncwarp();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 256];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[32] (line 87) while thread 32 writes s[32] (line 85); no barrier between them; add __syncthreads() between line 85 and line 87 [shmem-race]
}

// A half-warp mask covering exactly the lanes that exchange: silent.
// shmem-lint: block=128
__global__ void halfWarpMask(int *out) {
  __shared__ int s[4][32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = out[threadIdx.x];
  if (lane < 16) {
    s[warp][lane] = v;
    __syncwarp(0xffff);
    v = s[warp][lane ^ 1];
  }
  out[threadIdx.x] = v;
}

// The mask leaves out lanes 16-31, which read lanes 0-15's elements.
// shmem-lint: block=128
__global__ void maskTooNarrow(int *out) {
  __shared__ int s[4][32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s[warp][lane] = out[threadIdx.x];
  __syncwarp(0xffff);
  out[threadIdx.x] = s[warp][lane ^ 16];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[0][16] (line 112) while thread 16 writes s[0][16] (line 110); no barrier between them; add __syncwarp() between line 110 and line 112 (both threads are in warp 0) [shmem-race]
}

// A warp collective synchronises its lanes but orders no memory: the trace
// keeps it apart from the barriers, and the race stays.
// shmem-lint: block=64
__global__ void shuffleIsNoBarrier(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  float v = __shfl_xor_sync(0xffffffff, out[threadIdx.x], 1);
  out[threadIdx.x] = s[threadIdx.x ^ 1] + v;
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[1] (line [[@LINE-1]]) while thread 1 writes s[1] (line [[@LINE-3]]); no barrier between them; add __syncwarp() between line [[@LINE-3]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
}
