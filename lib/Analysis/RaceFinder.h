//===- RaceFinder.h - State of one kernel shape's race search ---*- C++ -*-===//
//
// Private to the race analysis (RaceAnalysis.h). RaceFinder holds what one
// kernel trace's race search knows; its methods are in one file per job:
//  - RaceAnalysis.cpp: the search over pairs of sites, its pruning, and the
//    grouping of reports into findings;
//  - RaceEvaluation.cpp: the facts fixed about each site and every
//    thread's byte offsets of an access instance, re-walking the kernel
//    with loop iterations pinned where the address needs it;
//  - RaceOrdering.cpp: which loop iterations and which lanes of a warp the
//    barrier intervals let two accesses meet in, which pairs of threads a
//    __syncwarp() or a named barrier orders, and which side of a witness is
//    the later one;
//  - RaceWitness.cpp: the scan of one pair of sites for two threads whose
//    byte ranges overlap;
//  - RaceEvidence.cpp: what makes a collision benign (the same value
//    stored or read back) and what a data-dependent address must show to
//    be claimed;
//  - RaceFixes.cpp: the named barrier a race between two warp roles needs,
//    checked by analysing the pair again with it.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_RACEFINDER_H
#define SHMEM_LINT_ANALYSIS_RACEFINDER_H

#include "RaceAnalysis.h"

#include "BarrierIntervals.h"
#include "NamedBarriers.h"
#include "PinnedWalks.h"
#include "Program/CallContexts.h"
#include "Uniformity.h"

#include "clang/AST/ParentMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace shmem {
namespace race {

using clang::ASTContext;
using clang::CallExpr;
using clang::Expr;
using clang::FunctionDecl;
using clang::ParentMap;
using clang::Stmt;
using clang::ValueDecl;

/// Unknowns other than loop iterations (kernel parameters, blockIdx, values
/// loaded from uniform addresses) take the same value on both sides of a
/// pair: a large one, a different one per unknown, so that no two threads
/// collide by the accident of an unknown being 0. A race that needs a
/// particular value of a parameter is not claimed.
constexpr int64_t GenericStep = int64_t(1) << 24;
/// A variable a loop changes in ways the walker could not follow has an
/// unrelated value in another iteration: keep iterations far apart.
constexpr int64_t IterationSpread = int64_t(1) << 36;
/// Iterations tried for a loop walked symbolically: the first
/// MaxKnownIterations when the trip count is known (a loop too long to
/// unroll), else the first WindowIterations + 1 (enough for `k & 1`, `k % 4`
/// and a next iteration).
constexpr unsigned MaxKnownIterations = 8;
constexpr unsigned WindowIterations = 4;
/// Bounds on the work for one kernel shape.
constexpr unsigned MaxScansPerPair = 4096;
constexpr uint64_t MaxProbesPerKernel = uint64_t(64) << 20;
constexpr unsigned MaxPinnedWalks = 48;
constexpr int64_t MaxFlatSpan = int64_t(1) << 20;
constexpr unsigned MaxCachedTables = 4096;

/// Iterations of loops walked symbolically, by loop statement.
using Assignment = PinnedLoops;

/// An instance evaluated for every thread of the block.
struct Eval {
  enum Status { Ok, Missing, Unknown } S = Ok;
  std::string Reason;
  std::vector<int64_t> Off;
  std::vector<char> Active;
  bool ActiveApprox = false;
  std::vector<int64_t> Stored;
  std::vector<char> StoredKnown;
  int64_t Min = INT64_MAX, Max = INT64_MIN;
  unsigned Count = 0;
  unsigned Width = 4;
  /// The largest power of two (up to 16) dividing every active offset.
  int64_t Align = 16;
  /// For an Unknown address known modulo Mod (LaneValue::residueModulus()):
  /// each thread's offset modulo Mod.
  int64_t Mod = 0;
  std::vector<int64_t> Res;
};

/// The threads of one evaluated access by granule of bytes (hashed byte
/// ranges): for each granule the first thread touching it, the first from
/// another warp and a second one from the first one's warp, which is all a
/// probe needs to find a partner other than itself, in or out of its warp.
struct GranuleTable {
  struct Slot {
    int32_t T1 = -1, T2 = -1, T3 = -1;
  };
  int64_t Gr = 1, Lo = 0, Hi = -1;
  bool Flat = true;
  std::vector<Slot> FlatSlots;
  std::unordered_map<int64_t, Slot> HashSlots;

