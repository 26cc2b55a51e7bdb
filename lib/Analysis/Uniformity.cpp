//===- Uniformity.cpp - Which values the threads of a block agree on ------===//
//
// See Uniformity.h for the lattice and the treatment of control dependence.
// The code is in three parts:
//
//   FunctionSkeleton  what depends on the CFG only: blocks in reverse
//                     post-order, branches with their regions and joins, the
//                     variables each block assigns. Built once per function.
//   FunctionAnalyzer  the fixpoint for one function in one calling context,
//                     then a final pass that records expression values.
//   UniformityAnalysis  memoises both, per function and per context.
//
//===----------------------------------------------------------------------===//

#include "Uniformity.h"
#include "Butterfly.h"
#include "KernelTrace.h"
#include "Program/BranchRegions.h"
#include "Program/CallContexts.h"
#include "Program/CudaModel.h"
#include "Program/Worklist.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace clang;

namespace shmem {

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

StringRef levelName(UniformityLevel L) {
  switch (L) {
  case UniformityLevel::GridUniform:
    return "grid-uniform";
  case UniformityLevel::BlockUniform:
    return "block-uniform";
  case UniformityLevel::WarpUniform:
    return "warp-uniform";
  case UniformityLevel::Varying:
    return "varying";
  }
  return "varying";
}

static std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return {};
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.empty() || Text.size() > 48 || Text.contains('\n'))
    return {};
  return Text.str();
}

static unsigned lineOf(const Stmt *S, const ASTContext &Ctx) {
  return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
}

static std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (FD->getDeclName().isIdentifier())
      return FD->getName().str();
  return {};
}

std::string describeSource(const VarianceSource &S, const ASTContext &Ctx) {
  std::string Text = sourceText(S.S, Ctx);
  auto Quoted = [&](StringRef Fallback) {
    return Text.empty() ? Fallback.str() : "'" + Text + "'";
  };
  std::string Var = S.Var ? "'" + S.Var->getNameAsString() + "'" : "a value";
  switch (S.K) {
  case VarianceSource::None:
    return "nothing thread-dependent";
  case VarianceSource::ThreadIndex:
  case VarianceSource::BlockIndex:
  case VarianceSource::ThreadRank:
    return Text.empty() ? "the thread index" : Text;
  case VarianceSource::Atomic: {
    std::string Name;
    if (const auto *Call = dyn_cast_or_null<CallExpr>(S.S))
      Name = calleeName(Call);
    return Name.empty() ? "the result of an atomic"
                        : "the result of '" + Name + "'";
  }
  case VarianceSource::VolatileLoad:
    return "the volatile load " + Quoted("of memory") +
           ", which threads may see at different times";
  case VarianceSource::ThreadDependentLoad:
    return "the value loaded by " + Quoted("a load") +
           " from a thread-dependent address";
  case VarianceSource::MemoryLoad:
    return "the value loaded by " + Quoted("a load") +
           ", which may differ between blocks";
  case VarianceSource::BlockCollective:
    return Quoted("a block-wide reduction") +
           ", which may differ between blocks";
  case VarianceSource::WarpCollective:
    return Quoted("a warp-wide vote or reduction") +
           ", which may differ between warps";
  case VarianceSource::LaneExchange:
    return "the shuffle " + Quoted("between lanes");
  case VarianceSource::Opaque:
    return Text.empty() ? "a value the analysis cannot see into"
                        : "'" + Text + "'";
  case VarianceSource::DivergentAssignment:
    return Var + ", which is assigned under the thread-dependent branch at "
                 "line " +
           std::to_string(S.S ? lineOf(S.S, Ctx) : 0);
  case VarianceSource::DivergentLoopExit:
    return Var + ", whose value after the loop at line " +
           std::to_string(S.S ? lineOf(S.S, Ctx) : 0) +
           " depends on the iteration each thread left it in";
  }
  return "a thread-dependent value";
}

static bool samePerThread(const std::shared_ptr<const LaneValue> &A,
                          const std::shared_ptr<const LaneValue> &B) {
  if (A == B)
    return true;
  if (!A || !B)
    return false;
  return *A == *B;
}

UniformityValue UniformityValue::join(const UniformityValue &A,
                                      const UniformityValue &B) {
  UniformityValue R = A.Level >= B.Level ? A : B;
  R.Level = std::max(A.Level, B.Level);
  if (A.Source.K == VarianceSource::None)
    R.Source = B.Source;
  else if (B.Source.K == VarianceSource::None || A.Level >= B.Level)
    R.Source = A.Source;
  R.PerThread = samePerThread(A.PerThread, B.PerThread) ? A.PerThread : nullptr;
  R.PointsToLocal = A.PointsToLocal == B.PointsToLocal ? A.PointsToLocal : nullptr;
  // A lane symmetry both sides have survives any combination of them.
  R.LaneXor = A.laneXor() & B.laneXor();
  R.WarpInvariant = A.warpInvariant() && B.warpInvariant();
  return R;
}

bool UniformityValue::sameAs(const UniformityValue &O) const {
  return Level == O.Level && PointsToLocal == O.PointsToLocal &&
         laneXor() == O.laneXor() && warpInvariant() == O.warpInvariant() &&
         samePerThread(PerThread, O.PerThread);
}

void UniformityValue::normalize() {
  if (Level > UniformityLevel::WarpUniform && LaneXor == ~0u)
    Level = UniformityLevel::WarpUniform;
  // Lane l of warp w holds what lane 0 of warp w holds (warp-uniform), which
  // is what lane 0 of warp 0 holds (warp-invariant).
  if (Level == UniformityLevel::WarpUniform && WarpInvariant)
    Level = UniformityLevel::BlockUniform;
}

//===----------------------------------------------------------------------===//
// The skeleton: what depends on the CFG only
//===----------------------------------------------------------------------===//

struct FunctionSkeleton {
  const FunctionDecl *F = nullptr;
  /// The function's shared graph (ProgramCFGs) and, for brevity, its parts.
  const KernelCFG *Graph = nullptr;
  const CFG *Cfg = nullptr;
  const ParentMap *Parents = nullptr;
  /// Reachable blocks in reverse post-order, and each block's position.
  llvm::ArrayRef<const CFGBlock *> RPO;
  llvm::ArrayRef<unsigned> RPOIndex;
  llvm::DenseMap<const Stmt *, const CFGBlock *> StmtBlock;
  /// The graph's branches (BranchRegions), and by block ID the branch the
  /// block ends in (or -1) and the branches it is a join of.
  llvm::ArrayRef<BranchInfo> Branches;
  llvm::ArrayRef<int> BranchOfBlock;
  llvm::ArrayRef<llvm::SmallVector<unsigned, 2>> JoinOf;
  /// By block ID: the local variables the block may assign.
  std::vector<llvm::SmallVector<const VarDecl *, 4>> DefsOfBlock;
  /// By branch: the variables assigned in its region.
  std::vector<llvm::SmallVector<const VarDecl *, 8>> BranchDefs;
  /// The statement whose end ends each local's scope: the compound
  /// statement that declares it, or the for, if, while or switch whose
  /// init or condition does. Parameters have none.
  llvm::DenseMap<const VarDecl *, const Stmt *> ScopeOf;
  /// By block ID: the scopes open at the block's first statement; blocks
  /// with none known (empty, synthetic) have PruneAt unset.
  std::vector<llvm::SmallPtrSet<const Stmt *, 8>> OpenScopes;
  llvm::BitVector PruneAt;
  /// Loops of butterfly steps (Butterfly.h): on the edge that leaves the
  /// loop (From, its condition, to To), which runs only after every
  /// iteration, the lanes the steps exchanged agree on each variable.
  struct ButterflyExit {
    const CFGBlock *From = nullptr, *To = nullptr;
    llvm::SmallVector<ButterflyLoop::Var, 2> Vars;
  };
  std::vector<ButterflyExit> Butterflies;

  static constexpr unsigned Unreachable = KernelCFG::Unreachable;
  bool reachable(const CFGBlock *B) const {
    return RPOIndex[B->getBlockID()] != Unreachable;
  }
};

/// Statements whose end ends the scope of the variables they declare.
static bool opensScope(const Stmt *S) {
  return isa<CompoundStmt, ForStmt, CXXForRangeStmt, IfStmt, WhileStmt,
             SwitchStmt>(S);
}

/// FunctionSkeleton::ScopeOf for every variable declared in \p S, whose
/// innermost enclosing scope statement is \p Scope.
static void collectScopes(const Stmt *S, const Stmt *Scope,
                          llvm::DenseMap<const VarDecl *, const Stmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return; // A lambda's locals belong to its own function.
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Out.try_emplace(V, Scope);
  const VarDecl *CondVar = nullptr;
  if (const auto *I = dyn_cast<IfStmt>(S))
    CondVar = I->getConditionVariable();
  else if (const auto *W = dyn_cast<WhileStmt>(S))
    CondVar = W->getConditionVariable();
  else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    CondVar = Sw->getConditionVariable();
  else if (const auto *Fo = dyn_cast<ForStmt>(S))
    CondVar = Fo->getConditionVariable();
  if (CondVar)
    Out.try_emplace(CondVar, S);
  const Stmt *Inner = opensScope(S) ? S : Scope;
  for (const Stmt *C : S->children())
    collectScopes(C, Inner, Out);
}

/// A local variable of the function being analysed that the dataflow
/// tracks: automatic storage, not shared memory.
static bool isTrackedLocal(const VarDecl *V, const FunctionDecl *F) {
  if (!V || !V->hasLocalStorage() || V->hasAttr<CUDASharedAttr>())
    return false;
  const DeclContext *DC = V->getParentFunctionOrMethod();
  return DC == F;
}

