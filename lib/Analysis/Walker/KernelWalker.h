//===- Walker/KernelWalker.h - The walk state ------------------*- C++ -*-===//
//
// The walker interprets a kernel over every thread of one block (see
// KernelTrace.h for what it records). It is a structured abstract
// interpreter: it visits the body in program order once, splitting the
// per-thread active mask at each branch and joining variable values after
// it; loops are walked in a probe mode first to find which variables they
// keep uniform.
//
// It is one class, as clang's Sema and CodeGenFunction are: the state below
// is the walk's position (the active threads, the variables' values, the
// calls and loops it is inside), and every part reads and changes it. Each
// part is defined in its own file:
//
//   Expressions.cpp  values: per-thread evaluation of expressions
//   Addresses.cpp    addresses: pointer bases and per-thread offsets
//   Objects.cpp      the C++ object model: constructors, kept fields, `this`
//   Calls.cpp        calls: callees entered in the caller's context, lambdas
//   Builtins.cpp     the CUDA vocabulary as values: threadIdx, groups
//   Statements.cpp   control transfer: blocks, returns, if, switch, joins
//   Loops.cpp        loops: simulated, unrolled, or walked to a fixpoint
//   Speculation.cpp  probe walks that record, kept or taken back
//   Recording.cpp    the trace: accesses, barriers, collectives, outcomes
//   TileIndex.cpp    how an access indexes its tile (rows and columns)
//
// What-ifs come in as parameters (PaddingOverride, IterationPins), not as
// hooks: the walker knows no check.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_WALKER_KERNELWALKER_H
#define SHMEM_LINT_ANALYSIS_WALKER_KERNELWALKER_H

#include "ModifiedVars.h"
#include "Speculation.h"
#include "Value.h"

#include "Analysis/ExprUtil.h"
#include "Analysis/KernelTrace.h"
#include "Analysis/Program/BarrierContents.h"
#include "Analysis/Program/CallContexts.h"
#include "Analysis/Program/ConstantFolds.h"
#include "Analysis/Program/CudaModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace shmem {
namespace walker {

using namespace clang;
using cuda::calleeName;

class KernelWalker {
public:
  KernelWalker(ASTContext &Ctx, const ThreadGeometry &G,
               const AnalysisOptions &Opts, KernelTrace &Trace,
               const PaddingOverride *Pad, const IterationPins *Pins)
      : Ctx(Ctx), G(G), Opts(Opts), T(Trace), N(G.threads()), Pad(Pad),
        Pins(Pins), Folds(Trace.Folds ? *Trace.Folds : OwnFolds.emplace(Ctx)),
        Contents(Trace.Contents ? *Trace.Contents : OwnContents.emplace(Ctx)) {
    Active.assign(N, 1);
    Exited.assign(N, 0);
  }

  void walkKernel(const FunctionDecl *K) {
    if (const Stmt *Body = K->getBody())
      walkStmt(Body);
  }

private:
  ASTContext &Ctx;
  const ThreadGeometry &G;
  const AnalysisOptions &Opts;
  KernelTrace &T;
  unsigned N;
  const PaddingOverride *Pad;
  const IterationPins *Pins;
  /// The constants expressions fold to and the barriers code runs: the
  /// translation unit's (KernelTrace::Folds, Contents) when the trace has
  /// them, else this walk's own (clang's evaluator is costly, and unrolled
  /// loops evaluate one expression many times).
  std::optional<ConstantFolds> OwnFolds;
  ConstantFolds &Folds;
  std::optional<BarrierContents> OwnContents;
  BarrierContents &Contents;

  Env Vars;
  /// Local struct and vector variables (float4 v): the loads whose data
  /// they hold.
  std::map<const VarDecl *, Origins> RecordFrom;
  /// A class object whose constructor the walk followed: the values its
  /// constructor gave the fields that cannot change afterwards (see
  /// keptField()). CUB-style code keeps its shared memory that way:
  /// `BlockReduce(temp_storage).Sum(x)` stores `TempStorage &` in a member
  /// that every method reads through `this`. A field some code could assign
  /// is not kept, so a stale value is never read.
  struct ObjectState {
    llvm::DenseMap<const FieldDecl *, Value> Fields;
    /// Assigned as a whole since (`t = Tile(other)`): not known any more.
    bool Replaced = false;
    /// The walk's Epoch when it was made (see Speculation.h).
    unsigned Born = 0;
  };
  using ObjectRef = std::shared_ptr<ObjectState>;
  /// Local objects and class-typed parameters, by variable.
  llvm::DenseMap<const VarDecl *, ObjectRef> Objects;
  /// Objects made by a constructor call, by the call (the latest walk of
  /// it): a temporary is used where it is made (`Tile(s).column(0)`).
  llvm::DenseMap<const CXXConstructExpr *, ObjectRef> Constructed;
  /// `this` in each member function and constructor being walked: the
  /// object's kept fields (null: an object the walk does not know) and its
  /// address, when known (a method of an object in shared memory, such as
  /// CUB's `TempStorage::Alias()`, reads it through `this`).
  struct ThisFrame {
    ObjectRef Obj;
    std::optional<PointerValue> Ptr;
  };
  std::vector<ThisFrame> ThisStack;
  /// Which group each cooperative-groups variable or parameter holds: 0
  /// for the whole block, else a tile's thread count. A `thread_group` is
  /// type-erased, so only where it was made says what it is (a tile passed
  /// to `__device__ f(thread_group g)`); one not listed holds a group the
  /// walk does not know.
  llvm::DenseMap<const VarDecl *, unsigned> GroupHeld;
  std::vector<char> Active;
  bool ActiveApprox = false;
  bool Recording = true;
  /// Inside code whose branches are walked otherwise than they run (a
  /// switch body, a loop's condition): their outcomes are not exact.
  unsigned InexactBranches = 0;
  /// A goto was walked: threads that jump are not tracked, and what a
  /// backward jump runs again sees other values than the walk did.
  bool GotoWalked = false;
  unsigned Seq = 0;
  /// The stretch of the walk being recorded (SharedAccess::Stretch): a
  /// new one starts where the threads running may change, which the
  /// active mask alone does not say when it is approximate.
  unsigned Stretch = 0;
  void newStretch() { ++Stretch; }
  /// Code under test \p C runs in other threads than the code around it,
  /// unless the test has one value in every thread (all or none run it).
  void splitBy(const LaneValue &C) {
    if (!uniformTest(C))
      newStretch();
  }
  /// Around a construct (branch, loop, call): code after it runs in the
  /// threads that ran before it only if nothing inside split them or
  /// stopped some.
  class StretchJoin {
    KernelWalker &W;
    unsigned Before;

