//===- KernelPointers.cpp - Kernels launched through pointers -------------===//
//
// See KernelPointers.h.
//
//===----------------------------------------------------------------------===//

#include "KernelPointers.h"

#include "clang/AST/Attr.h"

using namespace clang;

namespace shmem {

llvm::SmallVector<const FunctionDecl *, 2> kernelsNamed(const Expr *E) {
  llvm::SmallVector<const FunctionDecl *, 2> Out;
  if (!E)
    return Out;
  E = E->IgnoreParenCasts();
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    Out = kernelsNamed(C->getTrueExpr());
    Out.append(kernelsNamed(C->getFalseExpr()));
    return Out;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *F = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  if (F && F->hasAttr<CUDAGlobalAttr>())
    Out.push_back(F);
  return Out;
}

const VarDecl *KernelPointers::pointerVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getType()->isFunctionPointerType())
    return nullptr;
  return V;
}

void KernelPointers::note(const VarDecl *Ptr, const Expr *Value) {
  for (const FunctionDecl *K : kernelsNamed(Value))
    Targets[Ptr].push_back(K);
}

void KernelPointers::noteVar(const VarDecl *V) {
  if (V->getType()->isFunctionPointerType() && V->getInit())
    note(V, V->getInit());
}

void KernelPointers::noteAssignment(const BinaryOperator *B) {
  if (B->getOpcode() == BO_Assign)
    if (const VarDecl *Ptr = pointerVariable(B->getLHS()))
      note(Ptr, B->getRHS());
}

const std::vector<const FunctionDecl *> &
KernelPointers::targets(const VarDecl *Ptr) const {
  static const std::vector<const FunctionDecl *> None;
  auto It = Targets.find(Ptr);
  return It == Targets.end() ? None : It->second;
}

} // namespace shmem
