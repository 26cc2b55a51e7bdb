//===- BarrierSites.h - The barriers statements and calls run --*- C++ -*-===//
//
// Part of shmem-divergent-barrier: what a call or inline asm statement is
// as a barrier (whom it waits for, its mask, its name in messages). Which
// barriers a function executes through its calls is the program model's
// (Program/BarrierContents.h).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_BARRIERSITES_H
#define SHMEM_LINT_CHECKS_BARRIERSITES_H

#include "Analysis/Program/CudaModel.h"
#include "Analysis/Uniformity.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shmem {
namespace divergent {

/// Whom a barrier waits for.
enum class Scope {
  Grid,    ///< grid.sync(): every thread of the launch.
  Block,   ///< __syncthreads(), block.sync(), bar.sync 0.
  Counted, ///< bar.sync with a thread count: whole warps.
  Warp,    ///< __syncwarp(mask): the lanes of the mask.
  Tile,    ///< thread_block_tile<N>::sync(): the tile.
  Group,   ///< thread_group::sync(): some group of whole warps or tiles.
};

struct BarrierSite {
  const clang::Stmt *S = nullptr; ///< The call or asm statement.
  Scope Sc = Scope::Block;
  unsigned TileSize = 0;
  /// For Warp: the mask, when constant.
  std::optional<uint32_t> Mask;
  std::string Name; ///< "__syncthreads()", as written when short.
  /// A warp collective with a mask (`__shfl_sync`, `__ballot_sync`, ...;
  /// Sc is Warp), or a call to a function that executes one: every
  /// non-exited lane of the mask must execute it, and only those. Its
  /// events are KernelTrace::Collectives.
  bool Collective = false;
  /// For a call to a function that executes a barrier: the callee, and the
  /// calls and barrier inside it, outermost first.
  const clang::FunctionDecl *Callee = nullptr;
  std::vector<const clang::Stmt *> Path;
};

Scope scopeOf(cuda::SyncScope S);

/// The source text of \p S when it is on one line and at most \p Max
/// characters long; empty otherwise.
std::string text(const clang::Stmt *S, const clang::ASTContext &Ctx,
                 size_t Max = 48);

/// The barrier a call is, with its scope; none for calls that are not
/// barriers and for coalesced groups (which are, by construction, the
/// threads that reach the call).
std::optional<BarrierSite> barrierCall(const clang::CallExpr *Call,
                                       const FunctionUniformity &FU,
                                       const clang::ASTContext &Ctx);

/// `bar.sync 0;`, `barrier.sync.aligned 1, 128;`, `bar.red.popc...` in
/// inline asm. With a thread count the barrier waits for whole warps only.
std::optional<BarrierSite> barrierAsm(const clang::GCCAsmStmt *Asm);

} // namespace divergent
} // namespace shmem

#endif
