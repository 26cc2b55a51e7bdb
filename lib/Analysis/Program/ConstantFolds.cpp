//===- ConstantFolds.cpp - Integer constants folded once per TU -----------===//

#include "ConstantFolds.h"
#include "Analysis/ExprUtil.h"

namespace shmem {

std::optional<int64_t> ConstantFolds::of(const clang::Expr *E) {
  auto [It, New] = Cache.try_emplace(E);
  if (New)
    It->second = foldInteger(E, Ctx);
  else
    ++Reused;
  return It->second;
}

} // namespace shmem
