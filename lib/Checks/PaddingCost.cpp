//===- PaddingCost.cpp - What padding a tile costs a kernel ---------------===//
//
// See PaddingCost.h.
//
//===----------------------------------------------------------------------===//

#include "PaddingCost.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <sstream>

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

std::string PaddingCost::preferSwizzle(const std::string &Array,
                                       bool Fix) const {
  std::string Cost = " (that costs a block per SM on sm_" +
                     std::to_string(Arch) + ", " +
                     std::to_string(Before.BlocksPerSM) + " -> " +
                     std::to_string(After.BlocksPerSM) + ")";
  if (Fix)
    return Cost;
  return Cost + ", or better, an XOR swizzle (e.g. column ^ row), which "
                "costs no memory, applied identically where '" +
         Array + "' is written and read";
}

std::string PaddingCost::pastStaticLimitAdvice(const std::string &Array,
                                               int64_t New, bool Fix) const {
  std::string Past =
      "padding the rows of '" + Array + "' to " + std::to_string(New) +
      " elements would take the kernel's static shared memory to " +
      std::to_string(StaticAfter) +
      " bytes, past the 48 KB a block may declare (nvcc rejects it)";
  if (Fix)
    return Past;
  return Past + ": use an XOR swizzle (e.g. column ^ row) applied "
                "identically where '" +
         Array + "' is written and read";
}

void adviseFlatPadding(const KernelContext &K, const FlatStride &FS,
                       Finding &F, std::ostringstream &Msg, const VarDecl *Var,
                       int64_t Pad) {
  std::string Name = Var->getName().str();
  int64_t New = FS.Value + Pad;
  int64_t Rows = (FS.Elems + FS.Value - 1) / FS.Value;
  int64_t Before = FS.Elems * FS.ElemBytes;
  int64_t Added = Rows * Pad * FS.ElemBytes;
  PaddingCost PC = paddingCost(K, uint64_t(Added));
  if (PC.pastStaticLimit()) {
    Msg << "; " << PC.pastStaticLimitAdvice(Name, New, false);
    return;
  }
  std::string Cost = "it costs " + std::to_string(Added) +
                       " more bytes of shared memory (" +
                       std::to_string(Before) + " -> " +
                       std::to_string(Before + Added) + "); " +
                       PC.occupancy();
  std::string Makes = "makes every access to '" + Name +
                        "' conflict-free or no worse; " + Cost;
  Msg << "; pad the rows of '" << Name << "' to " << New << " elements";
  if (PC.lowersOccupancy())
    Msg << PC.preferSwizzle(Name, false);
  if (FS.NoFix.empty()) {
    Msg << " by changing '" << FS.Name << "' to " << New;
    F.Fixes = FS.Fixes(Pad);
    F.Notes.push_back({FS.DefLoc, "changing '" + FS.Name + "' from " +
                                        std::to_string(FS.Value) + " to " +
                                        std::to_string(New) + " " + Makes});
    return;
  }
  std::string What =
      FS.K == FlatStride::Unnamed
          ? "introduce a named row stride (e.g. 'constexpr int LD = " +
                std::to_string(New) + ";') and use it in every index of '" +
                Name + "'"
          : "give '" + Name + "' a row stride of its own, " +
                std::to_string(New);
  F.Notes.push_back({FS.NoFixLoc, FS.NoFix + ", so no fix-it is offered: " +
                                        What + "; a row stride of " +
                                        std::to_string(New) + " " + Makes});
}

} // namespace shmem
