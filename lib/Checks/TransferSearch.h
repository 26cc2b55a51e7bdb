//===- TransferSearch.h - What a transfer verdict enumerates ----*- C++ -*-===//
//
// Part of shmem-uncoalesced-transfer, shared by TransferVerdict.cpp (which
// prices every distinct warp of a global access under every assignment of
// its lane-dependent unknowns) and TransposeAdvice.cpp (which needs only
// which unknowns those are): the warps and unknowns of one access, and the
// test for an uncoalesced request.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_TRANSFERSEARCH_H
#define SHMEM_LINT_CHECKS_TRANSFERSEARCH_H

#include "Checks.h"

#include "CoalescingModel.h"

#include <string>
#include <vector>

namespace shmem {

/// The most combinations of the varying unknowns' values a transfer's
/// verdict enumerates; beyond it the access gets none (an analysis gap).
constexpr unsigned MaxAssignments = 4096;

struct WarpInfo {
  unsigned Begin = 0, End = 0, First = 0;
  std::vector<unsigned> Active;
  /// Every thread of the warp, active or not.
  std::vector<unsigned> All;
  /// The offset over the warp's threads (index T - Begin), read off the
  /// compact Lanes forms once per access: analyzeTransfer prices every
  /// warp under up to MaxAssignments bindings, and a lookup per lane and
  /// binding (a Linear form divides per lookup) was most of its cost. The
  /// concrete part, as it is:
  std::vector<int64_t> Const;
  /// and, for each varying unknown whose coefficient is not the same in
  /// every thread of the warp, its index in Varying and the coefficient
  /// minus the first active lane's (the warp-uniform part cancels, see
  /// warpAddresses).
  std::vector<std::pair<unsigned, std::vector<int64_t>>> Terms;
};

/// What analyzeTransfer enumerates: the distinct warps of the access, the
/// unknowns with a lane-dependent coefficient and the values each takes.
/// Cheap next to the enumeration (which prices every warp under every
/// assignment), so callers that need only the unknowns build this alone.
struct TransferSearch {
  /// False when there is nothing to enumerate or too much: analyzeTransfer
  /// then gives no verdict (Valid false).
  bool Ok = false;
  std::vector<WarpInfo> Warps;
  /// In SymbolId order: the keys of the verdict's Binding.
  std::vector<SymbolId> Varying;
  std::vector<std::vector<int64_t>> Values;
  /// One unknown enumerated 0..S0 then over a periodic tail.
  bool Generated = false;
  int64_t S0 = 0;
  uint64_t Combos = 1;

  TransferSearch(const GlobalAccess &A, const KernelTrace &T);
};

bool isUncoalesced(const CoalescingResult &R);

/// The name of \p D, or \p Fallback when it has none.
std::string declName(const clang::ValueDecl *D, const char *Fallback);

} // namespace shmem

#endif
