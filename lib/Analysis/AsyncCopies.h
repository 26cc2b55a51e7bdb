//===- AsyncCopies.h - Accesses that meet an async copy in flight -*- C++ -*-===//
//
// A cp.async (LDGSTS) writes shared memory at some time between its issue
// and the issuing thread's wait for its group; no barrier completes it. So
// any access to its bytes after the issue and before that wait races with
// the copy: the issuing thread's own read (program order does not order
// it), and another thread's read even after a __syncthreads() that the
// wait does not precede. Measured on the H200 (bench/gpu/widths,
// asyncrace.cu): such reads return the old value in up to every thread,
// and racecheck reports "invalid memcpy_async synchronization".
//
// The race analysis pairs the copy, as a store where it is issued, with
// the accesses of its own barrier interval; this finds the pairs it cannot
// see: those of the issuing thread, and those a barrier seems to order.
//
// An access under a data-dependent condition counts in the threads that
// may run it (if it runs, it meets the copy). An access in a loop walked
// symbolically (`for (i = 0; i < n; ++i)`) whose address does not compare
// with the copy's is evaluated in the loop's first iteration, the kernel
// walked again with the iteration pinned, as the race analysis does.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_ASYNCCOPIES_H
#define SHMEM_LINT_ANALYSIS_ASYNCCOPIES_H

#include "KernelTrace.h"

#include <vector>

namespace shmem {

struct AsyncCopyRace {
  unsigned Copy = 0;   ///< The async copy (index into KernelTrace::Accesses).
  unsigned Access = 0; ///< The access that meets it in flight.
  unsigned Writer = 0; ///< The thread whose copy it is.
  unsigned Thread = 0; ///< The thread that makes the access.
  int64_t Byte = 0;    ///< The first byte both touch, from the array's start.
  /// The innermost loop walked symbolically around the access when the
  /// pair was found in the first iteration of its loops, else null.
  const clang::Stmt *FirstIterationOf = nullptr;
};

/// The first such pair of each access of \p T that meets a copy in flight,
/// the issuing thread's own access preferred.
std::vector<AsyncCopyRace> asyncCopyRaces(clang::ASTContext &Ctx,
                                          const KernelTrace &T,
                                          const AnalysisOptions &Opts);

} // namespace shmem

#endif
