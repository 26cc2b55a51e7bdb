//===- UniformityTransfer.cpp - The values of expressions -----------------===//
//
// Per-thread arithmetic, locations with their reads and writes, and
// the value of every kind of expression but calls. See
// UniformityInternal.h for how the analysis is split.
//
//===----------------------------------------------------------------------===//

#include "ExprUtil.h"
#include "UniformityInternal.h"
#include "Walker/ModifiedVars.h"

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
// Small helpers
//===----------------------------------------------------------------------===//

std::shared_ptr<const LaneValue> FunctionAnalyzer::constantVector(int64_t C) {
  if (!G)
    return nullptr;
  auto &Slot = UA.ConstantVectors[C];
  if (!Slot)
    Slot = std::make_shared<const LaneValue>(
        LaneValue::constant(G->threads(), C));
  return Slot;
}

UniformityValue FunctionAnalyzer::exact(LaneValue L, VarianceSource Src) {
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

std::optional<int64_t> FunctionAnalyzer::constantInt(const Expr *E) {
  if (E->isValueDependent() || E->isTypeDependent() || !E->isPRValue())
    return std::nullopt;
  QualType T = E->getType();
  if (!T->isIntegralOrEnumerationType() || Ctx.getTypeSize(T) > 64)
    return std::nullopt;
  // A constexpr call folds too (foldInteger): its callee need not be
  // analysed then.
  return UA.Graphs.folds().of(E);
}

UniformityValue FunctionAnalyzer::convert(UniformityValue V, QualType T) {
  if (V.Shift && !T->isIntegralOrEnumerationType())
    V.Shift = nullptr;
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

UniformityValue FunctionAnalyzer::withSameValues(UniformityValue V) {
  if (!G) {
    V.PerThread = nullptr;
    return V;
  }
  classify(V, *V.PerThread);
  if (V.Level == Level::GridUniform)
    V.Source = VarianceSource();
  return V;
}

UniformityValue FunctionAnalyzer::withPerThread(UniformityValue V,
                                                LaneValue L) {
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

//===----------------------------------------------------------------------===//
// Locations: reads and writes
//===----------------------------------------------------------------------===//

bool FunctionAnalyzer::isKernelPointerArgument(const Expr *Base) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || !F->hasAttr<CUDAGlobalAttr>() || P->getDeclContext() != F ||
      !P->getType()->isPointerType() || !F->getBody())
    return false;
  if (!KernelModified) {
    walker::ModifiedVars M;
    M.TraverseStmt(F->getBody());
    KernelModified = std::move(M.Vars);
  }
  return !KernelModified->count(P);
}

FunctionAnalyzer::Location FunctionAnalyzer::deref(const UniformityValue &P) {
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

FunctionAnalyzer::Location FunctionAnalyzer::location(const Expr *E) {
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
    L.Global = !V->hasAttr<CUDASharedAttr>();
    return L;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    UniformityValue P = get(ASE->getBase());
    UniformityValue I = get(ASE->getIdx());
    const VarDecl *Local = P.PointsToLocal;
    UniformityValue Addr = UniformityValue::join(P, I);
    Addr.PointsToLocal = Local;
    Location L = deref(Addr);
    if (const auto *IR =
            dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts());
        IR && L.K == Location::Local &&
        ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      if (const auto *IV = dyn_cast<VarDecl>(IR->getDecl());
          IV && isTrackedLocal(IV, F) && !IV->getType()->isReferenceType())
        L.Index = IV;
    // An element of a __constant__ or const global array.
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        L.ReadOnly = !V->hasLocalStorage() && isReadOnlyGlobal(V);
        L.Global = !V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>() &&
                   V->getType()->isArrayType();
      }
    L.Global |= L.K == Location::Memory &&
                isKernelPointerArgument(ASE->getBase());
    return L;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(ME->getMemberDecl())) {
      Location L; // A static data member.
      L.ReadOnly = isReadOnlyGlobal(V);
      return L;
    }
    if (ME->isArrow()) {
      Location L = deref(get(ME->getBase()));
      L.Global =
          L.K == Location::Memory && isKernelPointerArgument(ME->getBase());
      return L;
    }
    Location L = location(ME->getBase());
    L.Whole = false;
    return L;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      Location L = deref(get(UO->getSubExpr()));
      L.Global =
          L.K == Location::Memory && isKernelPointerArgument(UO->getSubExpr());
      return L;
    }
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

