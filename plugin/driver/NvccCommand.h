//===- NvccCommand.h - nvcc compile commands, made clang's ----*- C++ -*-===//
//
// A compile_commands.json written by CMake for the CUDA language holds nvcc
// command lines: clang's CUDA mode rejects many of their flags
// (`--options-file`, `-gencode`, `-Xcompiler=-fPIC`,
// `--expt-relaxed-constexpr`, `-rdc=true`, ...). translateCompileCommand()
// reads such a command the way nvcc would and returns the arguments that give
// clang the same view of the source: include paths (also those hidden in
// response files), macros, the language standard, the GPU architectures as
// --cuda-gpu-arch, and those host compiler flags clang understands. Everything
// else is dropped, each drop explained in a note for --verbose.
//
// Commands of other compilers (clang, g++) pass through with the flags clang
// understands, minus the compiler, the input, -c, -o and dependency-file
// flags.
//
// Parsing rules (nvcc 12/13, checked against `nvcc -dryrun`):
//  * an option value may follow as `-opt=value`, `-opt value`, or for the
//    one-letter options (-I -D -U -L -l -O -o -t) joined as `-Ivalue`;
//    long (`--include-path`) and short (`-I`) spellings are both accepted,
//    with one or two dashes;
//  * list-valued options (-I, -D, -U, -isystem, -include, -Xcompiler, ...)
//    are split at commas like nvcc does (`-DLIST=a,b` defines LIST=a and b);
//    `\,` keeps a comma;
//  * -arch takes the last value, -gencode accumulates; the architecture the
//    device code is compiled for (and so __CUDA_ARCH__) is the *virtual*
//    one: `-gencode arch=compute_70,code=sm_80` is analysed as sm_70;
//  * an nvcc flag that is unknown here is dropped with a Warning, only the
//    flag itself: a following word that is not an option is then taken as a
//    positional argument, and any positional argument that is not the source
//    file is reported as ignored. With -forward-unknown-to-host-compiler (or
//    -forward-unknown-opts) such flags are host-compiler flags instead and go
//    through the host-flag filter below, without a Warning;
//  * host-compiler flags (-Xcompiler, forwarded unknown flags) are parsed with
//    clang's own option table; kept are -f*, -W*, -D, -U, -I, -isystem,
//    -iquote, -idirafter, -include, -imacros, -std, -O, -g, -w, -pthread
//    unless clang does not know them, ignores them, or they are
//    target-specific or GPU flags (clang's CUDA and offload -f flags);
//    -Werror, -Werror=*, -pedantic-errors and -Wfatal-errors are always
//    dropped, so that a compiler warning never stops an analysis;
//  * the architectures come only from the command's own arch flags: no kept
//    flag selects one (--offload-arch, --no-offload-arch are dropped);
//  * `--options-file F` / `-optf F` are read like nvcc reads them: words
//    split at white space, "double quotes" group, a backslash keeps the next
//    character, single quotes are ordinary characters. `@F` response files
//    use gcc's rules (llvm::cl::TokenizeGNUCommandLine). Both are found
//    relative to the command's directory and may nest (16 levels, 256
//    files a command).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_NVCCCOMMAND_H
#define SHMEM_LINT_DRIVER_NVCCCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace shmem {

/// The architecture assumed where the command names none that clang can use
/// (`-arch=native`, `all`, `all-major`).
constexpr const char *DefaultCudaArch = "sm_80";

struct TranslatedCommand {
  /// Arguments for clang's driver, without the compiler and without the input
  /// file: -I.. -D.. -std=c++17 -x cuda ... and, last, one
  /// --cuda-gpu-arch=sm_XX per entry of CudaArchs, lowest first.
  std::vector<std::string> Args;
  /// The GPU architectures the command compiles device code for, as clang
  /// names them (sm_80, sm_90a), lowest first, without duplicates. Empty when
  /// the command names none: clang then uses its own default.
  std::vector<std::string> CudaArchs;
  /// Notes for --verbose: "dropped nvcc-only flag --expt-relaxed-constexpr".
  std::vector<std::string> Dropped;
  /// Flags never seen before: "unknown nvcc flag '--foo' dropped", and
  /// arguments that were ignored.
  std::vector<std::string> Warnings;
  /// What made the translation incomplete: an unreadable response file, a
  /// flag without its value.
  std::vector<std::string> Errors;
  /// The source file, made absolute against the command's directory; empty if
  /// the command has none.
  std::string InputFile;
  /// The -o argument as written, if any.
  std::string OutputFile;
  /// argv[0] is nvcc.
  bool IsNvcc = false;
  /// The source is compiled as CUDA: `-x cu` / `-x cuda`, or a .cu file
  /// without -x.
  bool IsCuda = false;
};

/// True if \p Argv0 names nvcc: basename `nvcc` or `nvcc.exe` (any case),
/// with / or \ as separator.
bool isNvccCompiler(llvm::StringRef Argv0);

/// Translates one compile command. \p CommandLine is argv (as in
/// clang::tooling::CompileCommand::CommandLine, so already split into words);
/// \p Directory is the command's working directory, against which response
/// files and the input are found. A compiler launcher in front (ccache,
/// sccache, distcc, buildcache) is skipped.
TranslatedCommand
translateCompileCommand(llvm::ArrayRef<std::string> CommandLine,
                        llvm::StringRef Directory);

/// A translated command's arguments without the language (-x LANG) and the
/// GPU architectures: the driver picks the one architecture and analyses
/// every file as CUDA.
std::vector<std::string>
withoutLanguageAndArch(const std::vector<std::string> &Args);

/// Removes the GPU architecture flags from \p Args, clang's
/// (--cuda-gpu-arch=, --offload-arch=) and nvcc's (-arch, -code, -gencode,
/// --generate-code, in any of nvcc's spellings), and returns the
/// architectures they name in CudaArchs, lowest first, with the warnings of
/// names clang does not know. For the flags given after the driver's `--`:
/// the user's architecture replaces the driver's default.
TranslatedCommand takeCudaArchFlags(std::vector<std::string> &Args);

/// The reverse, for --sass (NvccListing.h): the flags among \p ClangArgs (a
/// clang command's, without compiler and input) that mean the same to
/// nvcc, in nvcc's spelling: -I (and -iquote), -isystem (and -idirafter),
/// -D, -U, -include, and -std=c++NN for the standards nvcc takes. Relative
/// paths are made absolute against \p Directory, for an nvcc run elsewhere;
/// commas in values are escaped, as nvcc splits these options at commas.
std::vector<std::string>
nvccFlagsFromClang(llvm::ArrayRef<std::string> ClangArgs,
                   llvm::StringRef Directory);

/// The words of an nvcc `--options-file` (see the rules above).
std::vector<std::string> tokenizeNvccOptionsFile(llvm::StringRef Text);

/// Maps one architecture name as nvcc writes it (sm_80, compute_80, lto_80,
/// sm_90a, compute_100f) to clang's name (sm_80, sm_90a, sm_100). Returns an
/// empty string for names clang does not know.
std::string clangCudaArch(llvm::StringRef NvccArch);

} // namespace shmem

#endif