/// The local variable whose storage an lvalue designates (`x`, `a[i]` for a
/// local array a, `s.f`), syntactically.
static const VarDecl *baseLocal(const Expr *E, const FunctionDecl *F) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      E = ICE->getSubExpr();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr; // Through a pointer: memory.
      E = Base;
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return isTrackedLocal(V, F) ? V : nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

/// The variables a CFG element may assign, syntactically.
static void collectDefs(const Stmt *S, const FunctionDecl *F,
                        llvm::SmallVectorImpl<const VarDecl *> &Out) {
  auto Add = [&](const Expr *LV) {
    if (const VarDecl *V = baseLocal(LV, F)) {
      Out.push_back(V);
      // A reference bound to a local variable writes that variable.
      if (V->getType()->isReferenceType() && V->getInit())
        if (const VarDecl *T = baseLocal(V->getInit(), F))
          Out.push_back(T);
    }
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Add(BO->getLHS());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      Add(UO->getSubExpr());
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (isTrackedLocal(V, F))
          Out.push_back(V);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Shift = 0;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (isa_and_nonnull<CXXMethodDecl>(Callee) && OC->getNumArgs() > 0) {
        const auto *MD = cast<CXXMethodDecl>(Callee);
        if (!MD->isConst())
          Add(OC->getArg(0));
        Shift = 1;
      }
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const CXXMethodDecl *MD = MC->getMethodDecl())
        if (!MD->isConst())
          Add(MC->getImplicitObjectArgument());
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
      const Expr *A = Call->getArg(I)->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(A);
          U && U->getOpcode() == UO_AddrOf) {
        Add(U->getSubExpr());
        continue;
      }
      if (A->getType()->isArrayType()) {
        Add(A); // A local array decays to a pointer the callee may write.
        continue;
      }
      unsigned P = I - Shift;
      if (Callee && P < Callee->getNumParams()) {
        QualType T = Callee->getParamDecl(P)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          Add(Call->getArg(I));
      }
    }
  } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    for (const Expr *O : Asm->outputs())
      Add(O);
  }
}

static std::unique_ptr<FunctionSkeleton>
buildSkeleton(const FunctionDecl *F, const KernelCFG &K, ASTContext &Ctx,
              unsigned WarpSize) {
  Stmt *Body = F->getBody();
  auto S = std::make_unique<FunctionSkeleton>();
  S->F = F;
  S->Graph = &K;
  S->Cfg = &K.cfg();
  S->Parents = &K.parents();
  S->RPO = K.reversePostOrder();
  S->RPOIndex = K.rpoIndices();
  const CFG &G = *S->Cfg;
  unsigned N = G.getNumBlockIDs();

  S->DefsOfBlock.resize(N);
  collectScopes(Body, nullptr, S->ScopeOf);
  S->OpenScopes.resize(N);
  S->PruneAt.resize(N);
  for (const CFGBlock *B : S->RPO) {
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *St = CS->getStmt();
      // The scopes open at the first statement the parent map knows (the
      // CFG's own split declarations it does not).
      if (!S->PruneAt.test(B->getBlockID()) &&
          (St == Body || S->Parents->getParent(St))) {
        for (const Stmt *X = St; X; X = S->Parents->getParent(X))
          if (opensScope(X))
            S->OpenScopes[B->getBlockID()].insert(X);
        S->PruneAt.set(B->getBlockID());
      }
      S->StmtBlock.try_emplace(St, B);
      collectDefs(St, F, S->DefsOfBlock[B->getBlockID()]);
    }
    if (const Stmt *T = B->getTerminatorStmt())
      S->StmtBlock.try_emplace(T, B);
  }

  // The branches come with the graph; what each assigns is ours.
  const BranchRegions &BR = K.branchRegions();
  S->Branches = BR.branches();
  S->BranchOfBlock = BR.branchOfBlock();
  S->JoinOf = BR.joinOf();
  for (const BranchInfo &BI : S->Branches) {
    auto &Out = S->BranchDefs.emplace_back();
    llvm::SmallPtrSet<const VarDecl *, 8> Defs;
    for (unsigned ID : BI.Region.set_bits())
      for (const VarDecl *V : S->DefsOfBlock[ID])
        if (Defs.insert(V).second)
          Out.push_back(V);

    const CFGBlock *B = BI.Block;
    const Stmt *T = B->getTerminatorStmt();
    if (const auto *FS = dyn_cast<ForStmt>(BI.Construct);
        FS && T == FS && B->succ_size() == 2)
      if (auto BL = matchButterflyLoop(FS, Ctx, WarpSize)) {
        FunctionSkeleton::ButterflyExit BE;
        BE.From = B;
        BE.To = (B->succ_begin() + 1)->getReachableBlock(); // The false edge.
        BE.Vars = BL->Vars;
        if (BE.To)
          S->Butterflies.push_back(std::move(BE));
      }
  }
  return S;
}

//===----------------------------------------------------------------------===//
// The fixpoint
//===----------------------------------------------------------------------===//

class FunctionAnalyzer {
public:
  FunctionAnalyzer(UniformityAnalysis &UA, const FunctionSkeleton &Sk,
                   FunctionUniformity &R, llvm::ArrayRef<ArgumentContext> Args,
                   const UniformityValue &This, unsigned Depth)
      : UA(UA), Ctx(UA.Ctx), G(UA.Geometry), Sk(Sk), R(R), F(Sk.F),
        Args(Args), This(This), Depth(Depth) {}

  void run();

private:
  /// Every block once more from its converged entry state, recording the
  /// values clients query.
  void finalPass();

  /// The state at a program point: a value per tracked local variable.
  struct State {
    bool Reached = false;
    llvm::DenseMap<const VarDecl *, UniformityValue> Vars;
    UniformityValue Ret;
    /// Per local array: the element last stored at `a[i]` (i a local
    /// variable) when neither a nor i changed since, and its value: a read of
    /// `a[i]` then reads that, not the merge of the whole array
    /// (`sum[j] = warp_reduce_sum(sum[j]); buf[warp] = sum[j];`).
    llvm::DenseMap<const VarDecl *, std::pair<const VarDecl *, UniformityValue>>
        Elements;

    bool sameAs(const State &O) const {
      if (Reached != O.Reached || Vars.size() != O.Vars.size() ||
          Elements.size() != O.Elements.size() || !Ret.sameAs(O.Ret))
        return false;
      for (const auto &KV : Vars) {
        auto It = O.Vars.find(KV.first);
        if (It == O.Vars.end() || !It->second.sameAs(KV.second))
          return false;
      }
      for (const auto &KV : Elements) {
        auto It = O.Elements.find(KV.first);
        if (It == O.Elements.end() || It->second.first != KV.second.first ||
            !It->second.second.sameAs(KV.second.second))
          return false;
      }
      return true;
    }

    /// \p V changed: what was known of elements of it or indexed by it is
    /// not any more.
    void forgetElements(const VarDecl *V) {
      Elements.erase(V);
      llvm::SmallVector<const VarDecl *, 2> Stale;
      for (const auto &KV : Elements)
        if (KV.second.first == V)
          Stale.push_back(KV.first);
      for (const VarDecl *A : Stale)
        Elements.erase(A);
    }

    void joinWith(const State &O) {
      if (!O.Reached)
        return;
      if (!Reached) {
        *this = O;
        return;
      }
      for (const auto &KV : O.Vars) {
        auto [It, New] = Vars.try_emplace(KV.first, KV.second);
        if (!New)
          It->second = UniformityValue::join(It->second, KV.second);
      }
      Ret = UniformityValue::join(Ret, O.Ret);
      // An element is known after the join when both sides know it alike.
      llvm::SmallVector<const VarDecl *, 2> Differ;
      for (const auto &KV : Elements) {
        auto It = O.Elements.find(KV.first);
        if (It == O.Elements.end() || It->second.first != KV.second.first ||
            !It->second.second.sameAs(KV.second.second))
          Differ.push_back(KV.first);
      }
      for (const VarDecl *A : Differ)
        Elements.erase(A);
    }
  };

  /// Where an lvalue lives.
  struct Location {
    enum Kind { Local, Memory, Temporary, Captured } K = Memory;
    /// For Local: the variable.
    const VarDecl *Var = nullptr;
    /// For Local: the whole variable (a store replaces its value) rather than
    /// an element or field of it.
    bool Whole = false;
    /// For an element `a[i]` of a local array: i, when a local variable.
    const VarDecl *Index = nullptr;
    /// For Memory: the address; for part of a Local: the index.
    UniformityValue Address;
    /// For Memory: read-only for the whole launch (__constant__, const
    /// globals), so loads from a uniform address are grid-uniform.
    bool ReadOnly = false;
    /// For Temporary: the expression whose value the temporary holds.
    const Expr *Init = nullptr;
  };

  UniformityAnalysis &UA;
  ASTContext &Ctx;
  const ThreadGeometry *G;
  const FunctionSkeleton &Sk;
  FunctionUniformity &R;
  const FunctionDecl *F;
  llvm::ArrayRef<ArgumentContext> Args;
  UniformityValue This;
  unsigned Depth;

  State Cur;
  std::vector<State> Out;
  /// Parameters that stand for a caller's local variable (by reference).
  llvm::SmallPtrSet<const VarDecl *, 4> StorageParams;
  /// References bound to a whole local variable: the variable.
  llvm::DenseMap<const VarDecl *, const VarDecl *> RefAlias;
  llvm::DenseMap<const Expr *, std::optional<int64_t>> ConstantCache;
  std::map<int64_t, std::shared_ptr<const LaneValue>> Constants;

