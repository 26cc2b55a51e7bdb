//===- FlatStride.cpp - The row stride of a flattened shared array --------===//

#include "FlatStride.h"

#include "Analysis/ExprUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>

using namespace clang;

namespace shmem {
namespace {

/// Who a stride expression names: the same key means the same stride.
struct StrideName {
  FlatStride::Kind K = FlatStride::None;
  const void *Key = nullptr; ///< Decl, or the macro body's literal (raw loc).
  std::string Name;
  SourceLocation DefLoc;
  bool operator==(const StrideName &O) const {
    return K == O.K && Key == O.Key && Name == O.Name;
  }
};

StrideName nameOf(ASTContext &Ctx, const Expr *Side, int64_t Value) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *E = Side->IgnoreParenImpCasts();
  StrideName N;
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
    N.K = FlatStride::TemplateParam;
    N.Key = S->getParameter();
    N.Name = S->getParameter()->getName().str();
    N.DefLoc = S->getParameter()->getLocation();
    return N;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl, EnumConstantDecl>(DRE->getDecl()) &&
        DRE->getDecl()->getDeclName().isIdentifier()) {
      N.K = FlatStride::Named;
      N.Key = DRE->getDecl();
      N.Name = DRE->getDecl()->getName().str();
      N.DefLoc = DRE->getDecl()->getLocation();
      return N;
    }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(E)) {
    SourceLocation L = Lit->getLocation();
    if (L.isMacroID()) {
      // `#define LD 32`: the literal is spelled once, in the definition.
      StringRef Macro = Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts());
      SourceLocation Spell = SM.getSpellingLoc(L);
      N.K = FlatStride::Macro;
      N.Key = reinterpret_cast<const void *>(
          uintptr_t(Spell.getRawEncoding()) + 1);
      N.Name = Macro.str();
      N.DefLoc = Spell;
      return N;
    }
  }
  // A literal or an unnamed constant expression: the same value is taken to
  // be the same stride (only advice is offered for these).
  N.K = FlatStride::Unnamed;
  N.Name = std::to_string(Value);
  return N;
}

/// Collects the nodes from \p Root down to \p Target (inclusive).
bool pathTo(const Stmt *Root, const Stmt *Target, std::set<const Expr *> &Out) {
  if (!Root)
    return false;
  if (Root == Target) {
    if (const auto *E = dyn_cast<Expr>(Root)) {
      Out.insert(E);
      Out.insert(E->IgnoreParens());
    }
    return true;
  }
  for (const Stmt *C : Root->children())
    if (pathTo(C, Target, Out)) {
      if (const auto *E = dyn_cast<Expr>(Root))
        Out.insert(E);
      return true;
    }
  return false;
}

/// The row stride of one index: the constant factor of a product among the
/// index's additive terms (`r * LD` in `r * LD + c`), the largest if several.
struct IndexStride {
  const Expr *Side = nullptr; ///< The constant factor as written.
  int64_t Value = 0;
};

void additiveTerms(const Expr *E, std::vector<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
      additiveTerms(BO->getLHS(), Out);
      additiveTerms(BO->getRHS(), Out);
      return;
    }
  Out.push_back(E);
}

std::optional<IndexStride> strideOfIndex(ASTContext &Ctx, const Expr *Idx) {
  std::vector<const Expr *> Terms;
  additiveTerms(Idx, Terms);
  std::optional<IndexStride> Best;
  for (const Expr *T : Terms) {
    const auto *BO = dyn_cast<BinaryOperator>(T);
    if (!BO || BO->getOpcode() != BO_Mul)
      continue;
    auto L = foldInteger(BO->getLHS(), Ctx), R = foldInteger(BO->getRHS(), Ctx);
    if (bool(L) == bool(R))
      continue;
    const Expr *Side = L ? BO->getLHS() : BO->getRHS();
    const Expr *Other = L ? BO->getRHS() : BO->getLHS();
    // `(r * LD + c) * 2` scales a whole index: no row stride there.
    if (const auto *OB = dyn_cast<BinaryOperator>(Other->IgnoreParenImpCasts()))
      if (OB->isAdditiveOp())
        continue;
    int64_t V = L ? *L : *R;
    if (V >= 2 && (!Best || V > Best->Value))
      Best = IndexStride{Side, V};
  }
  return Best;
}

