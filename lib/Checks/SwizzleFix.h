//===- SwizzleFix.h - An XOR swizzle of a tile as a fix-it -----*- C++ -*-===//
//
// Part of shmem-bank-conflict. An XOR swizzle stores element (r, c) of a
// `T a[R][C]` tile at (r, c ^ (r % C)): it costs no memory, and it binds
// every producer and consumer of the tile to the same formula. So it is a
// fix-it only when every use of the array in the source is an element
// access `a[r][c]` that can be rewritten the same way (no pointer taken,
// no wider view, no macro), and the kernel, analysed with every access so
// moved, has every access to the array conflict-free or no worse (the
// check weighs that with the same rule as a padding).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_SWIZZLEFIX_H
#define SHMEM_LINT_CHECKS_SWIZZLEFIX_H

#include "Checks.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

struct SwizzleRewrite {
  /// Columns per row: the swizzle is `c ^ (r % N)`.
  int64_t N = 0;
  /// One replacement of a column index per use of the array whose column
  /// moves (a use at row 0 keeps its column).
  std::vector<clang::FixItHint> Fixes;
  unsigned Uses = 0;
  /// The formula as the uses will read, for the message: "tile[r][c ^ (r % 32)]".
  std::string Example;
};

/// A swizzle of one array, judged: the rewrite when it works, else why
/// not.
struct SwizzleFix {
  bool Ok = false;
  SwizzleRewrite Rewrite;
  std::string Why;
  /// The words after advice that names the swizzle. With Ok: ": swizzle
  /// its columns instead ... (the fix-it rewrites ...)", and, with
  /// \p Attach, the fix-its set on \p F (one finding of an array carries
  /// them: clang-tidy applies none of two that overlap); else none, and a
  /// note at the array's declaration \p Decl says why no fix-it is offered.
  std::string advise(Finding &F, clang::SourceLocation Decl,
                     bool Attach) const;
};

/// The swizzle of \p V: every use rewritten (the rewrite's conditions),
/// and \p KeepsDegrees true of the kernel's trace with every access to \p V
/// moved where the swizzle puts it.
SwizzleFix
swizzleFix(const KernelContext &K, const clang::VarDecl *V,
           llvm::function_ref<bool(const KernelTrace &)> KeepsDegrees);

} // namespace shmem

#endif