  //===--------------------------------------------------------------------===//
  // Small helpers
  //===--------------------------------------------------------------------===//

  using Level = UniformityLevel;

  UniformityValue uniform(Level L = Level::GridUniform) {
    return UniformityValue::uniform(L);
  }

  std::shared_ptr<const LaneValue> constantVector(int64_t C) {
    if (!G)
      return nullptr;
    auto &Slot = Constants[C];
    if (!Slot)
      Slot = std::make_shared<const LaneValue>(
          LaneValue::constant(G->threads(), C));
    return Slot;
  }

  UniformityValue constant(int64_t C) {
    UniformityValue V;
    V.PerThread = constantVector(C);
    return V;
  }

  /// A value known in every thread: its level follows from the values.
  UniformityValue exact(LaneValue L, VarianceSource Src) {
    UniformityValue V;
    if (!G || !L.isConcrete() || L.size() != G->threads()) {
      V.Level = Level::Varying;
      V.Source = Src;
      return V;
    }
    classify(V, L);
    if (V.Level != Level::GridUniform)
      V.Source = Src;
    V.PerThread = std::make_shared<const LaneValue>(std::move(L));
    return V;
  }

  /// The level and symmetries of a value known in every thread follow from
  /// the values alone.
  void classify(UniformityValue &V, const LaneValue &L) {
    V.Level = UA.levelOf(L);
    V.LaneXor = 1;
    V.WarpInvariant = V.Level > Level::BlockUniform && UA.warpInvariant(L);
  }

  std::optional<int64_t> constantInt(const Expr *E) {
    auto [It, New] = ConstantCache.try_emplace(E);
    if (!New)
      return It->second;
    if (E->isValueDependent() || E->isTypeDependent() || !E->isPRValue())
      return std::nullopt;
    QualType T = E->getType();
    if (!T->isIntegralOrEnumerationType() || Ctx.getTypeSize(T) > 64)
      return std::nullopt;
    if (isa<CallExpr>(E) || E->HasSideEffects(Ctx))
      return std::nullopt;
    Expr::EvalResult Res;
    if (!E->EvaluateAsInt(Res, Ctx, Expr::SE_NoSideEffects))
      return std::nullopt;
    llvm::APSInt I = Res.Val.getInt();
    int64_t C = I.isSigned() ? I.getSExtValue() : int64_t(I.getZExtValue());
    ConstantCache[E] = C;
    return C;
  }

  /// \p V converted to type \p T: per-thread values wrap or become 0/1.
  UniformityValue convert(UniformityValue V, QualType T) {
    if (!V.PerThread)
      return V;
    T = T.getCanonicalType();
    if (T->isBooleanType()) {
      if (allIn(*V.PerThread, 0, 1))
        return withSameValues(std::move(V));
      return withPerThread(
          V, LaneValue::apply(LaneValue::Op::NE, *V.PerThread,
                              *constantVector(0)));
    }
    if (!T->isIntegralOrEnumerationType() || Ctx.getTypeSize(T) > 64) {
      V.PerThread = nullptr;
      return V;
    }
    unsigned Bits = unsigned(Ctx.getTypeSize(T));
    bool Signed = T->isSignedIntegerOrEnumerationType();
    // Most conversions change no value (an int index widened, a loop bound
    // narrowed that fits): keep the vector rather than copy it.
    if (Bits >= 64 ||
        (Signed ? allIn(*V.PerThread, -(int64_t(1) << (Bits - 1)),
                        (int64_t(1) << (Bits - 1)) - 1)
                : allIn(*V.PerThread, 0, int64_t((uint64_t(1) << Bits) - 1))))
      return withSameValues(std::move(V));
    return withPerThread(V, V.PerThread->truncate(Bits, Signed));
  }

  /// Every thread's value of the concrete \p L is in [Lo, Hi].
  static bool allIn(const LaneValue &L, int64_t Lo, int64_t Hi) {
    if (!L.isConcrete())
      return false;
    return L.constants().within(Lo, Hi);
  }

  /// withPerThread(V, *V.PerThread), sharing the vector: what a conversion
  /// that changes no value gives.
  UniformityValue withSameValues(UniformityValue V) {
    if (!G) {
      V.PerThread = nullptr;
      return V;
    }
    classify(V, *V.PerThread);
    if (V.Level == Level::GridUniform)
      V.Source = VarianceSource();
    return V;
  }

  /// \p V with a new per-thread value (or none when \p L is not concrete);
  /// the level follows the values when they are known.
  UniformityValue withPerThread(UniformityValue V, LaneValue L) {
    if (!G || !L.isConcrete()) {
      V.PerThread = nullptr;
      return V;
    }
    classify(V, L);
    if (V.Level == Level::GridUniform)
      V.Source = VarianceSource();
    V.PerThread = std::make_shared<const LaneValue>(std::move(L));
    return V;
  }

  UniformityValue stateValue(const VarDecl *V) {
    auto It = Cur.Vars.find(V);
    return It == Cur.Vars.end() ? uniform() : It->second;
  }

  //===--------------------------------------------------------------------===//
  // Locations: reads and writes
  //===--------------------------------------------------------------------===//

  Location deref(const UniformityValue &P) {
    Location L;
    if (P.PointsToLocal) {
      L.K = Location::Local;
      L.Var = P.PointsToLocal;
      L.Whole = false;
    }
    L.Address = P;
    L.Address.PointsToLocal = nullptr;
    L.Address.PerThread = nullptr;
    return L;
  }

  static bool isReadOnlyGlobal(const VarDecl *V) {
    return V->hasAttr<CUDAConstantAttr>() || V->getType().isConstQualified();
  }

