//===- NvccListing.h - nvcc output of a file, per line ---------*- C++ -*-===//
//
// --sass compiles each analysed file that has a bank conflict with nvcc, as
// the project would but for the one architecture analysed and with
// -lineinfo, and reads which shared-memory instructions each source line
// became (SharedListing.h):
//
//   nvcc -arch=sm_XX -lineinfo -w FLAGS -cubin -o T/listing.cubin k.cu
//   nvdisasm -g -c T/listing.cubin         (SASS, when nvdisasm is there)
//   nvcc -arch=sm_XX -lineinfo -w FLAGS --ptx -o T/listing.ptx k.cu  (else)
//
// FLAGS are the project's include paths, macros, pre-included headers and
// language standard, from the clang command the file is analysed with
// (FileJob::ProjectArgs), in nvcc's spelling (nvccFlagsFromClang()); nothing
// of shmem-lint's own CUDA header setup. T is a temporary directory, removed
// afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_NVCCLISTING_H
#define SHMEM_LINT_DRIVER_NVCCLISTING_H

#include "SharedListing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// The tools --sass runs.
struct SassTools {
  std::string Nvcc; ///< Empty when none was found.
  /// nvdisasm beside nvcc (a toolkit ships them together); empty when
  /// there is none, and PTX is read instead of SASS.
  std::string Nvdisasm;
  /// Where nvcc was looked for, in order, for the message that says it
  /// was not found.
  std::vector<std::string> Searched;
};

/// nvcc: \p Nvcc (--nvcc) when given, else bin/nvcc under \p Toolkit (the
/// --cuda-path directory or the toolkit found on its own; may be empty),
/// else `nvcc` on the PATH, else /usr/local/cuda/bin/nvcc.
SassTools findSassTools(llvm::StringRef Nvcc, llvm::StringRef Toolkit);

/// The architecture of a clang CUDA command (`--cuda-gpu-arch=sm_90a`, the
/// last one), else DefaultCudaArch.
std::string cudaArchOf(llvm::ArrayRef<std::string> ClangArgs);

/// Compiles \p File (relative ones against \p Dir) with the project's clang
/// flags \p ProjectArgs for \p Arch as described above and reads its
/// listing; std::nullopt with one sentence in \p Error
/// (nvcc's first error line) when a tool fails.
std::optional<SharedListing>
compileSharedListing(const SassTools &Tools, llvm::StringRef File,
                     llvm::StringRef Dir,
                     llvm::ArrayRef<std::string> ProjectArgs,
                     llvm::StringRef Arch, std::string &Error);

} // namespace shmem

#endif
