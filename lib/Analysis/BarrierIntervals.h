//===- BarrierIntervals.h - Which accesses may run together -----*- C++ -*-===//
//
// Two threads of a block can touch shared memory at the same time only
// between the same two barriers. This analysis says, for two accesses of a
// KernelTrace, whether some execution puts them in one barrier interval and,
// for each loop around them, how their iterations then relate ("the same
// iteration", "the second one iteration later", "any").
//
// It runs on clang::CFG, not on the walker's program order. The kernel's CFG
// and, at every call site the walker inlined, the callee's CFG are joined
// into one graph (one copy per call context). Nodes are runs of CFG elements
// with no barrier and no inlined call, barrier nodes and call nodes. A
// forward dataflow to a fixpoint then carries "tags": a tag starts at a node
// holding accesses (or on a branch edge where threads may split) and
// flows along edges until a barrier stops it. Crossing a loop's back edge,
// leaving or re-entering a loop is counted in the tag, so an access reached
// through a back edge is known to be in the next iteration. Two accesses A
// and B are concurrent when
//   - they are in one node (same iteration of every loop), or
//   - a tag from A's node reaches B (B after A, in the iterations the tag
//     says), or from B's node reaches A, or
//   - tags from two different successors of one branch that splits threads
//     reach A and B (threads that took different sides).
// A branch whose condition the walker found uniform (the same in every
// active thread) never splits threads, so `for (i = 0; i < n; ++i)` does not
// make the code after the loop concurrent with the next iteration's body.
//
// Paths no thread takes are left out, from what the walker saw in each call
// context (KernelTrace::Branches, LoopFacts), only where it saw it exactly
// and the function has no goto: the side of a branch no active thread ever
// took (`if (blockDim.x > 32) __syncthreads();` with 256 threads) has no
// edge; a tag that entered a loop does not leave through the condition's
// false edge at the first test when that test holds in every thread
// (`for (d = blockDim.x; d > 0; d >>= 1)`), nor at another test than the
// one every thread leaves at when the trip count is known; and a tag that
// leaves through the condition one back edge after its source says the
// source was in the last iteration (IterState::Last), which the loop
// relation then requires of that access. In a loop the walker unrolled, a
// branch's side taken in some iterations only (`if (k < n-1)
// __syncthreads();`) passes a tag only from those: the tag narrows its
// source's iterations (Crossing's Source mask, the relation's MaskA/MaskB)
// and dies when none is left. A tag forgets a loop it leaves
// otherwise: the access it reaches outside is in no iteration of it, and
// entering again starts a fresh instance, so the state could only tell
// apart tags that mean the same (their number grew with every state of
// every loop passed through: 5 million tags in one ggml kernel).
//
// A tag that crossed no loop edge is only its source; those are kept as
// sparse bit vectors per node, so that a long barrier-free run, where every
// source reaches every later node, costs bits rather than objects. Block
// barriers cut the graph into barrier-free regions (region()); sites of two
// regions are never concurrent, which lets a caller pair sites per region,
// and a tag never leaves its region, so the flow runs one region at a time,
// the first time a pair in it is asked about: on ggml's flash-attention
// kernels, with a barrier every few dozen lines, the regions no pair of
// accesses reaches were most of the flow's cost.
//
// Barriers: block barriers always stop tags. __syncwarp() only orders lanes
// of one warp that its mask names, and a named barrier with a count
// (BarrierEvent::Named) only the threads it gathers (NamedBarriers), so
// concurrency can be asked for with a set of such barriers that also count
// (the warp barriers covering a given lane pair; every named barrier, where
// the named barriers are not modelled exactly).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_BARRIERINTERVALS_H
#define SHMEM_LINT_ANALYSIS_BARRIERINTERVALS_H

#include "KernelTrace.h"
#include "Program/KernelCFG.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/SparseBitVector.h"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

namespace shmem {

/// Where an access is in one loop, counted from the start of the tag that
/// reached it.
enum class IterState : uint8_t {
  Rel0, ///< The iteration the tag started in (the tag started in the loop).
  Rel1, ///< One back edge later.
  Abs0, ///< The tag entered the loop: its first iteration.
  Abs1, ///< The second iteration after the tag entered the loop.
  Any,  ///< Any iteration (more back edges, or the loop was re-entered).
  /// The tag left the loop through its condition one back edge after its
  /// source, and the walker knows the test at which threads leave: the
  /// source was in the loop's last iteration (the reached access is after
  /// the loop, in any iteration for the rest).
  Last,
};

/// How the iterations of the two accesses of a pair relate in one loop
/// around at least one of them.
struct LoopRelation {
  unsigned Loop = 0; ///< Index into BarrierIntervals::loop().
  bool InA = false, InB = false;
  IterState A = IterState::Rel0, B = IterState::Rel0;
  /// The one iteration A (B) can be in, when the path between the two
  /// leaves the loop through its condition after that access and the
  /// walker knows the trip count; -1: no such constraint.
  int64_t OnlyA = -1, OnlyB = -1;
  /// The iterations A (B) can be in (bit k: iteration k), when the path
  /// between the two takes a branch's side that the walker saw taken in
  /// some iterations of an unrolled loop only.
  uint64_t MaskA = ~uint64_t(0), MaskB = ~uint64_t(0);

