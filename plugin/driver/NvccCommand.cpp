//===- NvccCommand.cpp - Compile commands written for nvcc -> clang -------===//

#include "NvccCommand.h"

#include "clang/Basic/OffloadArch.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <optional>

namespace shmem {

namespace {

namespace copt = clang::options;

//===----------------------------------------------------------------------===//
// nvcc's options
//===----------------------------------------------------------------------===//

enum class Arity {
  None,
  One,  ///< One value, used as it is.
  List, ///< One value, split at commas like nvcc does.
};

enum class Action {
  Include,       ///< -I
  SystemInclude, ///< -isystem
  Define,        ///< -D
  Undefine,      ///< -U
  PreInclude,    ///< -include
  Std,           ///< -std
  Optimize,      ///< -O
  Debug,         ///< -g
  Language,      ///< -x
  Arch,          ///< -arch
  Code,          ///< -code
  Gencode,       ///< -gencode
  HostFlags,     ///< -Xcompiler
  OptionsFile,   ///< --options-file (expanded before the main pass)
  Output,        ///< -o
  Compile,       ///< -c: dropped without a note
  DepFile,       ///< -MD, -MF x, ...
  DefaultStream, ///< --default-stream
  NoExceptions,  ///< -noeh
  TemplateDepth,
  TemplateBacktraceLimit,
  DisableWarnings, ///< -w
  KeepWarningFlag, ///< -Wreorder: clang knows it under the same name
  ForwardUnknown,  ///< -forward-unknown-to-host-compiler
  Drop,            ///< nvcc-only: dropped with a note
};

struct NvccOption {
  const char *Long;  ///< Without dashes: "include-path".
  const char *Short; ///< Without the dash: "I".
  Arity Kind;
  Action Act;
};

// From `nvcc --help` (CUDA 13.0) plus the undocumented -Xcudafe/-Xnvvm.
const NvccOption NvccOptions[] = {
    // Files and phases.
    {"options-file", "optf", Arity::List, Action::OptionsFile},
    {"output-file", "o", Arity::One, Action::Output},
    {"compile", "c", Arity::None, Action::Compile},
    {"cuda", "cuda", Arity::None, Action::Drop},
    {"cubin", "cubin", Arity::None, Action::Drop},
    {"fatbin", "fatbin", Arity::None, Action::Drop},
    {"ptx", "ptx", Arity::None, Action::Drop},
    {"optix-ir", "optix-ir", Arity::None, Action::Drop},
    {"ltoir", "ltoir", Arity::None, Action::Drop},
    {"preprocess", "E", Arity::None, Action::Drop},
    {"device-c", "dc", Arity::None, Action::Drop},
    {"device-w", "dw", Arity::None, Action::Drop},
    {"device-link", "dlink", Arity::None, Action::Drop},
    {"link", "link", Arity::None, Action::Drop},
    {"lib", "lib", Arity::None, Action::Drop},
    {"run", "run", Arity::None, Action::Drop},
    {"objdir-as-tempdir", "objtemp", Arity::None, Action::Drop},
    {"output-directory", "odir", Arity::One, Action::Drop},
    // Dependency files.
    {"generate-dependencies", "M", Arity::None, Action::DepFile},
    {"generate-nonsystem-dependencies", "MM", Arity::None, Action::DepFile},
    {"generate-dependencies-with-compile", "MD", Arity::None, Action::DepFile},
    {"generate-nonsystem-dependencies-with-compile", "MMD", Arity::None,
     Action::DepFile},
    {"dependency-output", "MF", Arity::One, Action::DepFile},
    {"generate-dependency-targets", "MP", Arity::None, Action::DepFile},
    {"dependency-target-name", "MT", Arity::One, Action::DepFile},
    // Preprocessor and language.
    {"pre-include", "include", Arity::List, Action::PreInclude},
    {"define-macro", "D", Arity::List, Action::Define},
    {"undefine-macro", "U", Arity::List, Action::Undefine},
    {"include-path", "I", Arity::List, Action::Include},
    {"system-include", "isystem", Arity::List, Action::SystemInclude},
    {"x", "x", Arity::One, Action::Language},
    {"std", "std", Arity::One, Action::Std},
    {"optimize", "O", Arity::One, Action::Optimize},
    {"debug", "g", Arity::None, Action::Debug},
    {"no-exceptions", "noeh", Arity::None, Action::NoExceptions},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", Arity::One,
     Action::TemplateBacktraceLimit},
    {"ftemplate-depth", "ftemplate-depth", Arity::One, Action::TemplateDepth},
    {"default-stream", "default-stream", Arity::One, Action::DefaultStream},
    {"disable-warnings", "w", Arity::None, Action::DisableWarnings},
    {"Wreorder", "Wreorder", Arity::None, Action::KeepWarningFlag},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", Arity::None,
     Action::KeepWarningFlag},
    // GPU code generation.
    {"gpu-architecture", "arch", Arity::One, Action::Arch},
    {"gpu-code", "code", Arity::List, Action::Code},
    {"generate-code", "gencode", Arity::One, Action::Gencode},
    {"relocatable-device-code", "rdc", Arity::One, Action::Drop},
    {"entries", "e", Arity::One, Action::Drop},
    {"maxrregcount", "maxrregcount", Arity::One, Action::Drop},
    {"use_fast_math", "use_fast_math", Arity::None, Action::Drop},
    {"ftz", "ftz", Arity::One, Action::Drop},
    {"prec-div", "prec-div", Arity::One, Action::Drop},
    {"prec-sqrt", "prec-sqrt", Arity::One, Action::Drop},
    {"fmad", "fmad", Arity::One, Action::Drop},
    {"extra-device-vectorization", "extra-device-vectorization", Arity::None,
     Action::Drop},
    {"keep-device-functions", "keep-device-functions", Arity::None,
     Action::Drop},
    {"source-in-ptx", "src-in-ptx", Arity::None, Action::Drop},
    {"restrict", "restrict", Arity::None, Action::Drop},
    {"device-debug", "G", Arity::None, Action::Drop},
    {"generate-line-info", "lineinfo", Arity::None, Action::Drop},
    {"optimization-info", "opt-info", Arity::One, Action::Drop},
    {"Ofast-compile", "Ofc", Arity::One, Action::Drop},
    {"dopt", "dopt", Arity::One, Action::Drop},
    {"dlink-time-opt", "dlto", Arity::None, Action::Drop},
    {"lto", "lto", Arity::None, Action::Drop},
    {"gen-opt-lto", "gen-opt-lto", Arity::None, Action::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", Arity::None,
     Action::Drop},
    {"extended-lambda", "extended-lambda", Arity::None, Action::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", Arity::None, Action::Drop},
    {"no-host-device-initializer-list", "nohdinitlist", Arity::None,
     Action::Drop},
    {"no-host-device-move-forward", "nohdmoveforward", Arity::None,
     Action::Drop},
    {"static-global-template-stub", "static-global-template-stub", Arity::One,
     Action::Drop},
    {"device-entity-has-hidden-visibility",
     "device-entity-has-hidden-visibility", Arity::One, Action::Drop},
    {"device-stack-protector", "device-stack-protector", Arity::One,
     Action::Drop},
    {"extensible-whole-program", "ewp", Arity::None, Action::Drop},
    {"relocatable-ptx", "reloc-ptx", Arity::None, Action::Drop},
    {"no-compress", "no-compress", Arity::None, Action::Drop},
    {"compress-mode", "compress-mode", Arity::One, Action::Drop},
    {"jump-table-density", "jtd", Arity::One, Action::Drop},
    {"sanitize", "sanitize", Arity::One, Action::Drop},
    {"frandom-seed", "frandom-seed", Arity::One, Action::Drop},
    {"no-device-link", "nodlink", Arity::None, Action::Drop},
    {"no-align-double", "no-align-double", Arity::None, Action::Drop},
    {"list-gpu-code", "code-ls", Arity::None, Action::Drop},
    {"list-gpu-arch", "arch-ls", Arity::None, Action::Drop},
    // Options passed to other tools.
    {"compiler-options", "Xcompiler", Arity::List, Action::HostFlags},
    {"linker-options", "Xlinker", Arity::One, Action::Drop},
    {"archive-options", "Xarchive", Arity::One, Action::Drop},
    {"ptxas-options", "Xptxas", Arity::One, Action::Drop},
    {"nvlink-options", "Xnvlink", Arity::One, Action::Drop},
    {"fatbin-options", "Xfatbin", Arity::One, Action::Drop},
    {"Xcudafe", "Xcudafe", Arity::One, Action::Drop},
    {"Xnvvm", "Xnvvm", Arity::One, Action::Drop},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     Arity::None, Action::ForwardUnknown},
    {"forward-unknown-opts", "forward-unknown-opts", Arity::None,
     Action::ForwardUnknown},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker",
     Arity::None, Action::Drop},
    // Host tools and the toolkit.
    {"compiler-bindir", "ccbin", Arity::One, Action::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", Arity::None,
     Action::Drop},
    {"archiver-binary", "arbin", Arity::One, Action::Drop},
    {"cudart", "cudart", Arity::One, Action::Drop},
    {"cudadevrt", "cudadevrt", Arity::One, Action::Drop},
    {"libdevice-directory", "ldir", Arity::One, Action::Drop},
    {"target-directory", "target-dir", Arity::One, Action::Drop},
    {"use-local-env", "use-local-env", Arity::None, Action::Drop},
    {"force-cl-env-setup", "force-cl-env-setup", Arity::None, Action::Drop},
    {"library", "l", Arity::List, Action::Drop},
    {"library-path", "L", Arity::List, Action::Drop},
    {"shared", "shared", Arity::None, Action::Drop},
    {"machine", "m", Arity::One, Action::Drop},
    {"m64", "m64", Arity::None, Action::Drop},
    {"profile", "pg", Arity::None, Action::Drop},
    {"qpp-config", "qpp-config", Arity::One, Action::Drop},
    {"compile-as-tools-patch", "astoolspatch", Arity::None, Action::Drop},
    {"host-linker-script", "hls", Arity::One, Action::Drop},
    {"augment-host-linker-script", "aug-hls", Arity::None, Action::Drop},
    {"relocatable-link", "r", Arity::None, Action::Drop},
    // The driver itself.
    {"dont-use-profile", "noprof", Arity::None, Action::Drop},
    {"dryrun", "dryrun", Arity::None, Action::Drop},
    {"verbose", "v", Arity::None, Action::Drop},
    {"threads", "t", Arity::One, Action::Drop},
    {"split-compile", "split-compile", Arity::One, Action::Drop},
    {"split-compile-extended", "split-compile-extended", Arity::One,
     Action::Drop},
    {"fdevice-syntax-only", "fdevice-syntax-only", Arity::None, Action::Drop},
    {"fdevice-time-trace", "fdevice-time-trace", Arity::One, Action::Drop},
    {"keep", "keep", Arity::None, Action::Drop},
    {"keep-dir", "keep-dir", Arity::One, Action::Drop},
    {"save-temps", "save-temps", Arity::None, Action::Drop},
    {"clean-targets", "clean", Arity::None, Action::Drop},
    {"time", "time", Arity::One, Action::Drop},
    {"run-args", "run-args", Arity::One, Action::Drop},
    {"input-drive-prefix", "idp", Arity::One, Action::Drop},
    {"dependency-drive-prefix", "ddp", Arity::One, Action::Drop},
    {"drive-prefix", "dp", Arity::One, Action::Drop},
    {"jobserver", "jobserver", Arity::None, Action::Drop},
    {"help", "h", Arity::None, Action::Drop},
    {"version", "V", Arity::None, Action::Drop},
    // Diagnostics of nvcc's front end (cudafe), not of the host compiler.
    {"Wdefault-stream-launch", "Wdefault-stream-launch", Arity::None,
     Action::Drop},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", Arity::None,
     Action::Drop},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", Arity::None,
     Action::Drop},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", Arity::None,
     Action::Drop},
    {"Werror", "Werror", Arity::One, Action::Drop},
    {"resource-usage", "res-usage", Arity::None, Action::Drop},
    {"display-error-number", "err-no", Arity::None, Action::Drop},
    {"no-display-error-number", "no-err-no", Arity::None, Action::Drop},
    {"diag-error", "diag-error", Arity::One, Action::Drop},
    {"diag-suppress", "diag-suppress", Arity::One, Action::Drop},
    {"diag-warn", "diag-warn", Arity::One, Action::Drop},
    {"brief-diagnostics", "brief-diag", Arity::One, Action::Drop},
};

