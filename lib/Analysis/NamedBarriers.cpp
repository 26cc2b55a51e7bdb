//===- NamedBarriers.cpp - Which threads a named barrier orders -----------===//
//
// See NamedBarriers.h.
//
//===----------------------------------------------------------------------===//

#include "NamedBarriers.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace clang;

namespace shmem {

namespace {

/// The loops walked symbolically around a use or an access.
std::vector<const Stmt *>
symbolicLoops(const std::vector<const Stmt *> &Loops,
              const std::vector<int> &Iterations) {
  std::vector<const Stmt *> Out;
  for (unsigned P = 0; P < Loops.size(); ++P)
    if (P >= Iterations.size() || Iterations[P] < 0)
      Out.push_back(Loops[P]);
  return Out;
}

bool inSymbolicLoop(const SharedAccess &A, const Stmt *L) {
  for (unsigned P = 0; P < A.Loops.size(); ++P)
    if (A.Loops[P] == L && A.LoopIterations[P] < 0)
      return true;
  return false;
}

std::vector<char> participants(const BarrierEvent &B) {
  std::vector<char> In = B.Active;
  if (!B.Exited.empty())
    for (unsigned Th = 0; Th < In.size(); ++Th)
      In[Th] = In[Th] && !B.Exited[Th];
  return In;
}

} // namespace

NamedBarriers::NamedBarriers(const KernelTrace &Tr,
                             std::vector<VirtualBarrierUse> Extra,
                             bool Intended)
    : T(Tr), N(Tr.Geometry.threads()), Intended(Intended) {
  if (T.CountedBarriers.empty() && Extra.empty())
    return;
  for (const BarrierEvent &B : T.Barriers) {
    if (B.Kind != BarrierKind::Block || B.Named || B.ActiveApprox)
      continue;
    // Block-wide: every thread that has not exited reaches it.
    bool All = true;
    for (unsigned Th = 0; Th < N && All; ++Th)
      All = (Th < B.Active.size() && B.Active[Th]) ||
            (!B.Exited.empty() && B.Exited[Th]);
    if (All)
      BlockBarrierSeqs.push_back(B.Seq);
  }
  std::sort(BlockBarrierSeqs.begin(), BlockBarrierSeqs.end());
  collect(Extra);
  group();
  build();
}

std::optional<int64_t> NamedBarriers::freeId() const {
  for (int64_t Id = 1; Id < NumBarrierIds; ++Id)
    if (!llvm::is_contained(IdsUsed, Id))
      return Id;
  return std::nullopt;
}

void NamedBarriers::setWhy(std::string W, std::optional<unsigned> Use) {
  if (!Why.empty())
    return;
  Why = std::move(W);
  WhyUse = Use;
}

unsigned NamedBarriers::phaseOf(const NamedBarrierUse &U) const {
  // Barriers at Seq s sit at position 2s: those strictly before the use.
  return unsigned(std::lower_bound(BlockBarrierSeqs.begin(),
                                   BlockBarrierSeqs.end(), U.Pos,
                                   [](unsigned S, int64_t P) {
                                     return 2 * int64_t(S) < P;
                                   }) -
                  BlockBarrierSeqs.begin());
}

void NamedBarriers::collect(std::vector<VirtualBarrierUse> &Extra) {
  for (unsigned I = 0; I < T.CountedBarriers.size(); ++I) {
    const CountedBarrierEvent &E = T.CountedBarriers[I];
    NamedBarrierUse U;
    U.Event = int(I);
    U.Arrive = E.Arrive;
    U.Pos = 2 * int64_t(E.At.Seq);
    U.Threads = participants(E.At);
    U.Loops = &E.At.Loops;
    U.Iterations = &E.At.LoopIterations;
    U.Loc = E.At.Loc;
    if (E.At.ActiveApprox) {
      U.Known = false;
      U.Unknown = "which threads reach it is not known exactly";
    } else if (!E.Id || !E.Id->isConcrete()) {
      U.Known = false;
      U.Unknown = "its barrier id is not known in every thread";
    } else if (!E.Count || !E.Count->isConcrete()) {
      U.Known = false;
      U.Unknown = "its thread count is not known in every thread";
    } else {
      U.Id.assign(N, 0);
      U.Count.assign(N, 0);
      for (unsigned Th = 0; Th < N; ++Th)
        if (U.Threads[Th]) {
          U.Id[Th] = E.Id->constants()[Th];
          U.Count[Th] = E.Count->constants()[Th];
        }
    }
    Uses.push_back(std::move(U));
  }
  for (VirtualBarrierUse &V : Extra) {
    NamedBarrierUse U;
    U.Arrive = V.Arrive;
    if (V.AtBarrier) {
      // Where the walk met the barrier: no counted event shares its Seq.
      const BarrierEvent &B = T.Barriers[*V.AtBarrier];
      U.Pos = 2 * int64_t(B.Seq);
      U.Loops = &B.Loops;
      U.Iterations = &B.LoopIterations;
      U.Loc = B.Loc;
    } else {
      const SharedAccess &A = T.Accesses[V.Access];
      U.Pos = 2 * int64_t(A.Seq) + (V.Before ? -1 : 1);
      U.Loops = &A.Loops;
      U.Iterations = &A.LoopIterations;
      U.Loc = A.Loc;
    }
    U.Threads = std::move(V.Threads);
    U.Id.assign(N, V.Id);
    U.Count.assign(N, V.Count);
    Uses.push_back(std::move(U));
  }
  // Positions are distinct: the walk numbers events one by one, and a
  // virtual use sits at an odd position beside one access.
  std::sort(Uses.begin(), Uses.end(),
            [](const NamedBarrierUse &X, const NamedBarrierUse &Y) {
              return X.Pos < Y.Pos;
            });
  for (const NamedBarrierUse &U : Uses)
    if (U.Known)
      for (unsigned Th = 0; Th < N; ++Th)
        if (U.Threads[Th] && !llvm::is_contained(IdsUsed, U.Id[Th]))
          IdsUsed.push_back(U.Id[Th]);
  std::sort(IdsUsed.begin(), IdsUsed.end());
}

void NamedBarriers::group() {
  // A use whose id the walk does not know may belong to any group of its
  // phase: none of them can be trusted.
  std::vector<unsigned> UnknownPhases;
  std::map<std::pair<unsigned, int64_t>, unsigned> Index;
  std::vector<std::vector<const Stmt *>> Context;
  std::vector<bool> Mixed;
  for (unsigned I = 0; I < Uses.size(); ++I) {
    const NamedBarrierUse &U = Uses[I];
    unsigned P = phaseOf(U);
    if (!llvm::is_contained(U.Threads, 1))
      continue;
    if (!U.Known) {
      setWhy("the named barrier at this line is not modelled: " + U.Unknown, I);
      UnknownPhases.push_back(P);
      continue;
    }
    std::vector<const Stmt *> Ctx = symbolicLoops(*U.Loops, *U.Iterations);
    for (unsigned Th = 0; Th < N; ++Th) {
      if (!U.Threads[Th])
        continue;
      auto [It, New] = Index.try_emplace({P, U.Id[Th]}, Groups.size());
      if (New) {
        Groups.emplace_back();
        NamedBarrierGroup &G = Groups.back();
        G.Phase = P;
        G.Id = U.Id[Th];
        G.ByThread.resize(N);
        Context.push_back(Ctx);
        Mixed.push_back(false);
      }
      NamedBarrierGroup &G = Groups[It->second];
      if (Context[It->second] != Ctx)
        Mixed[It->second] = true;
      if (G.Uses.empty() || G.Uses.back() != I)
        G.Uses.push_back(I);
      std::vector<unsigned> &Mine = G.ByThread[Th];
      if (Mine.empty())
        ++G.Users;
      Mine.push_back(I);
      auto &C = G.Counts[U.Count[Th]];
      if (C.first.empty()) {
        C.first.assign(N, 0);
        C.second = I;
      }
      C.first[Th] = 1;
      G.Waits |= !U.Arrive;
    }
  }
  for (unsigned GI = 0; GI < Groups.size(); ++GI) {
    NamedBarrierGroup &G = Groups[GI];
    if (llvm::is_contained(UnknownPhases, G.Phase)) {
      G.S = NamedBarrierGroup::Unmodelled;
      G.Why = "another named barrier between the same block-wide barriers "
              "is not modelled";
      continue;
    }
    if (Mixed[GI]) {
      G.S = NamedBarrierGroup::Unmodelled;
      G.Why = "its uses are in different loops walked without unrolling";
      continue;
    }
    if (Context[GI].size() > 1) {
      G.S = NamedBarrierGroup::Unmodelled;
      G.Why = "its uses are in nested loops walked without unrolling";
      continue;
    }
    G.Loop = Context[GI].empty() ? nullptr : Context[GI][0];
    checkGroup(G);
  }
  for (NamedBarrierGroup &G : Groups)
    for (const NamedBarrierGroup &Before : Groups)
      if (Before.Id == G.Id && Before.Phase < G.Phase && !Before.Waits &&
          Before.S == NamedBarrierGroup::Unmodelled &&
          G.S != NamedBarrierGroup::Unmodelled) {
        G.S = NamedBarrierGroup::Unmodelled;
        G.CountsHold = false;
        G.Why = "arrivals at it before a block-wide barrier, which no thread "
                "waited for, may join its generations";
      }
  for (const NamedBarrierGroup &G : Groups)
    if (G.S == NamedBarrierGroup::Unmodelled)
      setWhy("barrier " + std::to_string(G.Id) + " is not modelled: " + G.Why,
             G.Uses.front());
}

void NamedBarriers::checkGroup(NamedBarrierGroup &G) {
  if (!G.Waits && G.Counts.size() == 1 &&
      G.Counts.begin()->first > int64_t(G.Users)) {
    // Arrivals nobody waits for in this phase: they may complete a
    // generation after the next block-wide barrier.
    G.S = NamedBarrierGroup::Unmodelled;
    G.Why = "its arrivals, which no thread waits for here, may complete a "
            "generation after the next block-wide barrier";
    return;
  }
  if (!Intended &&
      (G.Counts.size() > 1 || G.Counts.begin()->first != int64_t(G.Users))) {
    G.S = NamedBarrierGroup::Miscounted;
    return;
  }
  size_t Fewest = SIZE_MAX, Most = 0;
  for (unsigned Th = 0; Th < N; ++Th) {
    size_t K = G.ByThread[Th].size();
    if (!K)
      continue;
    if (K < Fewest) {
      Fewest = K;
      G.FewestThread = Th;
    }
    if (K > Most) {
      Most = K;
      G.MostThread = Th;
    }
  }
  if (Fewest != Most) {
    G.S = NamedBarrierGroup::Miscounted;
    return;
  }
  G.CountsHold = true;
  if (!G.Loop)
    return;
  // In a loop walked symbolically one event stands for every iteration: a
  // thread that only arrives may run ahead into the next iteration's
  // generation, which the walk cannot follow.
  for (unsigned I : G.Uses)
    if (Uses[I].Arrive) {
      G.S = NamedBarrierGroup::Unmodelled;
      G.Why = "a thread arrives without waiting in a loop walked without "
              "unrolling, so which iteration's generation it joins is not "
              "known";
      return;
    }
  auto It = T.UniformBranch.find(G.Loop);
  if (It == T.UniformBranch.end() || !It->second) {
    G.S = NamedBarrierGroup::Unmodelled;
    G.Why = "the loop around it may run a different number of times in "
            "different threads";
  }
}

bool NamedBarriers::classify() {
  // A thread's signature: the uses of every exact straight-line group it
  // takes part in. Threads with one signature behave alike here.
  std::map<std::vector<unsigned>, unsigned> ClassIds;
  ClassOf.assign(N, -1);
  for (unsigned Th = 0; Th < N; ++Th) {
    std::vector<unsigned> Sig;
    for (unsigned GI = 0; GI < Groups.size(); ++GI) {
      const NamedBarrierGroup &G = Groups[GI];
      if (G.S != NamedBarrierGroup::Exact || G.Loop || G.ByThread[Th].empty())
        continue;
      Sig.push_back(~GI);
      Sig.insert(Sig.end(), G.ByThread[Th].begin(), G.ByThread[Th].end());
    }
    if (Sig.empty())
      continue;
    auto [It, New] = ClassIds.try_emplace(std::move(Sig), ClassIds.size());
    ClassOf[Th] = int(It->second);
  }
  Classes = ClassIds.size();
  return Classes > 0;
}

void NamedBarriers::clocks() {
  Gens.clear();
  Waits.assign(Classes, {});
  WaitPrefix.assign(Classes, {});
  // A representative thread per class.
  std::vector<unsigned> Rep(Classes, 0);
  for (unsigned Th = N; Th-- > 0;)
    if (ClassOf[Th] >= 0)
      Rep[ClassOf[Th]] = Th;
  // Per class: (position, generation, waits) of every arrival.
  std::vector<std::vector<std::tuple<int64_t, unsigned, bool>>> Arrivals(
      Classes);
  std::vector<std::vector<std::pair<unsigned, int64_t>>> Arrivers;
  for (unsigned GI = 0; GI < Groups.size(); ++GI) {
    const NamedBarrierGroup &G = Groups[GI];
    if (G.S != NamedBarrierGroup::Exact || G.Loop)
      continue;
    size_t K = 0;
    for (const auto &Mine : G.ByThread)
      K = std::max(K, Mine.size());
    for (unsigned Kk = 0; Kk < K; ++Kk) {
      unsigned Gen = Gens.size();
      Gens.push_back({GI, Kk, std::vector<int64_t>(Classes, -1)});
      Arrivers.emplace_back();
      for (unsigned C = 0; C < Classes; ++C) {
        const std::vector<unsigned> &Mine = G.ByThread[Rep[C]];
        if (Mine.empty())
          continue;
        const NamedBarrierUse &U = Uses[Mine[Kk]];
        Gens[Gen].Clock[C] = U.Pos;
        Arrivers[Gen].push_back({C, U.Pos});
        Arrivals[C].push_back({U.Pos, Gen, !U.Arrive});
      }
    }
  }
  for (unsigned C = 0; C < Classes; ++C) {
    std::sort(Arrivals[C].begin(), Arrivals[C].end());
    for (const auto &[Pos, Gen, Wait] : Arrivals[C])
      if (Wait)
        Waits[C].push_back({Pos, Gen});
  }
  // What a generation follows: its arrivals, and what their classes
  // waited for before arriving. Clocks only grow: iterate to the fixpoint.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned Gen = 0; Gen < Gens.size(); ++Gen)
      for (const auto &[C, Pos] : Arrivers[Gen])
        for (const auto &[WPos, WGen] : Waits[C]) {
          if (WPos >= Pos)
            break;
          for (unsigned X = 0; X < Classes; ++X)
            if (Gens[WGen].Clock[X] > Gens[Gen].Clock[X]) {
              Gens[Gen].Clock[X] = Gens[WGen].Clock[X];
              Changed = true;
            }
        }
  }
  for (unsigned C = 0; C < Classes; ++C) {
    std::vector<int64_t> Acc(Classes, -1);
    for (const auto &[WPos, WGen] : Waits[C]) {
      for (unsigned X = 0; X < Classes; ++X)
        Acc[X] = std::max(Acc[X], Gens[WGen].Clock[X]);
      WaitPrefix[C].push_back(Acc);
    }
  }
}

