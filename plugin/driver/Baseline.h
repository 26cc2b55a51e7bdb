//===- Baseline.h - Findings a previous run already reported ----*- C++ -*-===//
//
// --baseline FILE reports only the findings a previous run did not: legacy
// code gets its known findings accepted once, and CI fails only on new
// ones. A finding is matched by the fingerprint every format writes for it
// (check, repo-relative file, message and the trimmed source line, not the
// line number; OutputFormats.h), so it survives lines added above it.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_BASELINE_H
#define SHMEM_LINT_DRIVER_BASELINE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>

namespace shmem {

/// The fingerprints of the findings in \p Path: a JSON report
/// (--format=json, as --write-baseline writes it) or a SARIF log
/// (--format=sarif). None, with \p Error set, when the file cannot be read
/// or is neither.
std::optional<std::set<std::string>> readBaseline(llvm::StringRef Path,
                                                  std::string &Error);

} // namespace shmem

#endif
