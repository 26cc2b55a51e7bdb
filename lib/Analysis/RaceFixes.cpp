//===- RaceFixes.cpp - The barrier a race between two roles needs ---------===//
//
// See RaceFinder.h. A race whose two accesses are in the two arms of one
// branch (warps 0-3 fill a buffer, warps 4-7 read it) cannot be fixed with
// __syncthreads() between them: no point between two arms is reached by
// every thread, and a block barrier in one arm is the divergent barrier the
// other check reports. What orders them is a named barrier: the writers
// arrive after writing, the readers wait before reading, and its count is
// both groups. The pair is analysed again with that barrier added to the
// named-barrier order; only a fix that removes the race is offered.
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>

using namespace clang;

namespace shmem {
namespace race {

/// PTX gives a block 16 named barriers; 0 is __syncthreads()'s.
constexpr int64_t NumBarrierIds = 16;

const Stmt *RaceFinder::armsOf(const SharedAccess &A, const SharedAccess &B) {
  if (A.CallStack != B.CallStack)
    return nullptr;
  const FunctionDecl *F = functionOf(A);
  if (!F)
    return nullptr;
  const ParentMap &PM = parents(F);
  std::vector<const Stmt *> Up;
  for (const Stmt *S = A.E; S; S = PM.getParent(S))
    Up.push_back(S);
  // The nearest statement around both, and the child of it on each side.
  const Stmt *Child = B.E;
  for (const Stmt *S = B.E; S; Child = S, S = PM.getParent(S)) {
    auto It = llvm::find(Up, S);
    if (It == Up.end())
      continue;
    if (It == Up.begin())
      return nullptr; // One holds the other.
    const Stmt *ChildA = *(It - 1);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      bool AThen = ChildA == If->getThen(), BThen = Child == If->getThen();
      bool AElse = ChildA == If->getElse(), BElse = Child == If->getElse();
      if ((AThen && BElse) || (AElse && BThen))
        return If;
    } else if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
      const Expr *T = C->getTrueExpr(), *E = C->getFalseExpr();
      if ((ChildA == T && Child == E) || (ChildA == E && Child == T))
        return C;
    }
    return nullptr;
  }
  return nullptr;
}

void RaceFinder::suggestNamedBarrier(RaceReport &R) {
  if (R.K != RaceReport::Race || R.UniformIndex || R.CarriedBy ||
      R.MisusedBarrier >= 0)
    return;
  const SharedAccess &E = T.Accesses[R.Earlier.Access];
  const SharedAccess &L = T.Accesses[R.Later.Access];
  if (E.ActiveApprox || L.ActiveApprox)
    return;
  // No thread runs both accesses: the block splits between them.
  for (unsigned Th = 0; Th < N; ++Th)
    if (E.Active[Th] && L.Active[Th])
      return;
  R.Arms = armsOf(E, L);
  if (!R.Arms)
    return;
  // A named barrier counts whole warps, and "after line X" must mean one
  // place: straight-line code on both sides.
  if (!E.Loops.empty() || !L.Loops.empty())
    return;
  auto WholeWarps = [&](const std::vector<char> &In) {
    for (unsigned W = 0; W < G.warps(); ++W)
      for (unsigned Th = G.warpBegin(W) + 1; Th < G.warpEnd(W); ++Th)
        if (In[Th] != In[G.warpBegin(W)])
          return false;
    return true;
  };
  if (!WholeWarps(E.Active) || !WholeWarps(L.Active))
    return;
  int64_t Id = 1;
  while (Id < NumBarrierIds && llvm::is_contained(NB.idsUsed(), Id))
    ++Id;
  if (Id >= NumBarrierIds)
    return;
  // A producer fills, a consumer reads: the write comes first whichever
  // side the witness calls the earlier one.
  unsigned First = R.Earlier.Access, Second = R.Later.Access;
  if (E.Kind == AccessKind::Load && L.Kind == AccessKind::Store)
    std::swap(First, Second);
  RaceReport::NamedBarrierFix Fix;
  Fix.Id = Id;
  Fix.ArriveAfter = First;
  Fix.WaitBefore = Second;
  Fix.Arriving = T.Accesses[First].Active;
  Fix.Waiting = T.Accesses[Second].Active;
  Fix.Count = std::count(E.Active.begin(), E.Active.end(), 1) +
              std::count(L.Active.begin(), L.Active.end(), 1);

  VirtualBarrierUse Arrive, Sync;
  Arrive.Id = Sync.Id = Fix.Id;
  Arrive.Count = Sync.Count = Fix.Count;
  Arrive.Arrive = true;
  Arrive.Threads = Fix.Arriving;
  Arrive.Access = First;
  Sync.Threads = Fix.Waiting;
  Sync.Access = Second;
  Sync.Before = true;
  NamedBarriers WhatIf(T, {Arrive, Sync});
  unsigned SA = BI.siteOf(R.Earlier.Access), SB = BI.siteOf(R.Later.Access);
  Order = &WhatIf;
  std::optional<Pending> Again =
      analysePair(std::min(SA, SB), std::max(SA, SB));
  Order = &NB;
  if (Again && Again->Rank == 0)
    return;
  R.NamedFix = std::move(Fix);
}

} // namespace race
} // namespace shmem