const NvccOption *findNvccOption(llvm::StringRef Name) {
  for (const NvccOption &O : NvccOptions)
    if (Name == O.Long || Name == O.Short)
      return &O;
  return nullptr;
}

/// One-letter options whose value may be joined: -Ipath, -DX=1, -O3, -t4.
bool takesJoinedValue(char C) {
  return llvm::StringRef("IDULlOot").contains(C);
}

/// Splits an nvcc list value at commas; `\,` is a literal comma.
std::vector<std::string> splitNvccList(llvm::StringRef V) {
  std::vector<std::string> Out(1);
  for (size_t I = 0; I < V.size(); ++I) {
    if (V[I] == '\\' && I + 1 < V.size() && V[I + 1] == ',') {
      Out.back() += ',';
      ++I;
    } else if (V[I] == ',') {
      Out.emplace_back();
    } else {
      Out.back() += V[I];
    }
  }
  llvm::erase_if(Out, [](const std::string &S) { return S.empty(); });
  return Out;
}

bool isSourceFile(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::is_contained(
      llvm::ArrayRef<llvm::StringRef>{".cu", ".c", ".cc", ".cp", ".cpp", ".cxx",
                                      ".c++", ".C", ".CPP", ".i", ".ii"},
      Ext);
}

llvm::StringRef baseName(llvm::StringRef Path) {
  size_t Slash = Path.find_last_of("/\\");
  return Slash == llvm::StringRef::npos ? Path : Path.drop_front(Slash + 1);
}

