//===- Walker/TileIndex.cpp - How an access indexes its tile --------------===//
//
// How an access indexes its tile: the row and column terms of the index
// expression, the fact the layout checks compare between the formula a tile
// is written with and the one it is read with.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/Basic/SourceManager.h"

#include <map>

namespace shmem {
namespace walker {

LaneValue KernelWalker::quietInt(const Expr *E) {
  bool Saved = Recording;
  Recording = false;
  LaneValue V = eval(E).Int;
  Recording = Saved;
  return toType(std::move(V), E->getType());
}

bool KernelWalker::hasEffects(const Expr *E) {
  auto It = EffectsCache.find(E);
  if (It != EffectsCache.end())
    return It->second;
  bool Found = findEffects(E);
  EffectsCache[E] = Found;
  return Found;
}

bool KernelWalker::findEffects(const Expr *E) {
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

const Expr *KernelWalker::expandIndex(const Expr *E) {
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

std::optional<int64_t> KernelWalker::uniformConstant(const Expr *E) {
  if (auto C = foldInteger(E, Ctx))
    return C;
  if (hasEffects(E))
    return std::nullopt;
  return quietInt(E).asConstant();
}

void KernelWalker::indexTerms(const Expr *E, int Sign,
                              std::vector<IndexTerm> &Out, unsigned Depth) {
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

void KernelWalker::columnTerms(const Expr *C, TileIndex &TI) {
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

bool KernelWalker::isSwizzleTerm(const LaneValue &X,
                                 const LaneValue &Row) const {
  std::map<int64_t, int64_t> ByRow;
  std::optional<int64_t> First;
  bool Several = false;
  for (unsigned T = 0; T < X.size() && T < Active.size(); ++T) {
    if (!Active[T])
      continue;
    int64_t V = X.constants()[T];
    auto [It, New] = ByRow.try_emplace(Row.constants()[T], V);
    if (!New && It->second != V)
      return false;
    Several |= First && *First != V;
    if (!First)
      First = V;
  }
  return Several;
}

std::optional<LaneValue> KernelWalker::unswizzled(const Expr *E,
                                                  const LaneValue &Row,
                                                  bool &Stripped,
                                                  unsigned Depth) {
  E = expandIndex(E);
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || Depth > 16 || B->isAssignmentOp() || B->isComparisonOp() ||
      B->isLogicalOp() || B->getOpcode() == BO_Comma) {
    LaneValue V = quietInt(E);
    if (!V.isConcrete())
      return std::nullopt;
    return V;
  }
  bool StrippedL = false, StrippedR = false;
  std::optional<LaneValue> L =
      unswizzled(B->getLHS(), Row, StrippedL, Depth + 1);
  std::optional<LaneValue> R =
      unswizzled(B->getRHS(), Row, StrippedR, Depth + 1);
  if (!L || !R)
    return std::nullopt;
  if (B->getOpcode() == BO_Xor) {
    bool SwizzleL = isSwizzleTerm(*L, Row), SwizzleR = isSwizzleTerm(*R, Row);
    if (SwizzleL == SwizzleR)
      return std::nullopt;
    Stripped = true;
    return SwizzleL ? R : L;
  }
  if (!StrippedL && !StrippedR) {
    LaneValue V = quietInt(E);
    if (!V.isConcrete())
      return std::nullopt;
    return V;
  }
  Stripped = true;
  LaneValue V = arith(E, B->getOpcode(), *L, *R, B->getLHS()->getType());
  if (!V.isConcrete())
    return std::nullopt;
  return V;
}

LaneValue KernelWalker::indexValue(const Expr *E) {
  auto It = IndexValues.find(E);
  if (It != IndexValues.end() && It->second.Generation == IndexGeneration)
    return toType(It->second.V, E->getType());
  return quietInt(E);
}

TileIndex KernelWalker::tileIndex(const Expr *E, const PointerValue &P) {
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
    if (Opts.Facts.TileFormulas) {
      columnTerms(ColE, TI);
      bool Stripped = false;
      if (TI.Row.isConcrete())
        if (std::optional<LaneValue> C = unswizzled(ColE, TI.Row, Stripped);
            C && Stripped) {
          TI.HasUnswizzled = true;
          TI.Unswizzled = TI.Row * constant(TI.Pitch) + *C;
        }
    }
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
    // Flattened tiles are described with the formulas only.
    if (!Opts.Facts.TileFormulas)
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
    bool Stripped = false;
    if (Row.isConcrete())
      if (std::optional<LaneValue> I = unswizzled(ColE, Row, Stripped);
          I && Stripped) {
        TI.HasUnswizzled = true;
        TI.Unswizzled = *I;
      }
  } else {
    return TI;
  }
  TI.Valid = TI.Row.isAffine() && TI.Col.isAffine();
  if (Opts.Facts.TileFormulas)
    TI.Text = exprText(E);
  return TI;
}

} // namespace walker
} // namespace shmem
