//===- RaceFixes.cpp - The barrier a race needs, checked by a what-if -----===//
//
// See RaceFinder.h. A race finding names the barrier that orders its pair,
// and a fix-it inserts it where that is one statement; neither is offered
// unless analysing the pair again with the barrier added (virtual uses in
// the named-barrier order) finds the race gone. The barrier depends on who
// passes between the two accesses:
//  - every thread of the block: `__syncthreads()` before the later
//    access's statement. The what-if is a barrier counting the whole block,
//    which is what bar.sync 0 is.
//  - across iterations of a loop every thread runs as often: the trailing
//    `__syncthreads()` at the end of its body, placed in the what-if after
//    the body's last access of each iteration.
//  - lanes of one warp only (the race is within warps): `__syncwarp(mask)`,
//    the mask the lanes that run the later access. `__syncwarp()` there
//    when some lanes do not run it would be the divergent barrier the
//    other check reports. The what-if is one barrier per warp.
//  - the two accesses are in the two arms of one branch (warps 0-3 fill a
//    buffer, warps 4-7 read it): no point between them is on every
//    thread's path. What orders them is a named barrier pair: the writers
//    arrive after writing, the readers wait before reading, and its count
//    is both groups.
//  - both run, one after the other, in a branch that only some threads
//    take (`if (tid < 64) { s[tid] = ...; ... = s[63 - tid]; }`): a named
//    barrier for the threads that take it, `bar.sync id, 64`, or closing
//    the branch before a block barrier.
// A named barrier counts whole warps.
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

using namespace clang;

