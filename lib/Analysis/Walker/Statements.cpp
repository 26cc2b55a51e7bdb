//===- Walker/Statements.cpp - Control transfer ---------------------------===//
//
// Control transfer over statements: compound statements, declarations,
// returns (the exited threads), `if` and `switch` with the active mask split
// by the condition and the variables joined after them.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>

namespace shmem {
namespace walker {

/// Into |= From for thread masks (bytes holding 0 or 1), eight threads a
/// step: every if's join does it over the whole block, and the compiler
/// keeps a byte loop scalar at -O2.
static void orInto(std::vector<char> &Into, const std::vector<char> &From) {
  assert(Into.size() == From.size() && "masks over different blocks");
  size_t I = 0, N = Into.size();
  for (; I + 8 <= N; I += 8) {
    uint64_t A, B;
    std::memcpy(&A, Into.data() + I, 8);
    std::memcpy(&B, From.data() + I, 8);
    A |= B;
    std::memcpy(Into.data() + I, &A, 8);
  }
  for (; I < N; ++I)
    Into[I] = char(Into[I] | From[I]);
}

bool KernelWalker::sameValue(const Value &A, const Value &B) {
  if (A.IsPointer != B.IsPointer)
    return false;
  if (A.IsPointer)
    return A.Ptr->Base == B.Ptr->Base &&
           A.Ptr->GlobalBase == B.Ptr->GlobalBase &&
           A.Ptr->Offset == B.Ptr->Offset;
  return A.Int == B.Int;
}

Value KernelWalker::joinValues(const Value &A, const Value &B,
                               const LaneValue *Cond, const VarDecl *V,
                               const Stmt *At) {
  // The threads of the uninitialised side hold no value to keep.
  if (A.Uninitialised != B.Uninitialised)
    return A.Uninitialised ? B : A;
  Value R = joinValuesOnly(A, B, Cond, V, At);
  if (!R.IsPointer) {
    R.From = A.From;
    addOrigins(R.From, B.From);
  }
  return R;
}

Value KernelWalker::joinValuesOnly(const Value &A, const Value &B,
                                   const LaneValue *Cond, const VarDecl *V,
                                   const Stmt *At) {
  if (sameValue(A, B))
    return A;
  if (A.IsPointer || B.IsPointer) {
    if (A.IsPointer && B.IsPointer && samePointerBase(*A.Ptr, *B.Ptr) && Cond &&
        Cond->isConcrete()) {
      Value R = A;
      R.Ptr->Offset = LaneValue::select(*Cond, A.Ptr->Offset, B.Ptr->Offset);
      return R;
    }
    return Value::pointer(PointerValue());
  }
  if (Cond && Cond->isConcrete())
    return evalInt(LaneValue::select(*Cond, A.Int, B.Int));
  if (A.Int.isUniform() && B.Int.isUniform() && (!Cond || Cond->isUniform()))
    return evalInt(opaqueUniform(
        SymbolKey{At ? (const void *)At : (const void *)V, V, JoinSub},
        V ? V->getName().str() : "value"));
  return evalInt(unknown("'" + (V ? V->getName().str() : std::string("value")) +
                         "' differs between threads after a branch"));
}

void KernelWalker::joinEnvs(const Env &Then, const Env &Else,
                            const LaneValue &Cond, const Stmt *At) {
  Env Out;
  for (const auto &KV : Then) {
    auto It = Else.find(KV.first);
    if (It == Else.end())
      continue; // Declared inside one branch: out of scope.
    Out[KV.first] = joinValues(KV.second, It->second, &Cond, KV.first, At);
  }
  Vars = std::move(Out);
}

bool KernelWalker::unreachedRest() const {
  // Every thread has returned, broken or continued, and the mask is
  // exact: no thread runs the rest of the block. No label in it lets one
  // back in: case labels are walked with an uncertain mask or by
  // walkSwitchByThread, which activates threads at them itself, and a
  // walked goto makes masks approximate (GotoWalked). ggml's tile loader
  // returns from its lambda for the copy widths a tile does not use, and
  // the walk of the dead rest (divisions by zero, loops probed) was a
  // fifth of its kernel's walk.
  return !ActiveApprox && !Uncertain && !GotoWalked && !anyActive();
}

void KernelWalker::walkStmt(const Stmt *S) {
  if (!S)
    return;
  // Where control jumps to or from, the threads running change.
  if (isa<ReturnStmt, ContinueStmt, BreakStmt, GotoStmt, SwitchCase,
          LabelStmt>(S))
    newStretch();
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body()) {
      if (unreachedRest())
        break;
      walkStmt(C);
    }
    endScope(CS);
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
    if (auto M = cuda::asmMatrixOf(A))
      recordMatrix(M->first, M->second);
    else if (!walkAsyncAsm(A) && !walkBulkAsm(A))
      recordAsmBarrier(A);
    // What the asm writes is not known (`elect.sync` into a "+r" that
    // held 0): keeping the old value would take branches on it wrongly.
    for (unsigned I = 0; I < A->getNumOutputs(); ++I)
      if (const VarDecl *V = trackedVar(A->getOutputExpr(I)))
        assignVar(V, evalInt(unknown("set by inline asm")), A);
    return;
  }
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return walkStmt(L->getSubStmt());
  if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
    noteUnrollPragma(AS);
    return walkStmt(AS->getSubStmt());
  }
  if (const auto *SC = dyn_cast<SwitchCase>(S)) {
    // In a switch walked as straight-line code, any thread that entered it
    // may start at any label: one after a `break` runs again.
    if (!SwitchEntries.empty())
      orInto(Active, SwitchEntries.back());
    return walkStmt(SC->getSubStmt());
  }
  if (isa<GotoStmt>(S)) {
    // Unstructured: threads jumping are no longer tracked here.
    ActiveApprox = true;
    GotoWalked = true;
    return;
  }
  for (const Stmt *C : S->children())
    walkStmt(C);
}