  Location location(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      switch (ICE->getCastKind()) {
      case CK_NoOp:
      case CK_LValueBitCast:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        return location(ICE->getSubExpr());
      default:
        break;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      Location L;
      if (!V)
        return L;
      if (auto It = RefAlias.find(V); It != RefAlias.end()) {
        L.K = Location::Local;
        L.Var = It->second;
        L.Whole = true;
        return L;
      }
      if (isTrackedLocal(V, F)) {
        if (V->getType()->isReferenceType() && !StorageParams.count(V))
          return deref(stateValue(V));
        L.K = Location::Local;
        L.Var = V;
        L.Whole = true;
        return L;
      }
      if (V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>()) {
        // A variable of an enclosing function, captured by a lambda.
        L.K = Location::Captured;
        return L;
      }
      L.ReadOnly = isReadOnlyGlobal(V);
      return L;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      UniformityValue P = get(ASE->getBase());
      UniformityValue I = get(ASE->getIdx());
      const VarDecl *Local = P.PointsToLocal;
      UniformityValue Addr = UniformityValue::join(P, I);
      Addr.PointsToLocal = Local;
      Location L = deref(Addr);
      if (const auto *IR = dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts());
          IR && L.K == Location::Local &&
          ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        if (const auto *IV = dyn_cast<VarDecl>(IR->getDecl());
            IV && isTrackedLocal(IV, F) && !IV->getType()->isReferenceType())
          L.Index = IV;
      // An element of a __constant__ or const global array.
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          L.ReadOnly = !V->hasLocalStorage() && isReadOnlyGlobal(V);
      return L;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(ME->getMemberDecl())) {
        Location L; // A static data member.
        L.ReadOnly = isReadOnlyGlobal(V);
        return L;
      }
      if (ME->isArrow())
        return deref(get(ME->getBase()));
      Location L = location(ME->getBase());
      L.Whole = false;
      return L;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref)
        return deref(get(UO->getSubExpr()));
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      Location L;
      L.K = Location::Temporary;
      L.Init = MTE->getSubExpr();
      return L;
    }
    if (const auto *CL = dyn_cast<CompoundLiteralExpr>(E)) {
      Location L;
      L.K = Location::Temporary;
      L.Init = CL->getInitializer();
      return L;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        return location(BO->getRHS());
      if (BO->isAssignmentOp())
        return location(BO->getLHS());
    }
    // Calls returning references and anything else: memory whose address
    // is as uniform as the expression.
    Location L;
    L.Address = get(E);
    L.Address.PerThread = nullptr;
    L.Address.PointsToLocal = nullptr;
    return L;
  }

  UniformityValue read(const Location &L, const Expr *LV) {
    switch (L.K) {
    case Location::Temporary:
      return get(L.Init);
    case Location::Captured:
      return This;
    case Location::Local: {
      UniformityValue V = stateValue(L.Var);
      if (L.Whole)
        return V;
      if (auto It = Cur.Elements.find(L.Var);
          L.Index && It != Cur.Elements.end() && It->second.first == L.Index)
        return It->second.second;
      V = UniformityValue::join(V, L.Address);
      V.PerThread = nullptr;
      V.PointsToLocal = nullptr;
      return V;
    }
    case Location::Memory:
      break;
    }
    if (LV->getType().isVolatileQualified())
      return UniformityValue::varying(Level::Varying,
                                      VarianceSource::VolatileLoad, LV);
    UniformityValue V = uniform(L.ReadOnly ? Level::GridUniform
                                           : Level::BlockUniform);
    if (!L.ReadOnly)
      V.Source = {VarianceSource::MemoryLoad, LV, nullptr};
    if (L.Address.Level > V.Level) {
      V.Level = L.Address.Level;
      V.Source = {VarianceSource::ThreadDependentLoad, LV, nullptr};
      // Threads that load one word load one value (see Uniformity.h), so
      // the lanes that agree on the address agree on the value.
      V.LaneXor = L.Address.laneXor();
      V.WarpInvariant = L.Address.warpInvariant();
    }
    return V;
  }

  void write(const Location &L, UniformityValue V) {
    switch (L.K) {
    case Location::Temporary:
    case Location::Captured:
      return;
    case Location::Local:
      Cur.forgetElements(L.Var);
      if (L.Index)
        Cur.Elements[L.Var] = {L.Index, V};
      if (L.Whole) {
        Cur.Vars[L.Var] = std::move(V);
      } else {
        UniformityValue Old = stateValue(L.Var);
        UniformityValue New =
            UniformityValue::join(Old, UniformityValue::join(V, L.Address));
        New.PerThread = nullptr;
        New.PointsToLocal = Old.PointsToLocal;
        Cur.Vars[L.Var] = std::move(New);
      }
      return;
    case Location::Memory:
      R.Stored = UniformityValue::join(R.Stored, V);
      R.Stored.PerThread = nullptr;
      R.Stored.PointsToLocal = nullptr;
      return;
    }
  }

  /// A store that may or may not happen (through a pointer an unknown
  /// callee received): the variable keeps its old value or gets \p V.
  void mayWrite(const Expr *LV, const UniformityValue &V) {
    Location L = location(LV);
    if (L.K == Location::Local && L.Whole)
      L.Whole = false;
    write(L, V);
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// The value of a subexpression: recorded when the CFG listed it,
  /// computed (without side effects) when it did not.
  UniformityValue get(const Expr *E) {
    if (!E)
      return uniform();
    auto It = R.Values.find(E);
    if (It != R.Values.end())
      return It->second;
    return compute(E, /*Effects=*/false);
  }

  UniformityValue joinChildren(const Stmt *S) {
    UniformityValue V;
    for (const Stmt *C : S->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        V = UniformityValue::join(V, get(CE));
    V.PerThread = nullptr;
    V.PointsToLocal = nullptr;
    return V;
  }

  UniformityValue compute(const Expr *E, bool Effects) {
    if (auto C = constantInt(E))
      return constant(*C);

    if (const auto *PE = dyn_cast<ParenExpr>(E))
      return get(PE->getSubExpr());
    if (const auto *CE = dyn_cast<CastExpr>(E))
      return castValue(CE);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return declRef(DRE);
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
      if (auto V = builtinProperty(PO))
        return *V;
      return get(PO->getResultExpr());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return unary(UO, Effects);
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return binary(BO, Effects);
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      UniformityValue C = get(CO->getCond());
      UniformityValue T = get(CO->getTrueExpr());
      UniformityValue Fv = get(CO->getFalseExpr());
      UniformityValue V = UniformityValue::join(C, UniformityValue::join(T, Fv));
      V.PointsToLocal = T.PointsToLocal == Fv.PointsToLocal ? T.PointsToLocal
                                                            : nullptr;
      if (C.PerThread && T.PerThread && Fv.PerThread)
        return withPerThread(
            V, LaneValue::select(*C.PerThread, *T.PerThread, *Fv.PerThread));
      V.PerThread = nullptr;
      return V;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return call(Call, Effects);
    if (isa<ArraySubscriptExpr>(E))
      return read(location(E), E);
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXMethodDecl>(ME->getMemberDecl()))
        return get(ME->getBase()); // The callee of a member call.
      if (!ME->isGLValue())
        return get(ME->getBase()); // A field of an rvalue aggregate.
      return read(location(E), E);
    }
    if (isa<CXXThisExpr>(E))
      return This;
    if (const auto *L = dyn_cast<LambdaExpr>(E)) {
      UniformityValue V;
      for (const Expr *Init : L->capture_inits())
        if (Init)
          V = UniformityValue::join(V, get(Init));
      V.PerThread = nullptr;
      V.PointsToLocal = nullptr;
      return V;
    }
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      return get(MTE->getSubExpr());
    if (const auto *FE = dyn_cast<FullExpr>(E))
      return get(FE->getSubExpr());
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return get(BT->getSubExpr());
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
      return get(DA->getExpr());
    if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
      return get(DI->getExpr());
    if (const auto *ST = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return get(ST->getReplacement());
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
      return get(OV->getSourceExpr());
    if (const auto *SE = dyn_cast<StmtExpr>(E)) {
      const CompoundStmt *CS = SE->getSubStmt();
      if (!CS->body_empty())
        if (const auto *Last = dyn_cast<Expr>(CS->body_back()))
          return get(Last);
      return uniform();
    }
    if (isa<CompoundLiteralExpr>(E))
      return read(location(E), E);
    // Literals, constructions, initializer lists and anything else: as
    // uniform as their operands.
    return joinChildren(E);
  }

  UniformityValue castValue(const CastExpr *CE) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      return get(Sub);
    case CK_ArrayToPointerDecay: {
      // The address of an array: as uniform as the index that selected it
      // (a row of a 2-D array), pointing into it when it is a local.
      Location L = location(Sub);
      if (L.K == Location::Temporary || L.K == Location::Captured)
        return uniform();
      UniformityValue P = L.Address;
      P.PerThread = nullptr;
      P.PointsToLocal = L.K == Location::Local ? L.Var : nullptr;
      return P;
    }
    case CK_FunctionToPointerDecay:
    case CK_BuiltinFnToFnPtr:
    case CK_NullToPointer:
      return uniform();
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral:
    case CK_NoOp:
      return convert(get(Sub), CE->getType());
    default: {
      UniformityValue V = get(Sub);
      if (!CE->getType()->isPointerType())
        V.PointsToLocal = nullptr;
      return convert(V, CE->getType());
    }
    }
  }

  /// threadIdx.x and friends as clang's CUDA headers spell them: a property
  /// of a builtin struct (the getter is __fetch_builtin_x()).
  std::optional<UniformityValue> builtinVar(StringRef Var, StringRef Field,
                                            const Expr *At) {
    unsigned Axis = llvm::StringSwitch<unsigned>(Field)
                        .Case("x", 0)
                        .Case("y", 1)
                        .Case("z", 2)
                        .Default(3);
    if (Axis == 3)
      return std::nullopt;
    if (Var == "threadIdx") {
      VarianceSource Src{VarianceSource::ThreadIndex, At, nullptr};
      if (G)
        return exact(G->threadIdx(Axis), Src);
      return UniformityValue::varying(Level::Varying, Src.K, At);
    }
    if (Var == "blockDim") {
      if (G)
        return exact(G->blockDim(Axis), {});
      return uniform();
    }
    if (Var == "blockIdx")
      return UniformityValue::varying(Level::BlockUniform,
                                      VarianceSource::BlockIndex, At);
    if (Var == "gridDim")
      return uniform();
    return std::nullopt;
  }

  std::optional<UniformityValue> builtinProperty(const PseudoObjectExpr *PO) {
    const auto *MP = dyn_cast<MSPropertyRefExpr>(
        PO->getSyntacticForm()->IgnoreParens());
    if (!MP)
      return std::nullopt;
    const auto *Base =
        dyn_cast<DeclRefExpr>(MP->getBaseExpr()->IgnoreParenImpCasts());
    if (!Base)
      return std::nullopt;
    return builtinVar(Base->getDecl()->getName(),
                      MP->getPropertyDecl()->getName(), PO);
  }

  UniformityValue declRef(const DeclRefExpr *DRE) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return uniform(); // Functions, enumerators (folded above).
    if (V->getName() == "warpSize" && !V->isLocalVarDeclOrParm())
      return constant(G ? G->warpSize() : 32);
    // The builtin structs as a whole (`uint3 t = threadIdx;`).
    if (!V->isLocalVarDeclOrParm() && V->getType()->isRecordType()) {
      StringRef N = V->getName();
      if (N == "threadIdx")
        return UniformityValue::varying(Level::Varying,
                                        VarianceSource::ThreadIndex, DRE);
      if (N == "blockIdx")
        return UniformityValue::varying(Level::BlockUniform,
                                        VarianceSource::BlockIndex, DRE);
      if (N == "blockDim" || N == "gridDim")
        return uniform();
    }
    return read(location(DRE), DRE);
  }

  UniformityValue unary(const UnaryOperator *UO, bool Effects) {
    const Expr *Sub = UO->getSubExpr();
    switch (UO->getOpcode()) {
    case UO_AddrOf: {
      Location L = location(Sub);
      if (L.K == Location::Local) {
        UniformityValue P = L.Whole ? uniform() : L.Address;
        P.PerThread = nullptr;
        P.PointsToLocal = L.Var;
        return P;
      }
      if (L.K == Location::Memory)
        return L.Address;
      return uniform();
    }
    case UO_Deref:
      return read(location(UO), UO);
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      UniformityValue Old = get(Sub);
      UniformityValue New = Old;
      if (Old.PerThread && UO->getType()->isIntegralOrEnumerationType())
        New = convert(withPerThread(Old, *Old.PerThread +
                                             *constantVector(UO->isIncrementOp()
                                                                 ? 1
                                                                 : -1)),
                      Sub->getType());
      else
        New.PerThread = nullptr;
      if (Effects)
        write(location(Sub), New);
      return UO->isPrefix() ? New : Old;
    }
    case UO_Minus: {
      UniformityValue V = get(Sub);
      if (V.PerThread)
        return convert(withPerThread(V, -*V.PerThread), UO->getType());
      return V;
    }
    case UO_Not: {
      UniformityValue V = get(Sub);
      if (V.PerThread)
        return convert(withPerThread(V, V.PerThread->bitNot()), UO->getType());
      return V;
    }
    case UO_LNot: {
      UniformityValue V = get(Sub);
      if (V.PerThread)
        return withPerThread(V, V.PerThread->logicalNot());
      V.PointsToLocal = nullptr;
      return V;
    }
    default:
      return get(Sub);
    }
  }

  static std::optional<LaneValue::Op> laneOp(BinaryOperatorKind K) {
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

  /// L op R, exactly per thread when both sides are known per thread.
  UniformityValue arith(BinaryOperatorKind K, const UniformityValue &L,
                        const UniformityValue &Rv, QualType OperandTy,
                        QualType ResultTy) {
    UniformityValue V = UniformityValue::join(L, Rv);
    // Pointer arithmetic keeps pointing into the same local variable.
    V.PointsToLocal = L.PointsToLocal ? L.PointsToLocal : Rv.PointsToLocal;
    if (!L.PerThread || !Rv.PerThread ||
        !ResultTy->isIntegralOrEnumerationType() ||
        !OperandTy->isIntegralOrEnumerationType()) {
      V.PerThread = nullptr;
      return V;
    }
    V.PointsToLocal = nullptr;
    LaneValue Out;
    switch (K) {
    case BO_Add: case BO_AddAssign: Out = *L.PerThread + *Rv.PerThread; break;
    case BO_Sub: case BO_SubAssign: Out = *L.PerThread - *Rv.PerThread; break;
    case BO_Mul: case BO_MulAssign: Out = *L.PerThread * *Rv.PerThread; break;
    default: {
      auto Op = laneOp(K);
      if (!Op) {
        V.PerThread = nullptr;
        return V;
      }
      Out = LaneValue::apply(*Op, *L.PerThread, *Rv.PerThread,
                             OperandTy->isUnsignedIntegerOrEnumerationType());
      break;
    }
    }
    return convert(withPerThread(V, std::move(Out)), ResultTy);
  }

  UniformityValue binary(const BinaryOperator *BO, bool Effects) {
    BinaryOperatorKind K = BO->getOpcode();
    const Expr *LHS = BO->getLHS(), *RHS = BO->getRHS();
    if (K == BO_Comma)
      return get(RHS);
    if (K == BO_Assign) {
      UniformityValue V = convert(get(RHS), LHS->getType());
      if (Effects)
        write(location(LHS), V);
      return V;
    }
    if (BO->isCompoundAssignmentOp()) {
      const auto *CAO = cast<CompoundAssignOperator>(BO);
      UniformityValue V =
          arith(K, convert(get(LHS), CAO->getComputationLHSType()),
                convert(get(RHS), CAO->getComputationLHSType()),
                CAO->getComputationLHSType(), CAO->getComputationResultType());
      V = convert(V, LHS->getType());
      butterfly(BO, V);
      if (Effects)
        write(location(LHS), V);
      return V;
    }
    UniformityValue V = arith(K, get(LHS), get(RHS), LHS->getType(), BO->getType());
    butterfly(BO, V);
    return V;
  }

  //===--------------------------------------------------------------------===//
  // Calls
  //===--------------------------------------------------------------------===//

  /// The mask argument of a *_sync primitive names the whole warp.
  bool fullMask(const Expr *Mask) {
    if (!Mask)
      return true;
    if (auto C = constantInt(Mask->IgnoreParenImpCasts()))
      return uint32_t(*C) == 0xffffffffu;
    if (auto C = constantInt(Mask))
      return uint32_t(*C) == 0xffffffffu;
    return false;
  }

  /// Cooperative groups' queries, by class and method name.
  std::optional<UniformityValue> cooperativeGroups(const CallExpr *Call) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    if (!MC)
      return std::nullopt;
    const CXXRecordDecl *RD = MC->getRecordDecl();
    if (!RD || !RD->getDeclName().isIdentifier())
      return std::nullopt;
    StringRef Rec = RD->getName();
    std::string M = calleeName(Call);
    VarianceSource Rank{VarianceSource::ThreadRank, Call, nullptr};
    if (Rec == "thread_block" || Rec == "thread_group") {
      if (M == "thread_rank") {
        if (G && Rec == "thread_block")
          return exact(G->linearId(), Rank);
        return UniformityValue::varying(Level::Varying, Rank.K, Call);
      }
      if (M == "size" || M == "num_threads")
        return G && Rec == "thread_block" ? constant(G->threads()) : uniform();
      if (M == "group_index")
        return UniformityValue::varying(Level::BlockUniform,
                                        VarianceSource::BlockIndex, Call);
      if (M == "thread_index")
        return UniformityValue::varying(Level::Varying,
                                        VarianceSource::ThreadIndex, Call);
      if (M == "group_dim" || M == "dim_threads")
        return uniform();
      return std::nullopt;
    }
    if (Rec == "grid_group") {
      if (M == "thread_rank" || M == "thread_index")
        return UniformityValue::varying(Level::Varying, Rank.K, Call);
      if (M == "block_rank" || M == "block_index")
        return UniformityValue::varying(Level::BlockUniform,
                                        VarianceSource::BlockIndex, Call);
      if (M == "size" || M == "num_threads" || M == "num_blocks" ||
          M == "is_valid" || M == "dim_blocks")
        return uniform();
      return std::nullopt;
    }
    if (Rec == "coalesced_group") {
      if (M == "thread_rank" || M == "size" || M == "num_threads")
        return UniformityValue::varying(Level::Varying, Rank.K, Call);
      return std::nullopt;
    }
    if (Rec != "thread_block_tile")
      return std::nullopt;
    unsigned Size = tileSizeOf(RD);
    if (M == "thread_rank") {
      if (G && Size)
        return exact(LaneValue::apply(LaneValue::Op::Rem, G->linearId(),
                                      *constantVector(Size)),
                     Rank);
      return UniformityValue::varying(Level::Varying, Rank.K, Call);
    }
    if (M == "meta_group_rank") {
      if (G && Size)
        return exact(LaneValue::apply(LaneValue::Op::Div, G->linearId(),
                                      *constantVector(Size)),
                     Rank);
      return UniformityValue::varying(Level::Varying, Rank.K, Call);
    }
    if (M == "size" || M == "num_threads")
      return Size ? constant(Size) : uniform();
    if (M == "meta_group_size")
      return uniform();
    auto ArgValue = [&](unsigned I) {
      return I < Call->getNumArgs() ? get(Call->getArg(I)) : uniform();
    };
    if (M == "any" || M == "all" || M == "ballot" || M == "match_all")
      return groupCollective(Size, ArgValue(0), Call);
    if (M == "shfl" || M == "shfl_down" || M == "shfl_up" || M == "shfl_xor") {
      UniformityValue V = ArgValue(0);
      V.PerThread = nullptr;
      if (V.Level <= Level::WarpUniform)
        return V;
      return laneExchange(M == "shfl"       ? Exchange::Index
                          : M == "shfl_xor" ? Exchange::Xor
                                            : Exchange::Shift,
                          V, ArgValue(1), Size, Call);
    }
    return std::nullopt;
  }

  /// `cg::reduce(tile, v, op)`: one result per tile.
  std::optional<UniformityValue> groupReduce(const CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || isa<CXXMethodDecl>(FD) || calleeName(Call) != "reduce" ||
        Call->getNumArgs() != 3)
      return std::nullopt;
    bool InGroups = false;
    for (const DeclContext *DC = FD->getDeclContext(); DC && !InGroups;
         DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        InGroups = NS->getDeclName().isIdentifier() &&
                   NS->getName() == "cooperative_groups";
    if (!InGroups)
      return std::nullopt;
    const CXXRecordDecl *RD =
        Call->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
    unsigned Size = RD && RD->getDeclName().isIdentifier() &&
                            RD->getName() == "thread_block_tile"
                        ? tileSizeOf(RD)
                        : 0;
    return groupCollective(Size, get(Call->getArg(1)), Call);
  }

  /// A collective over groups of \p Size consecutive lanes (a warp, a tile;
  /// 0: not known) in which every lane takes part: one result per group,
  /// and the same result in every group when \p Operand is warp-invariant,
  /// since each group then combines the same values.
  UniformityValue groupCollective(unsigned Size, const UniformityValue &Operand,
                                  const CallExpr *Call) {
    unsigned Warp = G ? G->warpSize() : 32;
    UniformityValue V = UniformityValue::varying(
        Size >= Warp ? Level::WarpUniform : Level::Varying,
        VarianceSource::WarpCollective, Call);
    if (Size > 1 && Size < Warp && Size < 32 && llvm::isPowerOf2_32(Size))
      V.LaneXor = (uint32_t(1) << Size) - 1; // Lanes l and l ^ d, d < Size.
    bool Tiles = Size && G &&
                 (Size <= Warp ? Warp % Size == 0
                               : Size % Warp == 0 && G->threads() % Size == 0);
    V.WarpInvariant = Tiles && UA.completeWarps() && Operand.warpInvariant();
    V.normalize();
    return V;
  }

  enum class Exchange { Index, Shift, Xor };

  /// Lane l gets \p Var from the lane \p Lane selects, among groups of
  /// \p Width lanes that all take part (0: some may not). Lanes that agree
  /// on the selector agree on the result (an index; for xor, those that
  /// also agree on the value); in whole warps, a warp-invariant value and
  /// selector give a warp-invariant result.
  UniformityValue laneExchange(Exchange X, const UniformityValue &Var,
                               const UniformityValue &Lane, int64_t Width,
                               const CallExpr *Call) {
    UniformityValue V = UniformityValue::varying(
        Level::Varying, VarianceSource::LaneExchange, Call);
    if (Width <= 0 || !llvm::isPowerOf2_64(uint64_t(Width)))
      return V;
    // Lanes l and l ^ d are in one group when d < Width.
    uint32_t InGroup = Width >= 32 ? ~0u : (uint32_t(1) << Width) - 1;
    if (X == Exchange::Index)
      V.LaneXor = Lane.laneXor() & InGroup;
    else if (X == Exchange::Xor)
      V.LaneXor = Var.laneXor() & Lane.laneXor();
    V.WarpInvariant = UA.completeWarps() && Var.warpInvariant() &&
                      Lane.warpInvariant();
    V.normalize();
    return V;
  }

  /// A butterfly step (Butterfly.h) with a constant offset: lanes l and
  /// l ^ offset now agree too.
  void butterfly(const Expr *E, UniformityValue &V) {
    // LaneXor holds the offsets of a warp of 32.
    if (V.Level <= Level::WarpUniform || (G && G->warpSize() != 32))
      return;
    auto S = matchButterflyStep(E, Ctx, G ? G->warpSize() : 32);
    if (!S)
      return;
    auto O = constantInt(S->Offset);
    if (!O || *O <= 0 || *O >= S->Width || *O >= 32)
      return;
    V.LaneXor = closeLaneXor(V.laneXor(), unsigned(*O));
    Level Before = V.Level;
    V.normalize();
    if (V.Level < Before)
      V.Source = {VarianceSource::WarpCollective, E, nullptr};
  }

  /// CUDA's builtins and intrinsics, by name.
  std::optional<UniformityValue> builtinCall(const CallExpr *Call,
                                             StringRef Name) {
    // The getters behind threadIdx.x & co.
    if (Name.starts_with("__fetch_builtin_"))
      if (const auto *MD =
              dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
        if (const CXXRecordDecl *RD = MD->getParent()) {
          StringRef Rec = RD->getName();
          if (Rec.consume_front("__cuda_builtin_") && Rec.consume_back("_t"))
            return builtinVar(Rec, Name.drop_front(16), Call);
        }
    if (Name.consume_front("__nvvm_read_ptx_sreg_")) {
      static const struct {
        const char *Prefix, *Var;
      } Map[] = {{"tid_", "threadIdx"},
                 {"ntid_", "blockDim"},
                 {"ctaid_", "blockIdx"},
                 {"nctaid_", "gridDim"}};
      for (const auto &M : Map)
        if (Name.starts_with(M.Prefix))
          return builtinVar(M.Var, Name.drop_front(strlen(M.Prefix)), Call);
      if (Name == "laneid") {
        VarianceSource Src{VarianceSource::ThreadIndex, Call, nullptr};
        if (G)
          return exact(G->laneId(), Src);
        return UniformityValue::varying(Level::Varying, Src.K, Call);
      }
      if (Name == "warpsize")
        return constant(G ? G->warpSize() : 32);
      if (Name == "warpid")
        return UniformityValue::varying(Level::WarpUniform,
                                        VarianceSource::ThreadIndex, Call);
      if (Name == "smid" || Name == "nsmid")
        return UniformityValue::varying(Level::BlockUniform,
                                        VarianceSource::Opaque, Call);
      return UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                      Call);
    }
    auto Arg = [&](unsigned I) -> const Expr * {
      return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
    };
    // Block-wide reductions: every thread of the block gets one result.
    if (cuda::isBlockReduction(Name))
      return UniformityValue::varying(Level::BlockUniform,
                                      VarianceSource::BlockCollective, Call);
    std::optional<cuda::Collective> Coll = cuda::collectiveOf(Name);
    // Warp votes: one result per warp when every lane takes part.
    if (Coll && Coll->sameInEveryLane()) {
      // The legacy forms act on the lanes that happen to be active.
      if (!Coll->Sync)
        return groupCollective(G ? G->warpSize() : 32, get(Arg(0)), Call);
      if (fullMask(Arg(0)))
        return groupCollective(G ? G->warpSize() : 32, get(Arg(1)), Call);
      return UniformityValue::varying(Level::Varying,
                                      VarianceSource::WarpCollective, Call);
    }
    if (cuda::isLaneMaskQuery(Name) ||
        (Coll && Coll->Op == cuda::CollectiveOp::MatchAny))
      return UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                      Call);
    // Shuffles: a broadcast from one lane of a full warp is warp-uniform; a
    // value already warp-uniform stays so under any permutation.
    if (Coll && Coll->isShuffle()) {
      bool Sync = Coll->Sync;
      unsigned First = Sync ? 1 : 0;
      UniformityValue V = get(Arg(First));
      V.PerThread = nullptr;
      if (V.Level <= Level::WarpUniform)
        return V;
      bool Full = !Sync || fullMask(Arg(0));
      const Expr *Width = Arg(First + 2);
      int64_t Lanes = G ? G->warpSize() : 32;
      if (Width && !isa<CXXDefaultArgExpr>(Width)) {
        auto W = constantInt(Width->IgnoreParenImpCasts());
        Lanes = W ? *W : 0;
      }
      return laneExchange(Coll->Op == cuda::CollectiveOp::Shuffle
                              ? Exchange::Index
                          : Coll->Op == cuda::CollectiveOp::ShuffleXor
                              ? Exchange::Xor
                              : Exchange::Shift,
                          V, get(Arg(First + 1)), Full ? Lanes : 0, Call);
    }
    if (Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
        Name.starts_with("__atomic") || Name.starts_with("__hip_atomic") ||
        Name.starts_with("__nv_atomic") || Name.starts_with("__cuda_atomic"))
      return UniformityValue::varying(Level::Varying, VarianceSource::Atomic,
                                      Call);
    if (Name == "clock" || Name == "clock64" || Name == "__clock" ||
        Name == "__globaltimer" || Name == "__nvvm_read_ptx_sreg_clock")
      return UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                      Call);
    // Loads through the read-only or cache-hinted paths.
    if (Name == "__ldg" || Name == "__ldcg" || Name == "__ldca" ||
        Name == "__ldcs" || Name == "__ldlu" || Name == "__ldcv") {
      Location L;
      L.Address = get(Arg(0));
      L.Address.PointsToLocal = nullptr;
      L.Address.PerThread = nullptr;
      L.ReadOnly = Name == "__ldg";
      return read(L, Call);
    }
    if ((Name == "min" || Name == "max" || Name == "umin" || Name == "umax") &&
        Call->getNumArgs() == 2) {
      UniformityValue A = get(Arg(0)), B = get(Arg(1));
      UniformityValue V = UniformityValue::join(A, B);
      V.PointsToLocal = nullptr;
      if (A.PerThread && B.PerThread &&
          Call->getType()->isIntegralOrEnumerationType())
        return convert(withPerThread(V, LaneValue::apply(
                                            Name.ends_with("min")
                                                ? LaneValue::Op::Min
                                                : LaneValue::Op::Max,
                                            *A.PerThread, *B.PerThread)),
                       Call->getType());
      V.PerThread = nullptr;
      return V;
    }
    return std::nullopt;
  }

  UniformityValue call(const CallExpr *Call, bool Effects) {
    std::string NameStr = calleeName(Call);
    StringRef Name = NameStr;
    if (auto V = builtinCall(Call, Name)) {
      butterfly(Call, *V);
      return *V;
    }
    if (auto V = cooperativeGroups(Call))
      return *V;
    if (auto V = groupReduce(Call))
      return *V;
    if (cuda::isBarrierName(Name))
      return uniform();

    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
    bool OperatorMethod = OC && isa_and_nonnull<CXXMethodDecl>(Callee);
    unsigned Shift = OperatorMethod ? 1 : 0;

    // Assignment operators of classes, trivial or not, assign.
    if (OperatorMethod && OC->isAssignmentOp() && OC->getNumArgs() == 2 &&
        OC->getOperator() == OO_Equal) {
      UniformityValue V = get(OC->getArg(1));
      V.PerThread = nullptr;
      if (Effects)
        write(location(OC->getArg(0)), V);
      return V;
    }

    // The calls the walker inlines (followedCallee()): not a device-side
    // kernel launch, which starts another grid.
    if (const FunctionDecl *Def = followedCallee(Call, Ctx))
      return inlineCall(Call, Def, Shift, Effects);

    // A callee the analysis does not see into: as uniform as what it is
    // given; whatever it may write through pointers to locals becomes as
    // uniform as all of that.
    UniformityValue V;
    if (!Callee)
      V = get(Call->getCallee());
    if (MC)
      V = UniformityValue::join(V, get(MC->getImplicitObjectArgument()));
    for (const Expr *A : Call->arguments())
      V = UniformityValue::join(V, get(A));
    V.PerThread = nullptr;
    V.PointsToLocal = nullptr;
    if (Effects)
      writeThroughArguments(Call, Callee, Shift, V);
    if (!Callee)
      V = UniformityValue::join(
          V, UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                      Call));
    butterfly(Call, V); // fmaxf(m, __shfl_xor_sync(~0u, m, 16))
    return V;
  }

  /// Locals an unknown callee may write: `&x`, local arrays, non-const
  /// references, the object of a non-const method.
  void writeThroughArguments(const CallExpr *Call, const FunctionDecl *Callee,
                             unsigned Shift, const UniformityValue &V) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && !MD->isConst())
        mayWrite(MC->getImplicitObjectArgument(), V);
    if (Shift == 1 && Call->getNumArgs() > 0)
      if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
          MD && !MD->isConst())
        mayWrite(Call->getArg(0), V);
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
      const Expr *A = Call->getArg(I);
      UniformityValue P = get(A);
      if (P.PointsToLocal) {
        Location L;
        L.K = Location::Local;
        L.Var = P.PointsToLocal;
        write(L, V);
        continue;
      }
      unsigned Param = I - Shift;
      if (Callee && Param < Callee->getNumParams()) {
        QualType T = Callee->getParamDecl(Param)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          mayWrite(A, V);
      }
    }
  }

  UniformityValue inlineCall(const CallExpr *Call, const FunctionDecl *Def,
                             unsigned Shift, bool Effects) {
    std::vector<ArgumentContext> CallArgs;
    std::vector<const Expr *> ByRef; // Caller lvalues to write back.
    for (unsigned I = 0; I < Def->getNumParams(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      const Expr *A = I + Shift < Call->getNumArgs() ? Call->getArg(I + Shift)
                                                     : P->getDefaultArg();
      ArgumentContext AC;
      if (!A) {
        CallArgs.push_back(AC);
        ByRef.push_back(nullptr);
        continue;
      }
      if (P->getType()->isReferenceType()) {
        Location L = location(A);
        if (L.K == Location::Local && L.Whole) {
          AC.Value = stateValue(L.Var);
          AC.ByReferenceToLocal = true;
          ByRef.push_back(A);
        } else {
          AC.Value = L.K == Location::Temporary ? get(L.Init) : L.Address;
          ByRef.push_back(nullptr);
        }
      } else {
        AC.Value = convert(get(A), P->getType());
        ByRef.push_back(nullptr);
      }
      AC.Value.PointsToLocal = nullptr;
      CallArgs.push_back(std::move(AC));
    }
    UniformityValue Object;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      Object = get(MC->getImplicitObjectArgument());
    else if (Shift == 1)
      Object = get(Call->getArg(0));
    Object.PerThread = nullptr;
    Object.PointsToLocal = nullptr;

    const FunctionUniformity *Sub =
        UA.analyzeFunction(Def, CallArgs, Object, Depth + 1);
    R.Callees[Call] = Sub;
    if (!Sub) {
      // Too deep or recursive: nothing is known of the result.
      UniformityValue V = UniformityValue::varying(
          Level::Varying, VarianceSource::Opaque, Call);
      if (Effects)
        writeThroughArguments(Call, Def, Shift, V);
      return V;
    }
    if (Effects) {
      for (unsigned I = 0; I < ByRef.size(); ++I)
        if (ByRef[I] && I < Sub->ParamsAtExit.size())
          write(location(ByRef[I]), Sub->ParamsAtExit[I]);
      // Pointers to locals: whatever the callee stores anywhere.
      for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
        UniformityValue P = get(Call->getArg(I));
        if (P.PointsToLocal) {
          Location L;
          L.K = Location::Local;
          L.Var = P.PointsToLocal;
          write(L, Sub->Stored);
        }
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
        if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && !MD->isConst())
          mayWrite(MC->getImplicitObjectArgument(), Sub->Stored);
      R.Stored = UniformityValue::join(R.Stored, Sub->Stored);
    }
    UniformityValue V = Sub->Ret;
    V.PointsToLocal = nullptr;
    return convert(V, Call->getType());
  }

  //===--------------------------------------------------------------------===//
  // Statements and blocks
  //===--------------------------------------------------------------------===//

  void declare(const VarDecl *V) {
    if (!isTrackedLocal(V, F))
      return;
    Cur.forgetElements(V);
    const Expr *Init = V->getInit();
    if (V->getType()->isReferenceType()) {
      if (!Init)
        return;
      Location L = location(Init);
      if (L.K == Location::Local && L.Whole) {
        RefAlias[V] = L.Var;
        return;
      }
      UniformityValue P = L.K == Location::Temporary ? uniform() : L.Address;
      P.PointsToLocal = L.K == Location::Local ? L.Var : nullptr;
      Cur.Vars[V] = P;
      return;
    }
    Cur.Vars[V] = Init ? convert(get(Init), V->getType()) : uniform();
  }

  void visit(const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S)) {
      R.Values[E] = compute(E, /*Effects=*/true);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          declare(V);
      return;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      Cur.Ret = RS->getRetValue() ? get(RS->getRetValue()) : uniform();
      Cur.Ret.PointsToLocal = nullptr;
      return;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      for (const Expr *O : Asm->outputs())
        write(location(O), UniformityValue::varying(
                               Level::Varying, VarianceSource::Opaque, Asm));
      return;
    }
  }

  /// The state on entry to \p B: its predecessors' states merged, then the
  /// variables assigned under divergent branches that join here raised,
  /// less the locals whose scope has ended (see pruneOutOfScope).
  State entryState(const CFGBlock *B) {
    State In = joinedEntryState(B);
    if (In.Reached)
      pruneOutOfScope(B, In);
    return In;
  }

  /// Locals whose scope \p B is not in cannot be read there or after it
  /// until their declaration runs again: drop them. Without this every
  /// state carries every local declared so far, and a long kernel of
  /// scoped blocks costs O(blocks x locals).
  void pruneOutOfScope(const CFGBlock *B, State &In) {
    unsigned ID = B->getBlockID();
    if (!Sk.PruneAt.test(ID))
      return;
    const auto &Open = Sk.OpenScopes[ID];
    llvm::SmallVector<const VarDecl *, 8> Dead;
    for (const auto &KV : In.Vars) {
      auto It = Sk.ScopeOf.find(KV.first);
      if (It != Sk.ScopeOf.end() && !Open.count(It->second))
        Dead.push_back(KV.first);
    }
    for (const VarDecl *V : Dead) {
      In.Vars.erase(V);
      In.forgetElements(V);
    }
  }

  State joinedEntryState(const CFGBlock *B) {
    State In;
    if (B == &Sk.Cfg->getEntry()) {
      In.Reached = true;
      for (unsigned I = 0; I < F->getNumParams(); ++I) {
        const ParmVarDecl *P = F->getParamDecl(I);
        ArgumentContext A = I < Args.size() ? Args[I] : ArgumentContext();
        In.Vars[P] = A.Value;
        if (A.ByReferenceToLocal)
          StorageParams.insert(P);
      }
      return In;
    }
    for (const CFGBlock::AdjacentBlock &P : B->preds())
      if (const CFGBlock *PB = P.getReachableBlock()) {
        const FunctionSkeleton::ButterflyExit *BE = nullptr;
        for (const auto &X : Sk.Butterflies)
          if (X.From == PB && X.To == B)
            BE = &X;
        if (!BE || (G && G->warpSize() != 32)) {
          In.joinWith(Out[PB->getBlockID()]);
          continue;
        }
        State Done = Out[PB->getBlockID()];
        for (const ButterflyLoop::Var &BV : BE->Vars) {
          auto It = Done.Vars.find(BV.V);
          if (It == Done.Vars.end())
            continue;
          UniformityValue &V = It->second;
          uint32_t M = V.laneXor();
          for (unsigned D = 1; D < 32; ++D)
            if ((BV.LaneXor >> D) & 1)
              M = closeLaneXor(M, D);
          Level Before = V.Level;
          V.LaneXor = M;
          V.normalize();
          if (V.Level < Before)
            V.Source = {VarianceSource::WarpCollective, BV.Step, nullptr};
        }
        In.joinWith(Done);
      }
    if (!In.Reached)
      return In;
    for (unsigned BI : Sk.JoinOf[B->getBlockID()]) {
      const BranchInfo &Br = Sk.Branches[BI];
      const UniformityValue &C = R.BranchValues[BI];
      if (C.Level == Level::GridUniform)
        continue;
      bool Exit = Br.LeavesLoop && Br.Loop;
      for (const VarDecl *V : Sk.BranchDefs[BI]) {
        In.forgetElements(V);
        UniformityValue Taint = uniform(C.Level);
        // Threads that agree on the condition take the same path: lanes of
        // every warp under a warp-invariant one, lanes l and l ^ d under one
        // symmetric in d.
        Taint.WarpInvariant = C.warpInvariant();
        Taint.LaneXor = C.laneXor();
        Taint.Source = {Exit ? VarianceSource::DivergentLoopExit
                             : VarianceSource::DivergentAssignment,
                        Exit && Br.Loop ? Br.Loop : Br.Construct, V};
        auto [It, New] = In.Vars.try_emplace(V, Taint);
        if (!New)
          It->second = UniformityValue::join(It->second, Taint);
      }
      if (Br.ReturnsInRegion) {
        UniformityValue Taint = uniform(C.Level);
        Taint.WarpInvariant = C.warpInvariant();
        Taint.LaneXor = C.laneXor();
        Taint.Source = {VarianceSource::DivergentAssignment, Br.Construct,
                        nullptr};
        In.Ret = UniformityValue::join(In.Ret, Taint);
      }
    }
    return In;
  }

  void transfer(const CFGBlock *B) {
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>())
        visit(CS->getStmt());
  }

  UniformityValue branchCondition(const BranchInfo &Br) {
    UniformityValue V = get(Br.Condition);
    V.PointsToLocal = nullptr;
    return V;
  }
};

