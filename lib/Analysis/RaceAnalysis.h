//===- RaceAnalysis.h - Shared-memory races with a witness ------*- C++ -*-===//
//
// For every pair of shared accesses that BarrierIntervals says may run in
// one barrier interval, at least one a non-atomic write: do two different
// threads of the block touch overlapping bytes? The answer is exact where
// the addresses are: every thread of the block is enumerated (the byte
// ranges of one access hashed, the other's probed), with the active masks,
// the iterations of the loops around the accesses as the intervals allow
// (unrolled iterations pick trace instances; loops walked symbolically are
// enumerated over a few iterations, re-walking the kernel with the
// iteration pinned when the address is not affine in it), and every other
// unknown bound to the same generic value on both sides. Pairs of threads
// in one warp must also be unordered once the __syncwarp() calls that name
// both lanes count as barriers, and pairs of threads that named barriers
// with a count order (NamedBarriers: a producer's bar.arrive before a
// consumer's bar.sync) are not races.
//
// Data-dependent addresses (`hist[in[i]] += 1`) can't be enumerated. Such
// a pair is reported when it carries evidence: a read-modify-write of one
// data-dependent element (two threads that pick one lose an update, a
// possible race), or a store whose index the uniformity analysis finds the
// same in every thread of the block or of a warp (two named threads write
// one element, a race). Other pairs at data-dependent addresses are possible
// races only with AnalysisOptions::ReportDataDependent.
//
// Only sites of one barrier-free region and one shared variable, one of
// them a store, are paired; and a pair whose two statements are already
// part of a finding is skipped (its report could only join that finding),
// which keeps a barrier-free kernel, where every access meets every other,
// from costing O(accesses^2) pair analyses.
//
// The analysis reports through RaceHandler; the shmem-race check turns the
// reports into findings.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_RACEANALYSIS_H
#define SHMEM_LINT_ANALYSIS_RACEANALYSIS_H

#include "KernelTrace.h"
#include "NamedBarriers.h"
#include "Program/KernelCFG.h"

#include <map>
#include <optional>
#include <string>

