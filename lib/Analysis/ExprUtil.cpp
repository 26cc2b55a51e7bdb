//===- ExprUtil.cpp - Small helpers over Clang expressions ----------------===//

#include "ExprUtil.h"

#include "clang/AST/ASTContext.h"

namespace shmem {

std::optional<int64_t> foldInteger(const clang::Expr *E,
                                   const clang::ASTContext &Ctx) {
  // The evaluator asserts on dependent expressions (an uninstantiated
  // template's), and a wider value (`__int128`) has no 64-bit reading.
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx, clang::Expr::SE_NoSideEffects))
    return std::nullopt;
  const llvm::APSInt &I = R.Val.getInt();
  if (I.isSigned() ? I.getSignificantBits() > 64 : I.getActiveBits() > 64)
    return std::nullopt;
  return I.isSigned() ? I.getSExtValue() : int64_t(I.getZExtValue());
}

} // namespace shmem
