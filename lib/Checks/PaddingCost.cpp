//===- PaddingCost.cpp - What padding a tile costs a kernel ---------------===//
//
// See PaddingCost.h.
//
//===----------------------------------------------------------------------===//

#include "PaddingCost.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <set>

using namespace clang;

namespace shmem {

PaddingCost paddingCost(const KernelContext &K, uint64_t AddedBytes) {
  PaddingCost C;
  C.Arch = K.arch();
  C.Threads = K.Trace.Geometry.threads();
  // The kernel's static shared variables are those its accesses touch (a
  // variable declared and never accessed is left out by the compiler).
  std::set<const ValueDecl *> Seen;
  for (const SharedAccess &A : K.Trace.Accesses) {
    if (A.Address.DynamicShared) {
      C.Dynamic = true;
      continue;
    }
    const ValueDecl *V = A.Address.Base;
    if (!V || !Seen.insert(V).second)
      continue;
    QualType T = V->getType();
    if (!T->isIncompleteType() && !T->isDependentType())
      C.StaticBefore += K.Ctx.getTypeSizeInChars(T).getQuantity();
  }
  C.StaticAfter = C.StaticBefore + AddedBytes;
  C.Limits = smLimits(C.Arch);
  if (C.Limits) {
    C.Before = blocksPerSM(*C.Limits, C.Threads, C.StaticBefore);
    C.After = blocksPerSM(*C.Limits, C.Threads, C.StaticAfter);
  }
  return C;
}

std::string PaddingCost::occupancy() const {
  std::string Arch = "sm_" + std::to_string(this->Arch);
  if (!Limits)
    return "blocks per SM not weighed: no figures for " + Arch;
  std::string Blocks = "blocks of " + std::to_string(Threads) + " threads";
  std::string Shared = Dynamic ? " (static shared memory only: the launch's "
                                 "dynamic shared memory is not counted)"
                               : "";
  std::string Limit = " (limited by " + limiterName(*Limits, After.By) +
                      "; registers, not known from the source, may limit "
                      "it further)";
  if (Before.BlocksPerSM == After.BlocksPerSM)
    return "on " + Arch + ", " + std::to_string(Before.BlocksPerSM) + " " +
           Blocks + " per SM before and after" + Limit + Shared;
  return "on " + Arch + " it lowers the " + Blocks + " an SM runs at once " +
         "from " + std::to_string(Before.BlocksPerSM) + " to " +
         std::to_string(After.BlocksPerSM) + Limit + Shared;
}

std::string PaddingCost::preferSwizzle(const std::string &Array) const {
  return " (that costs a block per SM on sm_" + std::to_string(Arch) + ", " +
         std::to_string(Before.BlocksPerSM) + " -> " +
         std::to_string(After.BlocksPerSM) +
         "), or better, an XOR swizzle (e.g. column ^ row), which costs no "
         "memory, applied identically where '" + Array +
         "' is written and read";
}

std::string PaddingCost::pastStaticLimitAdvice(const std::string &Array,
                                               int64_t New) const {
  return "padding the rows of '" + Array + "' to " + std::to_string(New) +
         " elements would take the kernel's static shared memory to " +
         std::to_string(StaticAfter) +
         " bytes, past the 48 KB a block may declare (nvcc rejects it): use "
         "an XOR swizzle (e.g. column ^ row) applied identically where '" +
         Array + "' is written and read";
}

} // namespace shmem