namespace shmem {

/// One access of a reported race.
struct RaceSide {
  unsigned Access = 0; ///< The instance in the trace.
  unsigned Thread = 0; ///< Linear thread index in the block.
  int64_t Offset = 0;  ///< Byte offset into the shared variable.
  /// Iterations of loops walked symbolically that the witness fixed.
  std::map<const clang::Stmt *, int64_t> Iterations;
};

struct RaceReport {
  enum Kind {
    Race,          ///< Two threads, overlapping bytes, no barrier between.
    Benign,        ///< Only same-value stores collide.
    PossibleRace,  ///< An address depends on data; no witness.
  };
  Kind K = Race;
  /// Later is where the user adds the barrier before (the warning); Earlier
  /// is the other access (a note).
  RaceSide Later, Earlier;
  /// Some colliding pair of threads is in two different warps (so only a
  /// block barrier orders them); else every pair shares a warp.
  bool CrossWarp = true;
  /// The loop whose next iteration the later access is in, when the race
  /// crosses iterations (outermost such loop), and how many iterations on.
  const clang::Stmt *CarriedBy = nullptr;
  int64_t Distance = 0;
  /// For PossibleRace: why the address is unknown; whether the two
  /// accesses are the load and store of one read-modify-write.
  std::string Reason;
  bool ReadModifyWrite = false;
  /// For Race and Benign: a store whose index depends on data (Reason) but
  /// is the same in every thread of the block (or, with IndexPerWarp, in
  /// every lane of a warp): both threads write one element, not known which
  /// (Offset says nothing).
  bool UniformIndex = false;
  bool IndexPerWarp = false;
  /// The two accesses are in the two arms of this branch (an if or ?:),
  /// which the block's threads take apart: no barrier between the two
  /// lines is reached by every thread.
  const clang::Stmt *Arms = nullptr;
  /// The two accesses run one after the other in a branch only some
  /// threads take (`if (tid < 64) { s[tid] = ..; .. = s[63 - tid]; }`): a
  /// block barrier between them is reached by those threads only.
  bool InBranch = false;
  /// For InBranch: closing the branch before the later access and opening
  /// it again after a __syncthreads() was analysed and orders the pair.
  bool SplitOrders = false;
  /// A barrier between the two accesses that no thread runs, its branch
  /// taken by none (KernelTrace::SkippedBarriers): said in the message.
  const clang::Stmt *SkippedBarrier = nullptr;
  const clang::Stmt *SkippedBranch = nullptr;
  /// The two accesses are parts of one statement (`s[i] = s[j]`): no
  /// barrier goes between them; the read must go to a register first.
  bool SameStatement = false;
  /// The loop walked without unrolling around the later access whose trip
  /// count may differ between threads (innermost): a block barrier in it
  /// would be reached unequally often.
  const clang::Stmt *UnevenLoop = nullptr;
  /// For a race within warps: the lanes of each warp that run the later
  /// access, when that set is the same in every warp that runs it (the
  /// mask of a `__syncwarp(mask)` there); 0 when it differs between warps;
  /// none when not worked out (the advice then names `__syncwarp()`).
  std::optional<uint32_t> WarpMask;
  /// The barrier that orders the pair, checked by analysing the pair again
  /// with it (virtual uses of a barrier; see RaceFixes.cpp):
  ///  - NamedPair, for the two arms of a warp-role branch: `bar.arrive Id,
  ///    Count` by the Arriving threads after the statement After (of trace
  ///    access ArriveAfter) and `bar.sync Id, Count` by the Waiting ones
  ///    before the statement Before (of WaitBefore), the write first when
  ///    one of them writes and the other reads.
  ///  - NamedSync, in a branch only some whole warps take: the `bar.sync`
  ///    alone, by the threads that run both.
  ///  - BlockSync: `__syncthreads()` before Before, which every thread of
  ///    the block reaches.
  ///  - WarpSync: `__syncwarp(Mask)` before Before, which exactly the lanes
  ///    of Mask reach in each warp that runs it.
  ///  - Trailing: for a race across iterations, `__syncthreads()` as the
  ///    last statement of the loop's body EndOf, which every thread runs
  ///    as often.
  /// After and Before are null for an access that is not a statement of a
  /// `{ }` block (an arm without braces): the advice, then, has no fix-it.
  struct BarrierFix {
    enum Kinds { NamedPair, NamedSync, BlockSync, WarpSync, Trailing };
    Kinds Kind = NamedSync;
    int64_t Id = 0, Count = 0;
    uint32_t Mask = 0;
    unsigned ArriveAfter = 0, WaitBefore = 0;
    std::vector<char> Arriving, Waiting;
    const clang::Stmt *After = nullptr, *Before = nullptr;
    const clang::CompoundStmt *EndOf = nullptr;
  };
  std::optional<BarrierFix> Fix;
  /// The named barrier (its id and first use) that would order the two
  /// threads if it were used as meant; -1: none. Its misuse is
  /// shmem-named-barrier's finding.
  int64_t MisusedBarrier = -1;
  clang::SourceLocation MisusedAt;
};

class RaceHandler {
public:
  virtual ~RaceHandler();
  virtual void handleRace(const RaceReport &R) = 0;
  /// Every pair the search finds racing, before pairs are grouped into
  /// findings (a what-if compares these).
  virtual void handlePair(const RaceReport &) {}
  /// The pair search spent its probe budget: the pairs of trace access
  /// \p First's site with the sites after it, and those of every later
  /// site, were not analysed (\p PairsAnalysed were). Races there may be
  /// missing; the handler says so (AnalysisGap), never stays silent.
  virtual void handleCut(unsigned First,
                         unsigned long long PairsAnalysed) = 0;
  /// Another bound stopped the search short at trace access \p Access:
  /// \p What was not analysed, because \p Why (AnalysisGap's clauses).
  virtual void handleGap(unsigned Access, std::string What,
                         std::string Why) = 0;
};

/// How the pairs of sites were searched (for tests and benchmarks).
struct RaceSearch {
  /// Analyse every pair of sites that may alias in one barrier-free
  /// region, even those whose report can no longer change the findings
  /// (the pruned search must give the same findings).
  bool Exhaustive = false;
  /// Out: pair analyses done.
  unsigned long long PairsAnalysed = 0;
};

/// Find the races of one kernel trace (one block shape). \p Ctx and
/// \p Opts are needed to re-walk the kernel with loop iterations pinned;
/// \p Graphs, when given, supplies the functions' CFGs.
void findRaces(clang::ASTContext &Ctx, const KernelTrace &T,
               const AnalysisOptions &Opts, RaceHandler &Handler,
               RaceSearch *Search = nullptr, ProgramCFGs *Graphs = nullptr);

/// The same, with barriers the trace does not hold ordered as named
/// barriers are: the what-if of a fix that adds or replaces one (a trace
/// event the fix replaces is marked Named by the caller, so that barrier
/// intervals no longer cut at it).
void findRacesWith(clang::ASTContext &Ctx, const KernelTrace &T,
                   const AnalysisOptions &Opts, RaceHandler &Handler,
                   RaceSearch &Search, std::vector<VirtualBarrierUse> Extra,
                   ProgramCFGs *Graphs = nullptr);

} // namespace shmem

#endif
