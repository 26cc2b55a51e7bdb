//===- ExitedThreadData.h - Survivors reading what exited threads skip -*-===//
//
// Part of shmem-divergent-barrier. A thread that returns from the kernel
// before a __syncthreads() does not hold the barrier up (a bar.sync waits
// for the threads that have not exited, PTX ISA 6 and later), so the check
// does not report such a barrier; what goes wrong is the data: a surviving
// thread that reads, after the barrier, an element only an exited thread
// would have written reads a value nobody wrote (a tree reduction after
// `if (i >= n) return;`).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_EXITEDTHREADDATA_H
#define SHMEM_LINT_CHECKS_EXITEDTHREADDATA_H

#include "Checks.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace shmem {

/// A block barrier in the kernel's own body, or a call there to a function
/// that executes one, that every thread reaches unless it has returned from
/// the kernel (the divergence analysis finds no other reason to miss it):
/// the threads that reach none of its trace events are those that have
/// exited.
struct ExitedBarrier {
  const clang::Stmt *Barrier = nullptr; ///< The barrier, or the call.
  bool Call = false;
  /// The returns by which threads miss it, and the conditions of the
  /// branches that lead there.
  llvm::SmallVector<const clang::Stmt *, 2> Returns;
  llvm::SmallVector<const clang::Expr *, 2> Conditions;
};

/// Adds to \p Out a finding for each shared read at which some surviving
/// thread reads an element that, of all threads, only one that has exited
/// at \p Barriers would have written. Where the exits depend on kernel
/// parameters (`if (i >= n) return;`), the kernel is walked again with a
/// few values of them, and the finding names the value it was found with.
void findExitedThreadReads(const KernelContext &K,
                           llvm::ArrayRef<ExitedBarrier> Barriers,
                           std::vector<Finding> &Out);

} // namespace shmem

#endif
