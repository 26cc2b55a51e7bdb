//===- BarrierHoist.cpp - What a divergent __syncthreads() becomes --------===//
//
// See BarrierHoist.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierHoist.h"

#include "Analysis/NamedBarriers.h"
#include "Analysis/RaceAnalysis.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace shmem {
namespace divergent {
namespace {

/// PTX gives a block 16 named barriers; 0 is __syncthreads()'s.
constexpr int64_t NumBarrierIds = 16;

/// The racing pairs of one exhaustive analysis (every pair of sites, not
/// only those that could change a finding), by their expressions, with
/// the witness's words; gaps counted.
class RaceCollector : public RaceHandler {
public:
  RaceCollector(const KernelContext &K) : K(K) {}

  struct Race {
    const Expr *Earlier, *Later;
    std::string Words;
  };
  std::vector<Race> Races;
  unsigned Gaps = 0;

  void handleRace(const RaceReport &) override {}
  void handlePair(const RaceReport &R) override {
    if (R.K != RaceReport::Race)
      return;
    const SharedAccess &E = K.Trace.Accesses[R.Earlier.Access];
    const SharedAccess &L = K.Trace.Accesses[R.Later.Access];
    const SourceManager &SM = K.Ctx.getSourceManager();
    auto Line = [&](const SharedAccess &A) {
      return std::to_string(SM.getExpansionLineNumber(A.Loc));
    };
    auto Verb = [](const SharedAccess &A) {
      return A.Kind == AccessKind::Load ? "reads" : "writes";
    };
    std::string Words =
        K.Trace.Geometry.describeThread(R.Later.Thread) + " " + Verb(L) +
        " " + sharedElementName(K.Ctx, L, R.Later.Offset) + " (line " +
        Line(L) + ") while " +
        K.Trace.Geometry.describeThread(R.Earlier.Thread) + " " + Verb(E) +
        " it (line " + Line(E) + ")";
    Races.push_back({E.E, L.E, std::move(Words)});
  }
  void handleCut(unsigned, unsigned long long) override { ++Gaps; }
  void handleGap(unsigned, std::string, std::string) override { ++Gaps; }

private:
  const KernelContext &K;
};

/// The races of the trace with its events \p Events replaced by a barrier
/// of \p Threads (count: their number), against \p Baseline.
FixVerdict judge(const KernelContext &K, const RaceCollector &Baseline,
                 const std::vector<unsigned> &Events, int64_t Id,
                 const std::vector<char> &Threads) {
  KernelTrace WhatIf = K.Trace;
  std::vector<VirtualBarrierUse> Uses;
  int64_t Count = std::count(Threads.begin(), Threads.end(), 1);
  for (unsigned Ev : Events) {
    WhatIf.Barriers[Ev].Named = true;
    VirtualBarrierUse U;
    U.Id = Id;
    U.Count = Count;
    U.Threads = Threads;
    U.AtBarrier = Ev;
    Uses.push_back(std::move(U));
  }
  RaceCollector With(K);
  RaceSearch Search;
  Search.Exhaustive = true;
  findRacesWith(K.Ctx, WhatIf, K.Opts, With, Search, std::move(Uses),
                &K.Graphs);
  FixVerdict V;
  if (With.Gaps > Baseline.Gaps) {
    V.Unknown = true;
    return V;
  }
  std::set<std::pair<const Expr *, const Expr *>> Before;
  for (const RaceCollector::Race &R : Baseline.Races) {
    Before.insert({R.Earlier, R.Later});
    Before.insert({R.Later, R.Earlier});
  }
  std::set<std::pair<const Expr *, const Expr *>> After;
  for (const RaceCollector::Race &R : With.Races) {
    if (!Before.count({R.Earlier, R.Later})) {
      V.Race = R.Words;
      return V;
    }
    After.insert({R.Earlier, R.Later});
    After.insert({R.Later, R.Earlier});
  }
  V.Holds = true;
  for (const RaceCollector::Race &R : Baseline.Races)
    if (!After.count({R.Earlier, R.Later})) {
      if (V.Orders.empty())
        V.FirstOrdered = R.Words;
      V.Orders.insert({R.Earlier, R.Later});
    }
  return V;
}

bool wholeWarps(const std::vector<char> &In, const ThreadGeometry &G) {
  for (unsigned W = 0; W < G.warps(); ++W)
    for (unsigned Th = G.warpBegin(W) + 1; Th < G.warpEnd(W); ++Th)
      if (In[Th] != In[G.warpBegin(W)])
        return false;
  return true;
}

} // namespace

HoistWhatIf hoistWhatIf(const KernelContext &K,
                        const std::vector<unsigned> &Events,
                        const std::vector<char> &Active) {
  HoistWhatIf Out;
  const ThreadGeometry &G = K.Trace.Geometry;
  unsigned N = G.threads();
  RaceCollector Baseline(K);
  RaceSearch Search;
  Search.Exhaustive = true;
  findRacesWith(K.Ctx, K.Trace, K.Opts, Baseline, Search, {}, &K.Graphs);

  // Hoisted: every thread that has not exited waits there (ids past the
  // 16 a kernel can use stand for the what-if's barriers).
  std::vector<char> Alive(N, 1);
  bool AnyExited = false;
  for (unsigned Ev : Events) {
    const BarrierEvent &B = K.Trace.Barriers[Ev];
    for (unsigned Th = 0; Th < N && Th < B.Exited.size(); ++Th)
      if (B.Exited[Th]) {
        Alive[Th] = 0;
        AnyExited = true;
      }
  }
  Out.Split = judge(K, Baseline, Events, int64_t(1) << 20, Alive);

  // Named: the threads that reach it, when each event has them all and
  // they are whole warps (a bar.sync counts warps).
  if (AnyExited || !wholeWarps(Active, G))
    return Out;
  for (unsigned Ev : Events)
    if (K.Trace.Barriers[Ev].Active != Active)
      return Out;
  NamedBarriers Existing(K.Trace);
  for (int64_t Id = 1; Id < NumBarrierIds && !Out.NamedId; ++Id)
    if (!llvm::is_contained(Existing.idsUsed(), Id))
      Out.NamedId = Id;
  if (!Out.NamedId)
    return Out;
  Out.NamedCount = std::count(Active.begin(), Active.end(), 1);
  Out.Named = judge(K, Baseline, Events, *Out.NamedId, Active);
  return Out;
}

} // namespace divergent
} // namespace shmem
