//===- IndexSteps.cpp - Whether nvcc sees the step between addresses ------===//
//
// See IndexSteps.h for the rule and where it was measured.
//
//===----------------------------------------------------------------------===//

#include "IndexSteps.h"

#include "ExprUtil.h"

#include "Program/CudaModel.h"
#include "Walker/ModifiedVars.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/FoldingSet.h"

#include <algorithm>
#include <vector>

using namespace clang;

namespace shmem {

namespace {

/// What an expression depends on: the variables that differ between the
/// two accesses, or anything else that is not a constant.
struct Deps {
  bool Varying = false;
  bool Other = false;
  Deps &operator|=(const Deps &D) {
    Varying |= D.Varying;
    Other |= D.Other;
    return *this;
  }
};

/// One access's address, read as nvcc's vectoriser reads it.
class AddressReader {
public:
  /// \p Calls, when given, are the inlined calls the access is in: a
  /// parameter of one of them reads as its argument there, as it does for
  /// nvcc once the calls are inlined.
  AddressReader(const ASTContext &Ctx, IndexSteps &Steps,
                const std::set<const VarDecl *> &Varying, bool Flatten,
                const std::vector<const CallExpr *> *Calls = nullptr)
      : Ctx(Ctx), Steps(Steps), Varying(Varying), Flatten(Flatten),
        Calls(Calls) {}

  /// False when an opaque operation mixes the varying variables with
  /// anything else; the first such operation's operator, if a binary one.
  bool Visible = true;
  std::string HiddenBy;
  /// Profiles of the opaque parts that do not vary: for two accesses at
  /// different expressions, which must agree on them.
  std::vector<unsigned> Opaque;

  void address(const Expr *E) { linear(E, 0); }

  /// Whether \p Other met the same opaque parts, in any order.
  bool sameOpaqueParts(AddressReader &Other) {
    std::sort(Opaque.begin(), Opaque.end());
    std::sort(Other.Opaque.begin(), Other.Opaque.end());
    return Opaque == Other.Opaque;
  }

private:
  const ASTContext &Ctx;
  IndexSteps &Steps;
  const std::set<const VarDecl *> &Varying;
  /// Whether `a[x / C][x % C]` reads as `x` (see the header).
  bool Flatten;
  const std::vector<const CallExpr *> *Calls;

  static constexpr unsigned MaxDepth = 16;

  /// The initialiser standing for a local variable that is never assigned
  /// after it, if any.
  const Expr *initialiser(const VarDecl *V) {
    if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
        V->getType()->isReferenceType())
      return nullptr;
    const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    if (!F || Steps.modifiedIn(F->getBody()).count(V))
      return nullptr;
    return V->getInit();
  }

  /// The argument standing for a parameter of one of Calls that its
  /// function never assigns, if any.
  const Expr *argument(const VarDecl *V) {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
    if (!Calls || !P || P->getType()->isReferenceType())
      return nullptr;
    const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
    if (!F || Steps.modifiedIn(F->getBody()).count(P))
      return nullptr;
    for (auto It = Calls->rbegin(); It != Calls->rend(); ++It) {
      const CallExpr *CE = *It;
      if (CE->getDirectCallee() != F)
        continue;
      // An operator called as a member takes its object as argument 0.
      unsigned I = P->getFunctionScopeIndex() +
                   (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(F));
      return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    }
    return nullptr;
  }

  /// \p E through parentheses, casts, never-assigned locals and, with
  /// Calls, the parameters of those calls.
  const Expr *resolve(const Expr *E, unsigned Depth) {
    while (E && Depth++ < MaxDepth) {
      E = E->IgnoreParenCasts();
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      const VarDecl *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      const Expr *Init = V ? initialiser(V) : nullptr;
      if (!Init && V)
        Init = argument(V);
      if (!Init || Varying.count(dyn_cast<VarDecl>(DRE->getDecl())))
        return E;
      E = Init;
    }
    return E;
  }

  static bool isZero(const Expr *E, const ASTContext &Ctx) {
    return foldInteger(E, Ctx) == 0;
  }

  /// `a[x / C][x % C]` over rows of exactly C elements: the `x` it is.
  const Expr *flattened(const ArraySubscriptExpr *Outer, unsigned Depth) {
    if (!Flatten)
      return nullptr;
    const auto *Inner = dyn_cast<ArraySubscriptExpr>(
        Outer->getBase()->IgnoreParenImpCasts());
    if (!Inner)
      return nullptr;
    const auto *Row = Ctx.getAsConstantArrayType(Inner->getType());
    const auto *Div = dyn_cast<BinaryOperator>(resolve(Inner->getIdx(), Depth));
    const auto *Rem = dyn_cast<BinaryOperator>(resolve(Outer->getIdx(), Depth));
    if (!Row || !Div || !Rem || Div->getOpcode() != BO_Div ||
        Rem->getOpcode() != BO_Rem)
      return nullptr;
    std::optional<int64_t> C = foldInteger(Div->getRHS(), Ctx);
    if (!C || C != foldInteger(Rem->getRHS(), Ctx) ||
        uint64_t(*C) != Row->getSize().getZExtValue())
      return nullptr;
    const Expr *X = resolve(Div->getLHS(), Depth);
    const Expr *Y = resolve(Rem->getLHS(), Depth);
    llvm::FoldingSetNodeID IX, IY;
    X->Profile(IX, Ctx, /*Canonical=*/true);
    Y->Profile(IY, Ctx, /*Canonical=*/true);
    return IX == IY ? X : nullptr;
  }

