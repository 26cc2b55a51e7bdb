/* shmem-lint's stand-in for the toolkit's header; see shmem_lint_cuda.h. */
#include "shmem_lint_cuda.h"
