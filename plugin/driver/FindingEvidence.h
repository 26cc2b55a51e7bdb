//===- FindingEvidence.h - The compiler's and profiler's word ---*- C++ -*-===//
//
// A bank-conflict finding is a prediction from the source. Two things can
// confirm or correct it (docs/sass.md):
//
//  * --sass: the shared-memory instructions nvcc emitted at the finding's
//    line (SharedListing). The prediction costs the access at the width the
//    source reads; where nvcc emitted another width (four unrolled 4-byte
//    stores merged into one `st.shared.v4.f32`), the finding is flagged and
//    its warp re-costed at the emitted width with the same bank model;
//  * --ncu-report: the shared-memory wavefronts Nsight Compute measured at
//    the line (NcuSourceReport), with the ideal and the executions where the
//    report has them, beside the predicted wavefronts of one warp-wide
//    access.
//
// Both are attached to the finding as fields (ReportedFinding::Compiled,
// ::Measured), which every output format renders: evidenceNotes() is the
// sentence each becomes in text, HTML and the JSON "note" fields.
//
// Listings and reports name files as the compiler saw them, perhaps on
// another machine (a report profiled in another checkout): a finding's file
// is matched by its real path, else by the longest run of trailing path
// components it shares with one file of the listing (SourceFileMatcher).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_FINDINGEVIDENCE_H
#define SHMEM_LINT_DRIVER_FINDINGEVIDENCE_H

#include "NcuSourceReport.h"
#include "ReportedFinding.h"
#include "SharedListing.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// Which of the files a listing or report names is a given file.
class SourceFileMatcher {
public:
  /// \p Named as the listing names them; relative ones are taken against
  /// \p Dir.
  SourceFileMatcher(const std::vector<std::string> &Named, llvm::StringRef Dir);

  /// The name (as given to the constructor) of \p File (relative ones taken
  /// against \p FileDir): the one with the same real path, else the only one
  /// sharing the most trailing path components with it (the file name at
  /// least); std::nullopt when none does or two tie.
  std::optional<std::string> match(llvm::StringRef File,
                                   llvm::StringRef FileDir) const;

private:
  struct Entry {
    std::string Name, Key;
    std::vector<std::string> Components; ///< Of Key, last first.
  };
  std::vector<Entry> Entries;
};

/// --sass: sets Compiled on each shmem-bank-conflict finding whose file
/// \p Listing covers (relative paths taken against \p Dir). \p Arch names
/// the architecture it was compiled for.
void addCompiledEvidence(std::vector<ReportedFinding> &Findings,
                         const SharedListing &Listing, llvm::StringRef Arch,
                         llvm::StringRef Dir);

/// --ncu-report: sets Measured on each shmem-bank-conflict finding whose
/// file \p Report covers (relative paths taken against \p Dir). Returns how
/// many findings' files it covers.
unsigned addMeasuredEvidence(std::vector<ReportedFinding> &Findings,
                             const NcuSourceReport &Report,
                             llvm::StringRef ReportName, llvm::StringRef Dir);

/// The sentences Compiled and Measured become (clang style: lowercase, no
/// final period), in that order; empty without them.
std::vector<std::string> evidenceNotes(const ReportedFinding &F);
std::string compiledNote(const CompiledEvidence &E);
std::string measuredNote(const MeasuredEvidence &E);

} // namespace shmem

#endif
