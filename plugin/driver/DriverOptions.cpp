//===- DriverOptions.cpp - The shmem-lint command line --------------------===//

#include "DriverOptions.h"

#include "Explain.h"
#include "NvccCommand.h"
#include "OutputFormats.h"
#include "Server.h"
#include "Subprocess.h"
#include "TidyConfig.h"

#include "Analysis/CheckOptions.h"
#include "Analysis/NoLint.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VersionTuple.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <set>
#include <tuple>

#ifndef SHMEM_LINT_CLANG_PATH
#error "SHMEM_LINT_CLANG_PATH must name the clang the tool was built against"
#endif
#ifndef SHMEM_LINT_RESOURCE_DIR
#error "SHMEM_LINT_RESOURCE_DIR must name that clang's resource directory"
#endif
#ifndef SHMEM_LINT_VERSION
#define SHMEM_LINT_VERSION "0.0.0"
#endif

namespace shmem {

static const char *const Usage = R"(USAGE: shmem-lint [options] FILE|DIR... [-- COMPILER-ARGS...]
       shmem-lint -p BUILD-DIR [options] [FILE|DIR...]
       shmem-lint explain --shape 32x32 --type float --index 'tile[lane][5]'
       shmem-lint explain --modulus 32 --step 8
       shmem-lint lsp [--help]   (a language server for editors)

Finds CUDA shared-memory bank conflicts, divergent barriers, races,
uncoalesced global transfers around shared tiles and tile layout mismatches.

WHAT TO ANALYSE:
  -p DIR                  read compile_commands.json from DIR (nvcc or clang
                          commands); without FILEs, every CUDA file in it
  FILE, DIR               these files (with -p: their commands from the
                          database; a header gets the flags of the nearest
                          file in it); a DIR stands for the .cu files under it
  --files-regex=RE        only files whose absolute path matches RE
  --diff=REV              only files changed against the git revision REV
                          (`git diff --name-only REV` in the working directory)
  --vfsoverlay=FILE       lay this clang VFS overlay (YAML) over the files, as
                          clang-tidy does (an editor's unsaved text)
  -j N, --jobs=N          analyse N files at once (default: one per core)

CHECKS AND OPTIONS (override the nearest .clang-tidy's Checks and CheckOptions):
  --checks=GLOBS          checks to run, e.g. 'shmem-*,-shmem-race'
                          (default: shmem-*)
  --warnings-as-errors=GLOBS  findings of these checks are errors, e.g.
                          'shmem-*,-shmem-bank-conflict' (default: the
                          .clang-tidy's WarningsAsErrors, else none); exit
                          status 1 even with --exit-zero
  --block-dim=SHAPE       block shape when the source states none (256, 32x8)
  --warp-size=32          lanes per warp (32 only: CUDA's)
)";
// Here the checks' own options, from CheckOptions.def (checkOptionsUsage).
static const char *const UsageAfterCheckOptions =
    R"(  --config-file=FILE      read this .clang-tidy file instead of searching
  --no-config             read no .clang-tidy file

CUDA:
  --cuda-path=auto|none|DIR  CUDA headers: a toolkit, or shmem-lint's own
                          (default auto: /usr/local/cuda or $CUDA_PATH if present)
  --cuda-gpu-arch=sm_XX   architecture the device code is analysed for (default:
                          the lowest one the flags after -- name, else the
                          lowest the build compiles for, else sm_80)
  --sass                  also compile each file with nvcc for that
                          architecture (-lineinfo) and note at each bank
                          conflict the shared-memory instructions nvcc emits
                          on its line (SASS where nvdisasm is beside nvcc,
                          else PTX), flagging a width other than the
                          prediction's; without nvcc, a warning
  --nvcc=PATH             the nvcc of --sass (default: the toolkit's of
                          --cuda-path, else nvcc on the PATH, else
                          /usr/local/cuda/bin/nvcc)
  --ncu-report=FILE       note at each bank conflict the shared-memory
                          wavefronts Nsight Compute measured on its line;
                          FILE is the source page as CSV (ncu --import
                          R.ncu-rep --page source --csv --print-source
                          cuda,sass) or, with ncu on the PATH, R.ncu-rep

OUTPUT:
  --format=FMT            text (default), sarif, github, gitlab, json, html
  -o FILE                 write the report to FILE
  --export-fixes=FILE     write fix-its as clang-tidy YAML
  --baseline=FILE         report only findings not in FILE (an earlier
                          --format=json or sarif report): legacy code's known
                          findings stay accepted, new ones are reported
  --write-baseline=FILE   write every finding of this run as a baseline
  --export-compile-commands=FILE  write the clang commands shmem-lint would
                          run (nvcc flags translated) as a compile database
                          for clang-tidy, clangd and editors; analyse nothing
  --color / --no-color    colours in text output (default: on a terminal)
  --progress / --no-progress  a progress line on stderr (default: on a terminal)
  --exit-zero             exit 0 when the only problem is findings that
                          are warnings (not --warnings-as-errors ones)
  --verbose               explain setup, print lane->bank maps and statistics
  --stats                 also print statistics on stderr (the report goes
                          where it goes): files analysed and not, kernels,
                          shared accesses, findings by check, parts not
                          analysed
  --print-tidy-plugin     print the path of the clang-tidy module
  --print-clang-plugin    print the path of the clang plugin
  --print-cuda-flags      print the clang flags that use shmem-lint's CUDA header
  --list-checks           print the checks
  --list-check-options    print the checks' options: the check, the
                          clang-tidy name, the flag, the default, the help
  --version, --help

A compile command after `--` whose first word is not an option (`-- nvcc -I inc
-c k.cu -o k.o`) is translated like a compile database entry.

Exit status: 0 clean (or nothing to analyse after --diff/--files-regex),
1 findings (or some files not analysed; with --exit-zero only findings that
are errors), 2 usage or input errors (or no file could be analysed).
)";

/// The --help lines of the checks' own options: the flag, its help and the
/// default, wrapped as the rest of the usage text.
static std::string checkOptionsUsage() {
  const AnalysisOptions Defaults;
  std::string Text;
  for (const CheckOption &Opt : checkOptions()) {
    std::string Line = ("  --" + Opt.Key + "=" + Opt.metavar()).str();
    Line.append(Line.size() < 24 ? 26 - Line.size() : 2, ' ');
    size_t Start = Line.size();
    llvm::SmallVector<llvm::StringRef, 16> Words;
    std::string Help = (Opt.Help + " (" + Opt.text(Defaults) + ")").str();
    llvm::StringRef(Help).split(Words, ' ');
    for (llvm::StringRef W : Words) {
      if (Line.size() > Start && Line.size() + 1 + W.size() > 79) {
        Text += Line + "\n";
        Line.assign(26, ' ');
        Start = Line.size();
      }
      if (Line.size() > Start)
        Line += ' ';
      Line += W.str();
    }
    Text += Line + "\n";
  }
  return Text;
}

/// The long options --help shows, for "did you mean": the help is the
/// list of options a user sees, so a suggestion is always one it shows.
static std::vector<std::string> helpOptionNames() {
  std::string Text =
      std::string(Usage) + checkOptionsUsage() + UsageAfterCheckOptions;
  std::set<std::string> Names;
  // Only the option column ("  -j N, --jobs=N   analyse ..."): the
  // descriptions mention other tools' flags (git's --name-only).
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front("  ") || !Line.starts_with("-"))
      continue;
    llvm::StringRef Column = Line.substr(0, Line.find("  "));
    for (size_t P = Column.find("--"); P != llvm::StringRef::npos;
         P = Column.find("--", P + 2)) {
      size_t E = P + 2;
      while (E < Column.size() &&
             (llvm::isAlnum(Column[E]) || Column[E] == '-'))
        ++E;
      if (E > P + 2 && llvm::isAlpha(Column[P + 2]))
        Names.insert(Column.substr(P, E - P).str());
    }
  }
  return {Names.begin(), Names.end()};
}

/// "unknown option '--chekcs=x'; did you mean '--checks'?"
static std::string unknownOptionMessage(llvm::StringRef A) {
  std::string M = "unknown option '" + A.str() + "'";
  llvm::StringRef Name = A.split('=').first;
  std::vector<std::string> Known = helpOptionNames();
  std::vector<llvm::StringRef> Refs(Known.begin(), Known.end());
  if (std::optional<llvm::StringRef> S = nearestName(Name, Refs))
    M += "; did you mean '" + S->str() + "'?";
  return M;
}

ToolLayout ToolLayout::find(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, (void *)&Anchor);
  llvm::SmallString<256> Prefix(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(Exe)));
  ToolLayout L;
  L.Prefix = Prefix.str().str();
  auto Join = [&](std::initializer_list<const char *> Parts) {
    llvm::SmallString<256> P(Prefix);
    for (const char *Part : Parts)
      llvm::sys::path::append(P, Part);
    return P.str().str();
  };
  L.TidyPlugin = Join({"lib", "shmem-lint", "shmem-lint-tidy.so"});
  L.ClangPlugin = Join({"lib", "shmem-lint", "shmem-lint-clang.so"});
  L.CudaHeaders = Join({"share", "shmem-lint", "cuda"});
  return L;
}

