//===- Worklist.h - One worklist driver over a KernelCFG's blocks -*- C++ -*-===//
//
// The propagation loop every forward dataflow over a KernelCFG needs: the
// blocks reachable from the entry, taken from a worklist in reverse
// post-order (a block after its forward predecessors, so that code without
// loops is visited once), a visit that puts back the blocks whose input it
// changed, until nothing is left. The driver knows nothing of what is
// propagated; it counts the blocks it visits and stops at a cap its caller
// gives, and says so: a fixpoint cut off at its cap holds the last state,
// which may be unsound, and the caller must be able to tell.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_WORKLIST_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_WORKLIST_H

#include "KernelCFG.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace shmem {

/// How a fixpoint computation ended.
enum class FixpointResult {
  Converged,  ///< The worklist ran empty: nothing changes any more.
  CapReached, ///< Stopped at the caller's cap with blocks still to visit.
};

struct FixpointRun {
  FixpointResult Result = FixpointResult::Converged;
  /// Blocks taken off the list and handed to the visit.
  unsigned Steps = 0;
  bool converged() const { return Result == FixpointResult::Converged; }
};

/// The blocks waiting for a visit, each at most once, taken lowest position
/// in reverse post-order first.
class BlockWorklist {
public:
  explicit BlockWorklist(const KernelCFG &G);

  /// Queues \p B unless it is null, unreachable from the entry or queued
  /// already.
  void push(const clang::CFGBlock *B);
  /// Queues every block reachable from the entry.
  void pushAll();
  bool empty() const { return Pending.none(); }
  /// The queued block first in reverse post-order, taken off the list.
  const clang::CFGBlock *pop();

private:
  const KernelCFG &G;
  /// By position in reverse post-order.
  llvm::BitVector Pending;
};

/// Queues every reachable block of \p G, then hands the first in reverse
/// post-order to \p Visit, which pushes the blocks its result affects, until
/// the list is empty (Converged) or \p MaxSteps blocks have been visited
/// with some still queued (CapReached).
FixpointRun
runToFixpoint(const KernelCFG &G, unsigned MaxSteps,
              llvm::function_ref<void(const clang::CFGBlock *, BlockWorklist &)>
                  Visit);

} // namespace shmem

#endif
