// RUN: %check_all_front_ends %s shmem-bank-conflict

// A thread's adjacent element accesses that nvcc merges into one 64- or
// 128-bit instruction, and those it does not. Every kernel is one row of
// test/calibration/widths-h200.tsv (bench/gpu/widths: SASS and ncu on an
// H200); the figures in the comments are the measured ones.

// CUB's BlockExchange: 4 floats per thread, 4 words apart. Four 4-byte
// stores would be 4-way; nvcc emits one STS.128: 4 wavefronts, the ideal.
__global__ void __launch_bounds__(32) exchange(float *out, const float *in) {
  __shared__ float temp[32 * 4];
  int tid = threadIdx.x;
  float x[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    x[i] = in[tid * 4 + i];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    temp[tid * 4 + i] = x[i];
  __syncthreads();
  out[tid] = temp[tid];
}

// 8 words apart: one LDS.128 per thread, 8 wavefronts against 4 (2-way,
// not the 8-way of four 4-byte loads).
__global__ void __launch_bounds__(32) stride8(float *out) {
  __shared__ float As[32 * 8];
  int tid = threadIdx.x;
  for (int j = tid; j < 32 * 8; j += 32)
    As[j] = j;
  __syncthreads();
  float r[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    r[i] = As[tid * 8 + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 4 read 2 distinct words of 'As' in bank 0 (8 wavefronts instead of 4); nvcc merges this thread's 4 adjacent loads of 'As' into one 128-bit load here; {{.*}} [shmem-bank-conflict]
  out[tid] = r[0] + r[1] + r[2] + r[3];
}

// Pairs of doubles 32 bytes apart: one LDS.128, 8 wavefronts against 4.
__global__ void __launch_bounds__(32) doubles(double *out) {
  __shared__ double d[32 * 4];
  int tid = threadIdx.x;
  for (int j = tid; j < 32 * 4; j += 32)
    d[j] = j;
  __syncthreads();
  double r[2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
    r[i] = d[tid * 4 + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: {{.*}}(8 wavefronts instead of 4); nvcc merges this thread's 2 adjacent loads of 'd' into one 128-bit load here; {{.*}} [shmem-bank-conflict]
  out[tid] = r[0] + r[1];
}

// 5 words apart: no first address is 8-byte aligned in every thread, so
// four LDS: conflict-free each (4 wavefronts for the four).
__global__ void __launch_bounds__(32) misaligned(float *out) {
  __shared__ float As[32 * 5 + 4];
  int tid = threadIdx.x;
  for (int j = tid; j < 32 * 5 + 4; j += 32)
    As[j] = j;
  __syncthreads();
  float r[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    r[i] = As[tid * 5 + i];
  out[tid] = r[0] + r[1] + r[2] + r[3];
}

// 16-bit loads from an array of the type's own alignment stay LDS.U16:
// lanes 8 bytes apart, 2 wavefronts each.
__global__ void __launch_bounds__(32) halves(unsigned short *out) {
  __shared__ unsigned short h[32 * 4];
  int tid = threadIdx.x;
  for (int j = tid; j < 32 * 4; j += 32)
    h[j] = j;
  __syncthreads();
  unsigned short r[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    r[i] = h[tid * 4 + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 16 read 2 distinct words of 'h' in bank 0 (2 wavefronts instead of 1); successive lanes are 2 words apart{{.*}} [shmem-bank-conflict]
  out[tid] = r[0] + r[1] + r[2] + r[3];
}

// The same loads from a 16-byte aligned array: NVVM merges them into one
// LDS.64, 2 wavefronts, the ideal.
__global__ void __launch_bounds__(32) alignedHalves(unsigned short *out) {
  __shared__ __align__(16) unsigned short h[32 * 4];
  int tid = threadIdx.x;
  for (int j = tid; j < 32 * 4; j += 32)
    h[j] = j;
  __syncthreads();
  unsigned short r[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    r[i] = h[tid * 4 + i];
  out[tid] = r[0] + r[1] + r[2] + r[3];
}

// A barrier between the two loads keeps them apart: two 4-byte loads 2
// words apart, each 2-way.
__global__ void __launch_bounds__(32) barrierBetween(float *out) {
  __shared__ float s[32 * 2];
  int tid = threadIdx.x;
  s[tid] = tid;
  s[tid + 32] = tid;
  __syncthreads();
  float a = s[tid * 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 2-way bank conflict: {{.*}}(2 wavefronts instead of 1); successive lanes are 2 words apart{{.*}} [shmem-bank-conflict]
  __syncthreads();
  float b = s[tid * 2 + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 2-way bank conflict: {{.*}}(2 wavefronts instead of 1); successive lanes are 2 words apart{{.*}} [shmem-bank-conflict]
  out[tid] = a + b;
}

// Without it, straight-line code merges as an unrolled loop does.
__global__ void __launch_bounds__(32) straightLine(float *out) {
  __shared__ float s[32 * 2];
  int tid = threadIdx.x;
  s[tid] = tid;
  s[tid + 32] = tid;
  __syncthreads();
  float a = s[tid * 2];
  float b = s[tid * 2 + 1];
  out[tid] = a + b;
}

// Two floats per thread starting one word in: never 8-byte aligned, so two
// 4-byte loads, each 2-way (table row mw10: 4 wavefronts for the two). The
// message says what would merge them (mw0: one LDS.64, 2 wavefronts, the
// ideal).
__global__ void __launch_bounds__(32) offByOne(float *out) {
  __shared__ float s[32 * 2 + 2];
  int tid = threadIdx.x;
  s[tid] = tid;
  s[tid + 32] = tid;
  __syncthreads();
  float r[2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
    r[i] = s[tid * 2 + 1 + i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: {{.*}}(2 wavefronts instead of 1); nvcc keeps this thread's 2 adjacent loads of 's' apart because the first is not 8-byte aligned in every thread: starting each thread's run at a multiple of 8 bytes would make them 64-bit loads; {{.*}} [shmem-bank-conflict]
  out[tid] = r[0] + r[1];
}

__global__ void __launch_bounds__(32) aligned(float *out) {
  __shared__ float s[32 * 2 + 2];
  int tid = threadIdx.x;
  s[tid] = tid;
  s[tid + 32] = tid;
  __syncthreads();
  float r[2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
    r[i] = s[tid * 2 + i];
  out[tid] = r[0] + r[1];
}

// Loops without a pragma are unrolled by nvcc and their iterations merged
// (bench/gpu/widths/loops.cu on the H200: row32, 8 LDS.128 of 32 wavefronts
// each); `#pragma unroll 1` keeps one 4-byte load per iteration
// (rowNoUnroll8: 8 executions of one LDS, 32 wavefronts each).
__global__ void __launch_bounds__(32) rowUnrolled(float *out) {
  __shared__ float t[32][64];
  float acc = 0;
  for (int k = 0; k < 32; ++k)
    acc += t[threadIdx.x][k];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words of 't' in bank 0 (32 wavefronts instead of 4); nvcc merges this thread's 4 adjacent loads of 't' into one 128-bit load here; {{.*}} [shmem-bank-conflict]
  out[threadIdx.x] = acc;
}

__global__ void __launch_bounds__(32) rowNotUnrolled(float *out) {
  __shared__ float t[32][64];
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < 8; ++k)
    acc += t[threadIdx.x][k];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0 (32 wavefronts instead of 1); {{.*}} [shmem-bank-conflict]
  out[threadIdx.x] = acc;
}

// A sliding window, as cuda-samples' convolutionSeparable reads it: thread
// t's 17 loads start at element t, so no shift of the start aligns every
// thread's run, and the message gives no alignment advice.
// shmem-lint: block=16x4
__global__ void window(float *out) {
  __shared__ float s[4][160];
  float sum = 0;
#pragma unroll
  for (int j = -8; j <= 8; ++j)
    sum += s[threadIdx.y][threadIdx.x + 16 + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 16 read 2 distinct words of 's' in bank {{[0-9]+}} (2 wavefronts instead of 1); {{use|pad|no}} {{.*}} [shmem-bank-conflict]
  out[threadIdx.x] = sum;
}

// nvcc proves a run adjacent from the index expressions, not from their
// values (IndexSteps.h; bench/gpu/random: of 118 unrolled runs whose loop
// variable passes through `%` or `/`, nvcc merged 20, none of this kind).
// `(t * 4 + i + 32) % 512` never wraps inside a thread's four elements,
// but the remainder hides the step: four STS, 4-way each; the message says
// what nvcc would merge.
__global__ void __launch_bounds__(128) remainderHidesStep(const float *in) {
  __shared__ float s[512];
  int t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    s[(t * 4 + i + 32) % 512] = in[t] + i;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 4-way bank conflict: lanes 0, 8, 16, 24 write 4 distinct words of 's' in bank 0 (4 wavefronts instead of 1); nvcc keeps this thread's 4 adjacent stores of 's' apart because the '%' in the index hides that they are adjacent: an index whose loop variable is only added and multiplied would make them one 128-bit store; {{.*}} [shmem-bank-conflict]
}

// The same run with the step in plain sight: one STS.128, conflict-free.
__global__ void __launch_bounds__(128) stepInSight(const float *in) {
  __shared__ float s[512 + 32];
  int t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    s[t * 4 + i + 32] = in[t] + i;
}

// A row split of an index whose rows hold exactly its divisor: NVVM does
// not fold `e / 8` and `e % 8` back into `e` for floats, so two STS with
// lanes 2 words apart, 2-way each (bench/gpu/random r109_2: 16 wavefronts
// for 8 STS).
// shmem-lint: block=32x2
__global__ void rowSplit(const float *in) {
  __shared__ float s[16][8];
  const int t = threadIdx.x + 32 * threadIdx.y;
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const int e = t * 2 + i;
    const int er = e / 8, ec = e % 8;
    s[er][ec] = in[t] + i;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 2-way bank conflict: {{.*}}(2 wavefronts instead of 1); nvcc keeps this thread's 2 adjacent stores of 's' apart because the '/' in the index hides that they are adjacent: {{.*}}one 64-bit store; {{.*}} [shmem-bank-conflict]
  }
}

// ggml_cuda_memcpy_1's use in fattn-vec: a float2 pair stored through two
// calls of a copy helper, the second 8 bytes after the first. Inlined,
// they are straight-line code, and ptxas emits one STS.128
// (bench/gpu/triage/h200-ggml-sass.txt: common.cuh:813): 4 wavefronts,
// the ideal, where two STS.64 would be 2-way.
template <int N>
__device__ __forceinline__ void copyBytes(void *__restrict__ dst,
                                          const void *__restrict__ src) {
  *(int2 *)dst = *(const int2 *)src;
}
// (helperPairHidden's second store:)
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 2-way bank conflict: lanes 0, 8 write 2 distinct words of 'KQ' in bank 0 (4 wavefronts instead of 2); nvcc keeps this thread's 2 adjacent stores of 'KQ' apart {{.*}} [shmem-bank-conflict]
__global__ void __launch_bounds__(32) helperPair(const float2 *in,
                                                 float *out) {
  __shared__ float KQ[128];
  float2 v[2] = {in[threadIdx.x * 2], in[threadIdx.x * 2 + 1]};
  float2 *tmp = (float2 *)KQ;
  copyBytes<8>(tmp + threadIdx.x * 2, &v[0]);
  copyBytes<8>(tmp + threadIdx.x * 2 + 1, &v[1]);
  __syncthreads();
  out[threadIdx.x] = KQ[threadIdx.x];
}

// The second call's address through a remainder nvcc cannot see through:
// two STS.64, each 2-way.
__global__ void __launch_bounds__(32) helperPairHidden(const float2 *in,
                                                       float *out) {
  __shared__ float KQ[128];
  float2 v[2] = {in[threadIdx.x * 2], in[threadIdx.x * 2 + 1]};
  float2 *tmp = (float2 *)KQ;
  copyBytes<8>(tmp + threadIdx.x * 2, &v[0]);
  copyBytes<8>(tmp + (threadIdx.x * 2 + 1) % 64, &v[1]);
  __syncthreads();
  out[threadIdx.x] = KQ[threadIdx.x];
}

// The same pair after a data-dependent exit, as in ggml's fattn-vec: the
// walk knows only approximately which threads are left, but both stores
// run in one stretch of straight-line code, in the same threads whichever
// they are, and ptxas merges them as before (no finding).
__device__ __forceinline__ void store8(void *__restrict__ dst,
                                       const void *__restrict__ src) {
  *(int2 *)dst = *(const int2 *)src;
}
__global__ void __launch_bounds__(32) helperPairAfterExit(const float2 *in,
                                                          float *out) {
  __shared__ float KQ[128];
  float2 v[2] = {in[threadIdx.x * 2], in[threadIdx.x * 2 + 1]};
  if (v[0].x < 0.0f)
    return;
  float2 *tmp = (float2 *)KQ;
  store8(tmp + threadIdx.x * 2, &v[0]);
  store8(tmp + threadIdx.x * 2 + 1, &v[1]);
  __syncthreads();
  out[threadIdx.x] = KQ[threadIdx.x];
}

// A data-dependent branch between them: the second store runs in the
// threads the data picks, in a block of its own, and nvcc cannot merge it
// with the first: two STS.64, each 2-way.
__device__ __forceinline__ void store8Split(void *__restrict__ dst,
                                            const void *__restrict__ src) {
  *(int2 *)dst = *(const int2 *)src;
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 2-way bank conflict: lanes 0, 8 write 2 distinct words of 'KQ' in bank 0 (4 wavefronts instead of 2){{.*}} [shmem-bank-conflict]
__global__ void __launch_bounds__(32) helperPairSplit(const float2 *in,
                                                      float *out) {
  __shared__ float KQ[128];
  float2 v[2] = {in[threadIdx.x * 2], in[threadIdx.x * 2 + 1]};
  if (v[0].x < 0.0f)
    return;
  float2 *tmp = (float2 *)KQ;
  store8Split(tmp + threadIdx.x * 2, &v[0]);
  if (v[1].y > 0.0f)
    store8Split(tmp + threadIdx.x * 2 + 1, &v[1]);
  __syncthreads();
  out[threadIdx.x] = KQ[threadIdx.x];
}
