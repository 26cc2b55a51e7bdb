//===- KernelTrace.h - What one block of a kernel does to shared memory -*-===//
//
// The KernelWalker interprets a kernel body once, over every thread of one
// block at the same time: each integer is a LaneValue (one affine form per
// thread), each pointer into shared memory a base variable plus a per-thread
// byte offset, and the set of threads executing a statement is a per-thread
// mask refined at every branch (the branch condition is evaluated per
// thread, as in clang's Consumed analysis splitting state at an `if`).
// Joins after a branch select, per thread, the value of the side the thread
// took; loops are run to a fixpoint over which variables stay uniform, with
// induction variables expressed through an iteration-count unknown. Loops
// with constant bounds and few iterations (`for (s = 128; s > 0; s >>= 1)`,
// `for (k = 0; k < 32; ++k)`) are unrolled instead, so every value, guard
// and address inside them is exact per iteration; the same access then
// appears once per iteration in the trace.
// __device__ callees (lambdas' and function objects' operator() included,
// see Program/CallContexts.h) are walked at their call sites with the
// caller's argument values, so shared pointers passed to helpers are seen
// in context.
//
// The result lists every shared-memory access and every barrier with the
// per-thread facts the checks need; the checks decide what to report.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_KERNELTRACE_H
#define SHMEM_LINT_ANALYSIS_KERNELTRACE_H

#include "AnalysisOptions.h"
#include "Finding.h"
#include "LaneValue.h"
#include "ThreadGeometry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace shmem {

class BarrierContents;
class ConstantFolds;

/// What an unknown is made from: an AST node (or a tag), the variable it
/// stands for there, if any, and a sub-index. Identity, not a hash: two
/// variables joined at one `if`, or modified by one loop, have two keys.
struct SymbolKey {
  const void *Key = nullptr;
  const void *Var = nullptr;
  uint64_t Sub = 0;
  bool operator<(const SymbolKey &O) const {
    return std::tie(Key, Var, Sub) < std::tie(O.Key, O.Var, O.Sub);
  }
  bool operator==(const SymbolKey &O) const {
    return Key == O.Key && Var == O.Var && Sub == O.Sub;
  }
  bool operator!=(const SymbolKey &O) const { return !(*this == O); }
};

/// The uniform unknowns a kernel's values are expressed in.
struct SymbolInfo {
  enum Kind { Parameter, BlockIndex, GridSize, LoopIteration, Opaque };
  Kind K = Opaque;
  std::string Name; ///< As the user would write it ("ld", "blockIdx.x").
  /// Values the unknown is known to take, when the analysis could work them
  /// out (the iterations of a loop with constant bounds).
  std::optional<std::vector<int64_t>> Values;
  /// For LoopIteration: the loop counted. For the value a variable modified
  /// by a loop has at the top of an iteration (an Opaque unknown): that loop,
  /// and Values, when known, are indexed by iteration number.
  const clang::Stmt *Loop = nullptr;
  /// For LoopIteration, a loop whose counter starts at different constants
  /// in different threads (`for (i = threadIdx.x; i < 96; i += 64)`): each
  /// thread's trip count (the largest over the walk's visits), with Values
  /// the iterations up to the largest; empty when a visit did not give it.
  std::vector<int64_t> ThreadTrips;
  bool TripsUnknown = false;
  /// The key the walker made the unknown from (an AST node), the variable
  /// (a VarDecl) when the unknown is one variable's value at that node, and
  /// a sub-index. Stable across walks of one kernel, unlike SymbolId, so a
  /// check can match the unknowns of two traces (e.g. with loops pinned).
  const void *Key = nullptr;
  const void *Var = nullptr;
  uint64_t Sub = 0;
  SymbolKey key() const { return {Key, Var, Sub}; }
  /// The innermost loop whose body was being walked when the unknown was
  /// made, if any: its value may differ from one iteration of that loop (or
  /// of the loops around it) to the next.
  const clang::Stmt *Scope = nullptr;
};