// Usually a binary copied out of its tree (or a tree copied without share/):
// say so, as "reinstall" alone does not tell how the files are found.
std::string ToolLayout::missingHeader(llvm::StringRef Path) const {
  return ("shmem-lint's CUDA header is missing: no '" + Path +
          "' (the driver looks in share/shmem-lint/cuda under '" + Prefix +
          "', the directory above its bin/); install shmem-lint with "
          "'cmake --install BUILD --prefix DIR' or its package, and copy or "
          "move an installed tree whole (bin/, lib/ and share/ together)")
      .str();
}

static std::string findToolkit(llvm::StringRef Setting) {
  auto HasHeaders = [](const std::string &Dir) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, "include", "cuda_runtime.h");
    return llvm::sys::fs::exists(P);
  };
  if (Setting == "none")
    return "";
  if (Setting != "auto" && !Setting.empty())
    return Setting.str();
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (auto V = llvm::sys::Process::GetEnv(Var))
      if (HasHeaders(*V))
        return *V;
  if (HasHeaders("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

/// The directory of GCC's own headers (omp.h, quadmath.h), the newest
/// installed, if any. nvcc compiles host code with GCC, which always finds
/// them; clang looks in its own resource directory instead, so
/// `#include <omp.h>` (llm.c's matmul files, Rodinia's kmeans) nvcc accepts
/// fails to parse. Searched after every other directory (-idirafter), so
/// clang's own headers of the same names still win.
static std::string gccHeaderDir() {
  std::string Best;
  llvm::VersionTuple BestVersion;
  for (const char *Root : {"/usr/lib/gcc", "/usr/lib64/gcc"}) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator T(Root, EC), End; !EC && T != End;
         T.increment(EC)) {
      std::error_code EC2;
      for (llvm::sys::fs::directory_iterator V(T->path(), EC2);
           !EC2 && V != End; V.increment(EC2)) {
        llvm::VersionTuple Version;
        if (Version.tryParse(llvm::sys::path::filename(V->path())))
          continue;
        llvm::SmallString<256> Dir(V->path());
        llvm::sys::path::append(Dir, "include");
        llvm::SmallString<256> Omp(Dir);
        llvm::sys::path::append(Omp, "omp.h");
        if (llvm::sys::fs::exists(Omp) && (Best.empty() || Version > BestVersion)) {
          Best = Dir.str().str();
          BestVersion = Version;
        }
      }
    }
  }
  return Best;
}

/// Flags that make clang parse CUDA with our header instead of a toolkit.
static std::vector<std::string> ownHeaderFlags(const ToolLayout &L) {
  return {"-nocudainc", "-nocudalib", "-isystem", L.CudaHeaders, "-include",
          "shmem_lint_cuda.h"};
}

static bool isCudaSource(llvm::StringRef File) {
  return File.ends_with(".cu") || File.ends_with(".cuh");
}

/// \p Path made absolute against \p Base and without . and .. components.
static std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    P = Base;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

/// The name two spellings of one file share: its real path when it exists.
static std::string fileKey(llvm::StringRef AbsPath) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(AbsPath, Real))
    return Real.str().str();
  return AbsPath.str();
}

/// Runs git with \p Args in \p Dir; its stdout in \p Output, or false with
/// its stderr (or why it could not run) in \p Error.
static bool runGit(llvm::StringRef Dir, llvm::ArrayRef<std::string> Args,
                   std::string &Output, std::string &Error) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git) {
    Error = "git is not on the PATH";
    return false;
  }
  std::vector<std::string> Argv = {"-C", Dir.str()};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  ProgramRun Run = runProgram(*Git, Argv);
  Output = std::move(Run.Stdout);
  if (!Run.succeeded()) {
    Error = !Run.Error.empty() ? Run.Error
                               : llvm::StringRef(Run.Stderr).trim().str();
    if (Error.empty())
      Error = "git exited with status " + std::to_string(Run.ExitCode);
    return false;
  }
  return true;
}