UniformityValue FunctionAnalyzer::read(const Location &L, const Expr *LV) {
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
  UniformityValue V = uniform(L.ReadOnly || L.Global ? Level::GridUniform
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

void FunctionAnalyzer::write(const Location &L, UniformityValue V) {
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

void FunctionAnalyzer::mayWrite(const Expr *LV, const UniformityValue &V) {
  Location L = location(LV);
  if (L.K == Location::Local && L.Whole)
    L.Whole = false;
  write(L, V);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

UniformityValue FunctionAnalyzer::joinChildren(const Stmt *S) {
  UniformityValue V;
  for (const Stmt *C : S->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      V = UniformityValue::join(V, get(CE));
  V.PerThread = nullptr;
  V.Shift = nullptr;
  V.PointsToLocal = nullptr;
  return V;
}

UniformityValue FunctionAnalyzer::compute(const Expr *E, bool Effects) {
  if (auto C = constantInt(E))
    return constant(*C);

  if (const auto *PE = dyn_cast<ParenExpr>(E))
    return get(PE->getSubExpr());
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return castValue(CE);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return declRef(DRE);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    // threadIdx.x: its getter call, which builtinCall knows.
    return get(PO->getResultExpr());
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

UniformityValue FunctionAnalyzer::castValue(const CastExpr *CE) {
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

UniformityValue FunctionAnalyzer::builtinIndex(cuda::BuiltinIndex B,
                                               const Expr *At) {
  switch (B.Var) {
  case cuda::IndexVar::ThreadIdx: {
    VarianceSource Src{VarianceSource::ThreadIndex, At, nullptr};
    if (G)
      return exact(G->threadIdx(B.Axis), Src);
    return UniformityValue::varying(Level::Varying, Src.K, At);
  }
  case cuda::IndexVar::BlockDim:
    if (G)
      return exact(G->blockDim(B.Axis), {});
    return uniform();
  case cuda::IndexVar::BlockIdx:
    return UniformityValue::varying(Level::BlockUniform,
                                    VarianceSource::BlockIndex, At);
  case cuda::IndexVar::GridDim:
    return uniform();
  }
  return uniform();
}

UniformityValue FunctionAnalyzer::declRef(const DeclRefExpr *DRE) {
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

UniformityValue FunctionAnalyzer::unary(const UnaryOperator *UO, bool Effects) {
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
    V.Shift = nullptr;
    if (V.PerThread)
      return convert(withPerThread(V, -*V.PerThread), UO->getType());
    return V;
  }
  case UO_Not: {
    UniformityValue V = get(Sub);
    V.Shift = nullptr;
    if (V.PerThread)
      return convert(withPerThread(V, V.PerThread->bitNot()), UO->getType());
    return V;
  }
  case UO_LNot: {
    UniformityValue V = get(Sub);
    V.Shift = nullptr;
    if (V.PerThread)
      return withPerThread(V, V.PerThread->logicalNot());
    V.PointsToLocal = nullptr;
    return V;
  }
  default:
    return get(Sub);
  }
}

void FunctionAnalyzer::shiftedArith(BinaryOperatorKind K,
                                    const UniformityValue &L,
                                    const UniformityValue &Rv,
                                    UniformityValue &V) {
  V.Shift = nullptr;
  auto [SL, LL] = L.shifted();
  auto [SR, LR] = Rv.shifted();
  bool Same = SL && SR && *SL == *SR;
  // A rest that varies says nothing the level does not.
  auto Keep = [&](const UniformityValue &From, Level Rest) {
    if (Rest == Level::Varying)
      return;
    V.Shift = From.Shift ? From.Shift : From.PerThread;
    V.ShiftLevel = Rest;
  };
  switch (K) {
  case BO_Add: case BO_AddAssign:
    if (SL && !SR)
      Keep(L, std::max(LL, Rv.Level));
    else if (SR && !SL)
      Keep(Rv, std::max(LR, L.Level));
    return;
  case BO_Sub: case BO_SubAssign:
    if (SL && !SR)
      Keep(L, std::max(LL, Rv.Level));
    [[fallthrough]];
  case BO_LT: case BO_LE: case BO_GT: case BO_GE: case BO_EQ: case BO_NE:
    // One per-thread part on both sides: it cancels.
    if (Same && std::max(LL, LR) < V.Level) {
      V.Level = std::max(LL, LR);
      V.LaneXor = 1;
      V.WarpInvariant = false;
    }
    return;
  default:
    return;
  }
}

std::optional<LaneValue::Op> FunctionAnalyzer::laneOp(BinaryOperatorKind K) {
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

UniformityValue FunctionAnalyzer::arith(BinaryOperatorKind K,
                                        const UniformityValue &L,
                                        const UniformityValue &Rv,
                                        QualType OperandTy, QualType ResultTy) {
  UniformityValue V = UniformityValue::join(L, Rv);
  shiftedArith(K, L, Rv, V);
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

UniformityValue FunctionAnalyzer::binary(const BinaryOperator *BO,
                                         bool Effects) {
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
  UniformityValue V =
      arith(K, get(LHS), get(RHS), LHS->getType(), BO->getType());
  butterfly(BO, V);
  return V;
}

} // namespace shmem