class SymbolTable {
public:
  /// The unknown for \p Key, made on first use; \p Scope is recorded then
  /// (see SymbolInfo::Scope).
  SymbolId get(const SymbolKey &Key, SymbolInfo::Kind K, std::string Name,
               const clang::Stmt *Scope = nullptr);
  SymbolId get(const void *Key, uint64_t Sub, SymbolInfo::Kind K,
               std::string Name, const clang::Stmt *Scope = nullptr) {
    return get(SymbolKey{Key, nullptr, Sub}, K, std::move(Name), Scope);
  }
  /// The unknown made for \p Key, if any.
  std::optional<SymbolId> find(const SymbolKey &Key) const {
    auto It = Ids.find(Key);
    if (It == Ids.end())
      return std::nullopt;
    return It->second;
  }
  std::optional<SymbolId> find(const void *Key, uint64_t Sub) const {
    return find(SymbolKey{Key, nullptr, Sub});
  }
  const SymbolInfo &info(SymbolId S) const { return Infos[S]; }
  SymbolInfo &info(SymbolId S) { return Infos[S]; }
  unsigned size() const { return Infos.size(); }

private:
  std::map<SymbolKey, SymbolId> Ids;
  std::vector<SymbolInfo> Infos;
};

/// A pointer into memory: which shared variable, and the byte offset from
/// its start in every thread. A pointer into global memory derived from a
/// kernel parameter (or a __device__ array) has GlobalBase set instead, and
/// Offset is the byte offset from what that parameter points to.
struct PointerValue {
  const clang::ValueDecl *Base = nullptr; ///< Null: not known to be shared.
  bool DynamicShared = false; ///< extern __shared__ (all alias one buffer).
  LaneValue Offset;
  const clang::ValueDecl *GlobalBase = nullptr; ///< See above.
  bool isShared() const { return Base != nullptr; }
  bool isGlobal() const { return GlobalBase != nullptr; }
};

/// \p P's byte offset in thread \p Th when it is a plain number there (no
/// unknown with a coefficient in that thread).
inline std::optional<int64_t> plainOffset(const PointerValue &P,
                                          unsigned Th) {
  if (!P.Offset.isAffine() || Th >= P.Offset.size())
    return std::nullopt;
  for (const auto &KV : P.Offset.coefficients())
    if (KV.second[Th] != 0)
      return std::nullopt;
  return P.Offset.constants()[Th];
}

enum class AccessKind { Load, Store, Atomic };

/// How an element access to a shared array was indexed, for the layout
/// check: `t[R][C]` on a 2-D array, or `t[R * Pitch + C]` on a 1-D one (the
/// term with the largest constant factor is the row). Sub-expressions are
/// looked through locals initialised once (`int sc = c ^ r; t[r][sc]`) when
/// the initialiser still evaluates to the variable's value. When the column
/// is `A ^ B`, or `(A + B) % m` / `(A + B) & (m - 1)`, the two operands are
/// kept so that the check can tell a swizzle term (a function of the row)
/// from the logical column.
struct TileIndex {
  bool Valid = false;
  bool TwoD = false;
  /// Elements per row in memory: the array's row (padding included) or the
  /// constant factor of the row term; 0 for a plain 1-D index.
  int64_t Pitch = 0;
  LaneValue Row;
  LaneValue Col; ///< The column index as computed (physical column).
  bool HasColTerms = false;
  LaneValue ColA, ColB; ///< Col's operands, when HasColTerms.
  /// The element the index means when it XORs a swizzle term in: the flat
  /// element index with every `a ^ b` replaced by its operand that is not a
  /// function of the row (the other one is, and takes several values).
  /// Set only when the index has such an XOR and every one of them tells
  /// its swizzle term apart; concrete (no unknowns).
  bool HasUnswizzled = false;
  LaneValue Unswizzled;
  /// The index formula as written (for messages).
  std::string Text;
};

