//===- NamedBarriers.h - Which threads a named barrier orders ---*- C++ -*-===//
//
// A named barrier with a thread count (`bar.sync id, count`, `bar.arrive id,
// count`) completes each time `count` threads have arrived at it, whichever
// threads they are. A completion orders what the threads that arrived did
// before arriving with what the threads that wait (`bar.sync`) do after it,
// and nothing else: warp-specialised kernels rest on that, producer warps
// arriving after they fill a buffer and consumer warps waiting before they
// read it, the count adding both.
//
// This analysis pairs the walk's named-barrier events
// (KernelTrace::CountedBarriers) into generations. Between two block-wide
// barriers (a phase), the uses of one id are a *group*. A group is exact
// when every use gives the same count, the count is the number of threads
// that use the id, every one of them uses it equally often, and no thread
// can arrive again before the generation it last arrived at completes; then
// the k-th use of every thread meets in the k-th generation. The last
// condition is proved, not assumed: a thread that waits needs no proof; one
// that only arrives must, before arriving again, have waited for something
// that every other user's previous arrival happens before. The proof uses
// the order it establishes, which is sound by induction on time: the first
// arrival to land in a wrong generation would need a generation completed
// before it to be wrong already.
//
// Order ("happens before") is a vector clock per generation over classes
// of threads (threads that use the same events; in practice one class per
// warp role): for each class, its latest arrival the generation's
// completion follows, directly or through generations its arrivers waited
// for first. An access of thread a happens before an access of thread b
// when b waited, before its access, for a generation that follows an
// arrival of a made after a's access.
//
// A group whose uses are all in one loop walked symbolically (one trip of
// the walk standing for every iteration) is exact only when every use waits
// (no thread can then run ahead into another iteration's generation), the
// loop's condition is the same in every thread, and the counts hold per
// iteration; it orders two accesses directly, by the iterations the caller
// says they are in (no chains through such groups).
//
// What the analysis cannot model (an id or count the walk does not know,
// threads it does not know exactly, a group spread over several loop
// contexts, a thread that may run ahead) it says: Unknown, with why.
// Callers then fall back to a coarser rule and say so.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_NAMEDBARRIERS_H
#define SHMEM_LINT_ANALYSIS_NAMEDBARRIERS_H

#include "KernelTrace.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// PTX gives a block 16 named barriers; 0 is __syncthreads()'s.
constexpr int64_t NumBarrierIds = 16;
/// The ids of what-if barriers that stand for a block barrier (a hoisted
/// or added __syncthreads()) and, one per warp above it, for __syncwarp():
/// past any id a kernel can use, so they never join its own barriers.
constexpr int64_t VirtualBarrierId = int64_t(1) << 20;

/// A use of a named barrier the trace does not hold: the what-if of a
/// suggested fix (an arrive after one access, a sync before another, a
/// barrier of other threads where a divergent one is).
struct VirtualBarrierUse {
  int64_t Id = 0, Count = 0;
  bool Arrive = false;
  /// The threads that execute it.
  std::vector<char> Threads;
  /// Placed just after (or, with Before, just before) this trace access,
  /// in its loops.
  unsigned Access = 0;
  bool Before = false;
  /// When set: at this event of KernelTrace::Barriers instead (a block
  /// barrier that a fix replaces or moves, in its loops), not at Access.
  std::optional<unsigned> AtBarrier;
};

/// One use of an id by some threads: a trace event or a virtual one.
struct NamedBarrierUse {
  /// Index into KernelTrace::CountedBarriers; -1 for a virtual use.
  int Event = -1;
  bool Arrive = false;
  /// Position in program order: 2 x the walk's Seq, +-1 for a virtual use
  /// placed after or before an access.
  int64_t Pos = 0;
  /// Threads that execute it and have not exited.
  std::vector<char> Threads;
  /// Per thread, when known exactly (else the use is Unknown).
  std::vector<int64_t> Id, Count;
  bool Known = true;
  std::string Unknown; ///< Why not, when !Known.
  const std::vector<const clang::Stmt *> *Loops = nullptr;
  const std::vector<int> *Iterations = nullptr;
  clang::SourceLocation Loc;
};

/// The uses of one id in one phase (and loop context).
struct NamedBarrierGroup {
  unsigned Phase = 0;
  int64_t Id = 0;
  /// The loop walked symbolically that every use is in; null: none.
  const clang::Stmt *Loop = nullptr;
  /// Indices into NamedBarriers::uses(), in program order.
  std::vector<unsigned> Uses;
  /// Per thread of the block: its uses, in program order.
  std::vector<std::vector<unsigned>> ByThread;
  unsigned Users = 0;
  /// Count given -> the threads that give it and the first use giving it.
  std::map<int64_t, std::pair<std::vector<char>, unsigned>> Counts;
  bool Waits = false;

