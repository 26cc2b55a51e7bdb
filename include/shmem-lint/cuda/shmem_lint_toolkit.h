/* What nvcc gives code that clang's CUDA headers, over a real toolkit, do
 * not: the driver pre-includes this file, by path, when it uses a toolkit
 * (after clang's CUDA runtime wrapper, so the toolkit's types are declared).
 * Each part says why in its own header. */
#ifndef SHMEM_LINT_TOOLKIT_H
#define SHMEM_LINT_TOOLKIT_H

#include "shmem_lint_minmax.h"
#include "shmem_lint_cache_hints.h"
#include "shmem_lint_host_math.h"
#include "shmem_lint_common_functions.h"

#endif /* SHMEM_LINT_TOOLKIT_H */
