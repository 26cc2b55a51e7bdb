//===- KernelCFG.cpp - One clang::CFG per function, shared ----------------===//

#include "KernelCFG.h"
#include "BranchRegions.h"

#include <map>

using namespace clang;

namespace shmem {

KernelCFG::~KernelCFG() = default;

std::unique_ptr<KernelCFG> KernelCFG::build(ASTContext &Ctx,
                                            const FunctionDecl *F) {
  Stmt *Body = F ? F->getBody() : nullptr;
  if (!Body)
    return nullptr;
  std::unique_ptr<KernelCFG> K(new KernelCFG);
  K->F = F;
  K->SM = &Ctx.getSourceManager();
  CFG::BuildOptions BO;
  // Every subexpression is its own element, in evaluation order: a
  // transfer function then never evaluates an operand twice, the operands
  // of && and || live in the blocks that evaluate them, and each access and
  // barrier the walker saw has a position.
  BO.setAllAlwaysAdd();
  K->Cfg = CFG::buildCFG(F, Body, &Ctx, BO);
  if (!K->Cfg)
    return nullptr;
  K->PM = std::make_unique<ParentMap>(Body);
  unsigned NB = K->Cfg->getNumBlockIDs();
  K->Blocks.assign(NB, nullptr);
  for (const CFGBlock *B : *K->Cfg) {
    K->Blocks[B->getBlockID()] = B;
    if (isa_and_nonnull<GotoStmt, IndirectGotoStmt>(B->getTerminatorStmt()))
      K->Goto = true;
    for (unsigned I = 0; I < B->size(); ++I)
      if (auto CS = (*B)[I].getAs<CFGStmt>())
        K->Elem.try_emplace(CS->getStmt(), B->getBlockID(), I);
  }

  // Reverse post-order from the entry, iteratively: a long kernel is deep.
  K->RPOIndex.assign(NB, Unreachable);
  {
    std::vector<const CFGBlock *> Post;
    llvm::BitVector Seen(NB);
    std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>>
        Stack;
    const CFGBlock *Entry = &K->Cfg->getEntry();
    Seen.set(Entry->getBlockID());
    Stack.push_back({Entry, Entry->succ_begin()});
    while (!Stack.empty()) {
      auto &[B, It] = Stack.back();
      if (It == B->succ_end()) {
        Post.push_back(B);
        Stack.pop_back();
        continue;
      }
      const CFGBlock *Succ = It->getReachableBlock();
      ++It;
      if (Succ && !Seen.test(Succ->getBlockID())) {
        Seen.set(Succ->getBlockID());
        Stack.push_back({Succ, Succ->succ_begin()});
      }
    }
    K->RPO.assign(Post.rbegin(), Post.rend());
    for (unsigned I = 0; I < K->RPO.size(); ++I)
      K->RPOIndex[K->RPO[I]->getBlockID()] = I;
  }

  // Loops: the CFG marks the block that jumps back to a loop's start with
  // the loop statement. The loop's body is the natural loop of that back
  // edge: its target plus every block that reaches the jump without passing
  // through the target.
  std::map<const Stmt *, unsigned> LoopIdx;
  for (const CFGBlock *B : *K->Cfg) {
    const Stmt *L = B->getLoopTarget();
    if (!L)
      continue;
    auto [It, New] = LoopIdx.try_emplace(L, K->Loops.size());
    if (New) {
      K->Loops.emplace_back();
      K->Loops.back().L = L;
      K->Loops.back().Body.resize(NB);
    }
    Loop &Lp = K->Loops[It->second];
    Lp.BackSources.push_back(B->getBlockID());
    for (const CFGBlock *H : B->succs())
      if (H)
        Lp.Headers.push_back(H->getBlockID());
  }
  for (Loop &Lp : K->Loops) {
    std::vector<unsigned> Work;
    for (unsigned H : Lp.Headers)
      Lp.Body.set(H);
    for (unsigned S : Lp.BackSources)
      if (!Lp.Body.test(S)) {
        Lp.Body.set(S);
        Work.push_back(S);
      }
    while (!Work.empty()) {
      const CFGBlock *B = K->Blocks[Work.back()];
      Work.pop_back();
      for (const CFGBlock *P : B->preds())
        if (P && !Lp.Body.test(P->getBlockID())) {
          Lp.Body.set(P->getBlockID());
          Work.push_back(P->getBlockID());
        }
    }
  }
  return K;
}

std::optional<std::pair<unsigned, unsigned>>
KernelCFG::enclosingElement(const Stmt *S) const {
  for (unsigned Depth = 0; S && Depth < 64; ++Depth) {
    if (auto E = element(S))
      return E;
    S = PM->getParent(S);
  }
  return std::nullopt;
}

const CFGBlock *KernelCFG::immediatePostDominator(const CFGBlock *B) const {
  if (!PDT)
    PDT = std::make_unique<CFGPostDomTree>(Cfg.get());
  if (auto *Node = PDT->getBase().getNode(const_cast<CFGBlock *>(B)))
    if (auto *IDom = Node->getIDom())
      return IDom->getBlock();
  return nullptr;
}

const BranchRegions &KernelCFG::branchRegions() const {
  if (!Regions)
    Regions = BranchRegions::build(*this, *SM);
  return *Regions;
}

const KernelCFG *ProgramCFGs::get(const FunctionDecl *F) {
  auto [It, New] = Graphs.try_emplace(F);
  if (New)
    It->second = KernelCFG::build(Ctx, F);
  return It->second.get();
}

} // namespace shmem
