//===- Butterfly.h - Shuffle-xor reductions, recognised in the AST -*- C++ -*-===//
//
// A butterfly combines each lane's value with the value of lane l ^ o:
//
//   v += __shfl_xor_sync(0xffffffff, v, o);
//   x = __shfl_xor_sync(0xffffffff, x, o) && x;
//   m = fmaxf(m, tile.shfl_xor(m, o));
//
// With a commutative combination, lanes l and l ^ o then compute the same
// value, and whatever lanes agreed before still agree. Over offsets whose
// xors reach every lane (16, 8, 4, 2, 1, in any order) every lane of the
// warp holds the same result, whatever the lanes held before: the
// uniformity analysis (Uniformity.h) learns warp-uniform values from these,
// straight-line or in a loop whose counter runs over constant offsets.
//
// Only the shape is recognised here; the uniformity analysis decides what
// the values are.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_BUTTERFLY_H
#define SHMEM_LINT_ANALYSIS_BUTTERFLY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace shmem {

/// \p Mask (a set of lane offsets closed under xor, as
/// UniformityValue::LaneXor) with \p Offset and its xors with the offsets
/// in it added.
uint32_t closeLaneXor(uint32_t Mask, unsigned Offset);

/// One step `x OP shuffle_xor(x, Offset)`: the variable, the offset
/// expression, and the width of the lane groups the shuffle exchanges in.
struct ButterflyStep {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Offset = nullptr;
  int64_t Width = 32;
};

/// \p E (a binary operator, compound assignment or call of min/max) as a
/// butterfly step: a commutative combination of a local variable and its
/// own value exchanged with lane l ^ o by a shuffle every lane of the warp
/// (or tile) takes part in, evaluated unconditionally (`x && shfl(x, o)`
/// skips the shuffle in some lanes and is not one).
std::optional<ButterflyStep> matchButterflyStep(const clang::Expr *E,
                                                const clang::ASTContext &Ctx,
                                                unsigned WarpSize);

/// A loop every iteration of which runs butterfly steps on some variables:
/// `for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(~0u, v, o);`.
struct ButterflyLoop {
  /// Per variable: the lane offsets (a set closed under xor, as
  /// UniformityValue::LaneXor) its steps exchange over the whole loop, and
  /// how many step statements assign it (nothing else in the loop does).
  struct Var {
    const clang::VarDecl *V = nullptr;
    uint32_t LaneXor = 1;
    unsigned Steps = 0;
    const clang::Expr *Step = nullptr; ///< The first step, for messages.
  };
  llvm::SmallVector<Var, 2> Vars;
};

/// \p FS as a butterfly loop: a counter initialised, tested and stepped
/// with constants (so its values are known and the loop runs all of them),
/// no jump in the body, and top-level statements `x = STEP` or `x OP= ...`
/// whose offset is the counter or a constant.
std::optional<ButterflyLoop> matchButterflyLoop(const clang::ForStmt *FS,
                                                const clang::ASTContext &Ctx,
                                                unsigned WarpSize);

} // namespace shmem

#endif
