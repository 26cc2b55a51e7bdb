//===- ConstantFolds.h - Integer constants folded once per TU ---*- C++ -*-===//
//
// The walker and the uniformity analysis ask at nearly every node of an
// expression whether clang's constant evaluator folds it (foldInteger():
// template arguments, constexpr variables and calls, sizeof), and most
// nodes do not fold, which the evaluator finds only after setting up an
// evaluation. The answer depends on the expression alone, so one cache per
// translation unit serves every kernel, block shape, what-if walk and
// analysis: a function called from several kernels, and every expression
// both the walker and the uniformity analysis visit, is folded once.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_CONSTANTFOLDS_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_CONSTANTFOLDS_H

#include "NodeMap.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <cstdint>
#include <optional>

namespace shmem {

class ConstantFolds {
public:
  explicit ConstantFolds(const clang::ASTContext &Ctx) : Ctx(Ctx) {}
  ConstantFolds(const ConstantFolds &) = delete;
  ConstantFolds &operator=(const ConstantFolds &) = delete;

  /// foldInteger(E), computed on the first request.
  std::optional<int64_t> of(const clang::Expr *E);

  /// How many expressions were folded and how many answers were reused
  /// (for the tests that check the cache is shared).
  unsigned computed() const { return Cache.size(); }
  unsigned reused() const { return Reused; }

private:
  const clang::ASTContext &Ctx;
  NodeMap<clang::Expr, std::optional<int64_t>> Cache;
  unsigned Reused = 0;
};

} // namespace shmem

#endif