bool isLauncher(llvm::StringRef Argv0) {
  std::string B = baseName(Argv0).lower();
  llvm::StringRef Base(B);
  Base.consume_back(".exe");
  return Base == "ccache" || Base == "sccache" || Base == "distcc" ||
         Base == "buildcache" || Base == "icecc";
}

//===----------------------------------------------------------------------===//
// Response files
//===----------------------------------------------------------------------===//

constexpr unsigned MaxResponseFileDepth = 16;
// Files read for one command, all nesting levels together. The depth limit
// alone lets a file that names itself twice be read 2^16 times (found by
// test/fuzz/DriverInputFuzzer.cpp: seconds and hundreds of MB per command).
constexpr unsigned MaxResponseFiles = 256;

std::string resolvePath(llvm::StringRef Path, llvm::StringRef Directory) {
  if (llvm::sys::path::is_absolute(Path) || Directory.empty())
    return Path.str();
  llvm::SmallString<256> Full(Directory);
  llvm::sys::path::append(Full, Path);
  return std::string(Full);
}

class Expander {
public:
  Expander(llvm::StringRef Directory, bool Nvcc, TranslatedCommand &R)
      : Directory(Directory), Nvcc(Nvcc), R(R) {}

  void expand(llvm::ArrayRef<std::string> In, std::vector<std::string> &Out,
              unsigned Depth) {
    for (size_t I = 0; I < In.size(); ++I) {
      llvm::StringRef Tok = In[I];
      if (Nvcc) {
        std::optional<std::string> Files = optionsFileValue(In, I);
        if (Files) {
          for (const std::string &F : splitNvccList(*Files))
            readFile(F, /*NvccRules=*/true, Out, Depth);
          continue;
        }
      }
      if (Tok.size() > 1 && Tok.front() == '@') {
        readFile(Tok.drop_front(), /*NvccRules=*/false, Out, Depth);
        continue;
      }
      Out.push_back(Tok.str());
    }
  }

private:
  /// If In[I] is --options-file/-optf, its value (advancing I past it).
  std::optional<std::string> optionsFileValue(llvm::ArrayRef<std::string> In,
                                              size_t &I) {
    llvm::StringRef Tok = In[I];
    if (!Tok.consume_front("-"))
      return std::nullopt;
    Tok.consume_front("-");
    auto [Name, Value] = Tok.split('=');
    if (Name != "options-file" && Name != "optf")
      return std::nullopt;
    if (Tok.contains('='))
      return Value.str();
    if (I + 1 >= In.size()) {
      R.Errors.push_back("option '" + In[I] + "' has no value");
      return std::string();
    }
    return In[++I];
  }

  void readFile(llvm::StringRef Name, bool NvccRules,
                std::vector<std::string> &Out, unsigned Depth) {
    const char *What = NvccRules ? "options file" : "response file";
    if (Depth >= MaxResponseFileDepth) {
      R.Errors.push_back((llvm::Twine(What) + " '" + Name +
                          "' is nested too deeply (a cycle?); not read")
                             .str());
      return;
    }
    if (FilesRead == MaxResponseFiles) {
      R.Errors.push_back((llvm::Twine("more than ") +
                          llvm::Twine(MaxResponseFiles) +
                          " response and options files (a cycle?); '" + Name +
                          "' and any further ones not read")
                             .str());
      ++FilesRead;
    }
    if (FilesRead > MaxResponseFiles)
      return;
    ++FilesRead;
    std::string Path = resolvePath(Name, Directory);
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buf) {
      R.Errors.push_back((llvm::Twine("cannot read ") + What + " '" + Path +
                          "': " + Buf.getError().message())
                             .str());
      return;
    }
    llvm::StringRef Text = (*Buf)->getBuffer();
    std::vector<std::string> Words;
    if (NvccRules) {
      Words = tokenizeNvccOptionsFile(Text);
    } else {
      llvm::BumpPtrAllocator Alloc;
      llvm::StringSaver Saver(Alloc);
      llvm::SmallVector<const char *, 32> Argv;
      llvm::cl::TokenizeGNUCommandLine(Text, Saver, Argv);
      for (const char *A : Argv)
        if (A)
          Words.emplace_back(A);
    }
    R.Dropped.push_back((llvm::Twine("expanded ") + What + " '" + Name + "' (" +
                         llvm::Twine(Words.size()) + " arguments)")
                            .str());
    expand(Words, Out, Depth + 1);
  }

  llvm::StringRef Directory;
  bool Nvcc;
  TranslatedCommand &R;
  unsigned FilesRead = 0;
};

