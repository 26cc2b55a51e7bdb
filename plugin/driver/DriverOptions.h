//===- DriverOptions.h - The shmem-lint command line -----------*- C++ -*-===//

#ifndef SHMEM_LINT_DRIVER_DRIVEROPTIONS_H
#define SHMEM_LINT_DRIVER_DRIVEROPTIONS_H

#include "ReportedFinding.h"

#include "Analysis/AnalysisOptions.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace shmem {

/// One file to analyse and the full clang command line for it.
struct FileJob {
  std::string File;
  std::string Directory;
  std::vector<std::string> Args; ///< Starts with the compiler path.
};

/// Where the driver's own files are (found from its executable).
struct ToolLayout {
  std::string Prefix;     ///< Parent of bin/.
  std::string TidyPlugin; ///< .../lib/shmem-lint/shmem-lint-tidy.so
  std::string ClangPlugin;
  std::string CudaHeaders; ///< .../share/shmem-lint/cuda
  static ToolLayout find(const char *Argv0);
};

struct DriverOptions {
  AnalysisOptions Analysis;
  std::vector<FileJob> Jobs;
  std::string Format = "text";
  std::string OutputFile;
  std::string ExportFixes;
  bool Verbose = false;
  bool Color = false;
  bool ShowCompilerDiagnostics = true;
};

/// Parse argv. Returns -1 to go on and analyse, or an exit status (0 after
/// --help/--version/--print-*, 2 on usage errors, with a message on Err).
int parseCommandLine(int Argc, const char **Argv, DriverOptions &Opts,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err);

int runDriver(const DriverOptions &Opts, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err);

/// Print findings in the selected format.
void writeReport(const DriverOptions &Opts,
                 const std::vector<ReportedFinding> &Findings,
                 llvm::raw_ostream &Out);

} // namespace shmem

#endif
