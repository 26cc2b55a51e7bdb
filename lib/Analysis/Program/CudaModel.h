//===- CudaModel.h - The CUDA vocabulary, named once ------------*- C++ -*-===//
//
// Which calls and asm statements of CUDA code synchronise threads, whom they
// wait for, and which are warp collectives with a mask. Every analysis asks
// here instead of matching names itself, so that a new barrier or intrinsic
// is taught to the walker, the uniformity analysis, the reach scan and the
// checks at once.
//
// Names are matched as CUDA code spells them (the toolkit's headers declare
// `__syncthreads()`, `__shfl_sync()`, ...; the tests' stand-in headers do
// too) and as clang's NVVM builtins that those headers call.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_CUDAMODEL_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_CUDAMODEL_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>
#include <string>

namespace clang {
class CXXRecordDecl;
class GCCAsmStmt;
} // namespace clang

namespace shmem {
namespace cuda {

/// The callee's plain name ("__syncthreads", "sync"); empty for operators,
/// constructors and indirect calls.
std::string calleeName(const clang::CallExpr *Call);

/// CUDA's index builtins: threadIdx, blockDim, blockIdx and gridDim.
enum class IndexVar { ThreadIdx, BlockDim, BlockIdx, GridDim };
struct BuiltinIndex {
  IndexVar Var = IndexVar::ThreadIdx;
  unsigned Axis = 0; ///< 0, 1, 2: x, y, z.
};
/// "threadIdx", ...
const char *indexVarName(IndexVar V);
/// "threadIdx.x", ...
std::string indexName(BuiltinIndex B);

/// What \p E reads when it is one of the index builtins, however the
/// headers spell it: the property `threadIdx.x` (a PseudoObjectExpr over an
/// MSPropertyRefExpr, or that MSPropertyRefExpr), the getter behind it
/// (`__cuda_builtin_threadIdx_t::__fetch_builtin_x()`), or the NVVM
/// register read it lowers to (`__nvvm_read_ptx_sreg_tid_x()`). The walker,
/// Uniformity and KernelReach ask here.
std::optional<BuiltinIndex> builtinIndexOf(const clang::Expr *E);

/// Whom a barrier waits for.
enum class SyncScope {
  Grid,      ///< grid.sync(), cg::sync(grid): every thread of the launch.
  Block,     ///< __syncthreads(), block.sync(), bar.sync 0.
  Counted,   ///< bar.sync id, count: whole warps (inline asm only).
  Warp,      ///< __syncwarp(mask): the lanes of the mask.
  Tile,      ///< thread_block_tile<N>::sync(): the tile's N threads.
  Group,     ///< thread_group::sync(), a tile of unknown size: some group.
  Coalesced, ///< coalesced_group::sync(): the threads that reach it.
};

/// A call that is a barrier.
struct BarrierCall {
  /// How the trace records it: true for the barriers of a warp or less
  /// (__syncwarp, a tile's or a coalesced group's sync), false for the rest
  /// (a `thread_group`'s sync counts as a block's until the walk knows
  /// which group it holds).
  bool WarpLevel = false;
  /// Whom it waits for, from the call alone (see SyncScope). A group
  /// reached through a static member (`cta.sync()` with the toolkit's
  /// headers) has the scope of its builtin, the block's.
  SyncScope Scope = SyncScope::Block;
  /// For Tile: N of thread_block_tile<N>.
  unsigned TileSize = 0;
  /// The argument that holds the lane mask (__syncwarp), if any; a missing
  /// or defaulted argument means every lane.
  std::optional<unsigned> MaskArg;
  /// __syncthreads_count/_and/_or (and their NVVM builtins): the barrier
  /// also returns a reduction over the block, the same in every thread.
  bool Reduces = false;
  /// A block-scope `cuda::barrier`'s wait: it also completes the thread's
  /// cuda::memcpy_async copies tied to a barrier (AsyncCopy::BarrierTied).
  bool CompletesBarrierCopies = false;
  /// `cooperative_groups::wait(g)` / `wait_prior<N>(g)`: the group's sync,
  /// after the thread's own async copies but the last AsyncPending batches
  /// are complete (the toolkit writes it `__pipeline_wait_prior(N);
  /// g.sync();`).
  bool CompletesAsyncCopies = false;
  unsigned AsyncPending = 0;
};

/// The barrier \p Call is, if any: the block barriers and their reducing
/// forms, __barrier_sync, __syncwarp, the NVVM builtins behind them,
/// cooperative groups' `g.sync()` / `cg::sync(g)`, and the waits of a
/// `cuda::barrier<cuda::thread_scope_block>`: `arrive_and_wait()`, and
/// `wait(token)` after `arrive()` (taken as the barrier: an access between
/// a thread's arrive and its wait counts as before it). Such a barrier is
/// taken to count every thread of the block (`init(&bar, blockDim.x *
/// blockDim.y * blockDim.z)`, as CUDA's samples write it), unless the
/// kernel initialises it for some threads only (isPartialBarrierWait).
std::optional<BarrierCall> barrierOf(const clang::CallExpr *Call);

/// A wait (`wait(token)`, `arrive_and_wait()`) on a block-scope
/// cuda::barrier that its kernel initialises for some threads only (no
/// `init(&bar, count)` names blockDim): a pipeline's barrier, which orders
/// the threads that arrive at it, not a barrier of the block (barrierOf
/// says none; the walk records it as a wait).
bool isPartialBarrierWait(const clang::CallExpr *Call);

/// Whether \p Name is a barrier intrinsic (the named barriers above and
/// every `__nvvm_bar*` builtin): a call that returns nothing thread-specific.
bool isBarrierName(llvm::StringRef Name);

/// Whether \p Call builds one of CUDA's vector types from its components
/// (`make_float2(x, y)`, `make_int4(...)`, vector_functions.h): a value the
/// arguments alone decide.
bool isVectorMaker(const clang::CallExpr *Call);

/// Whether \p Name is a block-wide reduction that is also a barrier
/// (__syncthreads_count/_and/_or and their NVVM builtins).
bool isBlockReduction(llvm::StringRef Name);

/// A barrier written in inline asm: `bar.sync`, `barrier.sync`, `bar.red`,
/// `barrier.red`, `bar.arrive`, `barrier.arrive` (with `.cta`, `.aligned`
/// and the reduction's modifiers). The cluster barriers and mbarriers are
/// other instructions.
struct AsmBarrier {
  std::string Mnemonic; ///< "bar.sync", "barrier.red", "bar.arrive", ...
  /// bar.arrive / barrier.arrive: the thread signals the barrier and goes
  /// on without waiting.
  bool Arrive = false;
  /// `.aligned` (every `bar.*` form is): PTX requires the threads that
  /// execute it together to execute this one instruction.
  bool Aligned = false;
  /// `bar.sync id, count`: the barrier waits for `count` threads, whole
  /// warps, rather than the block.
  bool Counted = false;
  /// The barrier's id and, for Counted, its thread count: each an
  /// immediate (`bar.sync 1, 64;`) or the asm operand that holds it
  /// (`bar.sync %0, %1;`, outputs numbered first); neither when the text
  /// says it otherwise (a named operand, a register of the asm's own).
  std::optional<unsigned> Id, IdOperand;
  std::optional<unsigned> Count, CountOperand;
  /// bar.red / barrier.red: a block-wide reduction as well.
  bool Reduces = false;
};
/// The first barrier of \p AsmText that waits (sync or red), if any.
std::optional<AsmBarrier> asmBarrierOf(llvm::StringRef AsmText);
std::optional<AsmBarrier> asmBarrierOf(const clang::GCCAsmStmt *Asm);
/// The first named barrier with a thread count of \p AsmText, if any: a
/// counted sync or an arrive (which always has a count). These order only
/// the threads the count gathers, so the named-barrier check pairs them up.
std::optional<AsmBarrier> asmCountedBarrierOf(llvm::StringRef AsmText);

/// A warp-wide matrix load or store of shared memory written in inline asm:
/// `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared[::cta].b16 {..},
/// [%N];` and `stmatrix...` (sm_90). Each of the first 8 * Matrices lanes
/// gives the address of one 16-byte row; the hardware serves the rows like
/// a 16-byte load or store of those lanes (8 lanes a phase).
struct AsmMatrixAccess {
  std::string Mnemonic;  ///< "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
  bool Store = false;    ///< stmatrix.
  unsigned Matrices = 1; ///< N of .xN: 1, 2 or 4.
  bool Trans = false;    ///< .trans: the same rows, transposed in registers.
  /// The state space is .shared (the operand is a 32-bit shared address,
  /// as __cvta_generic_to_shared gives); without it the operand is a
  /// generic pointer.
  bool SharedSpace = false;
  /// The asm operand (%N, outputs first) that holds the row address.
  unsigned AddressOperand = 0;
  /// Bytes added in the text (`[%4+32]`).
  int64_t Displacement = 0;
  /// Bytes of one row; the rows' alignment the instruction requires.
  static constexpr unsigned RowBytes = 16;
  unsigned activeLanes() const { return 8 * Matrices; }
};
/// The first ldmatrix/stmatrix of \p AsmText, if it is one of the m8n8 .b16
/// shapes above with a `[%N]` address.
std::optional<AsmMatrixAccess> asmMatrixOf(llvm::StringRef AsmText);
/// The same for \p Asm, and the expression of its address operand.
std::optional<std::pair<AsmMatrixAccess, const clang::Expr *>>
asmMatrixOf(const clang::GCCAsmStmt *Asm);

/// An asynchronous copy of global memory into shared memory (cp.async,
/// LDGSTS on sm_80+): a store of 4, 8 or 16 bytes per thread that is in
/// flight until the issuing thread waits for it (see AsyncWait).
struct AsyncCopy {
  /// The argument (calls) or asm operand (%N, outputs first) that holds
  /// the destination: a shared pointer, or a shared-window address for the
  /// asm form.
  unsigned DstOperand = 0;
  /// The bytes copied, when written in the text; else SizeOperand says
  /// where they are.
  std::optional<unsigned> Bytes, SizeOperand;
  /// The argument or asm operand that holds the global source.
  std::optional<unsigned> SrcOperand;
  /// A 16-byte copy of this form is a `cp.async.cg` (LDGSTS.E.BYPASS.128,
  /// priced by BypassCopyModel): the asm says .cg, and
  /// __pipeline_memcpy_async and cuda::memcpy_async emit .cg for 16 bytes
  /// (.ca, priced as a store, below).
  bool BypassAt16 = false;
  /// cuda::memcpy_async completed through an object the walk does not
  /// follow (a pipeline shared by the block): which wait completes it,
  /// in which thread, is not known.
  bool UntrackedCompletion = false;
  /// cuda::memcpy_async tied to a block-scope cuda::barrier: complete at
  /// the issuing thread's next wait on a barrier of that kind
  /// (BarrierCall::CompletesBarrierCopies).
  bool BarrierTied = false;
};
/// `__pipeline_memcpy_async(dst, src, size)` and `cuda::memcpy_async(dst,
/// src, size, sync)` into a pointer, `sync` a thread-scope `cuda::pipeline`
/// (whose commits and waits are followed), a block-scope `cuda::barrier`
/// (BarrierTied) or another object (untracked). The cooperative_groups
/// form, which spreads the bytes over a group's threads, is not one.
std::optional<AsyncCopy> asyncCopyOf(const clang::CallExpr *Call);
/// `cp.async.{ca,cg}.shared[::cta].global[...] [%0], [%1], 16;`.
std::optional<AsyncCopy> asmAsyncCopyOf(llvm::StringRef AsmText);

/// `cooperative_groups::memcpy_async(group, dst, src, bytes)` (bytes a
/// size_t or a `cuda::aligned_size_t<A>`) and `(group, dst, dstCount, src,
/// srcCount)`: the group's threads copy the bytes between them, thread r
/// of N the pieces r, r + N, ... (the toolkit's accelerated_async_copy:
/// one `__pipeline_memcpy_async` a piece, then `__pipeline_commit()`).
struct GroupCopy {
  unsigned GroupOperand = 0, DstOperand = 1, SrcOperand = 2;
  /// The argument that holds the count, in bytes or (ElementCount) in
  /// elements of the pointee.
  unsigned CountOperand = 3;
  bool ElementCount = false;
  /// The alignment a `cuda::aligned_size_t<A>` count promises (0: none).
  unsigned AlignHint = 0;
  /// libcu++'s `cuda::memcpy_async(group, dst, src, size, sync)`: the
  /// pieces are completed through `sync` as asyncCopyOf's copies are
  /// (BarrierTied, UntrackedCompletion), and no batch is committed.
  std::optional<AsyncCopy> Sync;
};
/// Also libcu++'s `cuda::memcpy_async(group, dst, src, size, sync)`, whose
/// pieces libcu++ spreads over the group the same way.
std::optional<GroupCopy> groupCopyOf(const clang::CallExpr *Call);

/// A bulk tensor copy (TMA) of a box of a global tensor into shared memory:
/// `cp.async.bulk.tensor.Nd.shared::cluster.global... [%dst], [%map, {..}],
/// [%bar];` and libcu++'s wrappers. One thread issues it; the copy engine
/// writes the box in the layout the tensor map gives (see TmaBoxLayout) and
/// completes the transaction bytes on an mbarrier, whose wait orders it.
struct BulkTensorCopy {
  unsigned Dims = 2; ///< N of `.Nd`.
  /// Asm operands (%N, outputs first) or call arguments: the shared
  /// destination, the tensor map's address and the mbarrier's.
  unsigned DstOperand = 0, MapOperand = 1;
  std::optional<unsigned> BarrierOperand;
  /// The barrier argument is a `cuda::barrier` (a reference), not an
  /// address.
  bool CudaBarrier = false;
};
/// The first global-to-shared `cp.async.bulk.tensor` of \p AsmText, with
/// its operands; none for the shared-to-global (store) direction.
std::optional<BulkTensorCopy> asmBulkTensorCopyOf(llvm::StringRef AsmText);
/// `cuda::device::experimental::cp_async_bulk_tensor_Nd_global_to_shared(
/// dst, &map, c..., bar)` and `cuda::ptx::cp_async_bulk_tensor(space,
/// space, dst, &map, coords, &bar)` (loads only).
std::optional<BulkTensorCopy> bulkTensorCopyOf(const clang::CallExpr *Call);

/// A wait for an mbarrier's phase: `mbarrier.try_wait` / `test_wait`
/// (with `.parity` or a state; asm) and cuda::ptx's `mbarrier_try_wait*`,
/// `mbarrier_test_wait*` (calls): the operand or argument holding the
/// barrier's address. A thread that has seen the phase complete sees the
/// bulk copies that completed it.
std::optional<unsigned> asmMbarrierWaitOf(llvm::StringRef AsmText);
std::optional<unsigned> mbarrierWaitOf(const clang::CallExpr *Call);

/// An arrive on an mbarrier: inline `mbarrier.arrive[.expect_tx]` and
/// `mbarrier.arrive_drop` (the operand holding the barrier's address). A
/// thread's accesses before its arrive happen before another thread's wait
/// that sees the phase complete: how consumers release a pipeline stage.
std::optional<unsigned> asmMbarrierArriveOf(llvm::StringRef AsmText);

/// The call forms: cuda::ptx's `mbarrier_arrive*` (a pointer argument), a
/// cuda::barrier's `arrive()` and `cuda::device::barrier_arrive_tx(bar,
/// ...)` (the barrier object).
struct MbarrierArrive {
  const clang::Expr *Barrier = nullptr;
  bool IsObject = false; ///< Barrier is the object, not its address.
};
std::optional<MbarrierArrive> mbarrierArriveOf(const clang::CallExpr *Call);

/// How widely one value of a PTX special register is shared (PTX ISA,
/// "Special Registers"): each thread its own (%tid, %laneid, %clock), one
/// per warp (%warpid), one per block (%ctaid, %clusterid, %cluster_ctarank,
/// %smid), or one for the launch (%ntid, %nctaid, %nclusterid,
/// %cluster_nctarank, %nsmid, the shared-memory sizes).
enum class RegisterSpan { Thread, Warp, Block, Launch };
/// \p Name without its `%` and with or without a `.x`-style component
/// (`clusterid.x`, `cluster_ctarank`); none for a register not listed.
std::optional<RegisterSpan> specialRegisterSpan(llvm::StringRef Name);

/// The special register an inline asm only copies into its output:
/// `mov.u32 %0, %clusterid.x;` (with clang's `%%`, which the driver writes
/// for nvcc's lone `%`); its name without the `%`.
std::optional<std::string> asmSpecialRegisterMove(llvm::StringRef AsmText);

/// Whether inline asm \p AsmText only computes its outputs from its
/// operands: every instruction is register arithmetic, comparison,
/// selection, conversion or a move between operands (`bfind.u32 %0, %1;`,
/// `prmt.b32`, `lop3.b32`, `cvt.rn.f16.f32`), and it names no special
/// register (`%%laneid`). Such an asm's outputs are as uniform as its
/// inputs; one that loads, exchanges between lanes or reads a clock is not.
bool asmComputesOnly(llvm::StringRef AsmText);

/// Whether \p T is the driver API's tensor map (`CUtensorMap`), however
/// qualified or referred to.
bool isTensorMapType(clang::QualType T);

/// Whether \p T is a tensor map or a pointer to one: how a kernel receives
/// a map (`const __grid_constant__ CUtensorMap` in parameter space, or
/// `const CUtensorMap *` into global memory the host filled by cudaMemcpy).
bool holdsTensorMap(clang::QualType T);

/// What waits for async copies: the thread's copies since the last commit
/// form a group (Commit); Wait completes every committed group but the
/// newest Pending ones (`cp.async.wait_group N`, `__pipeline_wait_prior(N)`);
/// `cp.async.wait_all` commits and waits for all.
struct AsyncWait {
  bool Commit = false;
  bool Wait = false;
  /// cuda::pipeline's consumer_wait(): completes the oldest committed group
  /// only (the pipeline's stages are consumed in order).
  bool Oldest = false;
  /// Groups left in flight; PendingOperand: the argument that holds it.
  std::optional<unsigned> Pending, PendingOperand;
};
/// `__pipeline_commit()`, `__pipeline_wait_prior(N)`, and a thread-scope
/// `cuda::pipeline`'s `producer_commit()`, `consumer_wait()` (`_for`,
/// `_until`) and `cuda::pipeline_consumer_wait_prior<N>(pipe)`.
std::optional<AsyncWait> asyncWaitOf(const clang::CallExpr *Call);
std::optional<AsyncWait> asmAsyncWaitOf(llvm::StringRef AsmText);

/// A call on a pipeline shared by the block (`cuda::make_pipeline(group,
/// &shared_state)`): its copies are completed for other threads, in
/// stages, which the walk does not follow.
bool isSharedPipelineCall(const clang::CallExpr *Call);

/// The expression of asm operand \p Operand (`%N`, outputs numbered first)
/// when it is an input; null for an output or a number past the operands.
const clang::Expr *asmInputOperand(const clang::GCCAsmStmt *Asm,
                                   unsigned Operand);

/// Whether \p Name converts a generic pointer to a shared-window address
/// (__cvta_generic_to_shared and the NVVM builtin behind it).
bool isSharedAddressConversion(llvm::StringRef Name);

/// The warp collectives: intrinsics that exchange values between the lanes
/// of a warp. The `_sync` forms take a mask first; the CUDA guide requires
/// that every non-exited lane named in the mask execute the same intrinsic
/// with the same mask, and that each calling lane be in it.
enum class CollectiveOp {
  Shuffle,     ///< __shfl_sync: from a source lane.
  ShuffleUp,   ///< __shfl_up_sync
  ShuffleDown, ///< __shfl_down_sync
  ShuffleXor,  ///< __shfl_xor_sync
  Ballot,      ///< __ballot_sync
  All,         ///< __all_sync
  Any,         ///< __any_sync
  Uni,         ///< __uni_sync
  MatchAny,    ///< __match_any_sync: the lanes holding the same value.
  MatchAll,    ///< __match_all_sync
  Reduce,      ///< __reduce_{add,min,max,and,or,xor}_sync
};

struct Collective {
  CollectiveOp Op = CollectiveOp::Shuffle;
  /// The `_sync` form, with a mask as argument 0. The legacy forms
  /// (`__shfl`, `__ballot`, `__all`, ...) have none: they act on the lanes
  /// that happen to be active.
  bool Sync = true;
  bool isShuffle() const {
    return Op == CollectiveOp::Shuffle || Op == CollectiveOp::ShuffleUp ||
           Op == CollectiveOp::ShuffleDown || Op == CollectiveOp::ShuffleXor;
  }
  /// The result is the same in every lane that takes part (votes, ballots,
  /// __match_all_sync, reductions); shuffles and __match_any_sync give each
  /// lane its own.
  bool sameInEveryLane() const {
    return !isShuffle() && Op != CollectiveOp::MatchAny;
  }
};

/// The warp collective named \p Name, if it is one.
std::optional<Collective> collectiveOf(llvm::StringRef Name);
std::optional<Collective> collectiveOf(const clang::CallExpr *Call);
/// A warp collective with a mask operand (`__shfl_xor_sync(m, ...)`,
/// `__ballot_sync(m, p)`): every lane of the mask must reach it.
bool isMaskedCollective(const clang::CallExpr *Call);

/// __activemask() and __lanemask_{lt,le,gt,ge,eq}(): lane masks of the
/// calling warp, not collectives (no lane waits for another).
bool isLaneMaskQuery(llvm::StringRef Name);

/// The thread count of a `thread_block_tile<N, ...>` specialisation; 0 for
/// any other class.
unsigned tileSizeOf(const clang::CXXRecordDecl *RD);

/// The cooperative-groups class \p T names (through references), if any.
/// The toolkit nests its classes in versioned inline namespaces.
const clang::CXXRecordDecl *groupClass(clang::QualType T);

/// A kernel launched through the runtime API rather than `<<<...>>>`.
struct RuntimeLaunch {
  enum Kind {
    /// cudaLaunchKernel, cudaLaunchCooperativeKernel: (kernel, grid,
    /// block, args, shared bytes, stream).
    Direct,
    /// cudaLaunchKernelEx, cudaLaunchKernelExC: (&config, kernel, ...),
    /// the shape in the cudaLaunchConfig_t.
    Config,
  } K;
  /// The kernel operand.
  unsigned KernelArg;
  /// Direct only: the block dimension operand.
  unsigned BlockArg;
  /// The C++ overload of cudaLaunchKernelEx passes the kernel's arguments
  /// as its own from this index; the other forms pass them through a
  /// `void **`, which no analysis follows (then 0).
  unsigned FirstKernelArgument;
};

/// What \p Call launches through the runtime API, if it is such a launch
/// with the operands its form needs.
std::optional<RuntimeLaunch> runtimeLaunchOf(const clang::CallExpr *Call);

/// The object a method call is made on (`g` in `g.sync()`), also when the
/// method is a static member reached through it (the toolkit's
/// `cta.thread_rank()`).
const clang::Expr *calledObject(const clang::CallExpr *Call);

/// The cooperative-groups class of the object \p Call is made on (through
/// a pointer too), and that object in \p Obj when given: `cta` in
/// `cta.thread_rank()`. Tile methods live in base classes whose names say
/// nothing, so the object's type, not the method's class, names the group.
const clang::CXXRecordDecl *groupCalledOn(const clang::CallExpr *Call,
                                          const clang::Expr **Obj = nullptr);

/// A cooperative-groups collective over values: cg::reduce,
/// cg::inclusive_scan and cg::exclusive_scan, a tile's or a coalesced
/// group's shfl, shfl_up, shfl_down and shfl_xor. It reads its operands,
/// also where the toolkit binds them to forwarding references
/// (`reduce(const TyGroup &, TyVal &&, TyFn &&)`), and writes none.
bool isGroupValueCollective(const clang::CallExpr *Call);

/// Whether \p Call's callee is declared in namespace cooperative_groups
/// (or one nested in it).
bool inCooperativeGroups(const clang::CallExpr *Call);

/// libcu++'s synchronisation objects (`cuda::barrier`,
/// `cuda::pipeline_shared_state`) and cooperative groups' own classes
/// (`block_tile_memory`), through references, pointers and arrays: the
/// model knows them by the calls made on them, not as data.
bool isLibrarySyncObject(clang::QualType T);

/// The toolkit's 16-bit floating-point classes (cuda_fp16's `__half`,
/// `__half2`, cuda_bf16's `__nv_bfloat16`, `__nv_bfloat162`), declared at
/// file scope. Their assignment operators are user-provided (so not
/// trivial) but each writes the whole object from its operand and nothing
/// else: the walk takes `s[i] = v` on them as a store of the object, as it
/// does a trivial assignment.
bool isHalfPrecisionClass(const clang::CXXRecordDecl *RD);

} // namespace cuda
} // namespace shmem

#endif