  static int64_t floorDiv(int64_t X, int64_t D) {
    return X >= 0 ? X / D : -((-X + D - 1) / D);
  }
  const Slot *at(int64_t J) const {
    if (Flat)
      return J < Lo || J > Hi ? nullptr : &FlatSlots[J - Lo];
    auto It = HashSlots.find(J);
    return It == HashSlots.end() ? nullptr : &It->second;
  }
};

/// What is fixed about a site for the whole analysis.
struct SiteFacts {
  const ValueDecl *Base = nullptr;
  bool Dynamic = false;
  AccessKind Kind = AccessKind::Load;
  /// Loops walked symbolically whose iteration the address (or stored
  /// value) depends on.
  std::vector<const Stmt *> DepLoops;
  /// Evaluating an iteration needs a pinned re-walk (the dependence is not
  /// an affine term of the iteration unknown).
  bool NeedsWalk = false;
  /// For stores of a constant (`flag = 1.0f`): the constant, spelled.
  std::optional<std::string> ConstantStored;
};

/// What the uniformity analysis says of a site, asked on first need.
struct SiteValues {
  bool Known = false;
  /// For `x = v`: which threads storing in one instance agree on v: the
  /// lane offsets and whether lane l holds one value in every warp
  /// (UniformityValue::laneXor(), warpInvariant()).
  uint32_t StoredLaneXor = 1;
  bool StoredWarpInvariant = false;
  /// How widely they agree on the address.
  UniformityLevel Address = UniformityLevel::Varying;
};

/// The iterations of one side of a combination, by global loop index
/// (BarrierIntervals::loop); a loop not listed is not fixed. A side is in a
/// handful of loops, and the race check builds one of these for every
/// instance of a pair of sites: a sorted inline vector, where a std::map
/// allocated a node per loop each time.
class SideIters {
public:
  using Entry = std::pair<unsigned, int64_t>;
  using const_iterator = const Entry *;
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  const_iterator find(unsigned Loop) const {
    for (const Entry &E : Entries)
      if (E.first == Loop)
        return &E;
    return end();
  }
  /// The entry of \p Loop, added (0) when missing.
  int64_t &operator[](unsigned Loop) {
    auto It = std::lower_bound(
        Entries.begin(), Entries.end(), Loop,
        [](const Entry &E, unsigned L) { return E.first < L; });
    if (It == Entries.end() || It->first != Loop)
      It = Entries.insert(It, Entry{Loop, 0});
    return It->second;
  }

private:
  llvm::SmallVector<Entry, 4> Entries;
};

struct Witness {
  bool Found = false;
  /// Only a misused named barrier leaves the two threads unordered.
  bool Misused = false;
  unsigned TA = 0, TB = 0;
  unsigned IA = 0, IB = 0;
  Assignment AsgA, AsgB;
  int64_t OffA = 0, OffB = 0;
  const Concurrency *Alt = nullptr;
};

class RaceFinder {
public:
  /// \p Extra: barriers the trace does not hold, ordered as named ones.
  RaceFinder(ASTContext &Ctx, const KernelTrace &T, const AnalysisOptions &Opts,
             RaceHandler &H, RaceSearch &Search, ProgramCFGs *Graphs,
             std::vector<VirtualBarrierUse> Extra = {})
      : Ctx(Ctx), T(T), Opts(Opts), H(H), Search(Search), Graphs(Graphs),
        BI(Ctx, T, Graphs), NB(T, std::move(Extra)),
        Pinned(Ctx, T, Opts, MaxPinnedWalks), G(T.Geometry), N(G.threads()),
        WS(G.warpSize()) {}

