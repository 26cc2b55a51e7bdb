/* The C headers nvcc gives host code without being asked: its
 * cuda_runtime.h reaches the toolkit's crt/common_functions.h, which
 * includes <string.h> and <time.h>, so code built with nvcc calls time()
 * and memcpy() with neither included (Rodinia's particlefilter). clang's
 * CUDA runtime wrapper skips that header (it defines
 * __COMMON_FUNCTIONS_H__), and such a file failed to parse.
 *
 * With a toolkit the driver pre-includes this through
 * shmem_lint_toolkit.h, as nvcc would have included them; shmem_lint_cuda.h,
 * which stands in for the toolkit, includes it too. */
#ifndef SHMEM_LINT_COMMON_FUNCTIONS_H
#define SHMEM_LINT_COMMON_FUNCTIONS_H

#if !defined(__CUDACC_RTC__)
#include <string.h>
#include <time.h>
#endif

#endif /* SHMEM_LINT_COMMON_FUNCTIONS_H */
