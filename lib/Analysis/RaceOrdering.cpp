//===- RaceOrdering.cpp - Which iterations two accesses meet in -----------===//
//
// See RaceFinder.h. The barrier intervals say in which iterations of the
// loops around two sites their accesses may run unordered; these enumerate
// the combinations they allow, tell whether a __syncwarp() orders two lanes
// of one warp, and give a witness its order (which access is later, across
// which loop iteration).
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include <algorithm>

using namespace clang;

namespace shmem {
namespace race {

bool RaceFinder::sameIteration(const Concurrency &C) {
  for (const LoopRelation &R : C.Loops)
    if (R.InA && R.InB && (R.A != R.B || R.A == IterState::Any))
      return false;
  return true;
}

int RaceFinder::globalLoop(unsigned Site, const Stmt *L) const {
  const SharedAccess &A = T.Accesses[BI.instances(Site)[0]];
  for (unsigned P = 0; P < A.Loops.size(); ++P)
    if (A.Loops[P] == L)
      return BI.siteLoops(Site)[P];
  return -1;
}

SideIters RaceFinder::unrolledIters(unsigned Site, unsigned Instance) const {
  SideIters S;
  const SharedAccess &A = T.Accesses[Instance];
  for (unsigned P = 0; P < A.LoopIterations.size(); ++P)
    if (A.LoopIterations[P] >= 0 && BI.siteLoops(Site)[P] >= 0)
      S[BI.siteLoops(Site)[P]] = A.LoopIterations[P];
  return S;
}

SideIters RaceFinder::withSymbolic(SideIters S, unsigned Site,
                                   const Assignment &Asg) {
  for (const auto &KV : Asg) {
    int L = globalLoop(Site, KV.first);
    if (L >= 0)
      S[L] = KV.second;
  }
  return S;
}

bool RaceFinder::admits(const Concurrency &C, const SideIters &A,
                        const SideIters &B) {
  for (const LoopRelation &R : C.Loops) {
    auto IA = A.find(R.Loop), IB = B.find(R.Loop);
    int64_t KA = IA == A.end() ? -1 : IA->second;
    int64_t KB = IB == B.end() ? -1 : IB->second;
    if ((KA >= 0 || KB >= 0) && !R.admits(KA, KB))
      return false;
  }
  return true;
}

const RaceFinder::LoopLayout &RaceFinder::LoopLayouts::of(unsigned Loop) {
  std::unique_ptr<LoopLayout> &Slot = Layouts[Loop];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<LoopLayout>();
  LoopLayout &L = *Slot;
  auto Lay = [&](const std::vector<SideIters> &Sides, std::vector<unsigned> &Of,
                 std::vector<int64_t> &Iters) {
    llvm::DenseMap<int64_t, unsigned> Index;
    Of.assign(Sides.size(), 0);
    for (unsigned I = 0; I < Sides.size(); ++I) {
      auto It = Sides[I].find(Loop);
      if (It == Sides[I].end() || It->second < 0)
        continue;
      L.Fixed = true;
      auto [X, New] = Index.try_emplace(It->second, unsigned(Iters.size()));
      if (New)
        Iters.push_back(It->second);
      Of[I] = X->second;
    }
  };
  Lay(SidesA, L.A, L.ItersA);
  Lay(SidesB, L.B, L.ItersB);
  return L;
}

RaceFinder::InstancePairs::InstancePairs(const Concurrency &C,
                                         LoopLayouts &Layouts) {
  for (const LoopRelation &R : C.Loops) {
    const LoopLayout &L = Layouts.of(R.Loop);
    if (!L.Fixed)
      continue;
    // The relation over the few distinct iterations, asked once each.
    Fixed F;
    F.Loop = R.Loop;
    F.L = &L;
    F.Width = unsigned(L.ItersB.size());
    F.Admits.resize(L.ItersA.size() * L.ItersB.size());
    bool Refuses = false;
    for (unsigned KA = 0; KA < L.ItersA.size(); ++KA)
      for (unsigned KB = 0; KB < L.ItersB.size(); ++KB) {
        char Y = (KA == 0 && KB == 0) || R.admits(L.ItersA[KA], L.ItersB[KB]);
        F.Admits[KA * F.Width + KB] = Y;
        Refuses |= !Y;
      }
    if (Refuses) // One that admits every pair need not be asked.
      Relations.push_back(std::move(F));
  }
}

bool RaceFinder::InstancePairs::admits(unsigned IA, unsigned IB) const {
  for (const Fixed &F : Relations)
    if (!F.Admits[F.L->A[IA] * F.Width + F.L->B[IB]])
      return false;
  return true;
}

void RaceFinder::InstancePairs::appendKey(std::vector<uint64_t> &Key) const {
  Key.push_back(Relations.size());
  for (const Fixed &F : Relations) {
    Key.push_back(F.Loop);
    Key.push_back(F.Admits.size());
    for (char Y : F.Admits)
      Key.push_back(uint64_t(Y));
  }
}

std::vector<int64_t> RaceFinder::iterationsOf(const Stmt *L) const {
  std::vector<int64_t> V;
  auto It = IterSymbol.find(L);
  unsigned Count = WindowIterations + 1;
  if (It != IterSymbol.end() && T.Symbols.info(It->second).Values)
    Count = std::min<size_t>(T.Symbols.info(It->second).Values->size(),
                             MaxKnownIterations);
  for (unsigned K = 0; K < Count; ++K)
    V.push_back(K);
  return V;
}

std::vector<std::pair<Assignment, Assignment>>
RaceFinder::symbolicCombos(const Concurrency &C, unsigned SA, unsigned SB) {
  std::vector<const Stmt *> Loops = Facts[SA].DepLoops;
  for (const Stmt *L : Facts[SB].DepLoops)
    if (!llvm::is_contained(Loops, L))
      Loops.push_back(L);
  std::vector<std::pair<Assignment, Assignment>> Out{{}};
  for (const Stmt *L : Loops) {
    bool NeedA = llvm::is_contained(Facts[SA].DepLoops, L);
    bool NeedB = llvm::is_contained(Facts[SB].DepLoops, L);
    int GA = globalLoop(SA, L), GB = globalLoop(SB, L);
    const LoopRelation *R = nullptr;
    for (const LoopRelation &X : C.Loops)
      if (int(X.Loop) == GA || int(X.Loop) == GB)
        R = &X;
    std::vector<int64_t> Vals = iterationsOf(L);
    std::vector<std::pair<int64_t, int64_t>> Pairs;
    for (int64_t KA : NeedA ? Vals : std::vector<int64_t>{-1})
      for (int64_t KB : NeedB ? Vals : std::vector<int64_t>{-1})
        if (!R || R->admits(KA, KB))
          Pairs.push_back({KA, KB});
    std::vector<std::pair<Assignment, Assignment>> Next;
    for (const auto &Base : Out)
      for (const auto &P : Pairs) {
        auto X = Base;
        if (P.first >= 0)
          X.first.push_back({L, P.first});
        if (P.second >= 0)
          X.second.push_back({L, P.second});
        Next.push_back(std::move(X));
        if (Next.size() > 256)
          break;
      }
    Out = std::move(Next);
  }
  for (auto &P : Out) {
    std::sort(P.first.begin(), P.first.end());
    std::sort(P.second.begin(), P.second.end());
  }
  return Out;
}

bool RaceFinder::covers(unsigned W, unsigned TA, unsigned TB) const {
  for (unsigned I : BI.barrierInstances(W)) {
    const BarrierEvent &B = T.Barriers[I];
    if (B.Kind != BarrierKind::Warp)
      return false;
    bool InA = B.Active[TA] || B.ActiveApprox;
    bool InB = B.Active[TB] || B.ActiveApprox;
    if (B.WarpMask) {
      // A constant mask names the lanes; both must also run it.
      if (((*B.WarpMask >> (TA % WS)) & 1) && ((*B.WarpMask >> (TB % WS)) & 1) &&
          InA && InB)
        return true;
    } else if (InA && InB) {
      // A computed mask (__activemask(), a ballot): the threads that run
      // the call.
      return true;
    }
  }
  return false;
}

bool RaceFinder::orderedInWarp(unsigned SA, unsigned SB, const SideIters &IA,
                               const SideIters &IB, unsigned TA, unsigned TB) {
  std::vector<bool> Counting(BI.numBarrierSites(), false);
  bool Any = false;
  for (unsigned W = 0; W < BI.numBarrierSites(); ++W)
    if (covers(W, TA, TB))
      Counting[W] = Any = true;
  return Any && orderedWith(Counting, SA, SB, IA, IB);
}

bool RaceFinder::orderedWith(const std::vector<bool> &Counting, unsigned SA,
                             unsigned SB, const SideIters &IA,
                             const SideIters &IB) {
  auto Key = std::make_tuple(Counting, SA, SB);
  auto It = WarpAlts.find(Key);
  if (It == WarpAlts.end())
    It = WarpAlts.emplace(Key, BI.concurrency(SA, SB, Counting)).first;
  for (const Concurrency &C : It->second)
    if (admits(C, IA, IB))
      return false;
  return true;
}

std::optional<int64_t>
RaceFinder::iterationGap(unsigned SA, unsigned SB, const SideIters &ItA,
                         const SideIters &ItB, const Concurrency &C,
                         const Stmt *L) const {
  int GA = globalLoop(SA, L), GB = globalLoop(SB, L);
  if (GA < 0 || GA != GB)
    return std::nullopt;
  auto KA = ItA.find(unsigned(GA)), KB = ItB.find(unsigned(GB));
  if (KA != ItA.end() && KB != ItB.end())
    return KB->second - KA->second;
  for (const LoopRelation &R : C.Loops) {
    if (int(R.Loop) != GA || !R.InA || !R.InB)
      continue;
    // Both counted from the tag's start (Rel) or both from the loop's
    // entry (Abs): their difference is the gap.
    auto Step = [](IterState S) -> std::optional<std::pair<bool, int>> {
      switch (S) {
      case IterState::Rel0: return std::make_pair(false, 0);
      case IterState::Rel1: return std::make_pair(false, 1);
      case IterState::Abs0: return std::make_pair(true, 0);
      case IterState::Abs1: return std::make_pair(true, 1);
      default: return std::nullopt;
      }
    };
    auto XA = Step(R.A), XB = Step(R.B);
    if (!XA || !XB || XA->first != XB->first)
      return std::nullopt;
    return XB->second - XA->second;
  }
  return std::nullopt;
}

const NamedBarriers *RaceFinder::intended() {
  if (!IntendedBuilt) {
    IntendedBuilt = true;
    if (llvm::any_of(NB.groups(), [](const NamedBarrierGroup &G) {
          return G.S == NamedBarrierGroup::Miscounted;
        }))
      Intended = std::make_unique<NamedBarriers>(
          T, std::vector<VirtualBarrierUse>{}, /*Intended=*/true);
  }
  return Intended.get();
}

RaceFinder::PairOrder
RaceFinder::ordered(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
                    const SideIters &ItA, const SideIters &ItB,
                    const Concurrency &C, unsigned TA, unsigned TB) {
  bool SameWarp = TA / WS == TB / WS;
  if (!Order->any())
    return SameWarp && orderedInWarp(SA, SB, ItA, ItB, TA, TB)
               ? PairOrder::Ordered
               : PairOrder::Unordered;
  auto Gap = [&](const Stmt *L) {
    return iterationGap(SA, SB, ItA, ItB, C, L);
  };
  BarrierOrder O =
      Order->order(T.Accesses[IA], TA, T.Accesses[IB], TB, Gap);
  if (O == BarrierOrder::Ordered)
    return PairOrder::Ordered;
  if (SameWarp && orderedInWarp(SA, SB, ItA, ItB, TA, TB))
    return PairOrder::Ordered;
  if (O == BarrierOrder::Unordered) {
    const NamedBarriers *I = Order == &NB ? intended() : nullptr;
    if (I && I->order(T.Accesses[IA], TA, T.Accesses[IB], TB, Gap) ==
                 BarrierOrder::Ordered)
      return PairOrder::Misused;
    return PairOrder::Unordered;
  }
  // Not modelled: every counted bar.sync orders as a block barrier would
  // (the rule before named barriers were modelled), which keeps the
  // pipelines the analysis cannot follow quiet; the gap says so.
  std::vector<bool> Counting(BI.numBarrierSites(), false);
  for (unsigned W = 0; W < BI.numBarrierSites(); ++W)
    Counting[W] = T.Barriers[BI.barrierInstances(W)[0]].Named ||
                  (SameWarp && covers(W, TA, TB));
  if (!orderedWith(Counting, SA, SB, ItA, ItB))
    return PairOrder::Unordered;
  if (!NamedFallbackAt)
    NamedFallbackAt = std::min(IA, IB);
  return PairOrder::Ordered;
}

RaceReport RaceFinder::makeReport(unsigned SA, unsigned SB, const Witness &W) {
  RaceReport R;
  RaceSide A, B;
  A.Access = W.IA;
  A.Thread = W.TA;
  A.Offset = W.OffA;
  B.Access = W.IB;
  B.Thread = W.TB;
  B.Offset = W.OffB;
  for (const auto &KV : W.AsgA)
    A.Iterations[KV.first] = KV.second;
  for (const auto &KV : W.AsgB)
    B.Iterations[KV.first] = KV.second;
  SideIters ItA = withSymbolic(unrolledIters(SA, W.IA), SA, W.AsgA);
  SideIters ItB = withSymbolic(unrolledIters(SB, W.IB), SB, W.AsgB);
  int Later = 0; // 1: A, -1: B.
  const SharedAccess &AA = T.Accesses[W.IA];
  for (unsigned P = 0; P < AA.Loops.size() && !Later; ++P) {
    int L = BI.siteLoops(SA)[P];
    if (L < 0)
      continue;
    const LoopRelation *Rel = nullptr;
    for (const LoopRelation &X : W.Alt->Loops)
      if (int(X.Loop) == L && X.InA && X.InB)
        Rel = &X;
    if (!Rel)
      continue;
    auto KA = ItA.find(L), KB = ItB.find(L);
    if (KA != ItA.end() && KB != ItB.end()) {
      if (KA->second != KB->second) {
        Later = KA->second > KB->second ? 1 : -1;
        R.Distance = std::abs(KA->second - KB->second);
        R.CarriedBy = AA.Loops[P];
      }
      continue;
    }
    bool A1 = Rel->A == IterState::Rel1, B1 = Rel->B == IterState::Rel1;
    if (A1 != B1) {
      Later = A1 ? 1 : -1;
      R.Distance = 1;
      R.CarriedBy = AA.Loops[P];
    } else if (Rel->A == IterState::Any || Rel->B == IterState::Any) {
      // Unrelated iterations: "another iteration".
      R.CarriedBy = AA.Loops[P];
      R.Distance = 0;
      Later = AA.Seq >= T.Accesses[W.IB].Seq ? 1 : -1;
    }
  }
  if (!Later) {
    switch (W.Alt->Order) {
    case Concurrency::AThenB: Later = -1; break;
    case Concurrency::BThenA: Later = 1; break;
    case Concurrency::Unordered:
      Later = AA.Seq >= T.Accesses[W.IB].Seq ? 1 : -1;
      break;
    }
  }
  R.Later = Later > 0 ? A : B;
  R.Earlier = Later > 0 ? B : A;
  if (W.Misused && Intended)
    if (const NamedBarrierGroup *G = Intended->orderingGroup(
            T.Accesses[W.IA], W.TA, T.Accesses[W.IB], W.TB)) {
      const auto &Calls =
          T.CountedBarriers[Intended->uses()[G->Uses.front()].Event]
              .At.CallStack;
      R.MisusedBarrier = G->Id;
      R.MisusedAt = Calls.empty() ? Intended->uses()[G->Uses.front()].Loc
                                  : Calls.back()->getExprLoc();
    }
  return R;
}

} // namespace race
} // namespace shmem
