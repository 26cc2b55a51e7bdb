/* isfinite, isnan and isinf for host code in the global namespace, as
 * nvcc's math headers give them: clang's CUDA headers declare them there
 * for device code only, so host code nvcc accepts, `if (!isfinite(x))` in
 * llm.c's common.h with <cmath>, fails to parse, and with it the file's
 * kernels.
 *
 * Templates, so that where the C library's <math.h> brings std's own
 * overloads into the global namespace (`using std::isfinite;`) those are
 * taken and nothing conflicts. Declarations only. */
#ifndef SHMEM_LINT_HOST_MATH_H
#define SHMEM_LINT_HOST_MATH_H

#ifndef isfinite
template <typename T> __host__ bool isfinite(T x);
#endif
#ifndef isnan
template <typename T> __host__ bool isnan(T x);
#endif
#ifndef isinf
template <typename T> __host__ bool isinf(T x);
#endif

#endif /* SHMEM_LINT_HOST_MATH_H */
