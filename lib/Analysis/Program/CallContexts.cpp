//===- CallContexts.cpp - Which calls the analyses follow -----------------===//

#include "CallContexts.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace shmem {

const FunctionDecl *calleeDefinition(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
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
