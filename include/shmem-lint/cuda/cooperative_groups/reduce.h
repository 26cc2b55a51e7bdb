/* shmem-lint's stand-in for the toolkit's <cooperative_groups/reduce.h>:
 * cg::reduce and its operators, declared with the groups (the analysis
 * knows reduce() by name: one result per group). */
#ifndef SHMEM_LINT_COOPERATIVE_GROUPS_REDUCE_H
#define SHMEM_LINT_COOPERATIVE_GROUPS_REDUCE_H
#include "../cooperative_groups.h"
#endif