  void run();

private:
  ASTContext &Ctx;
  const KernelTrace &T;
  const AnalysisOptions &Opts;
  RaceHandler &H;
  RaceSearch &Search;
  /// The translation unit's CFGs (null: each analysis builds its own).
  ProgramCFGs *Graphs;
  BarrierIntervals BI;
  /// The named barriers' generations, and the one pairs are ordered with
  /// (NB, or a what-if of a suggested fix).
  NamedBarriers NB;
  const NamedBarriers *Order = &NB;
  /// The order NB's barriers would give used as meant (built when some
  /// group is miscounted): what a misused barrier fails to order.
  std::unique_ptr<NamedBarriers> Intended;
  bool IntendedBuilt = false;
  const NamedBarriers *intended();
  /// Re-walks with symbolic loops pinned (eval), at most MaxPinnedWalks.
  PinnedWalks Pinned;
  const ThreadGeometry &G;
  unsigned N, WS;

  std::vector<SiteFacts> Facts;
  std::vector<SiteValues> Values;
  /// The one authority on which threads agree on a value (Uniformity.h),
  /// built when a pair first needs it.
  std::unique_ptr<UniformityAnalysis> UA;
  std::map<const Stmt *, SymbolId> IterSymbol;
  std::map<SymbolKey, int64_t> Generic;
  std::map<std::pair<unsigned, Assignment>, Eval> Evals;
  std::map<std::tuple<std::vector<bool>, unsigned, unsigned>,
           std::vector<Concurrency>>
      WarpAlts;
  std::map<const FunctionDecl *, std::unique_ptr<ParentMap>> Parents;
  uint64_t Probes = 0;
  /// The first access evaluated in an iteration past MaxPinnedWalks (its
  /// address then unknown, its pairs unjudged); said after the search.
  std::optional<unsigned> PinnedCutAt;
  /// The first access of a pair that only the fallback for named barriers
  /// not modelled (each taken as a block barrier) ordered; said after.
  std::optional<unsigned> NamedFallbackAt;

  struct Pending {
    RaceReport R;
    unsigned Rank; // 0: race, 1: benign, 2: possible.
  };

  /// Per site: its instances evaluated with no symbolic iteration pinned.
  std::vector<unsigned> PlainEvals;
  /// Per site: the statement its accesses are part of (findings are
  /// grouped by statement).
  std::vector<const Stmt *> SiteStatement;

  // The grouping of reports into findings (see run()) ----------------------

  /// Statements already part of a finding, groups already reported.
  std::set<const Stmt *> Named;
  std::set<const void *> Groups;
  /// Per group: some report in it has threads of two warps.
  std::map<const void *, bool> GroupCrossWarp;
  struct Finding {
    RaceReport R;
    const void *Group;
  };
  std::vector<Finding> Findings;

  const void *groupOf(const RaceReport &R) const {
    if (R.CarriedBy)
      return R.CarriedBy;
    return T.Accesses[R.Earlier.Access].E;
  }
  bool counts(const RaceReport &R) const {
    return R.K != RaceReport::Benign || Opts.ReportBenign;
  }
  /// How many of the barriers the walk met with no thread running them
  /// (KernelTrace::SkippedBarriers, in program order: `if (nwarps > 1)
  /// __syncthreads();` with one warp) come before program point \p Seq. A
  /// race across one of them wants that barrier, not the one a finding
  /// already asks for: it is no link of that finding's chain.
  unsigned segmentOf(unsigned Seq) const;
  /// The first of them between \p R's accesses, if any.
  const KernelTrace::SkippedBarrier *skippedBetween(const RaceReport &R) const;
  /// One report, in the order findings are chosen: a new finding unless it
  /// joins one already made.
  void consider(const RaceReport &R);

  // Facts -----------------------------------------------------------------

  int64_t generic(const SymbolInfo &I);

  const ParentMap &parents(const FunctionDecl *F);
  /// The function whose body holds access \p A: the kernel, or the
  /// definition its innermost call reaches (null without one).
  const FunctionDecl *functionOf(const SharedAccess &A) const {
    return A.CallStack.empty() ? T.Kernel
                               : calleeDefinition(A.CallStack.back());
  }