/// The files that differ between the git revision \p Base and the working
/// tree of the repository holding \p Dir, absolute; deleted files left out.
static bool changedFiles(llvm::StringRef Dir, const std::string &Base,
                         std::vector<std::string> &Out, std::string &Error) {
  std::string Top;
  if (!runGit(Dir, {"rev-parse", "--show-toplevel"}, Top, Error))
    return false;
  Top = llvm::StringRef(Top).trim().str();
  std::string List;
  if (!runGit(Dir,
              {"diff", "--name-only", "-z", "--diff-filter=d", "--no-renames",
               Base, "--"},
              List, Error))
    return false;
  llvm::SmallVector<llvm::StringRef, 32> Names;
  llvm::StringRef(List).split(Names, '\0', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef N : Names)
    Out.push_back(absolutePath(N, Top));
  return true;
}

/// The .cu files under \p Dir, sorted; hidden directories are skipped.
static std::vector<std::string> cudaFilesUnder(llvm::StringRef Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (Name.starts_with("."))
        It.no_push();
      continue;
    }
    if (Name.ends_with(".cu"))
      Out.push_back(It->path());
  }
  llvm::sort(Out);
  return Out;
}

/// Why the directory \p Dir (as named: \p Named) gave nothing to analyse:
/// one line that says what to do, headers named if it holds some.
static std::string noCudaFilesMessage(llvm::StringRef Named,
                                      llvm::StringRef Dir) {
  unsigned Headers = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".cuh"))
      ++Headers;
  std::string M = "no .cu files under '" + Named.str() + "'";
  if (Headers)
    M += "; its " + std::to_string(Headers) +
         " .cuh header(s) are analysed when named (shmem-lint " +
         Named.str() + "/*.cuh) or included from a .cu file";
  return M;
}

/// Why the compile database in \p Dir cannot be read, in one line that names
/// the file, the entry and what to do; empty when clang's reader should
/// say (a compile_flags.txt, a database this check finds nothing wrong in).
static std::string compileDatabaseProblem(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "compile_commands.json");
  const std::string Regenerate =
      "write it with 'cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON' (or bear or "
      "compiledb for make builds)";
  if (!llvm::sys::fs::exists(Path)) {
    llvm::SmallString<256> Flags(Dir);
    llvm::sys::path::append(Flags, "compile_flags.txt");
    if (llvm::sys::fs::exists(Flags))
      return "";
    return "no compile_commands.json in '" + Dir.str() + "'; " + Regenerate;
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "cannot read '" + Path.str().str() +
           "': " + Buffer.getError().message();
  llvm::Expected<llvm::json::Value> V =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!V)
    return "'" + Path.str().str() + "' is not valid JSON (" +
           llvm::toString(V.takeError()) + "); " + Regenerate;
  const llvm::json::Array *A = V->getAsArray();
  if (!A)
    return "'" + Path.str().str() + "' is not a list of compile commands; " +
           Regenerate;
  for (size_t I = 0; I < A->size(); ++I) {
    const llvm::json::Object *O = (*A)[I].getAsObject();
    std::string Entry = "entry " + std::to_string(I + 1) + " of '" +
                        Path.str().str() + "'";
    if (!O)
      return Entry + " is not an object";
    std::optional<llvm::StringRef> File = O->getString("file");
    if (File)
      Entry += " (file '" + File->str() + "')";
    if (!File)
      return Entry + " has no \"file\"";
    if (!O->getString("directory"))
      return Entry + " has no \"directory\"";
    if (!O->getString("command") && !O->getArray("arguments"))
      return Entry + " has neither \"command\" nor \"arguments\"";
  }
  return "";
}

/// A file of the compile database and its command.
struct DatabaseEntry {
  std::string File; ///< Absolute, dots removed.
  std::string Key;  ///< fileKey(File)
  clang::tooling::CompileCommand Command;
};

/// The entry whose flags suit \p File best when the database has no command
/// for it (a header): the one sharing the longest directory prefix, then the
/// same file name stem (kernels.cuh -> kernels.cu), then the first listed.
static const DatabaseEntry *
nearestEntry(llvm::StringRef File, const std::vector<DatabaseEntry> &Entries,
             bool PreferCuda) {
  auto Components = [](llvm::StringRef P) {
    std::vector<llvm::StringRef> C(llvm::sys::path::begin(P),
                                   llvm::sys::path::end(P));
    if (!C.empty())
      C.pop_back(); // The file name.
    return C;
  };
  std::vector<llvm::StringRef> Mine = Components(File);
  llvm::StringRef Stem = llvm::sys::path::stem(File);
  const DatabaseEntry *Best = nullptr;
  std::tuple<bool, size_t, bool> BestScore{false, 0, false};
  for (const DatabaseEntry &E : Entries) {
    std::vector<llvm::StringRef> Theirs = Components(E.File);
    size_t Common = 0;
    while (Common < Mine.size() && Common < Theirs.size() &&
           Mine[Common] == Theirs[Common])
      ++Common;
    std::tuple<bool, size_t, bool> Score{
        !PreferCuda || isCudaSource(E.File), Common,
        llvm::sys::path::stem(E.File) == Stem};
    if (!Best || Score > BestScore) {
      Best = &E;
      BestScore = Score;
    }
  }
  return Best;
}

namespace {
/// Analysis flags given on the command line; they override .clang-tidy.
struct CommandLineSettings {
  std::optional<std::vector<std::string>> CheckGlobs;
  /// --warnings-as-errors; replaces the files' WarningsAsErrors.
  std::optional<std::vector<std::string>> WarningsAsErrorsGlobs;
  std::optional<Dim3> BlockDim;
  std::optional<unsigned> WarpSize;
  /// The checks' own options given (CheckOptions.def), their values in
  /// Values.
  std::vector<const CheckOption *> Given;
  AnalysisOptions Values;

  void applyTo(AnalysisOptions &O) const {
    if (BlockDim)
      O.BlockDim = BlockDim;
    if (WarpSize)
      O.WarpSize = *WarpSize;
    for (const CheckOption *Opt : Given)
      Opt->copy(Values, O);
  }
};
} // namespace

