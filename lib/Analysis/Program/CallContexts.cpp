//===- CallContexts.cpp - Which calls the analyses follow -----------------===//

#include "CallContexts.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace shmem {

/// The variable a callee expression reads its pointer from
/// (`load_tiles`, `traits.load_tiles`), or null.
static const VarDecl *pointerVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr();
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const FunctionDecl *calleeOf(const CallExpr *Call) {
  if (!Call)
    return nullptr;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD;
  // A call through a pointer the program cannot change: a `constexpr` or
  // `const` variable whose initialiser the compiler folds to a function
  // (ggml's mmq picks `load_tiles` and `vec_dot` from a constexpr traits
  // table). The compiler calls that function directly; so do we. A
  // pointer that is a parameter or is assigned stays unknown.
  const VarDecl *VD = pointerVariable(Call->getCallee());
  if (!VD || !VD->getType().isConstQualified() || !VD->hasInit() ||
      VD->getType()->isDependentType())
    return nullptr;
  Expr::EvalResult R;
  if (!Call->getCallee()->EvaluateAsRValue(R, VD->getASTContext()) ||
      R.HasSideEffects || !R.Val.isLValue() ||
      !R.Val.getLValueOffset().isZero())
    return nullptr;
  const auto *Base = R.Val.getLValueBase().dyn_cast<const ValueDecl *>();
  return dyn_cast_or_null<FunctionDecl>(Base);
}

const FunctionDecl *calleeDefinition(const CallExpr *Call) {
  const FunctionDecl *FD = calleeOf(Call);
  const FunctionDecl *Def = nullptr;
  if (FD && FD->hasBody(Def) && Def)
    return Def;
  return nullptr;
}

const FunctionDecl *followedCallee(const CallExpr *Call,
                                   const ASTContext &Ctx) {
  if (!Call || isa<CUDAKernelCallExpr>(Call))
    return nullptr;
  const FunctionDecl *Def = calleeDefinition(Call);
  if (!Def || Def->isImplicit())
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return nullptr;
  return Def;
}

unsigned objectArguments(const CallExpr *Call) {
  if (!isa<CXXOperatorCallExpr>(Call) || Call->getNumArgs() == 0)
    return 0;
  // A member operator takes its object as the first argument; a static
  // `operator()` (C++23) still spells it there.
  return isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee()) ? 1 : 0;
}

const CXXRecordDecl *lambdaClassOf(const FunctionDecl *Def) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Def);
  if (!MD || MD->getOverloadedOperator() != OO_Call)
    return nullptr;
  const CXXRecordDecl *RD = MD->getParent();
  return RD && RD->isLambda() ? RD : nullptr;
}

} // namespace shmem