  public:
    explicit StretchJoin(KernelWalker &W) : W(W), Before(W.Stretch) {}
    StretchJoin(const StretchJoin &) = delete;
    StretchJoin &operator=(const StretchJoin &) = delete;
    ~StretchJoin() {
      if (W.Stretch != Before)
        W.newStretch();
    }
  };
  /// The expression being evaluated whose value is discarded (see
  /// evalDiscarded()).
  const Expr *Discarded = nullptr;

  // Whether evaluating an expression could change state (a tree walk),
  // asked again at every evaluation (unrolled loops evaluate one
  // expression many times).
  llvm::DenseMap<const Expr *, bool> EffectsCache;
  /// A call none of evalCall()'s twenty classifiers takes: that depends on
  /// the call alone, and a walk evaluates one call again and again (two
  /// million evaluations on ggml's fattn-tile, a third of calls not
  /// followed, `expf`). Def: the callee followed, or null; else Result (an
  /// opaque call's, unless PureMath, __popc or abs, gets uniform arguments)
  /// and whether it is a pipeline call (noteSharedPipeline()).
  struct PlainCall {
    const FunctionDecl *Def = nullptr;
    LaneValue Result;
    bool PureMath = false, Pipeline = false;
  };
  llvm::DenseMap<const CallExpr *, PlainCall> PlainCalls;
  /// unknown() by reason: a walk makes the same few (a load from memory, a
  /// call's result) at every evaluation, and a copy shares the reason where
  /// making one allocates it.
  llvm::StringMap<LaneValue> Unknowns;
  /// What a branch or loop may modify (ModifiedVars, a tree walk), found
  /// once: nested in an unrolled loop, one is walked at every iteration.
  /// Node-based maps, as a walk holds a reference while nested statements
  /// add entries.
  std::unordered_map<const IfStmt *, std::vector<const VarDecl *>> BranchMods;
  struct LoopMods {
    /// The body, increment and condition; the increment alone.
    ModifiedVars Mod, IncMod;
  };
  std::unordered_map<const Stmt *, LoopMods> LoopModsCache;
  /// What a loop's condition and increment name, and whether they make a
  /// call (see simulationInputs()); what they may assign (see
  /// simulateFrom()).
  struct LoopExprFacts {
    ReferencedVars Refs;
    ModifiedVars Mods;
  };
  std::map<std::pair<const Expr *, const Expr *>, LoopExprFacts> LoopExprs;
  const LoopExprFacts &loopExprFacts(const Expr *Cond, const Expr *Inc);
  /// simulateLoop() by counter, condition, increment, the counter's start
  /// and the values simulationInputs() found: a loop nested in an unrolled
  /// one is simulated again at every outer iteration, and the walk of a
  /// loop not unrolled simulates it up to three times.
  struct SimulationKey {
    const VarDecl *Counter;
    const Expr *Cond, *Inc;
    /// The counter's start, then the inputs in ReferencedVars order.
    std::vector<int64_t> Inputs;
    bool operator<(const SimulationKey &O) const {
      return std::tie(Counter, Cond, Inc, Inputs) <
             std::tie(O.Counter, O.Cond, O.Inc, O.Inputs);
    }
  };
  std::map<SimulationKey, std::optional<std::vector<int64_t>>> Simulated;
  /// The values the indices of the array subscripts evaluated since the
  /// last recorded access took (IndexGeneration counts recorded accesses),
  /// so that describing the access (tileIndex) need not evaluate its
  /// indices again.
  struct IndexValue {
    unsigned Generation;
    LaneValue V;
  };
  llvm::DenseMap<const Expr *, IndexValue> IndexValues;
  unsigned IndexGeneration = 0;

  /// Threads that returned from the kernel's own body: gone for the rest of
  /// the walk (BarrierEvent::Exited). AnyExited: some thread has.
  std::vector<char> Exited;
  bool AnyExited = false;
  /// Branch sides and loop bodies being walked whose condition is not known
  /// per thread: the active mask there says who may run, not who does (both
  /// sides of `if (n > 0)` run with every thread), so a return there is no
  /// certain exit.
  unsigned Uncertain = 0;
  /// Drops the exited threads from Active, where a construct restores the
  /// mask it was entered with.
  void dropExited() {
    if (AnyExited)
      for (unsigned I = 0; I < N; ++I)
        if (Exited[I])
          Active[I] = 0;
  }

