//===- KernelPointers.cpp - Kernels launched through pointers -------------===//
//
// See KernelPointers.h.
//
//===----------------------------------------------------------------------===//

#include "KernelPointers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

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
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *F = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  if (F && F->hasAttr<CUDAGlobalAttr>())
    Out.push_back(F);
  return Out;
}

const VarDecl *KernelPointers::pointerVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getType()->isFunctionPointerType())
    return nullptr;
  return V;
}

void KernelPointers::noteVar(const VarDecl *V) {
  if (V->getType()->isFunctionPointerType() && V->getInit())
    Stored[V].push_back(V->getInit());
}

void KernelPointers::noteAssignment(const BinaryOperator *B) {
  if (B->getOpcode() == BO_Assign)
    if (const VarDecl *Ptr = pointerVariable(B->getLHS()))
      Stored[Ptr].push_back(B->getRHS());
}

void KernelPointers::noteCall(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || isa<CXXOperatorCallExpr>(Call))
    return;
  bool Helper = false;
  for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams(); ++I)
    if (F->getParamDecl(I)->getType()->isFunctionPointerType()) {
      Stored[F->getParamDecl(I)].push_back(Call->getArg(I));
      Helper = true;
    }
  if (Helper)
    Calls[F].push_back(Call);
}

void KernelPointers::kernelsOf(const Expr *E, const VarDecl *Self,
                               unsigned Depth,
                               std::vector<const FunctionDecl *> &Out) const {
  for (const FunctionDecl *K : kernelsNamed(E))
    if (!llvm::is_contained(Out, K))
      Out.push_back(K);
  // A copy of another pointer (`launch(kernel, ...)` with `auto kernel =
  // k<...>;` in the caller).
  const VarDecl *From = pointerVariable(E);
  if (!From || From == Self || Depth >= 8)
    return;
  if (auto It = Stored.find(From); It != Stored.end())
    for (const Expr *V : It->second)
      kernelsOf(V, From, Depth + 1, Out);
}

std::vector<const FunctionDecl *>
KernelPointers::targets(const VarDecl *Ptr) const {
  std::vector<const FunctionDecl *> Out;
  if (auto It = Stored.find(Ptr); It != Stored.end())
    for (const Expr *E : It->second)
      kernelsOf(E, Ptr, 0, Out);
  return Out;
}

std::vector<const FunctionDecl *>
KernelPointers::kernelsOf(const Expr *E) const {
  std::vector<const FunctionDecl *> Out;
  kernelsOf(E, nullptr, 0, Out);
  return Out;
}

llvm::ArrayRef<const CallExpr *>
KernelPointers::callsOf(const FunctionDecl *Helper) const {
  auto It = Calls.find(Helper);
  if (It == Calls.end())
    return {};
  return It->second;
}

} // namespace shmem
