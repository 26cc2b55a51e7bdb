//===- NoLint.h - NOLINT comments for the front ends that need them -*- C++ -*-===//
//
// clang-tidy honours `// NOLINT(check)` itself; the compiler plugin and the
// driver ask this instead, so all three front ends suppress the same
// findings. Same syntax as clang-tidy: NOLINT, NOLINTNEXTLINE and
// NOLINTBEGIN ... NOLINTEND, with an optional parenthesised comma-separated
// list of check names or globs. As in clang-tidy, a NOLINTEND closes the
// latest NOLINTBEGIN with the same list, and an unmatched marker
// suppresses nothing.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_NOLINT_H
#define SHMEM_LINT_ANALYSIS_NOLINT_H

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace shmem {

/// True when \p Line (the text of one source line) carries a NOLINT marker
/// of kind \p Marker ("NOLINT" or "NOLINTNEXTLINE") covering \p Check.
bool noLintCovers(llvm::StringRef Line, llvm::StringRef Marker,
                  llvm::StringRef Check);

/// Lines First..Last (1-based, inclusive) of a NOLINTBEGIN/NOLINTEND pair
/// and its check list as written ("(shmem-*)"; empty: every check).
struct NoLintRegion {
  unsigned First, Last;
  std::string Checks;
};

/// The matched NOLINTBEGIN/NOLINTEND regions of a file's \p Text.
std::vector<NoLintRegion> noLintRegions(llvm::StringRef Text);

/// True when region \p R holds \p Line and its list covers \p Check.
bool noLintRegionCovers(const NoLintRegion &R, unsigned Line,
                        llvm::StringRef Check);

/// The NOLINT markers of one translation unit, asked once per finding by
/// the front ends that must honour them: a file's NOLINTBEGIN/NOLINTEND
/// regions are found on its first finding, not on every one (a scan of the
/// whole file per finding made 2,000 findings of a 1 MB file cost more
/// than their analysis).
class NoLintIndex {
public:
  explicit NoLintIndex(const clang::SourceManager &SM) : SM(SM) {}

  /// True when a finding of \p Check at \p Loc is suppressed.
  bool suppressed(clang::SourceLocation Loc, llvm::StringRef Check);

private:
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, std::vector<NoLintRegion>> Regions;
};

/// Glob match with '*' as in clang-tidy's check lists.
bool globMatches(llvm::StringRef Glob, llvm::StringRef Name);

} // namespace shmem

#endif
