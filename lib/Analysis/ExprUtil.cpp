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
  // A definite effect (an assignment, an increment, a volatile read) never
  // folds; asking first spares the evaluator, which the walker and the
  // uniformity analysis call at every node of an expression. A call may
  // fold (`ggml_cuda_mmq_get_I(type, J, fallback)` with template
  // arguments): the evaluator runs a constexpr callee and gives up on
  // anything with an effect, so only a call that could not reach memory, a
  // barrier or a thread's own value folds, and its callee need not be
  // walked (ggml's mmq config table, some 380 tests, at every use cost
  // more than parsing the file).
  if (E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
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
