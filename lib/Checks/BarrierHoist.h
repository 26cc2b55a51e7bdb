//===- BarrierHoist.h - What a divergent __syncthreads() becomes -*- C++ -*-===//
//
// Part of shmem-divergent-barrier. A `__syncthreads()` inside a branch that
// only some threads take (`if (tid < 64) { fill; __syncthreads(); read; }`)
// has two fixes that keep what it orders:
//  - hoisting it: end the branch before it and open the branch again after,
//    so that every thread passes one barrier;
//  - when the threads that reach it are whole warps, making it their named
//    barrier (`bar.sync 1, 64`), which waits for exactly those.
// Neither is offered on faith. Each is a what-if: the kernel's races are
// analysed again with the barrier ordered as the fix would order it (the
// trace's barrier replaced by a virtual one: every thread that has not
// exited, or the warps that reach it), and a fix that lets a race through
// that the kernel as written does not have is said to be wrong, with the
// race. A named barrier alone orders nothing for the threads outside it,
// so an access after the branch by another warp is such a race.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_BARRIERHOIST_H
#define SHMEM_LINT_CHECKS_BARRIERHOIST_H

#include "Checks.h"

#include "Analysis/Program/BranchRegions.h"

#include "clang/AST/ParentMap.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace shmem {
namespace divergent {

/// The outcome of one what-if.
struct FixVerdict {
  /// Analysed: the races with the fix are those without it.
  bool Holds = false;
  /// Not analysed exactly (a gap of the what-if's own): no claim.
  bool Unknown = false;
  /// For a fix that does not hold: the first new race, in words.
  std::string Race;
  /// Races of the kernel as written that the fix orders (their pairs of
  /// expressions), and the first in words.
  std::set<std::pair<const clang::Expr *, const clang::Expr *>> Orders;
  std::string FirstOrdered;
};

struct HoistWhatIf {
  /// Ending the branch before the barrier and opening it again after.
  FixVerdict Split;
  /// The named barrier for the threads that reach it, when they are whole
  /// warps and an id is free: `bar.sync Id, Count`.
  std::optional<int64_t> NamedId;
  int64_t NamedCount = 0;
  FixVerdict Named;
};

/// The what-ifs of one kernel trace (one block shape). The races of the
/// kernel as written are analysed once, at the first question, and every
/// divergent barrier's what-ifs are compared with them.
class BarrierHoist {
public:
  explicit BarrierHoist(const KernelContext &K);
  ~BarrierHoist();

  /// Both what-ifs for the block barrier whose trace events are \p Events
  /// (indices into K.Trace.Barriers, every thread exact), reached by
  /// \p Active.
  HoistWhatIf whatIf(const std::vector<unsigned> &Events,
                     const std::vector<char> &Active);

  /// The words of both, for the note on a `__syncthreads()` call \p Call
  /// that the if \p Primary alone makes divergent (none for another
  /// branch): where hoisting puts it (when the call is a statement of the
  /// braces of one arm, with what reopening the branch needs), and the
  /// named barrier, which becomes \p F's fix-it when it holds and hoisting
  /// orders nothing it does not. \p Evs are the call's trace events,
  /// reached by \p Active; \p PM the kernel's parent map.
  std::string advice(const clang::CallExpr *Call, const BranchInfo &Primary,
                     const std::vector<const BarrierEvent *> &Evs,
                     const std::vector<char> &Active,
                     const clang::ParentMap &PM, Finding &F);

private:
  class Races;
  const KernelContext &K;
  std::unique_ptr<Races> AsWritten;

  const Races &asWritten();
  /// The races with the trace's events \p Events replaced by a barrier of
  /// \p Threads (counting them), against the kernel as written.
  FixVerdict judge(const std::vector<unsigned> &Events, int64_t Id,
                   const std::vector<char> &Threads);
};

} // namespace divergent
} // namespace shmem

#endif
