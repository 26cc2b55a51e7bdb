//===- IntMath.h - Integer helpers of the model layer -----------*- C++ -*-===//
//
// Arithmetic the per-thread values, the bank and coalescing models and the
// checks built on them share: wrapping operations (the machine's, modulo
// 2^64, without signed-overflow undefined behaviour), a modulo that is never
// negative, and the exact base-2 logarithm that lets a model replace a
// division by a power of two with a shift.
//
// This header is part of the model layer: it includes no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_INTMATH_H
#define SHMEM_LINT_MODEL_INTMATH_H

#include <cstdint>

namespace shmem {

inline int64_t wrapAdd(int64_t A, int64_t B) {
  return int64_t(uint64_t(A) + uint64_t(B));
}
inline int64_t wrapMul(int64_t A, int64_t B) {
  return int64_t(uint64_t(A) * uint64_t(B));
}
inline int64_t wrapSub(int64_t A, int64_t B) {
  return int64_t(uint64_t(A) - uint64_t(B));
}

/// \p X mod \p M in [0, M), for M > 0.
inline int64_t floorMod(int64_t X, int64_t M) {
  int64_t R = X % M;
  return R < 0 ? R + M : R;
}

/// \p A / \p B rounded toward negative infinity, for B != 0.
inline int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

/// log2 of \p X when \p X is a power of two, else -1.
inline int exactLog2(unsigned X) {
  if (X == 0 || (X & (X - 1)) != 0)
    return -1;
  int L = 0;
  while ((1u << L) < X)
    ++L;
  return L;
}

} // namespace shmem

#endif // SHMEM_LINT_MODEL_INTMATH_H