struct SharedAccess {
  const clang::Expr *E = nullptr; ///< The lvalue accessed, or atomic call.
  clang::SourceLocation Loc;
  PointerValue Address;
  AccessKind Kind = AccessKind::Load;
  unsigned Width = 4; ///< Bytes.
  clang::QualType Type;
  /// 1 in the threads that execute the access. Exact unless ActiveApprox.
  std::vector<char> Active;
  bool ActiveApprox = false;
  /// Some thread has left the kernel (returned from its body) before it.
  bool AfterExit = false;
  /// For stores: the value stored, when it is an integer.
  std::optional<LaneValue> Stored;
  bool Volatile = false;
  /// __device__ call sites through which the access was reached, outermost
  /// first (all in the kernel's own body for the first entry).
  std::vector<const clang::CallExpr *> CallStack;
  /// Loops around the access, outermost first (including those in callees).
  std::vector<const clang::Stmt *> Loops;
  /// Parallel to Loops: the iteration this instance belongs to when the
  /// walker unrolled that loop (constant bounds), else -1 (the loop's
  /// iteration unknown stands for every iteration).
  std::vector<int> LoopIterations;
  unsigned Seq = 0; ///< Program order within the walk.
  /// Accesses of one stretch run in the same threads whatever the active
  /// mask says: no branch that splits the threads, no loop header, no
  /// return, break, continue, case or label lies between them. The
  /// iterations of an unrolled loop whose tests hold in every thread, and
  /// the bodies of calls, are no boundary (nvcc inlines and unrolls them).
  unsigned Stretch = 0;
  /// For element accesses to a shared array: the logical indexing.
  TileIndex Tile;
  /// An asynchronous copy from global memory (cp.async, LDGSTS): a store
  /// that completes at the issuing thread's wait, not where it is written
  /// (see AsyncCopy).
  bool Async = false;
  /// For Async: the walk's number at the wait that completes the copy in
  /// the issuing thread (accesses numbered below it come before), and that
  /// wait; 0 when no wait for it follows in the walk.
  unsigned AsyncDoneSeq = 0;
  clang::SourceLocation AsyncDoneLoc;
  /// For Async: completed through an object the walk does not follow (a
  /// cuda::pipeline the block shares), so when it completes is not known.
  bool AsyncUntracked = false;
  /// For Async: a 16-byte `cp.async.cg` (LDGSTS.E.BYPASS.128), whose
  /// shared side follows the global side's 128-byte lines
  /// (BypassCopyModel); and each thread's source, as a byte offset from
  /// its global base, when the walk knows it.
  bool AsyncBypass = false;
  std::optional<LaneValue> AsyncSource;
  /// An inline-asm ldmatrix/stmatrix (its mnemonic; empty otherwise): a
  /// 16-byte row per lane of the first 8 * N lanes, each row required to
  /// be 16-byte aligned.
  std::string Matrix;
  /// Dataflow with global memory (indices into KernelTrace::GlobalAccesses):
  /// for a store, the global loads whose value it stores; for a load, the
  /// global stores its value reaches.
  std::vector<unsigned> Global;
};

/// A load or store of global memory through a pointer derived from a kernel
/// parameter. Only the byte offset from that parameter is known: the base
/// is assumed aligned to 256 bytes (as cudaMalloc returns), and unknowns
/// that are the same in every lane of a warp shift the warp's addresses
/// together.
struct GlobalAccess {
  const clang::Expr *E = nullptr;
  clang::SourceLocation Loc;
  const clang::ValueDecl *Base = nullptr; ///< The pointer parameter.
  LaneValue Offset;                       ///< Bytes from Base.
  AccessKind Kind = AccessKind::Load;     ///< Load or Store.
  unsigned Width = 4;
  clang::QualType Type;
  std::vector<char> Active;
  bool ActiveApprox = false;
  /// For a load, the shared stores that store its value; for a store, the
  /// shared loads whose value it stores (indices into Accesses).
  std::vector<unsigned> Shared;
  std::vector<const clang::CallExpr *> CallStack;
  std::vector<const clang::Stmt *> Loops;
  std::vector<int> LoopIterations;
  unsigned Seq = 0;
};

