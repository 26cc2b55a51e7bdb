/* shmem-lint's stand-in for libcu++'s cuda::thread_scope, shared by the
 * stand-ins of <cuda/barrier> and <cuda/pipeline>. */
#ifndef SHMEM_LINT_THREAD_SCOPE_H
#define SHMEM_LINT_THREAD_SCOPE_H
namespace cuda {
enum thread_scope {
  thread_scope_system = 0,
  thread_scope_device = 1,
  thread_scope_block = 2,
  thread_scope_thread = 3
};
} // namespace cuda
#endif