  // Threads that left the current function, loop iteration or loop.
  struct ExitMasks {
    std::vector<char> Returned, Continued, Broken;
  };
  std::vector<const CallExpr *> CallStack;
  /// The number of each call stack the walk has been in (0: the kernel;
  /// KernelTrace::Contexts), by its caller's number and the call.
  std::vector<unsigned> StackIds{0};
  llvm::DenseMap<std::pair<unsigned, const CallExpr *>, unsigned> StackIdOf;
  std::vector<const Stmt *> Loops;
  std::vector<int> LoopIterations;
  /// Product of the trip counts of the unrolled loops around the walk.
  unsigned UnrollProduct = 1;
  static constexpr unsigned MaxUnrolledTrips = 64;
  static constexpr unsigned MaxUnrollProduct = 512;
  std::vector<const FunctionDecl *> Inlining;
  // Per inlined call: threads that returned, and the value they returned.
  struct FrameState {
    std::vector<char> Returned;
    std::optional<Value> RetVal;
    bool RetConsistent = true;
    /// Some return ran with an approximate mask: Returned may hold threads
    /// that did not return.
    bool ReturnedApprox = false;
    /// Some return ran (dropReturned() runs after every unrolled
    /// iteration, and most functions return only at their end).
    bool AnyReturned = false;
  };
  std::vector<FrameState> Frames;
  /// The variables of the callers of the inlined calls, innermost last: a
  /// lambda's by-reference captures live there.
  std::vector<Env *> CallerEnvs;
  /// Per lambda (its closure class): what its by-copy captures hold, from
  /// the LambdaExpr the walk last evaluated.
  std::map<const CXXRecordDecl *, Env> ClosureCopies;
  llvm::DenseMap<const CXXRecordDecl *, unsigned> ClosureBorn;
  // Speculative probes (Speculation.cpp): effects outside the code walked,
  // the count of probes begun, and loops whose recorded probe was taken
  // back, whose next probes do not record.
  OuterEffects Effects;
  unsigned Epoch = 1;
  llvm::DenseSet<const Stmt *> ProbeTakenBack;
  ProbeMark markProbe();
  /// Ends a probe begun at \p M; true if it changed state outside \p Loop
  /// that is not put back after a probe.
  bool endProbe(const ProbeMark &M, const Stmt *Loop);
  void keepProbe(const ProbeMark &M);
  void takeBackProbe(ProbeMark &M);
  void forgetOrigins(size_t SharedLimit, size_t GlobalLimit);
  // Per loop: threads that continued / broke out. Empty until a `continue`
  // or `break` is walked: most iterations have neither, and zeroing and
  // scanning two masks per unrolled iteration cost more than the body.
  struct LoopState {
    std::vector<char> Continued, Broken;
  };
  std::vector<LoopState> LoopStates;
  /// The threads that entered each switch walked as straight-line code.
  std::vector<std::vector<char>> SwitchEntries;

  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  LaneValue unknown(StringRef Why) {
    auto [It, New] = Unknowns.try_emplace(Why);
    if (New)
      It->second = LaneValue::unknown(N, Why.str());
    return It->second;
  }
  LaneValue constant(int64_t V) { return LaneValue::constant(N, V); }

  bool anyActive() const {
    for (char A : Active)
      if (A)
        return true;
    return false;
  }
  bool allActive() const {
    return !std::memchr(Active.data(), 0, Active.size());
  }
  /// \p Mask (1 where a thread runs) as a value to select() by.
  static LaneValue maskValue(const std::vector<char> &Mask) {
    return LaneValue::perThread(std::vector<int64_t>(Mask.begin(), Mask.end()));
  }
  /// The locals \p CS declares at its top level go out of scope.
  void endScope(const CompoundStmt *CS);

  std::string exprText(const Expr *E);

  /// The unknown \p S as a value, or its pinned value (IterationPins).
  LaneValue symbolValue(SymbolId S);

  LaneValue opaqueUniform(const void *Key, unsigned Sub,
                          const std::string &Name) {
    return opaqueUniform(SymbolKey{Key, nullptr, Sub}, Name);
  }
  LaneValue opaqueUniform(const SymbolKey &Key, const std::string &Name) {
    // Made inside a loop body, the value may change between iterations.
    return symbolValue(
        T.Symbols.get(Key, SymbolInfo::Opaque, Name,
                      Loops.empty() ? nullptr : Loops.back()));
  }

  /// opaqueUniform() named after the source text of \p Named, read only
  /// when the unknown is made: an unrolled loop meets the same uniform load
  /// or call at every iteration, and the lexer is not cheap.
  LaneValue opaqueUniformText(const void *Key, unsigned Sub,
                              const Expr *Named);

  /// Keep active only the threads where the concrete \p Cond is \p Sense.
  void narrowActive(const LaneValue &Cond, bool Sense);

  /// Record whether a branch splits the active threads (see
  /// KernelTrace::UniformBranch): its condition must be the same affine
  /// form in every active thread, every time the branch is walked.
  void noteBranch(const Stmt *S, const LaneValue &Cond);
  /// The \p Sense side of \p Branch, the mask narrowed to it: its barrier
  /// if no thread takes it (KernelTrace::SkippedBarriers).
  void noteSkippedSide(const Stmt *Branch, const Stmt *Side,
                       const LaneValue &Cond, bool Sense);

  /// Record which sides of branch \p S the active threads take now (see
  /// KernelTrace::Branches): with a condition known per thread, the values
  /// it has in them; otherwise either side.
  void noteOutcomes(const Stmt *S, const LaneValue &Cond);

  /// One visit of a for or while loop with its condition's tests, as
  /// KernelTrace::LoopFacts records them.
  struct LoopVisit {
    bool Reached = false, Exact = true, FirstTestHolds = true;
    int64_t Trips = -2; ///< As LoopOutcomes::Trips.
    /// Test \p K (0: the first) gave \p C in the active threads. As for
    /// branches (noteOutcomes), a test with one value in every thread is
    /// exact under an approximate mask, which may miss threads that are
    /// there: it is then taken as reached.
    void test(const KernelWalker &W, unsigned K, const LaneValue &C);
  };