enum class BarrierKind { Block, Warp };

struct BarrierEvent {
  const clang::Expr *E = nullptr;
  clang::SourceLocation Loc;
  BarrierKind Kind = BarrierKind::Block;
  /// __syncwarp's mask, when constant.
  std::optional<uint32_t> WarpMask;
  /// A tile's sync(): the tile's thread count, of a thread_block_tile<N> or
  /// of the tile the walk knows a `thread_group` holds; 0 for any other
  /// barrier.
  unsigned TileSize = 0;
  std::vector<char> Active;
  bool ActiveApprox = false;
  /// 1 in the threads that have left the kernel (returned from its body)
  /// before reaching the event; empty when none has. They need not arrive:
  /// a `bar.sync` waits for the non-exited threads, a warp collective or
  /// `__syncwarp` for the non-exited lanes of its mask.
  std::vector<char> Exited;
  std::vector<const clang::CallExpr *> CallStack;
  std::vector<const clang::Stmt *> Loops;
  std::vector<int> LoopIterations; ///< As in SharedAccess.
  unsigned Seq = 0;
  /// A `bar.sync id, count` that orders only the threads its count gathers
  /// (see NamedBarriers): some thread that has not exited skips it, or the
  /// count is not theirs. Barrier intervals do not cut at it. A counted
  /// sync that every such thread reaches with their number as its count is
  /// a block barrier, and not Named.
  bool Named = false;
};

/// A named barrier with a thread count, from inline PTX: `bar.sync id,
/// count` (which also waits, and is in KernelTrace::Barriers as a block
/// barrier, Named unless it is one in effect) or `bar.arrive id, count`
/// (which signals and goes on, and is only here). It gathers `count`
/// threads, whichever arrive, so whether the counts add up and which
/// threads it orders depend on which threads reach which barrier: the walk
/// keeps the id and the count as each thread computes them
/// (NamedBarriers pairs them into generations).
struct CountedBarrierEvent {
  const clang::GCCAsmStmt *Asm = nullptr;
  std::string Mnemonic; ///< "bar.sync", "barrier.arrive", ...
  bool Arrive = false;
  bool Aligned = false; ///< See cuda::AsmBarrier::Aligned.
  /// Per thread; nullopt when the text names them in a way the walk does
  /// not read (see cuda::AsmBarrier).
  std::optional<LaneValue> Id, Count;
  /// Where the walk was: Loc, the active and exited threads, call stack and
  /// loops, and its own Seq in program order (a sync's is its barrier
  /// event's); Kind is not used.
  BarrierEvent At;
  /// For a sync: its index in KernelTrace::Barriers; -1 for an arrive.
  int Barrier = -1;
};

/// A bulk tensor copy (TMA) into shared memory (cuda::BulkTensorCopy): a
/// thread asks the copy engine to write a box there, at some time before
/// the mbarrier phase it completes ends. Not a SharedAccess: no lane
/// touches the bytes, and how many there are and where each element lands
/// come from the tensor map the host made (TensorMaps), which the checks
/// join in.
struct BulkCopyEvent {
  const clang::Stmt *S = nullptr; ///< The asm statement or call.
  clang::SourceLocation Loc;
  /// The destination in each issuing thread; none when the walk does not
  /// know it is shared.
  std::optional<PointerValue> Dst;
  /// The kernel parameter that holds the tensor map; null when the map
  /// comes from elsewhere (global memory, a pointer argument).
  const clang::ValueDecl *Map = nullptr;
  /// The mbarrier whose transaction count it completes, when known.
  std::optional<PointerValue> Barrier;
  /// Through a cuda::barrier: its wait (a block barrier here) completes it.
  bool CudaBarrier = false;
  std::vector<char> Active; ///< The issuing threads.
  bool ActiveApprox = false;
  std::vector<const clang::CallExpr *> CallStack;
  /// As in SharedAccess: -1 for a loop the walk does not unroll.
  std::vector<int> LoopIterations;
  unsigned Seq = 0;
};

