//===- BulkCopies.h - Accesses that meet a TMA copy in flight ---*- C++ -*-===//
//
// A bulk tensor copy (TMA) is issued by one thread and written by the copy
// engine at some time before the mbarrier phase it completes ends. A thread
// may touch the destination only once it has seen that phase complete:
// after its own wait on the mbarrier, or after a block barrier that follows
// another thread's wait. Measured on the H200 (bench/gpu/tma): readers that
// do not wait read the old contents in every block (noWait: 262,144 of
// 262,144 reads stale), a wait by one thread followed by __syncthreads()
// orders every reader (waitThenSync: none stale); compute-sanitizer's
// racecheck reports neither (it does not follow the async proxy).
//
// Ordering is judged on the walk's program order: a wait counts for a copy
// when it comes after the copy's issue in the walk and names the same
// mbarrier (or either's barrier is not known). That also accepts the wait
// of an earlier stage of a pipeline that reuses one mbarrier: silent, never
// a false report. A write to the destination before the copy is issued
// (reuse of a buffer that consumers still read) is not judged here.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_BULKCOPIES_H
#define SHMEM_LINT_ANALYSIS_BULKCOPIES_H

#include "KernelTrace.h"

#include <optional>
#include <vector>

namespace shmem {

struct BulkCopyRace {
  unsigned Copy = 0;   ///< Index into KernelTrace::BulkCopies.
  unsigned Access = 0; ///< Index into KernelTrace::Accesses.
  /// The thread that issued the copy; when the copy's threads are not
  /// known exactly (KernelTrace::BulkCopies' ActiveApprox), the first that
  /// may have.
  unsigned Writer = 0;
  unsigned Thread = 0; ///< The thread that makes the access.
  int64_t Byte = 0;    ///< The first byte both touch, from the array's start.
  /// A wait that completes the copy, which the access's thread neither
  /// makes nor follows through a block barrier; none when no wait for the
  /// copy follows its issue.
  std::optional<unsigned> Wait; ///< Index into KernelTrace::BarrierWaits.
};

/// The first such pair of each access of \p T that meets a bulk copy in
/// flight. \p Footprints, parallel to T.BulkCopies, gives the bytes each
/// copy writes from its destination; a copy without one is not judged.
std::vector<BulkCopyRace>
bulkCopyRaces(const KernelTrace &T,
              const std::vector<std::optional<uint64_t>> &Footprints);

} // namespace shmem

#endif
