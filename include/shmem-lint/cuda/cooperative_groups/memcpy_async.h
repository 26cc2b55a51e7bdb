/* shmem-lint's stand-in for the toolkit's <cooperative_groups/memcpy_async.h>:
 * a group's collective async copy and its waits, which the analysis knows
 * by name (cuda::groupCopyOf, and cg::wait as a barrier). */
#ifndef SHMEM_LINT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define SHMEM_LINT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#include "../shmem_lint_thread_scope.h"
namespace cooperative_groups {
/* `count` bytes from `src` to `dst`, spread over the group's threads. */
template <class Group, class T, class Size>
__device__ void memcpy_async(const Group &group, T *dst, const T *src,
                             const Size &count);
/* min(dstCount, srcCount) elements. */
template <class Group, class T>
__device__ void memcpy_async(const Group &group, T *dst, size_t dstCount,
                             const T *src, size_t srcCount);
/* Every copy the group issued is complete, and the group synchronised. */
template <class Group> __device__ void wait(const Group &group);
/* All but the last Stage batches are complete, and the group synchronised. */
template <unsigned Stage, class Group>
__device__ void wait_prior(const Group &group);
} // namespace cooperative_groups
#endif
