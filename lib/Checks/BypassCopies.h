//===- BypassCopies.h - The bank check's 16-byte cp.async.cg ----*- C++ -*-===//
//
// A 16-byte cp.async.cg is priced by BypassCopyModel, not BankModel: each
// warp's pieces by the global 128-byte line they come from and the shared
// 128-byte row they land in. The bank check asks here for an access's
// worst warp and for the words of its finding.
//
// Addresses: each lane's shared offset and, when the walk knows it, its
// global source offset, with every unknown a large generic multiple of
// 128 bytes (a tile's stage, a row stride the launch picks: lanes with
// different coefficients of it fall in different lines and rows, as they
// do for any stride past 128 bytes). Where the source is not known, lane l
// is taken to copy the l-th 16 bytes of one contiguous run (a coalesced
// copy, as every tile load is written).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_BYPASSCOPIES_H
#define SHMEM_LINT_CHECKS_BYPASSCOPIES_H

#include "BypassCopyModel.h"

#include "Analysis/KernelTrace.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

struct BypassWarp {
  unsigned Warp = 0;
  BypassCopyResult Result;
  /// The shared offsets of the worst warp's lanes (nullopt: no copy).
  std::vector<std::optional<int64_t>> Shared;
  /// Whether the global side was read from the source operand.
  bool SourceKnown = false;
};

/// Whether \p A is priced by BypassCopyModel.
inline bool isBypassCopy(const SharedAccess &A) {
  return A.Async && A.AsyncBypass && A.Width == 16;
}

/// The warp of \p T's block that costs \p A the most wavefronts; nullopt
/// when the shared offset is not affine (no claim).
std::optional<BypassWarp> worstBypassWarp(const SharedAccess &A,
                                          const KernelTrace &T);

/// The finding's text after "N-way bank conflict": which lanes, which
/// rows of \p Name, the wavefronts, why, and what keeps a line in a row.
std::string bypassConflictText(const BypassWarp &W, const std::string &Name);

} // namespace shmem

#endif
