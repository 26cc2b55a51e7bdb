//===- BranchRegions.cpp - Branches of a KernelCFG, their regions, joins --===//

#include "BranchRegions.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace shmem {

static bool isLoop(const Stmt *S) {
  return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The statement whose control flow a terminator implements: the if, loop,
/// switch or ?: around a short-circuit operand; the terminator itself
/// otherwise.
static const Stmt *constructOf(const Stmt *T, const ParentMap &PM) {
  if (isa<AbstractConditionalOperator>(T))
    return T;
  const Stmt *Cur = T;
  while (isa<Expr>(Cur)) {
    const Stmt *P = PM.getParent(Cur);
    if (!P)
      return Cur;
    auto IsCondOf = [&](const Expr *C) { return C == Cur; };
    if (const auto *If = dyn_cast<IfStmt>(P))
      return IsCondOf(If->getCond()) ? P : Cur;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return IsCondOf(W->getCond()) ? P : Cur;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return IsCondOf(D->getCond()) ? P : Cur;
    if (const auto *For = dyn_cast<ForStmt>(P))
      return IsCondOf(For->getCond()) ? P : Cur;
    if (const auto *Sw = dyn_cast<SwitchStmt>(P))
      return IsCondOf(Sw->getCond()) ? P : Cur;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P))
      return IsCondOf(CO->getCond()) ? P : Cur;
    // Climb through the operators a condition is built of.
    if (isa<ParenExpr, ImplicitCastExpr, ExprWithCleanups, ConstantExpr>(P) ||
        (isa<UnaryOperator>(P) &&
         cast<UnaryOperator>(P)->getOpcode() == UO_LNot) ||
        (isa<BinaryOperator>(P) && cast<BinaryOperator>(P)->isLogicalOp())) {
      Cur = P;
      continue;
    }
    return Cur;
  }
  return Cur;
}

/// What a branch block tests: for the blocks a short-circuit condition is
/// split into, the operand evaluated last in the block.
static const Expr *testedCondition(const CFGBlock *B) {
  const Stmt *T = B->getTerminatorStmt();
  const Expr *C = nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(T);
      BO && BO->isLogicalOp())
    C = BO->getLHS();
  else
    C = dyn_cast_or_null<Expr>(
        B->getTerminatorCondition(/*StripParens=*/false));
  while (C) {
    const auto *Inner = dyn_cast<BinaryOperator>(C->IgnoreParens());
    if (!Inner || !Inner->isLogicalOp())
      break;
    C = Inner->getRHS();
  }
  return C;
}

/// In a loop with no exit, post-dominance says nothing useful (the tree
/// hangs such blocks off virtual roots it picks). The paths from the
/// branch's successors still meet again before the loop comes round: take
/// the first block after the branch, in reverse post-order, that every
/// successor reaches without passing the branch again.
static const CFGBlock *reconvergenceInInfiniteLoop(const CFGBlock *B,
                                                   const KernelCFG &K) {
  unsigned N = K.cfg().getNumBlockIDs();
  llvm::BitVector Common(N, true);
  for (const CFGBlock::AdjacentBlock &A : B->succs()) {
    const CFGBlock *Succ = A.getReachableBlock();
    if (!Succ)
      continue;
    llvm::BitVector Reach(N);
    std::vector<const CFGBlock *> Work{Succ};
    Reach.set(Succ->getBlockID());
    while (!Work.empty()) {
      const CFGBlock *X = Work.back();
      Work.pop_back();
      for (const CFGBlock::AdjacentBlock &Y : X->succs())
        if (const CFGBlock *YB = Y.getReachableBlock();
            YB && YB != B && !Reach.test(YB->getBlockID())) {
          Reach.set(YB->getBlockID());
          Work.push_back(YB);
        }
    }
    Common &= Reach;
  }
  const CFGBlock *Best = nullptr;
  unsigned From = K.rpoIndex(B->getBlockID());
  for (unsigned ID : Common.set_bits())
    if (K.rpoIndex(ID) != KernelCFG::Unreachable && K.rpoIndex(ID) > From &&
        (!Best || K.rpoIndex(ID) < K.rpoIndex(Best->getBlockID())))
      Best = K.reversePostOrder()[K.rpoIndex(ID)];
  return Best;
}

