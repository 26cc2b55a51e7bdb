//===- Program/BarrierContents.h - Synchronisation a call runs -*- C++ -*-===//
//
// Which barriers and warp collectives a function executes, itself or
// through the functions it calls (followedCallee(), the one rule of what is
// followed), with the path of calls to the first of each kind. The barrier
// check asks it of every call it meets, in every kernel, block shape and
// calling context; the answer depends on the function alone, so one table
// per translation unit serves them all (ggml's mmq instance file: 64
// kernels calling the same tile loaders and dot products).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_BARRIERCONTENTS_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_BARRIERCONTENTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <vector>

namespace shmem {

/// What a function executes, through the functions it calls: the first
/// block-level, counted (whole-warp `bar.sync id, n`) and warp-level
/// barrier and the first warp collective with a mask, each with the path
/// of calls to it, outermost first, ending at the barrier or collective.
/// Coalesced groups' syncs are none of these: their group is, by
/// construction, the threads that reach them.
struct BarrierContent {
  std::vector<const clang::Stmt *> BlockPath, CountedPath, WarpPath,
      CollectivePath;
  bool any() const {
    return !BlockPath.empty() || !CountedPath.empty() || !WarpPath.empty();
  }
};

class BarrierContents {
public:
  explicit BarrierContents(const clang::ASTContext &Ctx) : Ctx(Ctx) {}
  BarrierContents(const BarrierContents &) = delete;
  BarrierContents &operator=(const BarrierContents &) = delete;

  /// \p F's content, found on the first request. A function reached again
  /// while its own content is being found (recursion) counts as empty
  /// there, so in a recursive group what each member contains depends on
  /// which was asked first in the translation unit; the answer is kept
  /// from then on.
  const BarrierContent &of(const clang::FunctionDecl *F);

  /// What statement \p S executes (a branch no thread takes, which the
  /// walk does not enter), found on the first request.
  const BarrierContent &ofStatement(const clang::Stmt *S);

  /// What the \p Sense side of the `if constexpr` \p If in \p F would
  /// execute: an instantiation keeps a discarded side as an empty block
  /// (`if constexpr (nwarps > 1) { __syncthreads(); }` with one warp), so it
  /// is read from \p F's template pattern; \p If's own side where \p F is
  /// no instantiation.
  const BarrierContent &ofConstexprSide(const clang::IfStmt *If, bool Sense,
                                        const clang::FunctionDecl *F);

  /// How many functions' bodies were searched (for the tests that check
  /// the table is shared).
  unsigned searched() const { return Memo.size(); }

private:
  const clang::ASTContext &Ctx;
  /// Node-based: a caller holds a reference while its callees are added.
  std::map<const clang::FunctionDecl *, BarrierContent> Memo;
  std::map<const clang::Stmt *, BarrierContent> StatementMemo;
  std::map<std::pair<const clang::IfStmt *, bool>, const clang::Stmt *>
      PatternSides;

  class Visitor;
};

} // namespace shmem

#endif