  /// `x = <constant>`: the constant, so stores of one float literal by
  /// every thread are recognised as storing the same value.
  std::optional<std::string> constantStored(const SharedAccess &A);
  /// \p E's value when the compiler can tell it, whatever thread runs it
  /// (a constant, or a vector of constants), as text to compare.
  std::optional<std::string> constantValue(const clang::Expr *E);

  /// The uniformity of site \p S's stored value and address, in the
  /// calling context the walker reached it in.
  const SiteValues &values(unsigned S);

  /// Every loop around both accesses of \p C is in the same iteration for
  /// the two threads: they run the same instance of what is in both.
  static bool sameIteration(const Concurrency &C);

  /// Threads \p TA and \p TB agree on the value site \p S stores: lanes of
  /// one warp the value is symmetric under, or of two warps when it is
  /// warp-invariant too (a block-uniform value: any two threads).
  bool agree(unsigned S, unsigned TA, unsigned TB);

  /// The statement an access is part of (`s[i] += s[i + 1];`), for
  /// grouping findings.
  const Stmt *statementOf(const SharedAccess &A);

  static bool symbolicAt(const SharedAccess &A, const Stmt *L);

  void computeFacts();

  // Evaluation --------------------------------------------------------------


  static bool isDataDependent(llvm::StringRef Reason);

  static std::string describeUnknown(const LaneValue &V,
                                     const SymbolTable &ST);

  const Eval &eval(unsigned Instance, const Assignment &Asg);

  // Combinations ------------------------------------------------------------

  int globalLoop(unsigned Site, const Stmt *L) const;

  SideIters unrolledIters(unsigned Site, unsigned Instance) const;

  SideIters withSymbolic(SideIters S, unsigned Site, const Assignment &Asg);

  static bool admits(const Concurrency &C, const SideIters &A,
                     const SideIters &B);

  /// Where each instance of a pair's two sites is in one loop: its
  /// iteration's index among the side's distinct iterations (0: not
  /// fixed), laid out once per pair and loop (the alternatives of a pair,
  /// hundreds in ggml's mmq, ask about the same few loops).
  struct LoopLayout {
    std::vector<unsigned> A, B;
    std::vector<int64_t> ItersA{-1}, ItersB{-1};
    bool Fixed = false; ///< Some instance has an iteration in the loop.
  };
  /// The layouts of one pair of sites, made when a loop is first asked.
  class LoopLayouts {
  public:
    LoopLayouts(const std::vector<SideIters> &A,
                const std::vector<SideIters> &B)
        : SidesA(A), SidesB(B) {}
    const LoopLayout &of(unsigned Loop);

  private:
    const std::vector<SideIters> &SidesA, &SidesB;
    llvm::DenseMap<unsigned, std::unique_ptr<LoopLayout>> Layouts;
  };

  /// admits() for every pair of instances of two sites under one
  /// alternative: the relations that can refuse a pair (those of loops
  /// with an iteration fixed in some instance, refusing some pair of
  /// iterations), with each instance's iteration in them laid out once.
  /// A pair of sites in ggml's flash attention compares hundreds of
  /// instance pairs under relations for dozens of loops, of which one or
  /// two are unrolled.
  class InstancePairs {
  public:
    InstancePairs(const Concurrency &C, LoopLayouts &Layouts);
    /// admits(C, A[IA], B[IB]).
    bool admits(unsigned IA, unsigned IB) const;
    /// Appends to \p Key what admits() answers, (loop, table size, table)
    /// per refusing relation: two alternatives of a pair of sites with
    /// equal keys admit the same instance pairs.
    void appendKey(std::vector<uint64_t> &Key) const;

  private:
    struct Fixed {
      unsigned Loop = 0;
      const LoopLayout *L = nullptr;
      /// R.admits() by (index of A's iteration, index of B's): the
      /// instances of an unrolled loop share a few iterations, and the
      /// pairs of instances are many.
      std::vector<char> Admits;
      unsigned Width = 0;
    };
    std::vector<Fixed> Relations;
  };

