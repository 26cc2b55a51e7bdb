// RUN: %check_all_front_ends %s shmem-race

// A barrier under a branch whose condition the walker knows in every
// thread of the analysed shape: the side no thread takes is no path
// (ggml's soft_max_f32). Two block reductions share a buffer and the kernel
// separates them with `if (blockDim.x > 32) __syncthreads();`; with 256
// threads the barrier always runs, so nothing is reported.

__device__ float reduce(float v, float *buf) {
  if (blockDim.x > 32) {
    if (threadIdx.x % 32 == 0)
      buf[threadIdx.x / 32] = v;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: thread 0 writes buf[0] (line 12) while thread 32 reads buf[0] (line 15); no barrier between them: the __syncthreads() at line 58 does not run: no thread of this block takes its side of the branch at line 57; add __syncthreads() between line 56 and line 60 [shmem-race]
    __syncthreads();
    v = buf[threadIdx.x % 32];
  }
  return v;
}

// shmem-lint: block=256
__global__ void twoReductions(float *out) {
  extern __shared__ float buf[];
  float m = reduce(out[threadIdx.x], buf);
  if (blockDim.x > 32) {
    __syncthreads();
  }
  m = reduce(m, buf);
  out[threadIdx.x] = m;
}

// A helper that returns early under a condition the walker cannot
// evaluate (a float, as ggml's get_alibi_slope) leaves every calling thread
// active after the call, as exactly as before it: the known condition
// still drops its side.
__device__ float slopeOf(float bias, float m) {
  if (bias <= 0.0f)
    return 1.0f;
  return m * bias;
}

// shmem-lint: block=256
__global__ void reductionsAfterHelper(float *out, float bias) {
  extern __shared__ float buf[];
  float m = reduce(out[threadIdx.x] * slopeOf(bias, 2.0f), buf);
  if (blockDim.x > 32)
    __syncthreads();
  m = reduce(m, buf);
  out[threadIdx.x] = m;
}

// A condition false in every thread: the barrier never runs and the two
// reductions race.
// shmem-lint: block=256
__global__ void twoReductionsNoBarrier(float *out) {
  extern __shared__ float buf[];
  float m = reduce(out[threadIdx.x], buf);
  if (blockDim.x > 512) {
    __syncthreads();
  }
  m = reduce(m, buf);
  out[threadIdx.x] = m;
}

// One kernel, two launch shapes: the barrier runs with 128 threads, and
// with 64 it is skipped, so only that shape reports (thread 63's element).
__global__ void shapeBarrier(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  if (blockDim.x > 64)
    __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[63] (line 71) while thread 63 writes s[63] (line 68); no barrier between them: the __syncthreads() at line 70 does not run: no thread of this block takes its side of the branch at line 69; add __syncthreads() between line 68 and line 71 [shmem-race]
}

void launch(float *p) {
  shapeBarrier<<<1, 128>>>(p);
  shapeBarrier<<<1, 64>>>(p);
}

// The parts of && and || are known apart: a part that always holds (or
// never does) drops its edge, the data-dependent part keeps both.
// shmem-lint: block=256
__global__ void orShape(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  if (blockDim.x > 32 || out[0] > 0)
    __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// shmem-lint: block=256
__global__ void orData(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  if (blockDim.x < 32 || out[0] > 0)
    __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line 97) while thread 255 writes s[255] (line 94); no barrier between them; add __syncthreads() between line 94 and line 97 [shmem-race]
}

// shmem-lint: block=256
__global__ void andShape(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  if (blockDim.x < 32 && out[0] > 0) {
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// shmem-lint: block=256
__global__ void andData(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  if (blockDim.x > 32 && out[0] > 0)
    __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line 118) while thread 255 writes s[255] (line 115); no barrier between them; add __syncthreads() between line 115 and line 118 [shmem-race]
}

// A conditional operator with a barrier in one arm.
__device__ int syncedOne() {
  __syncthreads();
  return 1;
}

// shmem-lint: block=256
__global__ void conditionalShape(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  int y = blockDim.x > 32 ? syncedOne() : 0;
  out[threadIdx.x] = s[255 - threadIdx.x] + y;
}

// shmem-lint: block=256
__global__ void conditionalNever(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  int y = blockDim.x < 32 ? syncedOne() : 0;
  out[threadIdx.x] = s[255 - threadIdx.x] + y;
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line 141) while thread 255 writes s[255] (line 139); no barrier between them: the barrier in 'syncedOne' (called at line 140) does not run: no thread of this block takes its side of the branch at line 140; add __syncthreads() between line 139 and line 141 [shmem-race]
}