std::unique_ptr<BranchRegions> BranchRegions::build(const KernelCFG &K,
                                                    const SourceManager &SM) {
  std::unique_ptr<BranchRegions> S(new BranchRegions);
  const CFG &G = K.cfg();
  const ParentMap &PM = K.parents();
  llvm::ArrayRef<const CFGBlock *> RPO = K.reversePostOrder();
  unsigned N = G.getNumBlockIDs();

  // The blocks with a return statement, and their returns: a branch's
  // exits are looked for in every block of its region, and the region of
  // a loop's test holds the whole body, whose statements were otherwise
  // read again for every branch in it.
  llvm::BitVector Returns(N);
  std::vector<llvm::SmallVector<const Stmt *, 1>> ReturnsOf(N);
  for (const CFGBlock *B : RPO)
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>())
        if (isa<ReturnStmt>(CS->getStmt())) {
          Returns.set(B->getBlockID());
          ReturnsOf[B->getBlockID()].push_back(CS->getStmt());
        }

  // Branches, their regions (blocks reachable from a successor before the
  // immediate post-dominator) and joins.
  // Blocks in loops that never exit hang off a virtual root of the tree,
  // which makes their post-dominators arbitrary: those are handled apart.
  llvm::BitVector CanReachExit(N);
  {
    std::vector<const CFGBlock *> Work{&G.getExit()};
    CanReachExit.set(G.getExit().getBlockID());
    while (!Work.empty()) {
      const CFGBlock *X = Work.back();
      Work.pop_back();
      for (const CFGBlock::AdjacentBlock &P : X->preds())
        if (const CFGBlock *PB = P.getReachableBlock();
            PB && !CanReachExit.test(PB->getBlockID())) {
          CanReachExit.set(PB->getBlockID());
          Work.push_back(PB);
        }
    }
  }
  S->BranchOfBlock.assign(N, -1);
  S->JoinOf.resize(N);
  for (const CFGBlock *B : RPO) {
    llvm::SmallVector<const CFGBlock *, 4> Succs;
    unsigned Distinct = 0;
    {
      llvm::SmallPtrSet<const CFGBlock *, 4> Set;
      for (const CFGBlock::AdjacentBlock &A : B->succs()) {
        const CFGBlock *SB = A.getReachableBlock();
        Succs.push_back(SB);
        if (SB && Set.insert(SB).second)
          ++Distinct;
      }
    }
    const Stmt *T = B->getTerminatorStmt();
    // Static-initialisation guards and try blocks are not thread-dependent
    // choices.
    if (Distinct < 2 || !T || isa<DeclStmt, CXXTryStmt, GCCAsmStmt>(T))
      continue;
    const Expr *Cond = testedCondition(B);
    if (!Cond)
      continue;

    BranchInfo BI;
    BI.Block = B;
    BI.Condition = Cond;
    BI.Construct = constructOf(T, PM);
    BI.IsLoopCondition = isLoop(BI.Construct);

    const CFGBlock *IPDom = nullptr;
    if (CanReachExit.test(B->getBlockID())) {
      IPDom = K.immediatePostDominator(B);
    } else {
      IPDom = reconvergenceInInfiniteLoop(B, K);
    }

    BI.Region.resize(N);
    for (const CFGBlock *Succ : Succs) {
      llvm::BitVector Reach(N);
      if (Succ && Succ != IPDom) {
        std::vector<const CFGBlock *> Work{Succ};
        Reach.set(Succ->getBlockID());
        while (!Work.empty()) {
          const CFGBlock *X = Work.back();
          Work.pop_back();
          for (const CFGBlock::AdjacentBlock &A : X->succs()) {
            const CFGBlock *Y = A.getReachableBlock();
            if (!Y || Y == IPDom || Reach.test(Y->getBlockID()))
              continue;
            Reach.set(Y->getBlockID());
            Work.push_back(Y);
          }
        }
      }
      BI.Region |= Reach;
      BI.ReachableFrom.push_back(std::move(Reach));
    }
    BI.LeavesLoop = BI.Region.test(B->getBlockID());
    if (BI.LeavesLoop)
      for (const Stmt *P = BI.Construct; P && !BI.Loop;
           P = PM.getParent(P))
        if (isLoop(P))
          BI.Loop = P;

    // Joins: label every block of the region (and the post-dominator) with
    // the successor its paths come from; a block reached with two labels
    // is a join and labels its own successors afresh. Labels only grow
    // more specific, so a few sweeps in reverse post-order converge.
    std::vector<int> Label(N, -1);
    llvm::BitVector IsJoin(N);
    auto InScope = [&](const CFGBlock *X) {
      return X && X != B &&
             (BI.Region.test(X->getBlockID()) || X == IPDom);
    };
    for (unsigned Sweep = 0, Changed = 1; Changed && Sweep < N + 2; ++Sweep) {
      Changed = 0;
      for (const CFGBlock *X : RPO) {
        if (!InScope(X))
          continue;
        // The labels coming in: only whether there are none, one (which)
        // or several matters, so no set is built (this loop runs for every
        // block of every branch's sweeps: a set here was a fifth of the
        // regions' cost on ggml's mmq kernels).
        int In = -1;
        bool Several = false;
        for (const CFGBlock::AdjacentBlock &A : X->preds()) {
          const CFGBlock *P = A.getReachableBlock();
          if (!P)
            continue;
          int L = -1;
          if (P == B)
            L = int(X->getBlockID());
          else if (BI.Region.test(P->getBlockID()) &&
                   Label[P->getBlockID()] >= 0)
            L = Label[P->getBlockID()];
          if (L < 0)
            continue;
          if (In < 0)
            In = L;
          else if (L != In)
            Several = true;
        }
        if (In < 0)
          continue;
        unsigned ID = X->getBlockID();
        if (Several && !IsJoin.test(ID)) {
          IsJoin.set(ID);
          Changed = 1;
        }
        int New = IsJoin.test(ID) ? int(ID) : In;
        if (Label[ID] != New) {
          Label[ID] = New;
          Changed = 1;
        }
      }
    }
    // Threads that leave a loop at different iterations disagree on what
    // the loop assigned, wherever they leave to.
    if (BI.LeavesLoop && IPDom)
      IsJoin.set(IPDom->getBlockID());
    for (const CFGBlock *X : RPO)
      if (IsJoin.test(X->getBlockID()))
        BI.Joins.push_back(X);

    BI.ReturnsInRegion = Returns.anyCommon(BI.Region);

    // Early exits out of the construct, for messages.
    for (const CFGBlock *X : RPO) {
      if (!BI.Region.test(X->getBlockID()))
        continue;
      auto Consider = [&](const Stmt *J) {
        if (J && J != BI.Construct && isWithin(J, BI.Construct, PM))
          BI.Exits.push_back(J);
      };
      const Stmt *XT = X->getTerminatorStmt();
      if (isa_and_nonnull<BreakStmt, ContinueStmt, GotoStmt>(XT))
        Consider(XT);
      for (const Stmt *R : ReturnsOf[X->getBlockID()])
        Consider(R);
    }
    llvm::sort(BI.Exits, [&](const Stmt *A, const Stmt *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });

    S->BranchOfBlock[B->getBlockID()] = int(S->Branches.size());
    for (const CFGBlock *J : BI.Joins)
      S->JoinOf[J->getBlockID()].push_back(S->Branches.size());
    S->Branches.push_back(std::move(BI));
  }
  return S;
}

} // namespace shmem