/// A wait for an mbarrier's phase: inline `mbarrier.try_wait/test_wait`,
/// cuda::ptx's calls, a cuda::barrier's wait. The threads in Active have
/// seen the bulk copies that completed the phase.
struct BarrierWaitEvent {
  clang::SourceLocation Loc;
  std::optional<PointerValue> Barrier; ///< When known.
  std::vector<char> Active;
  bool ActiveApprox = false;
  std::vector<const clang::CallExpr *> CallStack;
  unsigned Seq = 0;
};

/// An arrive on an mbarrier (CudaModel's mbarrierArriveOf): the threads in
/// Active have made their accesses before it visible to a thread whose
/// wait sees the phase complete.
using BarrierArriveEvent = BarrierWaitEvent;

/// Where the kernel's own body reaches \p Loc: the outermost call of
/// \p CallStack (a TMA helper's asm is named by the helper's call), or
/// \p Loc itself when it is in the body.
inline clang::SourceLocation
kernelSite(clang::SourceLocation Loc,
           const std::vector<const clang::CallExpr *> &CallStack) {
  return CallStack.empty() ? Loc : CallStack.front()->getExprLoc();
}

/// A kernel parameter the walk takes as a constant: the integer every
/// launch in the translation unit passes for it
/// (LaunchGeometry::constantArguments), as `Bc = 32` in llm.c's attention.
struct ArgumentConstant {
  const clang::ParmVarDecl *Param = nullptr;
  int64_t Value = 0;
};

