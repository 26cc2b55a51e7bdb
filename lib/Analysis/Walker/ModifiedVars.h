//===- Walker/ModifiedVars.h - What a statement touches --------*- C++ -*-===//
//
// Which variables a statement may modify or names: what a branch or loop
// must join or keep, found by a walk of its subtree (cached per statement
// by the walker).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_WALKER_MODIFIEDVARS_H
#define SHMEM_LINT_ANALYSIS_WALKER_MODIFIEDVARS_H

#include "Analysis/Program/CallContexts.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <set>
#include <vector>

namespace shmem {
namespace walker {

using namespace clang;

/// Variables a statement may modify (assigned, incremented, or whose
/// address escapes).
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  std::set<const VarDecl *> Vars;
  std::map<const VarDecl *, unsigned> Count;

  static const VarDecl *varOf(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  void note(const Expr *E) {
    if (const VarDecl *V = varOf(E)) {
      Vars.insert(V);
      ++Count[V];
    }
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      note(U->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0)
      note(C->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    // Non-const references passed to a call may be written.
    if (const FunctionDecl *FD = calleeOf(C)) {
      unsigned Shift = objectArguments(C);
      for (unsigned I = Shift; I < C->getNumArgs() &&
                               I - Shift < FD->getNumParams();
           ++I)
        if (FD->getParamDecl(I - Shift)->getType()->isReferenceType() &&
            !FD->getParamDecl(I - Shift)
                 ->getType()
                 .getNonReferenceType()
                 .isConstQualified())
          note(C->getArg(I));
    }
    // A lambda called here writes the variables it captures by reference
    // wherever it was written.
    const FunctionDecl *Def = calleeDefinition(C);
    if (const CXXRecordDecl *RD = lambdaClassOf(Def);
        RD && Depth < 8) {
      ModifiedVars Inner;
      Inner.Depth = Depth + 1;
      Inner.TraverseStmt(Def->getBody());
      for (const LambdaCapture &Cap : RD->captures())
        if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
          if (const auto *V = dyn_cast<VarDecl>(Cap.getCapturedVar());
              V && Inner.Vars.count(V)) {
            Vars.insert(V);
            Count[V] += Inner.Count[V];
          }
    }
    return true;
  }
  unsigned Depth = 0; ///< Lambdas entered to get here.
};

/// The variables the statements it traverses name (in the order met,
/// repeats included), and whether they make a call or run statements of
/// their own (a GNU statement expression), either of which may assign
/// variables they do not name.
class ReferencedVars : public RecursiveASTVisitor<ReferencedVars> {
public:
  std::vector<const VarDecl *> Vars;
  bool HasCall = false;

  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      Vars.push_back(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *) {
    HasCall = true;
    return true;
  }
  bool VisitStmtExpr(StmtExpr *) {
    HasCall = true;
    return true;
  }
};

} // namespace walker
} // namespace shmem

#endif
