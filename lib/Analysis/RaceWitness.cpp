//===- RaceWitness.cpp - Two threads that collide, for one pair -----------===//
//
// See RaceFinder.h. One pair of sites that may alias: every combination of
// instances and iterations the barrier intervals allow is evaluated, and
// the byte ranges of one access (hashed by granule) are probed with the
// other's for two threads that overlap, the first race across warps
// ending the search.
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include "FlatKeySet.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace shmem {
namespace race {

const GranuleTable &RaceFinder::table(const Eval &E, int64_t Gr,
                                      std::unique_ptr<GranuleTable> &Scratch) {
  auto Key = std::make_pair(&E, Gr);
  auto It = Tables.find(Key);
  if (It != Tables.end())
    return *It->second;
  auto Tab = std::make_unique<GranuleTable>();
  Tab->Gr = Gr;
  Tab->Lo = GranuleTable::floorDiv(E.Min, Gr);
  Tab->Hi = GranuleTable::floorDiv(E.Max + E.Width - 1, Gr);
  Tab->Flat = Tab->Hi - Tab->Lo < MaxFlatSpan;
  if (Tab->Flat)
    Tab->FlatSlots.resize(Tab->Hi - Tab->Lo + 1);
  for (unsigned Th = 0; Th < N; ++Th) {
    if (!E.Active[Th])
      continue;
    int64_t B = GranuleTable::floorDiv(E.Off[Th], Gr);
    int64_t End = GranuleTable::floorDiv(E.Off[Th] + E.Width - 1, Gr);
    for (int64_t J = B; J <= End; ++J) {
      GranuleTable::Slot &S =
          Tab->Flat ? Tab->FlatSlots[J - Tab->Lo] : Tab->HashSlots[J];
      ++Probes;
      int32_t X = int32_t(Th);
      if (S.T1 < 0)
        S.T1 = X;
      else if (S.T2 < 0 && unsigned(S.T1) / WS != Th / WS)
        S.T2 = X;
      else if (S.T3 < 0 && unsigned(S.T1) / WS == Th / WS)
        S.T3 = X;
    }
  }
  if (Tables.size() >= MaxCachedTables) {
    Scratch = std::move(Tab);
    return *Scratch;
  }
  return *(Tables[Key] = std::move(Tab));
}

void RaceFinder::scan(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
                      const Assignment &AsgA, const Assignment &AsgB,
                      const Concurrency &C, const Eval &EA, const Eval &EB,
                      PairScan &Out) {
  // Quick rejection: the byte ranges of the two accesses don't meet.
  if (EA.Max + EA.Width <= EB.Min || EB.Max + EB.Width <= EA.Min)
    return;
  ++Out.Scans;
  SideIters ItA = withSymbolic(unrolledIters(SA, IA), SA, AsgA);
  SideIters ItB = withSymbolic(unrolledIters(SB, IB), SB, AsgB);

  // Granule: the narrower width when every range is aligned to it.
  int64_t Gr = std::min(EA.Width, EB.Width);
  if (EA.Width % Gr || EB.Width % Gr || EA.Align % Gr || EB.Align % Gr)
    Gr = 1;
  std::unique_ptr<GranuleTable> Scratch;
  const GranuleTable &Tab = table(EA, Gr, Scratch);
  auto Record = [&](Witness &W, unsigned TA, unsigned TB) {
    if (W.Found)
      return;
    W.Found = true;
    W.TA = TA;
    W.TB = TB;
    W.IA = IA;
    W.IB = IB;
    W.AsgA = AsgA;
    W.AsgB = AsgB;
    W.OffA = EA.Off[TA];
    W.OffB = EB.Off[TB];
    W.Alt = &C;
  };
  for (unsigned U = 0; U < N && !Out.CrossRace.Found; ++U) {
    if (!EB.Active[U])
      continue;
    int64_t B = GranuleTable::floorDiv(EB.Off[U], Gr);
    int64_t E = GranuleTable::floorDiv(EB.Off[U] + EB.Width - 1, Gr);
    for (int64_t J = B; J <= E; ++J) {
      ++Probes;
      const GranuleTable::Slot *S = Tab.at(J);
      if (!S)
        continue;
      for (int32_t Cand : {S->T1, S->T2, S->T3}) {
        if (Cand < 0 || unsigned(Cand) == U)
          continue;
        unsigned TA = unsigned(Cand);
        bool SameWarp = TA / WS == U / WS;
        PairOrder PO = ordered(SA, SB, IA, IB, ItA, ItB, C, TA, U);
        if (PO == PairOrder::Ordered)
          continue;
        if (sameStoredValue(SA, SB, IA, IB, AsgA, AsgB, C, EA, EB, TA, U) ||
            (Facts[SB].Kind == AccessKind::Load &&
             readsOwnSameValue(SA, IA, EA, IB, EB, C, TA, U)) ||
            (Facts[SA].Kind == AccessKind::Load &&
             readsOwnSameValue(SB, IB, EB, IA, EA, C, U, TA))) {
          Record(Out.Benign, TA, U);
          continue;
        }
        Record(Out.Race, TA, U);
        if (!SameWarp)
          Record(Out.CrossRace, TA, U);
        for (Witness *W : {&Out.Race, &Out.CrossRace})
          if (W->TA == TA && W->TB == U && W->IA == IA && W->IB == IB)
            W->Misused = PO == PairOrder::Misused;
      }
    }
  }
}

bool RaceFinder::mayAlias(unsigned SA, unsigned SB) const {
  const SiteFacts &A = Facts[SA], &B = Facts[SB];
  if (A.Kind != AccessKind::Store && B.Kind != AccessKind::Store)
    return false; // Reads and atomics only.
  if (!BI.placed(SA) || !BI.placed(SB))
    return false;
  if (A.Dynamic || B.Dynamic)
    return A.Dynamic && B.Dynamic; // extern __shared__ arrays share one buffer.
  return A.Base == B.Base;
}

std::optional<RaceFinder::Pending> RaceFinder::analysePair(unsigned SA,
                                                           unsigned SB) {
  if (threadsApart(SA, SB))
    return std::nullopt;
  std::vector<Concurrency> Alts = BI.concurrency(SA, SB);
  if (Alts.empty())
    return std::nullopt;
  if (Order->any()) {
    // Named barriers order by iteration distance: a witness in relations
    // that fix it says which iterations meet ("in the next iteration").
    std::vector<Concurrency> Fixed, Loose;
    for (Concurrency &C : Alts)
      (llvm::any_of(C.Loops,
                    [](const LoopRelation &R) {
                      return R.A == IterState::Any || R.B == IterState::Any;
                    })
           ? Loose
           : Fixed)
          .push_back(std::move(C));
    Alts = std::move(Fixed);
    for (Concurrency &C : Loose)
      Alts.push_back(std::move(C));
  }
  PairScan PS;
  std::set<std::tuple<unsigned, unsigned, Assignment, Assignment, bool, int>>
      Done;
  std::vector<SideIters> UA, UB;
  for (unsigned IA : BI.instances(SA))
    UA.push_back(unrolledIters(SA, IA));
  for (unsigned IB : BI.instances(SB))
    UB.push_back(unrolledIters(SB, IB));
  LoopLayouts Layouts(UA, UB);
  // Alternatives that admit the same instance pairs with the same
  // combinations, iteration sameness and relation find every pair of
  // instances already done (or the search already stopped): skipped.
  // ggml's mmq gives a pair of sites hundreds of alternatives, few of
  // them different here.
  FlatKeySet Tried;
  std::vector<uint64_t> Key;
  // That key is a function of the relations of the loops it reads (those
  // with an iteration fixed in some instance, and those the addresses
  // depend on), the iteration sameness and the relation number: the
  // alternatives that agree there (those that differ only in their
  // ordering or in other loops) are skipped before it is built.
  std::vector<char> Read;
  {
    llvm::SmallVector<int, 8> Dep;
    for (const Stmt *L : Facts[SA].DepLoops)
      Dep.push_back(globalLoop(SA, L));
    for (const Stmt *L : Facts[SB].DepLoops)
      Dep.push_back(globalLoop(SB, L));
    for (const LoopRelation &R : Alts.front().Loops)
      Read.push_back(Layouts.of(R.Loop).Fixed ||
                     llvm::is_contained(Dep, int(R.Loop)));
  }
  FlatKeySet Shapes;
  std::vector<uint64_t> Shape;
  for (const Concurrency &C : Alts) {
    // Named barriers order by the iterations the relation gives, so each
    // relation is its own combination; without them one scan serves all.
    int Relation = Order->any() ? int(&C - Alts.data()) : 0;
    Shape.clear();
    assert(C.Loops.size() == Read.size() && "one relation per loop of A or B");
    for (unsigned I = 0; I < C.Loops.size(); ++I)
      if (Read[I]) {
        const LoopRelation &R = C.Loops[I];
        Shape.insert(Shape.end(),
                     {R.Loop, uint64_t(R.InA) << 1 | uint64_t(R.InB),
                      uint64_t(R.A), uint64_t(R.B), uint64_t(R.OnlyA),
                      uint64_t(R.OnlyB), R.MaskA, R.MaskB});
      }
    Shape.push_back(sameIteration(C));
    Shape.push_back(uint64_t(int64_t(Relation)));
    if (!Shapes.insert(Shape))
      continue;
    auto Combos = symbolicCombos(C, SA, SB);
    InstancePairs Pairs(C, Layouts);
    Key.clear();
    Pairs.appendKey(Key);
    Key.push_back(Combos.size());
    for (const auto &[AsgA, AsgB] : Combos)
      for (const Assignment *Asg : {&AsgA, &AsgB}) {
        Key.push_back(Asg->size());
        for (const auto &[L, K] : *Asg) {
          Key.push_back(reinterpret_cast<uintptr_t>(L));
          Key.push_back(uint64_t(K));
        }
      }
    Key.push_back(sameIteration(C));
    Key.push_back(uint64_t(int64_t(Relation)));
    if (!Tried.insert(Key))
      continue;
    for (unsigned JA = 0; JA < UA.size(); ++JA) {
      unsigned IA = BI.instances(SA)[JA];
      for (unsigned JB = 0; JB < UB.size(); ++JB) {
        unsigned IB = BI.instances(SB)[JB];
        if (PS.CrossRace.Found || PS.Scans > MaxScansPerPair ||
            Probes > MaxProbesPerKernel)
          break;
        if (!Pairs.admits(JA, JB))
          continue;
        for (const auto &[AsgA, AsgB] : Combos) {
          // Whether stores are of the same value depends on whether the
          // threads are in the same iteration (sameStoredValue).
          if (!Done.insert({IA, IB, AsgA, AsgB, sameIteration(C), Relation})
                   .second)
            continue;
          const Eval &EA = eval(IA, AsgA);
          const Eval &EB = eval(IB, AsgB);
          if (EA.S == Eval::Missing || EB.S == Eval::Missing)
            continue;
          if (EA.S == Eval::Unknown || EB.S == Eval::Unknown) {
            // Only an address computed from loaded data is reported as a
            // possible race (`hist[in[t]] += 1`). Addresses the analysis
            // merely cannot model (non-linear in an unknown, results of
            // calls it does not follow) give no claim: correct kernels
            // must stay quiet.
            const Eval &U = EA.S == Eval::Unknown ? EA : EB;
            if (!isDataDependent(U.Reason))
              continue;
            // `s[data * 64 + tid]`: the data moves each thread along a
            // column of its own; no claim.
            if (EA.S == Eval::Unknown && EB.S == Eval::Unknown &&
                residuesSeparate(EA, EB))
              continue;
            if (!PS.Possible) {
              PS.Possible = true;
              PS.PossibleReason = EA.S == Eval::Unknown ? EA.Reason : EB.Reason;
              PS.PossibleA = IA;
              PS.PossibleB = IB;
            }
            continue;
          }
          scan(SA, SB, IA, IB, AsgA, AsgB, C, EA, EB, PS);
        }
      }
    }
  }
  if (PS.Scans > MaxScansPerPair && Probes <= MaxProbesPerKernel &&
      !PS.Race.Found && !PS.Benign.Found) {
    // The pair was left part-judged and nothing found: say so (the probe
    // budget, when it is what stopped the scan, is said by run()).
    unsigned IB = BI.instances(SB)[0];
    H.handleGap(
        BI.instances(SA)[0],
        "race search between this access and the one at line " +
            std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
                T.Accesses[IB].Loc)) +
            " cut short",
        "scan budget of " + std::to_string(MaxScansPerPair) +
            " per pair reached");
  }
  if (PS.Race.Found) {
    const Witness &W = PS.CrossRace.Found ? PS.CrossRace : PS.Race;
    RaceReport R = makeReport(SA, SB, W);
    R.K = RaceReport::Race;
    R.CrossWarp = PS.CrossRace.Found;
    return Pending{std::move(R), 0};
  }
  if (PS.Benign.Found) {
    RaceReport R = makeReport(SA, SB, PS.Benign);
    R.K = RaceReport::Benign;
    R.CrossWarp = PS.Benign.TA / WS != PS.Benign.TB / WS;
    return Pending{std::move(R), 1};
  }
  if (PS.Possible)
    return reportPossible(SA, SB, PS);
  return std::nullopt;
}

} // namespace race
} // namespace shmem