//===----------------------------------------------------------------------===//
// Host-compiler flags, judged by clang's own option table
//===----------------------------------------------------------------------===//

bool isWerrorLike(llvm::StringRef Spelled) {
  return Spelled == "-Werror" || Spelled.starts_with("-Werror=") ||
         Spelled == "-pedantic-errors" || Spelled == "-Wfatal-errors";
}

/// Why clang should not get \p A, or "" to keep it. \p HostOnly applies the
/// narrow policy for flags meant for the host compiler of an nvcc command.
std::string whyDrop(const llvm::opt::Arg &A, llvm::StringRef Spelled,
                    bool HostOnly) {
  const llvm::opt::Option O = A.getOption();
  if (O.getID() == copt::OPT_UNKNOWN)
    return "clang does not know it";
  if (O.getID() == copt::OPT_INPUT)
    return "not a flag";
  if (isWerrorLike(Spelled))
    return "a compiler warning must not stop the analysis";
  if (O.hasFlag(copt::Unsupported))
    return "clang does not support it";
  if (O.hasFlag(copt::Ignored) ||
      O.matches(copt::OPT_clang_ignored_gcc_optimization_f_Group) ||
      O.matches(copt::OPT_clang_ignored_f_Group) ||
      O.matches(copt::OPT_clang_ignored_m_Group) ||
      O.matches(copt::OPT_clang_ignored_legacy_options_Group))
    return "clang ignores it";
  if (O.matches(copt::OPT_M_Group))
    return "dependency-file flag";
  // The architectures come from the command's own arch flags and end up in
  // CudaArchs, of which the driver picks one; a kept architecture flag would
  // add others behind its back (found by test/fuzz/DriverInputFuzzer.cpp).
  if (O.matches(copt::OPT_offload_arch_EQ) ||
      O.matches(copt::OPT_no_offload_arch_EQ))
    return "the GPU architectures are taken from the command's arch flags";
  if (O.matches(copt::OPT_Link_Group))
    return "linker flag";
  if (!HostOnly)
    return "";
  if (O.hasFlag(copt::TargetSpecific))
    return "target-specific: it would not apply to the GPU side";
  // clang files its CUDA and offloading flags under -f; they are no host
  // compiler's business.
  if (O.matches(copt::OPT_cuda_Group) || O.matches(copt::OPT_offload_Group))
    return "a GPU compilation flag, not one for the host compiler";
  if (O.matches(copt::OPT_f_Group) || O.matches(copt::OPT_f_clang_Group) ||
      O.matches(copt::OPT_W_Group) || O.matches(copt::OPT_O_Group) ||
      O.matches(copt::OPT_g_Group))
    return "";
  switch (O.getID()) {
  case copt::OPT_D:
  case copt::OPT_U:
  case copt::OPT_I:
  case copt::OPT_isystem:
  case copt::OPT_iquote:
  case copt::OPT_idirafter:
  case copt::OPT_include:
  case copt::OPT_imacros:
  case copt::OPT_std_EQ:
  case copt::OPT_w:
  case copt::OPT_pthread:
    return "";
  default:
    return "host-only flag, not needed to analyse the GPU code";
  }
}

/// Parses \p Words with clang's driver option table and calls
/// F(Arg, OriginalWords) for each argument in order, OriginalWords being the
/// words it was parsed from (so that kept flags keep their spelling).
template <typename Fn>
void forEachClangArg(llvm::ArrayRef<std::string> Words, unsigned &MissingIndex,
                     unsigned &MissingCount, Fn F) {
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Argv;
  for (const std::string &W : Words)
    Argv.push_back(W.c_str());
  llvm::opt::InputArgList Args =
      Table.ParseArgs(Argv, MissingIndex, MissingCount,
                      llvm::opt::Visibility(copt::ClangOption));
  std::vector<const llvm::opt::Arg *> List(Args.begin(), Args.end());
  unsigned Limit = MissingCount ? MissingIndex : Argv.size();
  for (size_t I = 0; I < List.size(); ++I) {
    unsigned Begin = List[I]->getIndex();
    unsigned End = I + 1 < List.size() ? List[I + 1]->getIndex() : Limit;
    std::vector<std::string> Original;
    // ParseArgs skips empty words between arguments, but an empty word can
    // also be an option's separate value (`-D ""`): keep those, or the
    // option would take the next argument as its value (found by
    // test/fuzz/DriverInputFuzzer.cpp).
    llvm::SmallVector<const char *, 2> Values(List[I]->getValues().begin(),
                                               List[I]->getValues().end());
    for (unsigned J = Begin; J < End && J < Words.size(); ++J)
      if (!Words[J].empty() || llvm::is_contained(Values, Argv[J]))
        Original.push_back(Words[J]);
    F(*List[I], Args, Original);
  }
}

//===----------------------------------------------------------------------===//
// GPU architectures
//===----------------------------------------------------------------------===//

bool clangKnowsArch(llvm::StringRef Name) {
  clang::OffloadArch A = clang::StringToOffloadArch(Name);
  return A != clang::OffloadArch::UNKNOWN && clang::IsNVIDIAOffloadArch(A);
}

/// Sort key: sm_90 < sm_90a < sm_100.
std::pair<unsigned, std::string> archKey(llvm::StringRef Arch) {
  llvm::StringRef Rest = Arch;
  Rest.consume_front("sm_");
  size_t Digits = 0;
  while (Digits < Rest.size() && llvm::isDigit(Rest[Digits]))
    ++Digits;
  unsigned N = 0;
  Rest.take_front(Digits).getAsInteger(10, N);
  return {N, Rest.drop_front(Digits).str()};
}