  /// A part of the address whose value adds to it (a sum of products).
  Deps linear(const Expr *E, unsigned Depth) {
    E = resolve(E, Depth);
    if (!E || Depth > MaxDepth)
      return {false, true};
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      if (const Expr *X = flattened(AS, Depth)) {
        const auto *Inner =
            cast<ArraySubscriptExpr>(AS->getBase()->IgnoreParenImpCasts());
        Deps D = linear(Inner->getBase(), Depth + 1);
        D |= linear(X, Depth + 1);
        return D;
      }
      Deps D = linear(AS->getBase(), Depth + 1);
      D |= linear(AS->getIdx(), Depth + 1);
      return D;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return linear(ME->getBase(), Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      switch (UO->getOpcode()) {
      case UO_Minus:
      case UO_Plus:
      case UO_Deref:
      case UO_AddrOf:
        return linear(UO->getSubExpr(), Depth + 1);
      default:
        break;
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Mul:
        if (isZero(BO->getLHS(), Ctx) || isZero(BO->getRHS(), Ctx))
          return {};
        [[fallthrough]];
      case BO_Add:
      case BO_Sub: {
        Deps D = linear(BO->getLHS(), Depth + 1);
        D |= linear(BO->getRHS(), Depth + 1);
        return D;
      }
      case BO_Shl:
        if (!dependsOn(BO->getRHS(), Depth + 1).Varying &&
            !dependsOn(BO->getRHS(), Depth + 1).Other)
          return linear(BO->getLHS(), Depth + 1);
        break;
      default:
        break;
      }
    }
    if (isa<IntegerLiteral>(E) || isa<DeclRefExpr>(E) ||
        cuda::builtinIndexOf(E))
      return dependsOn(E, Depth);
    // Opaque: the step through it is visible only when it does not mix
    // what differs with anything else.
    Deps D = dependsOn(E, Depth);
    if (D.Varying && D.Other) {
      if (Visible)
        if (const auto *BO = dyn_cast<BinaryOperator>(E))
          HiddenBy = BO->getOpcodeStr().str();
      Visible = false;
    } else if (!D.Varying && D.Other) {
      llvm::FoldingSetNodeID ID;
      E->Profile(ID, Ctx, /*Canonical=*/true);
      Opaque.push_back(ID.ComputeHash());
    }
    return D;
  }

  /// What \p E's value depends on.
  Deps dependsOn(const Expr *E, unsigned Depth) {
    E = resolve(E, Depth);
    if (!E || Depth > MaxDepth)
      return {false, true};
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && Varying.count(V))
        return {true, false};
      if (isa<EnumConstantDecl>(DRE->getDecl()))
        return {};
      return {false, true};
    }
    if (cuda::builtinIndexOf(E) || isa<CallExpr>(E))
      return {false, true};
    if (!E->isValueDependent() && E->isIntegerConstantExpr(Ctx))
      return {};
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Mul &&
        (isZero(BO->getLHS(), Ctx) || isZero(BO->getRHS(), Ctx)))
      return {};
    Deps D;
    bool Any = false;
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C)) {
        D |= dependsOn(CE, Depth + 1);
        Any = true;
      }
    if (!Any)
      D.Other = true;
    return D;
  }
};

} // namespace

const std::set<const VarDecl *> &IndexSteps::modifiedIn(const Stmt *S) {
  auto It = Modified.find(S);
  if (It != Modified.end())
    return It->second;
  walker::ModifiedVars M;
  if (S)
    M.TraverseStmt(const_cast<Stmt *>(S));
  return Modified[S] = std::move(M.Vars);
}

bool IndexSteps::stepVisible(const SharedAccess &A, const SharedAccess &B) {
  // Accesses in two inlined calls (`copy(dst + i, ...); copy(dst + i + 1,
  // ...)`) are straight-line code to nvcc once it inlines them: each
  // address is read through its calls' arguments.
  if (A.CallStack != B.CallStack) {
    std::set<const VarDecl *> None;
    HiddenBy.clear();
    AddressReader RA(Ctx, *this, None, A.Width < 4, &A.CallStack);
    RA.address(A.E);
    AddressReader RB(Ctx, *this, None, A.Width < 4, &B.CallStack);
    RB.address(B.E);
    HiddenBy = !RA.Visible ? RA.HiddenBy : RB.HiddenBy;
    return RA.Visible && RB.Visible && RA.sameOpaqueParts(RB);
  }
  // What differs between the two: the variables of the loops whose
  // iteration differs (an unrolled run of one expression).
  std::set<const VarDecl *> Varying;
  if (A.E == B.E) {
    for (unsigned P = 0; P < A.Loops.size() && P < B.Loops.size(); ++P) {
      if (A.LoopIterations[P] == B.LoopIterations[P])
        continue;
      const std::set<const VarDecl *> &V = modifiedIn(A.Loops[P]);
      Varying.insert(V.begin(), V.end());
    }
  }
  // ptxas merges narrow elements' stores from the final arithmetic, which
  // has the row split folded away; NVVM does not fold it for wider ones.
  bool Flatten = A.Width < 4;
  HiddenBy.clear();
  AddressReader RA(Ctx, *this, Varying, Flatten);
  RA.address(A.E);
  if (!RA.Visible) {
    HiddenBy = RA.HiddenBy;
    return false;
  }
  if (A.E == B.E)
    return true;
  AddressReader RB(Ctx, *this, Varying, Flatten);
  RB.address(B.E);
  HiddenBy = RB.HiddenBy;
  return RB.Visible && RA.sameOpaqueParts(RB);
}

} // namespace shmem
