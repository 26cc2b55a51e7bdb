//===- Uniformity.h - Which values the threads of a block agree on -*- C++ -*-===//
//
// A divergence analysis over clang's CFG: for every expression of a kernel
// (and of the __device__ functions it calls, analysed in the context of each
// call) it works out how widely the value is shared:
//
//   GridUniform   the same in every thread of the launch: constants, template
//                 arguments, kernel parameters, blockDim, gridDim, loads of
//                 global memory at grid-uniform addresses;
//   BlockUniform  the same in every thread of a block: blockIdx, loads from
//                 block-uniform addresses (and from shared memory, one word
//                 per block), __syncthreads_count/_and/_or;
//   WarpUniform   the same in every lane of a warp: threadIdx.x / 32 when
//                 blockDim.x is a multiple of 32, __ballot_sync(~0u, p);
//   Varying       may differ between the lanes of a warp: threadIdx.x,
//                 thread_rank(), atomics, loads from thread-dependent
//                 addresses, and everything computed from these.
//
// Beside the level, a value that varies between lanes may be known to be
// *warp-invariant*: it depends on the lane only, lane l holds the same value
// in every warp (`threadIdx.x % 32`, `threadIdx.x & 31` when blockDim.x is a
// multiple of 32, a load at such an index). Warp-invariant and warp-uniform
// together are block-uniform, which is what makes a full-warp reduction of a
// warp-invariant value block-uniform: every warp reduces the same 32 values
// (ggml's flash_attn_mask_to_KV_max reduces `buf[tid % 32]` after a barrier
// and breaks out of a loop with barriers on the result). It also knows
// which lanes of a warp agree: after `v += __shfl_xor_sync(~0u, v, 16)`
// lanes l and l ^ 16 hold the same sum, and after a butterfly over offsets
// 16, 8, 4, 2, 1 (straight-line or a loop with constant bounds) every lane
// does, so the result is warp-uniform whatever v was.
//
// The analysis is a forward dataflow to a fixpoint, in the style of clang's
// UninitializedValues: a small lattice per local variable, blocks visited in
// reverse post-order from the shared worklist (Program/Worklist.h), states
// merged with max at joins, back edges revisited until nothing changes;
// expression values are recorded in a final pass over the converged block
// states. A fixpoint stopped at its step cap is reported, not hidden:
// FunctionUniformity::converged().
//
// Control dependence comes from the post-dominator tree, through the branch
// regions the function's graph keeps (Program/BranchRegions.h). The region
// of a branch is the set of blocks reachable from its successors before its
// immediate post-dominator. When the branch is not grid-uniform:
//   - variables assigned in its region become at least as varying as the
//     condition where the paths from different successors meet again (the
//     joins, found by propagating "which successor did we come from" labels
//     through the region, as LLVM's SyncDependenceAnalysis does);
//   - when the region loops back to the branch (threads leave a loop after
//     different numbers of iterations), every variable assigned in the loop
//     is at least as varying as the branch after it.
// Clients ask for the level of an expression, or for the non-uniform
// branches a statement is control dependent on (shmem-divergent-barrier);
// the race check can ask the same questions.
//
// Memory is not tracked: a load is as uniform as its address (at best
// block-uniform; warp-invariant at a warp-invariant address), volatile loads
// and atomics vary. That takes the kernel to be free of races: threads that
// read one word in one barrier interval read one value unless some thread
// writes it in that interval, which shmem-race reports. Local variables, their
// elements and fields, references to them and `&x` passed to callees are
// (an array as one value, merged over its elements, except that the element
// last stored at `a[i]` reads back as stored until a or i changes).
//
// With a block shape, values that are functions of thread indices and
// constants only are also kept exactly, one value per thread (LaneValue), so
// `threadIdx.x / 32` is found warp-uniform, `threadIdx.x < 64` warp-uniform
// in a block of 256, and `threadIdx.x < 256` uniform in a block of 256.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_UNIFORMITY_H
#define SHMEM_LINT_ANALYSIS_UNIFORMITY_H

#include "LaneValue.h"
#include "Program/BranchRegions.h"
#include "Program/KernelCFG.h"
#include "Program/NodeMap.h"
#include "ThreadGeometry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ParentMap;
} // namespace clang