void FunctionAnalyzer::finalPass() {
  R.Values.clear();
  R.Callees.clear();
  R.Stored = UniformityValue();
  for (const CFGBlock *B : Sk.RPO) {
    Cur = entryState(B);
    if (!Cur.Reached)
      continue;
    transfer(B);
    int BI = Sk.BranchOfBlock[B->getBlockID()];
    if (BI >= 0)
      R.BranchValues[BI] =
          UniformityValue::join(R.BranchValues[BI],
                                branchCondition(Sk.Branches[BI]));
  }
}

void FunctionAnalyzer::run() {
  unsigned N = Sk.Cfg->getNumBlockIDs();
  Out.assign(N, State());
  R.BranchValues.assign(Sk.Branches.size(), UniformityValue());

  // Every step raises a variable's level, drops a per-thread value, or
  // raises a branch; the default cap only guards against a bug.
  unsigned Cap = UA.StepCap ? UA.StepCap
                            : 64 * (N + 8) * (Sk.Branches.size() + 8);
  // Whether some block was analysed twice; if not, the one pass went in
  // reverse post-order from states that did not change afterwards, and it
  // is the final pass below (kept with the condition each branch tested).
  llvm::BitVector Visited(N);
  bool Revisited = false;
  std::vector<std::optional<UniformityValue>> Tested(Sk.Branches.size());
  // Reverse post-order: a block is visited after its forward predecessors,
  // and back edges put loop headers back on the list.
  FixpointRun Run = runToFixpoint(
      *Sk.Graph, Cap, [&](const CFGBlock *B, BlockWorklist &Work) {
        Cur = entryState(B);
        if (!Cur.Reached)
          return;
        Revisited |= Visited.test(B->getBlockID());
        Visited.set(B->getBlockID());
        transfer(B);
        int BI = Sk.BranchOfBlock[B->getBlockID()];
        if (BI >= 0) {
          UniformityValue C = branchCondition(Sk.Branches[BI]);
          Tested[BI] = C;
          UniformityValue &Old = R.BranchValues[BI];
          if (C.Level > Old.Level) {
            Old = UniformityValue::join(Old, C);
            for (const CFGBlock *J : Sk.Branches[BI].Joins)
              Work.push(J);
          }
        }
        State &O = Out[B->getBlockID()];
        if (!Cur.sameAs(O)) {
          O = std::move(Cur);
          for (const CFGBlock::AdjacentBlock &S : B->succs())
            Work.push(S.getReachableBlock());
        }
      });
  R.Steps = Run.Steps;

  // The final pass: every block once more from its converged entry state,
  // recording what clients query. Loop-free functions (most callees, many
  // kernels) need none: their one pass saw the converged states already.
  if (!Revisited && Run.converged()) {
    for (unsigned BI = 0; BI < Tested.size(); ++BI)
      if (Tested[BI])
        R.BranchValues[BI] =
            UniformityValue::join(R.BranchValues[BI], *Tested[BI]);
  } else {
    finalPass();
  }
  // A callee cut off at its cap makes this result as doubtful as its own.
  R.Converged = Run.converged();
  for (const auto &KV : R.Callees)
    if (KV.second && !KV.second->converged())
      R.Converged = false;
  State ExitIn = Sk.reachable(&Sk.Cfg->getExit())
                     ? entryState(&Sk.Cfg->getExit())
                     : State();
  R.Ret = ExitIn.Ret;
  R.ParamsAtExit.clear();
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    auto It = ExitIn.Vars.find(F->getParamDecl(I));
    R.ParamsAtExit.push_back(It == ExitIn.Vars.end() ? UniformityValue()
                                                     : It->second);
  }
}

