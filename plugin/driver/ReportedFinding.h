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
#include "SharedListing.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

struct ReportedLocation {
  std::string File; ///< As clang names it (absolute or as given).
  unsigned Line = 0, Column = 0;
  /// "file:line:col".
  std::string str() const {
    return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
  }
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

/// --sass: what the compiler emitted at a bank-conflict finding's line
/// (FindingEvidence.h).
struct CompiledEvidence {
  std::string Listing; ///< "PTX" or "SASS".
  std::string Arch;    ///< "sm_80".
  bool Store = false;  ///< The finding's access writes shared memory.
  /// The shared-memory instructions at the line that read (or, for a
  /// store, write) shared memory as the finding's access does; empty when
  /// there are none.
  std::vector<SharedInstruction> Instructions;
  /// Bytes per lane the prediction assumed; 0 when unknown.
  unsigned AssumedWidth = 0;
  /// Instructions were emitted and none has the assumed width. Not when
  /// PTX has narrower ones: ptxas may still merge those (PtxasMayMerge).
  bool WidthDiffers = false;
  /// PTX has only narrower instructions than assumed, which ptxas may merge
  /// into the assumed width: only SASS settles it.
  bool PtxasMayMerge = false;
  /// When WidthDiffers and every instruction has one width: that width,
  /// and the finding's warp re-costed at it.
  unsigned EmittedWidth = 0;
  std::optional<LayoutPicture> Recosted;
};

/// --ncu-report: what Nsight Compute measured at a bank-conflict finding's
/// line (FindingEvidence.h).
struct MeasuredEvidence {
  std::string Report; ///< As named on the command line.
  bool Store = false; ///< The finding's access writes shared memory.
  /// The line has shared-memory counters in the report; when not, the
  /// finding's file is in it but the line is not.
  bool Found = false;
  /// The counters are the line's loads and stores together (no SASS rows,
  /// or atomics), not those of the finding's direction alone.
  bool LoadsAndStores = false;
  double Wavefronts = 0;
  std::optional<double> Ideal, Executions;
  std::vector<std::string> Opcodes;
  /// The prediction for one warp-wide access, to set beside them.
  unsigned PredictedWavefronts = 0, PredictedIdeal = 0;

  /// Both say conflict (more wavefronts than ideal), or both say none;
  /// std::nullopt without a measured ideal.
  std::optional<bool> agrees() const {
    if (!Found || !Ideal || PredictedIdeal == 0)
      return std::nullopt;
    return (Wavefronts > *Ideal + 0.5) ==
           (PredictedWavefronts > PredictedIdeal);
  }
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
  /// shmem-bank-conflict under --sass and --ncu-report: the compiler's
  /// instructions and the profiler's counters at the finding's line.
  std::optional<CompiledEvidence> Compiled;
  std::optional<MeasuredEvidence> Measured;
};

/// A part of a kernel the analysis left out (shmem::AnalysisGap): never a
/// finding, but said in every output format.
struct ReportedGap {
  /// The check whose analysis stopped short; empty when every check's did.
  std::string Check;
  ReportedLocation Loc;
  std::string What, Why; ///< The message is "What: Why".
  std::string Kernel;    ///< "transpose<float, 32>"
  std::string Block;     ///< "32x8"; empty for a kernel never instantiated
  std::vector<ReportedNote> Notes;
  /// A kernel template this file never instantiates: dropped when another
  /// file of the run does (AnalysisGap::NeverInstantiated).
  bool NeverInstantiated = false;

  std::string message() const { return What + ": " + Why; }
  /// " (kernel 'k', block 32x8)", or " (kernel 'k')" without a block.
  std::string where() const {
    return " (kernel '" + Kernel + "'" +
           (Block.empty() ? "" : ", block " + Block) + ")";
  }
};

} // namespace shmem

#endif