struct GencodeSpec {
  std::string Arch;
  std::vector<std::string> Codes;
};

llvm::StringRef stripGroup(llvm::StringRef S) {
  S = S.trim();
  if (S.size() >= 2 && ((S.front() == '[' && S.back() == ']') ||
                        (S.front() == '"' && S.back() == '"') ||
                        (S.front() == '\'' && S.back() == '\'')))
    S = S.drop_front().drop_back();
  return S.trim();
}

/// "arch=compute_80,code=[compute_80,sm_80]", "arch=compute_70,code=sm_70",
/// "arch=compute_52,code=\"sm_52,compute_52\"", several specs in one value.
std::vector<GencodeSpec> parseGencode(llvm::StringRef V) {
  std::vector<std::string> Items(1);
  int Depth = 0;
  bool InQuote = false;
  for (char C : V) {
    if (C == '"')
      InQuote = !InQuote;
    else if (C == '[')
      ++Depth;
    else if (C == ']' && Depth > 0)
      --Depth;
    if (C == ',' && Depth == 0 && !InQuote)
      Items.emplace_back();
    else
      Items.back() += C;
  }
  std::vector<GencodeSpec> Specs;
  auto AddCodes = [&](llvm::StringRef List) {
    if (Specs.empty())
      Specs.emplace_back();
    for (llvm::StringRef C : llvm::split(stripGroup(List), ','))
      if (!C.trim().empty())
        Specs.back().Codes.push_back(C.trim().str());
  };
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    if (Item.consume_front("arch=")) {
      Specs.emplace_back();
      Specs.back().Arch = stripGroup(Item).str();
    } else if (Item.consume_front("code=")) {
      AddCodes(Item);
    } else if (!Item.empty()) {
      AddCodes(Item);
    }
  }
  return Specs;
}

//===----------------------------------------------------------------------===//
// The translation
//===----------------------------------------------------------------------===//

class Translator {
public:
  Translator(llvm::StringRef Directory, TranslatedCommand &R)
      : Directory(Directory), R(R) {}

  void translateNvcc(llvm::ArrayRef<std::string> Words);
  void translateOther(llvm::ArrayRef<std::string> Words);

private:
  void handle(const NvccOption &O, llvm::StringRef Spelled,
              llvm::ArrayRef<std::string> Values);
  void addHostFlags(llvm::ArrayRef<std::string> Flags, llvm::StringRef Origin);
  void addArch(llvm::StringRef NvccArch, llvm::StringRef From);
  void finishArchs();
  void finishInput();

  llvm::StringRef Directory;
  TranslatedCommand &R;
  bool ForwardUnknown = false;
  std::string Language;
  std::vector<std::string> Positionals;
  // Architectures as written, in order: (name, the flag that gave it).
  std::vector<std::pair<std::string, std::string>> ArchRequests;
  std::string LastArch, LastArchFlag;
  std::vector<std::string> Codes;
  std::string CodeFlag;
  bool WantDefaultArch = false;
};

void Translator::translateNvcc(llvm::ArrayRef<std::string> Words) {
  // nvcc applies -forward-unknown-to-host-compiler wherever it stands.
  for (const std::string &W : Words) {
    llvm::StringRef Name = W;
    if (Name.consume_front("-")) {
      Name.consume_front("-");
      if (const NvccOption *O = findNvccOption(Name))
        if (O->Act == Action::ForwardUnknown)
          ForwardUnknown = true;
    }
  }

  for (size_t I = 0; I < Words.size(); ++I) {
    llvm::StringRef Tok = Words[I];
    if (Tok.empty())
      continue;
    if (Tok.size() < 2 || Tok.front() != '-') {
      Positionals.push_back(Tok.str());
      continue;
    }
    bool DoubleDash = Tok.starts_with("--");
    llvm::StringRef Body = Tok.drop_front(DoubleDash ? 2 : 1);

    const NvccOption *O = findNvccOption(Body);
    std::optional<std::string> Value;
    std::string Spelled = Tok.str();
    if (O) {
      if (O->Kind != Arity::None) {
        if (I + 1 >= Words.size()) {
          R.Errors.push_back("option '" + Tok.str() + "' has no value");
          break;
        }
        Value = Words[++I];
        Spelled += " " + *Value;
      }
    } else if (Body.contains('=')) {
      auto [Name, V] = Body.split('=');
      O = findNvccOption(Name);
      if (O && O->Kind != Arity::None)
        Value = V.str();
      else
        O = nullptr;
    }
    if (!O && !DoubleDash && Body.size() > 1 && takesJoinedValue(Body[0])) {
      O = findNvccOption(Body.take_front(1));
      llvm::StringRef V = Body.drop_front(1);
      V.consume_front("=");
      Value = V.str();
    }

    if (!O) {
      if (Body.starts_with("Xarch")) {
        // Not nvcc's; clang's -Xarch_<arch> <arg> takes one argument.
        if (I + 1 < Words.size())
          Spelled += " " + Words[++I];
        R.Dropped.push_back("dropped flag '" + Spelled +
                            "': not an nvcc flag, and not one for clang's "
                            "command line as it stands");
        continue;
      }
      if (ForwardUnknown) {
        addHostFlags({Tok.str()}, "forwarded to the host compiler");
        continue;
      }
      R.Warnings.push_back("unknown nvcc flag '" + Tok.str() + "' dropped");
      continue;
    }

    std::vector<std::string> Values;
    if (Value) {
      if (O->Kind == Arity::List)
        Values = splitNvccList(*Value);
      else
        Values.push_back(*Value);
    }
    handle(*O, Spelled, Values);
  }
  finishArchs();
  finishInput();
}

