//===- BranchRegions.h - Branches of a KernelCFG, their joins -*- C++ -*-===//
//
// Control dependence of one function, from its CFG alone: every block that
// chooses between successors on a condition, the blocks whose execution
// depends on the choice (those reachable from a successor before the
// branch's immediate post-dominator) and the joins, where paths from
// different successors meet again (found by propagating "which successor
// did we come from" labels through the region, as LLVM's
// SyncDependenceAnalysis does). It depends on nothing but the graph, so
// KernelCFG builds it once, on first use, for every kernel, block shape and
// analysis that asks (uniformity, the barrier check through it). What a
// branch's condition is worth is the analyses' business.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_BRANCHREGIONS_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_BRANCHREGIONS_H

#include "KernelCFG.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <vector>

namespace clang {
class SourceManager;
} // namespace clang

namespace shmem {

/// A block of the CFG that chooses between successors on a condition, with
/// the blocks whose execution depends on the choice.
struct BranchInfo {
  const clang::CFGBlock *Block = nullptr;
  /// The statement the user wrote: an if, loop, switch, ?:, or the && / ||
  /// whose left operand this block tests.
  const clang::Stmt *Construct = nullptr;
  /// What this block tests: the condition, or one operand of && and || for
  /// the blocks a short-circuit condition is split into.
  const clang::Expr *Condition = nullptr;
  /// The block tests the condition of a loop: threads that disagree run the
  /// loop a different number of times.
  bool IsLoopCondition = false;
  /// The region reaches the branch again: threads leave a loop at different
  /// iterations (values assigned in the loop differ after it).
  bool LeavesLoop = false;
  /// For LeavesLoop: the innermost loop around the branch (the loop itself
  /// for a loop condition), for messages.
  const clang::Stmt *Loop = nullptr;
  /// Blocks control dependent on the branch (transitively), by block ID.
  llvm::BitVector Region;
  /// Blocks where paths from different successors meet: variables assigned
  /// in the region are merged there.
  llvm::SmallVector<const clang::CFGBlock *, 4> Joins;
  /// For each successor (by position, null for pruned edges): the blocks of
  /// the region reachable from it.
  std::vector<llvm::BitVector> ReachableFrom;
  /// Jumps in the region that leave the construct early (return, break,
  /// continue, goto), in source order.
  llvm::SmallVector<const clang::Stmt *, 2> Exits;
  /// A return statement is in the region (the return value is then merged
  /// at the joins too).
  bool ReturnsInRegion = false;
};

/// The branches of one KernelCFG, in reverse post-order of their blocks.
class BranchRegions {
public:
  static std::unique_ptr<BranchRegions> build(const KernelCFG &K,
                                              const clang::SourceManager &SM);

  llvm::ArrayRef<BranchInfo> branches() const { return Branches; }
  /// By block ID: the index of the branch the block ends in, or -1.
  llvm::ArrayRef<int> branchOfBlock() const { return BranchOfBlock; }
  /// By block ID: the indices of the branches the block is a join of.
  llvm::ArrayRef<llvm::SmallVector<unsigned, 2>> joinOf() const {
    return JoinOf;
  }

private:
  BranchRegions() = default;

  std::vector<BranchInfo> Branches;
  std::vector<int> BranchOfBlock;
  std::vector<llvm::SmallVector<unsigned, 2>> JoinOf;
};

} // namespace shmem

#endif
