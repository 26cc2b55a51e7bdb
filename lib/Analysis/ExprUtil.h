//===- ExprUtil.h - Small helpers over Clang expressions --------*- C++ -*-===//
//
// Expression helpers the analysis layer's passes share.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_EXPRUTIL_H
#define SHMEM_LINT_ANALYSIS_EXPRUTIL_H

#include "clang/AST/ExprCXX.h"

namespace shmem {

/// \p E without the nodes that only make or convert a temporary object:
/// parentheses, implicit casts, materialised and bound temporaries,
/// cleanups and functional casts (`dim3(16, 16)`, `Tile(s)` are the
/// constructor call under them).
inline const clang::Expr *skipTemporaries(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      E = M->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *C = llvm::dyn_cast<clang::ExprWithCleanups>(E))
      E = C->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *F = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E))
      E = F->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *B = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E))
      E = B->getSubExpr()->IgnoreParenImpCasts();
    else
      return E;
  }
}

} // namespace shmem

#endif