void Translator::handle(const NvccOption &O, llvm::StringRef Spelled,
                        llvm::ArrayRef<std::string> Values) {
  auto Note = [&](llvm::StringRef Why) {
    R.Dropped.push_back(("dropped " + Why + " '" + Spelled + "'").str());
  };
  switch (O.Act) {
  case Action::Include:
    for (const std::string &V : Values)
      R.Args.push_back("-I" + V);
    return;
  case Action::SystemInclude:
    for (const std::string &V : Values) {
      R.Args.push_back("-isystem");
      R.Args.push_back(V);
    }
    return;
  case Action::Define:
    for (const std::string &V : Values)
      R.Args.push_back("-D" + V);
    return;
  case Action::Undefine:
    for (const std::string &V : Values)
      R.Args.push_back("-U" + V);
    return;
  case Action::PreInclude:
    for (const std::string &V : Values) {
      R.Args.push_back("-include");
      R.Args.push_back(V);
    }
    return;
  case Action::Std:
    R.Args.push_back("-std=" + Values[0]);
    return;
  case Action::Optimize:
    R.Args.push_back("-O" + Values[0]);
    return;
  case Action::Debug:
    R.Args.push_back("-g");
    return;
  case Action::Language: {
    llvm::StringRef L = Values[0];
    if (L == "cu" || L == "cuda") {
      Language = "cuda";
    } else if (L == "c++" || L == "c") {
      Language = L.str();
    } else {
      R.Warnings.push_back("unknown nvcc input language in '" + Spelled.str() +
                           "'; dropped");
      return;
    }
    R.Args.push_back("-x");
    R.Args.push_back(Language);
    return;
  }
  case Action::Arch:
    LastArch = Values[0];
    LastArchFlag = Spelled.str();
    return;
  case Action::Code:
    Codes.insert(Codes.end(), Values.begin(), Values.end());
    CodeFlag = Spelled.str();
    return;
  case Action::Gencode:
    for (const GencodeSpec &S : parseGencode(Values[0])) {
      if (!S.Arch.empty()) {
        ArchRequests.emplace_back(S.Arch, Spelled.str());
      } else {
        for (const std::string &C : S.Codes)
          ArchRequests.emplace_back(C, Spelled.str());
      }
    }
    return;
  case Action::HostFlags: {
    std::vector<std::string> Flags;
    for (const std::string &V : Values)
      for (llvm::StringRef W : llvm::split(V, ' '))
        if (!W.trim().empty())
          Flags.push_back(W.trim().str());
    // "from -Xcompiler", without the (often long) value.
    addHostFlags(Flags,
                 "from " + Spelled.split('=').first.split(' ').first.str());
    return;
  }
  case Action::OptionsFile: // Expanded already.
    return;
  case Action::Output:
    R.OutputFile = Values[0];
    return;
  case Action::Compile:
    return;
  case Action::DepFile:
    Note("dependency-file flag");
    return;
  case Action::DefaultStream:
    if (Values[0] == "per-thread") {
      R.Args.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      R.Dropped.push_back("mapped '" + Spelled.str() +
                          "' to -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1, as "
                          "nvcc does");
    } else {
      Note("nvcc-only flag");
    }
    return;
  case Action::NoExceptions:
    R.Args.push_back("-fno-exceptions");
    return;
  case Action::TemplateDepth:
    R.Args.push_back("-ftemplate-depth=" + Values[0]);
    return;
  case Action::TemplateBacktraceLimit:
    R.Args.push_back("-ftemplate-backtrace-limit=" + Values[0]);
    return;
  case Action::DisableWarnings:
    R.Args.push_back("-w");
    return;
  case Action::KeepWarningFlag:
    R.Args.push_back(("-" + llvm::StringRef(O.Short)).str());
    return;
  case Action::ForwardUnknown:
    Note("nvcc-only flag");
    return;
  case Action::Drop:
    Note("nvcc-only flag");
    return;
  }
}

void Translator::addHostFlags(llvm::ArrayRef<std::string> Flags,
                              llvm::StringRef Origin) {
  if (Flags.empty())
    return;
  unsigned MissingIndex = 0, MissingCount = 0;
  forEachClangArg(
      Flags, MissingIndex, MissingCount,
      [&](const llvm::opt::Arg &A, const llvm::opt::ArgList &,
          llvm::ArrayRef<std::string> Original) {
        std::string Spelled = llvm::join(Original, " ");
        std::string Why = whyDrop(A, Spelled, /*HostOnly=*/true);
        if (!Why.empty()) {
          R.Dropped.push_back("dropped host-compiler flag '" + Spelled + "' (" +
                              Origin.str() + "): " + Why);
          return;
        }
        R.Args.insert(R.Args.end(), Original.begin(), Original.end());
      });
  if (MissingCount)
    R.Dropped.push_back("dropped host-compiler flag '" + Flags[MissingIndex] +
                        "' (" + Origin.str() + "): its value is missing");
}

void Translator::addArch(llvm::StringRef NvccArch, llvm::StringRef From) {
  if (NvccArch == "native" || NvccArch == "all" || NvccArch == "all-major") {
    WantDefaultArch = true;
    R.Dropped.push_back(("'" + From + "': the analysis assumes " +
                         DefaultCudaArch + " for -arch=" + NvccArch)
                            .str());
    return;
  }
  std::string Clang = clangCudaArch(NvccArch);
  if (Clang.empty()) {
    R.Warnings.push_back(("GPU architecture '" + NvccArch + "' in '" + From +
                          "' is unknown to clang; ignored")
                             .str());
    WantDefaultArch = true;
    return;
  }
  if (!llvm::is_contained(R.CudaArchs, Clang))
    R.CudaArchs.push_back(Clang);
  if (From != "--cuda-gpu-arch=" + Clang)
    R.Dropped.push_back(
        ("mapped '" + From + "' to --cuda-gpu-arch=" + Clang).str());
}

void Translator::finishArchs() {
  for (const auto &[Arch, Flag] : ArchRequests)
    addArch(Arch, Flag);
  if (!LastArch.empty()) {
    addArch(LastArch, LastArchFlag);
  } else if (!Codes.empty()) {
    // nvcc insists on -arch here; be lenient and use the codes.
    for (const std::string &C : Codes)
      addArch(C, CodeFlag);
  }
  if (R.CudaArchs.empty() && WantDefaultArch)
    R.CudaArchs.push_back(DefaultCudaArch);
  llvm::sort(R.CudaArchs, [](const std::string &A, const std::string &B) {
    return archKey(A) < archKey(B);
  });
  for (const std::string &A : R.CudaArchs)
    R.Args.push_back("--cuda-gpu-arch=" + A);
}

