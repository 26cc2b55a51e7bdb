//===- TensorMaps.h - The TMA tensor maps kernels are launched with -*- C++ -*-===//
//
// A TMA copy's layout in shared memory is not in the kernel: the host makes
// the tensor map with cuTensorMapEncodeTiled (element type, box, swizzle
// mode) and passes it by value (`const __grid_constant__ CUtensorMap`). This
// follows each map from its encode call to the kernel parameters it is
// launched as, across the translation unit: a map encoded into a local
// (`cuTensorMapEncodeTiled(&map, ...)`), returned by a helper
// (`CUtensorMap m = makeMap<64, 32>(...)`) or filled through a pointer
// (`makeMap(&map, ...)`), then passed by `k<<<g, b>>>(map)` or
// `cudaLaunchKernelEx(&cfg, k, map)`. The encode's arguments must be
// constants where the call is (template arguments count, a helper's
// function parameters do not); what is not says why.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_TENSORMAPS_H
#define SHMEM_LINT_ANALYSIS_TENSORMAPS_H

#include "TmaLayout.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// What one encode call says.
struct TensorMapFacts {
  /// Valid when Unknown is empty.
  TmaBoxLayout Layout;
  /// The cuTensorMapEncodeTiled call.
  clang::SourceLocation Encode;
  /// What the call does not give as a constant ("the box", "the swizzle
  /// mode"), or why the layout is not one the copy engine accepts; empty
  /// when the layout is known.
  std::string Unknown;
  bool known() const { return Unknown.empty(); }
};

class TensorMaps {
public:
  /// Scans the translation unit once.
  explicit TensorMaps(clang::ASTContext &Ctx);

  /// What the launches in the translation unit pass as kernel parameter
  /// \p Param: the facts of the one encode every launch's map comes from
  /// (or several encodes that agree); none when no launch is seen, a
  /// launch's map is not followed to an encode, or launches disagree.
  const TensorMapFacts *factsFor(const clang::ValueDecl *Param) const;

private:
  llvm::DenseMap<const clang::ValueDecl *, std::optional<TensorMapFacts>>
      ByParam;
};

} // namespace shmem

#endif