void KernelWalker::endScope(const CompoundStmt *CS) {
  // Dropped, so that the environment saved and joined at every branch and
  // loop holds only what is live, not every local the kernel declared so
  // far.
  for (const Stmt *C : CS->body())
    if (const auto *DS = dyn_cast<DeclStmt>(C))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Vars.erase(V);
}

void KernelWalker::noteUnrollPragma(const AttributedStmt *AS) {
  if (!Recording)
    return;
  for (const Attr *A : AS->getAttrs()) {
    const auto *H = dyn_cast<LoopHintAttr>(A);
    if (!H)
      continue;
    unsigned Count = 0;
    if (H->getOption() == LoopHintAttr::Unroll &&
        H->getState() == LoopHintAttr::Disable)
      Count = 1;
    else if (H->getOption() == LoopHintAttr::UnrollCount && H->getValue())
      if (std::optional<llvm::APSInt> V =
              H->getValue()->getIntegerConstantExpr(Ctx))
        Count = unsigned(std::max<int64_t>(1, V->getExtValue()));
    if (Count)
      T.CompilerUnroll[AS->getSubStmt()] = Count;
  }
}

bool KernelWalker::walkAsyncAsm(const GCCAsmStmt *A) {
  std::string Text = A->getAsmString();
  // Async copies and waits take inputs only.
  auto Input = [&](std::optional<unsigned> Op) -> const Expr * {
    return Op ? cuda::asmInputOperand(A, *Op) : nullptr;
  };
  if (auto C = cuda::asmAsyncCopyOf(Text)) {
    const Expr *Dst = Input(C->DstOperand);
    if (!Dst)
      return false;
    std::optional<int64_t> Bytes;
    if (C->Bytes)
      Bytes = *C->Bytes;
    else if (const Expr *Size = Input(C->SizeOperand))
      Bytes = foldInteger(Size, Ctx);
    const Expr *SrcE = Input(C->SrcOperand);
    recordAsyncCopy(Dst, Dst, SrcE ? eval(SrcE) : Value(), Bytes, *C);
    // One asm statement may commit the copy too.
    if (auto W = cuda::asmAsyncWaitOf(Text))
      asyncWait(*W, Input(W->PendingOperand), A->getAsmLoc());
    return true;
  }
  if (auto W = cuda::asmAsyncWaitOf(Text)) {
    asyncWait(*W, Input(W->PendingOperand), A->getAsmLoc());
    return true;
  }
  return false;
}