int parseCommandLine(int Argc, const char **Argv, DriverOptions &Opts,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  ToolLayout Layout = ToolLayout::find(Argv[0]);
  std::vector<std::string> Files, ExtraArgs;
  std::string BuildDir, CudaSetting = "auto", Arch, FilesRegex, DiffBase,
                        ConfigFile, NvccPath;
  bool UseConfig = true, WantSass = false;
  CommandLineSettings CL;
  bool SawDashDash = false;
  int ColorSetting = -1;

  auto Fail = [&](const llvm::Twine &Msg) {
    Err << "shmem-lint: error: " << Msg << "\n"
        << "Run 'shmem-lint --help' for usage.\n";
    return 2;
  };
  auto ParseUnsigned = [&](llvm::StringRef V, std::optional<unsigned> &Dst) {
    Dst = parseUnsignedOption(V);
    return Dst.has_value();
  };

  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (SawDashDash) {
      ExtraArgs.push_back(A.str());
      continue;
    }
    auto Value = [&](llvm::StringRef Name, std::string &Dst) -> int {
      // --name=value or --name value
      if (A.starts_with(Name.str() + "=")) {
        Dst = A.substr(Name.size() + 1).str();
        return 1;
      }
      if (A == Name) {
        if (I + 1 >= Argc)
          return -1;
        Dst = Argv[++I];
        return 1;
      }
      return 0;
    };
    std::string V;
    int R;
    // --KEY=VALUE of a check's own option.
    auto CheckOptionFlag = [&]() -> const CheckOption * {
      for (const CheckOption &Opt : checkOptions())
        if ((R = Value(("--" + Opt.Key).str(), V)))
          return &Opt;
      return nullptr;
    };
    const CheckOption *Opt = nullptr;
    if (A == "--") {
      SawDashDash = true;
    } else if (A == "--help" || A == "-h") {
      Out << Usage << checkOptionsUsage() << UsageAfterCheckOptions;
      return 0;
    } else if (A == "--version") {
      Out << "shmem-lint " << SHMEM_LINT_VERSION << " (built with clang "
          << SHMEM_LINT_CLANG_VERSION << ")\n";
      return 0;
    } else if (A == "--print-tidy-plugin") {
      Out << Layout.TidyPlugin << "\n";
      return 0;
    } else if (A == "--print-clang-plugin") {
      Out << Layout.ClangPlugin << "\n";
      return 0;
    } else if (A == "--print-cuda-flags") {
      bool First = true;
      for (const std::string &F : ownHeaderFlags(Layout)) {
        Out << (First ? "" : " ") << F;
        First = false;
      }
      Out << "\n";
      return 0;
    } else if (A == "--list-checks") {
      for (unsigned K = 0; K < NumCheckKinds; ++K)
        Out << checkName(CheckKind(K)) << "  " << checkSummary(CheckKind(K))
            << "\n";
      return 0;
    } else if (A == "--list-check-options") {
      const AnalysisOptions Defaults;
      for (const CheckOption &O : checkOptions())
        Out << checkName(O.Check) << "  " << O.Name << "  --" << O.Key
            << "=" << O.metavar() << "  " << O.text(Defaults) << "  "
            << O.Help << "\n";
      return 0;
    } else if (A == "--verbose" || A == "-v") {
      Opts.Verbose = true;
    } else if (A == "--stats") {
      Opts.Stats = true;
    } else if (A == "--color") {
      ColorSetting = 1;
    } else if (A == "--no-color") {
      ColorSetting = 0;
    } else if (A == "--progress") {
      Opts.Progress = 1;
    } else if (A == "--no-progress") {
      Opts.Progress = 0;
    } else if (A == "--exit-zero") {
      Opts.ExitZero = true;
    } else if (A == "--no-config") {
      UseConfig = false;
    } else if (A == "--sass") {
      WantSass = true;
    } else if ((R = Value("-p", BuildDir))) {
      if (R < 0)
        return Fail("-p needs a directory");
    } else if ((R = Value("-j", V)) || (R = Value("--jobs", V)) ||
               (A.starts_with("-j") && A.size() > 2 && llvm::isDigit(A[2]))) {
      if (R == 0)
        V = A.substr(2).str(); // -j8
      std::optional<unsigned> N;
      if (R < 0 || !ParseUnsigned(V, N))
        return Fail("invalid -j '" + V + "'; expected a number of files");
      Opts.Parallelism = *N;
    } else if ((R = Value("--files-regex", FilesRegex))) {
      if (R < 0)
        return Fail("--files-regex needs a regular expression");
    } else if ((R = Value("--diff", DiffBase))) {
      if (R < 0 || DiffBase.empty())
        return Fail("--diff needs a git revision");
    } else if ((R = Value("--config-file", ConfigFile))) {
      if (R < 0)
        return Fail("--config-file needs a file");
    } else if ((R = Value("--checks", V))) {
      if (R < 0)
        return Fail("--checks needs a value");
      CL.CheckGlobs = splitCheckGlobs(V);
    } else if ((R = Value("--warnings-as-errors", V))) {
      if (R < 0)
        return Fail("--warnings-as-errors needs a value");
      CL.WarningsAsErrorsGlobs = splitCheckGlobs(V);
    } else if ((R = Value("--block-dim", V))) {
      auto D = R > 0 ? Dim3::parse(V) : std::nullopt;
      if (!D)
        return Fail("invalid --block-dim '" + V + "'; expected e.g. 256 or 32x8");
      CL.BlockDim = D;
    } else if ((R = Value("--warp-size", V))) {
      if (R < 0 || !ParseUnsigned(V, CL.WarpSize))
        return Fail("invalid --warp-size '" + V + "'");
      if (*CL.WarpSize != CudaWarpSize)
        return Fail("invalid --warp-size '" + V + "'; only 32: " +
                    WarpSizeReason);
    } else if ((Opt = CheckOptionFlag())) {
      if (R < 0 || !Opt->set(CL.Values, V))
        // A number below the least that means something says so; other
        // bad values keep the short form.
        return Fail("invalid --" + Opt->Key + " '" + V + "'" +
                    (R > 0 && Opt->belowMinimum(V)
                         ? "; expected " + Opt->expected()
                         : std::string()));
      CL.Given.push_back(Opt);
    } else if ((R = Value("--cuda-path", CudaSetting))) {
      if (R < 0)
        return Fail("--cuda-path needs a value");
    } else if ((R = Value("--cuda-gpu-arch", Arch)) ||
               (R = Value("--cuda-arch", Arch))) {
      if (R < 0)
        return Fail("--cuda-gpu-arch needs a value");
    } else if ((R = Value("--nvcc", NvccPath))) {
      if (R < 0 || NvccPath.empty())
        return Fail("--nvcc needs the path of nvcc");
    } else if ((R = Value("--ncu-report", Opts.NcuReport))) {
      if (R < 0 || Opts.NcuReport.empty())
        return Fail("--ncu-report needs a file");
      if (!llvm::sys::fs::exists(Opts.NcuReport))
        return Fail("--ncu-report: no such file: '" + Opts.NcuReport + "'");
    } else if ((R = Value("--format", Opts.Format))) {
      if (R < 0)
        return Fail("--format needs a value");
    } else if ((R = Value("-o", Opts.OutputFile))) {
      if (R < 0)
        return Fail("-o needs a file");
    } else if ((R = Value("--export-compile-commands",
                          Opts.ExportCompileCommands))) {
      if (R < 0)
        return Fail("--export-compile-commands needs a file");
    } else if ((R = Value("--vfsoverlay", Opts.VfsOverlay))) {
      if (R < 0 || Opts.VfsOverlay.empty())
        return Fail("--vfsoverlay needs a file");
      if (!llvm::sys::fs::exists(Opts.VfsOverlay))
        return Fail("--vfsoverlay: no such file: '" + Opts.VfsOverlay + "'");
    } else if ((R = Value("--export-fixes", Opts.ExportFixes))) {
      if (R < 0)
        return Fail("--export-fixes needs a file");
    } else if ((R = Value("--baseline", Opts.Baseline))) {
      if (R < 0)
        return Fail("--baseline needs a file");
    } else if ((R = Value("--write-baseline", Opts.WriteBaseline))) {
      if (R < 0)
        return Fail("--write-baseline needs a file");
    } else if (A.starts_with("-") && A != "-") {
      return Fail(unknownOptionMessage(A));
    } else {
      Files.push_back(A.str());
    }
  }

  if (!NvccPath.empty() && !WantSass)
    return Fail("--nvcc names the nvcc of --sass; add --sass");

  OutputFormat ParsedFormat;
  if (!parseOutputFormat(Opts.Format, ParsedFormat))
    return Fail("unknown --format '" + Opts.Format + "'; expected " +
                outputFormatNames());

  Opts.Color = ColorSetting >= 0 ? ColorSetting == 1
                                 : (Opts.OutputFile.empty() &&
                                    llvm::sys::Process::StandardOutIsDisplayed());

  llvm::SmallString<256> CwdBuf;
  llvm::sys::fs::current_path(CwdBuf);
  const std::string Cwd = CwdBuf.str().str();

  // `-- nvcc -Iinc -c k.cu -o k.o`: a whole compile command, as a build log
  // shows it, is read like a compile database entry.
  std::string CommandArch;
  if (!ExtraArgs.empty() && !llvm::StringRef(ExtraArgs[0]).starts_with("-")) {
    TranslatedCommand T = translateCompileCommand(ExtraArgs, Cwd);
    for (const std::string &Msg : T.Errors)
      Err << "shmem-lint: warning: compile command: " << Msg << "\n";
    for (const std::string &Msg : T.Warnings)
      Err << "shmem-lint: warning: compile command: " << Msg << "\n";
    if (Opts.Verbose)
      for (const std::string &D : T.Dropped)
        Err << "shmem-lint: note: compile command: " << D << "\n";
    ExtraArgs = withoutLanguageAndArch(T.Args);
    if (!T.CudaArchs.empty())
      CommandArch = T.CudaArchs.front();
    if (Files.empty() && !T.InputFile.empty())
      Files.push_back(T.InputFile);
  } else if (!ExtraArgs.empty()) {
    // `-- --cuda-gpu-arch=sm_90a` (or nvcc's -arch=sm_90a): the user's
    // architecture replaces the default rather than joining it, which would
    // parse the file twice and fail on code guarded by __CUDA_ARCH__.
    TranslatedCommand T = takeCudaArchFlags(ExtraArgs);
    for (const std::string &Msg : T.Warnings)
      Err << "shmem-lint: warning: flags after '--': " << Msg << "\n";
    if (Opts.Verbose)
      for (const std::string &D : T.Dropped)
        Err << "shmem-lint: note: flags after '--': " << D << "\n";
    if (!T.CudaArchs.empty())
      CommandArch = T.CudaArchs.front();
  }

  // The settings without any .clang-tidy: defaults, then the flags.
  CL.applyTo(Opts.Analysis);
  const std::bitset<NumCheckKinds> DefaultChecks =
      applyCheckGlobs({}, {std::string("shmem-*")});
  Opts.Analysis.Enabled =
      CL.CheckGlobs ? applyCheckGlobs({}, *CL.CheckGlobs) : DefaultChecks;
  if (CL.CheckGlobs)
    if (std::optional<UnknownCheck> U = unknownCheck(*CL.CheckGlobs))
      return Fail(U->message("--checks"));
  if (Opts.Analysis.Enabled.none())
    return Fail("--checks selects no check; known checks are " +
                checkNameList());
  // An empty or unmatched list is no error (clang-tidy accepts it: nothing
  // is promoted), but a misspelt shmem-* check is.
  if (CL.WarningsAsErrorsGlobs)
    if (std::optional<UnknownCheck> U = unknownCheck(*CL.WarningsAsErrorsGlobs))
      return Fail(U->message("--warnings-as-errors"));

  std::optional<llvm::Regex> FileFilter;
  if (!FilesRegex.empty()) {
    FileFilter.emplace(FilesRegex);
    std::string Why;
    if (!FileFilter->isValid(Why))
      return Fail("invalid --files-regex '" + FilesRegex + "': " + Why);
  }
  if (!ConfigFile.empty() && !llvm::sys::fs::exists(ConfigFile))
    return Fail("no such --config-file: '" + ConfigFile + "'");

  std::string Toolkit = findToolkit(CudaSetting);
  if (!Toolkit.empty() && CudaSetting != "auto") {
    llvm::SmallString<256> P(Toolkit);
    llvm::sys::path::append(P, "include", "cuda_runtime.h");
    if (!llvm::sys::fs::exists(P))
      return Fail("no CUDA toolkit at '" + Toolkit +
                  "' (no include/cuda_runtime.h); use --cuda-path=none to use "
                  "shmem-lint's own CUDA header");
  }
  // The header of shmem-lint's own each setting needs: the whole stand-in
  // for a toolkit, or with a toolkit what nvcc adds to it (below).
  llvm::SmallString<256> OwnHeader(Layout.CudaHeaders);
  llvm::sys::path::append(OwnHeader, Toolkit.empty() ? "shmem_lint_cuda.h"
                                                     : "shmem_lint_toolkit.h");
  if (!llvm::sys::fs::exists(OwnHeader)) {
    // An installation problem, not a usage one: no pointer to --help.
    Err << "shmem-lint: error: " << Layout.missingHeader(OwnHeader) << "\n";
    return 2;
  }
  std::vector<std::string> CudaFlags;
  if (Toolkit.empty()) {
    CudaFlags = ownHeaderFlags(Layout);
  } else {
    CudaFlags = {"--cuda-path=" + Toolkit};
    // CUDA 13 keeps CCCL (cuda/std, cub, thrust) under include/cccl, which
    // nvcc adds implicitly and clang does not.
    llvm::SmallString<256> Cccl(Toolkit);
    llvm::sys::path::append(Cccl, "include", "cccl");
    if (llvm::sys::fs::is_directory(Cccl)) {
      CudaFlags.push_back("-isystem");
      CudaFlags.push_back(Cccl.str().str());
    }
    // What nvcc gives that clang's CUDA headers do not (host min and max,
    // the cache-hint stores, host isfinite; see shmem_lint_toolkit.h):
    // without them code nvcc accepts fails to parse, and the kernels with
    // it. Pre-included by path, so that the directory of shmem-lint's own
    // CUDA header stays off the include path.
    CudaFlags.push_back("-include");
    CudaFlags.push_back(OwnHeader.str().str());
  }
  if (WantSass)
    Opts.Sass = findSassTools(NvccPath, Toolkit);
  if (Opts.Verbose)
    Err << "shmem-lint: CUDA headers: "
        << (Toolkit.empty() ? "shmem-lint's own (" + Layout.CudaHeaders + ")"
                            : "toolkit at " + Toolkit)
        << "\n";

  const std::string GccHeaders = gccHeaderDir();

  // Device code is analysed once, for one architecture: the one asked for
  // (--cuda-gpu-arch, else the lowest the flags after `--` name), else the
  // lowest the build compiles for, else sm_80.
  auto BaseArgs = [&](const std::string &FileArch) {
    std::string A = !Arch.empty()          ? Arch
                    : !CommandArch.empty() ? CommandArch
                    : !FileArch.empty()    ? FileArch
                                           : DefaultCudaArch;
    std::vector<std::string> Args = {SHMEM_LINT_CLANG_PATH,
                                     "-x",
                                     "cuda",
                                     "--cuda-device-only",
                                     "--cuda-gpu-arch=" + A,
                                     "-fsyntax-only",
                                     "-resource-dir",
                                     SHMEM_LINT_RESOURCE_DIR,
                                     "-Wno-unknown-cuda-version",
                                     "-w",
                                     // Relocatable device code, whatever
                                     // the build uses: clang rejects a
                                     // kernel launched from device code
                                     // (dynamic parallelism) without it,
                                     // and it changes nothing else a
                                     // syntax-only parse sees.
                                     "-fgpu-rdc"};
    Args.insert(Args.end(), CudaFlags.begin(), CudaFlags.end());
    if (!GccHeaders.empty()) {
      Args.push_back("-idirafter");
      Args.push_back(GccHeaders);
    }
    return Args;
  };

  // The compile database, its entries in the order it lists them, one per
  // file (a file built for several targets is analysed once).
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  std::vector<DatabaseEntry> Entries;
  std::map<std::string, size_t> EntryByKey;
  if (!BuildDir.empty()) {
    // Checked first: clang's reader prints a YAML parser's error to stderr
    // for a broken file and then names neither the entry nor the fix.
    if (std::string Why = compileDatabaseProblem(BuildDir); !Why.empty())
      return Fail("cannot read a compile database in '" + BuildDir +
                  "': " + Why);
    std::string ErrMsg;
    DB = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir,
                                                                ErrMsg);
    if (!DB)
      return Fail("cannot read a compile database in '" + BuildDir +
                  "': " + llvm::StringRef(ErrMsg).trim().str());
    for (clang::tooling::CompileCommand &C : DB->getAllCompileCommands()) {
      DatabaseEntry E;
      E.File = absolutePath(C.Filename, C.Directory);
      E.Key = fileKey(E.File);
      if (EntryByKey.count(E.Key))
        continue;
      E.Command = std::move(C);
      EntryByKey[E.Key] = Entries.size();
      Entries.push_back(std::move(E));
    }
  }

  // Which files: the ones named (directories expanded), else the CUDA files
  // of the database, else (with --diff) the changed CUDA files.
  std::vector<std::string> Wanted;
  bool Filtered = !DiffBase.empty() || FileFilter.has_value();
  for (const std::string &F : Files) {
    std::string Abs = absolutePath(F, Cwd);
    if (!llvm::sys::fs::is_directory(Abs)) {
      Wanted.push_back(DB ? Abs : F);
      continue;
    }
    if (DB) {
      std::string Prefix = fileKey(Abs) + "/";
      for (const DatabaseEntry &E : Entries)
        if (llvm::StringRef(E.Key).starts_with(Prefix) &&
            isCudaSource(E.File))
          Wanted.push_back(E.File);
    } else {
      std::vector<std::string> Under = cudaFilesUnder(Abs);
      if (Under.empty())
        return Fail(noCudaFilesMessage(F, Abs));
      for (std::string &C : Under)
        Wanted.push_back(std::move(C));
    }
  }
  std::map<std::string, TranslatedCommand> Translations;
  auto Translate = [&](const DatabaseEntry &E) -> const TranslatedCommand & {
    auto It = Translations.find(E.Key);
    if (It == Translations.end())
      It = Translations
               .emplace(E.Key, translateCompileCommand(E.Command.CommandLine,
                                                       E.Command.Directory))
               .first;
    return It->second;
  };
  if (Files.empty() && DB) {
    for (const DatabaseEntry &E : Entries)
      if (isCudaSource(E.File) || Translate(E).IsCuda)
        Wanted.push_back(E.File);
    // With --diff, changed headers may still be analysed below.
    if (Wanted.empty() && DiffBase.empty())
      return Fail("the compile database in '" + BuildDir +
                  "' lists no CUDA files");
  }

  if (!DiffBase.empty()) {
    std::vector<std::string> Changed;
    std::string Why;
    if (!changedFiles(Cwd, DiffBase, Changed, Why))
      return Fail("--diff " + DiffBase + ": " + Why);
    std::set<std::string> ChangedKeys;
    for (const std::string &C : Changed)
      ChangedKeys.insert(fileKey(C));
    std::vector<std::string> Kept;
    std::set<std::string> KeptKeys;
    for (const std::string &W : Wanted) {
      std::string K = fileKey(absolutePath(W, Cwd));
      if (ChangedKeys.count(K)) {
        Kept.push_back(W);
        KeptKeys.insert(K);
      }
    }
    // With nothing named, changed CUDA files the database does not list
    // (headers) are analysed too, with the flags of their neighbours.
    if (Files.empty())
      for (const std::string &C : Changed)
        if (isCudaSource(C) && !KeptKeys.count(fileKey(C)) &&
            llvm::sys::fs::exists(C) &&
            (!DB || !EntryByKey.count(fileKey(C))))
          Kept.push_back(C);
    if (Opts.Verbose)
      Err << "shmem-lint: --diff " << DiffBase << ": " << Changed.size()
          << " changed file(s), " << Kept.size() << " to analyse\n";
    Wanted = std::move(Kept);
  } else if (Files.empty() && !DB) {
    return Fail("no input files");
  }

  if (FileFilter) {
    std::vector<std::string> Kept;
    for (const std::string &W : Wanted)
      if (FileFilter->match(absolutePath(W, Cwd)))
        Kept.push_back(W);
    if (Opts.Verbose)
      Err << "shmem-lint: --files-regex keeps " << Kept.size() << " of "
          << Wanted.size() << " file(s)\n";
    Wanted = std::move(Kept);
  }

  // The bank findings' pictures cost what-if walks; only these outputs
  // show them, and --sass and --ncu-report read the access's width, lanes
  // and wavefronts from them.
  const bool WantPictures = Opts.Verbose ||
                            ParsedFormat == OutputFormat::Html ||
                            ParsedFormat == OutputFormat::Sarif ||
                            ParsedFormat == OutputFormat::Json ||
                            Opts.Sass || !Opts.NcuReport.empty();

  // Settings per file: defaults, the file's .clang-tidy, then the flags.
  TidyConfigFinder Configs;
  std::set<std::string> ReportedConfigs;
  auto SettingsFor = [&](llvm::StringRef AbsFile) {
    CheckSettings S;
    for (AnalysisOptions &O : S.PerCheck)
      O = AnalysisOptions();
    const TidyConfig *C = nullptr;
    if (UseConfig)
      C = ConfigFile.empty() ? &Configs.forFile(AbsFile)
                             : &Configs.forConfigFile(ConfigFile);
    std::bitset<NumCheckKinds> Enabled = DefaultChecks;
    if (C && !C->Files.empty()) {
      std::vector<std::string> Warnings;
      applyCheckOptions(C->Options, S.PerCheck, Warnings);
      // A warning, not an error: clang-tidy itself runs with such a file.
      if (std::optional<UnknownCheck> U = unknownCheck(C->CheckGlobs))
        Warnings.push_back(U->message("Checks"));
      std::bitset<NumCheckKinds> FromFile =
          applyCheckGlobs(Enabled, C->CheckGlobs);
      bool First = ReportedConfigs.insert(C->Files.back()).second;
      if (First) {
        for (const std::string &W : Warnings)
          Err << "shmem-lint: warning: " << C->Files.back() << ": " << W
              << "\n";
        if (Opts.Verbose) {
          Err << "shmem-lint: note: using the settings of";
          for (const std::string &F : C->Files)
            Err << " '" << F << "'";
          Err << "\n";
        }
      }
      // A .clang-tidy that enables no shmem check was written for other
      // checks; running shmem-lint means wanting its checks.
      if (C->HasChecks && FromFile.none()) {
        if (First && Opts.Verbose && !CL.CheckGlobs)
          Err << "shmem-lint: note: '" << C->Files.back()
              << "' enables no shmem-* check; its Checks are ignored\n";
      } else {
        Enabled = FromFile;
      }
    }
    if (C)
      for (const std::string &E : C->Errors)
        if (ReportedConfigs.insert("error:" + E).second)
          Err << "shmem-lint: warning: cannot use " << E << "\n";
    S.Enabled = CL.CheckGlobs ? Opts.Analysis.Enabled : Enabled;
    for (AnalysisOptions &O : S.PerCheck) {
      CL.applyTo(O);
      O.Pictures = WantPictures;
    }
    return planAnalysisRuns(S);
  };

  std::set<std::string> Planned;
  for (const std::string &W : Wanted) {
    std::string Abs = absolutePath(W, Cwd);
    if (!Planned.insert(fileKey(Abs)).second)
      continue;
    if (!DB) {
      FileJob J{W, Cwd, BaseArgs(""), SettingsFor(Abs), {}, {}};
      J.Args.insert(J.Args.end(), ExtraArgs.begin(), ExtraArgs.end());
      J.Args.push_back(W);
      J.ProjectArgs = ExtraArgs;
      Opts.Jobs.push_back(std::move(J));
      continue;
    }
    const DatabaseEntry *E = nullptr;
    auto It = EntryByKey.find(fileKey(Abs));
    if (It != EntryByKey.end())
      E = &Entries[It->second];
    if (!E) {
      E = nearestEntry(Abs, Entries, /*PreferCuda=*/true);
      if (!E) {
        Err << "shmem-lint: warning: '" << W
            << "' is not in the compile database; analysing it without its "
               "flags\n";
        FileJob J{Abs, Cwd, BaseArgs(""), SettingsFor(Abs), {}, {}};
        J.Args.insert(J.Args.end(), ExtraArgs.begin(), ExtraArgs.end());
        J.Args.push_back(Abs);
        J.ProjectArgs = ExtraArgs;
        Opts.Jobs.push_back(std::move(J));
        continue;
      }
      if (Opts.Verbose)
        Err << "shmem-lint: note: '" << W
            << "' is not in the compile database; using the flags of '"
            << E->File << "'\n";
    }
    const clang::tooling::CompileCommand &C = E->Command;
    // nvcc's flags become clang's: response files expanded, -gencode
    // mapped to --cuda-gpu-arch, host-compiler wrappers unwrapped,
    // nvcc-only flags dropped.
    const TranslatedCommand &T = Translate(*E);
    bool FirstUse = ReportedConfigs.insert("cmd:" + E->Key).second;
    if (FirstUse) {
      for (const std::string &Msg : T.Errors)
        Err << "shmem-lint: warning: " << C.Filename << ": " << Msg << "\n";
      for (const std::string &Msg : T.Warnings)
        Err << "shmem-lint: warning: " << C.Filename << ": " << Msg << "\n";
      if (Opts.Verbose)
        for (const std::string &D : T.Dropped)
          Err << "shmem-lint: note: " << C.Filename << ": " << D << "\n";
    }
    FileJob J{Abs, C.Directory,
              BaseArgs(T.CudaArchs.empty() ? "" : T.CudaArchs.front()),
              SettingsFor(Abs), {}, {}};
    J.ProjectArgs = withoutLanguageAndArch(T.Args);
    J.ProjectArgs.insert(J.ProjectArgs.end(), ExtraArgs.begin(),
                         ExtraArgs.end());
    J.Args.insert(J.Args.end(), J.ProjectArgs.begin(), J.ProjectArgs.end());
    J.Args.push_back(J.File);
    Opts.Jobs.push_back(std::move(J));
  }
  if (Opts.Jobs.empty() && !Filtered)
    return Fail("no input files");
  if (!Toolkit.empty() && CudaSetting == "auto") {
    llvm::SmallString<256> Include(Toolkit);
    llvm::sys::path::append(Include, "include");
    std::vector<std::string> Own = ownHeaderFlags(Layout);
    for (FileJob &J : Opts.Jobs) {
      auto At = std::search(J.Args.begin(), J.Args.end(), CudaFlags.begin(),
                            CudaFlags.end());
      if (At == J.Args.end())
        continue;
      J.ToolkitInclude = Include.str().str();
      J.OwnHeaderArgs.assign(J.Args.begin(), At);
      J.OwnHeaderArgs.insert(J.OwnHeaderArgs.end(), Own.begin(), Own.end());
      J.OwnHeaderArgs.insert(J.OwnHeaderArgs.end(), At + CudaFlags.size(),
                             J.Args.end());
    }
  }

  // Which checks' findings are errors in each file: the flag, else the
  // file's WarningsAsErrors (the flag replaces it, as --checks replaces
  // Checks). The same .clang-tidy as the settings above, from the cache.
  std::set<std::string> ReportedWarningsAsErrors;
  for (FileJob &J : Opts.Jobs) {
    if (CL.WarningsAsErrorsGlobs) {
      J.WarningsAsErrors = applyCheckGlobs({}, *CL.WarningsAsErrorsGlobs);
      continue;
    }
    if (!UseConfig)
      continue;
    std::string Abs = absolutePath(J.File, J.Directory);
    const TidyConfig &C = ConfigFile.empty()
                              ? Configs.forFile(Abs)
                              : Configs.forConfigFile(ConfigFile);
    J.WarningsAsErrors = applyCheckGlobs({}, C.WarningsAsErrorsGlobs);
    if (!C.Files.empty() &&
        ReportedWarningsAsErrors.insert(C.Files.back()).second)
      if (std::optional<UnknownCheck> U = unknownCheck(C.WarningsAsErrorsGlobs))
        Err << "shmem-lint: warning: " << C.Files.back() << ": "
            << U->message("WarningsAsErrors") << "\n";
  }
  return -1;
}

