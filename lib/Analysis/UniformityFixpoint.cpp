//===- UniformityFixpoint.cpp - Statements, blocks and the fixpoint -------===//
//
// A function's skeleton (what the analysis needs beside the graph),
// the transfer of statements, the state on entry to a block, and the
// fixpoint on the shared worklist driver. See UniformityInternal.h for
// how the analysis is split.
//
//===----------------------------------------------------------------------===//

#include "Program/CallContexts.h"
#include "Program/Worklist.h"
#include "UniformityInternal.h"

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
// The skeleton: the analysis's facts of a function beside its graph
//===----------------------------------------------------------------------===//

/// Statements whose end ends the scope of the variables they declare.
static bool opensScope(const Stmt *S) {
  return isa<CompoundStmt, ForStmt, CXXForRangeStmt, IfStmt, WhileStmt,
             SwitchStmt>(S);
}

/// FunctionSkeleton::ScopeOf for every variable declared in \p S, whose
/// innermost enclosing scope statement is \p Scope.
static void collectScopes(const Stmt *S, const Stmt *Scope,
                          NodeMap<VarDecl, const Stmt *> &Out) {
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

bool isTrackedLocal(const VarDecl *V, const FunctionDecl *F) {
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
    const FunctionDecl *Callee = calleeOf(Call);
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

llvm::ArrayRef<const VarDecl *>
FunctionSkeleton::branchDefs(unsigned BI) const {
  std::optional<VarList> &Out = BranchDefs[BI];
  if (!Out) {
    Out.emplace();
    llvm::SmallPtrSet<const VarDecl *, 8> Seen;
    const llvm::BitVector &Region = Branches[BI].Region;
    for (unsigned ID : DefBlocks)
      if (Region.test(ID))
        for (const VarDecl *V : DefsOfBlock[ID])
          if (Seen.insert(V).second)
            Out->push_back(V);
  }
  return *Out;
}

std::unique_ptr<FunctionSkeleton>
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
  for (unsigned ID = 0; ID < N; ++ID)
    if (!S->DefsOfBlock[ID].empty())
      S->DefBlocks.push_back(ID);
  S->BranchDefs.resize(S->Branches.size());
  for (const BranchInfo &BI : S->Branches) {
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
// Statements and blocks
//===----------------------------------------------------------------------===//

void FunctionAnalyzer::declare(const VarDecl *V) {
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

void FunctionAnalyzer::visit(const Stmt *S) {
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
    // `mov.u32 %0, %clusterid.x;`: as widely shared as the register.
    if (Asm->getNumOutputs() == 1)
      if (auto Reg = cuda::asmSpecialRegisterMove(
              Asm->getAsmString())) {
        write(location(Asm->getOutputExpr(0)),
              specialRegister(*cuda::specialRegisterSpan(*Reg), Asm));
        return;
      }
    // `bfind.u32 %0, %1;` (cuda-samples' cdpBitonicSort rounds a length
    // up with it): a function of the operands, as uniform as they are.
    if (cuda::asmComputesOnly(Asm->getAsmString())) {
      UniformityValue V = uniform();
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        V = UniformityValue::join(V, get(Asm->getInputExpr(I)));
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        if (Asm->isOutputPlusConstraint(I))
          V = UniformityValue::join(V, get(Asm->getOutputExpr(I)));
      V.PerThread = nullptr;
      V.PointsToLocal = nullptr;
      for (const Expr *O : Asm->outputs())
        write(location(O), V);
      return;
    }
    for (const Expr *O : Asm->outputs())
      write(location(O), UniformityValue::varying(
                             Level::Varying, VarianceSource::Opaque, Asm));
    return;
  }
}

FunctionAnalyzer::State FunctionAnalyzer::entryState(const CFGBlock *B) {
  State In = joinedEntryState(B);
  if (In.Reached)
    pruneOutOfScope(B, In);
  return In;
}

void FunctionAnalyzer::pruneOutOfScope(const CFGBlock *B, State &In) {
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

int8_t FunctionAnalyzer::takenSuccessor(const CFGBlock *B,
                                        const UniformityValue &C) {
  // Two-way branches only: an if, a loop's test, a short-circuit operand,
  // ?:; the first successor runs when the condition holds. A switch's
  // cases are not decided here.
  if (B->succ_size() != 2 ||
      isa_and_nonnull<SwitchStmt>(B->getTerminatorStmt()))
    return -1;
  if (!C.PerThread)
    return -1;
  std::optional<int64_t> K = C.PerThread->asConstant();
  if (!K)
    return -1;
  return *K != 0 ? 0 : 1;
}

bool FunctionAnalyzer::noteTakenSuccessor(const CFGBlock *B, int8_t Taken) {
  int8_t &Old = OnlySuccessor[B->getBlockID()];
  bool Changed = Old != Taken;
  Old = Taken;
  return Changed;
}

bool FunctionAnalyzer::edgeTaken(const CFGBlock *From,
                                 const CFGBlock *To) const {
  int8_t Only = OnlySuccessor[From->getBlockID()];
  if (Only < 0)
    return true;
  return (From->succ_begin() + Only)->getReachableBlock() == To;
}

FunctionAnalyzer::State FunctionAnalyzer::joinedEntryState(const CFGBlock *B) {
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
      // A branch decided in this context (ggml's tile loader returns for
      // the copy widths a tile does not use): the other side runs in no
      // thread, and its code is not analysed.
      if (!edgeTaken(PB, B))
        continue;
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
    for (const VarDecl *V : Sk.branchDefs(BI)) {
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

//===----------------------------------------------------------------------===//
// The fixpoint
//===----------------------------------------------------------------------===//

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
  OnlySuccessor.assign(N, -1);
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
        int8_t Taken = -1;
        if (BI >= 0) {
          UniformityValue C = branchCondition(Sk.Branches[BI]);
          Taken = takenSuccessor(B, C);
          Tested[BI] = C;
          UniformityValue &Old = R.BranchValues[BI];
          if (C.Level > Old.Level) {
            Old = UniformityValue::join(Old, C);
            for (const CFGBlock *J : Sk.Branches[BI].Joins)
              Work.push(J);
          }
        }
        bool TakenChanged = noteTakenSuccessor(B, Taken);
        State &O = Out[B->getBlockID()];
        if (!Cur.sameAs(O) || TakenChanged) {
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
  R.Reached.resize(N);
  for (const CFGBlock *B : Sk.RPO)
    if (Out[B->getBlockID()].Reached)
      R.Reached.set(B->getBlockID());
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

} // namespace shmem
