/*===- shmem_lint_cuda.h - Minimal CUDA declarations for analysis ---------===
 *
 * shmem-lint analyses CUDA source without a CUDA toolkit. The driver passes
 * `-nocudainc -include shmem_lint_cuda.h` (and this directory as a system
 * include path, so <cuda_runtime.h>, <cooperative_groups.h> and
 * <cuda_fp16.h> resolve here) when no toolkit is found. It declares what
 * kernels use; nothing here is ever code-generated.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SHMEM_LINT_CUDA_H
#define SHMEM_LINT_CUDA_H

#define __SHMEM_LINT_CUDA__ 1

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __grid_constant__
/* As the toolkit's host_defines.h spells it. */
#define __align__(n) __attribute__((aligned(n)))

#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif

#include <stddef.h>

/* threadIdx, blockIdx, blockDim, gridDim and warpSize, exactly as clang
 * declares them for a real toolkit, so the analysis sees the same AST. */
#include <__clang_cuda_builtin_vars.h>

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

#define SHMEM_LINT_VEC2(T, N, A)                                               \
  struct __attribute__((aligned(A))) N##2 { T x, y; };
#define SHMEM_LINT_VEC3(T, N)                                                  \
  struct N##3 { T x, y, z; };
#define SHMEM_LINT_VEC4(T, N, A)                                               \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };
#define SHMEM_LINT_VECS(T, N, A2, A4)                                          \
  struct N##1 { T x; };                                                        \
  SHMEM_LINT_VEC2(T, N, A2) SHMEM_LINT_VEC3(T, N) SHMEM_LINT_VEC4(T, N, A4)
SHMEM_LINT_VECS(char, char, 2, 4)
SHMEM_LINT_VECS(unsigned char, uchar, 2, 4)
SHMEM_LINT_VECS(short, short, 4, 8)
SHMEM_LINT_VECS(unsigned short, ushort, 4, 8)
SHMEM_LINT_VECS(int, int, 8, 16)
SHMEM_LINT_VECS(unsigned int, uint, 8, 16)
SHMEM_LINT_VECS(float, float, 8, 16)
SHMEM_LINT_VECS(long long, longlong, 16, 16)
SHMEM_LINT_VECS(unsigned long long, ulonglong, 16, 16)
SHMEM_LINT_VECS(double, double, 16, 16)
#undef SHMEM_LINT_VECS
#undef SHMEM_LINT_VEC2
#undef SHMEM_LINT_VEC3
#undef SHMEM_LINT_VEC4

struct __attribute__((aligned(4))) dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};

#define SHMEM_LINT_MAKE2(N, T)                                                 \
  static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y) {           \
    return N##2{x, y};                                                         \
  }
#define SHMEM_LINT_MAKE4(N, T)                                                 \
  static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) { \
    return N##4{x, y, z, w};                                                   \
  }
SHMEM_LINT_MAKE2(float, float)
SHMEM_LINT_MAKE4(float, float)
SHMEM_LINT_MAKE2(int, int)
SHMEM_LINT_MAKE4(int, int)
SHMEM_LINT_MAKE2(double, double)
SHMEM_LINT_MAKE2(uint, unsigned int)
SHMEM_LINT_MAKE4(uint, unsigned int)
#undef SHMEM_LINT_MAKE2
#undef SHMEM_LINT_MAKE4

/* Kernel launches: clang lowers `k<<<g, b, s, st>>>(...)` to a call of one
 * of these, depending on the CUDA version it assumes. */
extern "C" int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                           size_t sharedMem = 0,
                                           cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 gridSize, dim3 blockSize,
                                         size_t sharedSize = 0,
                                         cudaStream_t stream = 0);
/* Launches from device code (dynamic parallelism, with -fgpu-rdc) lower to
 * these two. */
extern "C" __device__ void *cudaGetParameterBuffer(size_t alignment,
                                                   size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *func,
                                                   void *parameterBuffer,
                                                   dim3 gridDimension,
                                                   dim3 blockDimension,
                                                   unsigned int sharedMemSize,
                                                   cudaStream_t stream);

/* Host API, enough for the usual launch code around kernels. */
extern "C" {
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                               size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem,
                             cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                        dim3 blockDim, void **args,
                                        size_t sharedMem = 0,
                                        cudaStream_t stream = 0);
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
}
/* Launches with a configuration object (CUDA 11.8+): cluster dimensions and
 * other attributes ride along; the block is the object's blockDim. */
typedef struct cudaLaunchAttribute_st {
  int id;
  char pad[4];
  unsigned char val[64];
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;
extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                           const void *func, void **args);
template <typename... ExpTypes, typename... ActTypes>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                             void (*kernel)(ExpTypes...),
                                             ActTypes &&...args) {
  return [&](ExpTypes... coerced) {
    void *pArgs[] = {&coerced...};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}
/* The driver API's tensor maps (cuda.h), for TMA: the encode call says the
 * box, the element type and the swizzle a kernel's bulk tensor copies use. */
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef struct CUtensorMap_st {
  alignas(64) cuuint64_t opaque[16];
} CUtensorMap;
typedef enum CUtensorMapDataType_enum {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16,
  CU_TENSOR_MAP_DATA_TYPE_UINT32,
  CU_TENSOR_MAP_DATA_TYPE_INT32,
  CU_TENSOR_MAP_DATA_TYPE_UINT64,
  CU_TENSOR_MAP_DATA_TYPE_INT64,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ
} CUtensorMapDataType;
typedef enum CUtensorMapInterleave_enum {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_INTERLEAVE_16B,
  CU_TENSOR_MAP_INTERLEAVE_32B
} CUtensorMapInterleave;
typedef enum CUtensorMapSwizzle_enum {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B,
  CU_TENSOR_MAP_SWIZZLE_64B,
  CU_TENSOR_MAP_SWIZZLE_128B
} CUtensorMapSwizzle;
typedef enum CUtensorMapL2promotion_enum {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B
} CUtensorMapL2promotion;
typedef enum CUtensorMapFloatOOBfill_enum {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
} CUtensorMapFloatOOBfill;
extern "C" CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill);
extern "C" CUresult cuGetErrorString(CUresult error, const char **str);
template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