namespace shmem {
namespace race {

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

bool RaceFinder::fixed(const RaceReport &R,
                       std::vector<VirtualBarrierUse> Extra) {
  NamedBarriers WhatIf(T, std::move(Extra));
  // Where the analysis cannot model the barrier (a loop whose trip count
  // differs between threads, uses in several loop contexts), it would fall
  // back to taking every counted bar.sync as a block barrier: that proves
  // nothing about the one added.
  if (!WhatIf.exact())
    return false;
  unsigned SA = BI.siteOf(R.Earlier.Access), SB = BI.siteOf(R.Later.Access);
  // Nor does a pair it orders only by that fallback; and the what-if's
  // fallback is no gap of the kernel's.
  std::optional<unsigned> KernelFallback = NamedFallbackAt;
  NamedFallbackAt.reset();
  Order = &WhatIf;
  std::optional<Pending> Again =
      analysePair(std::min(SA, SB), std::max(SA, SB));
  Order = &NB;
  bool FellBack = NamedFallbackAt.has_value();
  NamedFallbackAt = KernelFallback;
  return !FellBack && (!Again || Again->Rank != 0);
}

std::vector<VirtualBarrierUse>
RaceFinder::syncBeforeSite(unsigned Access, int64_t Id, int64_t Count,
                           const std::vector<char> &Threads) const {
  std::vector<VirtualBarrierUse> Out;
  for (unsigned I : BI.instances(BI.siteOf(Access)))
    Out.push_back({Id, Count, false, Threads, I, true, std::nullopt});
  return Out;
}

void RaceFinder::suggestBarrier(RaceReport &R) {
  if (R.K != RaceReport::Race || R.UniformIndex || R.MisusedBarrier >= 0)
    return;
  if (R.CarriedBy)
    return suggestTrailingBarrier(R);
  const SharedAccess &E = T.Accesses[R.Earlier.Access];
  const SharedAccess &L = T.Accesses[R.Later.Access];
  if (E.CallStack == L.CallStack && statementOf(E) == statementOf(L)) {
    R.SameStatement = true;
    return;
  }
  if (!R.CrossWarp)
    return suggestWarpBarrier(R);
  if (E.ActiveApprox || L.ActiveApprox || E.CallStack != L.CallStack)
    return;
  // A named barrier counts whole warps, and "after line X" must mean one
  // place: straight-line code on both sides.
  bool Straight = E.Loops.empty() && L.Loops.empty();
  auto [EStmt, EBlock] = blockStatementOf(E);
  auto [LStmt, LBlock] = blockStatementOf(L);

  bool Disjoint = true;
  for (unsigned Th = 0; Th < N && Disjoint; ++Th)
    Disjoint = !(E.Active[Th] && L.Active[Th]);
  if (Disjoint) {
    // The block splits between them.
    R.Arms = armsOf(E, L);
    if (!R.Arms || !Straight || !G.wholeWarps(E.Active) ||
        !G.wholeWarps(L.Active))
      return;
    std::optional<int64_t> Id = NB.freeId();
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
    RaceReport::BarrierFix Fix;
    Fix.Kind = RaceReport::BarrierFix::NamedPair;
    Fix.Id = *Id;
    Fix.ArriveAfter = First;
    Fix.WaitBefore = Second;
    Fix.Arriving = T.Accesses[First].Active;
    Fix.Waiting = T.Accesses[Second].Active;
    Fix.After = After;
    Fix.Before = Before;
    Fix.Count = std::count(E.Active.begin(), E.Active.end(), 1) +
                std::count(L.Active.begin(), L.Active.end(), 1);
    VirtualBarrierUse Arrive{Fix.Id,       Fix.Count, true,        Fix.Arriving,
                             First,        false,     std::nullopt};
    VirtualBarrierUse Sync{Fix.Id, Fix.Count, false,       Fix.Waiting,
                           Second, true,      std::nullopt};
    if (fixed(R, {Arrive, Sync}))
      R.Fix = std::move(Fix);
    return;
  }

  if (llvm::all_of(L.Active, [](char C) { return C; })) {
    // Every thread runs the later access: a __syncthreads() just before
    // its statement is reached by all of them, and as often, unless a loop
    // around it runs more often in some. The what-if is a barrier counting
    // the whole block, which is what bar.sync 0 is.
    for (unsigned P = L.Loops.size(); P-- > 0;)
      if (L.LoopIterations[P] < 0) {
        auto It = T.UniformBranch.find(L.Loops[P]);
        if (It == T.UniformBranch.end() || !It->second) {
          R.UnevenLoop = L.Loops[P];
          return;
        }
      }
    if (!LStmt || (!E.Loops.empty() && E.Loops != L.Loops))
      return;
    RaceReport::BarrierFix Fix;
    Fix.Kind = RaceReport::BarrierFix::BlockSync;
    Fix.Before = LStmt;
    if (fixed(R, syncBeforeSite(R.Later.Access, VirtualBarrierId, N,
                                L.Active)))
      R.Fix = std::move(Fix);
    return;
  }

  // One after the other in one block of statements that not every thread
  // reaches: the threads that run both are the ones that reach it.
  if (!EStmt || EStmt == LStmt || EBlock != LBlock || E.Active != L.Active)
    return;
  // Threads that have left the kernel need not arrive at a block barrier:
  // after an exit, the inactive threads may be those.
  if (E.AfterExit || L.AfterExit)
    return;
  R.InBranch = true;
  R.SplitOrders = splitOrders(R, EBlock);
  if (!Straight || !G.wholeWarps(L.Active))
    return;
  std::optional<int64_t> Id = NB.freeId();
  if (!Id)
    return;
  RaceReport::BarrierFix Fix;
  Fix.Kind = RaceReport::BarrierFix::NamedSync;
  Fix.Id = *Id;
  Fix.WaitBefore = R.Later.Access;
  Fix.Waiting = L.Active;
  Fix.Before = LStmt;
  Fix.Count = std::count(L.Active.begin(), L.Active.end(), 1);
  VirtualBarrierUse Sync{Fix.Id,         Fix.Count, false,       Fix.Waiting,
                         R.Later.Access, true,      std::nullopt};
  if (fixed(R, {Sync}))
    R.Fix = std::move(Fix);
}

bool RaceFinder::splitOrders(const RaceReport &R, const Stmt *Block) {
  // Closing the branch before the later access and opening it again after
  // a __syncthreads() puts the barrier beside the if, which every thread
  // reaches when no thread-dependent branch decides whether it runs (in the
  // kernel's own body: a callee's context is its callers' too).
  const SharedAccess &L = T.Accesses[R.Later.Access];
  const FunctionDecl *F = functionOf(L);
  if (!F || !L.CallStack.empty())
    return false;
  const auto *If = dyn_cast_or_null<IfStmt>(parents(F).getParent(Block));
  if (!If || If->getConditionVariable() || If->getInit())
    return false;
  if (!UA)
    UA = std::make_unique<UniformityAnalysis>(Ctx, &T.Geometry,
                                              Opts.InlineDepth, Graphs);
  const FunctionUniformity &FU = UA->analyzeKernel(T.Kernel);
  if (!FU.valid() || !FU.blockOf(If->getCond()) ||
      !FU.controllingBranches(If->getCond(), UniformityLevel::WarpUniform)
           .empty())
    return false;
  // Then every thread waits there: the what-if.
  return fixed(R, syncBeforeSite(R.Later.Access, VirtualBarrierId, N,
                                 std::vector<char>(N, 1)));
}

/// Whether \p S holds a jump that leaves the body of the loop it is in
/// (or the function): a barrier at the end of the body is then not reached
/// every iteration. Jumps of inner loops and switches stay inside.
static bool leavesBody(const Stmt *S, bool InLoop = false,
                       bool InSwitch = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt>(S))
    return true;
  if (isa<ContinueStmt>(S))
    return !InLoop;
  if (isa<BreakStmt>(S))
    return !InLoop && !InSwitch;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (leavesBody(C, InLoop || Loop, InSwitch || Switch))
      return true;
  return false;
}

void RaceFinder::suggestTrailingBarrier(RaceReport &R) {
  // Between warps only: the trailing __syncthreads() the message names.
  if (!R.CrossWarp)
    return;
  const Stmt *Loop = R.CarriedBy;
  const Stmt *Body = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Body = F->getBody();
  else if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Body = W->getBody();
  else if (const auto *D = dyn_cast<DoStmt>(Loop))
    Body = D->getBody();
  else if (const auto *FR = dyn_cast<CXXForRangeStmt>(Loop))
    Body = FR->getBody();
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Block || leavesBody(Block))
    return;
  // Every thread runs the body, and as often: one of the two accesses is
  // run by all of them, nobody has exited, and the loop's condition is the
  // same in every thread each time.
  const SharedAccess &E = T.Accesses[R.Earlier.Access];
  const SharedAccess &L = T.Accesses[R.Later.Access];
  auto All = [](const SharedAccess &A) {
    return !A.ActiveApprox && !A.AfterExit &&
           llvm::all_of(A.Active, [](char C) { return C; });
  };
  if (!All(E) && !All(L))
    return;
  auto U = T.UniformBranch.find(Loop);
  if (U == T.UniformBranch.end() || !U->second)
    return;
  // The barrier's place in each iteration: after the last access of the
  // body in that iteration, which must be in the body itself (not in a
  // loop inside it, where one use would stand for every inner iteration).
  std::map<int, unsigned> Last; // Iteration (-1: symbolic) -> access.
  for (unsigned I = 0; I < T.Accesses.size(); ++I) {
    const SharedAccess &A = T.Accesses[I];
    auto It = llvm::find(A.Loops, Loop);
    if (It == A.Loops.end())
      continue;
    int Iter = A.LoopIterations[It - A.Loops.begin()];
    auto [Pos, New] = Last.try_emplace(Iter, I);
    if (!New && T.Accesses[Pos->second].Seq < A.Seq)
      Pos->second = I;
  }
  std::vector<VirtualBarrierUse> Uses;
  for (const auto &[Iter, I] : Last) {
    const SharedAccess &A = T.Accesses[I];
    if (A.Loops.back() != Loop)
      return;
    Uses.push_back({VirtualBarrierId, N, false, std::vector<char>(N, 1), I,
                    false, std::nullopt});
  }
  RaceReport::BarrierFix Fix;
  Fix.Kind = RaceReport::BarrierFix::Trailing;
  Fix.EndOf = Block;
  if (fixed(R, std::move(Uses)))
    R.Fix = std::move(Fix);
}