  /// The value of a branch or loop test that is the same in every thread,
  /// whichever threads run it, when no goto has made the walk lose track
  /// of where threads are (see GotoWalked).
  std::optional<int64_t> uniformTest(const LaneValue &C) const {
    if (GotoWalked || !C.isConcrete())
      return std::nullopt;
    return C.constants().splatValue();
  }

  void noteLoop(const Stmt *L, const LoopVisit &V);

  /// A non-affine result over uniform operands is uniform: name it.
  LaneValue nameIfUniform(const Expr *E, LaneValue R, const LaneValue &A,
                          const LaneValue &B);

  LaneValue toType(LaneValue V, QualType Ty);

  /// foldInteger() of an integer expression without side effects, cached.
  std::optional<int64_t> foldedConstant(const Expr *E);

  //===--------------------------------------------------------------------===//
  // CUDA builtins
  //===--------------------------------------------------------------------===//

  /// threadIdx.x and friends (cuda::builtinIndexOf says which, however it
  /// is spelled) in every thread.
  LaneValue builtinIndex(cuda::BuiltinIndex B);

  /// The NVVM lane registers: %laneid and WARP_SZ.
  std::optional<LaneValue> laneRegister(StringRef Name);

  //===--------------------------------------------------------------------===//
  // Recording
  //===--------------------------------------------------------------------===//

  /// The bytes one thread moves accessing a \p Ty, if it is a width a
  /// load or store instruction has (1, 2, 4, 8 or 16 bytes).
  std::optional<unsigned> accessWidth(QualType Ty) const;

  /// Records a shared access; returns its index in the trace. \p From,
  /// for a store, lists the loads the stored value carries.
  std::optional<unsigned> recordAccess(const Expr *E, const PointerValue &P,
                                       AccessKind K, QualType Ty,
                                       std::optional<LaneValue> Stored = {},
                                       const Origins &From = {});

  /// Records the rows of an inline-asm ldmatrix/stmatrix whose address
  /// operand is \p Operand: a 16-byte access by the lanes that give rows.
  void recordMatrix(const cuda::AsmMatrixAccess &M, const Expr *Operand);
  /// An async copy (cp.async) of \p Bytes from \p Src into \p Dst: a shared
  /// store that stays in flight until the thread's wait for its group
  /// (asyncWait), or for one tied to a cuda::barrier (\p How.BarrierTied)
  /// until the thread's next wait on it (barrierCopiesDone).
  void recordAsyncCopy(const Expr *Site, const Expr *Dst, const Value &Src,
                       std::optional<int64_t> Bytes,
                       const cuda::AsyncCopy &How);
  /// recordAsyncCopy once the destination is a shared pointer.
  void recordAsyncStore(const Expr *Site, const PointerValue &Dst,
                        const Value &Src, int64_t Bytes,
                        const cuda::AsyncCopy &How);
  /// A group's collective copy (cuda::groupCopyOf): each round of pieces
  /// an async copy by the threads that have a piece in it, then a commit
  /// (none for libcu++'s form, completed through its barrier or pipeline).
  /// Nothing is recorded when the byte count or the alignment is not
  /// known, or a thread would take more than MaxGroupCopyRounds pieces.
  void recordGroupCopy(const CallExpr *Call, const cuda::GroupCopy &C);
  static constexpr int64_t MaxGroupCopyRounds = 64;
  void asyncWait(const cuda::AsyncWait &W, const Expr *PendingArg,
                 SourceLocation Loc);
  /// The shared pointer behind `L op R` when one operand is a shared-window
  /// address (__cvta_generic_to_shared) and op moves it by bytes: + and -
  /// of an integer, ^ of values below the variable's alignment.
  std::optional<PointerValue> sharedAddressArith(BinaryOperatorKind K,
                                                 const Value &L,
                                                 const Value &R);
  /// The shared pointer \p E gives: a pointer into shared memory, or a
  /// shared-window address (__cvta_generic_to_shared).
  std::optional<PointerValue> sharedPointerOf(const Expr *E);
  /// A bulk tensor copy (TMA) at \p S into \p Dst, described by the tensor
  /// map \p Map points to, completing on the mbarrier \p Bar points to (or
  /// the cuda::barrier object \p Bar is, when \p How.CudaBarrier).
  void recordBulkCopy(const Stmt *S, SourceLocation Loc, const Expr *Dst,
                      const Expr *Map, const Expr *Bar,
                      const cuda::BulkTensorCopy &How);
  /// A wait on the mbarrier \p Bar points to (or is, \p IsObject).
  void recordBarrierWait(SourceLocation Loc, const Expr *Bar, bool IsObject);
  void recordBarrierArrive(SourceLocation Loc, const Expr *Bar, bool IsObject);
  /// The event both record: the barrier's shared address, the threads.
  std::optional<BarrierWaitEvent> mbarrierEvent(SourceLocation Loc,
                                                const Expr *Bar, bool IsObject);
  /// The kernel parameter holding the tensor map that \p E points to or
  /// holds the address of (`&tmap`, a helper's `const CUtensorMap *`,
  /// `reinterpret_cast<uint64_t>(&tmap)`).
  const ValueDecl *tensorMapOf(const Expr *E);
  /// An inline-asm TMA copy or mbarrier wait; false when \p A is neither.
  bool walkBulkAsm(const GCCAsmStmt *A);
  void barrierCopiesDone(SourceLocation Loc);
  /// Stamps \p Copies (indices into T.Accesses) complete here, those not
  /// completed before.
  void asyncCopiesDone(const std::vector<unsigned> &Copies,
                       SourceLocation Loc);
  /// Notes the first call on a pipeline shared by the block
  /// (KernelTrace::SharedPipeline).
  void noteSharedPipeline(const CallExpr *Call);
  /// A call not followed: its arguments read, objects it may change
  /// forgotten (see PlainCall; by value: the arguments may add to it).
  Value evalOpaqueCall(const CallExpr *Call, PlainCall Plan);
  /// The __shared__ variable argument \p A (evaluated to \p V) of a call
  /// not followed names or points into (not libcu++'s or cooperative
  /// groups' synchronisation objects); and the gap that says \p Callee's
  /// accesses to it are not in the trace.
  const ValueDecl *sharedHandedOver(const Expr *A, const Value *V) const;
  void noteUnwalkedShared(const Expr *At, const FunctionDecl *Callee,
                          llvm::ArrayRef<const ValueDecl *> Shared);
  /// Async copies issued since the last commit, and the committed groups
  /// still in flight, oldest first (indices into T.Accesses); the copies
  /// tied to a cuda::barrier, in flight.
  std::vector<unsigned> AsyncPending;
  std::deque<std::vector<unsigned>> AsyncGroups;
  std::vector<unsigned> AsyncBarrierPending;

