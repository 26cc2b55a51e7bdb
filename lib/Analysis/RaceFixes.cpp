//===- RaceFixes.cpp - The barrier a race needs where not all threads go --===//
//
// See RaceFinder.h. "Add __syncthreads() between line X and line Y" is
// wrong advice when not every thread of the block passes between the two
// lines: a block barrier there is the divergent barrier the other check
// reports. Two cases:
//  - the two accesses are in the two arms of one branch (warps 0-3 fill a
//    buffer, warps 4-7 read it): no point between them is on every
//    thread's path. What orders them is a named barrier pair: the writers
//    arrive after writing, the readers wait before reading, and its count
//    is both groups.
//  - both run, one after the other, in a branch that only some threads
//    take (`if (tid < 64) { s[tid] = ...; ... = s[63 - tid]; }`): a named
//    barrier for the threads that take it, `bar.sync id, 64`, or closing
//    the branch before a block barrier.
// A named barrier counts whole warps. The pair is analysed again with the
// barrier added to the named-barrier order (virtual uses); only a fix that
// removes the race is offered.
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

std::pair<const Stmt *, const Stmt *>
RaceFinder::blockStatementOf(const SharedAccess &A) {
  const FunctionDecl *F = functionOf(A);
  if (!F)
    return {nullptr, nullptr};
  const ParentMap &PM = parents(F);
  const Stmt *S = statementOf(A);
  const Stmt *P = PM.getParent(S);
  if (P && isa<DeclStmt>(P)) {
    S = P;
    P = PM.getParent(P);
  }
  if (!P || !isa<CompoundStmt>(P))
    return {nullptr, nullptr};
  return {S, P};
}

std::optional<int64_t> RaceFinder::freeBarrierId() const {
  for (int64_t Id = 1; Id < NumBarrierIds; ++Id)
    if (!llvm::is_contained(NB.idsUsed(), Id))
      return Id;
  return std::nullopt;
}

bool RaceFinder::fixed(const RaceReport &R,
                       std::vector<VirtualBarrierUse> Extra) {
  NamedBarriers WhatIf(T, std::move(Extra));
  unsigned SA = BI.siteOf(R.Earlier.Access), SB = BI.siteOf(R.Later.Access);
  Order = &WhatIf;
  std::optional<Pending> Again =
      analysePair(std::min(SA, SB), std::max(SA, SB));
  Order = &NB;
  return !Again || Again->Rank != 0;
}

void RaceFinder::suggestNamedBarrier(RaceReport &R) {
  if (R.K != RaceReport::Race || R.UniformIndex || R.CarriedBy ||
      R.MisusedBarrier >= 0)
    return;
  const SharedAccess &E = T.Accesses[R.Earlier.Access];
  const SharedAccess &L = T.Accesses[R.Later.Access];
  if (E.ActiveApprox || L.ActiveApprox || E.CallStack != L.CallStack)
    return;
  // A named barrier counts whole warps, and "after line X" must mean one
  // place: straight-line code on both sides.
  auto WholeWarps = [&](const std::vector<char> &In) {
    for (unsigned W = 0; W < G.warps(); ++W)
      for (unsigned Th = G.warpBegin(W) + 1; Th < G.warpEnd(W); ++Th)
        if (In[Th] != In[G.warpBegin(W)])
          return false;
    return true;
  };
  bool Straight = E.Loops.empty() && L.Loops.empty();
  auto [EStmt, EBlock] = blockStatementOf(E);
  auto [LStmt, LBlock] = blockStatementOf(L);

  bool Disjoint = true;
  for (unsigned Th = 0; Th < N && Disjoint; ++Th)
    Disjoint = !(E.Active[Th] && L.Active[Th]);
  if (Disjoint) {
    // The block splits between them.
    R.Arms = armsOf(E, L);
    if (!R.Arms || !Straight || !WholeWarps(E.Active) ||
        !WholeWarps(L.Active))
      return;
    std::optional<int64_t> Id = freeBarrierId();
    if (!Id)
      return;
    // A producer fills, a consumer reads: the write comes first whichever
    // side the witness calls the earlier one.
    unsigned First = R.Earlier.Access, Second = R.Later.Access;
    const Stmt *After = EStmt, *Before = LStmt;
    if (E.Kind == AccessKind::Load && L.Kind == AccessKind::Store) {
      std::swap(First, Second);
      std::swap(After, Before);
    }
    RaceReport::NamedBarrierFix Fix;
    Fix.Id = *Id;
    Fix.ArriveAfter = First;
    Fix.WaitBefore = Second;
    Fix.Arriving = T.Accesses[First].Active;
    Fix.Waiting = T.Accesses[Second].Active;
    Fix.After = After;
    Fix.Before = Before;
    Fix.Count = std::count(E.Active.begin(), E.Active.end(), 1) +
                std::count(L.Active.begin(), L.Active.end(), 1);
    VirtualBarrierUse Arrive{Fix.Id, Fix.Count, true, Fix.Arriving, First,
                             false};
    VirtualBarrierUse Sync{Fix.Id, Fix.Count, false, Fix.Waiting, Second,
                           true};
    if (fixed(R, {Arrive, Sync}))
      R.NamedFix = std::move(Fix);
    return;
  }

  // One after the other in one block of statements that not every thread
  // reaches: the threads that run both are the ones that reach it.
  if (!EStmt || EStmt == LStmt || EBlock != LBlock || E.Active != L.Active ||
      llvm::all_of(L.Active, [](char C) { return C; }))
    return;
  // Threads that have left the kernel need not arrive at a block barrier:
  // after an exit, the inactive threads may be those.
  if (E.AfterExit || L.AfterExit)
    return;
  R.InBranch = true;
  if (!Straight || !WholeWarps(L.Active))
    return;
  std::optional<int64_t> Id = freeBarrierId();
  if (!Id)
    return;
  RaceReport::NamedBarrierFix Fix;
  Fix.Id = *Id;
  Fix.WaitBefore = R.Later.Access;
  Fix.Waiting = L.Active;
  Fix.Before = LStmt;
  Fix.Count = std::count(L.Active.begin(), L.Active.end(), 1);
  VirtualBarrierUse Sync{Fix.Id, Fix.Count, false, Fix.Waiting,
                         R.Later.Access, true};
  if (fixed(R, {Sync}))
    R.NamedFix = std::move(Fix);
}

} // namespace race
} // namespace shmem
