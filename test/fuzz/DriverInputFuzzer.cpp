//===- DriverInputFuzzer.cpp - libFuzzer target for the driver's inputs --===//
//
// Feeds arbitrary bytes to what the driver reads from outside: a
// compile_commands.json, nvcc and clang command lines, nvcc options files and
// gcc-style response files. The input is split at NUL bytes into
//
//   0: compile_commands.json (every @SCRATCH@ replaced with the scratch
//      directory, so that entries can name the files below), loaded with
//      clang::tooling::CompilationDatabase::loadFromDirectory as the driver's
//      -p does, every entry then translated with translateCompileCommand;
//   1: a command line, one word a line (as a build log's command split by
//      the shell), translated in a scratch directory; the same text is also
//      split with tokenizeNvccOptionsFile and translated as an nvcc command;
//   2: the text of `opts.txt` and 3: that of `resp.rsp` in the scratch
//      directory, for --options-file opts.txt and @resp.rsp to read.
//
// Besides crashes, hangs and sanitizer reports, the fuzzer aborts when a
// translated command is not well formed:
//  * its arguments, parsed with clang's driver option table, have an option
//    without its value, an argument clang does not know, or a positional
//    argument (a second input file);
//  * an architecture flag is kept anywhere but in the trailing
//    --cuda-gpu-arch= arguments;
//  * withoutLanguageAndArch(), which the driver applies to `-- nvcc ...`
//    commands and exported commands, leaves arguments that are not well
//    formed or changes any argument but -x and the architectures;
//  * a -Werror-like flag survived (NvccCommand.h: always dropped);
//  * the architectures are not the sorted, distinct, clang-known names of
//    the trailing --cuda-gpu-arch= arguments;
//  * the input file is not absolute although the directory is.
//
// The scratch directory is the only place this fuzzer lets the code read
// from by name; inputs naming device or /proc files are skipped, since
// reading /dev/zero as a response file never ends by design of the input.
//
//===----------------------------------------------------------------------===//

#include "NvccCommand.h"

#include "clang/Options/Options.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace shmem;