bool KernelWalker::walkBulkAsm(const GCCAsmStmt *A) {
  std::string Text = A->getAsmString();
  auto Input = [&](std::optional<unsigned> Op) -> const Expr * {
    return Op ? cuda::asmInputOperand(A, *Op) : nullptr;
  };
  if (auto C = cuda::asmBulkTensorCopyOf(Text)) {
    recordBulkCopy(A, A->getAsmLoc(), Input(C->DstOperand),
                   Input(C->MapOperand), Input(C->BarrierOperand), *C);
    return true;
  }
  if (auto W = cuda::asmMbarrierWaitOf(Text)) {
    recordBarrierWait(A->getAsmLoc(), Input(*W), /*IsObject=*/false);
    // The wait's predicate (an output) is not known.
    return false;
  }
  if (auto R = cuda::asmMbarrierArriveOf(Text)) {
    recordBarrierArrive(A->getAsmLoc(), Input(*R), /*IsObject=*/false);
    return false;
  }
  return false;
}

void KernelWalker::walkVarDecl(const VarDecl *V) {
  if (isSharedVar(V) || V->isStaticLocal())
    return;
  if (cuda::groupClass(V->getType()))
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
    Value U = evalInt(unknown("'" + V->getName().str() + "' is uninitialised"));
    U.Uninitialised = true;
    Vars[V] = std::move(U);
  }
}

