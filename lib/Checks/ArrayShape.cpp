//===- ArrayShape.cpp - A 2-D shared array's declared shape ---------------===//
//
// See ArrayShape.h.
//
//===----------------------------------------------------------------------===//

#include "ArrayShape.h"

#include "clang/AST/TypeLoc.h"

using namespace clang;

namespace shmem {

std::optional<Array2D> arrayShape(ASTContext &Ctx, const VarDecl *V) {
  const auto *Outer = Ctx.getAsConstantArrayType(V->getType());
  if (!Outer)
    return std::nullopt;
  const auto *Inner = Ctx.getAsConstantArrayType(Outer->getElementType());
  if (!Inner || Ctx.getAsArrayType(Inner->getElementType()) ||
      Inner->getElementType()->isRecordType())
    return std::nullopt;
  Array2D A;
  A.Rows = int64_t(Outer->getSize().getZExtValue());
  A.Cols = int64_t(Inner->getSize().getZExtValue());
  A.ElemBytes = Ctx.getTypeSizeInChars(Inner->getElementType()).getQuantity();
  return A;
}

const Expr *innerSizeExpr(ASTContext &Ctx, const VarDecl *V) {
  TypeSourceInfo *TSI = V->getTypeSourceInfo();
  if (!TSI)
    return nullptr;
  TypeLoc TL = TSI->getTypeLoc();
  auto Outer = TL.getAsAdjusted<ConstantArrayTypeLoc>();
  if (!Outer)
    return nullptr;
  auto Inner = Outer.getElementLoc().getAsAdjusted<ConstantArrayTypeLoc>();
  if (!Inner)
    return nullptr;
  if (Ctx.getAsConstantArrayType(Inner.getElementLoc().getType()))
    return nullptr; // 3-D and more: not offered.
  return Inner.getSizeExpr();
}

} // namespace shmem
