// Shared accesses whose cost depends on the access width the compiler emits:
// inputs of the GPU cross-check (bench/gpu/crosscheck/), compiled by nvcc
// with -O3, so that the source shmem-lint reads and the SASS the hardware
// runs can differ (vectorised neighbours, split structs).
#include <cuda_runtime.h>

// Two neighbouring floats per lane: nvcc may merge them into one LDS.64.
// shmem-lint: block=32
__global__ void adjacentPair(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[2 * threadIdx.x] + s[2 * threadIdx.x + 1];
}

// float2 rows of a 32-wide tile read down a column: 64-bit, stride 64 words.
// shmem-lint: block=32
__global__ void float2Column(float *out) {
  __shared__ float2 t[32][32];
  t[0][threadIdx.x] = make_float2(threadIdx.x, 0);
  __syncthreads();
  float2 v = t[threadIdx.x][0];
  out[threadIdx.x] = v.x + v.y;
}

// float4 with stride 1 (conflict-free, 4 phases) and broadcast (2 wavefronts
// when loaded, 4 when stored).
// shmem-lint: block=32
__global__ void float4Forms(float4 *out) {
  __shared__ float4 s[64];
  s[threadIdx.x] = make_float4(threadIdx.x, 0, 0, 0);
  __syncthreads();
  float4 a = s[threadIdx.x];
  float4 b = s[5];
  out[threadIdx.x] = make_float4(a.x + b.x, a.y, a.z, a.w);
  __syncthreads();
  s[7] = a;
}

// double with stride 2 elements (4 words): 2-way within each half-warp.
// shmem-lint: block=32
__global__ void doubleStride2(double *out) {
  __shared__ double d[64];
  d[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = d[2 * threadIdx.x];
}

// A 12-byte struct read field by field: 3-word stride, conflict-free.
struct Vec3 { float x, y, z; };
// shmem-lint: block=32
__global__ void structOfThree(float *out) {
  __shared__ Vec3 v[32];
  v[threadIdx.x].x = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = v[threadIdx.x].x + v[threadIdx.x].y + v[threadIdx.x].z;
}

// 16-byte struct, one field: 4-word stride, 4-way.
struct Vec4 { float x, y, z, w; };
// shmem-lint: block=32
__global__ void structOfFourOneField(float *out) {
  __shared__ Vec4 v[32];
  v[threadIdx.x].y = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = v[threadIdx.x].y;
}

// Bytes and halves: lanes sharing a word do not conflict.
// shmem-lint: block=32
__global__ void narrowTypes(int *out) {
  __shared__ unsigned char c[256];
  __shared__ unsigned short h[256];
  c[threadIdx.x] = threadIdx.x;
  h[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = c[threadIdx.x * 4] + h[threadIdx.x * 2] + h[threadIdx.x * 64 % 256];
}

// Transpose through a 32x32 tile, unpadded, padded and swizzled, block 32x8.
__global__ void transpose3(float *out, const float *in) {
  __shared__ float a[32][32], b[32][33], c[32][32];
  for (int j = threadIdx.y; j < 32; j += 8) {
    float v = in[j * 32 + threadIdx.x];
    a[j][threadIdx.x] = v;
    b[j][threadIdx.x] = v;
    c[j][threadIdx.x ^ j] = v;
  }
  __syncthreads();
  for (int j = threadIdx.y; j < 32; j += 8)
    out[j * 32 + threadIdx.x] =
        a[threadIdx.x][j] + b[threadIdx.x][j] + c[threadIdx.x][j ^ threadIdx.x];
}

// Row stride from a parameter: 32-way when ld is a multiple of 32; launched
// (and compared) at ld=32. The lit input strideParam covers an odd ld.
// shmem-lint: block=32
__global__ void strideArg(float *out, int ld) {
  __shared__ float s[32 * 64];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * ld];
}

// Only half the warp, stride 2: 16 lanes in 16 even banks, conflict-free;
// stride 16 over the same lanes: 8-way.
// shmem-lint: block=64
__global__ void halfWarpStrides(float *out) {
  __shared__ float s[1024];
  unsigned lane = threadIdx.x % 32;
  s[threadIdx.x] = lane;
  __syncthreads();
  if (lane < 16)
    out[threadIdx.x] = s[lane * 2] + s[lane * 16];
}

// The matrix-product inner loop: broadcast of a[ty][k], row of b[k][tx].
__global__ void matmulTile(const float *a, const float *b, float *c) {
  __shared__ float ta[16][16], tb[16][16];
  ta[threadIdx.y][threadIdx.x] = a[threadIdx.y * 16 + threadIdx.x];
  tb[threadIdx.y][threadIdx.x] = b[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < 16; ++k)
    acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
  c[threadIdx.y * 16 + threadIdx.x] = acc;
}

// A histogram without atomics: lanes collide on bins (a race), and the bank
// cost depends on the data (no claim).
// shmem-lint: block=128
__global__ void histogramPlain(const int *keys, int *out) {
  __shared__ int bins[64];
  if (threadIdx.x < 64)
    bins[threadIdx.x] = 0;
  __syncthreads();
  bins[keys[threadIdx.x] % 64] += 1;
  __syncthreads();
  if (threadIdx.x < 64)
    out[threadIdx.x] = bins[threadIdx.x];
}

int main() {
  transpose3<<<1, dim3(32, 8)>>>(nullptr, nullptr);
  matmulTile<<<1, dim3(16, 16)>>>(nullptr, nullptr, nullptr);
  strideArg<<<1, 32>>>(nullptr, 32);
}