  /// Whether iteration \p KA of A and \p KB of B fit this relation (-1:
  /// that access's iteration is not being asked about).
  bool admits(int64_t KA, int64_t KB) const;
};

/// One way two accesses can be in one barrier interval.
struct Concurrency {
  /// One entry per loop around either access, sorted by loop.
  std::vector<LoopRelation> Loops;
  /// B runs after A on one thread's path (A's tag reached B), or A after B;
  /// neither when they are in one node or on two sides of a branch.
  enum Ordering { AThenB, BThenA, Unordered };
  Ordering Order = Unordered;
};

class BarrierIntervals {
public:
  /// \p Graphs, when given, supplies the functions' CFGs (shared with the
  /// other analyses of the translation unit); else they are built here.
  BarrierIntervals(clang::ASTContext &Ctx, const KernelTrace &T,
                   ProgramCFGs *Graphs = nullptr);
  ~BarrierIntervals();

  /// False when some barrier of the trace could not be placed in the CFG:
  /// every answer would then be suspect.
  bool valid() const { return Valid; }

  /// A site is a program point of the trace: the accesses with one
  /// expression, kind and call stack (an unrolled loop gives a site several
  /// instances, one per iteration).
  unsigned numSites() const { return Sites.size(); }
  unsigned siteOf(unsigned Access) const { return SiteOfAccess[Access]; }
  const std::vector<unsigned> &instances(unsigned Site) const {
    return Sites[Site].Instances;
  }
  /// Whether the site was found in the CFG (only those are ever concurrent).
  bool placed(unsigned Site) const { return Sites[Site].Node >= 0; }
  /// The barrier-free region of a placed site: the part of the kernel's
  /// graph around it that block barriers cut out. Sites of two regions are
  /// never concurrent (concurrency() is empty for them), so callers can
  /// pair sites within regions only.
  unsigned region(unsigned Site) const { return Sites[Site].Region; }
  /// The loops around the site, parallel to SharedAccess::Loops; -1 for a
  /// loop with no back edge in the CFG (it never iterates).
  const std::vector<int> &siteLoops(unsigned Site) const {
    return Sites[Site].Loops;
  }

  struct LoopInfo {
    const clang::Stmt *Loop = nullptr;
    unsigned Context = 0;
    /// From the walker (KernelTrace::LoopFacts), when exact: no thread
    /// leaves the loop at the first test; the test at which every thread
    /// leaving through the condition does (-1: unknown).
    bool FirstTestHolds = false;
    int64_t Trips = -1;
  };
  unsigned numLoops() const { return Loops.size(); }
  const LoopInfo &loop(unsigned I) const { return Loops[I].Info; }

  /// Barrier sites: the distinct barriers of the trace, by call and context.
  unsigned numBarrierSites() const { return BarrierSites.size(); }
  unsigned barrierSiteOf(unsigned Barrier) const {
    return BarrierSiteOfEvent[Barrier];
  }
  /// The trace's barrier events at that site (one per unrolled iteration).
  const std::vector<unsigned> &barrierInstances(unsigned Site) const {
    return BarrierSites[Site].Instances;
  }

  /// The ways sites \p A and \p B may run in one barrier interval, when
  /// block barriers and the warp barrier sites in \p CountingWarpBarriers
  /// (indexed by barrier site) order them. Empty when they never do.
  std::vector<Concurrency>
  concurrency(unsigned A, unsigned B,
              const std::vector<bool> &CountingWarpBarriers);
  /// The same with no warp barrier counting (threads of different warps).
  std::vector<Concurrency> concurrency(unsigned A, unsigned B) {
    return concurrency(A, B, NoWarpBarriers);
  }

private:
  struct Graph;
  struct Flow;
  struct SiteInfo {
    std::vector<unsigned> Instances;
    int Node = -1;
    unsigned Region = 0;
    std::vector<int> Loops;
  };
  struct BarrierSiteInfo {
    std::vector<unsigned> Instances;
    int Node = -1;
    /// Every instance is a block barrier (not a named one): the site stops
    /// every tag and bounds the barrier-free regions.
    bool Cuts = true;
  };
  struct LoopData {
    LoopInfo Info;
  };

  const KernelTrace &T;
  std::unique_ptr<ProgramCFGs> OwnGraphs;
  bool Valid = true;
  std::vector<SiteInfo> Sites;
  std::vector<unsigned> SiteOfAccess;
  std::vector<BarrierSiteInfo> BarrierSites;
  std::vector<unsigned> BarrierSiteOfEvent;
  std::vector<LoopData> Loops;
  std::vector<bool> NoWarpBarriers;
  std::unique_ptr<Graph> G;
  std::map<std::vector<bool>, std::unique_ptr<Flow>> Flows;
  /// flow(NoWarpBarriers), the one asked for with every pair of sites: kept
  /// apart so that it is not looked up by a key as long as the barrier list.
  Flow *NoWarpFlow = nullptr;
  /// Per branch node: the flow sources of its sides (built on first use).
  std::vector<std::vector<unsigned>> SourcesOfBranch;
  /// The sources started on branch edges (built with SourcesOfBranch).
  llvm::SparseBitVector<> BranchSources;
  /// concurrency() with no warp barrier counting, by (node of A, node of B,
  /// loops of A, loops of B): the answer depends on nothing else, and the
  /// sites of one node (every access of a straight run of code) share it.
  /// Without it a barrier-free kernel cost O(sites^2 x sources).
  std::map<std::tuple<int, int, std::vector<int>, std::vector<int>>,
           std::vector<Concurrency>>
      NoWarpAnswers;

  /// The flow with \p CountingWarpBarriers, run over \p Region (once).
  Flow &flow(const std::vector<bool> &CountingWarpBarriers, unsigned Region);
  void flowRegion(Flow &F, const std::vector<bool> &CountingWarpBarriers,
                  unsigned Region);
};

} // namespace shmem

#endif