/* Device-side assert and printf, as clang's CUDA runtime wrapper declares
 * them: the C library's assert() calls __assert_fail, which device code
 * finds here. A kernel's `assert(blockDim.x == 32)` is a shape fact. */
extern "C" {
__device__ int vprintf(const char *format, const char *args);
__device__ void __assertfail(const char *message, const char *file,
                             unsigned line, const char *function,
                             size_t char_size);
__device__ static inline void __assert_fail(const char *message,
                                            const char *file, unsigned line,
                                            const char *function) {
  __assertfail(message, file, line, function, sizeof(char));
}
}

/* Barriers and warp primitives. Declarations only: the analysis knows them
 * by name. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __barrier_sync(unsigned id);
__device__ void __threadfence(void);
/* The shared-window address of a generic pointer (for inline asm such as
 * ldmatrix). */
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ void __threadfence_block(void);
__device__ unsigned __activemask(void);
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ unsigned __match_any_sync(unsigned mask, unsigned value);
__device__ int __uni_sync(unsigned mask, int predicate);
__device__ unsigned __match_all_sync(unsigned mask, unsigned value, int *pred);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned value);
__device__ int __reduce_add_sync(unsigned mask, int value);
__device__ unsigned __reduce_min_sync(unsigned mask, unsigned value);
__device__ int __reduce_min_sync(unsigned mask, int value);
__device__ unsigned __reduce_max_sync(unsigned mask, unsigned value);
__device__ int __reduce_max_sync(unsigned mask, int value);
__device__ unsigned __reduce_and_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_or_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_xor_sync(unsigned mask, unsigned value);
#define SHMEM_LINT_SHFL(T)                                                     \
  __device__ T __shfl_sync(unsigned mask, T var, int srcLane,                  \
                           int width = 32);                                    \
  __device__ T __shfl_up_sync(unsigned mask, T var, unsigned delta,            \
                              int width = 32);                                 \
  __device__ T __shfl_down_sync(unsigned mask, T var, unsigned delta,          \
                                int width = 32);                               \
  __device__ T __shfl_xor_sync(unsigned mask, T var, int laneMask,             \
                               int width = 32);
SHMEM_LINT_SHFL(int)
SHMEM_LINT_SHFL(unsigned)
SHMEM_LINT_SHFL(float)
SHMEM_LINT_SHFL(double)
SHMEM_LINT_SHFL(long long)
#undef SHMEM_LINT_SHFL

#define SHMEM_LINT_ATOMIC(T)                                                   \
  __device__ T atomicAdd(T *address, T val);                                   \
  __device__ T atomicSub(T *address, T val);                                   \
  __device__ T atomicExch(T *address, T val);                                  \
  __device__ T atomicMin(T *address, T val);                                   \
  __device__ T atomicMax(T *address, T val);                                   \
  __device__ T atomicAnd(T *address, T val);                                   \
  __device__ T atomicOr(T *address, T val);                                    \
  __device__ T atomicXor(T *address, T val);                                   \
  __device__ T atomicCAS(T *address, T compare, T val);
SHMEM_LINT_ATOMIC(int)
SHMEM_LINT_ATOMIC(unsigned int)
SHMEM_LINT_ATOMIC(unsigned long long)
#undef SHMEM_LINT_ATOMIC
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ float atomicExch(float *address, float val);
__device__ unsigned atomicInc(unsigned *address, unsigned val);
__device__ unsigned atomicDec(unsigned *address, unsigned val);

/* Arithmetic helpers kernels commonly call. */
#define SHMEM_LINT_MINMAX_TARGET __host__ __device__
#include "shmem_lint_minmax.h"
/* Device only: the C library declares them for the host, and a host
 * overload of ours would clash with it where <cmath> is included. */
static __inline__ __device__ float fminf(float a, float b) { return a < b ? a : b; }
static __inline__ __device__ float fmaxf(float a, float b) { return a > b ? a : b; }
__device__ float __expf(float);
__device__ float expf(float);
__device__ float sqrtf(float);
__device__ float rsqrtf(float);
__device__ float fabsf(float);
__device__ float roundf(float);
__device__ float __fdividef(float, float);
__device__ int __popc(unsigned);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned __brev(unsigned);
__device__ long long clock64(void);

/* Every load and store with a cache hint: clang's headers, which would
 * define some of them, are not included without a toolkit. */
#define SHMEM_LINT_CACHE_HINTS_ALL 1
#include "shmem_lint_cache_hints.h"
#include "shmem_lint_host_math.h"
#include "shmem_lint_common_functions.h"

#endif /* SHMEM_LINT_CUDA_H */