namespace shmem {

/// How widely the threads executing an expression agree on its value. The
/// order is the lattice order: merging two values takes the larger level.
enum class UniformityLevel : uint8_t {
  GridUniform,
  BlockUniform,
  WarpUniform,
  Varying,
};

/// "grid-uniform", "block-uniform", "warp-uniform" or "varying".
llvm::StringRef levelName(UniformityLevel L);

/// Where a value's variance comes from, for messages ("this condition depends
/// on threadIdx.x").
struct VarianceSource {
  enum Kind : uint8_t {
    None,
    ThreadIndex,         ///< threadIdx.*, %laneid.
    BlockIndex,          ///< blockIdx.*, %smid.
    ThreadRank,          ///< cooperative groups' thread_rank().
    Atomic,              ///< The result of an atomic.
    VolatileLoad,        ///< A volatile load: threads may see different values.
    ThreadDependentLoad, ///< A load from a thread-dependent address.
    MemoryLoad,          ///< A load from a uniform address (block-uniform).
    BlockCollective,     ///< __syncthreads_count/_and/_or.
    WarpCollective,      ///< __ballot_sync and friends over a full warp.
    LaneExchange,        ///< A shuffle that does not broadcast.
    Opaque,              ///< Inline asm outputs, clocks, unknown callees.
    DivergentAssignment, ///< Assigned under a branch that is not uniform.
    DivergentLoopExit,   ///< Live out of a loop threads leave at different times.
  };
  Kind K = None;
  /// The expression the variance comes from; for the two assignment kinds,
  /// the branch statement.
  const clang::Stmt *S = nullptr;
  /// For the two assignment kinds: the variable.
  const clang::ValueDecl *Var = nullptr;
};

/// "threadIdx.x", "the result of 'atomicAdd'", "'x', which is assigned under
/// the thread-dependent branch at line 12", ...
std::string describeSource(const VarianceSource &S,
                           const clang::ASTContext &Ctx);

/// The abstract value of an expression or variable.
struct UniformityValue {
  UniformityLevel Level = UniformityLevel::GridUniform;
  /// The exact value in every thread of the block, when it is a function of
  /// thread indices and constants only and the block shape is known.
  /// Integers and booleans only.
  std::shared_ptr<const LaneValue> PerThread;
  /// For pointers known to point into a local variable of the function being
  /// analysed (`&x`, a local array decayed): loads and stores through it
  /// read and update that variable.
  const clang::VarDecl *PointsToLocal = nullptr;
  VarianceSource Source;
  /// For values that vary between lanes (see laneXor()): bit d set when
  /// lanes l and l ^ d of every warp hold the same value. Bit 0 always.
  /// Butterflies set it in warps of 32 lanes only.
  uint32_t LaneXor = 1;
  /// For values that vary between warps (see warpInvariant()): lane l holds
  /// the same value in every warp.
  bool WarpInvariant = false;
  /// For a value that varies: it is a part of level ShiftLevel plus these
  /// exact per-thread values (`base + threadIdx.x`, base not known). Two
  /// values with one Shift differ by that level, and so does the outcome
  /// of comparing them: `for (t = base + tid; t < end + tid; t += C)` runs
  /// equally often in every thread (ggml's rwkv_wkv_f32). Kept through
  /// adding or subtracting what has no Shift, and by joins of two values
  /// with the same one; dropped by everything else.
  std::shared_ptr<const LaneValue> Shift;
  UniformityLevel ShiftLevel = UniformityLevel::GridUniform;

  static UniformityValue uniform(UniformityLevel L = UniformityLevel::GridUniform) {
    UniformityValue V;
    V.Level = L;
    return V;
  }
  static UniformityValue varying(UniformityLevel L, VarianceSource::Kind K,
                                 const clang::Stmt *S) {
    UniformityValue V;
    V.Level = L;
    V.Source.K = K;
    V.Source.S = S;
    return V;
  }

  /// The least value above both: the larger level; the per-thread value and
  /// local pointee only when both sides agree on them.
  static UniformityValue join(const UniformityValue &A,
                              const UniformityValue &B);
  /// Equal as lattice elements (the source is only explanation).
  bool sameAs(const UniformityValue &O) const;
  /// The per-thread part and the level of the rest, as Shift says: a value
  /// with exact per-thread values that vary is its own shift of a constant.
  std::pair<const LaneValue *, UniformityLevel> shifted() const;

