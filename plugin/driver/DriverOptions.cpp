//===- DriverOptions.cpp - The shmem-lint command line --------------------===//

#include "DriverOptions.h"

#include "NvccCommand.h"
#include "OutputFormats.h"

#include "Analysis/NoLint.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

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

static const char *const Usage = R"(USAGE: shmem-lint [options] FILE... [-- COMPILER-ARGS...]
       shmem-lint -p BUILD-DIR [options] [FILE...]

Finds CUDA shared-memory bank conflicts, divergent barriers and races.

OPTIONS:
  -p DIR                  read compile_commands.json from DIR
  --checks=GLOBS          checks to run, e.g. 'shmem-*,-shmem-race'
                          (default: shmem-*)
  --block-dim=SHAPE       block shape when the source states none (256, 32x8)
  --warp-size=N           lanes per warp (default 32)
  --min-degree=N          report bank conflicts of at least this degree (2)
  --report-conditional=0|1  report conflicts that depend on unknown values (1)
  --report-benign=0|1     report benign same-value races (0)
  --cuda-path=auto|none|DIR  CUDA headers: a toolkit, or shmem-lint's own
                          (default auto: /usr/local/cuda or $CUDA_PATH if present)
  --cuda-gpu-arch=sm_XX   architecture the device code is analysed for (sm_80)
  --format=FMT            text (default), sarif, github, gitlab, json
  -o FILE                 write the report to FILE
  --export-fixes=FILE     write fix-its as clang-tidy YAML
  --color / --no-color    colours in text output (default: on a terminal)
  --verbose               explain setup, print lane->bank maps and statistics
  --print-tidy-plugin     print the path of the clang-tidy module
  --print-clang-plugin    print the path of the clang plugin
  --print-cuda-flags      print the clang flags that use shmem-lint's CUDA header
  --list-checks           print the checks
  --version, --help

Exit status: 0 clean, 1 findings (or some files not analysed), 2 usage or
input errors (or no file could be analysed).
)";

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

/// Flags that make clang parse CUDA with our header instead of a toolkit.
static std::vector<std::string> ownHeaderFlags(const ToolLayout &L) {
  return {"-nocudainc", "-nocudalib", "-isystem", L.CudaHeaders, "-include",
          "shmem_lint_cuda.h"};
}

static bool isCudaSource(llvm::StringRef File) {
  return File.ends_with(".cu") || File.ends_with(".cuh");
}

/// A compile command from a compile database, reduced to the flags that
/// matter for parsing: includes, defines and the language standard.
static std::vector<std::string>
flagsFromDatabase(const std::vector<std::string> &Cmd, llvm::raw_ostream &Err,
                  bool Verbose) {
  std::vector<std::string> Out;
  for (size_t I = 1; I < Cmd.size(); ++I) {
    llvm::StringRef A = Cmd[I];
    auto TakesNext = [&](llvm::StringRef Flag) { return A == Flag && I + 1 < Cmd.size(); };
    if (TakesNext("-I") || TakesNext("-isystem") || TakesNext("-D") ||
        TakesNext("-U") || TakesNext("-include") || TakesNext("-iquote")) {
      Out.push_back(A.str());
      Out.push_back(Cmd[++I]);
    } else if (A.starts_with("-I") || A.starts_with("-D") ||
               A.starts_with("-U") || A.starts_with("-std=") ||
               A.starts_with("--std=") || A.starts_with("-isystem")) {
      Out.push_back(A.starts_with("--std=") ? ("-std=" + A.substr(6)).str()
                                            : A.str());
    } else if (TakesNext("-o") || TakesNext("-MF") || TakesNext("-MT") ||
               TakesNext("-MQ")) {
      ++I;
    } else if (Verbose && A.starts_with("-")) {
      Err << "shmem-lint: note: ignoring compile flag '" << A << "'\n";
    }
  }
  return Out;
}

