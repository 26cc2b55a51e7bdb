//===- AsyncCopies.cpp - Accesses that meet an async copy in flight --------===//
//
// See AsyncCopies.h.
//
//===----------------------------------------------------------------------===//

#include "AsyncCopies.h"

#include "PinnedWalks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>
#include <optional>

namespace shmem {

namespace {

bool sameMemory(const SharedAccess &A, const SharedAccess &B) {
  return A.Address.DynamicShared ? B.Address.DynamicShared
                                 : A.Address.Base == B.Address.Base;
}

/// Whether the unknowns of \p A's and \p B's offsets are the same uniform
/// terms, so that the byte distance between any two threads' accesses is
/// known.
bool sameUnknowns(const LaneValue &A, const LaneValue &B) {
  if (!A.isAffine() || !B.isAffine() ||
      A.coefficients().size() != B.coefficients().size())
    return false;
  for (const auto &[S, C] : A.coefficients()) {
    auto It = B.coefficients().find(S);
    std::optional<int64_t> CA = C.splatValue();
    if (It == B.coefficients().end() || !CA || It->second.splatValue() != CA)
      return false;
  }
  return true;
}

/// The bytes \p C writes, by byte offset (the unknowns cancel, see
/// sameUnknowns): the writing thread.
llvm::DenseMap<int64_t, unsigned> writers(const SharedAccess &C) {
  llvm::DenseMap<int64_t, unsigned> Writer;
  for (unsigned I = 0; I < C.Active.size(); ++I)
    if (C.Active[I])
      for (unsigned B = 0; B < C.Width; ++B)
        Writer.try_emplace(C.Address.Offset.constants()[I] + B, I);
  return Writer;
}

/// \p A's loops walked symbolically, pinned to their first iteration.
PinnedLoops firstIterations(const SharedAccess &A) {
  PinnedLoops Out;
  for (unsigned P = 0; P < A.Loops.size(); ++P)
    if (P < A.LoopIterations.size() && A.LoopIterations[P] < 0)
      Out.push_back({A.Loops[P], 0});
  return Out;
}

/// A few loop nests per kernel: each costs a walk of the kernel.
constexpr unsigned MaxFirstIterationWalks = 8;

} // namespace

std::vector<AsyncCopyRace> asyncCopyRaces(clang::ASTContext &Ctx,
                                          const KernelTrace &T,
                                          const AnalysisOptions &Opts) {
  std::vector<AsyncCopyRace> Out;
  if (llvm::none_of(T.Accesses, [](const SharedAccess &A) { return A.Async; }))
    return Out;
  BarrierPositions Barriers(T, /*Counted=*/false);
  PinnedWalks Pinned(Ctx, T, Opts, MaxFirstIterationWalks);
  std::vector<char> Found(T.Accesses.size(), 0);
  for (unsigned CI = 0; CI < T.Accesses.size(); ++CI) {
    const SharedAccess &C = T.Accesses[CI];
    if (!C.Async || C.AsyncUntracked || C.ActiveApprox)
      continue;
    unsigned Done = C.AsyncDoneSeq ? C.AsyncDoneSeq
                                   : std::numeric_limits<unsigned>::max();
    // The bytes C writes, built at the first access that needs them.
    std::optional<llvm::DenseMap<int64_t, unsigned>> Writes;
    for (unsigned AI = 0; AI < T.Accesses.size(); ++AI) {
      const SharedAccess &A0 = T.Accesses[AI];
      if (AI == CI || Found[AI] || A0.Seq <= C.Seq || A0.Seq >= Done ||
          !sameMemory(A0, C))
        continue;
      // The two instances whose offsets compare: these, or those of the
      // walk with the access's loops in their first iteration.
      const SharedAccess *A = &A0, *Copy = &C;
      PinnedLoops Loops;
      if (!sameUnknowns(A->Address.Offset, Copy->Address.Offset)) {
        Loops = firstIterations(A0);
        const PinnedWalk *W = Loops.empty() ? nullptr : Pinned.walk(Loops);
        A = W ? W->instanceOf(A0) : nullptr;
        Copy = W ? W->instanceOf(C) : nullptr;
        if (!A || !Copy || Copy->ActiveApprox ||
            !sameUnknowns(A->Address.Offset, Copy->Address.Offset))
          continue;
      }
      // A pinned walk's instance writes its own bytes.
      llvm::DenseMap<int64_t, unsigned> PinnedWrites;
      if (Copy != &C)
        PinnedWrites = writers(*Copy);
      else if (!Writes)
        Writes = writers(C);
      const llvm::DenseMap<int64_t, unsigned> &Writer =
          Copy == &C ? *Writes : PinnedWrites;
      // Other threads before any barrier: the race analysis pairs those.
      bool OthersToo = Barriers.between(C.Seq, A0.Seq);
      std::optional<AsyncCopyRace> Best;
      for (unsigned U = 0; U < A->Active.size(); ++U) {
        if (Best && Best->Writer == Best->Thread)
          break;
        if (!A->Active[U])
          continue;
        for (unsigned B = 0; B < A->Width; ++B) {
          int64_t Byte = A->Address.Offset.constants()[U] + B;
          auto It = Writer.find(Byte);
          if (It == Writer.end() || (It->second != U && !OthersToo))
            continue;
          if (!Best || It->second == U)
            Best = AsyncCopyRace{CI, AI, It->second, U, Byte,
                                 A == &A0 ? nullptr : Loops.back().first};
          break;
        }
      }
      if (Best) {
        Found[AI] = 1;
        Out.push_back(*Best);
      }
    }
  }
  return Out;
}

} // namespace shmem
