/* shmem-lint's stand-in for the toolkit's header: a 16-bit type with the
 * size and alignment of the real __half, enough for shared-memory analysis. */
#ifndef SHMEM_LINT_CUDA_FP16_H
#define SHMEM_LINT_CUDA_FP16_H
#include "shmem_lint_cuda.h"
struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __host__ __device__ __half() = default;
  __host__ __device__ __half(float f);
  __host__ __device__ operator float() const;
  __host__ __device__ __half &operator=(float f);
};
/* The toolkit's assignments are user-provided (so not trivial), with their
 * code in its header; declared so here too. */
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __host__ __device__ __half2 &operator=(const __half2 &src);
};
typedef __half half;
typedef __half2 half2;
__device__ __half __float2half(float);
__device__ float __half2float(__half);
__device__ __half __hadd(__half, __half);
__device__ __half __hmul(__half, __half);
#endif
