/* shmem-lint's stand-in for the toolkit's <cooperative_groups/scan.h>:
 * prefix sums over a group, whose results differ between its threads. */
#ifndef SHMEM_LINT_COOPERATIVE_GROUPS_SCAN_H
#define SHMEM_LINT_COOPERATIVE_GROUPS_SCAN_H
#include "../cooperative_groups.h"
namespace cooperative_groups {
/* Operands by forwarding reference, as the toolkit takes them. */
template <class Group, class T>
__device__ auto inclusive_scan(const Group &g, T &&val) -> decltype(val + val);
template <class Group, class T, class Op>
__device__ auto inclusive_scan(const Group &g, T &&val, Op &&op)
    -> decltype(op(val, val));
template <class Group, class T>
__device__ auto exclusive_scan(const Group &g, T &&val) -> decltype(val + val);
template <class Group, class T, class Op>
__device__ auto exclusive_scan(const Group &g, T &&val, Op &&op)
    -> decltype(op(val, val));
} // namespace cooperative_groups
#endif