struct KernelTrace {
  const clang::FunctionDecl *Kernel = nullptr;
  /// The parameters walked as constants (what-if walks repeat them).
  std::vector<ArgumentConstant> Arguments;
  /// The translation unit's folded constants (ProgramCFGs::folds()) the
  /// walk used, which the what-if walks of this trace share; null when the
  /// walk kept its own.
  ConstantFolds *Folds = nullptr;
  /// The translation unit's table of what code executes of barriers
  /// (ProgramCFGs::barrierContents()), shared likewise; null when the walk
  /// kept its own.
  BarrierContents *Contents = nullptr;
  ThreadGeometry Geometry{Dim3{}};
  std::string GeometrySource; ///< "launch at k.cu:40", "assumed", ...
  bool GeometryAssumed = false;
  /// The bytes of dynamic shared memory the shape's launches give, when
  /// known (BlockShape::DynamicSharedBytes).
  std::optional<int64_t> DynamicSharedBytes;
  SymbolTable Symbols;
  std::vector<SharedAccess> Accesses;
  std::vector<BarrierEvent> Barriers;
  /// A block or warp barrier in a branch no thread took where the walk
  /// reached it (`if (nwarps > 1) __syncthreads();` with one warp): the
  /// statement of that side that runs its first barrier (the barrier or a
  /// call reaching it, Program/BarrierContents), the branch, and
  /// a program-order number of its own. The code around it was written to
  /// be ordered by it: a race across it wants that barrier, whatever other
  /// race near it a finding already names (RaceFinder::consider).
  struct SkippedBarrier {
    const clang::Stmt *Barrier = nullptr;
    const clang::Stmt *Branch = nullptr;
    unsigned Seq = 0;
  };
  std::vector<SkippedBarrier> SkippedBarriers;
  /// Warp collectives with a mask (`__shfl_*_sync`, `__ballot_sync`,
  /// `__all/_any/_uni_sync`, `__match_*_sync`, `__reduce_*_sync`; see
  /// cuda::collectiveOf), as warp-level events: WarpMask is the mask when
  /// the walk knows it and it is the same in every thread that executes the
  /// call. They synchronise the lanes of their mask but order no memory, so
  /// they are kept apart from Barriers, which the race check and the
  /// barrier intervals read. Seq is that of the next event in program order
  /// (collectives take no number of their own).
  std::vector<BarrierEvent> Collectives;
  /// Named barriers with a thread count (see CountedBarrierEvent).
  std::vector<CountedBarrierEvent> CountedBarriers;
  /// Bulk tensor copies (TMA) and mbarrier waits, in program order.
  std::vector<BulkCopyEvent> BulkCopies;
  std::vector<BarrierWaitEvent> BarrierWaits;
  /// mbarrier arrives, in program order (the release side of a pipeline).
  std::vector<BarrierArriveEvent> BarrierArrives;
  /// Global loads and stores (see GlobalAccess), in program order.
  std::vector<GlobalAccess> GlobalAccesses;
  /// Per branching statement (if, loop, switch, ?:, && and ||, keyed as the
  /// CFG's block terminators are): true when its condition had the same
  /// value in every active thread each time the walk reached it, so threads
  /// never split there. Branches the walk did not reach are absent.
  llvm::DenseMap<const clang::Stmt *, bool> UniformBranch;
  /// What the walk saw a branch do (an if, ?:, && or ||; keyed as
  /// UniformBranch) in one call context, over every time it reached it
  /// (every iteration of the loops around it): which sides some active
  /// thread took. Barrier intervals drop the CFG edge of a side no thread
  /// took (`if (blockDim.x > 32) __syncthreads();` with 256 threads), so
  /// the facts must be exact: a visit in a switch body (walked as
  /// straight-line code), in a loop's condition (whose last test an
  /// unrolled walk does not evaluate) or with an approximate mask clears
  /// Exact, unless the condition has one value in every thread (and no
  /// goto was walked): that side is then noted taken whichever threads
  /// are really there, and
  /// a branch absent here (not walked in that context) keeps both edges.
  ///
  /// In an unrolled loop the sides can differ by iteration (`if (k < n-1)
  /// __syncthreads();`, a barrier every iteration but the last): when the
  /// branch is right inside the same unrolled loop at every visit,
  /// IterLoop names it and IterTrue / IterFalse have bit k set when some
  /// thread took that side in iteration k (of any visit of the loop).
  struct BranchOutcomes {
    bool TakenTrue = false, TakenFalse = false;
    bool Exact = true;
    bool PerIteration = true;
    const clang::Stmt *IterLoop = nullptr;
    uint64_t IterTrue = 0, IterFalse = 0;
    /// The iterations of IterLoop in which some thread took side \p Index
    /// (0: true), or every one where that is not known.
    uint64_t iterationsTaking(unsigned Index) const {
      if (!PerIteration || !IterLoop)
        return ~uint64_t(0);
      return Index == 0 ? IterTrue : IterFalse;
    }
  };
  using CallContext = std::vector<const clang::CallExpr *>;
  /// The call stacks the walk has been in, numbered as they were first
  /// entered (0: the kernel's body), and their numbers. Branch facts are
  /// kept by number: keyed by the stack itself, the walk compared vectors
  /// at every branch (18% of a walk of ggml's mmq).
  std::vector<CallContext> Contexts{CallContext()};
  std::map<CallContext, unsigned> ContextIds{{CallContext(), 0}};
  /// A new number for \p C, one deeper than a numbered stack.
  unsigned addContext(CallContext C) {
    auto [It, New] = ContextIds.try_emplace(C, unsigned(Contexts.size()));
    if (New)
      Contexts.push_back(std::move(C));
    return It->second;
  }
  llvm::DenseMap<std::pair<const clang::Stmt *, unsigned>, BranchOutcomes>
      Branches;
  /// What the walk saw of a for or while loop in one call context, over
  /// every time it reached the loop with some thread active.
  struct LoopOutcomes {
    /// Every visit was walked with an exact mask.
    bool Exact = true;
    /// In every visit the first test of the condition held in every active
    /// thread: no thread skips the body.
    bool FirstTestHolds = true;
    /// >= 0: in every visit every thread that left through the condition
    /// did so at this test (after Trips iterations; unrolled loops). -1:
    /// unknown or several; -2: no thread left through the condition.
    int64_t Trips = -2;
  };
  std::map<const clang::Stmt *, std::map<CallContext, LoopOutcomes>>
      LoopFacts;
  /// The facts above for \p S in call context \p C, if walked there.
  const BranchOutcomes *branchOutcomes(const clang::Stmt *S,
                                       const CallContext &C) const {
    auto Id = ContextIds.find(C);
    if (Id == ContextIds.end())
      return nullptr;
    auto It = Branches.find({S, Id->second});
    return It == Branches.end() ? nullptr : &It->second;
  }
  const LoopOutcomes *loopOutcomes(const clang::Stmt *L,
                                   const CallContext &C) const {
    return factsAt(LoopFacts, L, C);
  }
  template <typename Facts>
  static const Facts *
  factsAt(const std::map<const clang::Stmt *, std::map<CallContext, Facts>> &M,
          const clang::Stmt *S, const CallContext &C) {
    auto It = M.find(S);
    if (It == M.end())
      return nullptr;
    auto CIt = It->second.find(C);
    return CIt == It->second.end() ? nullptr : &CIt->second;
  }
  /// Per unrolled loop: the variable that counts it and its value in each
  /// iteration (`s`: 128, 64, ..., 1), so messages can name an iteration.
  struct UnrolledLoop {
    const clang::VarDecl *Var = nullptr;
    std::vector<int64_t> Values;
  };
  std::map<const clang::Stmt *, UnrolledLoop> Unrolled;
  /// Loops with an unroll pragma that limits nvcc (`#pragma unroll N`,
  /// `#pragma nounroll`): N, 1 for none. nvcc merges accesses of adjacent
  /// iterations only within the copies of the body it unrolls
  /// (CompiledWidths); a loop without a pragma and constant bounds it
  /// unrolls fully (measured up to 64 iterations, bench/gpu/widths).
  std::map<const clang::Stmt *, unsigned> CompilerUnroll;
  /// The first call on a cuda::pipeline shared by the block, if the walk
  /// met one: its producers' copies are waited for by other threads, the
  /// consumers, stage by stage, an ordering the race analysis does not
  /// follow (it reports a gap instead of races it cannot judge).
  clang::SourceLocation SharedPipeline;
  /// What the walk did not analyse (a call not followed, a cap reached):
  /// the walker pushes Check (unset: every check), Loc, What, Why and
  /// CallStack; runChecks completes each and reports it once per location
  /// and reason beside the findings (Finding.h, AnalysisGap).
  std::vector<AnalysisGap> Gaps;
  /// Probe walks that recorded (walker/Speculation.h): kept as the walk of
  /// their loop, or taken back.
  unsigned ProbesKept = 0, ProbesTakenBack = 0;
};