int parseCommandLine(int Argc, const char **Argv, DriverOptions &Opts,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  ToolLayout Layout = ToolLayout::find(Argv[0]);
  std::vector<std::string> Files, ExtraArgs;
  std::string BuildDir, CudaSetting = "auto", Arch;
  std::vector<std::string> CheckGlobs = {"shmem-*"};
  bool SawDashDash = false;
  int ColorSetting = -1;

  auto Fail = [&](const llvm::Twine &Msg) {
    Err << "shmem-lint: error: " << Msg << "\n"
        << "Run 'shmem-lint --help' for usage.\n";
    return 2;
  };
  auto ParseUnsigned = [&](llvm::StringRef V, unsigned &Dst) {
    return !V.getAsInteger(10, Dst);
  };
  auto ParseBool = [&](llvm::StringRef V, bool &Dst) {
    if (V == "1" || V == "true" || V == "on") {
      Dst = true;
      return true;
    }
    if (V == "0" || V == "false" || V == "off") {
      Dst = false;
      return true;
    }
    return false;
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
    if (A == "--") {
      SawDashDash = true;
    } else if (A == "--help" || A == "-h") {
      Out << Usage;
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
        if (K <= unsigned(CheckKind::Race))
          Out << checkName(CheckKind(K)) << "  "
              << checkSummary(CheckKind(K)) << "\n";
      return 0;
    } else if (A == "--verbose" || A == "-v") {
      Opts.Verbose = true;
    } else if (A == "--color") {
      ColorSetting = 1;
    } else if (A == "--no-color") {
      ColorSetting = 0;
    } else if ((R = Value("-p", BuildDir))) {
      if (R < 0)
        return Fail("-p needs a directory");
    } else if ((R = Value("--checks", V))) {
      if (R < 0)
        return Fail("--checks needs a value");
      CheckGlobs.clear();
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(V).split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        CheckGlobs.push_back(P.trim().str());
    } else if ((R = Value("--block-dim", V))) {
      auto D = R > 0 ? Dim3::parse(V) : std::nullopt;
      if (!D)
        return Fail("invalid --block-dim '" + V + "'; expected e.g. 256 or 32x8");
      Opts.Analysis.BlockDim = D;
    } else if ((R = Value("--warp-size", V))) {
      if (R < 0 || !ParseUnsigned(V, Opts.Analysis.WarpSize) ||
          Opts.Analysis.WarpSize == 0 || Opts.Analysis.WarpSize > 64)
        return Fail("invalid --warp-size '" + V + "'");
    } else if ((R = Value("--min-degree", V))) {
      if (R < 0 || !ParseUnsigned(V, Opts.Analysis.MinDegree))
        return Fail("invalid --min-degree '" + V + "'");
    } else if ((R = Value("--report-conditional", V))) {
      if (R < 0 || !ParseBool(V, Opts.Analysis.ReportConditional))
        return Fail("invalid --report-conditional '" + V + "'");
    } else if ((R = Value("--report-benign", V))) {
      if (R < 0 || !ParseBool(V, Opts.Analysis.ReportBenign))
        return Fail("invalid --report-benign '" + V + "'");
    } else if ((R = Value("--cuda-path", CudaSetting))) {
      if (R < 0)
        return Fail("--cuda-path needs a value");
    } else if ((R = Value("--cuda-gpu-arch", Arch)) ||
               (R = Value("--cuda-arch", Arch))) {
      if (R < 0)
        return Fail("--cuda-gpu-arch needs a value");
    } else if ((R = Value("--format", Opts.Format))) {
      if (R < 0)
        return Fail("--format needs a value");
    } else if ((R = Value("-o", Opts.OutputFile))) {
      if (R < 0)
        return Fail("-o needs a file");
    } else if ((R = Value("--export-fixes", Opts.ExportFixes))) {
      if (R < 0)
        return Fail("--export-fixes needs a file");
    } else if (A.starts_with("-") && A != "-") {
      return Fail("unknown option '" + A + "'");
    } else {
      Files.push_back(A.str());
    }
  }

  OutputFormat ParsedFormat;
  if (!parseOutputFormat(Opts.Format, ParsedFormat))
    return Fail("unknown --format '" + Opts.Format + "'; expected " +
                outputFormatNames());

  Opts.Color = ColorSetting >= 0 ? ColorSetting == 1
                                 : (Opts.OutputFile.empty() &&
                                    llvm::sys::Process::StandardOutIsDisplayed());

  for (unsigned K = 0; K < NumCheckKinds; ++K) {
    bool On = false;
    for (const std::string &G : CheckGlobs) {
      bool Neg = !G.empty() && G[0] == '-';
      if (globMatches(Neg ? llvm::StringRef(G).drop_front() : llvm::StringRef(G),
                      checkName(CheckKind(K))))
        On = !Neg;
    }
    Opts.Analysis.enable(CheckKind(K), On);
  }
  if (Opts.Analysis.Enabled.none())
    return Fail("--checks selects no check; known checks are shmem-bank-conflict, "
                "shmem-divergent-barrier and shmem-race");

  std::string Toolkit = findToolkit(CudaSetting);
  if (!Toolkit.empty() && CudaSetting != "auto") {
    llvm::SmallString<256> P(Toolkit);
    llvm::sys::path::append(P, "include", "cuda_runtime.h");
    if (!llvm::sys::fs::exists(P))
      return Fail("no CUDA toolkit at '" + Toolkit +
                  "' (no include/cuda_runtime.h); use --cuda-path=none to use "
                  "shmem-lint's own CUDA header");
  }
  std::vector<std::string> CudaFlags;
  if (Toolkit.empty()) {
    CudaFlags = ownHeaderFlags(Layout);
    llvm::SmallString<256> H(Layout.CudaHeaders);
    llvm::sys::path::append(H, "shmem_lint_cuda.h");
    if (!llvm::sys::fs::exists(H))
      return Fail("shmem-lint's CUDA header is missing (looked for '" + H +
                  "'); reinstall shmem-lint");
  } else {
    CudaFlags = {"--cuda-path=" + Toolkit};
  }
  if (Opts.Verbose)
    Err << "shmem-lint: CUDA headers: "
        << (Toolkit.empty() ? "shmem-lint's own (" + Layout.CudaHeaders + ")"
                            : "toolkit at " + Toolkit)
        << "\n";

  // Device code is analysed once, for one architecture: the one asked for,
  // else the lowest the build compiles for, else sm_80.
  auto BaseArgs = [&](const std::string &FileArch) {
    std::string A = !Arch.empty() ? Arch : !FileArch.empty() ? FileArch
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
                                     "-w"};
    Args.insert(Args.end(), CudaFlags.begin(), CudaFlags.end());
    return Args;
  };

  if (!BuildDir.empty()) {
    std::string ErrMsg;
    auto DB = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir,
                                                                     ErrMsg);
    if (!DB)
      return Fail("cannot read a compile database in '" + BuildDir +
                  "': " + ErrMsg);
    std::vector<std::string> Wanted = Files;
    if (Wanted.empty())
      for (const std::string &F : DB->getAllFiles())
        if (isCudaSource(F))
          Wanted.push_back(F);
    for (const std::string &F : Wanted) {
      llvm::SmallString<256> Abs(F);
      llvm::sys::fs::make_absolute(Abs);
      auto Cmds = DB->getCompileCommands(Abs);
      if (Cmds.empty())
        Cmds = DB->getCompileCommands(F);
      if (Cmds.empty()) {
        Err << "shmem-lint: warning: '" << F
            << "' is not in the compile database; analysing it without its "
               "flags\n";
        FileJob J{Abs.str().str(), ".", BaseArgs("")};
        J.Args.insert(J.Args.end(), ExtraArgs.begin(), ExtraArgs.end());
        J.Args.push_back(J.File);
        Opts.Jobs.push_back(std::move(J));
        continue;
      }
      const auto &C = Cmds.front();
      // nvcc's flags become clang's: response files expanded, -gencode
      // mapped to --cuda-gpu-arch, host-compiler wrappers unwrapped,
      // nvcc-only flags dropped.
      TranslatedCommand T = translateCompileCommand(C.CommandLine, C.Directory);
      for (const std::string &E : T.Errors)
        Err << "shmem-lint: warning: " << C.Filename << ": " << E << "\n";
      for (const std::string &W : T.Warnings)
        Err << "shmem-lint: warning: " << C.Filename << ": " << W << "\n";
      if (Opts.Verbose)
        for (const std::string &D : T.Dropped)
          Err << "shmem-lint: note: " << C.Filename << ": " << D << "\n";
      FileJob J{T.InputFile.empty() ? C.Filename : T.InputFile, C.Directory,
                BaseArgs(T.CudaArchs.empty() ? "" : T.CudaArchs.front())};
      llvm::SmallString<256> Path(J.File);
      if (!llvm::sys::path::is_absolute(Path)) {
        Path = C.Directory;
        llvm::sys::path::append(Path, J.File);
      }
      J.File = Path.str().str();
      for (const std::string &A : T.Args) {
        // The driver picks the one architecture and the language itself.
        llvm::StringRef AR(A);
        if (AR.starts_with("--cuda-gpu-arch=") || AR == "-x" || AR == "cuda" ||
            AR == "cu")
          continue;
        J.Args.push_back(A);
      }
      J.Args.insert(J.Args.end(), ExtraArgs.begin(), ExtraArgs.end());
      J.Args.push_back(J.File);
      Opts.Jobs.push_back(std::move(J));
    }
    if (Opts.Jobs.empty())
      return Fail("the compile database in '" + BuildDir +
                  "' lists no CUDA files");
    (void)flagsFromDatabase;
    return -1;
  }

  if (Files.empty())
    return Fail("no input files");
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  for (const std::string &F : Files) {
    FileJob J{F, Cwd.str().str(), BaseArgs("")};
    J.Args.insert(J.Args.end(), ExtraArgs.begin(), ExtraArgs.end());
    J.Args.push_back(F);
    Opts.Jobs.push_back(std::move(J));
  }
  return -1;
}

