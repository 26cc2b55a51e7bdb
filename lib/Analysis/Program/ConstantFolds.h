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

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

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
  /// DenseMap's pointer hash ((p >> 4) ^ (p >> 9)) keeps the low bits of
  /// addresses that the AST's bump allocator hands out close together and
  /// in like sizes: the expressions of one function share their buckets'
  /// neighbourhood, and a lookup in a cache of a whole translation unit
  /// probed some fifteen buckets. A multiplicative hash spreads them.
  struct ExprKey : llvm::DenseMapInfo<const clang::Expr *> {
    static unsigned getHashValue(const clang::Expr *E) {
      return unsigned((uint64_t(reinterpret_cast<uintptr_t>(E)) *
                       0x9E3779B97F4A7C15ull) >>
                      32);
    }
  };
  const clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>, ExprKey> Cache;
  unsigned Reused = 0;
};

} // namespace shmem

#endif
