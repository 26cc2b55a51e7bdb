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

/// Whether mbarrier addresses \p A (in thread \p TA) and \p B (in thread
/// \p TB) are one barrier: the same shared bytes, or either not known.
bool sameBarrier(const std::optional<PointerValue> &A, unsigned TA,
                 const std::optional<PointerValue> &B, unsigned TB) {
  if (!A || !B)
    return true;
  if (!sameMemory(*A, *B))
    return false;
  std::optional<int64_t> AB = plainOffset(*A, TA);
  std::optional<int64_t> BB = plainOffset(*B, TB);
  return !AB || !BB || *AB == *BB;
}

/// Whether wait \p W is on the mbarrier copy \p C completes (as its
/// first thread names it).
bool sameBarrier(const BulkCopyEvent &C, unsigned Writer,
                 const BarrierWaitEvent &W) {
  for (unsigned Th = 0; Th < W.Active.size(); ++Th)
    if (W.Active[Th])
      return sameBarrier(C.Barrier, Writer, W.Barrier, Th);
  return true;
}

/// The single thread that issues \p C, when the walk knows it exactly.
std::optional<unsigned> soleIssuer(const BulkCopyEvent &C) {
  if (C.ActiveApprox)
    return std::nullopt;
  std::optional<unsigned> One;
  for (unsigned U = 0; U < C.Active.size(); ++U)
    if (C.Active[U]) {
      if (One)
        return std::nullopt;
      One = U;
    }
  return One;
}

bool inLoopNotUnrolled(const std::vector<int> &Iterations) {
  return llvm::is_contained(Iterations, -1);
}

} // namespace

std::vector<BulkCopyReuse>
bulkCopyReuses(const KernelTrace &T,
               const std::vector<std::optional<uint64_t>> &Footprints) {
  std::vector<BulkCopyReuse> Out;
  if (T.BulkCopies.size() < 2)
    return Out;
  BarrierPositions Barriers(T, /*Counted=*/false);
  for (unsigned CI = 1; CI < T.BulkCopies.size(); ++CI) {
    const BulkCopyEvent &C = T.BulkCopies[CI];
    std::optional<unsigned> P = soleIssuer(C);
    if (!P || !C.Dst || CI >= Footprints.size() || !Footprints[CI] ||
        inLoopNotUnrolled(C.LoopIterations))
      continue;
    std::optional<int64_t> Lo = plainOffset(*C.Dst, *P);
    if (!Lo)
      continue;
    int64_t Hi = *Lo + int64_t(*Footprints[CI]);
    bool Reported = false;
    // The latest earlier copy of the same thread into these bytes: what the
    // reads between the two consume.
    for (unsigned EI = CI; EI-- > 0 && !Reported;) {
      const BulkCopyEvent &E = T.BulkCopies[EI];
      if (soleIssuer(E) != P || !E.Dst || !Footprints[EI] ||
          inLoopNotUnrolled(E.LoopIterations) || !sameMemory(*E.Dst, *C.Dst))
        continue;
      std::optional<int64_t> ELo = plainOffset(*E.Dst, *P);
      if (!ELo)
        continue;
      int64_t From = std::max(*Lo, *ELo);
      int64_t To = std::min(Hi, *ELo + int64_t(*Footprints[EI]));
      if (From >= To)
        continue;
      // A block barrier between the copies orders everything around it
      // (the non-specialised loop: copy, wait, read, __syncthreads()).
      if (Barriers.between(E.Seq, C.Seq))
        break;
      std::vector<unsigned> Waits;
      for (unsigned WI = 0; WI < T.BarrierWaits.size(); ++WI) {
        const BarrierWaitEvent &W = T.BarrierWaits[WI];
        if (W.Seq > E.Seq && W.Seq < C.Seq && W.Active.size() > *P &&
            W.Active[*P])
          Waits.push_back(WI);
      }
      // Per reading thread, its reads of these bytes since the earlier
      // copy. One that is released shows the thread's release protocol:
      // its later reads may consume the new copy itself (phases are not
      // counted), and a pipeline need not release a stage's last use. A
      // thread none of whose reads is released is reported, at its first.
      const unsigned N = T.Geometry.threads();
      std::vector<char> ReleasedOnce(N, 0);
      std::vector<std::optional<std::pair<unsigned, int64_t>>> First(N);
      for (unsigned AI = 0; AI < T.Accesses.size(); ++AI) {
        const SharedAccess &A = T.Accesses[AI];
        if (A.Kind != AccessKind::Load || A.Async || A.ActiveApprox ||
            A.Seq <= E.Seq || !sameMemory(A.Address, *C.Dst))
          continue;
        for (unsigned Th = 0; Th < A.Active.size() && Th < N; ++Th) {
          if (!A.Active[Th] || Th == *P || ReleasedOnce[Th])
            continue;
          std::optional<int64_t> B = plainOffset(A.Address, Th);
          if (!B || *B + int64_t(A.Width) <= From || *B >= To)
            continue;
          // Released: a block barrier between the read and the new copy,
          // or an arrive by the reader after the read on an mbarrier the
          // writer waits on between the copies.
          auto ReleasedBy = [&](const BarrierArriveEvent &R) {
            return R.Seq > A.Seq && !R.ActiveApprox && R.Active.size() > Th &&
                   R.Active[Th] && llvm::any_of(Waits, [&](unsigned WI) {
                     return sameBarrier(R.Barrier, Th,
                                        T.BarrierWaits[WI].Barrier, *P);
                   });
          };
          if ((A.Seq < C.Seq && Barriers.between(A.Seq, C.Seq)) ||
              llvm::any_of(T.BarrierArrives, ReleasedBy)) {
            ReleasedOnce[Th] = 1;
            continue;
          }
          if (!First[Th])
            First[Th] = std::make_pair(AI, std::max(*B, From));
        }
      }
      std::optional<unsigned> Pick;
      for (unsigned Th = 0; Th < N; ++Th)
        if (First[Th] && !ReleasedOnce[Th] &&
            (!Pick || First[Th]->first < First[*Pick]->first))
          Pick = Th;
      if (Pick) {
        Out.push_back({CI, EI, First[*Pick]->first, *P, *Pick,
                       First[*Pick]->second, Waits});
        Reported = true;
      }
      break;
    }
  }
  return Out;
}

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
