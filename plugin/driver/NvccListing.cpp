//===- NvccListing.cpp - Compile a file with nvcc, read its listing -------===//

#include "NvccListing.h"
#include "NvccCommand.h"
#include "Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace shmem {

namespace {

bool isExecutable(llvm::StringRef Path) {
  return llvm::sys::fs::exists(Path) && llvm::sys::fs::can_execute(Path) &&
         !llvm::sys::fs::is_directory(Path);
}

/// A large translation unit takes nvcc a while; one that hangs must not
/// hang the run.
constexpr unsigned ToolSeconds = 600;

} // namespace

SassTools findSassTools(llvm::StringRef Nvcc, llvm::StringRef Toolkit) {
  SassTools T;
  auto Try = [&](const std::string &Path) {
    T.Searched.push_back(Path);
    if (T.Nvcc.empty() && isExecutable(Path))
      T.Nvcc = Path;
  };
  if (!Nvcc.empty()) {
    // Named: that one or none, so that a wrong --nvcc is said, not
    // silently replaced.
    Try(Nvcc.str());
  } else {
    if (!Toolkit.empty()) {
      llvm::SmallString<256> P(Toolkit);
      llvm::sys::path::append(P, "bin", "nvcc");
      Try(P.str().str());
    }
    T.Searched.push_back("$PATH");
    if (T.Nvcc.empty())
      if (llvm::ErrorOr<std::string> OnPath =
              llvm::sys::findProgramByName("nvcc"))
        T.Nvcc = *OnPath;
    Try("/usr/local/cuda/bin/nvcc");
  }
  if (!T.Nvcc.empty()) {
    // Only beside nvcc: a toolkit ships both, and nvdisasm from another
    // toolkit may not read this nvcc's cubin.
    llvm::SmallString<256> D(llvm::sys::path::parent_path(T.Nvcc));
    llvm::sys::path::append(D, "nvdisasm");
    if (isExecutable(D))
      T.Nvdisasm = D.str().str();
  }
  return T;
}

std::string cudaArchOf(llvm::ArrayRef<std::string> ClangArgs) {
  std::string Arch = DefaultCudaArch;
  for (llvm::StringRef A : ClangArgs)
    if (A.consume_front("--cuda-gpu-arch="))
      Arch = A.str();
  return Arch;
}

std::optional<SharedListing>
compileSharedListing(const SassTools &Tools, llvm::StringRef File,
                     llvm::StringRef Dir,
                     llvm::ArrayRef<std::string> ProjectArgs,
                     llvm::StringRef Arch, std::string &Error) {
  llvm::SmallString<256> Input(File);
  llvm::sys::path::make_absolute(Dir, Input);
  llvm::SmallString<128> Temp;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("shmem-lint-sass", Temp)) {
    Error = "cannot create a temporary directory: " + EC.message();
    return std::nullopt;
  }
  const bool Sass = !Tools.Nvdisasm.empty();
  llvm::SmallString<256> Output(Temp);
  llvm::sys::path::append(Output, Sass ? "listing.cubin" : "listing.ptx");
  std::vector<std::string> Args = {"-arch=" + Arch.str(), "-lineinfo", "-w"};
  for (std::string &F : nvccFlagsFromClang(ProjectArgs, Dir))
    Args.push_back(std::move(F));
  Args.push_back(Sass ? "-cubin" : "--ptx");
  Args.push_back("-o");
  Args.push_back(Output.str().str());
  Args.push_back(Input.str().str());

  std::optional<SharedListing> Listing;
  ProgramRun Nvcc = runProgram(Tools.Nvcc, Args, ToolSeconds);
  if (!Nvcc.succeeded()) {
    Error = "nvcc failed: " + Nvcc.failure();
  } else if (Sass) {
    ProgramRun Dis = runProgram(Tools.Nvdisasm,
                                {"-g", "-c", Output.str().str()}, ToolSeconds);
    if (Dis.succeeded())
      Listing = parseSassListing(Dis.Stdout);
    else
      Error = "nvdisasm failed: " + Dis.failure();
  } else if (auto Ptx = llvm::MemoryBuffer::getFile(Output, /*IsText=*/true)) {
    Listing = parsePtxListing((*Ptx)->getBuffer());
  } else {
    Error = "nvcc wrote no PTX: " + Ptx.getError().message();
  }
  llvm::sys::fs::remove(Output);
  llvm::sys::fs::remove(Temp);
  return Listing;
}

} // namespace shmem
