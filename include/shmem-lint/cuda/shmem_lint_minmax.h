/* min and max as nvcc gives them to host and device code (the overloads of
 * the toolkit's crt/math_functions.hpp, mixed signedness and float/double
 * included). clang's CUDA headers declare them for device code only, so
 * host code nvcc accepts, `max(1.0f, x)` in main(), fails to parse, and with
 * it the file's kernels (cuda-samples' transpose, dxtc, shfl_scan).
 *
 * shmem_lint_cuda.h includes this for host and device code; with a toolkit
 * the driver pre-includes it for host code alone (SHMEM_LINT_MINMAX_TARGET
 * left __host__), next to the toolkit's device overloads. */
#ifndef SHMEM_LINT_MINMAX_H
#define SHMEM_LINT_MINMAX_H

#ifndef SHMEM_LINT_MINMAX_TARGET
#define SHMEM_LINT_MINMAX_TARGET __host__
#endif

/* Declarations only, like the rest of shmem-lint's header: clang only
 * parses (the analysis knows min and max by name), and bodies for 32
 * overloads cost every file measurably more parsing. */
#define SHMEM_LINT_MINMAX(T, A, B)                                             \
  SHMEM_LINT_MINMAX_TARGET T min(const A a, const B b);                        \
  SHMEM_LINT_MINMAX_TARGET T max(const A a, const B b);
SHMEM_LINT_MINMAX(int, int, int)
SHMEM_LINT_MINMAX(unsigned int, unsigned int, unsigned int)
SHMEM_LINT_MINMAX(unsigned int, int, unsigned int)
SHMEM_LINT_MINMAX(unsigned int, unsigned int, int)
SHMEM_LINT_MINMAX(long int, long int, long int)
SHMEM_LINT_MINMAX(unsigned long int, unsigned long int, unsigned long int)
SHMEM_LINT_MINMAX(unsigned long int, long int, unsigned long int)
SHMEM_LINT_MINMAX(unsigned long int, unsigned long int, long int)
SHMEM_LINT_MINMAX(long long int, long long int, long long int)
SHMEM_LINT_MINMAX(unsigned long long int, unsigned long long int,
                  unsigned long long int)
SHMEM_LINT_MINMAX(unsigned long long int, long long int, unsigned long long int)
SHMEM_LINT_MINMAX(unsigned long long int, unsigned long long int, long long int)
SHMEM_LINT_MINMAX(float, float, float)
SHMEM_LINT_MINMAX(double, double, double)
SHMEM_LINT_MINMAX(double, float, double)
SHMEM_LINT_MINMAX(double, double, float)
#undef SHMEM_LINT_MINMAX

#endif