/// Finds every use of the stride and of the array outside the array's own
/// indices and size: any such use means the stride cannot simply change.
class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  UseFinder(ASTContext &Ctx, const VarDecl *Array, const StrideName &Name)
      : Ctx(Ctx), Array(Array), Name(Name) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  std::string Problem;
  SourceLocation ProblemLoc;

  bool TraverseVarDecl(VarDecl *D) {
    bool Saved = InSize;
    InSize = InSize || D == Array;
    bool R = RecursiveASTVisitor::TraverseVarDecl(D);
    InSize = Saved;
    return R;
  }
  bool TraverseArraySubscriptExpr(ArraySubscriptExpr *E) {
    const auto *B = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
    if (!B || B->getDecl() != Array)
      return RecursiveASTVisitor::TraverseArraySubscriptExpr(E);
    auto S = strideOfIndex(Ctx, E->getIdx());
    if (!S || !(nameOf(Ctx, S->Side, S->Value) == Name))
      note(E->getExprLoc(), "this index of '" + Array->getName().str() +
                                "' does not use '" + Name.Name + "'");
    ++InIndex;
    bool R = TraverseStmt(E->getIdx());
    --InIndex;
    return R;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == Array)
      note(E->getLocation(),
           "'" + Array->getName().str() + "' is used here other than "
           "through an index");
    else if (Name.K == FlatStride::Named && E->getDecl() == Name.Key &&
             !InIndex && !InSize)
      note(E->getLocation(), "'" + Name.Name + "' is also used here");
    return true;
  }
  bool VisitIntegerLiteral(IntegerLiteral *E) {
    if (Name.K != FlatStride::Macro || InIndex || InSize ||
        !E->getLocation().isMacroID())
      return true;
    if (nameOf(Ctx, E, 0) == Name)
      note(E->getLocation(), "'" + Name.Name + "' is also used here");
    return true;
  }

private:
  ASTContext &Ctx;
  const VarDecl *Array;
  const StrideName &Name;
  unsigned InIndex = 0;
  bool InSize = false;

  void note(SourceLocation L, std::string Why) {
    if (!Problem.empty())
      return;
    Problem = std::move(Why);
    ProblemLoc = L;
  }
};

std::string textOf(ASTContext &Ctx, CharSourceRange R) {
  return Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

bool editable(const SourceManager &SM, SourceRange R) {
  return R.isValid() && R.getBegin().isFileID() && R.getEnd().isFileID() &&
         SM.isInMainFile(R.getBegin());
}

} // namespace

std::vector<FixItHint> FlatStride::Fixes(int64_t Pad) const {
  std::vector<FixItHint> F;
  if (!NoFix.empty() || StrideEdit.isInvalid())
    return F;
  std::string New = StrideIsLiteral
                        ? std::to_string(Value + Pad)
                        : StrideText + " + " + std::to_string(Pad);
  F.push_back(FixItHint::CreateReplacement(StrideEdit, New));
  if (SizeEdit.isValid())
    F.push_back(FixItHint::CreateReplacement(
        SizeEdit, std::to_string(SizeEditFactor * (Value + Pad))));
  return F;
}

