//===- SwizzleFix.cpp - An XOR swizzle of a tile as a fix-it --------------===//
//
// See SwizzleFix.h.
//
//===----------------------------------------------------------------------===//

#include "SwizzleFix.h"

#include "ArrayShape.h"

#include "Analysis/ExprUtil.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace shmem {
namespace {

/// Every reference to one variable in a body.
class Uses : public RecursiveASTVisitor<Uses> {
public:
  explicit Uses(const VarDecl *V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == V)
      Found.push_back(E);
    return true;
  }
  const VarDecl *V;
  std::vector<const DeclRefExpr *> Found;
};

/// An index as it can stand in `c ^ (...)` and `(...) % n`: as written
/// when it is a name, a literal or already parenthesised, else in parens.
std::string operand(const Expr *E, const SourceManager &SM,
                    const LangOptions &LO) {
  std::string Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()),
                           SM, LO)
          .str();
  const Expr *S = E->IgnoreImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral, ParenExpr, MemberExpr,
          PseudoObjectExpr>(S))
    return Text;
  return "(" + Text + ")";
}

/// The rewrite of every use of \p V, or why there is none (\p Why).
std::optional<SwizzleRewrite> swizzleRewrite(const KernelContext &K,
                                             const VarDecl *V,
                                             std::string &Why) {
  ASTContext &Ctx = K.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::optional<Array2D> A = arrayShape(Ctx, V);
  if (!A || A->Cols < 2 || (A->Cols & (A->Cols - 1))) {
    Why = "its rows are not a power of two elements long";
    return std::nullopt;
  }
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->hasBody()) {
    Why = "it is declared outside the kernel, so its uses are not all here";
    return std::nullopt;
  }
  if (F->isTemplateInstantiation() || F->getDescribedFunctionTemplate()) {
    Why = "the kernel is a template: one rewrite would serve every "
          "instantiation";
    return std::nullopt;
  }
  Uses U(V);
  U.TraverseStmt(F->getBody());
  ParentMap PM(F->getBody());
  SwizzleRewrite RW;
  RW.N = A->Cols;
  std::string N = std::to_string(A->Cols);
  for (const DeclRefExpr *D : U.Found) {
    unsigned Line = SM.getExpansionLineNumber(D->getLocation());
    auto Stop = [&](const char *What) {
      Why = "line " + std::to_string(Line) + " " + What;
      return std::nullopt;
    };
    // a[r][c]: the reference, decayed, subscripted twice.
    const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(D));
    const auto *Row = dyn_cast_or_null<ArraySubscriptExpr>(P);
    if (!Row || Row->getBase()->IgnoreParenImpCasts() != D)
      return Stop("uses it other than as 'a[r][c]'");
    const auto *Elem =
        dyn_cast_or_null<ArraySubscriptExpr>(
        PM.getParentIgnoreParenImpCasts(const_cast<ArraySubscriptExpr *>(Row)));
    if (!Elem || Elem->getBase()->IgnoreParenImpCasts() != Row)
      return Stop("takes a row of it");
    const Stmt *Up =
        PM.getParentIgnoreParens(const_cast<ArraySubscriptExpr *>(Elem));
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Up);
        UO && UO->getOpcode() == UO_AddrOf)
      return Stop("takes the address of an element, which a pointer may "
                  "read with another layout");
    const Expr *R = Row->getIdx(), *C = Elem->getIdx();
    SourceRange CR = C->getSourceRange();
    if (D->getBeginLoc().isMacroID() || R->getBeginLoc().isMacroID() ||
        R->getEndLoc().isMacroID() || CR.getBegin().isMacroID() ||
        CR.getEnd().isMacroID())
      return Stop("indexes it in a macro");
    // A constant row: its column moves by a constant, or not at all.
    std::string Moved;
    if (std::optional<int64_t> Const = foldInteger(R, Ctx)) {
      int64_t By = *Const % A->Cols;
      if (By < 0)
        By += A->Cols;
      if (By == 0)
        continue;
      Moved = operand(C, SM, LO) + " ^ " + std::to_string(By);
    } else {
      Moved = operand(C, SM, LO) + " ^ (" + operand(R, SM, LO) + " % " + N +
              ")";
    }
    RW.Fixes.push_back(
        FixItHint::CreateReplacement(CharSourceRange::getTokenRange(CR), Moved));
    ++RW.Uses;
  }
  if (RW.Fixes.empty()) {
    Why = "no use of it changes";
    return std::nullopt;
  }
  RW.Example = V->getName().str() + "[r][c ^ (r % " + N + ")]";
  return RW;
}

/// \p K's trace with every access to \p V moved where the swizzle puts
/// it, or null when an access's offsets are not known in every thread.
std::unique_ptr<KernelTrace> swizzledTrace(const KernelContext &K,
                                           const VarDecl *V) {
  std::optional<Array2D> A = arrayShape(K.Ctx, V);
  if (!A)
    return nullptr;
  auto T = std::make_unique<KernelTrace>(K.Trace);
  for (SharedAccess &S : T->Accesses) {
    if (S.Address.Base != V)
      continue;
    // Element accesses only: a wider one reads bytes the swizzle splits.
    if (S.Width != unsigned(A->ElemBytes) || !S.Address.Offset.isConcrete())
      return nullptr;
    std::vector<int64_t> Off(S.Active.size(), 0);
    for (unsigned Th = 0; Th < Off.size(); ++Th) {
      int64_t O = S.Address.Offset.constants()[Th];
      Off[Th] = S.Active[Th] ? swizzledOffset(*A, A->ElemBytes, O) : O;
    }
    S.Address.Offset = LaneValue::perThread(std::move(Off));
  }
  return T;
}

} // namespace

SwizzleFix
swizzleFix(const KernelContext &K, const VarDecl *V,
           llvm::function_ref<bool(const KernelTrace &)> KeepsDegrees) {
  SwizzleFix S;
  std::optional<SwizzleRewrite> RW = swizzleRewrite(K, V, S.Why);
  if (!RW)
    return S;
  std::unique_ptr<KernelTrace> T = swizzledTrace(K, V);
  if (!T) {
    S.Why = "an access to it is not known in every thread, so the "
            "swizzled layout cannot be checked";
    return S;
  }
  if (!KeepsDegrees(*T)) {
    S.Why = "swizzled, some access to it would conflict more or stay "
            "conflicted";
    return S;
  }
  S.Ok = true;
  S.Rewrite = std::move(*RW);
  return S;
}

std::string SwizzleFix::advise(Finding &F, SourceLocation Decl,
                               bool Attach) const {
  if (!Ok) {
    F.Notes.push_back({Decl, "no swizzle fix-it: " + Why});
    return "";
  }
  if (Attach)
    F.Fixes = Rewrite.Fixes;
  return ": swizzle its columns instead, which costs no memory: index it "
         "as " + Rewrite.Example + " wherever it is used (" +
         (Attach ? "the fix-it" : "the fix-it of another warning on it") +
         " rewrites the column of " + std::to_string(Rewrite.Uses) +
         (Rewrite.Uses == 1 ? " use)" : " uses)");
}

} // namespace shmem
