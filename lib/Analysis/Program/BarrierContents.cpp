//===- Program/BarrierContents.cpp - Synchronisation a call runs ----------===//

#include "BarrierContents.h"

#include "CallContexts.h"
#include "CudaModel.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace shmem {

class BarrierContents::Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(BarrierContents &BC, BarrierContent &Out) : BC(BC), Out(Out) {}

  bool VisitCallExpr(CallExpr *Call) {
    if (auto B = cuda::barrierOf(Call)) {
      if (B->Scope == cuda::SyncScope::Coalesced)
        return true;
      auto &Path = B->WarpLevel ? Out.WarpPath : Out.BlockPath;
      if (Path.empty())
        Path.push_back(Call);
      return true;
    }
    if (cuda::isMaskedCollective(Call)) {
      if (Out.CollectivePath.empty())
        Out.CollectivePath.push_back(Call);
      return true;
    }
    if (const FunctionDecl *Def = followedCallee(Call, BC.Ctx)) {
      const BarrierContent &Sub = BC.of(Def);
      auto Take = [&](std::vector<const Stmt *> &Path,
                      const std::vector<const Stmt *> &From) {
        if (Path.empty() && !From.empty()) {
          Path.push_back(Call);
          Path.insert(Path.end(), From.begin(), From.end());
        }
      };
      Take(Out.BlockPath, Sub.BlockPath);
      Take(Out.CountedPath, Sub.CountedPath);
      Take(Out.WarpPath, Sub.WarpPath);
      Take(Out.CollectivePath, Sub.CollectivePath);
    }
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    if (auto A = cuda::asmBarrierOf(Asm)) {
      auto &Path = A->Counted ? Out.CountedPath : Out.BlockPath;
      if (Path.empty())
        Path.push_back(Asm);
    }
    return true;
  }

private:
  BarrierContents &BC;
  BarrierContent &Out;
};

const BarrierContent &BarrierContents::of(const FunctionDecl *F) {
  auto It = Memo.find(F);
  if (It != Memo.end())
    return It->second;
  Memo[F]; // Empty while in progress: cuts recursion.
  BarrierContent Found;
  Visitor V(*this, Found);
  V.TraverseStmt(F->getBody());
  return Memo[F] = std::move(Found);
}

const BarrierContent &BarrierContents::ofConstexprSide(const IfStmt *If,
                                                       bool Sense,
                                                       const FunctionDecl *F) {
  auto [It, New] = PatternSides.try_emplace({If, Sense});
  if (New) {
    It->second = Sense ? If->getThen() : If->getElse();
    const FunctionDecl *Pattern =
        F ? F->getTemplateInstantiationPattern() : nullptr;
    if (Pattern && Pattern->getBody()) {
      // The pattern's `if constexpr` at the same place.
      struct Finder : RecursiveASTVisitor<Finder> {
        SourceLocation Loc;
        const IfStmt *Found = nullptr;
        bool VisitIfStmt(IfStmt *S) {
          if (S->isConstexpr() && S->getBeginLoc() == Loc)
            Found = S;
          return !Found;
        }
      } Find;
      Find.Loc = If->getBeginLoc();
      Find.TraverseStmt(Pattern->getBody());
      if (Find.Found)
        It->second = Sense ? Find.Found->getThen() : Find.Found->getElse();
    }
  }
  static const BarrierContent None;
  return It->second ? ofStatement(It->second) : None;
}

const BarrierContent &BarrierContents::ofStatement(const Stmt *S) {
  auto [It, New] = StatementMemo.try_emplace(S);
  if (New) {
    BarrierContent Found;
    Visitor V(*this, Found);
    V.TraverseStmt(const_cast<Stmt *>(S));
    It->second = std::move(Found);
  }
  return It->second;
}

} // namespace shmem