const std::vector<int64_t> *NamedBarriers::before(unsigned C,
                                                   int64_t Pos) const {
  const auto &W = Waits[C];
  auto It = std::lower_bound(
      W.begin(), W.end(), Pos,
      [](const std::pair<int64_t, unsigned> &E, int64_t P) {
        return E.first < P;
      });
  if (It == W.begin())
    return nullptr;
  return &WaitPrefix[C][(It - W.begin()) - 1];
}

bool NamedBarriers::runAhead() {
  for (NamedBarrierGroup &G : Groups) {
    if (G.S != NamedBarrierGroup::Exact || G.Loop)
      continue;
    for (unsigned Th = 0; Th < N; ++Th) {
      const std::vector<unsigned> &Mine = G.ByThread[Th];
      for (unsigned K = 0; K + 1 < Mine.size(); ++K) {
        if (!Uses[Mine[K]].Arrive)
          continue; // It waited for generation K itself.
        // Generation K must be complete before this thread arrives again:
        // every user's K-th arrival happens before.
        const std::vector<int64_t> *Seen =
            before(unsigned(ClassOf[Th]), Uses[Mine[K + 1]].Pos);
        // A thread of another class, if one is behind, says most.
        std::optional<unsigned> Behind;
        for (unsigned U = 0; U < N; ++U) {
          if (G.ByThread[U].empty())
            continue;
          int64_t Needed = Uses[G.ByThread[U][K]].Pos;
          if (Seen && (*Seen)[ClassOf[U]] >= Needed)
            continue;
          if (!Behind || ClassOf[*Behind] == ClassOf[Th])
            Behind = U;
        }
        if (Behind) {
          G.S = NamedBarrierGroup::Miscounted;
          G.RunsAhead = true;
          G.RunAhead = Th;
          G.Behind = *Behind;
          G.AheadUse = K;
          return true;
        }
      }
    }
  }
  return false;
}

