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
// a false report.
//
// The other direction is the reuse of a buffer: a thread that copies into
// bytes again must first know that every thread reading the earlier copy
// is done. In a warp-specialised pipeline that is the "empty" mbarrier:
// the consumers arrive on it after their reads, the producer waits on it
// before the next copy into the stage (bulkCopyReuses). Judged between two
// copies of one thread into overlapping bytes, both with known addresses
// (an unrolled loop, straight-line code): a consumer's read of those bytes
// is released when the consumer arrives on an mbarrier after it and the
// producer waits on that mbarrier between the two copies, or a block
// barrier separates the read from the second copy. Phases are not counted
// (any such wait and arrive count), so a reader with one released read of
// the bytes is trusted: its later reads may consume the new copy itself,
// and a pipeline need not release a stage's last use. Silent when in
// doubt, never a false report. Copies in a loop the walk does not unroll
// are not judged.
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

/// A bulk copy into bytes that another thread reads from an earlier copy,
/// with nothing that orders the read before the new copy.
struct BulkCopyReuse {
  unsigned Copy = 0;    ///< The copy that overwrites (BulkCopies).
  unsigned Earlier = 0; ///< The same thread's earlier copy there.
  unsigned Access = 0;  ///< The read (Accesses).
  unsigned Writer = 0;  ///< The thread that issues both copies.
  unsigned Thread = 0;  ///< The reading thread.
  int64_t Byte = 0;     ///< The first byte both touch, from the array's start.
  /// The writer's waits between the two copies, none of them on an
  /// mbarrier the reader arrives on after its read (empty when it makes
  /// none).
  std::vector<unsigned> Waits; ///< Indices into KernelTrace::BarrierWaits.
};

/// The first such reuse of each copy of \p T (Footprints as below).
std::vector<BulkCopyReuse>
bulkCopyReuses(const KernelTrace &T,
               const std::vector<std::optional<uint64_t>> &Footprints);

/// The first such pair of each access of \p T that meets a bulk copy in
/// flight. \p Footprints, parallel to T.BulkCopies, gives the bytes each
/// copy writes from its destination; a copy without one is not judged.
std::vector<BulkCopyRace>
bulkCopyRaces(const KernelTrace &T,
              const std::vector<std::optional<uint64_t>> &Footprints);

} // namespace shmem

#endif
