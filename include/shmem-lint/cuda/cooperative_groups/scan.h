/* shmem-lint's stand-in for the toolkit's <cooperative_groups/scan.h>:
 * prefix sums over a group, whose results differ between its threads. */
#ifndef SHMEM_LINT_COOPERATIVE_GROUPS_SCAN_H
#define SHMEM_LINT_COOPERATIVE_GROUPS_SCAN_H
#include "../cooperative_groups.h"
namespace cooperative_groups {
template <class Group, class T>
__device__ T inclusive_scan(const Group &g, T val);
template <class Group, class T, class Op>
__device__ T inclusive_scan(const Group &g, T val, Op op);
template <class Group, class T>
__device__ T exclusive_scan(const Group &g, T val);
template <class Group, class T, class Op>
__device__ T exclusive_scan(const Group &g, T val, Op op);
} // namespace cooperative_groups
#endif