  /// Dataflow links between a store and the loads its value carries:
  /// global loads stored to shared memory, shared loads stored to global.
  void link(const Origins &From, unsigned StoreIndex, bool IntoShared);

  /// Records a global load or store; returns its index in the trace.
  std::optional<unsigned> recordGlobal(const Expr *E, const PointerValue &P,
                                       AccessKind K, QualType Ty,
                                       const Origins &From = {});

  static Origins originOf(std::optional<unsigned> Index, bool Global);

  /// Per thread: the bits of the lanes of its warp set in \p Set.
  std::vector<int64_t> warpBits(const std::vector<char> &Set) const;

  /// A warp collective with its mask (argument 0), as KernelTrace::
  /// Collectives describes. The mask is read without recording, so that the
  /// call's own evaluation of its arguments records them once.
  void recordCollective(const CallExpr *Call);

  /// What every barrier and collective event records of the walk's
  /// position: who is active (and who has exited), through which calls and
  /// in which loop iterations.
  void stamp(BarrierEvent &B) const;

  void recordBarrier(const Expr *E, BarrierKind K,
                     std::optional<uint32_t> Mask, unsigned TileSize = 0);
  /// The barriers of inline asm \p A: one that waits as a block barrier
  /// (the barrier check reads it from its own CFG walk too), and a counted
  /// one or an arrive with its id and count (KernelTrace::CountedBarriers).
  void recordAsmBarrier(const GCCAsmStmt *A);
  /// Records a loop's `#pragma unroll N` / `nounroll` (T.CompilerUnroll).
  void noteUnrollPragma(const AttributedStmt *AS);
  /// An asm cp.async copy or wait; false when \p A is neither.
  bool walkAsyncAsm(const GCCAsmStmt *A);
  /// Whether a counted sync with \p Count, recorded as \p B, gathers the
  /// whole block: every thread that has not exited reaches it and the count
  /// is their number (a block barrier, not a BarrierEvent::Named one).
  bool gathersBlock(const BarrierEvent &B,
                    const std::optional<LaneValue> &Count) const;
  /// The value of a barrier operand: the immediate, or asm operand \p Op
  /// evaluated without recording.
  std::optional<LaneValue> asmBarrierOperand(const GCCAsmStmt *A,
                                             std::optional<unsigned> Imm,
                                             std::optional<unsigned> Op);

  //===--------------------------------------------------------------------===//
  // Tile indexing
  //===--------------------------------------------------------------------===//

  /// The value of \p E now, evaluated without recording anything.
  LaneValue quietInt(const Expr *E);

  /// Whether evaluating \p E again could change the walk's state or walk a
  /// callee again: assignments, increments, calls to functions with bodies.
  bool hasEffects(const Expr *E);
  bool findEffects(const Expr *E);

  /// Looks through parentheses, casts and integer locals initialised once,
  /// as long as the initialiser still evaluates to the variable's value
  /// (so `int sc = c ^ r; t[r][sc]` shows its XOR).
  const Expr *expandIndex(const Expr *E);

  struct IndexTerm {
    const Expr *X;
    int64_t Factor;
    int Sign;
  };

  /// The value \p E has now, when it is one constant in every thread:
  /// folded, or evaluated without recording (evaluating it again must not
  /// record its accesses twice).
  std::optional<int64_t> uniformConstant(const Expr *E);

  /// The additive terms of a flat index, each with its constant factor.
  void indexTerms(const Expr *E, int Sign, std::vector<IndexTerm> &Out,
                  unsigned Depth = 0);

  /// `A ^ B`, `(A + B) % m`, `(A ^ B) & m`: the operands of a column that
  /// may hold a swizzle term.
  void columnTerms(const Expr *C, TileIndex &TI);

  /// \p E with every XOR replaced by its operand that is not the swizzle
  /// term (TileIndex::Unswizzled); \p Stripped tells whether one was. None
  /// when an XOR's operands cannot be told apart or a value is not
  /// concrete.
  std::optional<LaneValue> unswizzled(const Expr *E, const LaneValue &Row,
                                      bool &Stripped, unsigned Depth = 0);

  /// Whether \p X, over the active threads, is a function of \p Row that
  /// takes several values: what a swizzle term is.
  bool isSwizzleTerm(const LaneValue &X, const LaneValue &Row) const;

  /// Whether the walk describes how accesses index their tiles
  /// (AnalysisOptions::Facts).
  bool wantTileIndex() const {
    return Opts.Facts.TileRows || Opts.Facts.TileFormulas;
  }