/// The repository root for relative paths: the nearest directory above the
/// working directory holding .git, else the working directory.
std::string repoRootForReports() {
  llvm::SmallString<256> Dir;
  llvm::sys::fs::current_path(Dir);
  for (llvm::SmallString<256> D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Git(D);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return D.str().str();
    if (llvm::sys::path::parent_path(D) == D)
      break;
  }
  return Dir.str().str();
}

void writeReport(const DriverOptions &Opts,
                 const std::vector<ReportedFinding> &Findings,
                 const std::vector<ReportedGap> &Gaps, llvm::raw_ostream &Out) {
  OutputFormat F = OutputFormat::Text;
  parseOutputFormat(Opts.Format, F);
  OutputContext Ctx;
  Ctx.ToolVersion = SHMEM_LINT_VERSION;
  Ctx.RepoRoot = repoRootForReports();
  Ctx.Color = Opts.Color;
  Ctx.Verbose = Opts.Verbose;
  Ctx.AgainstBaseline = !Opts.Baseline.empty();
  writeFindings(Out, F, Findings, Ctx, Gaps);
  if (!Opts.ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream Y(Opts.ExportFixes, EC);
    if (EC) {
      llvm::errs() << "shmem-lint: error: cannot write '" << Opts.ExportFixes
                   << "': " << EC.message() << "\n";
      return;
    }
    // Relative paths in the findings are relative to the directory the
    // file was compiled in, which clang-apply-replacements reads from
    // BuildDirectory.
    writeExportFixesYaml(Y, Opts.Jobs.empty() ? "" : Opts.Jobs.front().File,
                         Findings,
                         Opts.Jobs.empty() ? "" : Opts.Jobs.front().Directory,
                         nullptr, Gaps);
  }
}

