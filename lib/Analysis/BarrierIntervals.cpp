//===- BarrierIntervals.cpp - Which shared accesses may run together ------===//
//
// See BarrierIntervals.h. The graph is built once per trace
// (BarrierIntervalsGraph.cpp); the dataflow here is run once per set of
// counting warp barriers and barrier-free region that a query asks about.
//
//===----------------------------------------------------------------------===//

#include "BarrierIntervals.h"
#include "BarrierIntervalsInternal.h"

#include "FlatKeySet.h"

#include "clang/Analysis/CFG.h"

#include <deque>
#include <tuple>

using namespace clang;

namespace shmem {

bool LoopRelation::admits(int64_t KA, int64_t KB) const {
  auto IsAbs = [](IterState S) {
    return S == IterState::Abs0 || S == IterState::Abs1;
  };
  auto IsRel = [](IterState S) {
    return S == IterState::Rel0 || S == IterState::Rel1;
  };
  auto Index = [](IterState S) {
    return S == IterState::Abs1 || S == IterState::Rel1 ? 1 : 0;
  };
  bool KnownA = InA && KA >= 0, KnownB = InB && KB >= 0;
  if (KnownA && IsAbs(A) && KA != Index(A))
    return false;
  if (KnownB && IsAbs(B) && KB != Index(B))
    return false;
  if ((KnownA && OnlyA >= 0 && KA != OnlyA) ||
      (KnownB && OnlyB >= 0 && KB != OnlyB))
    return false;
  if ((KnownA && KA < 64 && !(MaskA >> KA & 1)) ||
      (KnownB && KB < 64 && !(MaskB >> KB & 1)))
    return false;
  // Relative states count from the iteration the tag started in, which the
  // two share only when both are in the loop.
  if (InA && InB && KnownA && KnownB && IsRel(A) && IsRel(B) &&
      KB - KA != Index(B) - Index(A))
    return false;
  return true;
}

using namespace intervals;

const std::vector<uint64_t> &
BarrierIntervals::Flow::crossed(unsigned Node,
                                const CrossingTable &Crossings) {
  if (!Indexed[Node]) {
    std::vector<uint64_t> &V = Sorted[Node];
    V.assign(In[Node].begin(), In[Node].end());
    std::sort(V.begin(), V.end(), [&](uint64_t X, uint64_t Y) {
      if (sourceOf(X) != sourceOf(Y))
        return sourceOf(X) < sourceOf(Y);
      return Crossings[crossingOf(X)] < Crossings[crossingOf(Y)];
    });
    Indexed[Node] = true;
  }
  return Sorted[Node];
}

void BarrierIntervals::Flow::tagsOf(unsigned Node, unsigned S,
                                    const CrossingTable &Crossings,
                                    std::vector<unsigned> &Out) {
  Out.clear();
  if (Plain[Node].test(S))
    Out.push_back(0);
  const std::vector<uint64_t> &C = crossed(Node, Crossings);
  for (auto It = std::lower_bound(C.begin(), C.end(), tag(S, 0),
                                  [](uint64_t X, uint64_t Key) {
                                    return sourceOf(X) < sourceOf(Key);
                                  });
       It != C.end() && sourceOf(*It) == S; ++It)
    Out.push_back(crossingOf(*It));
}

BarrierIntervals::~BarrierIntervals() = default;

int BarrierIntervals::Graph::cross(const Edge &E, unsigned C,
                                   const std::vector<LoopData> &Loops) {
  if (!E.transforms())
    return int(C);
  auto [It, New] = Transitions.try_emplace(uint64_t(E.Id) << 32 | C, -1);
  if (!New)
    return It->second;
  Crossing X = Crossings[C];
  if (E.GuardLoop >= 0) {
    // The branch is in the source's iteration (Rel0) or the next (Rel1),
    // or in the first or second iteration after the tag entered the loop.
    unsigned L = unsigned(E.GuardLoop);
    switch (X.get(L)) {
    case IterState::Rel0:
      if (!X.narrowSource(L, E.GuardIters))
        return -1;
      break;
    case IterState::Rel1:
      if (!X.narrowSource(L, E.GuardIters >> 1))
        return -1;
      break;
    case IterState::Abs0:
      if (!(E.GuardIters & 1))
        return -1;
      break;
    case IterState::Abs1:
      if (!(E.GuardIters & 2))
        return -1;
      break;
    default:
      break;
    }
  }
  bool Last = false;
  if (E.CondExit >= 0) {
    // Leaving through the condition at test k after entering (Abs0, Abs1),
    // or one back edge after the source (Rel1): see LoopInfo.
    const LoopInfo &LI = Loops[E.CondExit].Info;
    switch (X.get(unsigned(E.CondExit))) {
    case IterState::Abs0:
      if (LI.FirstTestHolds)
        return -1;
      break;
    case IterState::Abs1:
      if (LI.Trips >= 0 && LI.Trips != 1)
        return -1;
      break;
    case IterState::Rel1:
      Last = LI.Trips >= 1;
      break;
    default:
      break;
    }
  }
  for (const EdgeEvent &Ev : E.Events)
    X.apply(Ev);
  if (Last)
    X.set(unsigned(E.CondExit), IterState::Last);
  It->second = int(Crossings.intern(std::move(X)));
  return It->second;
}

BarrierIntervals::Flow &
BarrierIntervals::flow(const std::vector<bool> &Counting, unsigned Region) {
  Flow *F = &Counting == &NoWarpBarriers ? NoWarpFlow : nullptr;
  if (!F) {
    std::unique_ptr<Flow> &Slot = Flows[Counting];
    if (!Slot) {
      Slot = std::make_unique<Flow>();
      unsigned NN = G->Nodes.size();
      Slot->Plain.resize(NN);
      Slot->In.resize(NN);
      Slot->Sorted.resize(NN);
      Slot->Indexed.assign(NN, false);
      Slot->BranchAt.resize(NN);
    }
    F = Slot.get();
    if (&Counting == &NoWarpBarriers)
      NoWarpFlow = F;
  }
  if (F->Regions.insert(Region).second)
    flowRegion(*F, Counting, Region);
  return *F;
}

void BarrierIntervals::flowRegion(Flow &F, const std::vector<bool> &Counting,
                                  unsigned Region) {
  unsigned NN = G->Nodes.size();
  auto Stops = [&](const Graph::Node &N) {
    if (N.K != Graph::Node::Barrier)
      return false;
    return BarrierSites[N.BarrierSite].Cuts ||
           (size_t(N.BarrierSite) < Counting.size() && Counting[N.BarrierSite]);
  };
  // Each node forwards only the tags that arrived since it last ran (and,
  // on its first run, the tags it starts): the fixpoint is the same as
  // re-sending the whole In set, but resending it made a barrier-free
  // kernel cost O(nodes x tags) per pass instead of O(tags) in all.
  std::deque<unsigned> Work;
  std::vector<bool> Queued(NN, true), Started(NN, false);
  std::vector<Flow::Bits> FreshPlain(NN);
  std::vector<std::vector<uint64_t>> Fresh(NN);
  // Nodes first in reverse post-order, so that in code without loops each
  // node runs once, after all its predecessors (node numbers follow the
  // CFG's block numbers, which run backwards: a FIFO over them moved tags
  // one node per pass, O(nodes) passes over a straight run of code).
  // A tag never leaves its source's region (a block barrier stops it), so
  // the sources of one region flow alone: the tags at its nodes are those
  // of a flow of every source, and the regions no pair of accesses is
  // asked about cost nothing (most of a kernel with many barriers). The
  // crossings are listed by their content, not by when they were met
  // (Flow::crossed), so the order regions run in changes no answer.
  for (unsigned N : G->reversePostOrder())
    if (G->RegionOf[N] == Region)
      Work.push_back(N);
  while (!Work.empty()) {
    unsigned N = Work.front();
    Work.pop_front();
    Queued[N] = false;
    const Graph::Node &Node = G->Nodes[N];
    Flow::Bits OutPlain;
    std::swap(OutPlain, FreshPlain[N]);
    std::vector<uint64_t> Out;
    std::swap(Out, Fresh[N]);
    if (Stops(Node))
      continue;
    bool First = !Started[N];
    Started[N] = true;
    if (First && Node.Source >= 0)
      OutPlain.set(unsigned(Node.Source));
    for (const Graph::Edge &E : Node.Succs) {
      bool Changed = false;
      // The tags sent along one edge share a few crossings (every plain
      // tag has the empty one): the last transition is kept at hand
      // rather than looked up again for each.
      unsigned LastC = ~0u;
      int LastTo = -1;
      auto Send = [&](unsigned S, unsigned C) {
        if (C != LastC) {
          LastC = C;
          LastTo = G->cross(E, C, Loops);
        }
        int To = LastTo;
        if (To < 0)
          return;
        if (To == 0) {
          // Back to no crossing (it left every loop it entered): a plain
          // tag, as if it had crossed nothing.
          if (!F.Plain[E.To].test_and_set(S))
            return;
          FreshPlain[E.To].set(S);
        } else {
          if (!F.In[E.To].insert(tag(S, unsigned(To))).second)
            return;
          Fresh[E.To].push_back(tag(S, unsigned(To)));
        }
        Changed = true;
      };
      const Flow::Bits *Plain = &OutPlain;
      Flow::Bits WithEdge;
      if (First && E.Source >= 0) {
        WithEdge = OutPlain;
        WithEdge.set(unsigned(E.Source));
        Plain = &WithEdge;
      }
      if (!E.transforms()) {
        // Plain tags stay plain: forward the bits the target lacks.
        Flow::Bits New;
        New.intersectWithComplement(*Plain, F.Plain[E.To]);
        if (!New.empty()) {
          F.Plain[E.To] |= New;
          FreshPlain[E.To] |= New;
          Changed = true;
        }
      } else {
        for (unsigned S : *Plain)
          Send(S, 0);
      }
      for (uint64_t Tg : Out)
        Send(sourceOf(Tg), crossingOf(Tg));
      if (Changed && !Queued[E.To]) {
        Queued[E.To] = true;
        Work.push_back(E.To);
      }
    }
  }
}

std::vector<Concurrency>
BarrierIntervals::concurrency(unsigned A, unsigned B,
                              const std::vector<bool> &Counting) {
  std::vector<Concurrency> Out;
  if (!Valid || Sites[A].Node < 0 || Sites[B].Node < 0)
    return Out;
  std::vector<Concurrency> *Memo = nullptr;
  if (&Counting == &NoWarpBarriers) {
    auto [It, New] = NoWarpAnswers.try_emplace(
        {Sites[A].Node, Sites[B].Node, Sites[A].Loops, Sites[B].Loops});
    if (!New)
      return It->second;
    Memo = &It->second;
  }
  unsigned NA = Sites[A].Node, NB = Sites[B].Node;
  flow(Counting, G->RegionOf[NB]);
  Flow &F = flow(Counting, G->RegionOf[NA]);

  std::vector<unsigned> LoopsA, LoopsB, All;
  for (int L : Sites[A].Loops)
    if (L >= 0)
      LoopsA.push_back(L);
  for (int L : Sites[B].Loops)
    if (L >= 0)
      LoopsB.push_back(L);
  All = LoopsA;
  All.insert(All.end(), LoopsB.begin(), LoopsB.end());
  std::sort(All.begin(), All.end());
  All.erase(std::unique(All.begin(), All.end()), All.end());

  // The alternatives found so far, by their loop relations as the tags
  // give them and the ordering (loop, A, B, MaskA, MaskB per loop, then
  // the ordering): a pair of sites in ggml's mmq meets thousands of pairs
  // of tags that give a few hundred alternatives.
  FlatKeySet Seen;
  std::vector<uint64_t> Key;
  std::vector<LoopRelation> Rels;
  std::vector<char> InA(All.size()), InB(All.size());
  for (unsigned I = 0; I < All.size(); ++I) {
    InA[I] = llvm::is_contained(LoopsA, All[I]);
    InB[I] = llvm::is_contained(LoopsB, All[I]);
  }
  // A tag as an alternative reads it: per loop of All, its state and its
  // source's iterations (Crossing::get and ::source), two words each.
  auto Add = [&](const uint64_t *TA, const uint64_t *TB,
                 Concurrency::Ordering O) {
    Key.clear();
    Rels.clear();
    for (unsigned I = 0; I < All.size(); ++I) {
      unsigned L = All[I];
      LoopRelation R;
      R.Loop = L;
      R.InA = InA[I];
      R.InB = InB[I];
      R.A = TA ? IterState(TA[2 * I]) : IterState::Rel0;
      R.B = TB ? IterState(TB[2 * I]) : IterState::Rel0;
      // The iterations a tag's branches left its source: A's or B's when
      // it is the other's tag; with two branch tags, the branch's, from
      // which each access is Rel0 or Rel1.
      auto Shifted = [](uint64_t M, IterState S) -> uint64_t {
        if (S == IterState::Rel0)
          return M;
        return S == IterState::Rel1 ? M << 1 : ~uint64_t(0);
      };
      if (!TA && TB)
        R.MaskA = TB[2 * I + 1];
      else if (TA && !TB)
        R.MaskB = TA[2 * I + 1];
      else if (TA && TB) {
        uint64_t M = TA[2 * I + 1] & TB[2 * I + 1];
        if (M != ~uint64_t(0)) {
          R.MaskA = Shifted(M, R.A);
          R.MaskB = Shifted(M, R.B);
        }
      }
      Key.push_back(L);
      Key.push_back(uint64_t(R.A));
      Key.push_back(uint64_t(R.B));
      Key.push_back(R.MaskA);
      Key.push_back(R.MaskB);
      // One side's tag left the loop after the source's last iteration:
      // the other side, in the source's iteration or the next, is fixed
      // (the source is that side itself, or the branch both tags start at).
      auto Fix = [&](IterState S) -> int64_t {
        if (S != IterState::Rel0 && S != IterState::Rel1)
          return -1;
        return Loops[L].Info.Trips - 1 + (S == IterState::Rel1);
      };
      if (R.B == IterState::Last)
        R.OnlyA = Fix(R.A);
      if (R.A == IterState::Last)
        R.OnlyB = Fix(R.B);
      if (R.A == IterState::Last)
        R.A = IterState::Any;
      if (R.B == IterState::Last)
        R.B = IterState::Any;
      Rels.push_back(R);
    }
    Key.push_back(uint64_t(O));
    if (!Seen.insert(Key))
      return;
    Concurrency C;
    C.Order = O;
    C.Loops = Rels;
    Out.push_back(std::move(C));
  };

  const CrossingTable &X = G->Crossings;
  // An alternative reads a tag only through its state and source in the
  // loops around A or B: of the tags that agree there, the first stands
  // for all. Pairs of representatives come in the order their first pair
  // of tags did, so the alternatives come out as before, and a pair of
  // sites with thousands of pairs of tags (ggml's mmq) asks a few.
  // Distinct() leaves the representatives' projections (what Add reads)
  // one after another in Projs, 2 x |All| words each.
  const size_t Width = 2 * All.size();
  std::vector<uint64_t> Proj;
  auto Distinct = [&](const std::vector<unsigned> &Tags,
                      std::vector<uint64_t> &Projs) {
    Projs.clear();
    FlatKeySet Kept;
    for (unsigned C : Tags) {
      Proj.clear();
      for (unsigned L : All) {
        Proj.push_back(uint64_t(X[C].get(L)));
        Proj.push_back(X[C].source(L));
      }
      if (Kept.insert(Proj))
        Projs.insert(Projs.end(), Proj.begin(), Proj.end());
    }
    return Width ? Projs.size() / Width : std::min<size_t>(Tags.size(), 1);
  };

  if (NA == NB)
    Add(nullptr, nullptr, Concurrency::Unordered);
  std::vector<unsigned> TagsA, TagsB;
  std::vector<uint64_t> ProjsA, ProjsB;
  if (G->Nodes[NA].Source >= 0) {
    F.tagsOf(NB, G->Nodes[NA].Source, X, TagsB);
    for (size_t K = 0, N = Distinct(TagsB, ProjsB); K < N; ++K)
      Add(nullptr, ProjsB.data() + K * Width, Concurrency::AThenB);
  }
  if (G->Nodes[NB].Source >= 0) {
    F.tagsOf(NA, G->Nodes[NB].Source, X, TagsA);
    for (size_t K = 0, N = Distinct(TagsA, ProjsA); K < N; ++K)
      Add(ProjsA.data() + K * Width, nullptr, Concurrency::BThenA);
  }
  // Two sides of one branch that splits threads. The other sides of A's
  // branch are looked up in B's tags (the scan of every pair of tags was
  // O(|AtA| x |AtB|) per pair of sites).
  if (SourcesOfBranch.empty() && !G->SourceBranch.empty()) {
    SourcesOfBranch.resize(G->Nodes.size());
    for (unsigned S = 0; S < G->SourceBranch.size(); ++S)
      if (G->SourceBranch[S] >= 0) {
        SourcesOfBranch[G->SourceBranch[S]].push_back(S);
        BranchSources.set(S);
      }
  }
  // Outside every loop, all the pairs found here give one answer
  // (Unordered, no loop relation): stop at the first.
  bool OneAnswer = All.empty();
  bool Found = false;
  // The branch sources at A, in source order.
  std::unique_ptr<Flow::Bits> &BranchAtA = F.BranchAt[NA];
  if (!BranchAtA) {
    BranchAtA = std::make_unique<Flow::Bits>(F.Plain[NA]);
    *BranchAtA &= BranchSources;
    for (uint64_t Tg : F.crossed(NA, X))
      if (G->SourceBranch[sourceOf(Tg)] >= 0)
        BranchAtA->set(sourceOf(Tg));
  }
  // Sources of one branch often give the same representatives: a pair of
  // lists met before adds nothing (every key it gives is in Seen, and it
  // set Found), so it is skipped by the lists' numbers. fattn-mma, once
  // its half2 tile stores were walked, built 2.0 M keys here for 0.28 M
  // alternatives.
  std::map<std::vector<uint64_t>, unsigned> ListIds;
  auto ListId = [&](const std::vector<uint64_t> &Projs) {
    return ListIds.try_emplace(Projs, unsigned(ListIds.size())).first->second;
  };
  std::set<std::pair<unsigned, unsigned>> ListPairs;
  for (unsigned SA : *BranchAtA) {
    if (OneAnswer && Found)
      break;
    int XA = G->SourceBranch[SA];
    F.tagsOf(NA, SA, X, TagsA);
    size_t NumA = Distinct(TagsA, ProjsA);
    unsigned IdA = ListId(ProjsA);
    for (unsigned SB : SourcesOfBranch[XA]) {
      if (G->SourceSide[SB] == G->SourceSide[SA])
        continue;
      F.tagsOf(NB, SB, X, TagsB);
      size_t NumB = Distinct(TagsB, ProjsB);
      if (NumA && NumB && !ListPairs.insert({IdA, ListId(ProjsB)}).second)
        continue;
      for (size_t KA = 0; KA < NumA; ++KA)
        for (size_t KB = 0; KB < NumB; ++KB) {
          Add(ProjsA.data() + KA * Width, ProjsB.data() + KB * Width,
              Concurrency::Unordered);
          Found = true;
        }
      if (OneAnswer && Found)
        break;
    }
  }
  if (Memo)
    *Memo = Out;
  return Out;
}

} // namespace shmem