  bool isBlockUniform() const { return Level <= UniformityLevel::BlockUniform; }
  /// The lane offsets under which the value is the same (all for a
  /// warp-uniform value).
  uint32_t laneXor() const {
    return Level <= UniformityLevel::WarpUniform ? ~0u : LaneXor;
  }
  /// Depends on the lane only: the same in lane l of every warp.
  bool warpInvariant() const {
    return Level <= UniformityLevel::BlockUniform || WarpInvariant;
  }
  /// The level the symmetries imply: the same under every lane offset is
  /// warp-uniform, and warp-uniform and warp-invariant is block-uniform.
  void normalize();
};


class UniformityAnalysis;
struct FunctionSkeleton;

/// The result for one function in one calling context.
class FunctionUniformity {
public:
  const clang::FunctionDecl *function() const;
  const clang::CFG &cfg() const;
  /// The parent map of the function's body (for clients relating
  /// statements to their enclosing constructs).
  const clang::ParentMap &parents() const;

  /// The value of \p E at the point it is evaluated, after the fixpoint.
  /// Null for expressions never reached (dead code, unevaluated operands).
  const UniformityValue *value(const clang::Expr *E) const;
  /// The level of \p E; Varying for expressions never reached.
  UniformityLevel level(const clang::Expr *E) const;
  /// The level of the address the lvalue \p E designates (`s[i]`: that of
  /// s and i; `*p`: that of p): threads that agree on it access one
  /// element. Varying when not known.
  UniformityLevel addressLevel(const clang::Expr *E) const;
  /// Block-uniform (or grid-uniform).
  bool isUniform(const clang::Expr *E) const {
    return level(E) <= UniformityLevel::BlockUniform;
  }
  bool isWarpUniform(const clang::Expr *E) const {
    return level(E) <= UniformityLevel::WarpUniform;
  }

  /// Every branch of the function, and the value of what it tests.
  llvm::ArrayRef<BranchInfo> branches() const;
  const UniformityValue &conditionValue(const BranchInfo &B) const;
  /// Branches whose condition is at least \p Min and on which \p S is
  /// control dependent (directly or through other branches), innermost
  /// (smallest region) first. \p S must be a statement the CFG lists as an
  /// element (a call, an asm statement, a full expression).
  llvm::SmallVector<const BranchInfo *, 4>
  controllingBranches(const clang::Stmt *S, UniformityLevel Min) const;

  /// The blocks reachable from the entry, in reverse post-order.
  llvm::ArrayRef<const clang::CFGBlock *> blocks() const;
  /// Whether some thread runs \p B in this calling context: false behind a
  /// branch whose condition is known here and the same in every thread
  /// (`if (stride_j == 0) return;` with the callee's argument known), and
  /// behind code that never ends (its values are then not computed).
  bool reached(const clang::CFGBlock *B) const {
    return Reached.size() > B->getBlockID() && Reached.test(B->getBlockID());
  }

  /// The CFG block that evaluates \p S, if any.
  const clang::CFGBlock *blockOf(const clang::Stmt *S) const;

  /// The analysis of \p Call's callee in the context of this call, when it
  /// has a body the analysis followed.
  const FunctionUniformity *callee(const clang::CallExpr *Call) const;

  /// The value returned (merged over every return).
  const UniformityValue &returnValue() const { return Ret; }

  /// False when clang could not build a CFG: every query is conservative.
  bool valid() const { return Skeleton != nullptr; }

  /// Whether the fixpoint of this function, and those of the callees
  /// analysed in its context, converged. False when one stopped at its step
  /// cap (UniformityAnalysis::setStepCap): the values are then the last
  /// state it reached, which may hold a value as more uniform than it is
  /// (unsound); a client should say the kernel was not fully analysed.
  bool converged() const { return Converged; }
  /// The blocks this function's fixpoint visited (its callees' not counted).
  unsigned fixpointSteps() const { return Steps; }

private:
  friend class UniformityAnalysis;
  friend class FunctionAnalyzer;

