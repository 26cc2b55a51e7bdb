/* shmem-lint's stand-in for libcu++'s cuda::thread_scope and
 * cuda::aligned_size_t, shared by the stand-ins of <cuda/barrier>,
 * <cuda/pipeline> and <cooperative_groups/memcpy_async.h>. */
#ifndef SHMEM_LINT_THREAD_SCOPE_H
#define SHMEM_LINT_THREAD_SCOPE_H
namespace cuda {
enum thread_scope {
  thread_scope_system = 0,
  thread_scope_device = 1,
  thread_scope_block = 2,
  thread_scope_thread = 3
};
/* A byte count whose copy may assume Align-byte alignment. */
template <unsigned long Align> struct aligned_size_t {
  unsigned long value;
  __host__ __device__ explicit constexpr aligned_size_t(unsigned long size)
      : value(size) {}
  __host__ __device__ constexpr operator unsigned long() const {
    return value;
  }
};
} // namespace cuda
#endif
