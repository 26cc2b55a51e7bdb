//===- BulkCopies.cpp - Accesses that meet a TMA copy in flight -----------===//
//
// See BulkCopies.h.
//
//===----------------------------------------------------------------------===//

#include "BulkCopies.h"

#include "llvm/ADT/STLExtras.h"

namespace shmem {

namespace {

bool sameMemory(const PointerValue &A, const PointerValue &B) {
  return A.DynamicShared ? B.DynamicShared : A.Base == B.Base;
}

/// Whether wait \p W is on the mbarrier copy \p C completes: the same
/// shared bytes, or either not known.
bool sameBarrier(const BulkCopyEvent &C, unsigned Writer,
                 const BarrierWaitEvent &W) {
  if (!C.Barrier || !W.Barrier)
    return true;
  if (!sameMemory(*C.Barrier, *W.Barrier))
    return false;
  std::optional<int64_t> CB = plainOffset(*C.Barrier, Writer);
  if (!CB)
    return true;
  for (unsigned Th = 0; Th < W.Active.size(); ++Th)
    if (W.Active[Th]) {
      std::optional<int64_t> WB = plainOffset(*W.Barrier, Th);
      return !WB || *WB == *CB;
    }
  return true;
}

} // namespace

std::vector<BulkCopyRace>
bulkCopyRaces(const KernelTrace &T,
              const std::vector<std::optional<uint64_t>> &Footprints) {
  std::vector<BulkCopyRace> Out;
  if (T.BulkCopies.empty())
    return Out;
  BarrierPositions Barriers(T, /*Counted=*/false);
  std::vector<char> Found(T.Accesses.size(), 0);
  for (unsigned CI = 0; CI < T.BulkCopies.size(); ++CI) {
    const BulkCopyEvent &C = T.BulkCopies[CI];
    if (!C.Dst || CI >= Footprints.size() || !Footprints[CI])
      continue;
    // Issued by threads the walk does not know exactly (`if
    // (elect_sync())`): judged when every thread that may issue it names
    // the same destination, as the first of them.
    std::optional<int64_t> Same;
    bool OneDst = true;
    for (unsigned U = 0; U < C.Active.size() && OneDst; ++U)
      if (C.Active[U]) {
        std::optional<int64_t> D = plainOffset(*C.Dst, U);
        OneDst = D && (!Same || *Same == *D);
        Same = D;
      }
    if (C.ActiveApprox && !OneDst)
      continue;
    bool FirstOnly = C.ActiveApprox;
    for (unsigned U = 0; U < C.Active.size(); ++U) {
      if (!C.Active[U])
        continue;
      std::optional<int64_t> Lo = plainOffset(*C.Dst, U);
      if (!Lo)
        continue;
      int64_t Hi = *Lo + int64_t(*Footprints[CI]);
      // The waits that complete this copy, in program order.
      std::vector<unsigned> Waits;
      for (unsigned WI = 0; WI < T.BarrierWaits.size(); ++WI) {
        const BarrierWaitEvent &W = T.BarrierWaits[WI];
        if (W.Seq > C.Seq && !W.ActiveApprox && sameBarrier(C, U, W))
          Waits.push_back(WI);
      }
      for (unsigned AI = 0; AI < T.Accesses.size(); ++AI) {
        const SharedAccess &A = T.Accesses[AI];
        if (Found[AI] || A.Async || A.Seq <= C.Seq || A.ActiveApprox ||
            !sameMemory(A.Address, *C.Dst))
          continue;
        // Ordered in thread Th: a wait between the issue and the access
        // that Th makes, or that some thread makes before a block barrier
        // the access follows.
        auto Ordered = [&](unsigned Th) {
          for (unsigned WI : Waits) {
            const BarrierWaitEvent &W = T.BarrierWaits[WI];
            if (W.Seq >= A.Seq)
              break;
            if (W.Active[Th] || Barriers.between(W.Seq, A.Seq))
              return true;
          }
          return false;
        };
        for (unsigned Th = 0; Th < A.Active.size(); ++Th) {
          if (!A.Active[Th])
            continue;
          std::optional<int64_t> B = plainOffset(A.Address, Th);
          if (!B || *B + int64_t(A.Width) <= *Lo || *B >= Hi || Ordered(Th))
            continue;
          BulkCopyRace R{CI, AI, U, Th, std::max(*B, *Lo), std::nullopt};
          for (unsigned WI : Waits)
            if (T.BarrierWaits[WI].Seq < A.Seq) {
              R.Wait = WI;
              break;
            }
          if (!R.Wait && !Waits.empty())
            R.Wait = Waits.front();
          Out.push_back(R);
          Found[AI] = 1;
          break;
        }
      }
      if (FirstOnly)
        break;
    }
  }
  return Out;
}

} // namespace shmem
