//===- Walker/Expressions.cpp - Values of expressions ---------------------===//
//
// The per-thread evaluation of expressions: variables, loads, casts, unary
// and binary arithmetic (products of unknowns expanded, non-affine results
// over uniform operands named), assignment, and the folding of constants.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace shmem {
namespace walker {

std::string KernelWalker::exprText(const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.empty() || Text.size() > 60)
    return "expression";
  return Text.str();
}

LaneValue KernelWalker::opaqueUniformText(const void *Key, unsigned Sub,
                                          const Expr *Named) {
  if (std::optional<SymbolId> S = T.Symbols.find(Key, Sub))
    return symbolValue(*S);
  return opaqueUniform(Key, Sub, exprText(Named));
}

void KernelWalker::narrowActive(const LaneValue &Cond, bool Sense) {
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

LaneValue KernelWalker::nameIfUniform(const Expr *E, LaneValue R,
                                      const LaneValue &A, const LaneValue &B) {
  if (R.kind() == LaneValue::Kind::NonAffine && A.isUniform() && B.isUniform())
    return opaqueUniformText(E, 0, E);
  return R;
}

LaneValue KernelWalker::toType(LaneValue V, QualType Ty) {
  Ty = Ty.getCanonicalType();
  if (!Ty->isIntegralOrEnumerationType() || Ty->isBooleanType())
    return Ty->isBooleanType() && V.isConcrete()
               ? LaneValue::apply(LaneValue::Op::NE, V, constant(0))
               : V;
  unsigned Bits = Ctx.getTypeSize(Ty);
  return std::move(V).truncate(Bits, Ty->isSignedIntegerOrEnumerationType());
}

std::optional<int64_t> KernelWalker::foldedConstant(const Expr *E) {
  return Folds.of(E);
}

void KernelWalker::evalDiscarded(const Expr *E) {
  Discarded = E->IgnoreParens();
  eval(E);
  Discarded = nullptr;
}

bool KernelWalker::takeDiscarded(const Expr *E) {
  bool Is = E == Discarded;
  Discarded = nullptr;
  return Is;
}

Value KernelWalker::eval(const Expr *E) {
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
    if (auto C = foldInteger(E, Ctx))
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
    Value A = evalUnder(CO, CO->getTrueExpr(), C.Int, true);
    Value B = evalUnder(CO, CO->getFalseExpr(), C.Int, false);
    Active = Saved;
    if (A.IsPointer && B.IsPointer) {
      // A condition the same constant everywhere (a template argument,
      // `Release ? &empty[s] : &full[s]`) picks one object.
      if (std::optional<int64_t> K = C.Int.asConstant())
        return *K ? A : B;
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
    if (auto B = cuda::builtinIndexOf(PO))
      return evalInt(builtinIndex(*B));
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
            V && cuda::groupClass(V->getType()))
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
    // A constructor not followed that is handed shared memory by
    // reference (CUB's `BlockReduce(temp_storage)`) accesses it unseen.
    if (const CXXConstructorDecl *CD = CC->getConstructor();
        CD && !CD->isCopyOrMoveConstructor()) {
      llvm::SmallVector<const ValueDecl *, 2> Shared;
      for (const Expr *A : CC->arguments())
        if (const ValueDecl *D = sharedHandedOver(A, nullptr))
          Shared.push_back(D);
      noteUnwalkedShared(CC, CD, Shared);
    }
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

LaneValue KernelWalker::symbolValue(SymbolId S) {
  if (Pins && !Pins->Unknowns.empty()) {
    const SymbolInfo &I = T.Symbols.info(S);
    auto It = Pins->Unknowns.find(I.key());
    if (It != Pins->Unknowns.end())
      return constant(It->second);
  }
  return LaneValue::symbol(N, S);
}

Value KernelWalker::evalUnder(const Stmt *Branch, const Expr *E,
                              const LaneValue &Cond, bool Sense) {
  StretchJoin Join(*this);
  splitBy(Cond);
  std::vector<char> Saved = Active;
  if (Cond.isConcrete())
    narrowActive(Cond, Sense);
  if (llvm::is_contained(Saved, 1))
    noteSkippedSide(Branch, E, Cond, Sense);
  Value V = eval(E);
  Active = Saved;
  return V;
}

Value KernelWalker::evalDeclRef(const DeclRefExpr *DRE) {
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
    for (const ArgumentConstant &A : T.Arguments)
      if (A.Param == P)
        return evalInt(constant(A.Value));
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

Value KernelWalker::evalLoad(const Expr *Whole, const Expr *LV) {
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
  // std::min and std::max return a reference to one of their arguments
  // (`col ^= (row % 8) / std::max(128 / STRIDE, 1)`, learn-cuda's swizzle):
  // the value is the smaller or the larger, as for the CUDA builtins.
  if (const auto *Call = dyn_cast<CallExpr>(Inner)) {
    std::string N = calleeName(Call);
    if ((N == "min" || N == "max") && Call->getNumArgs() == 2 &&
        LV->getType()->isIntegralOrEnumerationType())
      return eval(Call);
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

Value KernelWalker::evalCast(const CastExpr *CE, const Expr *Sub) {
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
    Out.SharedAddress = std::move(V.SharedAddress);
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

const VarDecl *KernelWalker::trackedVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->isLocalVarDeclOrParm() && !isSharedVar(V) &&
          !V->getType()->isReferenceType() && !V->getType()->isArrayType() &&
          !V->getType()->isRecordType())
        return V;
  return nullptr;
}

void KernelWalker::assignVar(const VarDecl *V, Value NewV, const Stmt *At) {
  if (!NewV.IsPointer)
    NewV.Int = toType(std::move(NewV.Int), V->getType());
  auto It = Vars.find(V);
  if (It != Vars.end() && It->second.Uninitialised) {
    It->second = std::move(NewV); // No other thread's value to keep.
    return;
  }
  bool AllActive = allActive();
  if (AllActive || It == Vars.end() || ActiveApprox) {
    if (!AllActive && It != Vars.end() && ActiveApprox &&
        !(It->second.Int == NewV.Int))
      NewV = joinValues(It->second, NewV, nullptr, V, At);
    Vars[V] = std::move(NewV);
    return;
  }
  LaneValue Cond = maskValue(Active);
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

Value KernelWalker::evalUnary(const UnaryOperator *UO) {
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
        PointerValue P =
            offsetBy(*Old.Ptr, constant(Delta), V->getType()->getPointeeType());
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

std::optional<LaneValue::Op> KernelWalker::opOf(BinaryOperatorKind K) {
  switch (K) {
  case BO_Div:
  case BO_DivAssign:
    return LaneValue::Op::Div;
  case BO_Rem:
  case BO_RemAssign:
    return LaneValue::Op::Rem;
  case BO_Shl:
  case BO_ShlAssign:
    return LaneValue::Op::Shl;
  case BO_Shr:
  case BO_ShrAssign:
    return LaneValue::Op::Shr;
  case BO_And:
  case BO_AndAssign:
    return LaneValue::Op::And;
  case BO_Or:
  case BO_OrAssign:
    return LaneValue::Op::Or;
  case BO_Xor:
  case BO_XorAssign:
    return LaneValue::Op::Xor;
  case BO_LT:
    return LaneValue::Op::LT;
  case BO_LE:
    return LaneValue::Op::LE;
  case BO_GT:
    return LaneValue::Op::GT;
  case BO_GE:
    return LaneValue::Op::GE;
  case BO_EQ:
    return LaneValue::Op::EQ;
  case BO_NE:
    return LaneValue::Op::NE;
  case BO_LAnd:
    return LaneValue::Op::LAnd;
  case BO_LOr:
    return LaneValue::Op::LOr;
  default:
    return std::nullopt;
  }
}

LaneValue KernelWalker::arith(const Expr *E, BinaryOperatorKind K,
                              const LaneValue &L, const LaneValue &R,
                              QualType OperandTy) {
  LaneValue Out;
  switch (K) {
  case BO_Add:
  case BO_AddAssign:
    Out = L + R;
    break;
  case BO_Sub:
  case BO_SubAssign:
    Out = L - R;
    break;
  case BO_Mul:
  case BO_MulAssign:
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

std::optional<LaneValue> KernelWalker::expandProduct(const LaneValue &L,
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
    Out = Out +
          LaneValue::perThread(KV.second) * RC * LaneValue::symbol(N, KV.first);
  for (const auto &KV : R.coefficients())
    Out = Out +
          LaneValue::perThread(KV.second) * LC * LaneValue::symbol(N, KV.first);
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

Value KernelWalker::evalBinary(const BinaryOperator *BO) {
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
                   R.IsPointer ? std::nullopt : std::optional<LaneValue>(R.Int),
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
                  Value::pointer(
                      offsetBy(*Old.Ptr, Idx, V->getType()->getPointeeType())),
                  BO);
        return Vars[V];
      }
      Value New = evalInt(arith(BO, K, Old.Int, R.Int, LHS->getType()));
      New.SharedAddress = sharedAddressArith(
          K == BO_AddAssign   ? BO_Add
          : K == BO_SubAssign ? BO_Sub
          : K == BO_XorAssign ? BO_Xor
                              : K,
          Old, R);
      New.From = std::move(Old.From);
      addOrigins(New.From, R.From);
      assignVar(V, std::move(New), BO);
      return Unused ? Value() : Vars[V];
    }
    PointerValue P = evalAddress(LHS);
    Origins From = R.From;
    if (P.isShared()) {
      addOrigins(
          From, originOf(recordAccess(LHS, P, AccessKind::Load, LHS->getType()),
                         false));
      recordAccess(LHS, P, AccessKind::Store, LHS->getType(), std::nullopt,
                   From);
    } else if (P.isGlobal()) {
      addOrigins(
          From, originOf(recordGlobal(LHS, P, AccessKind::Load, LHS->getType()),
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
    Value R = evalUnder(BO, RHS, L.Int, K == BO_LAnd);
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
      int64_t Size = Ctx.getTypeSizeInChars(LHS->getType()->getPointeeType())
                         .getQuantity();
      return evalInt(LaneValue::apply(LaneValue::Op::Div,
                                      L.Ptr->Offset - R.Ptr->Offset,
                                      constant(Size ? Size : 1)));
    }
    return evalInt(unknown("pointer arithmetic"));
  }
  // The result carries the data of both operands (a * x + b).
  Value Out = evalInt(arith(BO, K, L.Int, R.Int, LHS->getType()));
  Out.SharedAddress = sharedAddressArith(K, L, R);
  Out.From = std::move(L.From);
  addOrigins(Out.From, R.From);
  return Out;
}

std::optional<PointerValue>
KernelWalker::sharedAddressArith(BinaryOperatorKind K, const Value &L,
                                 const Value &R) {
  // Kernels that address shared memory as integers (TMA destinations,
  // ldmatrix rows: `smem_addr + stage * bytes`) keep the pointer behind
  // the address through byte offsets.
  if (L.SharedAddress && !R.SharedAddress && (K == BO_Add || K == BO_Sub)) {
    PointerValue P = *L.SharedAddress;
    P.Offset = K == BO_Add ? P.Offset + R.Int : P.Offset - R.Int;
    return P;
  }
  if (R.SharedAddress && !L.SharedAddress && K == BO_Add) {
    PointerValue P = *R.SharedAddress;
    P.Offset = P.Offset + L.Int;
    return P;
  }
  // `addr ^ x` with every x below the variable's alignment flips bits of
  // the offset only (the variable's own address has them clear): the XOR
  // swizzles written on addresses.
  if (K == BO_Xor && (L.SharedAddress || R.SharedAddress) &&
      !(L.SharedAddress && R.SharedAddress)) {
    const PointerValue &Addr = L.SharedAddress ? *L.SharedAddress
                                               : *R.SharedAddress;
    const LaneValue &X = L.SharedAddress ? R.Int : L.Int;
    const auto *VD = dyn_cast_or_null<VarDecl>(Addr.Base);
    if (!VD || !X.isConcrete() || !Addr.Offset.isAffine())
      return std::nullopt;
    int64_t Align = Ctx.getDeclAlign(VD).getQuantity();
    for (unsigned I = 0; I < N; ++I)
      if (X.constants()[I] < 0 || X.constants()[I] >= Align)
        return std::nullopt;
    PointerValue P = Addr;
    P.Offset = LaneValue::apply(LaneValue::Op::Xor, Addr.Offset, X);
    return P;
  }
  return std::nullopt;
}

} // namespace walker
} // namespace shmem