FlatStride findFlatStride(ASTContext &Ctx, const VarDecl *Array,
                          const std::vector<const Expr *> &Accesses) {
  FlatStride Out;
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *AT = Ctx.getAsConstantArrayType(Array->getType());
  if (!AT || Ctx.getAsArrayType(AT->getElementType()) || Accesses.empty())
    return Out;
  Out.Elems = int64_t(AT->getSize().getZExtValue());
  Out.ElemBytes = Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();

  // Every traced access must index the array through one and the same
  // stride; otherwise no stride change keeps element identity.
  std::optional<StrideName> Name;
  FlatStride S;
  for (const Expr *E : Accesses) {
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
    if (!ASE)
      return Out;
    const auto *B = dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    if (!B || B->getDecl() != Array)
      return Out;
    auto IS = strideOfIndex(Ctx, ASE->getIdx());
    if (!IS)
      return Out;
    StrideName N = nameOf(Ctx, IS->Side, IS->Value);
    if (Name && !(*Name == N))
      return Out;
    Name = N;
    S.Value = IS->Value;
    S.Refs.insert(IS->Side->IgnoreParens());
    pathTo(ASE->getIdx(), IS->Side, S.Contexts);
  }
  Out.K = Name->K;
  Out.Name = Name->Name;
  Out.Value = S.Value;
  Out.Refs = std::move(S.Refs);
  Out.Contexts = std::move(S.Contexts);
  Out.DefLoc = Name->DefLoc;

  auto Refuse = [&](std::string Why, SourceLocation L) {
    Out.NoFix = std::move(Why);
    Out.NoFixLoc = L;
    return Out;
  };
  if (Out.K == FlatStride::Unnamed)
    return Refuse("the row stride of '" + Array->getName().str() +
                      "' is the literal " + Out.Name,
                  Accesses.front()->getExprLoc());
  if (Out.K == FlatStride::TemplateParam)
    return Refuse("'" + Out.Name + "' is a template parameter", Out.DefLoc);
  if (!SM.isInMainFile(SM.getExpansionLoc(Out.DefLoc)) ||
      (Out.K == FlatStride::Macro && !SM.isInMainFile(Out.DefLoc)))
    return Refuse("'" + Out.Name + "' is defined outside this file",
                  Out.DefLoc);
  if (const auto *FD = dyn_cast<FunctionDecl>(Array->getDeclContext()))
    if (FD->isTemplateInstantiation())
      return Refuse("'" + Array->getName().str() +
                        "' is declared in a template",
                    Array->getLocation());

  // The stride must mean nothing but this array's row length.
  UseFinder U(Ctx, Array, *Name);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      U.TraverseDecl(D);
  if (!U.Problem.empty())
    return Refuse(U.Problem, U.ProblemLoc);

  // The edit of the stride's definition.
  const Expr *Init = nullptr;
  if (Out.K == FlatStride::Named) {
    if (const auto *V = dyn_cast<VarDecl>(static_cast<const Decl *>(Name->Key)))
      Init = V->getInit();
    else if (const auto *EC = dyn_cast<EnumConstantDecl>(
                 static_cast<const Decl *>(Name->Key)))
      Init = EC->getInitExpr();
    if (!Init || !editable(SM, Init->getSourceRange()))
      return Refuse("'" + Out.Name + "' has no initializer to edit",
                    Out.DefLoc);
    Out.StrideEdit = CharSourceRange::getTokenRange(Init->getSourceRange());
    const Expr *Bare = Init->IgnoreParenImpCasts();
    Out.StrideIsLiteral = isa<IntegerLiteral>(Bare);
    Out.StrideText = textOf(Ctx, Out.StrideEdit);
    if (!Out.StrideIsLiteral && !isa<DeclRefExpr>(Bare))
      Out.StrideText = "(" + Out.StrideText + ")";
  } else {
    // Macro: its body is the one literal, spelled in this file.
    Out.StrideEdit = CharSourceRange::getTokenRange(Out.DefLoc, Out.DefLoc);
    Out.StrideIsLiteral = true;
  }

  // The array's size: it follows the stride when spelled with it; a
  // literal (or a product of literals) is edited alongside.
  TypeLoc TL = Array->getTypeSourceInfo()
                   ? Array->getTypeSourceInfo()->getTypeLoc()
                   : TypeLoc();
  auto CAT = TL ? TL.getAsAdjusted<ConstantArrayTypeLoc>()
                : ConstantArrayTypeLoc();
  const Expr *Size = CAT ? CAT.getSizeExpr() : nullptr;
  if (!Size)
    return Refuse("the size of '" + Array->getName().str() +
                      "' is not written out",
                  Array->getLocation());
  std::set<const Expr *> SizeRefs;
  bool SizeUsesStride = false;
  std::vector<const Stmt *> Work{Size};
  while (!Work.empty()) {
    const Stmt *St = Work.back();
    Work.pop_back();
    if (const auto *E = dyn_cast<Expr>(St)) {
      const Expr *Bare = E->IgnoreParenImpCasts();
      if (isa<DeclRefExpr, IntegerLiteral>(Bare) && Bare == E) {
        if (nameOf(Ctx, E, 0) == *Name)
          SizeUsesStride = true;
      }
    }
    for (const Stmt *C : St->children())
      if (C)
        Work.push_back(C);
  }
  if (SizeUsesStride)
    return Out;
  const Expr *SizeBare = Size->IgnoreParenImpCasts();
  const IntegerLiteral *Lit = nullptr;
  int64_t Factor = 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(SizeBare)) {
    const auto *L = dyn_cast<IntegerLiteral>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *R = dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts());
    if (BO->getOpcode() == BO_Mul && L && R) {
      // Rows are the outer factor: prefer the right one.
      if (R->getValue() == uint64_t(Out.Value))
        Lit = R;
      else if (L->getValue() == uint64_t(Out.Value))
        Lit = L;
      Factor = 1;
    }
  } else if (const auto *L = dyn_cast<IntegerLiteral>(SizeBare)) {
    if (Out.Elems % Out.Value == 0) {
      Lit = L;
      Factor = Out.Elems / Out.Value;
    }
  }
  if (!Lit || !editable(SM, Lit->getSourceRange()))
    return Refuse("the size of '" + Array->getName().str() +
                      "' is not spelled with '" + Out.Name + "'",
                  Size->getExprLoc());
  Out.SizeEdit = CharSourceRange::getTokenRange(Lit->getSourceRange());
  Out.SizeEditFactor = Factor;
  return Out;
}

} // namespace shmem
