//===- PinnedWalks.cpp - A kernel walked again with loops pinned ----------===//
//
// See PinnedWalks.h.
//
//===----------------------------------------------------------------------===//

#include "PinnedWalks.h"

namespace shmem {

PinnedWalk::InstanceKey PinnedWalk::keyOf(const SharedAccess &A) {
  return {A.E, int(A.Kind), A.CallStack, A.LoopIterations};
}

const SharedAccess *PinnedWalk::instanceOf(const SharedAccess &A) const {
  auto It = Index.find(keyOf(A));
  return It == Index.end() ? nullptr : &T.Accesses[It->second];
}

const PinnedWalk *PinnedWalks::walk(const PinnedLoops &Pins) {
  auto It = Walks.find(Pins);
  if (It != Walks.end())
    return It->second.get();
  if (Walks.size() >= Cap)
    return nullptr;
  IterationPins P;
  for (const auto &[Loop, Iteration] : Pins)
    P.Loops[Loop] = Iteration;
  auto W = std::make_unique<PinnedWalk>();
  W->T = retraceKernel(Ctx, Base, Opts, /*Pad=*/nullptr, &P);
  // The first instance of a key: the order the walk met them in.
  for (unsigned I = 0; I < W->T.Accesses.size(); ++I)
    W->Index.try_emplace(PinnedWalk::keyOf(W->T.Accesses[I]), I);
  return (Walks[Pins] = std::move(W)).get();
}

} // namespace shmem
