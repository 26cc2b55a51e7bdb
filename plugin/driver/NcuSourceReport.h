//===- NcuSourceReport.h - Nsight Compute source page, per line -*- C++ -*-===//
//
// --ncu-report reads what Nsight Compute measured per source line, to put it
// beside each bank-conflict prediction (docs/sass.md). The input is the
// source page of a report profiled with the SourceCounters section and
// exported as CSV:
//
//   ncu --section SourceCounters --import-source yes -o rep ./app
//   ncu --import rep.ncu-rep --page source --csv --print-source cuda,sass \
//       --print-units base > rep-source.csv
//
// The layout, as ncu 2025.3 writes it (Inputs/ncu in test/lit/driver holds
// one, exported on an H200): a `"File Path","<path>"` row (`"File Name"` in
// the cuda view) and a `"Function Name","<kernel>"` (`"Kernel Name"` in the
// sass view) row open each section; then a header row; then the rows. With
// `--print-source cuda,sass` the header starts
// `"Line No","Source","Address","Source",` and the metrics follow; a source
// line's row has its number and an Address of "-" and carries the sum of
// its SASS rows, which follow it with an address ("0x7f1e377a0100") and no
// line number, each listed twice (the second copy after a "..." row, which
// also marks instructions folded away). With `--print-source cuda` there
// are only the source rows (2025.3 prints them without metrics).
// `--print-source sass` has no line numbers, so it cannot be used here.
//
// The columns read, by ncu's label or by the metric's name (as scripts that
// rename the columns write them; ncu 2025.3 has --print-metric-name for the
// details page only): "L1 Wavefronts Shared" (memory_l1_wavefronts_shared),
// "L1 Wavefronts Shared Ideal" (memory_l1_wavefronts_shared_ideal) and
// "Instructions Executed" (inst_executed). Numbers may carry thousands
// separators ("5,238", a locale's no-break space) and K/M/G suffixes (ncu's
// --print-units auto).
//
// Per line, the SASS rows are summed, each address once, and split by
// opcode into loads (LDS, LDSM) and stores (STS, STSM, LDGSTS); where a line
// has no SASS rows, its own row is kept as loads and stores together. Each
// section adds to the lines of its file, so a line of a header or a template
// used by several kernels sums them all, and a result exported twice counts
// twice: the per-execution averages are unaffected.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_NCUSOURCEREPORT_H
#define SHMEM_LINT_DRIVER_NCUSOURCEREPORT_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// Shared-memory counters of one source line (or part of one).
struct NcuCounters {
  double Wavefronts = 0;
  /// Absent when the report has no ideal column.
  std::optional<double> Ideal;
  /// Warp-level executions of the shared-memory instructions counted;
  /// absent without SASS rows or an "Instructions Executed" column.
  std::optional<double> Executions;
  /// The distinct SASS opcodes counted ("LDS.128"), in order met.
  std::vector<std::string> Opcodes;

  void add(const NcuCounters &O);
};

/// Which of a line's shared-memory instructions counters are about.
enum class NcuAccess { Load, Store, LoadsAndStores };

class NcuSourceReport {
public:
  /// The counters of \p Line of \p File (as the report names it) for loads,
  /// stores, or loads and stores counted together (the cuda view, atomics);
  /// null when there are none.
  const NcuCounters *at(llvm::StringRef File, unsigned Line, NcuAccess A) const;
  /// The files the report has lines of, as it names them ("" for lines
  /// before any "File Path" row).
  std::vector<std::string> files() const;
  /// Lines with shared-memory wavefronts.
  size_t lines() const;

  void add(llvm::StringRef File, unsigned Line, NcuAccess A,
           const NcuCounters &C);

private:
  std::map<std::string, std::map<unsigned, std::array<NcuCounters, 3>>> Lines;
};

/// Reads the CSV described above. \p Name names the input in errors. On
/// failure, std::nullopt and one sentence in \p Error saying what is wrong
/// and how to export the page ncu's way.
std::optional<NcuSourceReport> parseNcuSourceCsv(llvm::StringRef Text,
                                                 llvm::StringRef Name,
                                                 std::string &Error);

/// The command that exports \p Report's source page as parseNcuSourceCsv()
/// reads it, for messages and for loadNcuReport().
std::vector<std::string> ncuExportArgs(llvm::StringRef Report);

/// Reads --ncu-report's \p Path: a CSV as above, or a report (`.ncu-rep`,
/// `.ncu-repz`, or any file that is not text), whose source page `ncu` on
/// the PATH exports. std::nullopt with one sentence in \p Error when the
/// file cannot be read, ncu is needed and missing or fails, or the CSV is
/// not the source page.
std::optional<NcuSourceReport> loadNcuReport(llvm::StringRef Path,
                                             std::string &Error);

} // namespace shmem

#endif
