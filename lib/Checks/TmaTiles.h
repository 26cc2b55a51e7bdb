//===- TmaTiles.h - TMA copies joined with their tensor maps ----*- C++ -*-===//
//
// The walk records where a kernel's bulk tensor copies (TMA) write and
// which kernel parameter holds their tensor map; the host code says what
// that map is (TensorMaps). This joins the two for the checks that need a
// copy's layout: shmem-race (which bytes are in flight),
// shmem-layout-mismatch (which element each byte holds) and
// shmem-out-of-bounds (whether the tile holds the box), and words them.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_TMATILES_H
#define SHMEM_LINT_CHECKS_TMATILES_H

#include "Checks.h"

#include "Analysis/TensorMaps.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// One issuing thread's copy.
struct TmaTile {
  unsigned Copy = 0;   ///< Index into KernelTrace::BulkCopies.
  unsigned Thread = 0; ///< The issuing thread.
  /// The layout, when the host's encode call is followed and constant.
  const TensorMapFacts *Facts = nullptr;
  /// The destination array and the copy's byte offset into it, when the
  /// walk knows them as a plain number.
  const clang::ValueDecl *Var = nullptr;
  std::optional<int64_t> DstByte;
  const TmaBoxLayout *layout() const {
    return Facts && Facts->known() ? &Facts->Layout : nullptr;
  }
};

/// Every copy of \p K's trace, per issuing thread (the first issuing thread
/// only when the destination is the same in all of them).
std::vector<TmaTile> tmaTiles(const KernelContext &K);

/// The bytes each of K.Trace.BulkCopies writes, when its layout is known
/// (bulkCopyRaces' input).
std::vector<std::optional<uint64_t>> tmaFootprints(const KernelContext &K);

/// "the TMA copy at line 40 (an 8 x 32 box of 4-byte elements,
/// SWIZZLE_128B)"; without the parenthesis when the layout is not known.
std::string tmaCopyName(const KernelContext &K, const TmaTile &T);

/// The first TMA tile that \p Var is the destination of, if any.
std::optional<TmaTile> tmaTileOf(const KernelContext &K,
                                 const clang::ValueDecl *Var);

/// The bank check's advice for a conflicted read of \p Tile, named
/// \p Name: its layout is the tensor map's, so neither padding nor an
/// index swizzle the copy does not apply is a fix; the map's swizzle mode
/// is (or, for a read through the swizzle (\p Swizzled), why it stays
/// conflicted).
std::string tmaBankAdvice(const KernelContext &K, const TmaTile &Tile,
                          const std::string &Name, bool Swizzled);

/// Reports, for \p Check, each copy whose layout is not known (the map is
/// not followed to an encode call, or the call's arguments are not
/// constants): that check says nothing about its bytes.
void reportUnknownTmaLayouts(const KernelContext &K, CheckKind Check,
                             FindingSink &Sink);

/// Whether the index expression \p E computes an XOR (looking through the
/// locals it reads): a read that applies a swizzle of its own.
bool indexHasXor(const clang::Expr *E, unsigned Depth = 0);

/// shmem-layout-mismatch's part for TMA tiles (TmaReads.cpp): reads that
/// index a tile a TMA copy filled as plain row-major when the tensor map
/// lays it out otherwise (a swizzle mode, or rows of another pitch), and
/// destinations whose alignment shifts the swizzle or fails the copy.
void checkTmaTileReads(const KernelContext &K, FindingSink &Sink);

} // namespace shmem

#endif