void RaceFinder::suggestWarpBarrier(RaceReport &R) {
  const SharedAccess &E = T.Accesses[R.Earlier.Access];
  const SharedAccess &L = T.Accesses[R.Later.Access];
  if (L.ActiveApprox)
    return;
  // `__syncwarp(mask)` names lanes, the same in every warp that runs it: a
  // lane of the mask that does not arrive leaves the others waiting (the
  // divergent barrier the other check reports), so the mask is the lanes
  // that run the later access, and must be one set across warps.
  uint32_t Mask = 0;
  bool First = true;
  for (unsigned W = 0; W < G.warps(); ++W) {
    uint32_t M = 0;
    for (unsigned Th = G.warpBegin(W); Th < G.warpEnd(W); ++Th)
      if (L.Active[Th])
        M |= uint32_t(1) << (Th - G.warpBegin(W));
    if (!M)
      continue;
    if (!First && M != Mask) {
      R.WarpMask = 0;
      return;
    }
    Mask = M;
    First = false;
  }
  R.WarpMask = Mask;
  if (E.CallStack != L.CallStack || E.ActiveApprox ||
      (!E.Loops.empty() && E.Loops != L.Loops))
    return;
  const Stmt *LStmt = blockStatementOf(L).first;
  if (!LStmt)
    return;
  // The what-if: per warp, a barrier of its lanes in the mask (each warp's
  // own, as __syncwarp is), before every instance of the later access.
  std::vector<VirtualBarrierUse> Uses;
  for (unsigned W = 0; W < G.warps(); ++W) {
    std::vector<char> Lanes(N, 0);
    unsigned Count = 0;
    for (unsigned Th = G.warpBegin(W); Th < G.warpEnd(W); ++Th)
      if (L.Active[Th]) {
        Lanes[Th] = 1;
        ++Count;
      }
    if (!Count)
      continue;
    for (VirtualBarrierUse &U :
         syncBeforeSite(R.Later.Access, VirtualBarrierId + 1 + W, Count,
                        Lanes))
      Uses.push_back(std::move(U));
  }
  RaceReport::BarrierFix Fix;
  Fix.Kind = RaceReport::BarrierFix::WarpSync;
  Fix.Mask = Mask;
  Fix.Before = LStmt;
  if (fixed(R, std::move(Uses)))
    R.Fix = std::move(Fix);
}

} // namespace race
} // namespace shmem
