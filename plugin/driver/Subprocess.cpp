//===- Subprocess.cpp - Run a program and keep what it printed ------------===//

#include "Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <vector>

namespace shmem {

std::string ProgramRun::failure() const {
  if (!Error.empty())
    return Error;
  llvm::StringRef Text =
      llvm::StringRef(Stderr).trim().empty() ? Stdout : Stderr;
  llvm::StringRef First;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (First.empty())
      First = Line;
    if (Line.contains_insensitive("error"))
      return Line.str();
  }
  if (!First.empty())
    return First.str();
  return "exit status " + std::to_string(ExitCode);
}

ProgramRun runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                      unsigned TimeoutSeconds) {
  ProgramRun R;
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("shmem-lint-run", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("shmem-lint-run", "err", ErrFile)) {
    R.Error = "cannot create a temporary file";
    return R;
  }
  std::vector<llvm::StringRef> Argv = {Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                OutFile.str(), ErrFile.str()};
  std::string ExecError;
  bool Failed = false;
  R.ExitCode =
      llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects,
                                TimeoutSeconds, 0, &ExecError, &Failed);
  auto Read = [](llvm::StringRef F) {
    auto B = llvm::MemoryBuffer::getFile(F, /*IsText=*/true);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  R.Stdout = Read(OutFile);
  R.Stderr = Read(ErrFile);
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  if (Failed || R.ExitCode < 0) {
    if (R.ExitCode == -2 && TimeoutSeconds &&
        llvm::StringRef(ExecError).contains_insensitive("timed out"))
      R.Error = "it ran for more than " + std::to_string(TimeoutSeconds) + " s";
    else if (!ExecError.empty())
      R.Error = ExecError;
    else
      R.Error = "'" + Program.str() + "' could not be run";
  }
  return R;
}

} // namespace shmem