int writeCompileCommands(const DriverOptions &Opts, llvm::raw_ostream &Err) {
  std::error_code EC;
  // `--export-compile-commands=build/shmem/compile_commands.json` names
  // where the database goes; the folder need not exist yet.
  llvm::StringRef Parent =
      llvm::sys::path::parent_path(Opts.ExportCompileCommands);
  if (!Parent.empty() && (EC = llvm::sys::fs::create_directories(Parent))) {
    Err << "shmem-lint: error: cannot create '" << Parent
        << "' for --export-compile-commands: " << EC.message() << "\n";
    return 2;
  }
  llvm::raw_fd_ostream OS(Opts.ExportCompileCommands, EC);
  if (EC) {
    Err << "shmem-lint: error: cannot write '" << Opts.ExportCompileCommands
        << "': " << EC.message() << "\n";
    return 2;
  }
  llvm::json::OStream J(OS, 2);
  J.array([&] {
    for (const FileJob &Job : Opts.Jobs)
      J.object([&] {
        J.attribute("directory", Job.Directory);
        J.attribute("file", absolutePath(Job.File, Job.Directory));
        J.attributeArray("arguments", [&] {
          for (const std::string &A : Job.Args)
            if (A != "-w") // Other tools may want clang's warnings.
              J.value(A);
        });
      });
  });
  OS << "\n";
  if (Opts.Verbose)
    Err << "shmem-lint: wrote " << Opts.Jobs.size() << " command(s) to '"
        << Opts.ExportCompileCommands << "'\n";
  return 0;
}

} // namespace shmem

int main(int Argc, const char **Argv) {
  // `shmem-lint explain ...`: the lane->bank picture of one access, or the
  // residue lab (Explain.h).
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "explain")
    return shmem::runExplain(Argv[0], Argc - 2, Argv + 2, llvm::outs(),
                             llvm::errs());
  // `shmem-lint lsp ...`: the language server, which runs this executable
  // on each document (lsp/Server.h).
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "lsp") {
    std::string Self = llvm::sys::fs::getMainExecutable(
        Argv[0], reinterpret_cast<void *>(&main));
    return shmem::lsp::runServer(Self.empty() ? Argv[0] : Self,
                                 llvm::ArrayRef(Argv + 2, Argc - 2), stdin,
                                 llvm::outs(), llvm::errs());
  }
  shmem::DriverOptions Opts;
  int R = shmem::parseCommandLine(Argc, Argv, Opts, llvm::outs(), llvm::errs());
  if (R >= 0)
    return R;
  if (!Opts.ExportCompileCommands.empty())
    return shmem::writeCompileCommands(Opts, llvm::errs());
  return shmem::runDriver(Opts, llvm::outs(), llvm::errs());
}