  const FunctionSkeleton *Skeleton = nullptr;
  NodeMap<clang::Expr, UniformityValue> Values;
  std::vector<UniformityValue> BranchValues;
  llvm::DenseMap<const clang::CallExpr *, const FunctionUniformity *> Callees;
  UniformityValue Ret;
  /// The value of each parameter at the function's exit (for by-reference
  /// arguments, which callers write back).
  std::vector<UniformityValue> ParamsAtExit;
  /// Everything the function stores through pointers and references that
  /// are not its own locals (for callers' out-parameters).
  UniformityValue Stored;
  bool Converged = true;
  unsigned Steps = 0;
  /// By block ID: reached() (see there).
  llvm::BitVector Reached;
};

/// How an argument reaches a callee: its value, and whether the parameter
/// is a reference to a whole local variable of the caller (so that writes
/// flow back).
struct ArgumentContext {
  UniformityValue Value;
  bool ByReferenceToLocal = false;
  bool sameAs(const ArgumentContext &O) const {
    return ByReferenceToLocal == O.ByReferenceToLocal && Value.sameAs(O.Value);
  }
};

/// Analyses kernels and the functions they call, memoising each function per
/// calling context (the values of its arguments).
class UniformityAnalysis {
public:
  /// \p Geometry may be null: thread indices are then simply varying and no
  /// per-thread values are kept.
  /// \p Graphs, when given, supplies the functions' CFGs (shared with the
  /// other analyses of the translation unit); else the analysis builds its
  /// own.
  UniformityAnalysis(clang::ASTContext &Ctx, const ThreadGeometry *Geometry,
                     unsigned InlineDepth = 12, ProgramCFGs *Graphs = nullptr);
  ~UniformityAnalysis();
  UniformityAnalysis(const UniformityAnalysis &) = delete;
  UniformityAnalysis &operator=(const UniformityAnalysis &) = delete;

  /// A kernel: every parameter grid-uniform.
  const FunctionUniformity &analyzeKernel(const clang::FunctionDecl *Kernel);

  /// \p F with the given argument values (one per parameter) and implicit
  /// object (for methods and lambdas). Null past the inlining depth, for
  /// recursion, and for functions without a body.
  const FunctionUniformity *analyzeFunction(const clang::FunctionDecl *F,
                                            llvm::ArrayRef<ArgumentContext> Args,
                                            const UniformityValue &This,
                                            unsigned Depth);

  clang::ASTContext &context() const { return Ctx; }
  const ThreadGeometry *geometry() const { return Geometry; }
  unsigned inlineDepth() const { return InlineDepth; }

  /// The level a per-thread value has over the block's warps.
  UniformityLevel levelOf(const LaneValue &V) const;
  /// Whether a per-thread value is the same in lane l of every warp.
  bool warpInvariant(const LaneValue &V) const;
  /// The block shape is known and its threads fill whole warps: a full-warp
  /// collective then combines the same lanes in every warp.
  bool completeWarps() const;

  /// At most \p Steps block visits in the fixpoint of each function and
  /// calling context analysed from now on; 0 (the default) gives
  /// 64 x (blocks + 8) x (branches + 8), which a correct transfer never
  /// reaches. See FunctionUniformity::converged().
  void setStepCap(unsigned Steps) { StepCap = Steps; }

private:
  friend class FunctionAnalyzer;

  clang::ASTContext &Ctx;
  const ThreadGeometry *Geometry;
  unsigned InlineDepth;
  unsigned StepCap = 0;
  std::unique_ptr<ProgramCFGs> OwnGraphs;
  ProgramCFGs &Graphs;

  struct Memo {
    std::vector<ArgumentContext> Args;
    UniformityValue This;
    std::unique_ptr<FunctionUniformity> Result;
  };
  std::map<const clang::FunctionDecl *, std::vector<Memo>> Memos;
  std::map<const clang::FunctionDecl *, std::unique_ptr<FunctionSkeleton>>
      Skeletons;
  /// What depends on the geometry only, kept across the functions and
  /// contexts analysed (the constants expressions fold to are kept longer,
  /// by Graphs, for the whole translation unit).
  std::map<int64_t, std::shared_ptr<const LaneValue>> ConstantVectors;
  /// Functions being analysed, to cut recursion.
  std::vector<const clang::FunctionDecl *> InProgress;

  const FunctionSkeleton *skeleton(const clang::FunctionDecl *F);
};

} // namespace shmem

#endif