void Translator::finishInput() {
  auto Src = llvm::find_if(Positionals, isSourceFile);
  if (Src == Positionals.end())
    Src = Positionals.begin();
  for (auto It = Positionals.begin(); It != Positionals.end(); ++It)
    if (It != Src)
      R.Warnings.push_back("ignored argument '" + *It +
                           "' (not the source file, nor the value of a "
                           "known flag)");
  if (Src != Positionals.end()) {
    llvm::SmallString<256> Path(resolvePath(*Src, Directory));
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    R.InputFile = std::string(Path);
  }
  if (Language.empty())
    R.IsCuda = llvm::sys::path::extension(R.InputFile) == ".cu";
  else
    R.IsCuda = Language == "cuda";
}

void Translator::translateOther(llvm::ArrayRef<std::string> Words) {
  unsigned MissingIndex = 0, MissingCount = 0;
  forEachClangArg(
      Words, MissingIndex, MissingCount,
      [&](const llvm::opt::Arg &A, const llvm::opt::ArgList &,
          llvm::ArrayRef<std::string> Original) {
        std::string Spelled = llvm::join(Original, " ");
        switch (A.getOption().getID()) {
        case copt::OPT_INPUT:
          Positionals.push_back(A.getValue());
          return;
        case copt::OPT_c:
          return;
        case copt::OPT_o:
          R.OutputFile = A.getValue();
          return;
        case copt::OPT_cuda_gpu_arch_EQ:
        case copt::OPT_offload_arch_EQ:
          for (const char *V : A.getValues())
            for (const std::string &Arch : splitNvccList(V))
              ArchRequests.emplace_back(Arch, Spelled);
          return;
        case copt::OPT_S:
        case copt::OPT_E:
          R.Dropped.push_back("dropped flag '" + Spelled +
                              "': the analysis needs a compile");
          return;
        case copt::OPT_x:
          Language = A.getValue();
          break;
        default:
          break;
        }
        std::string Why = whyDrop(A, Spelled, /*HostOnly=*/false);
        if (!Why.empty()) {
          R.Dropped.push_back("dropped flag '" + Spelled + "': " + Why);
          return;
        }
        R.Args.insert(R.Args.end(), Original.begin(), Original.end());
      });
  if (MissingCount)
    R.Errors.push_back("option '" + Words[MissingIndex] + "' has no value");
  finishArchs();
  finishInput();
}

} // namespace

bool isNvccCompiler(llvm::StringRef Argv0) {
  std::string B = baseName(Argv0).lower();
  return B == "nvcc" || B == "nvcc.exe";
}

std::vector<std::string>
withoutLanguageAndArch(const std::vector<std::string> &Args) {
  // By option, not by spelling: `-D --cuda-gpu-arch=x` is a macro, and
  // dropping its value would leave -D to swallow the next argument (found by
  // test/fuzz/DriverInputFuzzer.cpp).
  std::vector<std::string> Out;
  unsigned MissingIndex = 0, MissingCount = 0;
  forEachClangArg(Args, MissingIndex, MissingCount,
                  [&](const llvm::opt::Arg &A, const llvm::opt::ArgList &,
                      llvm::ArrayRef<std::string> Original) {
                    if (A.getOption().matches(copt::OPT_x) ||
                        A.getOption().matches(copt::OPT_offload_arch_EQ))
                      return;
                    Out.insert(Out.end(), Original.begin(), Original.end());
                  });
  return Out;
}

TranslatedCommand takeCudaArchFlags(std::vector<std::string> &Args) {
  // Walked with clang's option table, so that a macro's value
  // (`-D X=--cuda-gpu-arch=sm_90`) is never read as a flag.
  std::vector<std::string> ClangWords = {"clang"}, NvccWords = {"nvcc"}, Rest;
  bool NvccValueNext = false;
  unsigned MissingIndex = 0, MissingCount = 0;
  forEachClangArg(
      Args, MissingIndex, MissingCount,
      [&](const llvm::opt::Arg &A, const llvm::opt::ArgList &,
          llvm::ArrayRef<std::string> Original) {
        if (NvccValueNext) {
          // `-gencode arch=...`: clang knows no -gencode and reads its value
          // as an argument of its own.
          NvccValueNext = false;
          NvccWords.insert(NvccWords.end(), Original.begin(), Original.end());
          return;
        }
        if (A.getOption().matches(copt::OPT_offload_arch_EQ)) {
          ClangWords.insert(ClangWords.end(), Original.begin(), Original.end());
          return;
        }
        // nvcc's spellings (-arch=sm_90a, -gencode ..., --generate-code=...),
        // which clang either does not know or knows as something else
        // (-arch is Darwin's).
        llvm::StringRef Body;
        if (!Original.empty())
          Body = Original.front();
        if (Body.consume_front("-")) {
          Body.consume_front("-");
          auto [Name, Value] = Body.split('=');
          const NvccOption *O = findNvccOption(Name);
          if (O && (O->Act == Action::Arch || O->Act == Action::Code ||
                    O->Act == Action::Gencode)) {
            NvccWords.insert(NvccWords.end(), Original.begin(),
                             Original.end());
            NvccValueNext = !Body.contains('=') && Original.size() == 1;
            return;
          }
        }
        Rest.insert(Rest.end(), Original.begin(), Original.end());
      });
  if (MissingCount)
    Rest.insert(Rest.end(), Args.begin() + MissingIndex, Args.end());

  TranslatedCommand R;
  for (const auto &Words : {ClangWords, NvccWords}) {
    if (Words.size() == 1)
      continue;
    TranslatedCommand T = translateCompileCommand(Words, ".");
    R.Warnings.insert(R.Warnings.end(), T.Warnings.begin(), T.Warnings.end());
    R.Errors.insert(R.Errors.end(), T.Errors.begin(), T.Errors.end());
    R.Dropped.insert(R.Dropped.end(), T.Dropped.begin(), T.Dropped.end());
    for (const std::string &A : T.CudaArchs)
      if (!llvm::is_contained(R.CudaArchs, A))
        R.CudaArchs.push_back(A);
  }
  llvm::sort(R.CudaArchs, [](const std::string &A, const std::string &B) {
    return archKey(A) < archKey(B);
  });
  Args = std::move(Rest);
  return R;
}