  /// The value of the index \p E of an array subscript evaluated for the
  /// access being recorded, as quietInt() would give it.
  LaneValue indexValue(const Expr *E);

  /// See TileIndex. Only element accesses written as subscripts of the
  /// shared array itself (1-D or 2-D, scalar elements) are described.
  TileIndex tileIndex(const Expr *E, const PointerValue &P);

  //===--------------------------------------------------------------------===//
  // Addresses
  //===--------------------------------------------------------------------===//

  static bool isSharedVar(const ValueDecl *D) {
    return D && D->hasAttr<CUDASharedAttr>();
  }

  PointerValue notShared() { return PointerValue(); }

  /// Under a padding what-if: the padded size of a row of the padded array
  /// when \p RowTy is that array's row type.
  std::optional<int64_t> paddedRowBytes(QualType RowTy);

  /// Both point into the same shared variable or global buffer.
  static bool samePointerBase(const PointerValue &A, const PointerValue &B) {
    return (A.Base && A.Base == B.Base) ||
           (A.GlobalBase && A.GlobalBase == B.GlobalBase);
  }

  /// A `__device__` array: global memory the kernel indexes directly.
  static bool isDeviceArray(const VarDecl *V) {
    return V && !V->isLocalVarDeclOrParm() && V->hasAttr<CUDADeviceAttr>() &&
           !V->hasAttr<CUDAConstantAttr>() && V->getType()->isArrayType();
  }

  /// A tensor map the kernel can name: its own parameter (the map in
  /// parameter space, or a pointer to one in global memory), or a
  /// `__constant__`/`__device__` map the host copied to the symbol. Its
  /// address is what a TMA copy names (recordBulkCopy).
  bool isKernelTensorMap(const VarDecl *V) const;

  PointerValue globalBase(const ValueDecl *V);

  PointerValue sharedBase(const VarDecl *V);

  PointerValue offsetBy(PointerValue P, const LaneValue &Index,
                        QualType Elem);

  /// The memory an lvalue designates.
  PointerValue evalAddress(const Expr *E);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Value evalInt(LaneValue V) { return Value::integer(std::move(V)); }

  /// Evaluates \p E for its effects: an assignment or increment statement
  /// (see Discarded) then skips copying the variable's value into a
  /// result nobody reads.
  void evalDiscarded(const Expr *E);
  /// Whether \p E is the expression evalDiscarded() was given; asked once,
  /// on entry, before any sub-expression is evaluated.
  bool takeDiscarded(const Expr *E);

  Value eval(const Expr *E);

  /// A struct or vector value (float4, a user struct) copied out of shared
  /// memory: `float4 v = s4[i];` is a copy construction from the lvalue,
  /// with no lvalue-to-rvalue conversion to see.
  std::optional<Value> evalRecordCopy(const CXXConstructExpr *CC);

  /// The byte offset of the base a derived-to-base cast selects; none
  /// through a virtual base.
  std::optional<int64_t> baseOffset(const CastExpr *CE);

  /// Whether a field keeps the value its constructor gives it: a
  /// reference (it cannot be re-seated), a const integer or pointer, or a
  /// private integer or pointer that no code of its class assigns,
  /// increments, binds to a non-const reference or takes the address of
  /// outside the constructors' initialisers (BlockReduce's `linear_tid`).
  bool keptField(const FieldDecl *FD);

  /// For keptField(): no method, constructor body or nested class of
  /// \p FD's class modifies it, and the class has no friends (which could).
  bool neverModified(const FieldDecl *FD);
  llvm::DenseMap<const FieldDecl *, bool> KeptFields;

  /// Whether the walk may enter \p Def: within the inlining depth, and not
  /// a function it is walking already (recursion).
  bool mayEnter(const FunctionDecl *Def) const {
    return Inlining.size() < Opts.InlineDepth &&
           std::find(Inlining.begin(), Inlining.end(), Def) == Inlining.end();
  }

  /// The constructor \p CC calls, when the walk follows it: a user
  /// constructor, not a copy or move, with a body outside system headers,
  /// not already being walked.
  const CXXConstructorDecl *followedConstructor(const CXXConstructExpr *CC);

  /// Follows a constructor call (see followedConstructor()) and remembers
  /// the object it makes in Constructed. Returns false, having done
  /// nothing, for one it does not follow; the caller then evaluates the
  /// arguments as for an unknown call.
  bool construct(const CXXConstructExpr *CC);

  /// The arguments of \p CC in the caller, as for any call; then \p CD's
  /// base and member initialisers, which give \p Obj its kept fields (see
  /// ObjectState). The initialisers record nothing: the object's memory is
  /// the thread's own, and a constructor is not a call site of the trace.
  void runConstructor(const ObjectRef &Obj, const CXXConstructExpr *CC,
                      const CXXConstructorDecl *CD);

  /// Evaluates a call's arguments in the caller: a reference parameter
  /// gets the address of its argument. \p ArgObjects gets the object each
  /// class-typed parameter receives, where the walk knows it.
  std::vector<Value> callArguments(llvm::ArrayRef<const Expr *> Args,
                                   const FunctionDecl *Def,
                                   std::vector<ObjectRef> &ArgObjects);

  /// Whether a call to \p F may write to the lvalue passed as argument
  /// \p I: it binds a non-const reference, or its parameter is not known
  /// (no prototype, a variadic argument).
  static bool mayWriteArgument(const FunctionDecl *F, unsigned I);

  static bool isRecordOrRef(QualType T) {
    return T.getNonReferenceType()->isRecordType();
  }

