//===- DriverOptions.h - The shmem-lint command line -----------*- C++ -*-===//

#ifndef SHMEM_LINT_DRIVER_DRIVEROPTIONS_H
#define SHMEM_LINT_DRIVER_DRIVEROPTIONS_H

#include "NvccListing.h"
#include "ReportedFinding.h"

#include "Analysis/AnalysisOptions.h"

#include "llvm/Support/raw_ostream.h"

#include <bitset>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// One file to analyse and the full clang command line for it.
struct FileJob {
  std::string File;
  std::string Directory;
  std::vector<std::string> Args; ///< Starts with the compiler path.
  /// One runChecks() call each: the enabled checks grouped by the settings
  /// the kernel walk depends on (see planAnalysisRuns()). Filled from the
  /// command line and the file's .clang-tidy.
  std::vector<AnalysisOptions> Runs;
  /// With a toolkit found on its own (--cuda-path=auto): the toolkit's
  /// include directory, and Args with shmem-lint's own CUDA header in its
  /// place. clang's CUDA mode includes cuda.h, which nvcc does not, so a
  /// build's `-DN=64` breaks a toolkit header that nvcc never reads; the
  /// driver then analyses the file with its own header (analyseFile).
  std::string ToolkitInclude;
  std::vector<std::string> OwnHeaderArgs;
  /// The checks whose findings are errors here (--warnings-as-errors, else
  /// the file's .clang-tidy WarningsAsErrors).
  std::bitset<NumCheckKinds> WarningsAsErrors = {};
  /// The project's own flags among Args (the compile database entry's and
  /// those after `--`), without shmem-lint's CUDA setup: what --sass gives
  /// nvcc (NvccListing.h).
  std::vector<std::string> ProjectArgs = {};
};

/// Where the driver's own files are (found from its executable).
struct ToolLayout {
  std::string Prefix;     ///< Parent of bin/.
  std::string TidyPlugin; ///< .../lib/shmem-lint/shmem-lint-tidy.so
  std::string ClangPlugin;
  std::string CudaHeaders; ///< .../share/shmem-lint/cuda
  static ToolLayout find(const char *Argv0);
  /// The error for a missing file of shmem-lint's own header directory:
  /// what was looked for, where the driver looks, and how to get it there.
  std::string missingHeader(llvm::StringRef Path) const;
};

struct DriverOptions {
  AnalysisOptions Analysis;
  /// In the order findings are merged; one per file, no file twice.
  std::vector<FileJob> Jobs;
  /// Files analysed at once (-j); 0 means one per core.
  unsigned Parallelism = 0;
  /// Progress line on stderr: -1 when stderr is a terminal, 0 never, 1 always.
  int Progress = -1;
  std::string Format = "text";
  std::string OutputFile;
  std::string ExportFixes;
  /// --baseline: report only findings not in this earlier JSON or SARIF
  /// report; --write-baseline: write every finding of this run as one.
  std::string Baseline, WriteBaseline;
  /// --export-compile-commands: write the jobs' clang commands as a
  /// compile_commands.json for other clang tools, instead of analysing.
  std::string ExportCompileCommands;
  /// --vfsoverlay: a clang VFS overlay (YAML) laid over the real files, as
  /// clang-tidy's option of that name; the language server uses it to
  /// analyse an editor's unsaved text under the file's own name.
  std::string VfsOverlay;
  bool Verbose = false;
  /// --stats: print what was analysed (files, kernels, shared accesses,
  /// findings by check) on stderr, without the rest of --verbose.
  bool Stats = false;
  /// --exit-zero: findings alone do not make the exit status 1 (findings
  /// promoted by --warnings-as-errors still do).
  bool ExitZero = false;
  bool Color = false;
  bool ShowCompilerDiagnostics = true;
  /// --sass: the tools that compile each file to read the shared-memory
  /// instructions of its findings' lines; Nvcc empty when none was found.
  std::optional<SassTools> Sass;
  /// --ncu-report: Nsight Compute's source page (CSV) or report.
  std::string NcuReport;
};

/// Parse argv. Returns -1 to go on and analyse, or an exit status (0 after
/// --help/--version/--print-*, 2 on usage errors, with a message on Err).
int parseCommandLine(int Argc, const char **Argv, DriverOptions &Opts,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err);

int runDriver(const DriverOptions &Opts, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err);

/// Writes the jobs as a compile database of clang commands (the nvcc
/// translation done once, for clang-tidy, clangd and editors). Returns the
/// exit status.
int writeCompileCommands(const DriverOptions &Opts, llvm::raw_ostream &Err);

/// The repository root reports are relative to: the nearest directory above
/// the working directory holding .git, else the working directory.
std::string repoRootForReports();

/// Print findings, and the parts of kernels not analysed, in the selected
/// format.
void writeReport(const DriverOptions &Opts,
                 const std::vector<ReportedFinding> &Findings,
                 const std::vector<ReportedGap> &Gaps, llvm::raw_ostream &Out);

} // namespace shmem

#endif
