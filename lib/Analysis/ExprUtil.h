//===- ExprUtil.h - Small helpers over Clang expressions --------*- C++ -*-===//
//
// Expression helpers the analysis layer's passes share.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_EXPRUTIL_H
#define SHMEM_LINT_ANALYSIS_EXPRUTIL_H

#include "clang/AST/ExprCXX.h"

#include <cstdint>
#include <optional>

namespace shmem {

/// The value of the integer (or enumeration) expression \p E when clang's
/// constant evaluator folds it without side effects (a constexpr call
/// included) and it fits in 64 bits;
/// an unsigned value is taken zero-extended. Nothing for a null or dependent
/// expression. Every pass folds integers through this one function, so that
/// they agree on what a constant is.
std::optional<int64_t> foldInteger(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

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

/// The integer behind a byte count written as an object, libcu++'s
/// `cuda::aligned_size_t<A>(n)`, directly or through a variable that holds
/// one (`const auto shape = cuda::aligned_size_t<16>(sizeof(float4));`):
/// `n`. Any other expression is returned as it is.
inline const clang::Expr *sizeObjectValue(const clang::Expr *E) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    E = skipTemporaries(E);
    if (!E->getType()->isRecordType())
      return E;
    if (const auto *C = llvm::dyn_cast<clang::CXXConstructExpr>(E);
        C && C->getNumArgs() >= 1)
      E = C->getArg(0);
    else if (const auto *D = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
      const auto *V = llvm::dyn_cast<clang::VarDecl>(D->getDecl());
      if (!V || !V->getInit())
        return E;
      E = V->getInit();
    } else {
      return E;
    }
  }
  return E;
}

} // namespace shmem

#endif