  std::vector<int64_t> iterationsOf(const Stmt *L) const;

  /// The symbolic iterations to try for sites \p SA and \p SB under \p C.
  std::vector<std::pair<Assignment, Assignment>>
  symbolicCombos(const Concurrency &C, unsigned SA, unsigned SB);

  // Warps --------------------------------------------------------------------

  /// Whether __syncwarp() site \p W orders threads \p TA and \p TB.
  bool covers(unsigned W, unsigned TA, unsigned TB) const;

  /// Threads \p TA, \p TB of one warp: ordered by a __syncwarp() between
  /// them in this combination of iterations?
  bool orderedInWarp(unsigned SA, unsigned SB, const SideIters &IA,
                     const SideIters &IB, unsigned TA, unsigned TB);

  /// Whether no way the barrier intervals leave sites \p SA and \p SB
  /// unordered, with the barrier sites in \p Counting cutting too, admits
  /// these iterations.
  bool orderedWith(const std::vector<bool> &Counting, unsigned SA,
                   unsigned SB, const SideIters &IA, const SideIters &IB);

  /// Whether a barrier that only some threads take part in orders thread
  /// \p TA at instance \p IA and thread \p TB at \p IB, in the iterations
  /// \p ItA, \p ItB and the relation \p C: a __syncwarp() naming both
  /// lanes, or a named barrier (Order; where it is not modelled exactly,
  /// every counted bar.sync taken as a block barrier). Misused: unordered,
  /// but a named barrier used as meant would order them.
  enum class PairOrder { Ordered, Unordered, Misused };
  PairOrder ordered(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
                    const SideIters &ItA, const SideIters &ItB,
                    const Concurrency &C, unsigned TA, unsigned TB);

  /// For loop \p L walked symbolically around both accesses: B's
  /// iteration minus A's, from the pinned iterations or the relation.
  std::optional<int64_t> iterationGap(unsigned SA, unsigned SB,
                                      const SideIters &ItA,
                                      const SideIters &ItB,
                                      const Concurrency &C,
                                      const Stmt *L) const;

  /// The barrier that orders the pair of \p R (R.Fix), verified by
  /// analysing the pair again with it: for a race between warps, the
  /// named-barrier pair across the arms of a warp-role branch, the named
  /// barrier of the warps in a branch, or a __syncthreads() where every
  /// thread passes; within warps, a __syncwarp(mask) of the lanes that run
  /// the later access. Sets R.Arms, R.InBranch, R.SameStatement and
  /// R.WarpMask on the way.
  void suggestBarrier(RaceReport &R);
  void suggestWarpBarrier(RaceReport &R);
  void suggestTrailingBarrier(RaceReport &R);
  /// For a race in the braces \p Block of an if some threads skip: whether
  /// closing the branch before the later access and opening it again after
  /// a __syncthreads() orders the pair, that barrier reached by every
  /// thread (the if's condition decided by no thread-dependent branch).
  bool splitOrders(const RaceReport &R, const Stmt *Block);
  /// Virtual `bar.sync Id, Count` uses by \p Threads before every instance
  /// of the site of trace access \p Access (one per unrolled iteration).
  std::vector<VirtualBarrierUse>
  syncBeforeSite(unsigned Access, int64_t Id, int64_t Count,
                 const std::vector<char> &Threads) const;
  /// The branch whose two arms hold accesses \p A and \p B, if they are
  /// in one function and that is what separates them.
  const Stmt *armsOf(const SharedAccess &A, const SharedAccess &B);
  /// The statement of \p A that is an element of a compound statement (an
  /// expression statement or a declaration), and that compound; nulls when
  /// the access is nested deeper (a condition, a loop header).
  std::pair<const Stmt *, const Stmt *> blockStatementOf(const SharedAccess &A);
  /// Whether the pair of sites of \p R's accesses has no race once
  /// \p Extra is added to the named-barrier order.
  bool fixed(const RaceReport &R, std::vector<VirtualBarrierUse> Extra);

  // Scanning -----------------------------------------------------------------