void KernelWalker::walkReturn(const ReturnStmt *R) {
  if (const Expr *E = R->getRetValue()) {
    // A function returning a reference returns where its operand is.
    Value V =
        !Inlining.empty() && Inlining.back()->getReturnType()->isReferenceType()
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
    Effects.ReturnFrame =
        std::min(Effects.ReturnFrame, unsigned(Frames.size()));
    for (unsigned I = 0; I < N; ++I)
      if (Active[I])
        Frames.back().Returned[I] = 1;
    Frames.back().AnyReturned = true;
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

void KernelWalker::dropReturned() {
  if (Frames.empty() || !Frames.back().AnyReturned)
    return;
  const FrameState &F = Frames.back();
  for (unsigned I = 0; I < N; ++I)
    if (F.Returned[I] && Active[I]) {
      Active[I] = 0;
      ActiveApprox = ActiveApprox || F.ReturnedApprox;
    }
}

void KernelWalker::conditionParts(
    const Expr *C, bool Sense,
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

void KernelWalker::knownParts(const Expr *Cond, bool Sense,
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

void KernelWalker::walkIf(const IfStmt *If) {
  if (const Stmt *Init = If->getInit())
    walkStmt(Init);
  if (const VarDecl *CV = If->getConditionVariable())
    walkVarDecl(CV);
  LaneValue Cond = eval(If->getCond()).Int;
  noteBranch(If, Cond);
  StretchJoin Join(*this);
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
    splitBy(Cond);
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

  bool Reached = llvm::is_contained(Entry, 1);
  Narrow(true);
  if (Reached)
    noteSkippedSide(If, If->getThen(), Cond, true);
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
  if (Reached)
    noteSkippedSide(If, If->getElse(), Cond, false);
  if (Inexact)
    SideStart = Active;
  Uncertain += Inexact;
  if (If->getElse())
    walkStmt(If->getElse());
  Uncertain -= Inexact;
  bool ElseKeepsAll = Inexact && Active == SideStart;
  bool ElseApprox = ActiveApprox;

  // Threads that reach the join: those still active on either side.
  orInto(Active, ThenActive);
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

void KernelWalker::walkSwitch(const SwitchStmt *Sw) {
  if (const Stmt *Init = Sw->getInit())
    walkStmt(Init);
  if (const VarDecl *CV = Sw->getConditionVariable())
    walkVarDecl(CV);
  LaneValue Cond = eval(Sw->getCond()).Int;
  noteBranch(Sw, Cond);
  StretchJoin Join(*this);
  newStretch();
  if (Cond.isConcrete() && walkSwitchByThread(Sw, Cond))
    return;
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
  SwitchEntries.push_back(EntryActive);
  walkStmt(Sw->getBody());
  SwitchEntries.pop_back();
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

/// The labels of \p Sw's body in source order, when every label is at the
/// top level of the body (labels in a row included), as in all but Duff's
/// device.
static std::optional<std::vector<const SwitchCase *>>
topLevelCases(const SwitchStmt *Sw) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Sw->getBody());
  if (!Body)
    return std::nullopt;
  std::vector<const SwitchCase *> Out;
  for (const Stmt *S : Body->body())
    for (const auto *SC = dyn_cast<SwitchCase>(S); SC;
         SC = dyn_cast<SwitchCase>(SC->getSubStmt()))
      Out.push_back(SC);
  unsigned All = 0;
  for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC;
       SC = SC->getNextSwitchCase())
    ++All;
  if (All != Out.size())
    return std::nullopt;
  return Out;
}

bool KernelWalker::walkSwitchByThread(const SwitchStmt *Sw,
                                      const LaneValue &Cond) {
  auto Cases = topLevelCases(Sw);
  if (!Cases)
    return false;
  bool Unsigned = Sw->getCond()->getType()->isUnsignedIntegerOrEnumerationType();
  auto Less = [&](int64_t A, int64_t B) {
    return Unsigned ? uint64_t(A) < uint64_t(B) : A < B;
  };
  // Where each thread enters: the index of its label in Cases, or none
  // (no label matches and there is no default: it skips the body).
  constexpr unsigned None = ~0u;
  std::vector<unsigned> Target(N, None);
  std::optional<unsigned> Default;
  for (unsigned K = 0; K < Cases->size(); ++K) {
    const auto *CS = dyn_cast<CaseStmt>((*Cases)[K]);
    if (!CS) {
      Default = K;
      continue;
    }
    std::optional<llvm::APSInt> Lo = CS->getLHS()->getIntegerConstantExpr(Ctx);
    std::optional<llvm::APSInt> Hi =
        CS->getRHS() ? CS->getRHS()->getIntegerConstantExpr(Ctx) : Lo;
    if (!Lo || !Hi || Lo->getSignificantBits() > 64 ||
        Hi->getSignificantBits() > 64)
      return false;
    int64_t L = Lo->isSigned() ? Lo->getExtValue() : int64_t(Lo->getZExtValue());
    int64_t H = Hi->isSigned() ? Hi->getExtValue() : int64_t(Hi->getZExtValue());
    Cond.constants().forEach([&](unsigned I, int64_t X) {
      if (Target[I] == None && Active[I] && !Less(X, L) && !Less(H, X))
        Target[I] = K;
    });
  }
  std::vector<char> Skipping(N, 0);
  for (unsigned I = 0; I < N; ++I)
    if (Active[I] && Target[I] == None) {
      if (Default)
        Target[I] = *Default;
      else
        Skipping[I] = 1;
    }
  // Each thread runs from its label to a break or the end, as the code
  // runs: the body's statements in order, the threads whose label a
  // statement carries joining there. Assignments keep the inactive
  // threads' values, so no join is needed after.
  splitBy(Cond);
  std::fill(Active.begin(), Active.end(), 0);
  LoopStates.push_back(LoopState());
  const auto *Body = cast<CompoundStmt>(Sw->getBody());
  unsigned K = 0;
  for (const Stmt *S : Body->body()) {
    for (; isa<SwitchCase>(S); S = cast<SwitchCase>(S)->getSubStmt(), ++K) {
      newStretch();
      for (unsigned I = 0; I < N; ++I)
        if (Target[I] == K)
          Active[I] = 1;
    }
    walkStmt(S);
  }
  endScope(Body);
  LoopState Done = std::move(LoopStates.back());
  LoopStates.pop_back();
  // A `continue` in the body is the enclosing loop's.
  if (!Done.Continued.empty() && !LoopStates.empty()) {
    std::vector<char> &C = LoopStates.back().Continued;
    if (C.empty())
      C.assign(N, 0);
    orInto(C, Done.Continued);
  }
  orInto(Active, Skipping);
  if (!Done.Broken.empty())
    orInto(Active, Done.Broken);
  dropReturned();
  dropExited();
  return true;
}

} // namespace walker
} // namespace shmem