std::vector<std::string> tokenizeNvccOptionsFile(llvm::StringRef Text) {
  std::vector<std::string> Out;
  std::string Cur;
  bool InWord = false, InQuote = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size()) {
      char Next = Text[++I];
      if (Next == '\n')
        continue; // A line continuation.
      if (Next == '\r' && I + 1 < Text.size() && Text[I + 1] == '\n') {
        ++I;
        continue;
      }
      Cur += Next;
      InWord = true;
      continue;
    }
    if (C == '"') {
      InQuote = !InQuote;
      InWord = true;
      continue;
    }
    if (!InQuote && llvm::isSpace(C)) {
      if (InWord)
        Out.push_back(std::move(Cur));
      Cur.clear();
      InWord = false;
      continue;
    }
    Cur += C;
    InWord = true;
  }
  if (InWord)
    Out.push_back(std::move(Cur));
  return Out;
}

std::string clangCudaArch(llvm::StringRef NvccArch) {
  llvm::StringRef A = NvccArch.trim();
  if (!A.consume_front("sm_") && !A.consume_front("compute_") &&
      !A.consume_front("lto_"))
    return "";
  size_t Digits = 0;
  while (Digits < A.size() && llvm::isDigit(A[Digits]))
    ++Digits;
  if (Digits == 0)
    return "";
  std::string Base = ("sm_" + A.take_front(Digits)).str();
  std::string Full = Base + A.drop_front(Digits).str();
  if (clangKnowsArch(Full))
    return Full;
  // Family- and architecture-specific variants (sm_100f, sm_89a) that clang
  // does not know compile as their base architecture.
  if (Full != Base && clangKnowsArch(Base))
    return Base;
  return "";
}

TranslatedCommand
translateCompileCommand(llvm::ArrayRef<std::string> CommandLine,
                        llvm::StringRef Directory) {
  TranslatedCommand R;
  if (CommandLine.empty()) {
    R.Errors.push_back("empty command line");
    return R;
  }
  if (isLauncher(CommandLine.front()) && CommandLine.size() > 1) {
    R.Dropped.push_back("skipped compiler launcher '" + CommandLine.front() +
                        "'");
    CommandLine = CommandLine.drop_front();
  }
  R.IsNvcc = isNvccCompiler(CommandLine.front());

  std::vector<std::string> Words;
  Expander(Directory, R.IsNvcc, R).expand(CommandLine.drop_front(), Words, 0);

  Translator T(Directory, R);
  if (R.IsNvcc)
    T.translateNvcc(Words);
  else
    T.translateOther(Words);
  return R;
}

std::vector<std::string>
nvccFlagsFromClang(llvm::ArrayRef<std::string> ClangArgs,
                   llvm::StringRef Directory) {
  auto Absolute = [&](llvm::StringRef Path) {
    llvm::SmallString<256> P(Path);
    if (!P.empty() && !llvm::sys::path::is_absolute(P)) {
      P = Directory;
      llvm::sys::path::append(P, Path);
    }
    return P.str().str();
  };
  // nvcc splits the values of -I, -D, -include (and their kin) at commas;
  // "\," keeps one, as translateCompileCommand() reads them.
  auto Escaped = [](llvm::StringRef V) {
    std::string Out;
    for (char C : V) {
      if (C == ',')
        Out += '\\';
      Out += C;
    }
    return Out;
  };
  std::vector<std::string> Out;
  unsigned MissingIndex = 0, MissingCount = 0;
  // By option, as withoutLanguageAndArch(): a macro's value that looks
  // like a flag stays the macro's.
  forEachClangArg(
      ClangArgs, MissingIndex, MissingCount,
      [&](const llvm::opt::Arg &A, const llvm::opt::ArgList &,
          llvm::ArrayRef<std::string>) {
        if (A.getNumValues() != 1)
          return;
        llvm::StringRef V = A.getValue();
        switch (A.getOption().getID()) {
        case copt::OPT_I:
        case copt::OPT_iquote: // nvcc has no quote-only include path.
          Out.push_back("-I" + Escaped(Absolute(V)));
          return;
        case copt::OPT_isystem:
        case copt::OPT_idirafter:
          Out.push_back("-isystem");
          Out.push_back(Escaped(Absolute(V)));
          return;
        case copt::OPT_D:
          Out.push_back("-D" + Escaped(V));
          return;
        case copt::OPT_U:
          Out.push_back("-U" + Escaped(V));
          return;
        case copt::OPT_include: {
          // Found relative to the working directory first, as a compiler
          // looks for it; nvcc runs elsewhere.
          std::string Abs = Absolute(V);
          Out.push_back("-include");
          Out.push_back(Escaped(llvm::sys::fs::exists(Abs) ? Abs : V.str()));
          return;
        }
        case copt::OPT_std_EQ: {
          // nvcc takes c++03 to c++20; GNU dialects and other spellings as
          // their standard, later ones left to nvcc's default.
          llvm::StringRef Std = V;
          if (!Std.consume_front("gnu++"))
            Std.consume_front("c++");
          std::string Year = llvm::StringSwitch<std::string>(Std)
                                 .Cases({"98", "03"}, "03")
                                 .Cases({"11", "0x"}, "11")
                                 .Cases({"14", "1y"}, "14")
                                 .Cases({"17", "1z"}, "17")
                                 .Cases({"20", "2a"}, "20")
                                 .Default("");
          if (!Year.empty())
            Out.push_back("-std=c++" + Year);
          return;
        }
        default:
          return;
        }
      });
  return Out;
}

} // namespace shmem
