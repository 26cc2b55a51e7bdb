//===- ShapeFacts.h - What a kernel's code says about its block shape -*- C++ -*-===//
//
// Where no launch states a kernel's block shape, or a launch states only
// part of it (`dim3(32, by)`), the shape is guessed; a guess the code
// contradicts gives findings for threads that cannot exist (a write-write
// race between threads 0 and 32 of `tile[i][threadIdx.x]` in a 32-wide
// tile). These are the facts the guess must respect, read from the
// kernel's own body:
//
// - exact extents, from a condition every launch must meet:
//   `assert(blockDim.x == 32)`, `__builtin_assume(blockDim.x == 32)`,
//   `[[assume(...)]]`, and an early-out at the top of the body,
//   `if (blockDim.x != 32) return;` (a launch of another shape does
//   nothing, so it has nothing to report);
// - upper bounds, from the same conditions (`blockDim.x <= 64`) and from an
//   array with a constant extent indexed by `threadIdx.x` (or a variable
//   that only holds it) where every thread reaches the access: a block
//   with more threads along x would index past the array.
//
// Only the kernel's own body is read, not the functions it calls; only
// statements that every thread reaches give bounds (nothing under a
// branch, after a jump, or in a loop whose test is not plainly uniform).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_SHAPEFACTS_H
#define SHMEM_LINT_ANALYSIS_SHAPEFACTS_H

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace shmem {

struct AxisFacts {
  /// blockDim along this axis is exactly this, and why ("the assert at
  /// line 4").
  std::optional<unsigned> Exact;
  std::string ExactWhy;
  /// blockDim along this axis is at most this, and why; for a bound an
  /// array gives, the array ("'tile'"), empty for a stated condition.
  std::optional<unsigned> AtMost;
  std::string AtMostWhy, AtMostArray;
};

struct ShapeFacts {
  AxisFacts Axis[3];
  bool any() const {
    for (const AxisFacts &A : Axis)
      if (A.Exact || A.AtMost)
        return true;
    return false;
  }
};

/// The facts \p Kernel's body states about blockDim (see the file comment).
ShapeFacts shapeFactsOf(const clang::FunctionDecl *Kernel,
                        clang::ASTContext &Ctx);

} // namespace shmem

#endif