  /// The object \p E names, if the walk knows it: `this`, a local object
  /// or class-typed parameter, or a temporary just constructed. Evaluates
  /// nothing.
  ObjectRef knownObject(const Expr *E) {
    ObjectRef Obj = namedObject(skipTemporaries(E));
    return Obj && !Obj->Replaced ? Obj : nullptr;
  }
  /// For knownObject(): the object \p E, with temporaries looked through,
  /// names.
  ObjectRef namedObject(const Expr *E);

  /// Code the walk does not see may change the object \p E names: what it
  /// knew of it no longer holds.
  void forgetObject(const Expr *E);

  /// Starts the walk of a callee's body or initialisers: its parameters
  /// hold \p Args, and its class-typed ones the objects \p ArgObjects.
  /// Returns the caller's variables, to restore when the callee is done.
  Env enterCallee(const FunctionDecl *Def, std::vector<Value> Args,
                  const std::vector<ObjectRef> &ArgObjects);

  /// Binds the objects a call passes to class-typed parameters (by value
  /// or by reference), so that the callee's member calls on them see their
  /// fields; a parameter given an unknown object forgets an earlier one.
  void bindParamObjects(const FunctionDecl *Def,
                        const std::vector<ObjectRef> &ArgObjects);

  /// The kept value of the field \p ME names, when the walk knows the
  /// object (`this->rows` in a member function, `t.rows` of a local).
  const Value *fieldValue(const MemberExpr *ME) {
    return keptValue(memberObject(ME), ME);
  }
  /// The same, for the object memberObject() found.
  const Value *keptValue(const ObjectRef &Obj, const MemberExpr *ME);

  /// The object whose member \p ME names, when the walk knows it (it
  /// followed its constructor): `this->f` in a member function, `t.f` of a
  /// local.
  ObjectRef memberObject(const MemberExpr *ME);

  /// A struct or vector read through an lvalue: recorded when it is in
  /// shared or global memory; the loads it carries.
  Origins loadRecord(const Expr *Src);

  /// `s4[i] = v;` for a struct or vector type: the implicit copy assignment
  /// operator stores the whole object (and so does any assignment of the
  /// toolkit's half-precision classes, cuda::isHalfPrecisionClass).
  std::optional<Value> evalRecordAssign(const CXXOperatorCallExpr *OC);

  /// \p E, a side of \p Branch, in the threads whose \p Cond is \p Sense.
  Value evalUnder(const Stmt *Branch, const Expr *E, const LaneValue &Cond,
                  bool Sense);

  Value evalDeclRef(const DeclRefExpr *DRE);

  /// A load through an lvalue: recorded when shared; its value is uniform
  /// when every thread reads the same address.
  Value evalLoad(const Expr *Whole, const Expr *LV);

  /// The local struct variable an lvalue is a member of (`v.x`, `v.a.b`).
  const VarDecl *recordRoot(const Expr *E);

  Value evalCast(const CastExpr *CE, const Expr *Sub);

  /// The local variable an lvalue names, if it is one we track.
  const VarDecl *trackedVar(const Expr *E);

  /// Store \p NewV into the variable in the active threads only: inactive
  /// threads keep their value (the branch they are in doesn't run). \p At
  /// is the assignment: where the active threads are not known exactly, the
  /// value is a join made there.
  void assignVar(const VarDecl *V, Value NewV, const Stmt *At);

  Value evalUnary(const UnaryOperator *UO);

  static std::optional<LaneValue::Op> opOf(BinaryOperatorKind K);

  /// L op R on integers, naming uniform non-affine results.
  LaneValue arith(const Expr *E, BinaryOperatorKind K, const LaneValue &L,
                  const LaneValue &R, QualType OperandTy);

  /// Whether an unknown is the same in every iteration of every loop (a
  /// parameter, blockIdx, a global), so that products of it stay
  /// meaningful across iterations.
  bool stableSymbol(SymbolId S) {
    const SymbolInfo &I = T.Symbols.info(S);
    return I.K != SymbolInfo::LoopIteration && !I.Loop && !I.Scope;
  }

  /// (c + sum a_k s_k) * (d + sum b_j s_j) with unknowns on both sides:
  /// each product s_k s_j becomes an unknown of its own, so that
  /// `(blockIdx.x * 32 + threadIdx.x) * pitch` stays affine (the
  /// blockIdx.x*pitch term the same in every thread, threadIdx.x the
  /// coefficient of pitch). Only for unknowns that do not change between
  /// loop iterations.
  std::optional<LaneValue> expandProduct(const LaneValue &L,
                                         const LaneValue &R);

  Value evalBinary(const BinaryOperator *BO);

  //===--------------------------------------------------------------------===//
  // Calls
  //===--------------------------------------------------------------------===//

  /// The group expression \p E makes or names: 0 for the whole block, else
  /// a tile's thread count; none when not known. Conversions between group
  /// types (a tile passed as `thread_group`) keep the group.
  std::optional<unsigned> groupOf(const Expr *E);

  /// Records the group variable \p V holds from now on.
  void holdGroup(const VarDecl *V, std::optional<unsigned> Group);

  std::optional<LaneValue> cooperativeGroupsValue(const CallExpr *Call);

  /// The tile a group's sync() (`g.sync()`, `cg::sync(g)`) waits for: a
  /// thread_block_tile's, or the one a `thread_group` is known to hold.
  std::optional<unsigned> syncedTile(const CallExpr *Call);

  /// Method \p M of a tile of \p Size consecutive threads.
  std::optional<LaneValue> tileValue(StringRef M, unsigned Size);

  Value evalCall(const CallExpr *Call);

  Value inlineCall(const CallExpr *Call, const FunctionDecl *Def);

  /// A lambda made here: what its by-copy captures hold from now on (its
  /// call operator reads them, bindCaptures()). By-reference captures are
  /// read where the variable lives when the lambda is called.
  Value evalLambda(const LambdaExpr *LE);