namespace {

std::string Scratch;

[[noreturn]] void fail(const std::string &Msg,
                       const std::vector<std::string> &Args) {
  std::string All;
  for (const std::string &A : Args)
    All += " '" + A + "'";
  std::fprintf(stderr, "driver fuzzer: MALFORMED: %s; arguments:%s\n",
               Msg.c_str(), All.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

void writeFile(const std::string &Name, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Scratch + "/" + Name, EC);
  if (EC) {
    std::fprintf(stderr, "driver fuzzer: cannot write %s\n", Name.c_str());
    std::abort();
  }
  OS << Text;
}

bool isWerrorLike(llvm::StringRef S) {
  return S == "-Werror" || S.starts_with("-Werror=") ||
         S == "-pedantic-errors" || S == "-Wfatal-errors";
}

/// One parsed argument: its option and values, as clang sees it.
struct ParsedArg {
  unsigned ID;
  std::vector<std::string> Values;
  bool operator==(const ParsedArg &O) const {
    return ID == O.ID && Values == O.Values;
  }
};

bool isArchOption(const llvm::opt::Arg &A) {
  namespace copt = clang::options;
  return A.getOption().matches(copt::OPT_offload_arch_EQ) ||
         A.getOption().matches(copt::OPT_no_offload_arch_EQ);
}

/// Parses \p Args as clang's driver would and checks they are well formed;
/// architecture options may only come from index \p ArchesFrom on. Returns
/// the arguments other than -x and the architectures.
std::vector<ParsedArg> checkClangArgs(const std::vector<std::string> &Args,
                                      const char *What, size_t ArchesFrom) {
  namespace copt = clang::options;
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList List =
      Table.ParseArgs(Argv, MissingIndex, MissingCount,
                      llvm::opt::Visibility(copt::ClangOption));
  if (MissingCount)
    fail(std::string(What) + ": '" + Args[MissingIndex] +
             "' lacks its value",
         Args);
  std::vector<ParsedArg> Rest;
  for (const llvm::opt::Arg *A : List) {
    unsigned ID = A->getOption().getID();
    std::string Text = A->getAsString(List);
    if (ID == copt::OPT_INPUT)
      fail(std::string(What) + ": positional argument '" + Text + "'", Args);
    if (ID == copt::OPT_UNKNOWN)
      fail(std::string(What) + ": clang does not know '" + Text + "'", Args);
    if (isWerrorLike(Text))
      fail(std::string(What) + ": kept '" + Text + "'", Args);
    if (isArchOption(*A)) {
      if (A->getIndex() < ArchesFrom)
        fail(std::string(What) + ": architecture flag '" + Text +
                 "' kept among the other flags",
             Args);
      continue;
    }
    if (A->getOption().matches(copt::OPT_x))
      continue;
    Rest.push_back({ID, std::vector<std::string>(A->getValues().begin(),
                                                 A->getValues().end())});
  }
  return Rest;
}

void checkTranslation(const TranslatedCommand &T, llvm::StringRef Directory) {
  // Architectures: distinct clang names, the trailing --cuda-gpu-arch=
  // arguments in the same order.
  if (T.CudaArchs.size() > T.Args.size())
    fail("more architectures than arguments", T.Args);
  size_t First = T.Args.size() - T.CudaArchs.size();
  std::vector<ParsedArg> Rest =
      checkClangArgs(T.Args, "translated command", First);
  // The driver's view: the same arguments, less -x and the architectures.
  std::vector<std::string> Stripped = withoutLanguageAndArch(T.Args);
  if (checkClangArgs(Stripped, "without -x and archs", Stripped.size()) !=
      Rest)
    fail("withoutLanguageAndArch() changed other arguments", Stripped);
  for (size_t I = 0; I < T.CudaArchs.size(); ++I) {
    const std::string &A = T.CudaArchs[I];
    if (A.empty() || clangCudaArch(A) != A)
      fail("architecture '" + A + "' is not a clang name", T.Args);
    for (size_t J = 0; J < I; ++J)
      if (T.CudaArchs[J] == A)
        fail("architecture '" + A + "' twice", T.Args);
    if (T.Args[First + I] != "--cuda-gpu-arch=" + A)
      fail("argument " + std::to_string(First + I) + " is not --cuda-gpu-arch=" +
               A,
           T.Args);
  }
  if (!T.InputFile.empty() && llvm::sys::path::is_absolute(Directory) &&
      !llvm::sys::path::is_absolute(T.InputFile))
    fail("input '" + T.InputFile + "' is not absolute", T.Args);
}

std::vector<llvm::StringRef> split(llvm::StringRef Text, char Sep) {
  std::vector<llvm::StringRef> Parts;
  llvm::SmallVector<llvm::StringRef, 8> Pieces;
  Text.split(Pieces, Sep, /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  Parts.assign(Pieces.begin(), Pieces.end());
  return Parts;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("shmem-lint-fuzz", Dir)) {
    std::fprintf(stderr, "driver fuzzer: cannot create a scratch directory\n");
    std::abort();
  }
  Scratch = std::string(Dir);
  std::atexit([] {
    for (const char *F : {"compile_commands.json", "opts.txt", "resp.rsp"})
      llvm::sys::fs::remove(Scratch + "/" + F);
    llvm::sys::fs::remove(Scratch);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  // Device files and /proc: reading them need not end (see above).
  for (const char *Bad : {"/dev", "dev/", "/proc", "proc/"})
    if (Input.contains(Bad))
      return 0;
  std::vector<llvm::StringRef> Parts = split(Input, '\0');
  Parts.resize(4);

  writeFile("opts.txt", Parts[2]);
  writeFile("resp.rsp", Parts[3]);

  // 0: the compile database, read as `shmem-lint -p DIR` reads it.
  std::string Json = Parts[0].str();
  for (size_t At = Json.find("@SCRATCH@"); At != std::string::npos;
       At = Json.find("@SCRATCH@", At + Scratch.size()))
    Json.replace(At, 9, Scratch);
  writeFile("compile_commands.json", Json);
  std::string Err;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB =
      clang::tooling::CompilationDatabase::loadFromDirectory(Scratch, Err);
  if (DB) {
    unsigned N = 0;
    for (const clang::tooling::CompileCommand &C : DB->getAllCompileCommands()) {
      if (++N > 64)
        break;
      checkTranslation(translateCompileCommand(C.CommandLine, C.Directory),
                       C.Directory);
    }
  }

  // 1: a command line, a word a line, and the same text split as nvcc
  // splits an options file.
  std::vector<std::string> Words;
  for (llvm::StringRef W : split(Parts[1], '\n'))
    Words.push_back(W.str());
  if (Words.size() > 512)
    return 0;
  TranslatedCommand T = translateCompileCommand(Words, Scratch);
  checkTranslation(T, Scratch);
  std::vector<std::string> Tokens = tokenizeNvccOptionsFile(Parts[1]);
  Tokens.insert(Tokens.begin(), "nvcc");
  if (Tokens.size() <= 512) {
    TranslatedCommand U = translateCompileCommand(Tokens, Scratch);
    if (!U.IsNvcc)
      fail("a command starting with nvcc is not an nvcc command", Tokens);
    checkTranslation(U, Scratch);
  }
  for (const std::string &W : Words)
    if (std::string A = clangCudaArch(W); !A.empty() && clangCudaArch(A) != A)
      fail("clangCudaArch('" + A + "') is not '" + A + "'", Words);
  return 0;
}