/// Loops walked symbolically (not unrolled) whose iteration number is fixed
/// for one walk: the walk then describes that iteration only (each execution
/// of the loop's body is taken to be iteration k), with the loop's counters
/// and the variables it steps concrete. The race check uses this to
/// evaluate accesses whose addresses depend non-linearly on an iteration
/// (`buf[it & 1]` in a loop with a run-time trip count).
struct IterationPins {
  std::map<const clang::Stmt *, int64_t> Loops;
  /// Uniform unknowns fixed for one walk, keyed as SymbolInfo::key()
  /// (stable across walks): wherever the walk would make the unknown, it
  /// uses the value instead. The bank check walks once per residue of an
  /// unknown that enters an address non-linearly (`s[(c ^ lane) % 32]`).
  std::map<SymbolKey, int64_t> Unknowns;
};

/// The walk's numbers of a trace's barriers, to ask whether one lies
/// between two accesses (barriers and accesses share one numbering).
class BarrierPositions {
public:
  /// \p Counted: the named barriers' syncs and arrives as well.
  BarrierPositions(const KernelTrace &T, bool Counted) {
    for (const BarrierEvent &B : T.Barriers)
      Seqs.push_back(B.Seq);
    if (Counted)
      for (const CountedBarrierEvent &B : T.CountedBarriers)
        Seqs.push_back(B.At.Seq);
    std::sort(Seqs.begin(), Seqs.end());
  }
  /// Whether a barrier is numbered after \p From and before \p To.
  bool between(unsigned From, unsigned To) const {
    auto It = std::upper_bound(Seqs.begin(), Seqs.end(), From);
    return It != Seqs.end() && *It < To;
  }

private:
  std::vector<unsigned> Seqs;
};

