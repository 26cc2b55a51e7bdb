/* shmem-lint's stand-in for the toolkit's header: the block- and warp-level
 * groups whose sync() and thread_rank() the analysis understands. */
#ifndef SHMEM_LINT_COOPERATIVE_GROUPS_H
#define SHMEM_LINT_COOPERATIVE_GROUPS_H
#include "shmem_lint_cuda.h"
namespace cooperative_groups {
class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned size() const;
  __device__ unsigned num_threads() const;
};
class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned size() const;
  __device__ unsigned num_threads() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
template <unsigned Size, class Parent = void> class thread_block_tile;
/* The type-erased tile every thread_block_tile<Size, Parent> converts to,
 * as in the toolkit: `thread_block_tile<32> t = tiled_partition<32>(b);`. */
template <unsigned Size>
class thread_block_tile<Size, void> : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned size() const { return Size; }
  __device__ unsigned num_threads() const { return Size; }
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned ballot(int predicate) const;
};
template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {};
class grid_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ dim3 block_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 dim_blocks() const;
  __device__ bool is_valid() const;
};
/* The threads of a warp active at the call. */
class coalesced_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned size() const;
  __device__ unsigned num_threads() const;
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned ballot(int predicate) const;
};
__device__ coalesced_group coalesced_threads();
__device__ grid_group this_grid();
__device__ thread_block this_thread_block();
template <unsigned Size, class Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &g);
/* Tiles of a size known at run time, type-erased as in the toolkit. */
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned tilesz);
__device__ thread_group tiled_partition(const thread_block &parent,
                                        unsigned tilesz);
template <class Group> __device__ void sync(const Group &g);
/* What the toolkit's <cooperative_groups/reduce.h> adds: one result per
 * group (the analysis knows reduce() by name). */
template <class T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
  __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __device__ T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
  __device__ T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
  __device__ T operator()(T a, T b) const { return a ^ b; }
};
/* The operand by forwarding reference, as the toolkit takes it. */
template <class Group, class T, class Op>
__device__ auto reduce(const Group &g, T &&val, Op &&op) -> decltype(op(val, val));
} // namespace cooperative_groups
#endif
