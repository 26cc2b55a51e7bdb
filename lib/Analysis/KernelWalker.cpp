//===- KernelWalker.cpp - Interpret a kernel over one block ---------------===//
//
// See KernelTrace.h for the model. The walker is a structured abstract
// interpreter: it visits the body in program order once, splitting the
// per-thread active mask at each branch and joining variable values after
// it; loops are walked in a probe mode first to find which variables they
// keep uniform.
//
//===----------------------------------------------------------------------===//

#include "ExprUtil.h"
#include "KernelTrace.h"
#include "Program/CallContexts.h"
#include "Program/CudaModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

using namespace clang;

namespace shmem {

SymbolId SymbolTable::get(const SymbolKey &Key, SymbolInfo::Kind K,
                          std::string Name, const Stmt *Scope) {
  auto [It, New] = Ids.try_emplace(Key, Infos.size());
  if (New) {
    SymbolInfo I;
    I.K = K;
    I.Name = std::move(Name);
    I.Key = Key.Key;
    I.Var = Key.Var;
    I.Sub = Key.Sub;
    I.Scope = Scope;
    Infos.push_back(std::move(I));
  }
  return It->second;
}

using cuda::calleeName;

unsigned tileSizeOf(const CXXRecordDecl *RD) { return cuda::tileSizeOf(RD); }

std::optional<BarrierKind> barrierKindOf(const CallExpr *Call) {
  if (auto B = cuda::barrierOf(Call))
    return B->WarpLevel ? BarrierKind::Warp : BarrierKind::Block;
  return std::nullopt;
}

namespace {

/// The key of the unknowns no AST node stands for (blockIdx, gridDim,
/// products of unknowns). SymbolInfo::Key must be the same in every walk of
/// a kernel: checks match the unknowns of two traces by it (what-if
/// layouts, pinned walks).
const char BuiltinSymbolKey = 0;
/// Products of two unknowns, keyed by the pair of their ids.
const char ProductSymbolKey = 0;
/// Sub-indices of the unknowns that stand for one variable's value at a
/// statement (SymbolKey::Var set): after a join, and at a loop's step, top
/// of an iteration and exit. Other unknowns keyed by a statement use 0, 1.
constexpr uint64_t JoinSub = 100, LoopStepSub = 101, LoopTopSub = 102,
                   LoopExitSub = 103;

/// Where a value was loaded from: a shared access (index into
/// KernelTrace::Accesses) or, with GlobalBit set, a global one (index into
/// KernelTrace::GlobalAccesses).
using OriginId = uint32_t;
constexpr OriginId GlobalBit = 0x80000000u;
using Origins = std::vector<OriginId>; // Sorted, unique.

void addOrigins(Origins &To, const Origins &From) {
  if (From.empty())
    return;
  // An accumulator (`acc += s[i]`) gains one new load at a time, numbered
  // after everything it already carries: append instead of merging the
  // whole list again, which made a long accumulation quadratic.
  if (To.empty() || From.front() > To.back()) {
    To.insert(To.end(), From.begin(), From.end());
    return;
  }
  Origins Out;
  std::set_union(To.begin(), To.end(), From.begin(), From.end(),
                 std::back_inserter(Out));
  To = std::move(Out);
}

/// An integer or a pointer, as the walker computes it. From lists the
/// loads whose data the value carries (copied, converted or combined
/// arithmetically), so that a store of it links producer and consumer.
/// Ptr is set exactly when IsPointer is: most values are integers, and an
/// empty PointerValue's offset (a LaneValue) cost as much to make, copy and
/// destroy as the integer itself.
struct Value {
  LaneValue Int;
  std::optional<PointerValue> Ptr;
  bool IsPointer = false;
  Origins From;

  Value() = default;
  /// Built in place: a default value and a move-assignment of its integer
  /// cost twice the work, and every evaluation makes one.
  explicit Value(LaneValue V) : Int(std::move(V)) {}

  static Value integer(LaneValue V) { return Value(std::move(V)); }
  static Value pointer(PointerValue P) {
    Value R;
    R.Ptr = std::move(P);
    R.IsPointer = true;
    return R;
  }
};

using Env = std::map<const VarDecl *, Value>;

/// Variables a statement may modify (assigned, incremented, or whose
/// address escapes).
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  std::set<const VarDecl *> Vars;
  std::map<const VarDecl *, unsigned> Count;

  static const VarDecl *varOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  void note(const Expr *E) {
    if (const VarDecl *V = varOf(E)) {
      Vars.insert(V);
      ++Count[V];
    }
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      note(U->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      note(C->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    // Non-const references passed to a call may be written.
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      unsigned Shift = objectArguments(C);
      for (unsigned I = Shift; I < C->getNumArgs() &&
                               I - Shift < FD->getNumParams();
           ++I)
        if (FD->getParamDecl(I - Shift)->getType()->isReferenceType() &&
            !FD->getParamDecl(I - Shift)
                 ->getType()
                 .getNonReferenceType()
                 .isConstQualified())
          note(C->getArg(I));
    }
    // A lambda called here writes the variables it captures by reference
    // wherever it was written.
    const FunctionDecl *Def = calleeDefinition(C);
    if (const CXXRecordDecl *RD = lambdaClassOf(Def);
        RD && Depth < 8) {
      ModifiedVars Inner;
      Inner.Depth = Depth + 1;
      Inner.TraverseStmt(Def->getBody());
      for (const LambdaCapture &Cap : RD->captures())
        if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
          if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar());
              V && Inner.Vars.count(V)) {
            Vars.insert(V);
            Count[V] += Inner.Count[V];
          }
    }
    return true;
  }
  unsigned Depth = 0; ///< Lambdas entered to get here.
};

/// The variables the statements it traverses name (in the order met,
/// repeats included), and whether they make a call.
class ReferencedVars : public RecursiveASTVisitor<ReferencedVars> {
public:
  std::vector<const VarDecl *> Vars;
  bool HasCall = false;

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      Vars.push_back(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *) {
    HasCall = true;
    return true;
  }
};

class KernelWalker {
public:
  KernelWalker(ASTContext &Ctx, const ThreadGeometry &G,
               const AnalysisOptions &Opts, KernelTrace &Trace,
               const PaddingOverride *Pad, const IterationPins *Pins)
      : Ctx(Ctx), G(G), Opts(Opts), T(Trace), N(G.threads()), Pad(Pad),
        Pins(Pins) {
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
  unsigned Seq = 0;
  /// The expression being evaluated whose value is discarded (see
  /// evalDiscarded()).
  const Expr *Discarded = nullptr;

  // Facts about expressions that do not depend on the walk's state, asked
  // again at every evaluation (unrolled loops evaluate one expression many
  // times): the folded constant of a side-effect-free integer constant
  // expression (clang's evaluator is costly) and whether evaluating an
  // expression could change state (a tree walk).
  llvm::DenseMap<const Expr *, std::optional<int64_t>> FoldCache;
  llvm::DenseMap<const Expr *, bool> EffectsCache;
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
  /// The variables a loop's condition and increment name, and whether
  /// they make a call (see simulationDependsOnWalk()).
  std::map<std::pair<const Expr *, const Expr *>, ReferencedVars> LoopExprRefs;
  /// simulateLoop() by counter, condition, increment and counter start,
  /// for the loops simulationDependsOnWalk() allows: a loop nested in an
  /// unrolled one is simulated again at every outer iteration, and the
  /// walk of a loop not unrolled simulates it up to three times.
  std::map<std::tuple<const VarDecl *, const Expr *, const Expr *, int64_t>,
           std::optional<std::vector<int64_t>>>
      Simulated;
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
  };
  std::vector<FrameState> Frames;
  /// The variables of the callers of the inlined calls, innermost last: a
  /// lambda's by-reference captures live there.
  std::vector<Env *> CallerEnvs;
  /// Per lambda (its closure class): what its by-copy captures hold, from
  /// the LambdaExpr the walk last evaluated.
  std::map<const CXXRecordDecl *, Env> ClosureCopies;
  // Per loop: threads that continued / broke out. Empty until a `continue`
  // or `break` is walked: most iterations have neither, and zeroing and
  // scanning two masks per unrolled iteration cost more than the body.
  struct LoopState {
    std::vector<char> Continued, Broken;
  };
  std::vector<LoopState> LoopStates;

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