/// A what-if layout: the innermost dimension of a 2-D shared array padded
/// by PadElems elements (the fix-it the bank check evaluates). For a
/// flattened array (`s[r * LD + c]`), StrideRefs lists the expressions that
/// spell the row stride inside the array's indices; the walk takes each to
/// be Stride + PadElems, as if the stride's definition had changed.
struct PaddingOverride {
  PaddingOverride(const clang::VarDecl *Var = nullptr, int64_t PadElems = 0)
      : Var(Var), PadElems(PadElems) {}
  const clang::VarDecl *Var = nullptr;
  int64_t PadElems = 0;
  std::set<const clang::Expr *> StrideRefs;
  /// StrideRefs and the index subexpressions around them: these must not be
  /// folded as constants before the override applies.
  std::set<const clang::Expr *> StrideContexts;
  int64_t Stride = 0;
};

/// Walk \p Kernel for one block of shape \p G, with \p Args as constants.
/// \p Folds and \p Contents, when given, are the translation unit's
/// caches of constants and of the barriers code executes.
KernelTrace traceKernel(clang::ASTContext &Ctx,
                        const clang::FunctionDecl *Kernel,
                        const ThreadGeometry &G, const AnalysisOptions &Opts,
                        const PaddingOverride *Pad = nullptr,
                        const IterationPins *Pins = nullptr,
                        const std::vector<ArgumentConstant> &Args = {},
                        ConstantFolds *Folds = nullptr,
                        BarrierContents *Contents = nullptr);

/// Walk \p Base's kernel again with its inputs (shape, constant
/// arguments) and an override: the what-if walks of the checks.
KernelTrace retraceKernel(clang::ASTContext &Ctx, const KernelTrace &Base,
                          const AnalysisOptions &Opts,
                          const PaddingOverride *Pad = nullptr,
                          const IterationPins *Pins = nullptr);

/// The barrier a call is, if any, as the trace records it (cuda::barrierOf).
std::optional<BarrierKind> barrierKindOf(const clang::CallExpr *Call);

/// Whether the code a kernel reaches (its body and, transitively, the
/// bodies of the functions it calls or names) refers to a `__shared__`
/// variable, calls a barrier or a warp collective (cuda::barrierOf,
/// cuda::collectiveOf) or holds inline assembly. When it does not, the walk
/// can record no shared access, barrier or collective, so no
/// check has anything to report: many kernels of real code use no shared
/// memory, and this syntactic scan costs a fraction of a walk. One object
/// per translation unit: each function's body is scanned once, however many
/// kernels reach it.
class KernelReach {
public:
  bool reachesSharedOrBarrier(const clang::FunctionDecl *Kernel);
  /// Whether the kernel's code, or any it names, reads threadIdx.y or .z.
  bool readsThreadIdxYZ(const clang::FunctionDecl *Kernel);

private:
  /// One function's body on its own: whether it holds a shared variable,
  /// barrier, collective or asm itself (Direct), whether it reads
  /// threadIdx.y or .z, and the function definitions it names.
  struct Summary {
    bool Direct = false;
    bool ThreadYZ = false;
    std::vector<const clang::FunctionDecl *> Named;
  };
  std::unordered_map<const clang::FunctionDecl *, Summary> Summaries;

  const Summary &summary(const clang::FunctionDecl *Def);
  bool anyReached(const clang::FunctionDecl *Def, bool Summary::*Holds);
};

} // namespace shmem

#endif
