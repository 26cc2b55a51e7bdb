//===- BarrierSites.cpp - The barriers statements and calls run -----------===//
//
// See BarrierSites.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierSites.h"

#include "Analysis/ExprUtil.h"
#include "Analysis/KernelTrace.h"
#include "Analysis/Program/CallContexts.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace shmem {
namespace divergent {

using cuda::calleeName;

Scope scopeOf(cuda::SyncScope S) {
  switch (S) {
  case cuda::SyncScope::Grid:
    return Scope::Grid;
  case cuda::SyncScope::Counted:
    return Scope::Counted;
  case cuda::SyncScope::Warp:
  case cuda::SyncScope::Coalesced:
    return Scope::Warp;
  case cuda::SyncScope::Tile:
    return Scope::Tile;
  case cuda::SyncScope::Group:
    return Scope::Group;
  case cuda::SyncScope::Block:
    break;
  }
  return Scope::Block;
}

std::string text(const Stmt *S, const ASTContext &Ctx, size_t Max) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid())
    return {};
  bool Invalid = false;
  StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || T.empty() || T.size() > Max || T.contains('\n'))
    return {};
  return T.str();
}

std::optional<BarrierSite> barrierCall(const CallExpr *Call,
                                       const FunctionUniformity &FU,
                                       const ASTContext &Ctx) {
  auto Kind = cuda::barrierOf(Call);
  if (!Kind || Kind->Scope == cuda::SyncScope::Coalesced)
    return std::nullopt;
  BarrierSite B;
  B.S = Call;
  B.Name = text(Call, Ctx, 40);
  if (B.Name.empty())
    B.Name = calleeName(Call) + "()";
  B.Sc = scopeOf(Kind->Scope);
  B.TileSize = Kind->TileSize;
  if (B.Sc == Scope::Warp) {
    const Expr *Mask = Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
    if (!Mask || isa<CXXDefaultArgExpr>(Mask)) {
      B.Mask = 0xffffffffu;
    } else if (auto C = foldInteger(Mask, Ctx)) {
      B.Mask = uint32_t(*C);
    } else if (const UniformityValue *V = FU.value(Mask); V && V->PerThread) {
      if (auto C = V->PerThread->asConstant())
        B.Mask = uint32_t(*C);
    }
  }
  return B;
}

std::optional<BarrierSite> barrierAsm(const GCCAsmStmt *Asm) {
  auto A = cuda::asmBarrierOf(Asm);
  if (!A)
    return std::nullopt;
  BarrierSite B;
  B.S = Asm;
  B.Name = "inline asm '" + A->Mnemonic + "'";
  B.Sc = A->Counted ? Scope::Counted : Scope::Block;
  return B;
}

} // namespace divergent
} // namespace shmem