  /// Binds the captures of \p Lambda in the callee's variables: by copy,
  /// what the walk saw the lambda made with; by reference, the variable
  /// where it lives (the caller, or a caller further out when the lambda
  /// was passed down). Returns the by-reference ones, for unbindCaptures().
  std::vector<std::pair<const VarDecl *, Env *>>
  bindCaptures(const CXXRecordDecl *Lambda, Env &Caller);

  /// After a lambda's body: what it left in the variables it captures by
  /// reference goes back where they live; a mutable lambda's copies keep
  /// theirs for its next call.
  void unbindCaptures(const CXXRecordDecl *Lambda,
                      const std::vector<std::pair<const VarDecl *, Env *>> &ByRef);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  static bool sameValue(const Value &A, const Value &B);

  /// The value of a variable after a branch: per thread, the side it took
  /// (exact when the condition is known per thread), else a fresh uniform
  /// unknown when both sides are uniform, else unknown.
  Value joinValues(const Value &A, const Value &B, const LaneValue *Cond,
                   const VarDecl *V, const Stmt *At);

  Value joinValuesOnly(const Value &A, const Value &B, const LaneValue *Cond,
                       const VarDecl *V, const Stmt *At);

  void joinEnvs(const Env &Then, const Env &Else, const LaneValue &Cond,
                const Stmt *At);

  void walkStmt(const Stmt *S);

  void walkVarDecl(const VarDecl *V);

  void walkReturn(const ReturnStmt *R);
  /// No thread runs the statements left in the block being walked.
  bool unreachedRest() const;

  /// After a loop: the threads that returned inside the function are gone.
  /// When a return ran with an approximate mask, threads that did not
  /// return may go too: the mask is then no longer exact (it was a
  /// superset inside; it may be a subset now).
  void dropReturned();

  /// The parts of condition \p C that must have the given truth for \p C
  /// to be \p Sense: both sides of `&&` for true, of `||` for false,
  /// through `!`.
  static void conditionParts(const Expr *C, bool Sense,
                             std::vector<std::pair<const Expr *, bool>> &Out);

  /// Those of \p Cond's parts for \p Sense that are known per thread,
  /// evaluated again without recording. A condition that does not split
  /// into several parts is its one part, already known not to be.
  void knownParts(const Expr *Cond, bool Sense,
                  std::vector<std::pair<LaneValue, bool>> &Out);

  void walkIf(const IfStmt *If);

  void walkSwitch(const SwitchStmt *Sw);
  /// A switch whose condition is known in every thread: each thread runs
  /// from the label its value selects. False, with nothing walked, when a
  /// label is not at the body's top level or not a constant.
  bool walkSwitchByThread(const SwitchStmt *Sw, const LaneValue &Cond);

  /// `V += S`, `V++`, `V = V + S`, ...: the loop-invariant step, if the
  /// statement is an additive update of V.
  std::optional<LaneValue> additiveStep(const Expr *E, const VarDecl *V,
                                        const std::set<const VarDecl *> &Mod);

  /// The values a uniform loop variable takes, when its start, update and
  /// bound are constants (`for (s = 128; s > 0; s >>= 1)`); from \p Start.
  std::optional<std::vector<int64_t>>
  simulateLoop(const VarDecl *V, const Expr *Cond, const Expr *Inc);
  std::optional<std::vector<int64_t>> simulateOnce(const VarDecl *V,
                                                   const Expr *Cond,
                                                   const Expr *Inc,
                                                   int64_t Start);
  /// Each thread's trip count (0 where inactive), when the counter \p V
  /// starts at a constant in each active thread and simulates from each.
  std::optional<std::vector<int64_t>>
  threadTrips(const VarDecl *V, const Expr *Cond, const Expr *Inc);

  /// Appends to \p Inputs the values of the variables of the walk other
  /// than the counter \p V that the loop's condition or increment reads,
  /// when each is an integer the same in every thread; false when one is
  /// not, or when they make a call (whose walk depends on the inlining
  /// depth). Everything else they read (parameters, globals, constants,
  /// shared memory as an opaque unknown) is fixed for the walk, so the
  /// simulation is a function of the counter's start and \p Inputs.
  bool simulationInputs(const VarDecl *V, const Expr *Cond, const Expr *Inc,
                        std::vector<int64_t> &Inputs);

  std::optional<std::vector<int64_t>> simulateFrom(const VarDecl *V,
                                                   const Expr *Cond,
                                                   const Expr *Inc,
                                                   int64_t Start);

  void walkLoop(const Stmt *L);
  /// Whether \p V is one value (affine, the same form) in the threads of
  /// \p Mask.
  static bool uniformWhere(const LaneValue &V, const std::vector<char> &Mask);
  /// \p V's value in the active threads, when they all hold one constant
  /// (a loop counter assigned under a partial mask keeps other values in
  /// the threads that skip the loop).
  std::optional<int64_t> activeConstant(const LaneValue &V);

  /// Walk a loop once per iteration when a variable updated only by the
  /// increment runs through a short constant sequence: every value in the
  /// body is then exact, including guards like `if (tid < s)`.
  /// \p FirstTest: whether the first test holds, when a simulation of the
  /// counter (the same in every thread) said so, unrolled or not.
  bool tryUnroll(const Stmt *L, const Stmt *Body, const Expr *Cond,
                 const Expr *Inc, const LoopMods &LM,
                 std::optional<bool> &FirstTest);

  void walkLoopIteration(const Stmt *L, const Stmt *Body, const Expr *Cond,
                         const Expr *Inc, int Iteration = -1,
                         LoopVisit *Visit = nullptr);

  unsigned lineOf(const Stmt *S) {
    return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
  }
};

} // namespace walker
} // namespace shmem

#endif
