//===- Worklist.cpp - One worklist driver over a KernelCFG's blocks -------===//

#include "Worklist.h"

using namespace clang;

namespace shmem {

BlockWorklist::BlockWorklist(const KernelCFG &G)
    : G(G), Pending(G.reversePostOrder().size()) {}

void BlockWorklist::push(const CFGBlock *B) {
  if (!B)
    return;
  unsigned I = G.rpoIndex(B->getBlockID());
  if (I != KernelCFG::Unreachable)
    Pending.set(I);
}

void BlockWorklist::pushAll() { Pending.set(); }

const CFGBlock *BlockWorklist::pop() {
  int I = Pending.find_first();
  if (I < 0)
    return nullptr;
  Pending.reset(unsigned(I));
  return G.reversePostOrder()[unsigned(I)];
}

FixpointRun runToFixpoint(
    const KernelCFG &G, unsigned MaxSteps,
    llvm::function_ref<void(const CFGBlock *, BlockWorklist &)> Visit) {
  BlockWorklist W(G);
  W.pushAll();
  FixpointRun Run;
  while (!W.empty()) {
    if (Run.Steps == MaxSteps) {
      Run.Result = FixpointResult::CapReached;
      break;
    }
    ++Run.Steps;
    Visit(W.pop(), W);
  }
  return Run;
}

} // namespace shmem