//===----------------------------------------------------------------------===//
// Queries and the memo
//===----------------------------------------------------------------------===//

const FunctionDecl *FunctionUniformity::function() const {
  return Skeleton->F;
}
const CFG &FunctionUniformity::cfg() const { return *Skeleton->Cfg; }
const ParentMap &FunctionUniformity::parents() const {
  return *Skeleton->Parents;
}

const UniformityValue *FunctionUniformity::value(const Expr *E) const {
  auto It = Values.find(E);
  if (It == Values.end()) {
    It = Values.find(E->IgnoreParens());
    if (It == Values.end())
      return nullptr;
  }
  return &It->second;
}

UniformityLevel FunctionUniformity::level(const Expr *E) const {
  const UniformityValue *V = value(E);
  return V ? V->Level : UniformityLevel::Varying;
}

UniformityLevel FunctionUniformity::addressLevel(const Expr *E) const {
  E = E->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return std::max(level(ASE->getBase()), level(ASE->getIdx()));
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? level(ME->getBase()) : addressLevel(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return level(UO->getSubExpr());
  if (isa<DeclRefExpr>(E))
    return UniformityLevel::GridUniform; // The variable itself.
  return UniformityLevel::Varying;
}

llvm::ArrayRef<BranchInfo> FunctionUniformity::branches() const {
  if (!Skeleton)
    return {};
  return Skeleton->Branches;
}

const UniformityValue &
FunctionUniformity::conditionValue(const BranchInfo &B) const {
  return BranchValues[&B - Skeleton->Branches.data()];
}

llvm::ArrayRef<const CFGBlock *> FunctionUniformity::blocks() const {
  if (!Skeleton)
    return {};
  return Skeleton->RPO;
}

const CFGBlock *FunctionUniformity::blockOf(const Stmt *S) const {
  if (!Skeleton)
    return nullptr;
  auto It = Skeleton->StmtBlock.find(S);
  return It == Skeleton->StmtBlock.end() ? nullptr : It->second;
}

llvm::SmallVector<const BranchInfo *, 4>
FunctionUniformity::controllingBranches(const Stmt *S,
                                        UniformityLevel Min) const {
  llvm::SmallVector<const BranchInfo *, 4> Out;
  const CFGBlock *B = blockOf(S);
  if (!B)
    return Out;
  for (unsigned I = 0; I < Skeleton->Branches.size(); ++I) {
    const BranchInfo &Br = Skeleton->Branches[I];
    if (BranchValues[I].Level >= Min && Br.Region.test(B->getBlockID()))
      Out.push_back(&Br);
  }
  // Innermost first; ties in program order (branches are in RPO).
  llvm::sort(Out, [](const BranchInfo *A, const BranchInfo *B) {
    unsigned CA = A->Region.count(), CB = B->Region.count();
    return CA != CB ? CA < CB : A < B;
  });
  return Out;
}

const FunctionUniformity *
FunctionUniformity::callee(const CallExpr *Call) const {
  auto It = Callees.find(Call);
  return It == Callees.end() ? nullptr : It->second;
}

UniformityAnalysis::UniformityAnalysis(ASTContext &Ctx,
                                       const ThreadGeometry *Geometry,
                                       unsigned InlineDepth,
                                       ProgramCFGs *Graphs)
    : Ctx(Ctx), Geometry(Geometry), InlineDepth(InlineDepth),
      OwnGraphs(Graphs ? nullptr : std::make_unique<ProgramCFGs>(Ctx)),
      Graphs(Graphs ? *Graphs : *OwnGraphs) {}

UniformityAnalysis::~UniformityAnalysis() = default;

UniformityLevel UniformityAnalysis::levelOf(const LaneValue &V) const {
  if (!V.isConcrete())
    return UniformityLevel::Varying;
  if (V.isUniform())
    return UniformityLevel::GridUniform;
  if (!Geometry || V.size() != Geometry->threads())
    return UniformityLevel::Varying;
  for (unsigned W = 0; W < Geometry->warps(); ++W)
    if (!V.isUniform(Geometry->warpBegin(W), Geometry->warpEnd(W)))
      return UniformityLevel::Varying;
  return UniformityLevel::WarpUniform;
}

bool UniformityAnalysis::warpInvariant(const LaneValue &V) const {
  if (!V.isConcrete() || !Geometry || V.size() != Geometry->threads())
    return false;
  unsigned WS = Geometry->warpSize();
  std::vector<int64_t> First(WS);
  return V.constants().forEachWhile([&](unsigned T, int64_t X) {
    if (T < WS) {
      First[T] = X;
      return true;
    }
    return X == First[T % WS];
  });
}

bool UniformityAnalysis::completeWarps() const {
  return Geometry && Geometry->threads() % Geometry->warpSize() == 0;
}

const FunctionSkeleton *UniformityAnalysis::skeleton(const FunctionDecl *F) {
  auto [It, New] = Skeletons.try_emplace(F);
  if (New)
    if (const KernelCFG *K = Graphs.get(F))
      It->second = buildSkeleton(F, *K, Ctx,
                                 Geometry ? Geometry->warpSize() : 32);
  return It->second.get();
}

const FunctionUniformity &
UniformityAnalysis::analyzeKernel(const FunctionDecl *Kernel) {
  std::vector<ArgumentContext> Args(Kernel->getNumParams());
  const FunctionUniformity *R =
      analyzeFunction(Kernel, Args, UniformityValue(), 0);
  if (R)
    return *R;
  // No CFG: an empty result whose queries are all conservative.
  auto &Slot = Memos[Kernel];
  Slot.push_back(Memo{Args, UniformityValue(),
                      std::make_unique<FunctionUniformity>()});
  return *Slot.back().Result;
}

const FunctionUniformity *
UniformityAnalysis::analyzeFunction(const FunctionDecl *F,
                                    llvm::ArrayRef<ArgumentContext> Args,
                                    const UniformityValue &This,
                                    unsigned Depth) {
  if (!F || Depth > InlineDepth ||
      std::find(InProgress.begin(), InProgress.end(), F) != InProgress.end())
    return nullptr;
  auto &List = Memos[F];
  for (const Memo &M : List) {
    if (!M.This.sameAs(This) || M.Args.size() != Args.size())
      continue;
    bool Same = true;
    for (unsigned I = 0; I < Args.size() && Same; ++I)
      Same = M.Args[I].sameAs(Args[I]);
    if (Same)
      return M.Result.get();
  }
  const FunctionSkeleton *Sk = skeleton(F);
  if (!Sk)
    return nullptr;
  auto Result = std::make_unique<FunctionUniformity>();
  Result->Skeleton = Sk;
  InProgress.push_back(F);
  FunctionAnalyzer(*this, *Sk, *Result, Args, This, Depth).run();
  InProgress.pop_back();
  // The analysis of F may have analysed other functions and grown the memo.
  auto &Slot = Memos[F];
  Slot.push_back(Memo{std::vector<ArgumentContext>(Args.begin(), Args.end()),
                      This, std::move(Result)});
  return Slot.back().Result.get();
}

} // namespace shmem