// ggml's mmf kernels: the stages of one buffer separated by barriers that
// only run with several warps (`if (nwarps > 1) { __syncthreads(); }`).
// With one warp neither runs, and each stage races with the next inside the
// warp: each skipped barrier is missing on its own, so each race is a
// finding, not one more link of the first one's chain (race/warp.cu keeps
// a warp-synchronous chain with no barrier at all one finding).
template <int nwarps>
__global__ void __launch_bounds__(32 * nwarps) stages(const float *x, float *out) {
  __shared__ float tile[32 * 33];
  for (int i = 0; i < 4; ++i)
    tile[(threadIdx.y * 4 + i) * 33 + threadIdx.x] = x[i * 32 + threadIdx.x];
  float acc = 0.0f;
  for (int i = 0; i < 4; ++i)
    acc += tile[threadIdx.x * 33 + threadIdx.y * 4 + i];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: thread 1 reads tile[33] (line [[@LINE-1]], i = 0) while thread 0 writes tile[33] (line [[@LINE-4]], i = 1); no barrier between them; add __syncwarp() between line [[@LINE-4]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
  if (nwarps > 1) {
    __syncthreads();
  }
  tile[threadIdx.y * 64 + threadIdx.x * 2] = acc;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 17 writes tile[34] (line [[@LINE-1]]) while thread 1 reads tile[34] (line [[@LINE-6]], i = 1); no barrier between them: the __syncthreads() at line [[@LINE-3]] does not run: no thread of this block takes its side of the branch at line [[@LINE-4]]; add __syncwarp() between line [[@LINE-6]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
  if (nwarps > 1) {
    __syncthreads();
  }
  out[threadIdx.x] = tile[threadIdx.y * 64 + (threadIdx.x * 2 + 2) % 64];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads tile[2] (line [[@LINE-1]]) while thread 1 writes tile[2] (line [[@LINE-6]]); no barrier between them: the __syncthreads() at line [[@LINE-3]] does not run: no thread of this block takes its side of the branch at line [[@LINE-4]]; add __syncwarp() between line [[@LINE-6]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
}
template __global__ void stages<1>(const float *, float *);

// The same with `if constexpr`: the instantiation keeps the discarded side
// as an empty block, and the barrier is read from the template.
template <int nwarps>
__global__ void __launch_bounds__(32 * nwarps) stagesConstexpr(const float *x, float *out) {
  __shared__ float tile[32 * 33];
  for (int i = 0; i < 4; ++i)
    tile[(threadIdx.y * 4 + i) * 33 + threadIdx.x] = x[i * 32 + threadIdx.x];
  float acc = 0.0f;
  for (int i = 0; i < 4; ++i)
    acc += tile[threadIdx.x * 33 + threadIdx.y * 4 + i];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: thread 1 reads tile[33] (line [[@LINE-1]], i = 0) while thread 0 writes tile[33] (line [[@LINE-4]], i = 1); no barrier between them; add __syncwarp() between line [[@LINE-4]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
  if constexpr (nwarps > 1) {
    __syncthreads();
  }
  tile[threadIdx.y * 64 + threadIdx.x * 2] = acc;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 17 writes tile[34] (line [[@LINE-1]]) while thread 1 reads tile[34] (line [[@LINE-6]], i = 1); no barrier between them: the __syncthreads() at line [[@LINE-3]] does not run: no thread of this block takes its side of the branch at line [[@LINE-4]]; add __syncwarp() between line [[@LINE-6]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
  if constexpr (nwarps > 1) {
    __syncthreads();
  }
  out[threadIdx.x] = tile[threadIdx.y * 64 + (threadIdx.x * 2 + 2) % 64];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads tile[2] (line [[@LINE-1]]) while thread 1 writes tile[2] (line [[@LINE-6]]); no barrier between them: the __syncthreads() at line [[@LINE-3]] does not run: no thread of this block takes its side of the branch at line [[@LINE-4]]; add __syncwarp() between line [[@LINE-6]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
}
template __global__ void stagesConstexpr<1>(const float *, float *);
