/* shmem-lint's stand-in for the toolkit's header: the pipeline primitives
 * that issue and wait for async copies (cp.async), as the toolkit declares
 * them. */
#ifndef SHMEM_LINT_CUDA_PIPELINE_PRIMITIVES_H
#define SHMEM_LINT_CUDA_PIPELINE_PRIMITIVES_H
#include "shmem_lint_cuda.h"
__device__ void __pipeline_memcpy_async(void *dst_shared,
                                        const void *src_global,
                                        size_t size_and_align,
                                        size_t zfill = 0);
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(size_t prior);
#endif
