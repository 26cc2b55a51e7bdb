//===- KernelCFG.h - One clang::CFG per function, shared ---------*- C++ -*-===//
//
// Every analysis that follows control flow (uniformity, barrier intervals,
// the barrier check) stands on the same graph of a function: clang's CFG
// with every subexpression its own element, in evaluation order, so that a
// transfer function never evaluates an operand twice and every access or
// barrier the walker saw has a position. KernelCFG is that graph with the
// facts every one of them needs derived once: the blocks by ID, the element
// that evaluates a statement, the blocks in reverse post-order, the natural
// loops, the post-dominator tree and the branches with their regions and
// joins (BranchRegions.h). ProgramCFGs builds one per function of
// a translation unit on first use and keeps it for every kernel, block
// shape and check that asks again.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_KERNELCFG_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_KERNELCFG_H

#include "BarrierContents.h"
#include "ConstantFolds.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace shmem {

class BranchRegions;

class KernelCFG {
public:
  /// The graph of \p F's body; null when \p F has none or clang cannot
  /// build its CFG.
  static std::unique_ptr<KernelCFG> build(clang::ASTContext &Ctx,
                                          const clang::FunctionDecl *F);
  ~KernelCFG();

  const clang::FunctionDecl *function() const { return F; }
  const clang::CFG &cfg() const { return *Cfg; }
  const clang::ParentMap &parents() const { return *PM; }
  unsigned numBlocks() const { return Blocks.size(); }
  const clang::CFGBlock *block(unsigned ID) const { return Blocks[ID]; }

  /// (block ID, element index) of the CFG element that evaluates \p S, the
  /// first in the CFG's block order when several do.
  std::optional<std::pair<unsigned, unsigned>> element(const clang::Stmt *S) const {
    auto It = Elem.find(S);
    if (It == Elem.end())
      return std::nullopt;
    return It->second;
  }
  /// element() of \p S or of the closest statement around it that has one
  /// (an lvalue inside a larger expression that the CFG keeps whole).
  std::optional<std::pair<unsigned, unsigned>>
  enclosingElement(const clang::Stmt *S) const;

  /// The blocks reachable from the entry, in reverse post-order of a
  /// depth-first search, and each block's position there (Unreachable for
  /// the others).
  static constexpr unsigned Unreachable = ~0u;
  llvm::ArrayRef<const clang::CFGBlock *> reversePostOrder() const {
    return RPO;
  }
  unsigned rpoIndex(unsigned BlockID) const { return RPOIndex[BlockID]; }
  llvm::ArrayRef<unsigned> rpoIndices() const { return RPOIndex; }

  /// A natural loop: the blocks that reach one of the jumps back to the
  /// loop statement's header without passing through the header.
  struct Loop {
    const clang::Stmt *L = nullptr;
    llvm::BitVector Body;
    llvm::SmallVector<unsigned, 2> BackSources, Headers;
  };
  /// In the order the CFG's blocks name their loop targets.
  llvm::ArrayRef<Loop> loops() const { return Loops; }

  /// Whether a goto jumps somewhere: the walker's structured walk does not
  /// follow those jumps, so its branch and loop facts say nothing here.
  bool hasGoto() const { return Goto; }

  /// The block every path from \p B to the exit passes through first, from
  /// the post-dominator tree (built on first use). Null when there is none,
  /// and for blocks in loops that never exit, whose post-dominators the tree
  /// makes arbitrary: callers that need those decide themselves.
  const clang::CFGBlock *immediatePostDominator(const clang::CFGBlock *B) const;

  /// The branches of the function with their regions and joins, built on
  /// first use (they need the post-dominator tree).
  const BranchRegions &branchRegions() const;

private:
  KernelCFG() = default;

  const clang::FunctionDecl *F = nullptr;
  const clang::SourceManager *SM = nullptr;
  std::unique_ptr<clang::CFG> Cfg;
  std::unique_ptr<clang::ParentMap> PM;
  std::vector<const clang::CFGBlock *> Blocks;
  llvm::DenseMap<const clang::Stmt *, std::pair<unsigned, unsigned>> Elem;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<unsigned> RPOIndex;
  std::vector<Loop> Loops;
  bool Goto = false;
  mutable std::unique_ptr<clang::CFGPostDomTree> PDT;
  mutable std::unique_ptr<BranchRegions> Regions;
};

/// Whether \p S is \p Outer or lies inside it, by \p PM's parents.
inline bool isWithin(const clang::Stmt *S, const clang::Stmt *Outer,
                     const clang::ParentMap &PM) {
  for (; S; S = PM.getParent(S))
    if (S == Outer)
      return true;
  return false;
}

/// The KernelCFG of every function of one translation unit, built on first
/// use, the integer constants its expressions fold to, and the barriers and
/// collectives each function executes. Front ends make one per translation
/// unit (runChecks does); an analysis handed none makes its own.
class ProgramCFGs {
public:
  explicit ProgramCFGs(clang::ASTContext &Ctx)
      : Ctx(Ctx), Folds(Ctx), Contents(Ctx) {}
  ProgramCFGs(const ProgramCFGs &) = delete;
  ProgramCFGs &operator=(const ProgramCFGs &) = delete;

  /// Null when \p F has no body or no CFG; asked again, null again.
  const KernelCFG *get(const clang::FunctionDecl *F);
  clang::ASTContext &context() const { return Ctx; }
  /// foldInteger() of any expression of the translation unit, once.
  ConstantFolds &folds() { return Folds; }
  /// What each function executes of barriers and warp collectives, once.
  BarrierContents &barrierContents() { return Contents; }

private:
  clang::ASTContext &Ctx;
  ConstantFolds Folds;
  BarrierContents Contents;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<KernelCFG>> Graphs;
};

} // namespace shmem

#endif