void NamedBarriers::build() {
  // A group found to run ahead gives no order: the clocks are computed
  // again without it, which may show another.
  while (classify()) {
    clocks();
    if (Intended || !runAhead())
      return;
  }
}

bool NamedBarriers::hbStraight(const SharedAccess &A, unsigned TA,
                               const SharedAccess &B, unsigned TB) const {
  if (!Classes || ClassOf[TA] < 0 || ClassOf[TB] < 0)
    return false;
  const std::vector<int64_t> *Seen =
      before(unsigned(ClassOf[TB]), 2 * int64_t(B.Seq));
  return Seen && (*Seen)[ClassOf[TA]] > 2 * int64_t(A.Seq);
}

BarrierOrder NamedBarriers::hbLoop(const NamedBarrierGroup &G,
                                   const SharedAccess &A, unsigned TA,
                                   const SharedAccess &B, unsigned TB,
                                   int64_t Gap) const {
  const std::vector<unsigned> &UA = G.ByThread[TA], &UB = G.ByThread[TB];
  int64_t PA = 2 * int64_t(A.Seq), PB = 2 * int64_t(B.Seq);
  int64_t Body = Uses[G.Uses.front()].Pos;
  bool InA = inSymbolicLoop(A, G.Loop), InB = inSymbolicLoop(B, G.Loop);
  // Every use waits (checkGroup), so B's thread waits at each of its uses;
  // generation k of an iteration is the k-th use of each thread in it.
  auto Any = [&](auto Pred) {
    for (unsigned K = 0; K < UA.size() && K < UB.size(); ++K)
      if (Pred(Uses[UA[K]].Pos, Uses[UB[K]].Pos))
        return true;
    return false;
  };
  bool Yes = false;
  if (InA && InB) {
    int64_t D = Gap;
    if (D < 0)
      return BarrierOrder::Unordered;
    if (D == 0)
      Yes = Any([&](int64_t X, int64_t Y) { return X > PA && Y < PB; });
    else
      // In A's iteration after A (B's thread waits then, before B's
      // iteration), in B's iteration before B, or in one between.
      Yes = Any([&](int64_t X, int64_t Y) {
        return X > PA || Y < PB || D >= 2;
      });
  } else if (InA) {
    // B after the loop: A's iteration's generations after A.
    if (PB > Body)
      Yes = Any([&](int64_t X, int64_t) { return X > PA; });
  } else if (InB) {
    // A before the loop: B's iteration's generations before B.
    if (PA < Body)
      Yes = Any([&](int64_t, int64_t Y) { return Y < PB; });
  } else if (PA < Body && PB > Body) {
    // Both outside, the loop between: it orders them if it runs.
    const KernelTrace::LoopOutcomes *LO = nullptr;
    auto It = T.LoopFacts.find(G.Loop);
    if (It != T.LoopFacts.end() && It->second.size() == 1)
      LO = &It->second.begin()->second;
    if (!UA.empty() && !UB.empty()) {
      if (LO && LO->Exact && LO->FirstTestHolds)
        return BarrierOrder::Ordered;
      return BarrierOrder::Unknown;
    }
  }
  return Yes ? BarrierOrder::Ordered : BarrierOrder::Unordered;
}

