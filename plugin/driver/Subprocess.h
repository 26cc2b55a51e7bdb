//===- Subprocess.h - Run a program and keep what it printed ----*- C++ -*-===//
//
// The driver runs other tools: git for --diff, nvcc and nvdisasm for --sass,
// ncu for --ncu-report on a .ncu-rep. Each wants its output as text and, when
// it fails, one line that says why.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_SUBPROCESS_H
#define SHMEM_LINT_DRIVER_SUBPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace shmem {

struct ProgramRun {
  /// The exit status; meaningful only when Error is empty.
  int ExitCode = -1;
  std::string Stdout, Stderr;
  /// Why the program did not run to an exit status: it could not be
  /// started, it crashed, or it ran past the time limit.
  std::string Error;

  bool succeeded() const { return Error.empty() && ExitCode == 0; }
  /// Error, else the first line of stderr (else stdout) that says
  /// "error", else its first non-empty line, else "exit status N".
  std::string failure() const;
};

/// Runs \p Program with \p Args (without argv[0]) and an empty stdin,
/// capturing stdout and stderr through temporary files. \p TimeoutSeconds 0
/// means no limit.
ProgramRun runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                      unsigned TimeoutSeconds = 0);

} // namespace shmem

#endif
