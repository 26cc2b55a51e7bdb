// Does nvcc unroll (and then merge) a constant-trip-count loop written
// without #pragma unroll? Each kernel is one warp reading a row of a
// [32][64] float tile per thread: t[tid][k] for k < K (the layout of
// test/lit/bank-conflict/capabilities.cu's `loops` and idioms.cu's
// `nested`). run.sh --loops records the SASS (LDS widths) and ncu's
// shared-load wavefronts per kernel.
#include <cstdio>

#define ROW(K)                                                                 \
  __global__ void row##K(float *out, const float *in) {                        \
    __shared__ float t[32][64];                                                \
    for (int j = threadIdx.x; j < 32 * 64; j += 32)                            \
      t[j / 64][j % 64] = in[j];                                               \
    __syncthreads();                                                           \
    float acc = 0;                                                             \
    for (int k = 0; k < K; ++k)                                                \
      acc += t[threadIdx.x][k];                                                \
    out[threadIdx.x] = acc;                                                    \
  }
ROW(2)
ROW(4)
ROW(8)
ROW(16)
ROW(32)
ROW(64)

__global__ void rowNoUnroll8(float *out, const float *in) {
  __shared__ float t[32][64];
  for (int j = threadIdx.x; j < 32 * 64; j += 32)
    t[j / 64][j % 64] = in[j];
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < 8; ++k)
    acc += t[threadIdx.x][k];
  out[threadIdx.x] = acc;
}

__global__ void nested(float *out, const float *in) {
  __shared__ float s[32][32];
  for (int j = threadIdx.x; j < 32 * 32; j += 32)
    s[j / 32][j % 32] = in[j];
  __syncthreads();
  float acc = 0;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      acc += s[threadIdx.x][a * 4 + b];
  out[threadIdx.x] = acc;
}

int main() {
  float *out, *in;
  cudaMalloc(&out, 1 << 16);
  cudaMalloc(&in, 1 << 16);
  cudaMemset(in, 0, 1 << 16);
  row2<<<1, 32>>>(out, in);
  row4<<<1, 32>>>(out, in);
  row8<<<1, 32>>>(out, in);
  row16<<<1, 32>>>(out, in);
  row32<<<1, 32>>>(out, in);
  row64<<<1, 32>>>(out, in);
  rowNoUnroll8<<<1, 32>>>(out, in);
  nested<<<1, 32>>>(out, in);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