const NamedBarrierGroup *
NamedBarriers::orderingGroup(const SharedAccess &A, unsigned TA,
                             const SharedAccess &B, unsigned TB) const {
  // The group of a generation one thread arrives at after its access and
  // the other waits at before its own: the direct link of the order.
  int64_t PA = 2 * int64_t(A.Seq), PB = 2 * int64_t(B.Seq);
  for (const NamedBarrierGroup &G : Groups) {
    if (G.S != NamedBarrierGroup::Exact || G.Loop)
      continue;
    const auto &UA = G.ByThread[TA], &UB = G.ByThread[TB];
    for (unsigned K = 0; K < UA.size() && K < UB.size(); ++K) {
      const NamedBarrierUse &XA = Uses[UA[K]], &XB = Uses[UB[K]];
      if ((XA.Pos > PA && !XB.Arrive && XB.Pos < PB) ||
          (XB.Pos > PB && !XA.Arrive && XA.Pos < PA))
        return &G;
    }
  }
  return nullptr;
}

BarrierOrder NamedBarriers::order(const SharedAccess &A, unsigned TA,
                                  const SharedAccess &B, unsigned TB,
                                  IterationGap Gap) const {
  if (Uses.empty())
    return BarrierOrder::Unordered;
  if (hbStraight(A, TA, B, TB) || hbStraight(B, TB, A, TA))
    return BarrierOrder::Ordered;
  bool Unknown = !exact();
  std::vector<std::pair<const NamedBarrierGroup *, std::optional<int64_t>>>
      Loops;
  bool Loose = false;
  for (const NamedBarrierGroup &G : Groups)
    if (G.S == NamedBarrierGroup::Exact && G.Loop &&
        !G.ByThread[TA].empty() && !G.ByThread[TB].empty()) {
      Loops.push_back({&G, Gap(G.Loop)});
      Loose |= !Loops.back().second;
    }
  if (Loops.empty())
    return Unknown ? BarrierOrder::Unknown : BarrierOrder::Unordered;
  // Where the relation leaves the iterations any distance apart, they are
  // ordered only if every distance is (beyond two apart all are alike),
  // each distance by some group.
  std::vector<int64_t> Ds = Loose ? std::vector<int64_t>{-2, -1, 0, 1, 2}
                                  : std::vector<int64_t>{0};
  bool All = true;
  for (int64_t X : Ds) {
    bool Some = false, SomeUnknown = false;
    for (const auto &[G, D] : Loops) {
      int64_t Dist = D ? *D : X;
      BarrierOrder AB = hbLoop(*G, A, TA, B, TB, Dist);
      BarrierOrder BA = hbLoop(*G, B, TB, A, TA, -Dist);
      Some |= AB == BarrierOrder::Ordered || BA == BarrierOrder::Ordered;
      SomeUnknown |= AB == BarrierOrder::Unknown || BA == BarrierOrder::Unknown;
    }
    if (!Some) {
      All = false;
      Unknown |= SomeUnknown;
    }
  }
  if (All)
    return BarrierOrder::Ordered;
  return Unknown ? BarrierOrder::Unknown : BarrierOrder::Unordered;
}

} // namespace shmem
