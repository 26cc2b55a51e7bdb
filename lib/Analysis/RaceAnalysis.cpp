//===- RaceAnalysis.cpp - Shared-memory races with a witness --------------===//
//
// See RaceAnalysis.h. The work is organised by site pairs (two program
// points of the trace, see BarrierIntervals): their interval relations are
// computed once, then their instances (unrolled iterations) and the
// iterations of loops walked symbolically are enumerated as the relations
// allow, each combination evaluated per thread and scanned for a pair of
// threads whose byte ranges overlap.
//
// This file is the search over pairs of sites, with its pruning, and the
// grouping of their reports into findings (RaceFinder::run); the rest of
// RaceFinder (RaceFinder.h) is in RaceEvaluation.cpp, RaceOrdering.cpp,
// RaceWitness.cpp, RaceEvidence.cpp and RaceFixes.cpp.
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include <algorithm>
#include <numeric>

using namespace clang;

namespace shmem {

RaceHandler::~RaceHandler() = default;

namespace race {

void RaceFinder::consider(const RaceReport &R) {
  if (!counts(R))
    return;
  const Stmt *Later = SiteStatement[BI.siteOf(R.Later.Access)];
  const Stmt *Earlier = SiteStatement[BI.siteOf(R.Earlier.Access)];
  const void *Group = groupOf(R);
  // A link of a chain crosses no barrier the code has: across one that no
  // thread ran, the race wants that barrier (a finding of its own).
  const KernelTrace::SkippedBarrier *Skipped = skippedBetween(R);
  bool Linked =
      (Named.count(Later) || (Named.count(Earlier) && !R.CarriedBy)) &&
      !Skipped;
  if (Linked || Groups.count(Group)) {
    // Part of a finding already made: its statements join it, so the
    // next link of a chain is not reported either.
    Named.insert(Later);
    Named.insert(Earlier);
    return;
  }
  Groups.insert(Group);
  Named.insert(Later);
  Named.insert(Earlier);
  Findings.push_back({R, Group});
  if (Skipped) {
    Findings.back().R.SkippedBarrier = Skipped->Barrier;
    Findings.back().R.SkippedBranch = Skipped->Branch;
  }
}

const KernelTrace::SkippedBarrier *
RaceFinder::skippedBetween(const RaceReport &R) const {
  unsigned A = segmentOf(T.Accesses[R.Earlier.Access].Seq);
  unsigned B = segmentOf(T.Accesses[R.Later.Access].Seq);
  if (A == B)
    return nullptr;
  return &T.SkippedBarriers[std::min(A, B)];
}

unsigned RaceFinder::segmentOf(unsigned Seq) const {
  auto It =
      std::upper_bound(T.SkippedBarriers.begin(), T.SkippedBarriers.end(), Seq,
                       [](unsigned S, const KernelTrace::SkippedBarrier &B) {
                         return S < B.Seq;
                       });
  return unsigned(It - T.SkippedBarriers.begin());
}

void RaceFinder::run() {
  if (!BI.valid() || !T.Kernel)
    return;
  computeFacts();
  unsigned NS = BI.numSites();
  // Per site: how many skipped barriers come before all its instances, or
  // -1 when they lie on both sides of one. Two sites named by findings
  // yield no new finding (the pruning below) only in one such segment.
  std::vector<int> Segment(NS, 0);
  if (!T.SkippedBarriers.empty())
    for (unsigned S = 0; S < NS; ++S) {
      auto SegmentOf = [&](unsigned I) {
        return int(segmentOf(T.Accesses[I].Seq));
      };
      const std::vector<unsigned> &Is = BI.instances(S);
      Segment[S] = SegmentOf(Is.front());
      for (unsigned I : Is)
        if (SegmentOf(I) != Segment[S]) {
          Segment[S] = -1;
          break;
        }
    }
  auto OneSegment = [&](unsigned SA, unsigned SB) {
    return Segment[SA] >= 0 && Segment[SA] == Segment[SB];
  };
  PlainEvals.assign(NS, 0);
  SiteStatement.resize(NS);
  std::map<const Stmt *, std::vector<unsigned>> SitesOfStatement;
  for (unsigned S = 0; S < NS; ++S) {
    SiteStatement[S] = statementOf(T.Accesses[BI.instances(S)[0]]);
    SitesOfStatement[SiteStatement[S]].push_back(S);
  }

  // One finding per missing barrier, not per pair: the pairs a single
  // barrier fixes are grouped. Races across iterations of one loop all want
  // the trailing barrier of that loop; other races are grouped by their
  // earlier access (a stencil's three reads of a just-written tile). An
  // access already named by a finding starts no new one: in a chain of
  // unordered statements (a warp-synchronous reduction) the first link says
  // what is wrong with all of them. Not across a barrier no thread ran
  // (`if (nwarps > 1) __syncthreads();` with one warp): each such barrier
  // is missing on its own, and its races are a finding of their own. Within a
  // group the most certain report (race, then benign, then possible) in program
  // order is shown, with the block barrier as the fix if any member needs one.
  //
  // Races are considered as the pairs are analysed (pairs in order, so the
  // order of reports is the order of findings); benign and possible races
  // come after every race, so they wait until the end. That makes the
  // search for pairs prunable: once both statements of a pair are named
  // (and every instance of both sites has been evaluated, so the pair
  // would change no state either) and no skipped barrier lies between
  // their instances, its report, whatever it is, joins a finding without
  // changing anything. A site in that state is "closed",
  // and a closed site is only paired with open ones. Without this a kernel
  // with no barrier, where every access meets every other, cost O(sites^2)
  // pair analyses for the few findings it gets.
  constexpr uint64_t Never = UINT64_MAX;
  std::vector<uint64_t> ClosedAt(NS, Never); // The pair during which.
  auto Closed = [&](unsigned S) { return ClosedAt[S] != Never; };

  // Sites that may meet: one barrier-free region, one shared variable (the
  // dynamic shared arrays share one), at least one a store. A site is
  // paired with the later sites of its bucket, a load with its stores
  // only; a closed site with open ones only.
  struct Partners {
    std::vector<unsigned> Sites; // In site order.
    // NextOpen[P]: a position at or after P whose site may be open
    // (path-halved; Sites.size() is the end).
    std::vector<unsigned> NextOpen;
    unsigned findOpen(unsigned P) {
      while (NextOpen[P] != P)
        P = NextOpen[P] = NextOpen[NextOpen[P]];
      return P;
    }
  };
  struct Bucket {
    Partners All, Stores;
  };
  std::map<std::tuple<unsigned, bool, const ValueDecl *>, unsigned> BucketOf;
  std::vector<Bucket> Buckets;
  std::vector<int> SiteBucket(NS, -1);
  std::vector<unsigned> PosAll(NS), PosStore(NS);
  for (unsigned S = 0; S < NS; ++S) {
    if (!BI.placed(S))
      continue;
    const SiteFacts &F = Facts[S];
    auto [It, New] = BucketOf.try_emplace(
        {BI.region(S), F.Dynamic, F.Dynamic ? nullptr : F.Base},
        Buckets.size());
    if (New)
      Buckets.emplace_back();
    SiteBucket[S] = int(It->second);
    Bucket &B = Buckets[It->second];
    PosAll[S] = B.All.Sites.size();
    B.All.Sites.push_back(S);
    if (F.Kind == AccessKind::Store) {
      PosStore[S] = B.Stores.Sites.size();
      B.Stores.Sites.push_back(S);
    }
  }
  for (Bucket &B : Buckets)
    for (Partners *P : {&B.All, &B.Stores}) {
      P->NextOpen.resize(P->Sites.size() + 1);
      std::iota(P->NextOpen.begin(), P->NextOpen.end(), 0u);
    }
  auto TryClose = [&](unsigned S, uint64_t Key) {
    if (Search.Exhaustive || Closed(S) || !Named.count(SiteStatement[S]) ||
        !Facts[S].DepLoops.empty() || PlainEvals[S] != BI.instances(S).size())
      return;
    ClosedAt[S] = Key;
    Bucket &B = Buckets[SiteBucket[S]];
    B.All.NextOpen[PosAll[S]] = PosAll[S] + 1;
    if (Facts[S].Kind == AccessKind::Store)
      B.Stores.NextOpen[PosStore[S]] = PosStore[S] + 1;
  };
  std::set<const Stmt *> NamedSeen;
  auto AfterPair = [&](unsigned SA, unsigned SB, uint64_t Key) {
    for (unsigned S : {SA, SB}) {
      // A statement newly named closes the sites it holds.
      if (Named.count(SiteStatement[S]) &&
          NamedSeen.insert(SiteStatement[S]).second)
        for (unsigned X : SitesOfStatement[SiteStatement[S]])
          if (SiteBucket[X] >= 0)
            TryClose(X, Key);
      TryClose(S, Key);
    }
  };

  std::vector<Pending> Deferred; // Benign and possible races.
  auto Take = [&](std::optional<Pending> P) {
    if (!P)
      return;
    if (P->Rank == 0)
      H.handlePair(P->R);
    if (counts(P->R))
      GroupCrossWarp[groupOf(P->R)] |= P->R.CrossWarp;
    if (P->Rank == 0)
      consider(P->R);
    else
      Deferred.push_back(std::move(*P));
  };
  uint64_t CutAt = Never; // The first pair not analysed for lack of probes.
  for (unsigned SA = 0; SA < NS && CutAt == Never; ++SA) {
    if (SiteBucket[SA] < 0)
      continue;
    Bucket &B = Buckets[SiteBucket[SA]];
    bool Store = Facts[SA].Kind == AccessKind::Store;
    Partners &P = Store ? B.All : B.Stores;
    unsigned Start =
        Store ? PosAll[SA]
              : unsigned(std::lower_bound(P.Sites.begin(), P.Sites.end(), SA) -
                         P.Sites.begin());
    // Across a skipped barrier closed sites still meet: step one by one.
    bool Skip = T.SkippedBarriers.empty();
    for (unsigned Pos = Start; Pos < P.Sites.size();
         Pos = Closed(SA) && Skip ? P.findOpen(Pos + 1) : Pos + 1) {
      unsigned SB = P.Sites[Pos];
      uint64_t Key = uint64_t(SA) * NS + SB;
      if (Probes > MaxProbesPerKernel) {
        CutAt = Key;
        break;
      }
      if ((Closed(SA) && Closed(SB) && OneSegment(SA, SB)) || !mayAlias(SA, SB))
        continue;
      ++Search.PairsAnalysed;
      Take(analysePair(SA, SB));
      AfterPair(SA, SB, Key);
    }
  }
  if (CutAt != Never) // Said, not silent: the handler reports the gap.
    H.handleCut(BI.instances(unsigned(CutAt / NS))[0], Search.PairsAnalysed);
  if (PinnedCutAt)
    H.handleGap(*PinnedCutAt,
                "this access in loop iterations past the first " +
                    std::to_string(MaxPinnedWalks) +
                    " re-walked ones not analysed for races",
                "re-walk budget reached");
  for (unsigned Rank : {1u, 2u})
    for (const Pending &P : Deferred)
      if (P.Rank == Rank)
        consider(P.R);

  // A finding names the block barrier when any report of its group needs
  // one. Reports of skipped pairs are missing from that: for a group still
  // within one warp, analyse the skipped pairs that can fall in it (a site
  // of the group's expression or loop against every other site).
  auto Skipped = [&](unsigned SA, unsigned SB) {
    uint64_t Key = uint64_t(SA) * NS + SB;
    return Key < CutAt && Key > ClosedAt[SA] && Key > ClosedAt[SB] &&
           Closed(SA) && Closed(SB) && OneSegment(SA, SB) &&
           SiteBucket[SA] == SiteBucket[SB] && mayAlias(SA, SB);
  };
  for (const Finding &F : Findings) {
    if (GroupCrossWarp[F.Group])
      continue;
    std::vector<unsigned> Touching;
    for (unsigned S = 0; S < NS; ++S) {
      const SharedAccess &A = T.Accesses[BI.instances(S)[0]];
      if (static_cast<const void *>(A.E) == F.Group ||
          llvm::is_contained(A.Loops, F.Group))
        Touching.push_back(S);
    }
    for (unsigned S : Touching)
      for (unsigned X = 0; X < NS && !GroupCrossWarp[F.Group]; ++X) {
        unsigned SA = std::min(S, X), SB = std::max(S, X);
        if (!Skipped(SA, SB))
          continue;
        ++Search.PairsAnalysed;
        std::optional<Pending> P = analysePair(SA, SB);
        if (P && counts(P->R) && groupOf(P->R) == F.Group)
          GroupCrossWarp[F.Group] |= P->R.CrossWarp;
      }
  }

  for (Finding &F : Findings) {
    F.R.CrossWarp = GroupCrossWarp[F.Group];
    suggestBarrier(F.R);
    H.handleRace(F.R);
  }
  if (NamedFallbackAt)
    H.handleGap(*NamedFallbackAt,
                "races between threads that named barriers order not "
                "analysed exactly (each 'bar.sync' with a count taken to "
                "order the whole block)",
                NB.why());
}

} // namespace race

void findRaces(ASTContext &Ctx, const KernelTrace &T,
               const AnalysisOptions &Opts, RaceHandler &Handler,
               RaceSearch *Search, ProgramCFGs *Graphs) {
  RaceSearch Default;
  race::RaceFinder(Ctx, T, Opts, Handler, Search ? *Search : Default, Graphs)
      .run();
}

void findRacesWith(ASTContext &Ctx, const KernelTrace &T,
                   const AnalysisOptions &Opts, RaceHandler &Handler,
                   RaceSearch &Search, std::vector<VirtualBarrierUse> Extra,
                   ProgramCFGs *Graphs) {
  race::RaceFinder(Ctx, T, Opts, Handler, Search, Graphs, std::move(Extra))
      .run();
}

} // namespace shmem