  std::string exprText(const Expr *E) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
    bool Invalid = false;
    StringRef Text =
        Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
    if (Invalid || Text.empty() || Text.size() > 60)
      return "expression";
    return Text.str();
  }

  /// The unknown \p S as a value, or its pinned value (IterationPins).
  LaneValue symbolValue(SymbolId S) {
    if (Pins && !Pins->Unknowns.empty()) {
      const SymbolInfo &I = T.Symbols.info(S);
      auto It = Pins->Unknowns.find(I.key());
      if (It != Pins->Unknowns.end())
        return constant(It->second);
    }
    return LaneValue::symbol(N, S);
  }

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
                              const Expr *Named) {
    if (std::optional<SymbolId> S = T.Symbols.find(Key, Sub))
      return symbolValue(*S);
    return opaqueUniform(Key, Sub, exprText(Named));
  }

  /// Keep active only the threads where the concrete \p Cond is \p Sense.
  void narrowActive(const LaneValue &Cond, bool Sense) {
    const Lanes &C = Cond.constants();
    // A condition the same in every thread (an unrolled loop's bound) keeps
    // all the active threads or none: no walk over the threads.
    if (std::optional<int64_t> S = C.splatValue()) {
      if (bool(*S) != Sense)
        std::fill(Active.begin(), Active.end(), 0);
      return;
    }
    // Copied out first: the masks are chars, which may alias anything, so
    // a store to one made forEach reload the vector it reads per thread.
    std::vector<int64_t> Vals = C.toVector();
    const int64_t *__restrict In = Vals.data();
    char *__restrict Out = Active.data();
    for (unsigned I = 0, E = unsigned(Vals.size()); I < E; ++I)
      Out[I] &= char((In[I] != 0) == Sense);
  }

  /// Record whether a branch splits the active threads (see
  /// KernelTrace::UniformBranch): its condition must be the same affine
  /// form in every active thread, every time the branch is walked.
  void noteBranch(const Stmt *S, const LaneValue &Cond) {
    if (!Recording || !S)
      return;
    bool Uniform = Cond.isAffine();
    // The same form in every thread, let alone every active one.
    bool AllSplat = Cond.constants().form() == Lanes::Form::Splat;
    for (const auto &KV : Cond.coefficients())
      AllSplat = AllSplat && KV.second.form() == Lanes::Form::Splat;
    // Each vector the same in the active threads; walked in order, as
    // indexing a Linear vector per thread divides.
    auto SameInActive = [&](const Lanes &L) {
      bool Seen = false;
      int64_t First = 0;
      return L.forEachWhile([&](unsigned I, int64_t X) {
        if (!Active[I])
          return true;
        if (!Seen) {
          Seen = true;
          First = X;
          return true;
        }
        return X == First;
      });
    };
    if (Uniform && !AllSplat) {
      Uniform = SameInActive(Cond.constants());
      for (const auto &KV : Cond.coefficients())
        Uniform = Uniform && SameInActive(KV.second);
    }
    auto [It, New] = T.UniformBranch.try_emplace(S, Uniform);
    if (!New)
      It->second = It->second && Uniform;
    if (!isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      noteOutcomes(S, Cond);
  }

  /// Record which sides of branch \p S the active threads take now (see
  /// KernelTrace::Branches): with a condition known per thread, the values
  /// it has in them; otherwise either side.
  void noteOutcomes(const Stmt *S, const LaneValue &Cond) {
    KernelTrace::BranchOutcomes &O = T.Branches[S][CallStack];
    if (ActiveApprox || InexactBranches)
      O.Exact = false;
    if (O.TakenTrue && O.TakenFalse)
      return;
    if (!Cond.isConcrete()) {
      if (anyActive())
        O.TakenTrue = O.TakenFalse = true;
      return;
    }
    if (std::optional<int64_t> V = Cond.constants().splatValue()) {
      if (anyActive())
        (*V ? O.TakenTrue : O.TakenFalse) = true;
      return;
    }
    Cond.constants().forEachWhile([&](unsigned I, int64_t X) {
      if (Active[I])
        (X ? O.TakenTrue : O.TakenFalse) = true;
      return !(O.TakenTrue && O.TakenFalse);
    });
  }

  /// One visit of a for or while loop with its condition's tests, as
  /// KernelTrace::LoopFacts records them.
  struct LoopVisit {
    bool Reached = false, Exact = true, FirstTestHolds = true;
    int64_t Trips = -2; ///< As LoopOutcomes::Trips.
    /// Test \p K (0: the first) gave \p C in the active threads.
    void test(const KernelWalker &W, unsigned K, const LaneValue &C) {
      if (!W.anyActive())
        return;
      if (K == 0)
        Reached = true;
      if (W.ActiveApprox)
        Exact = false;
      bool SomeLeave = !C.isConcrete();
      if (!SomeLeave) {
        const std::vector<char> &A = W.Active;
        C.constants().forEachWhile([&](unsigned I, int64_t X) {
          SomeLeave = SomeLeave || (A[I] && !X);
          return !SomeLeave;
        });
      }
      if (!SomeLeave)
        return;
      if (K == 0)
        FirstTestHolds = false;
      Trips = !C.isConcrete() || (Trips != -2 && Trips != int64_t(K))
                  ? -1
                  : int64_t(K);
    }
  };

  void noteLoop(const Stmt *L, const LoopVisit &V) {
    if (!Recording || !V.Reached)
      return;
    KernelTrace::LoopOutcomes &O = T.LoopFacts[L][CallStack];
    O.Exact = O.Exact && V.Exact && !InexactBranches;
    O.FirstTestHolds = O.FirstTestHolds && V.FirstTestHolds;
    if (V.Trips == -1 || (V.Trips >= 0 && O.Trips != -2 && O.Trips != V.Trips))
      O.Trips = -1;
    else if (V.Trips >= 0)
      O.Trips = V.Trips;
  }

  /// A non-affine result over uniform operands is uniform: name it.
  LaneValue nameIfUniform(const Expr *E, LaneValue R, const LaneValue &A,
                          const LaneValue &B) {
    if (R.kind() == LaneValue::Kind::NonAffine && A.isUniform() &&
        B.isUniform())
      return opaqueUniformText(E, 0, E);
    return R;
  }

  LaneValue toType(LaneValue V, QualType Ty) {
    Ty = Ty.getCanonicalType();
    if (!Ty->isIntegralOrEnumerationType() || Ty->isBooleanType())
      return Ty->isBooleanType() && V.isConcrete()
                 ? LaneValue::apply(LaneValue::Op::NE, V, constant(0))
                 : V;
    unsigned Bits = Ctx.getTypeSize(Ty);
    return std::move(V).truncate(Bits, Ty->isSignedIntegerOrEnumerationType());
  }

  /// constantOf() of a side-effect-free expression other than a call,
  /// cached.
  std::optional<int64_t> foldedConstant(const Expr *E) {
    auto [It, New] = FoldCache.try_emplace(E);
    // constantOf() folds integers only: ask for the side effects (a walk
    // of the whole subtree, at every node of an expression) of those alone.
    if (New && !isa<CallExpr>(E) &&
        E->getType()->isIntegralOrEnumerationType() &&
        !E->HasSideEffects(Ctx))
      It->second = constantOf(E);
    return It->second;
  }

  std::optional<int64_t> constantOf(const Expr *E) {
    if (E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (E->getType()->isIntegralOrEnumerationType() &&
        E->EvaluateAsInt(R, Ctx, Expr::SE_NoSideEffects))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  }

  //===--------------------------------------------------------------------===//
  // CUDA builtins
  //===--------------------------------------------------------------------===//

  /// threadIdx.x and friends, spelled as clang's builtin-variable property
  /// (threadIdx.x) or as the NVVM intrinsic it lowers to.
  std::optional<LaneValue> builtinVar(StringRef Var, StringRef Field,
                                      const void *Key) {
    unsigned Axis = Field == "x" ? 0 : Field == "y" ? 1 : Field == "z" ? 2 : 3;
    if (Axis == 3)
      return std::nullopt;
    if (Var == "threadIdx")
      return G.threadIdx(Axis);
    if (Var == "blockDim")
      return G.blockDim(Axis);
    if (Var == "blockIdx")
      return symbolValue(
          T.Symbols.get(&BuiltinSymbolKey, 10 + Axis, SymbolInfo::BlockIndex,
                        ("blockIdx." + Field).str()));
    if (Var == "gridDim")
      return symbolValue(
          T.Symbols.get(&BuiltinSymbolKey, 20 + Axis, SymbolInfo::GridSize,
                        ("gridDim." + Field).str()));
    return std::nullopt;
  }

  std::optional<LaneValue> nvvmSreg(StringRef Name) {
    static const struct {
      const char *Prefix;
      const char *Var;
    } Map[] = {{"__nvvm_read_ptx_sreg_tid_", "threadIdx"},
               {"__nvvm_read_ptx_sreg_ntid_", "blockDim"},
               {"__nvvm_read_ptx_sreg_ctaid_", "blockIdx"},
               {"__nvvm_read_ptx_sreg_nctaid_", "gridDim"}};
    for (const auto &M : Map)
      if (Name.starts_with(M.Prefix))
        return builtinVar(M.Var, Name.drop_front(strlen(M.Prefix)), nullptr);
    if (Name == "__nvvm_read_ptx_sreg_laneid")
      return G.laneId();
    if (Name == "__nvvm_read_ptx_sreg_warpsize")
      return constant(G.warpSize());
    return std::nullopt;
  }

  //===--------------------------------------------------------------------===//
  // Recording
  //===--------------------------------------------------------------------===//

  /// The bytes one thread moves accessing a \p Ty, if it is a width a
  /// load or store instruction has (1, 2, 4, 8 or 16 bytes).
  std::optional<unsigned> accessWidth(QualType Ty) const {
    if (Ty.isNull() || Ty->isIncompleteType() || Ty->isDependentType())
      return std::nullopt;
    uint64_t Width = Ctx.getTypeSizeInChars(Ty).getQuantity();
    if (Width != 1 && Width != 2 && Width != 4 && Width != 8 && Width != 16)
      return std::nullopt;
    return unsigned(Width);
  }

  /// Records a shared access; returns its index in the trace. \p From,
  /// for a store, lists the loads the stored value carries.
  std::optional<unsigned> recordAccess(const Expr *E, const PointerValue &P,
                                       AccessKind K, QualType Ty,
                                       std::optional<LaneValue> Stored = {},
                                       const Origins &From = {}) {
    if (!Recording || !P.isShared() || !anyActive())
      return std::nullopt;
    std::optional<unsigned> Width = accessWidth(Ty);
    if (!Width)
      return std::nullopt;
    SharedAccess A;
    A.E = E;
    A.Loc = E->getExprLoc();
    A.Address = P;
    A.Kind = K;
    A.Width = *Width;
    A.Type = Ty;
    A.Active = Active;
    A.ActiveApprox = ActiveApprox;
    A.Stored = std::move(Stored);
    A.Volatile = Ty.isVolatileQualified();
    A.CallStack = CallStack;
    A.Loops = Loops;
    A.LoopIterations = LoopIterations;
    A.Seq = Seq++;
    if (K != AccessKind::Atomic && wantTileIndex())
      A.Tile = tileIndex(E, P);
    ++IndexGeneration;
    unsigned Index = T.Accesses.size();
    T.Accesses.push_back(std::move(A));
    if (K == AccessKind::Store)
      link(From, Index, /*IntoShared=*/true);
    return Index;
  }

  /// Dataflow links between a store and the loads its value carries:
  /// global loads stored to shared memory, shared loads stored to global.
  void link(const Origins &From, unsigned StoreIndex, bool IntoShared) {
    for (OriginId O : From) {
      bool FromGlobal = O & GlobalBit;
      unsigned I = O & ~GlobalBit;
      if (IntoShared && FromGlobal && I < T.GlobalAccesses.size()) {
        T.GlobalAccesses[I].Shared.push_back(StoreIndex);
        T.Accesses[StoreIndex].Global.push_back(I);
      } else if (!IntoShared && !FromGlobal && I < T.Accesses.size()) {
        T.Accesses[I].Global.push_back(StoreIndex);
        T.GlobalAccesses[StoreIndex].Shared.push_back(I);
      }
    }
  }

  /// Records a global load or store; returns its index in the trace.
  std::optional<unsigned> recordGlobal(const Expr *E, const PointerValue &P,
                                       AccessKind K, QualType Ty,
                                       const Origins &From = {}) {
    if (!Recording || !P.isGlobal() || !anyActive())
      return std::nullopt;
    std::optional<unsigned> Width = accessWidth(Ty);
    if (!Width)
      return std::nullopt;
    GlobalAccess A;
    A.E = E;
    A.Loc = E->getExprLoc();
    A.Base = P.GlobalBase;
    A.Offset = P.Offset;
    A.Kind = K;
    A.Width = *Width;
    A.Type = Ty;
    A.Active = Active;
    A.ActiveApprox = ActiveApprox;
    A.CallStack = CallStack;
    A.Loops = Loops;
    A.LoopIterations = LoopIterations;
    A.Seq = Seq++;
    unsigned Index = T.GlobalAccesses.size();
    T.GlobalAccesses.push_back(std::move(A));
    if (K == AccessKind::Store)
      link(From, Index, /*IntoShared=*/false);
    return Index;
  }

  static Origins originOf(std::optional<unsigned> Index, bool Global) {
    if (!Index)
      return {};
    return {OriginId(*Index) | (Global ? GlobalBit : 0u)};
  }

  /// Per thread: the bits of the lanes of its warp set in \p Set.
  std::vector<int64_t> warpBits(const std::vector<char> &Set) const {
    std::vector<int64_t> Out(N, 0);
    for (unsigned Wp = 0; Wp < G.warps(); ++Wp) {
      uint32_t Bits = 0;
      for (unsigned T = G.warpBegin(Wp); T < G.warpEnd(Wp); ++T)
        if (Set[T] && T - G.warpBegin(Wp) < 32)
          Bits |= 1u << (T - G.warpBegin(Wp));
      for (unsigned T = G.warpBegin(Wp); T < G.warpEnd(Wp); ++T)
        Out[T] = Bits;
    }
    return Out;
  }

  /// A warp collective with its mask (argument 0), as KernelTrace::
  /// Collectives describes. The mask is read without recording, so that the
  /// call's own evaluation of its arguments records them once.
  void recordCollective(const CallExpr *Call) {
    if (!Recording)
      return;
    BarrierEvent B;
    B.E = Call;
    B.Loc = Call->getExprLoc();
    B.Kind = BarrierKind::Warp;
    LaneValue M = quietInt(Call->getArg(0));
    if (auto C = M.asConstant()) {
      B.WarpMask = uint32_t(*C);
    } else if (M.isConcrete()) {
      // One mask in every thread that executes the call.
      std::optional<int64_t> Common;
      bool Same = true;
      for (unsigned I = 0; I < N && Same; ++I)
        if (Active[I]) {
          if (Common && *Common != M.constants()[I])
            Same = false;
          Common = M.constants()[I];
        }
      if (Common && Same)
        B.WarpMask = uint32_t(*Common);
    }
    stamp(B);
    B.Seq = Seq;
    T.Collectives.push_back(std::move(B));
  }

  /// What every barrier and collective event records of the walk's
  /// position: who is active (and who has exited), through which calls and
  /// in which loop iterations.
  void stamp(BarrierEvent &B) const {
    B.Active = Active;
    B.ActiveApprox = ActiveApprox;
    if (AnyExited)
      B.Exited = Exited;
    B.CallStack = CallStack;
    B.Loops = Loops;
    B.LoopIterations = LoopIterations;
  }

  void recordBarrier(const Expr *E, BarrierKind K,
                     std::optional<uint32_t> Mask, unsigned TileSize = 0) {
    if (!Recording)
      return;
    BarrierEvent B;
    B.E = E;
    B.Loc = E->getExprLoc();
    B.Kind = K;
    B.WarpMask = Mask;
    B.TileSize = TileSize;
    stamp(B);
    B.Seq = Seq++;
    T.Barriers.push_back(std::move(B));
  }

  //===--------------------------------------------------------------------===//
  // Tile indexing (for the layout check)
  //===--------------------------------------------------------------------===//

  /// The value of \p E now, evaluated without recording anything.
  LaneValue quietInt(const Expr *E) {
    bool Saved = Recording;
    Recording = false;
    LaneValue V = eval(E).Int;
    Recording = Saved;
    return toType(std::move(V), E->getType());
  }

  /// Whether evaluating \p E again could change the walk's state or walk a
  /// callee again: assignments, increments, calls to functions with bodies.
  bool hasEffects(const Expr *E) {
    auto It = EffectsCache.find(E);
    if (It != EffectsCache.end())
      return It->second;
    bool Found = findEffects(E);
    EffectsCache[E] = Found;
    return Found;
  }
  bool findEffects(const Expr *E) {
    class Finder : public RecursiveASTVisitor<Finder> {
    public:
      ASTContext &Ctx;
      bool Found = false;
      explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
      bool VisitBinaryOperator(BinaryOperator *B) {
        Found |= B->isAssignmentOp();
        return !Found;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        Found |= U->isIncrementDecrementOp();
        return !Found;
      }
      bool VisitCallExpr(CallExpr *C) {
        const FunctionDecl *Def = nullptr;
        if (const FunctionDecl *FD = C->getDirectCallee())
          if (FD->hasBody(Def) && Def &&
              !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
            Found = true;
        if (isa<CXXOperatorCallExpr>(C))
          Found = true;
        return !Found;
      }
    } F(Ctx);
    F.TraverseStmt(const_cast<Expr *>(E));
    return F.Found;
  }

  /// Looks through parentheses, casts and integer locals initialised once,
  /// as long as the initialiser still evaluates to the variable's value
  /// (so `int sc = c ^ r; t[r][sc]` shows its XOR).
  const Expr *expandIndex(const Expr *E) {
    for (unsigned Depth = 0; Depth < 8; ++Depth) {
      E = E->IgnoreParenCasts();
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      if (!DRE)
        return E;
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || !V->isLocalVarDecl() || V->isStaticLocal() || !V->getInit() ||
          !V->getType()->isIntegralOrEnumerationType())
        return E;
      const Expr *Init = V->getInit();
      auto It = Vars.find(V);
      if (It == Vars.end() || It->second.IsPointer || hasEffects(Init))
        return E;
      LaneValue Now = toType(quietInt(Init), V->getType());
      if (!Now.isAffine() || Now != It->second.Int)
        return E;
      E = Init;
    }
    return E;
  }

  struct IndexTerm {
    const Expr *X;
    int64_t Factor;
    int Sign;
  };

  /// The value \p E has now, when it is one constant in every thread:
  /// folded, or evaluated without recording (evaluating it again must not
  /// record its accesses twice).
  std::optional<int64_t> uniformConstant(const Expr *E) {
    if (auto C = constantOf(E))
      return C;
    if (hasEffects(E))
      return std::nullopt;
    return quietInt(E).asConstant();
  }

  /// The additive terms of a flat index, each with its constant factor.
  void indexTerms(const Expr *E, int Sign, std::vector<IndexTerm> &Out,
                  unsigned Depth = 0) {
    E = expandIndex(E);
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (B && Depth < 16) {
      switch (B->getOpcode()) {
      case BO_Add:
        indexTerms(B->getLHS(), Sign, Out, Depth + 1);
        indexTerms(B->getRHS(), Sign, Out, Depth + 1);
        return;
      case BO_Sub:
        indexTerms(B->getLHS(), Sign, Out, Depth + 1);
        indexTerms(B->getRHS(), -Sign, Out, Depth + 1);
        return;
      case BO_Mul:
        if (auto K = uniformConstant(B->getRHS())) {
          Out.push_back({B->getLHS(), *K, Sign});
          return;
        }
        if (auto K = uniformConstant(B->getLHS())) {
          Out.push_back({B->getRHS(), *K, Sign});
          return;
        }
        break;
      case BO_Shl:
        if (auto K = uniformConstant(B->getRHS()))
          if (*K >= 0 && *K < 31) {
            Out.push_back({B->getLHS(), int64_t(1) << *K, Sign});
            return;
          }
        break;
      default:
        break;
      }
    }
    Out.push_back({E, 1, Sign});
  }

  /// `A ^ B`, `(A + B) % m`, `(A ^ B) & m`: the operands of a column that
  /// may hold a swizzle term.
  void columnTerms(const Expr *C, TileIndex &TI) {
    C = expandIndex(C);
    const auto *B = dyn_cast<BinaryOperator>(C);
    if (!B)
      return;
    const BinaryOperator *Op = nullptr;
    if (B->getOpcode() == BO_Xor) {
      Op = B;
    } else if ((B->getOpcode() == BO_Rem || B->getOpcode() == BO_And) &&
               uniformConstant(B->getRHS())) {
      const auto *In = dyn_cast<BinaryOperator>(expandIndex(B->getLHS()));
      if (In && (In->getOpcode() == BO_Add || In->getOpcode() == BO_Xor))
        Op = In;
    }
    if (!Op || hasEffects(Op))
      return;
    TI.ColA = quietInt(Op->getLHS());
    TI.ColB = quietInt(Op->getRHS());
    TI.HasColTerms = TI.ColA.isAffine() && TI.ColB.isAffine();
  }

  /// TileIndex is read by the layout check and by the bank check's padding
  /// what-if (2-D arrays).
  bool wantTileIndex() const {
    return Opts.enabled(CheckKind::LayoutMismatch) ||
           Opts.enabled(CheckKind::BankConflict);
  }

  /// The value of the index \p E of an array subscript evaluated for the
  /// access being recorded, as quietInt() would give it.
  LaneValue indexValue(const Expr *E) {
    auto It = IndexValues.find(E);
    if (It != IndexValues.end() && It->second.Generation == IndexGeneration)
      return toType(It->second.V, E->getType());
    return quietInt(E);
  }

  /// See TileIndex. Only element accesses written as subscripts of the
  /// shared array itself (1-D or 2-D, scalar elements) are described.
  TileIndex tileIndex(const Expr *E, const PointerValue &P) {
    TileIndex TI;
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
    if (!ASE || !P.Base)
      return TI;
    const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
    const Expr *ColE = ASE->getIdx();
    if (hasEffects(ColE))
      return TI;
    if (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
      const auto *DRE =
          dyn_cast<DeclRefExpr>(Inner->getBase()->IgnoreParenImpCasts());
      const auto *Arr = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!Arr || Arr != P.Base || hasEffects(Inner->getIdx()))
        return TI;
      const auto *VT = Ctx.getAsConstantArrayType(Arr->getType());
      const auto *RowT =
          VT ? Ctx.getAsConstantArrayType(VT->getElementType()) : nullptr;
      if (!RowT || RowT->getElementType()->isArrayType() ||
          RowT->getElementType()->isRecordType())
        return TI;
      TI.TwoD = true;
      TI.Pitch = int64_t(RowT->getSize().getZExtValue());
      if (Pad && Pad->Var == Arr)
        TI.Pitch += Pad->PadElems;
      TI.Row = indexValue(Inner->getIdx());
      TI.Col = indexValue(ColE);
      if (Opts.enabled(CheckKind::LayoutMismatch))
        columnTerms(ColE, TI);
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
      // Flattened tiles are described for the layout check only.
      if (!Opts.enabled(CheckKind::LayoutMismatch))
        return TI;
      const auto *Arr = dyn_cast<VarDecl>(DRE->getDecl());
      if (!Arr || Arr != P.Base)
        return TI;
      const ArrayType *AT = Ctx.getAsArrayType(Arr->getType());
      if (!AT || AT->getElementType()->isArrayType() ||
          AT->getElementType()->isRecordType())
        return TI;
      std::vector<IndexTerm> Terms;
      indexTerms(ColE, 1, Terms);
      int64_t KMax = 1;
      for (const IndexTerm &X : Terms)
        if (X.Factor > KMax)
          KMax = X.Factor;
      LaneValue Row = constant(0), Col = constant(0);
      std::vector<const IndexTerm *> Rest;
      for (const IndexTerm &X : Terms) {
        LaneValue V = quietInt(X.X) * constant(X.Sign);
        if (KMax > 1 && X.Factor == KMax) {
          if (X.Sign < 0)
            return TI;
          Row = Row + V;
        } else {
          Col = Col + V * constant(X.Factor);
          Rest.push_back(&X);
        }
      }
      TI.Pitch = KMax > 1 ? KMax : 0;
      TI.Row = Row;
      TI.Col = Col;
      if (Rest.size() == 1 && Rest[0]->Factor == 1 && Rest[0]->Sign > 0)
        columnTerms(Rest[0]->X, TI);
    } else {
      return TI;
    }
    TI.Valid = TI.Row.isAffine() && TI.Col.isAffine();
    if (Opts.enabled(CheckKind::LayoutMismatch))
      TI.Text = exprText(E);
    return TI;
  }

  //===--------------------------------------------------------------------===//
  // Addresses
  //===--------------------------------------------------------------------===//

  static bool isSharedVar(const ValueDecl *D) {
    return D && D->hasAttr<CUDASharedAttr>();
  }

  PointerValue notShared() { return PointerValue(); }

  /// Under a padding what-if: the padded size of a row of the padded array
  /// when \p RowTy is that array's row type.
  std::optional<int64_t> paddedRowBytes(QualType RowTy) {
    const auto *VT = Ctx.getAsConstantArrayType(Pad->Var->getType());
    if (!VT)
      return std::nullopt;
    const auto *Row = Ctx.getAsConstantArrayType(VT->getElementType());
    if (!Row || !Ctx.hasSameType(RowTy, VT->getElementType()))
      return std::nullopt;
    int64_t Elem = Ctx.getTypeSizeInChars(Row->getElementType()).getQuantity();
    return (int64_t(Row->getSize().getZExtValue()) + Pad->PadElems) * Elem;
  }

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

  PointerValue globalBase(const ValueDecl *V) {
    PointerValue P;
    P.GlobalBase = V;
    P.Offset = constant(0);
    return P;
  }

  PointerValue sharedBase(const VarDecl *V) {
    PointerValue P;
    P.Base = V;
    P.DynamicShared = V->hasExternalStorage() ||
                      (V->getType()->isIncompleteArrayType());
    P.Offset = constant(0);
    return P;
  }

  PointerValue offsetBy(PointerValue P, const LaneValue &Index,
                        QualType Elem) {
    if (!P.isShared() && !P.isGlobal())
      return P;
    if (Elem.isNull() || Elem->isIncompleteType() || Elem->isDependentType()) {
      P.Offset = unknown("element of unknown size");
      return P;
    }
    int64_t Size = Ctx.getTypeSizeInChars(Elem).getQuantity();
    P.Offset = P.Offset + Index * constant(Size);
    return P;
  }

  /// The memory an lvalue designates.
  PointerValue evalAddress(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      if (ICE->getCastKind() == CK_NoOp || ICE->getCastKind() == CK_LValueBitCast)
        return evalAddress(ICE->getSubExpr());
    // An object seen as its base class (`static_cast<Base &>(d)`, or
    // implicitly): the base sits at an offset.
    if (const auto *CE = dyn_cast<CastExpr>(E);
        CE && (CE->getCastKind() == CK_DerivedToBase ||
               CE->getCastKind() == CK_UncheckedDerivedToBase)) {
      PointerValue P = evalAddress(CE->getSubExpr());
      if (P.isShared() || P.isGlobal()) {
        if (std::optional<int64_t> Off = baseOffset(CE))
          P.Offset = P.Offset + constant(*Off);
        else
          P.Offset = unknown("virtual base class");
      }
      return P;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return notShared();
      if (isSharedVar(V))
        return sharedBase(V);
      if (isDeviceArray(V))
        return globalBase(V);
      // A reference bound to shared memory.
      if (V->getType()->isReferenceType()) {
        auto It = Vars.find(V);
        if (It != Vars.end() && It->second.IsPointer)
          return *It->second.Ptr;
      }
      return notShared();
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase();
      const Expr *Idx = ASE->getIdx();
      // `2[a]` is legal C; getBase() already normalises it.
      Value P = eval(Base);
      Value I = eval(Idx);
      // Only a recorded access's description reads them.
      if (Recording && wantTileIndex())
        IndexValues[Idx] = IndexValue{IndexGeneration, I.Int};
      if (P.IsPointer && P.Ptr->isGlobal())
        return offsetBy(std::move(*P.Ptr),
                        toType(std::move(I.Int), Idx->getType()),
                        ASE->getType());
      if (!P.IsPointer || !P.Ptr->isShared())
        return notShared();
      if (Pad && P.Ptr->Base == Pad->Var)
        if (auto Row = paddedRowBytes(ASE->getType())) {
          PointerValue Out = std::move(*P.Ptr);
          Out.Offset = Out.Offset +
                       toType(I.Int, Idx->getType()) * constant(*Row);
          return Out;
        }
      return offsetBy(std::move(*P.Ptr),
                      toType(std::move(I.Int), Idx->getType()),
                      ASE->getType());
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A reference member of a known object: what it refers to.
      if (ME->getMemberDecl()->getType()->isReferenceType())
        if (const Value *F = fieldValue(ME))
          return F->IsPointer ? *F->Ptr : notShared();
      PointerValue P;
      if (ME->isArrow()) {
        Value B = eval(ME->getBase());
        if (!B.IsPointer)
          return notShared();
        P = std::move(*B.Ptr);
      } else {
        P = evalAddress(ME->getBase());
      }
      if (!P.isShared() && !P.isGlobal())
        return P;
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD || FD->isBitField()) {
        P.Offset = unknown("bit-field or non-field member");
        return P;
      }
      const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
      int64_t Off = Ctx.toCharUnitsFromBits(L.getFieldOffset(FD->getFieldIndex()))
                        .getQuantity();
      P.Offset = P.Offset + constant(Off);
      return P;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref) {
        Value P = eval(UO->getSubExpr());
        if (!P.IsPointer)
          return notShared();
        return std::move(*P.Ptr);
      }
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Value C = eval(CO->getCond());
      noteBranch(CO, C.Int);
      PointerValue A = evalAddress(CO->getTrueExpr());
      PointerValue B = evalAddress(CO->getFalseExpr());
      if (samePointerBase(A, B)) {
        A.Offset = LaneValue::select(C.Int, A.Offset, B.Offset);
        return A;
      }
      return notShared();
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalAddress(MTE->getSubExpr());
    // `reinterpret_cast<T &>(x)`: x's address.
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E);
        CE && E->isGLValue() &&
        (CE->getCastKind() == CK_LValueBitCast || CE->getCastKind() == CK_NoOp))
      return evalAddress(CE->getSubExpr());
    // A call returning a reference: where the callee's return refers to,
    // when the walk follows it (see walkReturn()).
    if (isa<CallExpr>(E) && E->isGLValue()) {
      Value V = eval(E);
      return V.IsPointer ? std::move(*V.Ptr) : notShared();
    }
    // Anything else is evaluated for its effects only.
    eval(E);
    return notShared();
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Value evalInt(LaneValue V) { return Value::integer(std::move(V)); }

  /// Evaluates \p E for its effects: an assignment or increment statement
  /// (see Discarded) then skips copying the variable's value into a
  /// result nobody reads.
  void evalDiscarded(const Expr *E) {
    Discarded = E->IgnoreParens();
    eval(E);
    Discarded = nullptr;
  }
  /// Whether \p E is the expression evalDiscarded() was given; asked once,
  /// on entry, before any sub-expression is evaluated.
  bool takeDiscarded(const Expr *E) {
    bool Is = E == Discarded;
    Discarded = nullptr;
    return Is;
  }

  Value eval(const Expr *E) {
    if (!E)
      return evalInt(unknown("missing expression"));
    E = E->IgnoreParens();

    // A flattened array's row stride under a padding what-if; the
    // expressions around it are not folded as constants.
    bool StrideContext = false;
    if (Pad && !Pad->StrideContexts.empty()) {
      if (Pad->StrideRefs.count(E))
        return evalInt(constant(Pad->Stride + Pad->PadElems));
      StrideContext = Pad->StrideContexts.count(E) != 0;
    }

    // Integer constant expressions: literals, enumerators, constexpr
    // variables, sizeof, template arguments.
    if (!StrideContext)
      if (std::optional<int64_t> C = foldedConstant(E))
        return evalInt(constant(*C));

    if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E)) {
      if (auto C = constantOf(E))
        return evalInt(constant(*C));
    }
    if (isa<FloatingLiteral>(E))
      return evalInt(unknown("floating-point value"));

    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return evalDeclRef(DRE);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      return evalCast(ICE, ICE->getSubExpr());
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
      return evalCast(CE, CE->getSubExpr());
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return evalUnary(UO);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return evalBinary(BO);
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      Value C = eval(CO->getCond());
      noteBranch(CO, C.Int);
      std::vector<char> Saved = Active;
      // Each side runs in the threads that pick it.
      Value A = evalUnder(CO->getTrueExpr(), C.Int, true);
      Value B = evalUnder(CO->getFalseExpr(), C.Int, false);
      Active = Saved;
      if (A.IsPointer && B.IsPointer) {
        if (samePointerBase(*A.Ptr, *B.Ptr)) {
          A.Ptr->Offset = LaneValue::select(C.Int, A.Ptr->Offset, B.Ptr->Offset);
          return A;
        }
        return Value::pointer(PointerValue());
      }
      LaneValue R = LaneValue::select(C.Int, A.Int, B.Int);
      if (R.kind() == LaneValue::Kind::NonAffine && C.Int.isUniform() &&
          A.Int.isUniform() && B.Int.isUniform())
        R = opaqueUniformText(E, 0, E);
      Value Out = evalInt(std::move(R));
      Out.From = A.From;
      addOrigins(Out.From, B.From);
      return Out;
    }
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
      if (const auto *MP =
              dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
        if (const auto *Base =
                dyn_cast<DeclRefExpr>(MP->getBaseExpr()->IgnoreParenImpCasts()))
          if (auto V = builtinVar(Base->getDecl()->getName(),
                                  MP->getPropertyDecl()->getName(), nullptr))
            return evalInt(*V);
      return eval(PO->getResultExpr());
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          isRecordOrRef(OC->getArg(0)->getType())) {
        // A group variable assigned, perhaps in some threads only: what it
        // holds is no longer known.
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
              V && groupClass(V->getType()))
            GroupHeld.erase(V);
        std::optional<Value> V = evalRecordAssign(OC);
        if (!V)
          V = evalCall(OC);
        // The object assigned to holds other values now, also where it is
        // known by another name (a reference, a copy sharing its state).
        forgetObject(OC->getArg(0));
        return *V;
      }
    }
    if (const auto *CE = dyn_cast<CallExpr>(E))
      return evalCall(CE);
    if (const auto *LE = dyn_cast<LambdaExpr>(E))
      return evalLambda(LE);
    if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
      if (auto V = evalRecordCopy(CC))
        return *V;
      if (construct(CC))
        return evalInt(unknown("unsupported expression"));
    }
    if (isa<CXXThisExpr>(E) && !ThisStack.empty() && ThisStack.back().Ptr)
      return Value::pointer(*ThisStack.back().Ptr);
    if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return eval(S->getReplacement());
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return eval(D->getExpr());
    if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
      return eval(D->getExpr());
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return eval(EWC->getSubExpr());
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      return eval(MTE->getSubExpr());
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return eval(BT->getSubExpr());
    if (const auto *CE = dyn_cast<ConstantExpr>(E))
      return eval(CE->getSubExpr());
    if (isa<ArraySubscriptExpr, MemberExpr>(E)) {
      // An lvalue used as such (e.g. an array member decaying later).
      PointerValue P = evalAddress(E);
      return Value::pointer(P);
    }
    // Anything else: evaluate the parts for their accesses.
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        eval(CE);
    return evalInt(unknown("unsupported expression"));
  }

  /// A struct or vector value (float4, a user struct) copied out of shared
  /// memory: `float4 v = s4[i];` is a copy construction from the lvalue,
  /// with no lvalue-to-rvalue conversion to see.
  std::optional<Value> evalRecordCopy(const CXXConstructExpr *CC) {
    const CXXConstructorDecl *Ctor = CC->getConstructor();
    if (!Ctor || !(Ctor->isCopyConstructor() || Ctor->isMoveConstructor()) ||
        CC->getNumArgs() != 1)
      return std::nullopt;
    const Expr *Src = CC->getArg(0)->IgnoreParens();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Src))
      Src = M->getSubExpr()->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Src))
      if (ICE->getCastKind() == CK_NoOp)
        Src = ICE->getSubExpr()->IgnoreParens();
    if (!Src->isGLValue())
      return std::nullopt;
    Value Out = evalInt(unknown("struct value"));
    Out.From = loadRecord(Src);
    return Out;
  }

  /// The byte offset of the base a derived-to-base cast selects; none
  /// through a virtual base.
  std::optional<int64_t> baseOffset(const CastExpr *CE) {
    const CXXRecordDecl *Derived =
        CE->getSubExpr()->getType()->getAsCXXRecordDecl();
    int64_t Off = 0;
    for (const CXXBaseSpecifier *B : CE->path()) {
      const CXXRecordDecl *Base = B->getType()->getAsCXXRecordDecl();
      if (!Derived || !Base || B->isVirtual() || Derived->isInvalidDecl())
        return std::nullopt;
      Off += Ctx.getASTRecordLayout(Derived).getBaseClassOffset(Base).getQuantity();
      Derived = Base;
    }
    return Off;
  }

  /// Whether a field keeps the value its constructor gives it: a
  /// reference (it cannot be re-seated), a const integer or pointer, or a
  /// private integer or pointer that no code of its class assigns,
  /// increments, binds to a non-const reference or takes the address of
  /// outside the constructors' initialisers (BlockReduce's `linear_tid`).
  bool keptField(const FieldDecl *FD) {
    QualType T = FD->getType();
    if (T->isReferenceType())
      return true;
    if (!T->isIntegralOrEnumerationType() && !T->isPointerType())
      return false;
    if (T.isConstQualified())
      return true;
    // Code outside the class could assign a public member, and a derived
    // class a protected one.
    if (FD->getAccess() != AS_private)
      return false;
    auto [It, New] = KeptFields.try_emplace(FD, false);
    if (New)
      It->second = neverModified(FD);
    return It->second;
  }

  /// For keptField(): no method, constructor body or nested class of
  /// \p FD's class modifies it, and the class has no friends (which could).
  bool neverModified(const FieldDecl *FD) {
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (!RD || RD->hasFriends())
      return false;
    class Finder : public RecursiveASTVisitor<Finder> {
    public:
      const FieldDecl *FD;
      bool Found = false;
      const FieldDecl *PatternFD = nullptr;
      bool names(const Expr *E) {
        E = E->IgnoreParenImpCasts();
        if (const auto *ME = dyn_cast<MemberExpr>(E))
          return ME->getMemberDecl() == FD || ME->getMemberDecl() == PatternFD;
        // In a template, a member of a dependent object is found by name.
        if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(E))
          return DM->getMember() == FD->getDeclName();
        return false;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        Found |= B->isAssignmentOp() && names(B->getLHS());
        return !Found;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        Found |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
                 names(U->getSubExpr());
        return !Found;
      }
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
        Found |= C->isAssignmentOp() && C->getNumArgs() > 0 &&
                 names(C->getArg(0));
        return !Found;
      }
      // A member bound to a non-const reference (passed to `int &`).
      bool boundToReference(const FunctionDecl *F, unsigned NumArgs,
                            const Expr *const *Args) {
        for (unsigned I = 0; I < NumArgs; ++I)
          if (mayWriteArgument(F, I) && names(Args[I]))
            return true;
        return false;
      }
      bool VisitCallExpr(CallExpr *C) {
        if (!isa<CXXOperatorCallExpr>(C))
          Found |= boundToReference(C->getDirectCallee(), C->getNumArgs(),
                                    C->getArgs());
        return !Found;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr *C) {
        Found |= boundToReference(C->getConstructor(), C->getNumArgs(),
                                  C->getArgs());
        return !Found;
      }
    } F;
    F.FD = FD;
    // Every function of the class (and of classes nested in it); a
    // constructor's initialisers are where the value is set, so only its
    // body counts. A template's pattern stands for its instantiations.
    std::function<void(const CXXRecordDecl *)> Scan =
        [&](const CXXRecordDecl *C) {
          for (const Decl *D : C->decls()) {
            if (F.Found)
              return;
            const Decl *Inner = D;
            if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
              Inner = FT->getTemplatedDecl();
            if (const auto *M = dyn_cast<FunctionDecl>(Inner)) {
              // A copy or move assignment the compiler writes replaces the
              // whole object; the walk follows that where it happens
              // (ObjectState::Replaced), so it does not make every field
              // of the class changeable.
              if (M->isImplicit() || M->isDefaulted())
                continue;
              if (Stmt *Body = M->getBody())
                F.TraverseStmt(Body);
            } else if (const auto *Nested = dyn_cast<CXXRecordDecl>(Inner)) {
              if (Nested->isThisDeclarationADefinition())
                Scan(Nested);
            }
          }
        };
    Scan(RD);
    if (const CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern()) {
      for (const NamedDecl *ND : Pattern->lookup(FD->getDeclName()))
        if (const auto *PF = dyn_cast<FieldDecl>(ND))
          F.PatternFD = PF;
      Scan(Pattern);
    }
    return !F.Found;
  }
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
  const CXXConstructorDecl *followedConstructor(const CXXConstructExpr *CC) {
    const CXXConstructorDecl *Ctor = CC->getConstructor();
    const FunctionDecl *Def = nullptr;
    if (!Ctor || Ctor->isCopyOrMoveConstructor() || !Ctor->hasBody(Def) ||
        !Def || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
        !mayEnter(Def))
      return nullptr;
    return cast<CXXConstructorDecl>(Def);
  }

  /// Follows a constructor call (see followedConstructor()) and remembers
  /// the object it makes in Constructed. Returns false, having done
  /// nothing, for one it does not follow; the caller then evaluates the
  /// arguments as for an unknown call.
  bool construct(const CXXConstructExpr *CC) {
    const CXXConstructorDecl *CD = followedConstructor(CC);
    if (!CD) {
      // Not followed here (too deep, say): an object this call made
      // elsewhere in the walk is not the one it makes now.
      Constructed.erase(CC);
      return false;
    }
    auto Obj = std::make_shared<ObjectState>();
    runConstructor(Obj, CC, CD);
    Constructed[CC] = std::move(Obj);
    return true;
  }

  /// The arguments of \p CC in the caller, as for any call; then \p CD's
  /// base and member initialisers, which give \p Obj its kept fields (see
  /// ObjectState). The initialisers record nothing: the object's memory is
  /// the thread's own, and a constructor is not a call site of the trace.
  void runConstructor(const ObjectRef &Obj, const CXXConstructExpr *CC,
                      const CXXConstructorDecl *CD) {
    std::vector<ObjectRef> ArgObjects;
    std::vector<Value> Args = callArguments(
        llvm::ArrayRef(CC->getArgs(), CC->getNumArgs()), CD, ArgObjects);
    bool SavedRec = Recording;
    unsigned SavedSeq = Seq;
    Recording = false;
    Env Saved = enterCallee(CD, std::move(Args), ArgObjects);
    Inlining.push_back(CD);
    ThisStack.push_back({Obj, std::nullopt});
    for (const CXXCtorInitializer *I : CD->inits()) {
      const Expr *Init = I->getInit();
      if (!Init)
        continue;
      const FieldDecl *FD = I->getMember();
      if (!FD) {
        // A base (or delegated-to) constructor: its fields are this
        // object's.
        const auto *BaseCC = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
        if (const CXXConstructorDecl *BaseCD =
                BaseCC ? followedConstructor(BaseCC) : nullptr)
          runConstructor(Obj, BaseCC, BaseCD);
        else
          eval(Init);
        continue;
      }
      if (!keptField(FD)) {
        eval(Init);
        continue;
      }
      if (FD->getType()->isReferenceType()) {
        Obj->Fields[FD] = Value::pointer(evalAddress(Init));
        continue;
      }
      Value V = eval(Init);
      if (!V.IsPointer)
        V.Int = toType(std::move(V.Int), FD->getType());
      Obj->Fields[FD] = std::move(V);
    }
    ThisStack.pop_back();
    Inlining.pop_back();
    Vars = std::move(Saved);
    Recording = SavedRec;
    Seq = SavedSeq;
  }

  /// Evaluates a call's arguments in the caller: a reference parameter
  /// gets the address of its argument. \p ArgObjects gets the object each
  /// class-typed parameter receives, where the walk knows it.
  std::vector<Value> callArguments(llvm::ArrayRef<const Expr *> Args,
                                   const FunctionDecl *Def,
                                   std::vector<ObjectRef> &ArgObjects) {
    std::vector<Value> Out;
    Out.reserve(Args.size());
    for (unsigned I = 0; I < Args.size(); ++I) {
      const ParmVarDecl *P =
          I < Def->getNumParams() ? Def->getParamDecl(I) : nullptr;
      if (P && P->getType()->isReferenceType())
        Out.push_back(Value::pointer(evalAddress(Args[I])));
      else
        Out.push_back(eval(Args[I]));
      ArgObjects.push_back(P && isRecordOrRef(P->getType())
                               ? knownObject(Args[I])
                               : nullptr);
    }
    return Out;
  }

  /// Whether a call to \p F may write to the lvalue passed as argument
  /// \p I: it binds a non-const reference, or its parameter is not known
  /// (no prototype, a variadic argument).
  static bool mayWriteArgument(const FunctionDecl *F, unsigned I) {
    if (!F || I >= F->getNumParams())
      return true;
    QualType PT = F->getParamDecl(I)->getType();
    return PT->isReferenceType() && !PT->getPointeeType().isConstQualified();
  }

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
  ObjectRef namedObject(const Expr *E) {
    // `this` and `*this` (assigned as a whole by a method).
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(E))
      return ThisStack.empty() ? nullptr : ThisStack.back().Obj;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        auto It = Objects.find(V);
        return It == Objects.end() ? nullptr : It->second;
      }
      return nullptr;
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
      // An implicit copy holds what the original holds.
      if (CC->getConstructor() &&
          CC->getConstructor()->isCopyOrMoveConstructor() &&
          !CC->getConstructor()->isUserProvided() && CC->getNumArgs() == 1)
        return knownObject(CC->getArg(0));
      auto It = Constructed.find(CC);
      return It == Constructed.end() ? nullptr : It->second;
    }
    return nullptr;
  }

  /// Code the walk does not see may change the object \p E names: what it
  /// knew of it no longer holds.
  void forgetObject(const Expr *E) {
    if (isRecordOrRef(E->getType()))
      if (ObjectRef Obj = knownObject(E))
        Obj->Replaced = true;
  }

  /// Starts the walk of a callee's body or initialisers: its parameters
  /// hold \p Args, and its class-typed ones the objects \p ArgObjects.
  /// Returns the caller's variables, to restore when the callee is done.
  Env enterCallee(const FunctionDecl *Def, std::vector<Value> Args,
                  const std::vector<ObjectRef> &ArgObjects) {
    Env Caller = std::move(Vars);
    Vars.clear();
    for (unsigned I = 0; I < Args.size() && I < Def->getNumParams(); ++I)
      Vars[Def->getParamDecl(I)] = std::move(Args[I]);
    bindParamObjects(Def, ArgObjects);
    return Caller;
  }

  /// Binds the objects a call passes to class-typed parameters (by value
  /// or by reference), so that the callee's member calls on them see their
  /// fields; a parameter given an unknown object forgets an earlier one.
  void bindParamObjects(const FunctionDecl *Def,
                        const std::vector<ObjectRef> &ArgObjects) {
    for (unsigned I = 0; I < ArgObjects.size() && I < Def->getNumParams(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      if (!isRecordOrRef(P->getType()))
        continue;
      if (ArgObjects[I])
        Objects[P] = ArgObjects[I];
      else
        Objects.erase(P);
    }
  }

  /// The kept value of the field \p ME names, when the walk knows the
  /// object (`this->rows` in a member function, `t.rows` of a local).
  const Value *fieldValue(const MemberExpr *ME) {
    return keptValue(memberObject(ME), ME);
  }
  /// The same, for the object memberObject() found.
  const Value *keptValue(const ObjectRef &Obj, const MemberExpr *ME) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Obj || !FD || !keptField(FD))
      return nullptr;
    auto It = Obj->Fields.find(FD);
    return It == Obj->Fields.end() ? nullptr : &It->second;
  }

  /// The object whose member \p ME names, when the walk knows it (it
  /// followed its constructor): `this->f` in a member function, `t.f` of a
  /// local.
  ObjectRef memberObject(const MemberExpr *ME) {
    if (ThisStack.empty() && Objects.empty())
      return nullptr;
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (ME->isArrow() ? isa<CXXThisExpr>(Base) : isa<DeclRefExpr>(Base))
      return knownObject(Base);
    return nullptr;
  }

  /// A struct or vector read through an lvalue: recorded when it is in
  /// shared or global memory; the loads it carries.
  Origins loadRecord(const Expr *Src) {
    if (const VarDecl *R = recordRoot(Src))
      return RecordFrom[R];
    PointerValue P = evalAddress(Src);
    if (P.isShared())
      return originOf(recordAccess(Src, P, AccessKind::Load, Src->getType()),
                      false);
    if (P.isGlobal())
      return originOf(recordGlobal(Src, P, AccessKind::Load, Src->getType()),
                      true);
    return {};
  }

  /// `s4[i] = v;` for a struct or vector type: the implicit copy assignment
  /// operator stores the whole object.
  std::optional<Value> evalRecordAssign(const CXXOperatorCallExpr *OC) {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return std::nullopt;
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (!MD || !(MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) ||
        !MD->isTrivial())
      return std::nullopt;
    const Expr *Src = OC->getArg(1)->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Src))
      Src = M->getSubExpr()->IgnoreParenImpCasts();
    Origins From;
    if (Src->isGLValue())
      From = loadRecord(Src);
    else
      From = eval(Src).From;
    const Expr *Dst = OC->getArg(0);
    if (const VarDecl *R = recordRoot(Dst)) {
      // A whole local struct assigned (v = in4[i]); a member assigned
      // (v.x = ...) may keep the other members' data.
      if (isa<DeclRefExpr>(Dst->IgnoreParenImpCasts()))
        RecordFrom[R] = From;
      else
        addOrigins(RecordFrom[R], From);
    } else {
      PointerValue P = evalAddress(Dst);
      if (P.isShared())
        recordAccess(Dst, P, AccessKind::Store, Dst->getType(), std::nullopt,
                     From);
      else if (P.isGlobal())
        recordGlobal(Dst, P, AccessKind::Store, Dst->getType(), From);
    }
    Value Out = evalInt(unknown("struct value"));
    Out.From = std::move(From);
    return Out;
  }

  Value evalUnder(const Expr *E, const LaneValue &Cond, bool Sense) {
    std::vector<char> Saved = Active;
    if (Cond.isConcrete())
      narrowActive(Cond, Sense);
    Value V = eval(E);
    Active = Saved;
    return V;
  }

  Value evalDeclRef(const DeclRefExpr *DRE) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
      return evalInt(constant(EC->getInitVal().getExtValue()));
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      return evalInt(unknown("reference to a function"));
    // Looked up first, as most references are to locals: Vars holds only
    // locals and parameters, never shared, __device__ or builtin variables,
    // so none of the tests below could hold for a variable in it.
    auto It = Vars.find(V);
    if (It != Vars.end())
      return It->second;
    if (V->getName() == "warpSize" && !V->isLocalVarDeclOrParm())
      return evalInt(constant(G.warpSize()));
    if (isSharedVar(V))
      return Value::pointer(sharedBase(V));
    if (isDeviceArray(V))
      return Value::pointer(globalBase(V));
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      // A kernel parameter: the same in every thread of the grid. A pointer
      // parameter points to global memory.
      if (P->getType()->isPointerType())
        return Value::pointer(globalBase(P));
      if (P->getType()->isReferenceType())
        return Value::pointer(PointerValue());
      return evalInt(symbolValue(
          T.Symbols.get(P, 0, SymbolInfo::Parameter, P->getName().str())));
    }
    if (!V->isLocalVarDeclOrParm()) {
      // __constant__ / __device__ globals and static constants: uniform.
      if (V->getType()->isPointerType())
        return Value::pointer(PointerValue());
      // Not made by the kernel, so the same in every iteration: no scope.
      return evalInt(symbolValue(
          T.Symbols.get(V, 0, SymbolInfo::Opaque, V->getName().str())));
    }
    return evalInt(unknown("'" + V->getName().str() + "' has no known value"));
  }

  /// A load through an lvalue: recorded when shared; its value is uniform
  /// when every thread reads the same address.
  Value evalLoad(const Expr *Whole, const Expr *LV) {
    const Expr *Inner = LV->IgnoreParens();
    // A kept member of a known object holds what its constructor gave it;
    // another member of one is the thread's own state, which the walk does
    // not follow: not known, but not data either.
    if (const auto *ME = dyn_cast<MemberExpr>(Inner);
        ME && !ME->getMemberDecl()->getType()->isReferenceType()) {
      ObjectRef Obj = memberObject(ME);
      if (const Value *F = keptValue(Obj, ME))
        return *F;
      if (Obj && isa<FieldDecl>(ME->getMemberDecl())) {
        Value Out = evalInt(unknown("a member that may change after the "
                                    "constructor"));
        if (const VarDecl *R = recordRoot(Inner))
          Out.From = RecordFrom[R];
        return Out;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Inner)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && !isSharedVar(V) && !V->getType()->isReferenceType())
        return evalDeclRef(DRE);
      if (V && V->getType()->isReferenceType() && !Vars.count(V))
        return evalDeclRef(DRE);
    }
    PointerValue P = evalAddress(Inner);
    QualType Ty = LV->getType();
    if (P.isShared()) {
      auto Index = recordAccess(LV, P, AccessKind::Load, Ty);
      if (Ty->isPointerType())
        return Value::pointer(PointerValue());
      Value Out = P.Offset.isUniform() && !Ty.isVolatileQualified()
                      ? evalInt(opaqueUniformText(Whole, 1, LV))
                      : evalInt(unknown("value loaded from shared memory"));
      Out.From = originOf(Index, false);
      return Out;
    }
    if (Ty->isPointerType())
      return Value::pointer(PointerValue());
    Value Out = evalInt(unknown("value loaded from memory"));
    if (P.isGlobal())
      Out.From = originOf(recordGlobal(LV, P, AccessKind::Load, Ty), true);
    else if (const VarDecl *R = recordRoot(Inner))
      Out.From = RecordFrom[R]; // A member of a local struct (float4 v; v.x).
    return Out;
  }

  /// The local struct variable an lvalue is a member of (`v.x`, `v.a.b`).
  const VarDecl *recordRoot(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && V->isLocalVarDeclOrParm() && V->getType()->isRecordType())
      return V;
    return nullptr;
  }

  Value evalCast(const CastExpr *CE, const Expr *Sub) {
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return evalLoad(CE, Sub);
    case CK_ArrayToPointerDecay:
      return Value::pointer(evalAddress(Sub));
    case CK_FunctionToPointerDecay:
    case CK_BuiltinFnToFnPtr:
      return evalInt(unknown("function pointer"));
    default:
      break;
    }
    Value V = eval(Sub);
    QualType To = CE->getType();
    if (To->isPointerType() || To->isReferenceType()) {
      if (V.IsPointer)
        return V;
      return Value::pointer(PointerValue());
    }
    if (V.IsPointer)
      return evalInt(unknown("pointer converted to an integer"));
    // A conversion carries the data it converts.
    auto Carry = [&](LaneValue R) {
      Value Out = evalInt(std::move(R));
      Out.From = std::move(V.From);
      return Out;
    };
    if (To->isIntegralOrEnumerationType())
      return Carry(toType(std::move(V.Int), To));
    if (To->isRealFloatingType() && V.Int.isConcrete())
      return V; // Integer-valued float: keep it for benign-store checks.
    if (To->isVoidType())
      return evalInt(unknown("void"));
    return Carry(unknown("non-integer value"));
  }

  /// The local variable an lvalue names, if it is one we track.
  const VarDecl *trackedVar(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (V->isLocalVarDeclOrParm() && !isSharedVar(V) &&
            !V->getType()->isReferenceType() && !V->getType()->isArrayType() &&
            !V->getType()->isRecordType())
          return V;
    return nullptr;
  }

  /// Store \p NewV into the variable in the active threads only: inactive
  /// threads keep their value (the branch they are in doesn't run). \p At
  /// is the assignment: where the active threads are not known exactly, the
  /// value is a join made there.
  void assignVar(const VarDecl *V, Value NewV, const Stmt *At) {
    if (!NewV.IsPointer)
      NewV.Int = toType(std::move(NewV.Int), V->getType());
    auto It = Vars.find(V);
    bool AllActive = !std::memchr(Active.data(), 0, Active.size());
    if (AllActive || It == Vars.end() || ActiveApprox) {
      if (!AllActive && It != Vars.end() && ActiveApprox &&
          !(It->second.Int == NewV.Int))
        NewV = joinValues(It->second, NewV, nullptr, V, At);
      Vars[V] = std::move(NewV);
      return;
    }
    std::vector<int64_t> Mask(Active.begin(), Active.end());
    LaneValue Cond = LaneValue::perThread(std::move(Mask));
    if (NewV.IsPointer || It->second.IsPointer) {
      if (NewV.IsPointer && It->second.IsPointer &&
          samePointerBase(*NewV.Ptr, *It->second.Ptr)) {
        NewV.Ptr->Offset =
            LaneValue::select(Cond, NewV.Ptr->Offset, It->second.Ptr->Offset);
        It->second = std::move(NewV);
      } else {
        Vars[V] = Value::pointer(PointerValue());
      }
      return;
    }
    // Threads that did not assign keep the old value: both may be carried.
    Origins From = std::move(NewV.From);
    addOrigins(From, It->second.From);
    It->second = evalInt(LaneValue::select(Cond, NewV.Int, It->second.Int));
    It->second.From = std::move(From);
  }

  Value evalUnary(const UnaryOperator *UO) {
    bool Unused = takeDiscarded(UO);
    const Expr *Sub = UO->getSubExpr();
    switch (UO->getOpcode()) {
    case UO_AddrOf:
      return Value::pointer(evalAddress(Sub));
    case UO_Deref: {
      PointerValue P = evalAddress(UO);
      return Value::pointer(P);
    }
    case UO_Minus: {
      Value V = eval(Sub);
      Value Out = evalInt(-V.Int);
      Out.From = std::move(V.From);
      return Out;
    }
    case UO_Plus:
      return eval(Sub);
    case UO_Not: {
      Value V = eval(Sub);
      Value Out = evalInt(toType(V.Int.bitNot(), UO->getType()));
      Out.From = std::move(V.From);
      return Out;
    }
    case UO_LNot: {
      Value V = eval(Sub);
      if (V.IsPointer)
        return evalInt(unknown("pointer test"));
      LaneValue R = V.Int.logicalNot();
      if (R.kind() == LaneValue::Kind::NonAffine && V.Int.isUniform())
        R = opaqueUniformText(UO, 0, UO);
      return evalInt(std::move(R));
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      int64_t Delta = UO->isIncrementOp() ? 1 : -1;
      if (const VarDecl *V = trackedVar(Sub)) {
        Value Old = eval(Sub);
        if (Old.IsPointer) {
          PointerValue P = offsetBy(*Old.Ptr, constant(Delta),
                                    V->getType()->getPointeeType());
          assignVar(V, Value::pointer(P), UO);
          return UO->isPrefix() ? Value::pointer(P) : Old;
        }
        Value New = evalInt(Old.Int + constant(Delta));
        assignVar(V, std::move(New), UO);
        if (Unused)
          return Value();
        return UO->isPrefix() ? Vars[V] : Old;
      }
      PointerValue P = evalAddress(Sub);
      if (P.isShared()) {
        recordAccess(Sub, P, AccessKind::Load, Sub->getType());
        recordAccess(Sub, P, AccessKind::Store, Sub->getType());
      } else if (P.isGlobal()) {
        recordGlobal(Sub, P, AccessKind::Load, Sub->getType());
        recordGlobal(Sub, P, AccessKind::Store, Sub->getType());
      }
      return evalInt(unknown("value in memory"));
    }
    default:
      return eval(Sub);
    }
  }

  static std::optional<LaneValue::Op> opOf(BinaryOperatorKind K) {
    switch (K) {
    case BO_Div: case BO_DivAssign: return LaneValue::Op::Div;
    case BO_Rem: case BO_RemAssign: return LaneValue::Op::Rem;
    case BO_Shl: case BO_ShlAssign: return LaneValue::Op::Shl;
    case BO_Shr: case BO_ShrAssign: return LaneValue::Op::Shr;
    case BO_And: case BO_AndAssign: return LaneValue::Op::And;
    case BO_Or: case BO_OrAssign: return LaneValue::Op::Or;
    case BO_Xor: case BO_XorAssign: return LaneValue::Op::Xor;
    case BO_LT: return LaneValue::Op::LT;
    case BO_LE: return LaneValue::Op::LE;
    case BO_GT: return LaneValue::Op::GT;
    case BO_GE: return LaneValue::Op::GE;
    case BO_EQ: return LaneValue::Op::EQ;
    case BO_NE: return LaneValue::Op::NE;
    case BO_LAnd: return LaneValue::Op::LAnd;
    case BO_LOr: return LaneValue::Op::LOr;
    default: return std::nullopt;
    }
  }

  /// L op R on integers, naming uniform non-affine results.
  LaneValue arith(const Expr *E, BinaryOperatorKind K, const LaneValue &L,
                  const LaneValue &R, QualType OperandTy) {
    LaneValue Out;
    switch (K) {
    case BO_Add: case BO_AddAssign: Out = L + R; break;
    case BO_Sub: case BO_SubAssign: Out = L - R; break;
    case BO_Mul: case BO_MulAssign:
      Out = L * R;
      if (Out.kind() == LaneValue::Kind::NonAffine &&
          !(L.isUniform() && R.isUniform()))
        if (auto P = expandProduct(L, R))
          Out = *P;
      break;
    default: {
      auto Op = opOf(K);
      if (!Op)
        return unknown("unsupported operator");
      // A power-of-two divisor or modulus of a non-negative affine value
      // whose unknowns all have coefficients divisible by it splits off
      // exactly: (c + m*k*s) / m == c / m + k*s.
      Out = LaneValue::apply(*Op, L, R,
                             OperandTy->isUnsignedIntegerOrEnumerationType());
      if (Out.kind() == LaneValue::Kind::NonAffine)
        Out = LaneValue::splitDivision(*Op, L, R, Out);
      break;
    }
    }
    return nameIfUniform(E, std::move(Out), L, R);
  }

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
                                         const LaneValue &R) {
    if (!L.isAffine() || !R.isAffine())
      return std::nullopt;
    for (SymbolId S : L.symbols())
      if (!stableSymbol(S) || S >= 0x7fff)
        return std::nullopt;
    for (SymbolId S : R.symbols())
      if (!stableSymbol(S) || S >= 0x7fff)
        return std::nullopt;
    LaneValue LC = LaneValue::perThread(L.constants());
    LaneValue RC = LaneValue::perThread(R.constants());
    LaneValue Out = LC * RC;
    for (const auto &KV : L.coefficients())
      Out = Out + LaneValue::perThread(KV.second) * RC *
                      LaneValue::symbol(N, KV.first);
    for (const auto &KV : R.coefficients())
      Out = Out + LaneValue::perThread(KV.second) * LC *
                      LaneValue::symbol(N, KV.first);
    for (const auto &A : L.coefficients())
      for (const auto &B : R.coefficients()) {
        SymbolId Lo = std::min(A.first, B.first), Hi = std::max(A.first, B.first);
        SymbolId U = T.Symbols.get(
            &ProductSymbolKey, (uint64_t(Lo) << 32) | Hi, SymbolInfo::Opaque,
            T.Symbols.info(Lo).Name + "*" + T.Symbols.info(Hi).Name);
        std::vector<int64_t> Co(N);
        for (unsigned I = 0; I < N; ++I)
          Co[I] = A.second[I] * B.second[I];
        Out = Out + LaneValue::perThread(std::move(Co)) * LaneValue::symbol(N, U);
      }
    if (!Out.isAffine())
      return std::nullopt;
    return Out;
  }

  Value evalBinary(const BinaryOperator *BO) {
    bool Unused = takeDiscarded(BO);
    BinaryOperatorKind K = BO->getOpcode();
    const Expr *LHS = BO->getLHS(), *RHS = BO->getRHS();
    if (K == BO_Comma) {
      eval(LHS);
      return eval(RHS);
    }
    if (K == BO_Assign) {
      Value R = eval(RHS);
      if (const VarDecl *V = trackedVar(LHS)) {
        if (Unused) {
          assignVar(V, std::move(R), BO);
          return Value();
        }
        assignVar(V, R, BO);
        return R;
      }
      if (const VarDecl *Rec = recordRoot(LHS)) {
        // v.x = in[i]: the local struct now holds that load's data too.
        addOrigins(RecordFrom[Rec], R.From);
        return R;
      }
      PointerValue P = evalAddress(LHS);
      if (P.isShared())
        recordAccess(LHS, P, AccessKind::Store, LHS->getType(),
                     R.IsPointer ? std::nullopt
                                 : std::optional<LaneValue>(R.Int),
                     R.From);
      else if (P.isGlobal() && !R.IsPointer)
        recordGlobal(LHS, P, AccessKind::Store, LHS->getType(), R.From);
      return R;
    }
    if (BO->isCompoundAssignmentOp()) {
      Value R = eval(RHS);
      if (const VarDecl *V = trackedVar(LHS)) {
        Value Old = eval(LHS);
        if (Old.IsPointer) {
          LaneValue Idx = R.Int;
          if (K == BO_SubAssign)
            Idx = -Idx;
          assignVar(V,
                    Value::pointer(offsetBy(*Old.Ptr, Idx,
                                            V->getType()->getPointeeType())),
                    BO);
          return Vars[V];
        }
        Value New = evalInt(arith(BO, K, Old.Int, R.Int, LHS->getType()));
        New.From = std::move(Old.From);
        addOrigins(New.From, R.From);
        assignVar(V, std::move(New), BO);
        return Unused ? Value() : Vars[V];
      }
      PointerValue P = evalAddress(LHS);
      Origins From = R.From;
      if (P.isShared()) {
        addOrigins(From, originOf(recordAccess(LHS, P, AccessKind::Load,
                                               LHS->getType()),
                                  false));
        recordAccess(LHS, P, AccessKind::Store, LHS->getType(), std::nullopt,
                     From);
      } else if (P.isGlobal()) {
        addOrigins(From, originOf(recordGlobal(LHS, P, AccessKind::Load,
                                               LHS->getType()),
                                  true));
        recordGlobal(LHS, P, AccessKind::Store, LHS->getType(), From);
      }
      Value Out = evalInt(unknown("value in memory"));
      Out.From = std::move(From);
      return Out;
    }
    if (K == BO_LAnd || K == BO_LOr) {
      Value L = eval(LHS);
      noteBranch(BO, L.Int);
      // The right side runs only where the left doesn't decide.
      Value R = evalUnder(RHS, L.Int, K == BO_LAnd);
      if (L.IsPointer || R.IsPointer)
        return evalInt(unknown("pointer test"));
      return evalInt(arith(BO, K, L.Int, R.Int, LHS->getType()));
    }
    Value L = eval(LHS);
    Value R = eval(RHS);
    if (L.IsPointer || R.IsPointer) {
      if ((K == BO_Add || K == BO_Sub) && L.IsPointer && !R.IsPointer) {
        LaneValue Idx = K == BO_Sub ? -R.Int : R.Int;
        return Value::pointer(
            offsetBy(*L.Ptr, Idx, LHS->getType()->getPointeeType()));
      }
      if (K == BO_Add && R.IsPointer && !L.IsPointer)
        return Value::pointer(
            offsetBy(*R.Ptr, L.Int, RHS->getType()->getPointeeType()));
      if (K == BO_Sub && L.IsPointer && R.IsPointer && L.Ptr->Base &&
          L.Ptr->Base == R.Ptr->Base) {
        int64_t Size =
            Ctx.getTypeSizeInChars(LHS->getType()->getPointeeType()).getQuantity();
        return evalInt(LaneValue::apply(LaneValue::Op::Div,
                                        L.Ptr->Offset - R.Ptr->Offset,
                                        constant(Size ? Size : 1)));
      }
      return evalInt(unknown("pointer arithmetic"));
    }
    // The result carries the data of both operands (a * x + b).
    Value Out = evalInt(arith(BO, K, L.Int, R.Int, LHS->getType()));
    Out.From = std::move(L.From);
    addOrigins(Out.From, R.From);
    return Out;
  }

  //===--------------------------------------------------------------------===//
  // Calls
  //===--------------------------------------------------------------------===//

  /// The cooperative-groups class \p T names (through references), if any.
  /// The toolkit nests its classes in versioned inline namespaces.
  static const CXXRecordDecl *groupClass(QualType T) {
    const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    if (!RD || !RD->getDeclName().isIdentifier() ||
        RD->getQualifiedNameAsString().find("cooperative_groups::") ==
            std::string::npos)
      return nullptr;
    return RD;
  }

  /// The group expression \p E makes or names: 0 for the whole block, else
  /// a tile's thread count; none when not known. Conversions between group
  /// types (a tile passed as `thread_group`) keep the group.
  std::optional<unsigned> groupOf(const Expr *E) {
    for (;;) {
      E = E->IgnoreParens();
      if (const auto *C = dyn_cast<CastExpr>(E))
        E = C->getSubExpr();
      else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
               C && C->getNumArgs() == 1)
        E = C->getArg(0);
      else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        E = M->getSubExpr();
      else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
        E = B->getSubExpr();
      else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
        E = W->getSubExpr();
      else
        break;
    }
    // The static type says it for the block and for a static-size tile.
    if (const CXXRecordDecl *RD = groupClass(E->getType())) {
      StringRef R = RD->getName();
      if (R == "thread_block")
        return 0u;
      if (R == "thread_block_tile") {
        if (unsigned Size = tileSizeOf(RD))
          return Size;
        return std::nullopt;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        auto It = GroupHeld.find(V);
        if (It != GroupHeld.end())
          return It->second;
      }
      return std::nullopt;
    }
    // tiled_partition(parent, n): tiles of n consecutive threads of the
    // parent, n a power of two up to 32, so a tile's rank is the block rank
    // mod n whether the parent is the block or a larger tile.
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && Call->getNumArgs() == 2 &&
        calleeName(Call) == "tiled_partition") {
      std::optional<unsigned> Parent = groupOf(Call->getArg(0));
      std::optional<int64_t> Size = uniformConstant(Call->getArg(1));
      if (Parent && Size && *Size >= 1 && *Size <= 32 &&
          (*Size & (*Size - 1)) == 0 && (*Parent == 0 || *Size <= *Parent))
        return unsigned(*Size);
    }
    return std::nullopt;
  }

  /// Records the group variable \p V holds from now on.
  void holdGroup(const VarDecl *V, std::optional<unsigned> Group) {
    if (Group)
      GroupHeld[V] = *Group;
    else
      GroupHeld.erase(V);
  }

  /// The object a method call is made on (`g` in `g.sync()`), also when
  /// the method is a static member reached through it.
  static const Expr *calledObject(const CallExpr *Call) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      return MC->getImplicitObjectArgument();
    if (const auto *ME =
            dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      return ME->getBase();
    return nullptr;
  }

  std::optional<LaneValue> cooperativeGroupsValue(const CallExpr *Call) {
    // The group is the type of the object the method is called on: with the
    // toolkit's headers thread_rank() is often a static member reached
    // through `cta.thread_rank()` (a plain call with a member callee), and
    // tile methods live in base classes whose names say nothing.
    const Expr *Obj = calledObject(Call);
    if (!Obj)
      return std::nullopt;
    QualType ObjType = Obj->getType();
    if (ObjType->isPointerType())
      ObjType = ObjType->getPointeeType();
    const CXXRecordDecl *RD = groupClass(ObjType);
    if (!RD)
      return std::nullopt;
    std::string R = RD->getName().str();
    std::string M = calleeName(Call);
    if (R == "thread_group") {
      // Type-erased: the group it holds decides.
      if (M != "thread_rank" && M != "size" && M != "num_threads")
        return std::nullopt;
      std::optional<unsigned> Held = groupOf(Obj);
      if (!Held)
        return unknown("the group a 'thread_group' holds is not known");
      if (*Held == 0)
        R = "thread_block";
      else
        return tileValue(M, *Held);
    }
    if (R == "thread_block") {
      if (M == "thread_rank")
        return G.linearId();
      if (M == "size" || M == "num_threads")
        return constant(G.threads());
    }
    if (R == "thread_block_tile") {
      unsigned Size = tileSizeOf(RD);
      if (Size == 0)
        return std::nullopt;
      return tileValue(M, Size);
    }
    return std::nullopt;
  }

  /// The tile a group's sync() (`g.sync()`, `cg::sync(g)`) waits for: a
  /// thread_block_tile's, or the one a `thread_group` is known to hold.
  std::optional<unsigned> syncedTile(const CallExpr *Call) {
    if (calleeName(Call) != "sync")
      return std::nullopt;
    const Expr *Obj = calledObject(Call);
    if (!Obj && Call->getNumArgs() == 1)
      Obj = Call->getArg(0);
    const CXXRecordDecl *RD = Obj ? groupClass(Obj->getType()) : nullptr;
    if (!RD || (RD->getName() != "thread_group" &&
                RD->getName() != "thread_block_tile"))
      return std::nullopt;
    std::optional<unsigned> Held = groupOf(Obj);
    if (Held && *Held > 0)
      return Held;
    return std::nullopt;
  }

  /// Method \p M of a tile of \p Size consecutive threads.
  std::optional<LaneValue> tileValue(StringRef M, unsigned Size) {
    if (M == "thread_rank")
      return LaneValue::apply(LaneValue::Op::Rem, G.linearId(), constant(Size));
    if (M == "meta_group_rank")
      return LaneValue::apply(LaneValue::Op::Div, G.linearId(), constant(Size));
    if (M == "size" || M == "num_threads")
      return constant(Size);
    return std::nullopt;
  }

  Value evalCall(const CallExpr *Call) {
    std::string Name = calleeName(Call);
    if (auto S = nvvmSreg(Name))
      return evalInt(*S);
    // threadIdx.x is a property whose getter is
    // __cuda_builtin_threadIdx_t::__fetch_builtin_x().
    if (StringRef(Name).starts_with("__fetch_builtin_"))
      if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
        if (const CXXRecordDecl *RD = MD->getParent()) {
          StringRef Rec = RD->getName();
          if (Rec.consume_front("__cuda_builtin_") && Rec.consume_back("_t"))
            if (auto V = builtinVar(Rec, StringRef(Name).drop_front(16), nullptr))
              return evalInt(*V);
        }
    if (auto V = cooperativeGroupsValue(Call))
      return evalInt(*V);

    if (auto BC = cuda::barrierOf(Call)) {
      std::optional<BarrierKind> BK =
          BC->WarpLevel ? BarrierKind::Warp : BarrierKind::Block;
      for (const Expr *A : Call->arguments())
        eval(A);
      std::optional<uint32_t> Mask;
      if (BC->MaskArg) {
        if (Call->getNumArgs() <= *BC->MaskArg)
          Mask = 0xffffffffu;
        else if (auto C = constantOf(Call->getArg(*BC->MaskArg)))
          Mask = uint32_t(*C);
      } else if (*BK == BarrierKind::Warp) {
        Mask = 0xffffffffu;
      }
      // A tile's sync() waits for the tile; a thread_group's, when it holds
      // one, too.
      std::optional<unsigned> Tile = syncedTile(Call);
      if (Tile) {
        BK = BarrierKind::Warp;
        Mask = 0xffffffffu;
      }
      recordBarrier(Call, *BK, Mask, Tile.value_or(0));
      // __syncthreads_count/_and/_or return the same value in every thread.
      return evalInt(opaqueUniformText(Call, 0, Call));
    }

    if (Name == "min" || Name == "max" || Name == "umin" || Name == "umax" ||
        Name == "__nv_min" || Name == "__nv_max") {
      if (Call->getNumArgs() == 2) {
        LaneValue A = eval(Call->getArg(0)).Int, B = eval(Call->getArg(1)).Int;
        LaneValue R = LaneValue::apply(
            Name.find("min") != std::string::npos ? LaneValue::Op::Min
                                                  : LaneValue::Op::Max,
            A, B);
        return evalInt(nameIfUniform(Call, std::move(R), A, B));
      }
    }

    if (StringRef(Name).starts_with("atomic") && Call->getNumArgs() >= 1) {
      Value P = eval(Call->getArg(0));
      for (unsigned I = 1; I < Call->getNumArgs(); ++I)
        eval(Call->getArg(I));
      if (P.IsPointer && P.Ptr->isShared())
        recordAccess(Call, *P.Ptr, AccessKind::Atomic,
                     Call->getArg(0)->getType()->getPointeeType());
      return evalInt(unknown("result of an atomic"));
    }

    if (auto C = cuda::collectiveOf(Name); C && C->Sync && Call->getNumArgs() > 0)
      recordCollective(Call);
    if (Name == "__activemask" && Call->getNumArgs() == 0)
      return evalInt(ActiveApprox ? unknown("the active lanes")
                                  : LaneValue::perThread(warpBits(Active)));
    if (Name == "__ballot_sync" && Call->getNumArgs() == 2) {
      LaneValue Mask = eval(Call->getArg(0)).Int;
      Value P = eval(Call->getArg(1));
      // With the active lanes and the predicate known in every lane, the
      // ballot is known: a mask computed this way (`m = __ballot_sync(~0u,
      // lane < 16)`) can then be checked against the lanes it is used in.
      if (!ActiveApprox && !P.IsPointer && P.Int.isConcrete()) {
        std::vector<char> Set(N, 0);
        for (unsigned I = 0; I < N; ++I)
          Set[I] = Active[I] && P.Int.constants()[I] != 0;
        std::vector<int64_t> Bits = warpBits(Set);
        if (auto M = Mask.asConstant())
          for (int64_t &B : Bits)
            B &= uint32_t(*M);
        return evalInt(LaneValue::perThread(std::move(Bits)));
      }
      Value Out = evalInt(unknown("result of a call to '__ballot_sync'"));
      if (!P.IsPointer)
        Out.From = P.From;
      return Out;
    }

    if (Name == "__shfl_sync" && Call->getNumArgs() >= 3) {
      eval(Call->getArg(0));
      Value V = eval(Call->getArg(1));
      Value Src = eval(Call->getArg(2));
      auto Lane = Src.Int.asConstant();
      // From a constant source lane every lane of a warp gets one value.
      if (Lane && V.Int.isConcrete()) {
        std::vector<int64_t> Out(N);
        for (unsigned I = 0; I < N; ++I) {
          unsigned From = (I / G.warpSize()) * G.warpSize() +
                          unsigned(*Lane) % G.warpSize();
          Out[I] = From < N ? V.Int.constants()[From] : 0;
        }
        return evalInt(LaneValue::perThread(std::move(Out)));
      }
      if (V.Int.isUniform())
        return V;
      Value Out = evalInt(unknown("value shuffled between lanes"));
      Out.From = V.From;
      return Out;
    }

    // Cache-hinted loads and stores (__ldg(&in[i]), __stcs(&out[i], v)).
    if ((Name == "__ldg" || Name == "__ldca" || Name == "__ldcg" ||
         Name == "__ldcs" || Name == "__ldlu" || Name == "__ldcv") &&
        Call->getNumArgs() == 1) {
      Value P = eval(Call->getArg(0));
      QualType Ty = Call->getType();
      if (Ty->isPointerType())
        return Value::pointer(PointerValue());
      Value Out = evalInt(unknown("value loaded from memory"));
      if (P.IsPointer && P.Ptr->isGlobal())
        Out.From = originOf(recordGlobal(Call, *P.Ptr, AccessKind::Load, Ty),
                            true);
      return Out;
    }
    if ((Name == "__stwb" || Name == "__stcg" || Name == "__stcs" ||
         Name == "__stwt") &&
        Call->getNumArgs() == 2) {
      Value P = eval(Call->getArg(0));
      Value V = eval(Call->getArg(1));
      if (P.IsPointer && P.Ptr->isGlobal())
        recordGlobal(Call, *P.Ptr, AccessKind::Store,
                     Call->getArg(1)->getType(), V.From);
      return evalInt(unknown("void"));
    }

    // Calls are followed by one rule (followedCallee()): `operator()` of a
    // lambda or functor too; not a kernel launched from device code, which
    // runs as another grid with its own shared memory. The arguments of a
    // call not followed are read here, as for an unknown callee.
    const FunctionDecl *FD = Call->getDirectCallee();
    if (const FunctionDecl *Def = followedCallee(Call, Ctx))
      return inlineCall(Call, Def);

    // Unknown callee: evaluate the arguments for their accesses; a pointer
    // into shared memory handed to it is left alone (no claim).
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      eval(MC->getImplicitObjectArgument());
      // It may change the object it runs on.
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (!MD || !MD->isConst())
        forgetObject(MC->getImplicitObjectArgument());
    }
    bool AllUniform = true;
    Origins From; // A function of loaded data (fmaxf(x, 0.f)) carries it.
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *A = Call->getArg(I);
      // An object it may change: passed by non-const reference, or by
      // address.
      if (mayWriteArgument(FD, I))
        forgetObject(A);
      if (const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
          UO && UO->getOpcode() == UO_AddrOf)
        forgetObject(UO->getSubExpr());
      Value V = eval(A);
      if (V.IsPointer || !V.Int.isUniform())
        AllUniform = false;
      if (!V.IsPointer)
        addOrigins(From, V.From);
    }
    // A pure math function of uniform arguments is uniform; we can't know
    // purity, so only name well-known ones.
    if (AllUniform && (Name == "__popc" || Name == "__clz" || Name == "__ffs" ||
                       Name == "abs" || Name == "__brev"))
      return evalInt(opaqueUniformText(Call, 0, Call));
    Value Out = evalInt(unknown("result of a call to '" +
                                (Name.empty() ? std::string("function") : Name) +
                                "'"));
    Out.From = std::move(From);
    return Out;
  }

  Value inlineCall(const CallExpr *Call, const FunctionDecl *Def) {
    // Arguments are evaluated in the caller.
    unsigned Offset = objectArguments(Call);
    // A lambda's body reads its captures, not the closure object: `this`
    // in it is the enclosing method's.
    const CXXRecordDecl *Lambda = lambdaClassOf(Def);
    std::vector<ObjectRef> ArgObjects;
    std::vector<Value> Args = callArguments(
        llvm::ArrayRef(Call->getArgs() + Offset, Call->getNumArgs() - Offset),
        Def, ArgObjects);
    // The object a member function runs on: where it is, and what its
    // kept fields hold.
    bool Method = false;
    ThisFrame This;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const Expr *Obj = MC->getImplicitObjectArgument();
      const auto *ME =
          dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParenImpCasts());
      if (ME && ME->isArrow()) {
        Value P = eval(Obj);
        if (P.IsPointer)
          This.Ptr = std::move(*P.Ptr);
      } else {
        This.Ptr = evalAddress(Obj);
      }
      Method = true;
      This.Obj = knownObject(Obj);
    } else if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
               MD && MD->isInstance() && Offset == 1 && !Lambda) {
      Method = true;
      This.Ptr = evalAddress(Call->getArg(0));
      This.Obj = knownObject(Call->getArg(0));
    }
    // The groups group parameters receive, found in the caller.
    std::vector<std::pair<const ParmVarDecl *, std::optional<unsigned>>> Groups;
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
      if (I - Offset < Def->getNumParams())
        if (const ParmVarDecl *P = Def->getParamDecl(I - Offset);
            groupClass(P->getType()))
          Groups.push_back({P, groupOf(Call->getArg(I))});
    if (!mayEnter(Def))
      return evalInt(unknown("call too deep to follow"));

    if (Lambda && Offset == 1)
      eval(Call->getArg(0)); // The closure object, for its effects.
    Env Saved = enterCallee(Def, std::move(Args), ArgObjects);
    std::vector<std::pair<const VarDecl *, Env *>> ByRef;
    if (Lambda)
      ByRef = bindCaptures(Lambda, Saved);
    CallerEnvs.push_back(&Saved);
    for (const auto &[P, Group] : Groups)
      holdGroup(P, Group);
    Inlining.push_back(Def);
    CallStack.push_back(Call);
    if (Method)
      ThisStack.push_back(std::move(This));
    Frames.push_back(FrameState{std::vector<char>(N, 0), std::nullopt, true});
    std::vector<char> EntryActive = Active;
    bool EntryApprox = ActiveApprox;
    walkStmt(Def->getBody());
    FrameState F = std::move(Frames.back());
    Frames.pop_back();
    if (Method)
      ThisStack.pop_back();
    CallStack.pop_back();
    Inlining.pop_back();
    CallerEnvs.pop_back();
    if (Lambda)
      unbindCaptures(Lambda, ByRef);
    // Threads that returned rejoin the caller: every thread that called,
    // as exactly as before the call (a return under a data-dependent `if`
    // inside does not make the caller's mask approximate).
    Active = EntryActive;
    ActiveApprox = EntryApprox;
    Vars = std::move(Saved);
    if (F.RetVal && F.RetConsistent)
      return *F.RetVal;
    if (Def->getReturnType()->isPointerType())
      return Value::pointer(PointerValue());
    return evalInt(unknown("result of '" + Def->getNameAsString() + "'"));
  }

  /// A lambda made here: what its by-copy captures hold from now on (its
  /// call operator reads them, bindCaptures()). By-reference captures are
  /// read where the variable lives when the lambda is called.
  Value evalLambda(const LambdaExpr *LE) {
    Env &Copies = ClosureCopies[LE->getLambdaClass()];
    Copies.clear();
    auto Init = LE->capture_init_begin();
    for (const LambdaCapture &C : LE->captures()) {
      const Expr *E = Init == LE->capture_init_end() ? nullptr : *Init++;
      if (!E)
        continue;
      const auto *V = C.capturesVariable()
                          ? dyn_cast<VarDecl>(C.getCapturedVar())
                          : nullptr;
      if (!V || C.getCaptureKind() != LCK_ByCopy ||
          V->getType()->isReferenceType()) {
        eval(E); // `this`, or a reference: nothing to keep.
        continue;
      }
      Value X = eval(E);
      if (!X.IsPointer)
        X.Int = toType(std::move(X.Int), V->getType());
      Copies[V] = std::move(X);
    }
    return evalInt(unknown("a lambda"));
  }

  /// Binds the captures of \p Lambda in the callee's variables: by copy,
  /// what the walk saw the lambda made with; by reference, the variable
  /// where it lives (the caller, or a caller further out when the lambda
  /// was passed down). Returns the by-reference ones, for unbindCaptures().
  std::vector<std::pair<const VarDecl *, Env *>>
  bindCaptures(const CXXRecordDecl *Lambda, Env &Caller) {
    std::vector<std::pair<const VarDecl *, Env *>> ByRef;
    auto Copies = ClosureCopies.find(Lambda);
    for (const LambdaCapture &C : Lambda->captures()) {
      const auto *V = C.capturesVariable()
                          ? dyn_cast<VarDecl>(C.getCapturedVar())
                          : nullptr;
      if (!V)
        continue;
      if (C.getCaptureKind() == LCK_ByCopy) {
        if (Copies != ClosureCopies.end())
          if (auto It = Copies->second.find(V); It != Copies->second.end())
            Vars[V] = It->second;
        continue; // Else unknown: the walk did not see the lambda made.
      }
      Env *Home = Caller.count(V) ? &Caller : nullptr;
      for (auto It = CallerEnvs.rbegin(); !Home && It != CallerEnvs.rend();
           ++It)
        if ((*It)->count(V))
          Home = *It;
      if (!Home)
        continue;
      Vars[V] = (*Home)[V];
      ByRef.push_back({V, Home});
    }
    return ByRef;
  }

  /// After a lambda's body: what it left in the variables it captures by
  /// reference goes back where they live; a mutable lambda's copies keep
  /// theirs for its next call.
  void unbindCaptures(const CXXRecordDecl *Lambda,
                      const std::vector<std::pair<const VarDecl *, Env *>> &ByRef) {
    for (const auto &[V, Home] : ByRef)
      if (auto It = Vars.find(V); It != Vars.end())
        (*Home)[V] = It->second;
    auto Copies = ClosureCopies.find(Lambda);
    if (Copies != ClosureCopies.end())
      for (auto &[V, Kept] : Copies->second)
        if (auto It = Vars.find(V); It != Vars.end())
          Kept = It->second;
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  static bool sameValue(const Value &A, const Value &B) {
    if (A.IsPointer != B.IsPointer)
      return false;
    if (A.IsPointer)
      return A.Ptr->Base == B.Ptr->Base && A.Ptr->GlobalBase == B.Ptr->GlobalBase &&
             A.Ptr->Offset == B.Ptr->Offset;
    return A.Int == B.Int;
  }

  /// The value of a variable after a branch: per thread, the side it took
  /// (exact when the condition is known per thread), else a fresh uniform
  /// unknown when both sides are uniform, else unknown.
  Value joinValues(const Value &A, const Value &B, const LaneValue *Cond,
                   const VarDecl *V, const Stmt *At) {
    Value R = joinValuesOnly(A, B, Cond, V, At);
    if (!R.IsPointer) {
      R.From = A.From;
      addOrigins(R.From, B.From);
    }
    return R;
  }

  Value joinValuesOnly(const Value &A, const Value &B, const LaneValue *Cond,
                       const VarDecl *V, const Stmt *At) {
    if (sameValue(A, B))
      return A;
    if (A.IsPointer || B.IsPointer) {
      if (A.IsPointer && B.IsPointer && samePointerBase(*A.Ptr, *B.Ptr) &&
          Cond && Cond->isConcrete()) {
        Value R = A;
        R.Ptr->Offset = LaneValue::select(*Cond, A.Ptr->Offset, B.Ptr->Offset);
        return R;
      }
      return Value::pointer(PointerValue());
    }
    if (Cond && Cond->isConcrete())
      return evalInt(LaneValue::select(*Cond, A.Int, B.Int));
    if (A.Int.isUniform() && B.Int.isUniform() && (!Cond || Cond->isUniform()))
      return evalInt(opaqueUniform(SymbolKey{At ? (const void *)At
                                                : (const void *)V,
                                             V, JoinSub},
                                   V ? V->getName().str() : "value"));
    return evalInt(unknown("'" + (V ? V->getName().str() : std::string("value")) +
                           "' differs between threads after a branch"));
  }

  void joinEnvs(const Env &Then, const Env &Else, const LaneValue &Cond,
                const Stmt *At) {
    Env Out;
    for (const auto &KV : Then) {
      auto It = Else.find(KV.first);
      if (It == Else.end())
        continue; // Declared inside one branch: out of scope.
      Out[KV.first] = joinValues(KV.second, It->second, &Cond, KV.first, At);
    }
    Vars = std::move(Out);
  }

  void walkStmt(const Stmt *S) {
    if (!S)
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        walkStmt(C);
      // The block's locals go out of scope: drop them, so that the
      // environment saved and joined at every branch and loop holds only
      // what is live, not every local the kernel declared so far.
      for (const Stmt *C : CS->body())
        if (const auto *DS = dyn_cast<DeclStmt>(C))
          for (const Decl *D : DS->decls())
            if (const auto *V = dyn_cast<VarDecl>(D))
              Vars.erase(V);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          walkVarDecl(V);
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S))
      return walkIf(If);
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      return walkLoop(S);
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      return walkReturn(R);
    if (isa<ContinueStmt>(S) || isa<BreakStmt>(S)) {
      if (!LoopStates.empty()) {
        auto &Mask = isa<ContinueStmt>(S) ? LoopStates.back().Continued
                                          : LoopStates.back().Broken;
        if (Mask.empty())
          Mask.assign(N, 0);
        for (unsigned I = 0; I < N; ++I)
          if (Active[I])
            Mask[I] = 1;
      }
      std::fill(Active.begin(), Active.end(), 0);
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      return walkSwitch(Sw);
    if (const auto *E = dyn_cast<Expr>(S)) {
      evalDiscarded(E);
      return;
    }
    if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
      if (cuda::asmBarrierOf(A)) {
        // Recorded against the asm statement; the barrier check reads it
        // from its own CFG walk too.
        if (Recording) {
          BarrierEvent B;
          B.Loc = A->getAsmLoc();
          B.Kind = BarrierKind::Block;
          stamp(B);
          B.Seq = Seq++;
          T.Barriers.push_back(std::move(B));
        }
      }
      return;
    }
    if (const auto *L = dyn_cast<LabelStmt>(S))
      return walkStmt(L->getSubStmt());
    if (const auto *AS = dyn_cast<AttributedStmt>(S))
      return walkStmt(AS->getSubStmt());
    if (isa<GotoStmt>(S)) {
      // Unstructured: threads jumping are no longer tracked here.
      ActiveApprox = true;
      return;
    }
    for (const Stmt *C : S->children())
      walkStmt(C);
  }

  void walkVarDecl(const VarDecl *V) {
    if (isSharedVar(V) || V->isStaticLocal())
      return;
    if (groupClass(V->getType()))
      holdGroup(V, V->getInit() ? groupOf(V->getInit()) : std::nullopt);
    if (V->getType()->isRecordType() || V->getType()->isArrayType()) {
      if (const Expr *Init = V->getInit()) {
        Value I = eval(Init);
        if (V->getType()->isRecordType())
          RecordFrom[V] = I.From;
      }
      if (V->getType()->isRecordType()) {
        // `Tile t(s);` (or a copy of a known object): its kept fields.
        ObjectRef Obj = V->getInit() ? knownObject(V->getInit()) : nullptr;
        if (Obj)
          Objects[V] = std::move(Obj);
        else
          Objects.erase(V);
      }
      return;
    }
    if (const Expr *Init = V->getInit()) {
      if (V->getType()->isReferenceType()) {
        Vars[V] = Value::pointer(evalAddress(Init));
        if (isRecordOrRef(V->getType())) {
          if (ObjectRef Obj = knownObject(Init))
            Objects[V] = std::move(Obj);
          else
            Objects.erase(V);
        }
        return;
      }
      Value Val = eval(Init);
      if (!Val.IsPointer)
        Val.Int = toType(std::move(Val.Int), V->getType());
      Vars[V] = Val;
    } else {
      Vars[V] = evalInt(unknown("'" + V->getName().str() + "' is uninitialised"));
    }
  }

  void walkReturn(const ReturnStmt *R) {
    if (const Expr *E = R->getRetValue()) {
      // A function returning a reference returns where its operand is.
      Value V = !Inlining.empty() &&
                        Inlining.back()->getReturnType()->isReferenceType()
                    ? Value::pointer(evalAddress(E))
                    : eval(E);
      if (!Frames.empty()) {
        FrameState &F = Frames.back();
        if (!F.RetVal)
          F.RetVal = V;
        else if (!sameValue(*F.RetVal, V))
          F.RetConsistent = false;
      }
    }
    if (!Frames.empty()) {
      for (unsigned I = 0; I < N; ++I)
        if (Active[I])
          Frames.back().Returned[I] = 1;
      if (ActiveApprox)
        Frames.back().ReturnedApprox = true;
    }
    // A return from the kernel's body ends the thread. Probe walks
    // (Recording off) leave no trace.
    if (Frames.empty() && Recording && !Uncertain && !ActiveApprox)
      for (unsigned I = 0; I < N; ++I)
        if (Active[I])
          Exited[I] = 1, AnyExited = true;
    std::fill(Active.begin(), Active.end(), 0);
  }

  /// After a loop: the threads that returned inside the function are gone.
  /// When a return ran with an approximate mask, threads that did not
  /// return may go too: the mask is then no longer exact (it was a
  /// superset inside; it may be a subset now).
  void dropReturned() {
    if (Frames.empty())
      return;
    const FrameState &F = Frames.back();
    for (unsigned I = 0; I < N; ++I)
      if (F.Returned[I] && Active[I]) {
        Active[I] = 0;
        ActiveApprox = ActiveApprox || F.ReturnedApprox;
      }
  }

  /// The parts of condition \p C that must have the given truth for \p C
  /// to be \p Sense: both sides of `&&` for true, of `||` for false,
  /// through `!`.
  static void conditionParts(const Expr *C, bool Sense,
                             std::vector<std::pair<const Expr *, bool>> &Out) {
    C = C->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      if ((BO->getOpcode() == BO_LAnd && Sense) ||
          (BO->getOpcode() == BO_LOr && !Sense)) {
        conditionParts(BO->getLHS(), Sense, Out);
        conditionParts(BO->getRHS(), Sense, Out);
        return;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(C);
        UO && UO->getOpcode() == UO_LNot) {
      conditionParts(UO->getSubExpr(), !Sense, Out);
      return;
    }
    Out.push_back({C, Sense});
  }

  /// Those of \p Cond's parts for \p Sense that are known per thread,
  /// evaluated again without recording. A condition that does not split
  /// into several parts is its one part, already known not to be.
  void knownParts(const Expr *Cond, bool Sense,
                  std::vector<std::pair<LaneValue, bool>> &Out) {
    std::vector<std::pair<const Expr *, bool>> Parts;
    conditionParts(Cond, Sense, Parts);
    if (Parts.size() < 2)
      return;
    for (const auto &[Part, PartSense] : Parts) {
      LaneValue V = quietInt(Part);
      if (V.isConcrete())
        Out.push_back({std::move(V), PartSense});
    }
  }

  void walkIf(const IfStmt *If) {
    if (const Stmt *Init = If->getInit())
      walkStmt(Init);
    if (const VarDecl *CV = If->getConditionVariable())
      walkVarDecl(CV);
    LaneValue Cond = eval(If->getCond()).Int;
    noteBranch(If, Cond);
    std::vector<char> Entry = Active;
    bool EntryApprox = ActiveApprox;

    // Only the variables a branch may assign can differ after it: save,
    // restore and join those, not the whole environment (which made every
    // branch cost O(live variables x threads)).
    auto [TIt, TNew] = BranchMods.try_emplace(If);
    if (TNew) {
      ModifiedVars Mod;
      Mod.TraverseStmt(const_cast<Stmt *>(If->getThen()));
      if (If->getElse())
        Mod.TraverseStmt(const_cast<Stmt *>(If->getElse()));
      TIt->second.assign(Mod.Vars.begin(), Mod.Vars.end());
    }
    const std::vector<const VarDecl *> &Touched = TIt->second;
    std::vector<std::optional<Value>> EntryVals, ThenVals;
    auto Snapshot = [&](std::vector<std::optional<Value>> &Out) {
      Out.clear();
      for (const VarDecl *V : Touched) {
        auto It = Vars.find(V);
        Out.push_back(It == Vars.end() ? std::nullopt
                                       : std::optional<Value>(It->second));
      }
    };
    Snapshot(EntryVals);

    // A condition not known per thread may still have parts that are
    // (`tid > i && ranks[tid] == ranks[i]`): the threads those rule out
    // cannot take the branch.
    std::vector<std::pair<LaneValue, bool>> Needs[2];
    if (!Cond.isConcrete() && !Cond.isUniform() && !hasEffects(If->getCond()))
      for (bool Sense : {false, true})
        knownParts(If->getCond(), Sense, Needs[Sense]);
    auto Narrow = [&](bool Sense) {
      Active = Entry;
      ActiveApprox = EntryApprox;
      if (Cond.isConcrete()) {
        narrowActive(Cond, Sense);
      } else if (!Cond.isUniform()) {
        // Thread-dependent but not computable: some subset runs the branch.
        for (const auto &[Part, PartSense] : Needs[Sense])
          narrowActive(Part, PartSense);
        ActiveApprox = true;
      }
    };

    Narrow(true);
    // Whether a side lets every thread it started with through to the
    // join (no return, break or continue taken): see below. Only asked
    // when the condition is not known per thread.
    bool Inexact = !Cond.isConcrete();
    std::vector<char> SideStart;
    if (Inexact)
      SideStart = Active;
    Uncertain += Inexact;
    walkStmt(If->getThen());
    Uncertain -= Inexact;
    bool ThenKeepsAll = Inexact && Active == SideStart;
    std::vector<char> ThenActive = Active;
    bool ThenApprox = ActiveApprox;
    Snapshot(ThenVals);
    for (unsigned I = 0; I < Touched.size(); ++I) {
      if (EntryVals[I])
        Vars[Touched[I]] = std::move(*EntryVals[I]);
      else
        Vars.erase(Touched[I]);
    }

    Narrow(false);
    if (Inexact)
      SideStart = Active;
    Uncertain += Inexact;
    if (If->getElse())
      walkStmt(If->getElse());
    Uncertain -= Inexact;
    bool ElseKeepsAll = Inexact && Active == SideStart;
    std::vector<char> ElseActive = Active;
    bool ElseApprox = ActiveApprox;

    // Threads that reach the join: those still active on either side.
    // Masks hold 0 or 1: `|` is `||` without a branch per thread.
    for (unsigned I = 0; I < N; ++I)
      Active[I] = char(ThenActive[I] | ElseActive[I]);
    // A condition not known per thread splits the threads in a way the walk
    // does not know; but when neither side stopped a thread, every thread
    // that entered reaches the join, and the mask after it is as exact as
    // the one before (a barrier after `if (data) x = y;` is reached by all).
    if (ThenKeepsAll && ElseKeepsAll)
      ActiveApprox = EntryApprox;
    else
      ActiveApprox = ThenApprox || ElseApprox;
    // As joinEnvs: a variable known on one side only is out of scope.
    for (unsigned I = 0; I < Touched.size(); ++I) {
      const VarDecl *V = Touched[I];
      auto It = Vars.find(V);
      if (!ThenVals[I] || It == Vars.end()) {
        Vars.erase(V);
        continue;
      }
      It->second = joinValues(*ThenVals[I], It->second, &Cond, V, If);
    }
  }

  void walkSwitch(const SwitchStmt *Sw) {
    if (const Stmt *Init = Sw->getInit())
      walkStmt(Init);
    LaneValue Cond = eval(Sw->getCond()).Int;
    noteBranch(Sw, Cond);
    bool Saved = ActiveApprox;
    if (!Cond.isUniform())
      ActiveApprox = true;
    // Case bodies are walked in order as straight-line code with every
    // thread possibly active: values assigned inside become unknown unless
    // uniform.
    Env Entry = Vars;
    std::vector<char> EntryActive = Active;
    LoopStates.push_back(LoopState());
    ++Uncertain; // Every case runs with every thread possibly active.
    ++InexactBranches;
    walkStmt(Sw->getBody());
    --InexactBranches;
    --Uncertain;
    LoopStates.pop_back();
    Env After = Vars;
    LaneValue Unk = unknown("switch");
    joinEnvs(Entry, After, Unk, Sw);
    Active = EntryActive;
    dropExited();
    ActiveApprox = Saved || !Cond.isUniform();
  }

  /// `V += S`, `V++`, `V = V + S`, ...: the loop-invariant step, if the
  /// statement is an additive update of V.
  std::optional<LaneValue> additiveStep(const Expr *E, const VarDecl *V,
                                        const std::set<const VarDecl *> &Mod) {
    E = E->IgnoreParenImpCasts();
    auto IsV = [&](const Expr *X) {
      return ModifiedVars::varOf(X) == V;
    };
    auto Invariant = [&](const Expr *X) -> std::optional<LaneValue> {
      // Any modified variable in the step makes it vary between iterations.
      ReferencedVars Refs;
      Refs.TraverseStmt(const_cast<Expr *>(X));
      for (const VarDecl *D : Refs.Vars)
        if (Mod.count(D))
          return std::nullopt;
      bool SavedRec = Recording;
      Recording = false;
      LaneValue S = eval(X).Int;
      Recording = SavedRec;
      if (!S.isAffine())
        return std::nullopt;
      return S;
    };
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->isIncrementDecrementOp() && IsV(U->getSubExpr()))
        return constant(U->isIncrementOp() ? 1 : -1);
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (!IsV(B->getLHS()))
        return std::nullopt;
      if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) {
        auto S = Invariant(B->getRHS());
        if (S && B->getOpcode() == BO_SubAssign)
          S = -*S;
        return S;
      }
      if (B->getOpcode() == BO_Assign) {
        const auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
        if (R && (R->getOpcode() == BO_Add || R->getOpcode() == BO_Sub)) {
          if (IsV(R->getLHS())) {
            auto S = Invariant(R->getRHS());
            if (S && R->getOpcode() == BO_Sub)
              S = -*S;
            return S;
          }
          if (R->getOpcode() == BO_Add && IsV(R->getRHS()))
            return Invariant(R->getLHS());
        }
      }
    }
    return std::nullopt;
  }

  /// The values a uniform loop variable takes, when its start, update and
  /// bound are constants (`for (s = 128; s > 0; s >>= 1)`).
  std::optional<std::vector<int64_t>>
  simulateLoop(const VarDecl *V, const Expr *Cond, const Expr *Inc) {
    auto It = Vars.find(V);
    if (!Cond || !Inc || It == Vars.end() || It->second.IsPointer)
      return std::nullopt;
    auto Start = It->second.Int.asConstant();
    if (!Start)
      return std::nullopt;
    if (!simulationDependsOnWalk(V, Cond, Inc)) {
      auto Key = std::make_tuple(V, Cond, Inc, *Start);
      auto Found = Simulated.find(Key);
      if (Found == Simulated.end())
        Found =
            Simulated.emplace(Key, simulateFrom(V, Cond, Inc, *Start)).first;
      return Found->second;
    }
    return simulateFrom(V, Cond, Inc, *Start);
  }

  /// Whether the loop's condition or increment reads a variable of the
  /// walk other than the counter \p V, or makes a call (whose walk depends
  /// on the inlining depth). If not, the simulation depends on the
  /// counter's start only: everything else it reads (parameters, globals,
  /// constants, shared memory as an opaque unknown) is fixed for the walk.
  bool simulationDependsOnWalk(const VarDecl *V, const Expr *Cond,
                               const Expr *Inc) {
    auto [It, New] = LoopExprRefs.try_emplace({Cond, Inc});
    if (New) {
      It->second.TraverseStmt(const_cast<Expr *>(Cond));
      It->second.TraverseStmt(const_cast<Expr *>(Inc));
    }
    const ReferencedVars &F = It->second;
    if (F.HasCall)
      return true;
    for (const VarDecl *R : F.Vars)
      if (R != V && Vars.count(R))
        return true;
    return false;
  }

  std::optional<std::vector<int64_t>> simulateFrom(const VarDecl *V,
                                                   const Expr *Cond,
                                                   const Expr *Inc,
                                                   int64_t Start) {
    std::vector<int64_t> Seen;
    bool SavedRec = Recording;
    Recording = false;
    Env SavedVars = Vars;
    std::vector<char> SavedActive = Active;
    bool SavedApprox = ActiveApprox;
    // The counter is the same in every thread: simulate it in all of them,
    // or an update under `if (tid < 32)` would keep the old value in the
    // others and the counter would stop being a constant.
    std::fill(Active.begin(), Active.end(), 1);
    ActiveApprox = false;
    int64_t Cur = Start;
    bool Ok = false;
    for (unsigned Step = 0; Step < 4096; ++Step) {
      Vars[V] = evalInt(constant(Cur));
      auto C = eval(Cond).Int.asConstant();
      if (!C)
        break;
      if (!*C) {
        Ok = true;
        break;
      }
      Seen.push_back(Cur);
      evalDiscarded(Inc);
      auto Next = Vars[V].IsPointer ? std::nullopt : Vars[V].Int.asConstant();
      if (!Next)
        break;
      Cur = *Next;
    }
    Vars = std::move(SavedVars);
    Active = std::move(SavedActive);
    ActiveApprox = SavedApprox;
    Recording = SavedRec;
    if (!Ok)
      return std::nullopt;
    return Seen;
  }

  void walkLoop(const Stmt *L) {
    const Stmt *Body = nullptr;
    const Expr *Cond = nullptr, *Inc = nullptr;
    if (const auto *F = dyn_cast<ForStmt>(L)) {
      walkStmt(F->getInit());
      if (const VarDecl *CV = F->getConditionVariable())
        walkVarDecl(CV);
      Body = F->getBody();
      Cond = F->getCond();
      Inc = F->getInc();
    } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
      Body = W->getBody();
      Cond = W->getCond();
    } else if (const auto *D = dyn_cast<DoStmt>(L)) {
      Body = D->getBody();
      Cond = D->getCond();
    } else if (const auto *R = dyn_cast<CXXForRangeStmt>(L)) {
      walkStmt(R->getRangeStmt());
      walkStmt(R->getBeginStmt());
      walkStmt(R->getEndStmt());
      Body = R->getBody();
      walkStmt(R->getLoopVarStmt());
    }

    auto [MIt, MNew] = LoopModsCache.try_emplace(L);
    LoopMods &LM = MIt->second;
    if (MNew) {
      LM.Mod.TraverseStmt(const_cast<Stmt *>(Body));
      if (Inc) {
        LM.Mod.TraverseStmt(const_cast<Expr *>(Inc));
        LM.IncMod.TraverseStmt(const_cast<Expr *>(Inc));
      }
      if (Cond)
        LM.Mod.TraverseStmt(const_cast<Expr *>(Cond));
    }
    const ModifiedVars &Mod = LM.Mod;

    std::optional<bool> FirstTest;
    if (tryUnroll(L, Body, Cond, Inc, LM, FirstTest))
      return;
    // Walked once for every iteration: only the first test is known, and
    // only when the counter's simulation gave it (it is the same in every
    // thread then).
    if (Cond && !isa<DoStmt>(L) && anyActive()) {
      LoopVisit Visit;
      Visit.Reached = true;
      Visit.Exact = !ActiveApprox;
      Visit.FirstTestHolds = FirstTest.value_or(false);
      Visit.Trips = FirstTest && !*FirstTest ? 0 : -1;
      noteLoop(L, Visit);
    }

    SymbolId Iter = T.Symbols.get(L, 0, SymbolInfo::LoopIteration,
                                  "iteration of the loop at line " +
                                      std::to_string(lineOf(L)));
    T.Symbols.info(Iter).Loop = L;
    // A pinned loop (see IterationPins) is walked as its iteration *Pin.
    std::optional<int64_t> Pin;
    if (Pins) {
      auto PI = Pins->Loops.find(L);
      if (PI != Pins->Loops.end())
        Pin = PI->second;
    }
    LaneValue IterV = Pin ? constant(*Pin) : symbolValue(Iter);
    bool PinnedPastEnd = false;

    // Values of the modified variables at the top of an iteration.
    Env Entry = Vars;
    std::vector<const VarDecl *> Others;
    for (const VarDecl *V : Mod.Vars) {
      auto It = Vars.find(V);
      if (It == Vars.end())
        continue; // Declared inside the loop.
      std::optional<LaneValue> Step;
      if (Inc && Mod.Count.at(V) == 1)
        Step = additiveStep(Inc, V, Mod.Vars);
      if (Step && !It->second.IsPointer) {
        LaneValue Start = It->second.Int;
        LaneValue At = Start + *Step * IterV;
        if (!At.isAffine() && Start.isUniform() && Step->isUniform()) {
          At = opaqueUniform(SymbolKey{L, V, LoopStepSub}, V->getName().str());
          T.Symbols.info(*At.symbols().begin()).Loop = L; // Per iteration.
        }
        if (auto Seq = simulateLoop(V, Cond, Inc)) {
          // Constant bounds: the iteration count takes known values.
          std::vector<int64_t> Iters(Seq->size());
          for (unsigned I = 0; I < Iters.size(); ++I)
            Iters[I] = I;
          T.Symbols.info(Iter).Values = Iters;
        }
        Vars[V] = evalInt(toType(At, V->getType()));
        continue;
      }
      if (Step && It->second.IsPointer) {
        PointerValue P = *It->second.Ptr;
        if (P.isShared() || P.isGlobal())
          P = offsetBy(P, *Step * IterV, V->getType()->getPointeeType());
        Vars[V] = Value::pointer(P);
        continue;
      }
      Others.push_back(V);
    }
    // Other modified variables: assume uniform if they start uniform, check
    // that by walking the body without recording, else unknown.
    for (const VarDecl *V : Others) {
      const Value &Start = Vars[V];
      if (!Start.IsPointer && Start.Int.isUniform()) {
        SymbolId S = T.Symbols.get(SymbolKey{L, V, LoopTopSub},
                                   SymbolInfo::Opaque, V->getName().str());
        // Its value at the top of each iteration: Values is indexed by
        // iteration, so the loop's trip count is known too.
        T.Symbols.info(S).Loop = L;
        auto Seq = simulateLoop(V, Cond, Inc);
        if (Seq) {
          T.Symbols.info(S).Values = *Seq;
          if (!T.Symbols.info(Iter).Values) {
            std::vector<int64_t> Iters(Seq->size());
            for (unsigned I = 0; I < Iters.size(); ++I)
              Iters[I] = I;
            T.Symbols.info(Iter).Values = Iters;
          }
        }
        if (Pin && Seq) {
          if (*Pin >= 0 && uint64_t(*Pin) < Seq->size())
            Vars[V] = evalInt(constant((*Seq)[*Pin]));
          else
            PinnedPastEnd = true; // The loop has no such iteration.
        } else {
          Vars[V] = evalInt(symbolValue(S));
        }
      } else {
        Origins From = Start.From; // An accumulator keeps what it carried.
        Vars[V] = Start.IsPointer
                      ? Value::pointer(PointerValue())
                      : evalInt(unknown("'" + V->getName().str() +
                                        "' changes across loop iterations"));
        if (!Start.IsPointer)
          Vars[V].From = std::move(From);
      }
    }
    // The probe walk runs to a fixpoint: a variable found to vary at the
    // end of the body varies at the top of the next iteration, which may
    // make others vary (`a = b; b = threadIdx.x;` makes `a` vary from the
    // second iteration on). A round that demotes no variable ends the
    // loop, and no variable is demoted twice, so at most Others.size()
    // rounds run: the bound is the loop's structure, no cap is needed.
    std::set<const VarDecl *> Varying;
    for (const VarDecl *V : Others)
      if (Vars[V].IsPointer || !Vars[V].Int.isUniform())
        Varying.insert(V);
    while (!Others.empty()) {
      Env Assumed = Vars;
      std::vector<char> SavedActive = Active;
      bool SavedApprox = ActiveApprox, SavedRec = Recording;
      unsigned SavedSeq = Seq;
      Recording = false;
      walkLoopIteration(L, Body, Cond, Inc);
      Recording = SavedRec;
      Seq = SavedSeq;
      Env After = Vars;
      Vars = Assumed;
      Active = SavedActive;
      ActiveApprox = SavedApprox;
      bool Demoted = false;
      for (const VarDecl *V : Others) {
        auto It = After.find(V);
        if (It == After.end() || It->second.IsPointer ||
            !It->second.Int.isUniform()) {
          // An accumulator keeps what the body adds to it, too.
          Origins From = Vars[V].From;
          if (It != After.end() && !It->second.IsPointer)
            addOrigins(From, It->second.From);
          Vars[V] = evalInt(unknown("'" + V->getName().str() +
                                    "' changes across loop iterations"));
          Vars[V].From = std::move(From);
          Demoted |= Varying.insert(V).second;
        }
      }
      if (!Demoted || Varying.size() == Others.size())
        break;
    }

    Env InLoop = Vars;
    std::vector<char> EntryActive = Active;
    bool EntryApprox = ActiveApprox;
    if (!PinnedPastEnd)
      walkLoopIteration(L, Body, Cond, Inc);
    Env BodyEnd = std::move(Vars);
    // After the loop: the threads that entered it (less those that
    // returned), with the modified variables no longer known per iteration.
    Active = EntryActive;
    ActiveApprox = EntryApprox;
    dropReturned();
    dropExited();
    Env Out = Entry;
    for (const VarDecl *V : Mod.Vars) {
      auto It = Out.find(V);
      if (It == Out.end())
        continue;
      const Value &InBody = InLoop[V];
      Origins From = It->second.IsPointer ? Origins() : It->second.From;
      if (!InBody.IsPointer && InBody.Int.isUniform() && It->second.Int.isUniform())
        Out[V] = evalInt(opaqueUniform(SymbolKey{L, V, LoopExitSub},
                                       V->getName().str()));
      else
        Out[V] = InBody.IsPointer
                     ? Value::pointer(PointerValue())
                     : evalInt(unknown("'" + V->getName().str() +
                                       "' after a loop"));
      // What the variable carried before, in, and at the end of the body.
      if (!Out[V].IsPointer) {
        addOrigins(From, InBody.From);
        auto End = BodyEnd.find(V);
        if (End != BodyEnd.end() && !End->second.IsPointer)
          addOrigins(From, End->second.From);
        Out[V].From = std::move(From);
      }
    }
    // Variables declared before the loop but not modified keep their value.
    Vars = std::move(Out);
  }

  /// Walk a loop once per iteration when a variable updated only by the
  /// increment runs through a short constant sequence: every value in the
  /// body is then exact, including guards like `if (tid < s)`.
  /// \p FirstTest: whether the first test holds, when a simulation of the
  /// counter (the same in every thread) said so, unrolled or not.
  bool tryUnroll(const Stmt *L, const Stmt *Body, const Expr *Cond,
                 const Expr *Inc, const LoopMods &LM,
                 std::optional<bool> &FirstTest) {
    if (!isa<ForStmt>(L) || !Cond || !Inc)
      return false;
    for (const VarDecl *V : LM.IncMod.Vars) {
      if (LM.Mod.Count.at(V) != 1 || !Vars.count(V))
        continue;
      auto Seq = simulateLoop(V, Cond, Inc);
      if (Seq)
        FirstTest = !Seq->empty();
      if (!Seq || Seq->empty() || Seq->size() > MaxUnrolledTrips ||
          UnrollProduct * Seq->size() > MaxUnrollProduct)
        continue;
      std::vector<char> EntryActive = Active;
      bool EntryApprox = ActiveApprox;
      if (Recording)
        T.Unrolled.try_emplace(L, KernelTrace::UnrolledLoop{V, *Seq});
      UnrollProduct *= Seq->size();
      LoopVisit Visit;
      for (unsigned K = 0; K < Seq->size(); ++K) {
        // The increment computes the next value itself; pin it anyway so a
        // thread-dependent write to V in the body can't derail the count.
        Vars[V] = evalInt(constant((*Seq)[K]));
        walkLoopIteration(L, Body, Cond, Inc, int(K), &Visit);
      }
      // The last test, which ends the unrolled walk, is evaluated here: it
      // must fail in every thread still in the loop for the trip count to
      // be the one every thread leaving through the condition runs.
      if (Visit.Reached && anyActive()) {
        LaneValue C = hasEffects(Cond) ? unknown("loop condition")
                                       : quietInt(Cond);
        Visit.test(*this, unsigned(Seq->size()), C);
        bool SomeStay = !C.isConcrete();
        if (!SomeStay)
          C.constants().forEachWhile([&](unsigned I, int64_t X) {
            SomeStay = Active[I] && X;
            return !SomeStay;
          });
        if (SomeStay)
          Visit.Trips = -1;
      }
      noteLoop(L, Visit);
      UnrollProduct /= Seq->size();
      Active = EntryActive;
      ActiveApprox = EntryApprox;
      dropReturned();
      dropExited();
      return true;
    }
    return false;
  }

  void walkLoopIteration(const Stmt *L, const Stmt *Body, const Expr *Cond,
                         const Expr *Inc, int Iteration = -1,
                         LoopVisit *Visit = nullptr) {
    Loops.push_back(L);
    LoopIterations.push_back(Iteration);
    LoopStates.push_back(LoopState());
    bool IsDo = isa<DoStmt>(L);
    bool Unsure = false;
    if (!Cond)
      noteBranch(L, constant(1));
    if (Cond && !IsDo) {
      ++InexactBranches;
      LaneValue C = eval(Cond).Int;
      --InexactBranches;
      noteBranch(L, C);
      Unsure = !C.isConcrete();
      if (Visit)
        Visit->test(*this, unsigned(Iteration), C);
      if (C.isConcrete()) {
        narrowActive(C, true);
      } else if (!C.isUniform()) {
        // Trip count varies by thread in a way we can't compute: some
        // threads may have left. Accesses still count every entering thread.
        ActiveApprox = ActiveApprox || C.isUnknown();
      }
    }
    Uncertain += Unsure;
    walkStmt(Body);
    Uncertain -= Unsure;
    const LoopState &LS = LoopStates.back();
    if (!LS.Continued.empty())
      for (unsigned I = 0; I < N; ++I)
        if (LS.Continued[I] && (LS.Broken.empty() || !LS.Broken[I]))
          Active[I] = 1;
    if (Inc)
      evalDiscarded(Inc);
    if (Cond && IsDo) {
      ++InexactBranches;
      LaneValue C = eval(Cond).Int;
      --InexactBranches;
      noteBranch(L, C);
    }
    LoopStates.pop_back();
    Loops.pop_back();
    LoopIterations.pop_back();
  }

  unsigned lineOf(const Stmt *S) {
    return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
  }
};

} // namespace

KernelTrace traceKernel(ASTContext &Ctx, const FunctionDecl *Kernel,
                        const ThreadGeometry &G, const AnalysisOptions &Opts,
                        const PaddingOverride *Pad, const IterationPins *Pins) {
  KernelTrace T;
  T.Kernel = Kernel;
  T.Geometry = G;
  KernelWalker W(Ctx, G, Opts, T, Pad, Pins);
  W.walkKernel(Kernel);
  return T;
}

} // namespace shmem
