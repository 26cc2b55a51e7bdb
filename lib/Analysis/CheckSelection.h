//===- CheckSelection.h - Which checks a check list selects ------*- C++ -*-===//
//
// A check list as clang-tidy reads one (`-*,shmem-race`: globs in order,
// `-` disables, the last match wins), shared by every front end that
// takes one (the command's --checks and .clang-tidy, the compiler
// plugin's checks=), and the suggestion for an entry that names no check:
// a misspelt `shmem-bank-conflit` must be an error that says what was
// meant, not a run that silently checks nothing.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_CHECKSELECTION_H
#define SHMEM_LINT_ANALYSIS_CHECKSELECTION_H

#include "Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <bitset>
#include <optional>
#include <string>

namespace shmem {

/// The checks enabled after applying \p Globs in order (`-` disables) to
/// \p Initial.
std::bitset<NumCheckKinds> applyCheckGlobs(std::bitset<NumCheckKinds> Initial,
                                           llvm::ArrayRef<std::string> Globs);

/// An entry of a check list that is meant for shmem-lint (it starts with
/// `shmem-`) and matches none of its checks, with the check it most
/// likely means (empty when none is close).
struct UnknownCheck {
  std::string Entry;
  std::string Suggestion;
  /// "unknown check 'shmem-bank-conflit' in WHERE; did you mean
  /// 'shmem-bank-conflict'?", or with the list of checks when none is
  /// close.
  std::string message(llvm::StringRef Where) const;
};

/// The first entry of \p Globs that names no shmem-lint check. Entries for
/// other tools' checks (`readability-*`, `-*`) are not judged: a
/// .clang-tidy file shared with clang-tidy holds them.
std::optional<UnknownCheck> unknownCheck(llvm::ArrayRef<std::string> Globs);

/// The candidate nearest to \p Typo by edit distance, when it is near
/// enough to be a typo of it (at most a third of its length, and 3).
std::optional<llvm::StringRef>
nearestName(llvm::StringRef Typo, llvm::ArrayRef<llvm::StringRef> Candidates);

/// Every check's name, "a, b and c" (for messages).
std::string checkNameList();

} // namespace shmem

#endif