/// The repository root for relative paths: the nearest directory above the
/// working directory holding .git, else the working directory.
static std::string repoRoot() {
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
                 llvm::raw_ostream &Out) {
  OutputFormat F = OutputFormat::Text;
  parseOutputFormat(Opts.Format, F);
  OutputContext Ctx;
  Ctx.ToolVersion = SHMEM_LINT_VERSION;
  Ctx.RepoRoot = repoRoot();
  Ctx.Color = Opts.Color;
  Ctx.Verbose = Opts.Verbose;
  writeFindings(Out, F, Findings, Ctx);
  if (!Opts.ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream Y(Opts.ExportFixes, EC);
    if (EC) {
      llvm::errs() << "shmem-lint: error: cannot write '" << Opts.ExportFixes
                   << "': " << EC.message() << "\n";
      return;
    }
    writeExportFixesYaml(Y, Opts.Jobs.empty() ? "" : Opts.Jobs.front().File,
                         Findings);
  }
}

} // namespace shmem

int main(int Argc, const char **Argv) {
  shmem::DriverOptions Opts;
  int R = shmem::parseCommandLine(Argc, Argv, Opts, llvm::outs(), llvm::errs());
  if (R >= 0)
    return R;
  return shmem::runDriver(Opts, llvm::outs(), llvm::errs());
}
