//===- NoLint.h - NOLINT comments for the front ends that need them -*- C++ -*-===//
//
// clang-tidy honours `// NOLINT(check)` itself; the compiler plugin and the
// driver ask this instead, so all three front ends suppress the same
// findings. Same syntax as clang-tidy: NOLINT, NOLINTNEXTLINE, with an
// optional parenthesised comma-separated list of check names or globs.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_NOLINT_H
#define SHMEM_LINT_ANALYSIS_NOLINT_H

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

namespace shmem {

/// True when \p Line (the text of one source line) carries a NOLINT marker
/// of kind \p Marker ("NOLINT" or "NOLINTNEXTLINE") covering \p Check.
bool noLintCovers(llvm::StringRef Line, llvm::StringRef Marker,
                  llvm::StringRef Check);

/// True when a finding of \p Check at \p Loc is suppressed.
bool isSuppressed(const clang::SourceManager &SM, clang::SourceLocation Loc,
                  llvm::StringRef Check);

/// Glob match with '*' as in clang-tidy's check lists.
bool globMatches(llvm::StringRef Glob, llvm::StringRef Name);

} // namespace shmem

#endif