  enum Status {
    Exact,
    /// Counts differ, or the count is not the number of users, or users
    /// use the id unequally often, or a thread may arrive again before the
    /// others arrived once: the hardware gives no order here.
    Miscounted,
    /// Not modelled (Why): no claim either way.
    Unmodelled,
  };
  Status S = Exact;
  std::string Why;
  /// The counts were checked and hold (Exact, or Unmodelled only for the
  /// order it gives).
  bool CountsHold = false;
  /// For uses unequally often: a thread with the fewest and one with the
  /// most uses.
  unsigned FewestThread = 0, MostThread = 0;
  /// Miscounted because a thread may run ahead: thread RunAhead's use
  /// AheadUse + 1 (0-based, per thread) may come before thread Behind's use
  /// AheadUse, so generations mix.
  bool RunsAhead = false;
  unsigned RunAhead = 0, Behind = 0, AheadUse = 0;
};

enum class BarrierOrder { Ordered, Unordered, Unknown };

class NamedBarriers {
public:
  /// With \p Intended, the order the barriers would give if their counts
  /// were right and no thread ran ahead (groups Miscounted for those
  /// reasons order as Exact ones): a race that only a misused barrier
  /// lets through is that barrier's fault.
  NamedBarriers(const KernelTrace &T,
                std::vector<VirtualBarrierUse> Extra = {},
                bool Intended = false);

  /// The kernel has named barriers with a count (real or virtual).
  bool any() const { return !Uses.empty(); }
  /// Every use and group is modelled: order() never answers Unknown.
  bool exact() const { return Why.empty(); }
  /// Why not, for a gap ("the id of 'bar.sync' at line 9 is not known").
  const std::string &why() const { return Why; }
  /// The first use that made the analysis inexact, if it is one.
  std::optional<unsigned> whyUse() const { return WhyUse; }

  const std::vector<NamedBarrierUse> &uses() const { return Uses; }
  const std::vector<NamedBarrierGroup> &groups() const { return Groups; }
  /// The phase of a use: block-wide barriers before it.
  unsigned phaseOf(const NamedBarrierUse &U) const;

  /// For the loop walked symbolically \p L around both accesses: the
  /// iteration of the second minus that of the first, when known.
  using IterationGap =
      llvm::function_ref<std::optional<int64_t>(const clang::Stmt *L)>;

  /// Whether a named barrier orders access \p A of thread \p TA and access
  /// \p B of thread \p TB (either first). \p Gap relates their iterations.
  BarrierOrder order(const SharedAccess &A, unsigned TA, const SharedAccess &B,
                     unsigned TB, IterationGap Gap) const;

  /// The ids the kernel uses, known or not (for choosing a free one).
  const std::vector<int64_t> &idsUsed() const { return IdsUsed; }
  /// The lowest id in 1-15 the kernel does not use, for a suggested
  /// barrier; none when all are taken.
  std::optional<int64_t> freeId() const;

  /// A group that orders the two accesses as order() asks (Intended
  /// analyses: the misused group that would), if any.
  const NamedBarrierGroup *orderingGroup(const SharedAccess &A, unsigned TA,
                                         const SharedAccess &B,
                                         unsigned TB) const;

private:
  const KernelTrace &T;
  unsigned N;
  bool Intended;
  std::vector<NamedBarrierUse> Uses;
  std::vector<NamedBarrierGroup> Groups;
  std::vector<int64_t> IdsUsed;
  std::vector<unsigned> BlockBarrierSeqs; ///< Seq of each block-wide barrier.
  std::string Why;
  std::optional<unsigned> WhyUse;

  // Threads are gathered into classes that use the same events.
  std::vector<int> ClassOf; ///< -1: uses no exact straight-line group.
  unsigned Classes = 0;
  /// Per straight-line generation (group, k): its vector clock over
  /// classes (the latest position of each class's arrival it follows; -1
  /// none), and per class the wait positions and the generations waited.
  struct Generation {
    unsigned Group = 0, K = 0;
    std::vector<int64_t> Clock;
  };
  std::vector<Generation> Gens;
  /// Per class: (position of a wait, generation), in program order, and
  /// the clock joined over every wait up to and including each one.
  std::vector<std::vector<std::pair<int64_t, unsigned>>> Waits;
  std::vector<std::vector<std::vector<int64_t>>> WaitPrefix;

  void collect(std::vector<VirtualBarrierUse> &Extra);
  void group();
  void checkGroup(NamedBarrierGroup &G);
  void build();
  bool classify();
  void clocks();
  /// The first group a thread may run ahead in (marked so); false if none.
  bool runAhead();
  /// Joined clock of what class \p C waited for before position \p Pos.
  const std::vector<int64_t> *before(unsigned C, int64_t Pos) const;
  void setWhy(std::string W, std::optional<unsigned> Use);

  bool hbStraight(const SharedAccess &A, unsigned TA, const SharedAccess &B,
                  unsigned TB) const;
  BarrierOrder hbLoop(const NamedBarrierGroup &G, const SharedAccess &A,
                      unsigned TA, const SharedAccess &B, unsigned TB,
                      int64_t Gap) const;
};

} // namespace shmem

#endif
