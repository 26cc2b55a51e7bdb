//===- AsyncCopies.cpp - Accesses that meet an async copy in flight --------===//
//
// See AsyncCopies.h.
//
//===----------------------------------------------------------------------===//

#include "AsyncCopies.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>

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

} // namespace

std::vector<AsyncCopyRace> asyncCopyRaces(const KernelTrace &T) {
  std::vector<AsyncCopyRace> Out;
  if (llvm::none_of(T.Accesses, [](const SharedAccess &A) { return A.Async; }))
    return Out;
  BarrierPositions Barriers(T, /*Counted=*/false);
  std::vector<char> Found(T.Accesses.size(), 0);
  for (unsigned CI = 0; CI < T.Accesses.size(); ++CI) {
    const SharedAccess &C = T.Accesses[CI];
    if (!C.Async || C.AsyncUntracked || C.ActiveApprox)
      continue;
    unsigned Done = C.AsyncDoneSeq ? C.AsyncDoneSeq
                                   : std::numeric_limits<unsigned>::max();
    // Bytes the copy writes, by byte offset (the unknowns cancel, see
    // sameUnknowns): the writing thread.
    llvm::DenseMap<int64_t, unsigned> Writer;
    for (unsigned I = 0; I < C.Active.size(); ++I)
      if (C.Active[I])
        for (unsigned B = 0; B < C.Width; ++B)
          Writer.try_emplace(C.Address.Offset.constants()[I] + B, I);
    for (unsigned AI = 0; AI < T.Accesses.size(); ++AI) {
      const SharedAccess &A = T.Accesses[AI];
      if (AI == CI || Found[AI] || A.Seq <= C.Seq || A.Seq >= Done ||
          A.ActiveApprox || !sameMemory(A, C) ||
          !sameUnknowns(A.Address.Offset, C.Address.Offset))
        continue;
      // Other threads before any barrier: the race analysis pairs those.
      bool OthersToo = Barriers.between(C.Seq, A.Seq);
      std::optional<AsyncCopyRace> Best;
      for (unsigned U = 0; U < A.Active.size() && !(Best && Best->Writer == Best->Thread); ++U) {
        if (!A.Active[U])
          continue;
        for (unsigned B = 0; B < A.Width; ++B) {
          int64_t Byte = A.Address.Offset.constants()[U] + B;
          auto It = Writer.find(Byte);
          if (It == Writer.end() || (It->second != U && !OthersToo))
            continue;
          if (!Best || It->second == U)
            Best = AsyncCopyRace{CI, AI, It->second, U, Byte};
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
