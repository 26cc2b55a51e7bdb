/* The loads and stores with cache hints of the toolkit's
 * sm_32_intrinsics.h (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv,
 * __stwb, __stcg, __stcs, __stwt), for every type nvcc gives them. clang's
 * CUDA headers skip that file and define only some of them again
 * (__ldg, __ldcg, __ldcs, __ldcv, __stwt), so code nvcc accepts,
 * `__stcs(out + i, v)` in llm.c's kernels, fails to parse, and with it the
 * file.
 *
 * With a toolkit the driver pre-includes this (through
 * shmem_lint_toolkit.h) for the ones clang lacks; shmem_lint_cuda.h
 * includes it for all of them (SHMEM_LINT_CACHE_HINTS_ALL). Declarations
 * only: the analysis reads them as global-memory accesses by name. */
#ifndef SHMEM_LINT_CACHE_HINTS_H
#define SHMEM_LINT_CACHE_HINTS_H

#define SHMEM_LINT_LOAD(F, T) __device__ T F(const T *ptr);
#define SHMEM_LINT_STORE(F, T) __device__ void F(T *ptr, T value);
#define SHMEM_LINT_FOR_TYPES(X, F)                                             \
  X(F, char) X(F, signed char) X(F, short) X(F, int) X(F, long)                \
  X(F, long long) X(F, unsigned char) X(F, unsigned short)                     \
  X(F, unsigned int) X(F, unsigned long) X(F, unsigned long long)              \
  X(F, float) X(F, double) X(F, char2) X(F, char4) X(F, short2)                \
  X(F, short4) X(F, int2) X(F, int4) X(F, longlong2) X(F, uchar2)              \
  X(F, uchar4) X(F, ushort2) X(F, ushort4) X(F, uint2) X(F, uint4)             \
  X(F, ulonglong2) X(F, float2) X(F, float4) X(F, double2)

SHMEM_LINT_FOR_TYPES(SHMEM_LINT_LOAD, __ldca)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_LOAD, __ldlu)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_STORE, __stwb)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_STORE, __stcg)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_STORE, __stcs)
#ifdef SHMEM_LINT_CACHE_HINTS_ALL
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_LOAD, __ldg)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_LOAD, __ldcg)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_LOAD, __ldcs)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_LOAD, __ldcv)
SHMEM_LINT_FOR_TYPES(SHMEM_LINT_STORE, __stwt)
#endif

#undef SHMEM_LINT_FOR_TYPES
#undef SHMEM_LINT_STORE
#undef SHMEM_LINT_LOAD

#endif /* SHMEM_LINT_CACHE_HINTS_H */
