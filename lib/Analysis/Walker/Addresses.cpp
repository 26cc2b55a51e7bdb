//===- Walker/Addresses.cpp - Addresses of accesses -----------------------===//
//
// The address of every access: the base (a shared or global variable, a
// pointer parameter) and the per-thread offset, with the padding what-if
// (PaddingOverride) applied to shared arrays.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/AST/RecordLayout.h"

namespace shmem {
namespace walker {

std::optional<int64_t> KernelWalker::paddedRowBytes(QualType RowTy) {
  const auto *VT = Ctx.getAsConstantArrayType(Pad->Var->getType());
  if (!VT)
    return std::nullopt;
  const auto *Row = Ctx.getAsConstantArrayType(VT->getElementType());
  if (!Row || !Ctx.hasSameType(RowTy, VT->getElementType()))
    return std::nullopt;
  int64_t Elem = Ctx.getTypeSizeInChars(Row->getElementType()).getQuantity();
  return (int64_t(Row->getSize().getZExtValue()) + Pad->PadElems) * Elem;
}

PointerValue KernelWalker::globalBase(const ValueDecl *V) {
  PointerValue P;
  P.GlobalBase = V;
  P.Offset = constant(0);
  return P;
}

PointerValue KernelWalker::sharedBase(const VarDecl *V) {
  PointerValue P;
  P.Base = V;
  P.DynamicShared =
      V->hasExternalStorage() || (V->getType()->isIncompleteArrayType());
  P.Offset = constant(0);
  return P;
}

PointerValue KernelWalker::offsetBy(PointerValue P, const LaneValue &Index,
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

PointerValue KernelWalker::evalAddress(const Expr *E) {
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
    if (isKernelTensorMap(V) && cuda::isTensorMapType(V->getType()))
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
                      toType(std::move(I.Int), Idx->getType()), ASE->getType());
    if (!P.IsPointer || !P.Ptr->isShared())
      return notShared();
    if (Pad && P.Ptr->Base == Pad->Var)
      if (auto Row = paddedRowBytes(ASE->getType())) {
        PointerValue Out = std::move(*P.Ptr);
        Out.Offset =
            Out.Offset + toType(I.Int, Idx->getType()) * constant(*Row);
        return Out;
      }
    return offsetBy(std::move(*P.Ptr), toType(std::move(I.Int), Idx->getType()),
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

} // namespace walker
} // namespace shmem