  std::map<std::pair<const Eval *, int64_t>, std::unique_ptr<GranuleTable>>
      Tables;

  /// The granule table of \p E, cached (each access meets many others).
  const GranuleTable &table(const Eval &E, int64_t Gr,
                            std::unique_ptr<GranuleTable> &Scratch);

  struct PairScan {
    Witness Race, CrossRace, Benign;
    unsigned Scans = 0;
    bool Possible = false;
    std::string PossibleReason;
    unsigned PossibleA = 0, PossibleB = 0;
  };

  /// Threads \p TA (at site SA, instance IA) and \p TB (SB, IB) store the
  /// same value: the walker's values say so, or one constant, or they run
  /// one instance of one store whose value the uniformity analysis finds
  /// the same in both (block-uniform, or warp-uniform and one warp).
  bool sameStoredValue(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
                       const Assignment &AsgA, const Assignment &AsgB,
                       const Concurrency &C, const Eval &EA, const Eval &EB,
                       unsigned TA, unsigned TB);

  /// Thread \p Reader loads bytes it stored itself earlier in the same
  /// instance (site \p SS, instance \p IS, evaluated \p ES), a value every
  /// thread that stores there in that instance agrees on with \p Writer:
  /// whichever store it sees, it reads that value (every thread storing one
  /// pointer and reading it back).
  bool readsOwnSameValue(unsigned SS, unsigned IS, const Eval &ES,
                         unsigned IL, const Eval &EL, const Concurrency &C,
                         unsigned Writer, unsigned Reader);

  void scan(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
            const Assignment &AsgA, const Assignment &AsgB,
            const Concurrency &C, const Eval &EA, const Eval &EB,
            PairScan &Out);

  /// Two data-dependent addresses known modulo M1 and M2 (`s[data * 64 +
  /// tid]`): whatever the data, the offsets of threads t and u differ by
  /// res(u) - res(t) modulo gcd(M1, M2), so their byte ranges can only meet
  /// when that residue is within the widths. True when no two different
  /// threads can meet: each thread stays in a column of its own.
  bool residuesSeparate(const Eval &EA, const Eval &EB) const;

  // Pairs --------------------------------------------------------------------

  bool mayAlias(unsigned SA, unsigned SB) const;

  /// Per site, when every instance's offsets are known in every thread
  /// with no unknown to bind: the thread touching each 4-byte word, or
  /// ManyThreads, sorted by word. Null when not known, or too large to
  /// list. Kept as a sorted vector, not a node-based hash map: a site of an
  /// unrolled tile copy lists a few hundred thousand words, and a node per
  /// word made building and freeing these a sixth of the race check on
  /// ggml's flash attention.
  static constexpr int32_t ManyThreads = -1;
  /// No thread yet, while the owners are collected.
  static constexpr int32_t NoThread = INT32_MIN;
  using WordOwners = std::vector<std::pair<int64_t, int32_t>>;
  std::vector<std::optional<std::unique_ptr<WordOwners>>> Owners;
  const WordOwners *wordOwners(unsigned Site);
  /// No word is touched by two threads over all instances of both sites,
  /// whatever the iterations and the unknowns: the pair cannot collide.
  /// (lud's `peri_col[idx][i] -= peri_col[idx][j] * ...`: each thread
  /// owns its row, but 120 x 120 instance pairs exceed the scan budget.)
  bool threadsApart(unsigned SA, unsigned SB);

  std::optional<Pending> analysePair(unsigned SA, unsigned SB);

  std::optional<Pending> reportPossible(unsigned SA, unsigned SB,
                                        const PairScan &PS);

  /// Store site \p S at a data-dependent index that the uniformity analysis
  /// finds the same in every thread of the block (or of a warp): two
  /// threads that run one instance write one element.
  std::optional<Pending> uniformIndex(unsigned S, const PairScan &PS);

  /// Which side of a witness is later, and across which loop iteration.
  RaceReport makeReport(unsigned SA, unsigned SB, const Witness &W);
};

} // namespace race
} // namespace shmem

#endif
