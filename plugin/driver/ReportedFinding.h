//===- ReportedFinding.h - A finding resolved to file positions -*- C++ -*-===//
//
// The driver turns each shmem::Finding (clang SourceLocations) into this
// plain form once, while the SourceManager is alive; every output format
// (text, SARIF, GitHub, GitLab, JSON, export-fixes YAML) works from it.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_REPORTEDFINDING_H
#define SHMEM_LINT_DRIVER_REPORTEDFINDING_H

#include "BankPicture.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

struct ReportedLocation {
  std::string File; ///< As clang names it (absolute or as given).
  unsigned Line = 0, Column = 0;
};

struct ReportedNote {
  ReportedLocation Loc;
  std::string Message;
};

struct ReportedFix {
  std::string File;
  unsigned Offset = 0, Length = 0; ///< Byte range replaced.
  unsigned Line = 0, Column = 0;   ///< Start of the range, for humans.
  std::string Replacement;
};

struct ReportedFinding {
  std::string Check; ///< "shmem-bank-conflict", ...
  ReportedLocation Loc;
  std::string Message;
  std::vector<ReportedNote> Notes;
  std::vector<ReportedFix> Fixes;
  std::string Detail; ///< Multi-line extra shown under --verbose.
  /// Finding::Weight: when files share a header, the worst of the findings
  /// at one place is kept.
  unsigned Weight = 0;
  /// Its check matches --warnings-as-errors (or .clang-tidy's
  /// WarningsAsErrors): an error in every format, and exit status 1 even
  /// with --exit-zero.
  bool WarningAsError = false;
  /// shmem-bank-conflict: the lane->bank pictures (HTML report).
  std::optional<BankPicture> Picture;
};

/// A part of a kernel the analysis left out (shmem::AnalysisGap): never a
/// finding, but said in every output format.
struct ReportedGap {
  /// The check whose analysis stopped short; empty when every check's did.
  std::string Check;
  ReportedLocation Loc;
  std::string What, Why; ///< The message is "What: Why".
  std::string Kernel;    ///< "transpose<float, 32>"
  std::string Block;     ///< "32x8"
  std::vector<ReportedNote> Notes;

  std::string message() const { return What + ": " + Why; }
};

} // namespace shmem

#endif
