//===- Explain.cpp - `shmem-lint explain` ---------------------------------===//

#include "Explain.h"
#include "ExplorerPage.h"
#include "ResidueLabPage.h"

#include "DriverOptions.h"

#include "BankPicture.h"
#include "Checks/Checks.h"
#include "ResidueLab.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sstream>

#ifndef SHMEM_LINT_RESOURCE_DIR
#error "SHMEM_LINT_RESOURCE_DIR must name the clang resource directory"
#endif

using namespace clang;

namespace shmem {
namespace {

const char *const ExplainUsage =
    R"(USAGE: shmem-lint explain --shape RxC --type T --index EXPR [--block SHAPE] [--store] [--format=html]
       shmem-lint explain --modulus M --step S [--format=html]

Shows how one shared-memory access maps the lanes of a warp to banks,
before any code is written.

  --shape RxC       the array: __shared__ T tile[R][C] (or N for tile[N])
  --type T          its element type: float, double, int, char, short,
                    float2, float4, int4, double2, ... (default float)
  --index EXPR      the access, naming the array 'tile': 'tile[lane][5]',
                    'tile[warp][lane * 2]', 'tile[threadIdx.y][threadIdx.x]';
                    lane = tid % 32, warp = tid / 32, tid = the linear
                    thread id (threadIdx.x + blockDim.x * threadIdx.y + ...)
  --block SHAPE     the block: 32 (default), 256, 32x8, 16x16
  --store           the access writes (default: reads)

  It prints the worst warp's lane -> bank table, the wavefronts and the
  degree, as the shmem-bank-conflict check computes them, and the same
  after padding the rows and after an XOR swizzle (col ^ row), with the
  shared memory each layout costs.

  --modulus M --step S   the residue lab: from 0, add S modulo M until back
                    at 0; prints the residues visited and the period
                    M / gcd(M, S). An analogy for strides over 32 banks.

  --format=html     a page instead of text: for an access, the layout
                    explorer (change the row length, padding, type,
                    swizzle and block, and watch the picture); for the
                    residue lab, the lab to step through

)";

struct ExplainArgs {
  std::string Shape, Type = "float", Index, Block, Format = "text";
  bool Store = false;
  std::optional<std::string> Modulus, Step;
};

int fail(llvm::raw_ostream &Err, const llvm::Twine &Msg) {
  Err << "shmem-lint explain: error: " << Msg << "\n"
      << "Run 'shmem-lint explain --help' for usage.\n";
  return 2;
}

/// Errors (and their line in the synthesised file) while parsing it.
class ErrorCollector : public DiagnosticConsumer {
public:
  struct Error {
    unsigned Line = 0;
    std::string Message;
  };
  std::vector<Error> Errors;

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    Error E;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    E.Message = Text.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Info.getLocation()));
      if (P.isValid() &&
          SM.isWrittenInMainFile(SM.getFileLoc(Info.getLocation())))
        E.Line = P.getLine();
    }
    Errors.push_back(std::move(E));
  }
};

struct Collected : FindingSink {
  std::vector<Finding> Findings;
  /// What the analysis of the synthesised kernel left out, said after the
  /// pictures (its locations are in no file the user wrote).
  std::vector<std::string> Gaps;
  void report(const Finding &F) override {
    if (F.Check == CheckKind::BankConflict && F.Picture)
      Findings.push_back(F);
  }
  void reportGap(const AnalysisGap &G) override {
    Gaps.push_back(G.message());
  }
};

bool validTypeName(llvm::StringRef T) {
  if (T.trim().empty())
    return false;
  for (char C : T)
    if (!(llvm::isAlnum(C) || C == '_' || C == ' ' || C == ':'))
      return false;
  return true;
}

/// "32x32" -> {32, 32}; "64" -> {64}.
std::optional<std::vector<uint64_t>> parseShape(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  S.trim().split(Parts, 'x');
  if (Parts.empty() || Parts.size() > 2)
    return std::nullopt;
  std::vector<uint64_t> Dims;
  uint64_t Total = 1;
  for (llvm::StringRef P : Parts) {
    uint64_t D;
    if (P.trim().getAsInteger(10, D) || D == 0 || D > 65536)
      return std::nullopt;
    Dims.push_back(D);
    Total *= D;
  }
  if (Total > (uint64_t(1) << 18))
    return std::nullopt;
  return Dims;
}

// Lines of the synthesised kernel, for error messages.
constexpr unsigned DeclLine = 3, AccessLine = 7;

std::string synthesise(const ExplainArgs &A, const std::vector<uint64_t> &Dims,
                       const Dim3 &Block) {
  std::ostringstream OS;
  OS << "// shmem-lint: block=" << Block.str() << "\n" // 1
     << "__global__ void shmem_lint_explain() {\n"     // 2
     << "  __shared__ " << A.Type << " tile";          // 3
  for (uint64_t D : Dims)
    OS << "[" << D << "]";
  OS << ";\n"
     << "  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + "
        "blockDim.y * threadIdx.z);\n"                         // 4
     << "  const unsigned lane = tid % 32, warp = tid / 32;\n" // 5
     << "  (void)lane; (void)warp;\n";                         // 6
  if (A.Store)
    OS << "  (" << A.Index << ") = {};\n"; // 7
  else
    OS << "  auto x = (" << A.Index << ");\n  (void)x;\n"; // 7
  OS << "}\n";
  return OS.str();
}

int explainResidues(const ExplainArgs &A, llvm::raw_ostream &Out,
                    llvm::raw_ostream &Err) {
  if (!A.Modulus || !A.Step)
    return fail(Err, "the residue lab needs both --modulus and --step");
  if (!A.Shape.empty() || !A.Index.empty() || !A.Block.empty() || A.Store)
    return fail(Err, "--modulus/--step (the residue lab) cannot be combined "
                     "with --shape, --index, --block or --store");
  uint64_t M;
  int64_t S;
  if (llvm::StringRef(*A.Modulus).trim().getAsInteger(10, M) || M == 0 ||
      M > MaxResidueModulus)
    return fail(Err, "invalid --modulus '" + *A.Modulus +
                         "'; expected an integer from 1 to " +
                         llvm::Twine(MaxResidueModulus));
  if (llvm::StringRef(*A.Step).trim().getAsInteger(10, S))
    return fail(Err, "invalid --step '" + *A.Step + "'; expected an integer");
  std::optional<ResidueOrbit> O = residueOrbit(M, S);
  if (!O)
    return fail(Err, "invalid --modulus '" + *A.Modulus + "'");
  if (A.Format == "html")
    writeResidueLabPage(Out, M, S);
  else
    Out << describeResidueOrbit(*O);
  return 0;
}

std::string padRight(std::string S, size_t N) {
  if (S.size() < N)
    S.append(N - S.size(), ' ');
  return S;
}

void summaryTable(llvm::raw_ostream &Out, const BankPicture &P) {
  struct Row {
    std::string Name;
    const LayoutPicture *L;
  };
  std::vector<Row> Rows = {{"as written", &P.Original}};
  if (P.Padded)
    Rows.push_back({"padded", &*P.Padded});
  if (P.Swizzled)
    Rows.push_back({"XOR swizzle", &*P.Swizzled});
  size_t LayoutW = 6;
  for (const Row &R : Rows)
    LayoutW = std::max(LayoutW, R.L->Layout.size());
  Out << "summary:\n  " << padRight("layout", 12) << padRight("", LayoutW)
      << "  wavefronts  conflict  shared memory\n";
  for (const Row &R : Rows) {
    std::string Bytes = R.L->SharedBytes < 0
                            ? "?"
                            : std::to_string(R.L->SharedBytes) + " bytes";
    if (R.L != &P.Original && R.L->SharedBytes >= 0 &&
        P.Original.SharedBytes >= 0) {
      int64_t D = R.L->SharedBytes - P.Original.SharedBytes;
      Bytes += " (" + std::string(D >= 0 ? "+" : "") + std::to_string(D) + ")";
    }
    std::string Deg =
        R.L->Degree > 1 ? std::to_string(R.L->Degree) + "-way" : "none";
    Out << "  " << padRight(R.Name, 12) << padRight(R.L->Layout, LayoutW)
        << "  " << padRight(std::to_string(R.L->Wavefronts), 10) << "  "
        << padRight(Deg, 8) << "  " << Bytes << "\n";
  }
}

int explainIndex(const char *Argv0, const ExplainArgs &A,
                 llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  if (A.Shape.empty())
    return fail(Err, "--shape is required (e.g. --shape 32x32)");
  if (A.Index.empty())
    return fail(Err, "--index is required (e.g. --index 'tile[lane][5]')");
  std::optional<std::vector<uint64_t>> Dims = parseShape(A.Shape);
  if (!Dims)
    return fail(Err, "invalid --shape '" + A.Shape +
                         "'; expected ROWSxCOLUMNS (e.g. 32x32) or N, each "
                         "from 1 to 65536, at most 262144 elements");
  if (!validTypeName(A.Type))
    return fail(Err, "invalid --type '" + A.Type +
                         "'; expected a type name such as float or float4");
  llvm::StringRef Index = A.Index;
  if (Index.trim().empty() || Index.contains(';') || Index.contains('{') ||
      Index.contains('}') || Index.contains('\n') || Index.contains("//") ||
      Index.contains("/*"))
    return fail(Err, "invalid --index '" + A.Index +
                         "'; expected one expression such as 'tile[lane][5]'");
  if (!Index.contains("tile"))
    return fail(Err, "--index '" + A.Index +
                         "' does not use the array; name it 'tile', as in "
                         "'tile[lane][5]'");
  Dim3 Block{32, 1, 1};
  if (!A.Block.empty()) {
    std::optional<Dim3> B = Dim3::parse(A.Block);
    if (!B || B->count() == 0 || B->count() > 1024)
      return fail(Err, "invalid --block '" + A.Block +
                           "'; expected e.g. 32, 256 or 32x8 (at most 1024 "
                           "threads)");
    Block = *B;
  }

  ToolLayout Layout = ToolLayout::find(Argv0);
  llvm::SmallString<256> Header(Layout.CudaHeaders);
  llvm::sys::path::append(Header, "shmem_lint_cuda.h");
  if (!llvm::sys::fs::exists(Header)) {
    // An installation problem, not a usage one: no pointer to --help.
    Err << "shmem-lint explain: error: " << Layout.missingHeader(Header)
        << "\n";
    return 2;
  }

  std::string Code = synthesise(A, *Dims, Block);
  // As the driver parses a file without a toolkit (ownHeaderFlags in
  // DriverOptions.cpp): device side, one architecture, our CUDA header.
  // clang-format off
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80",
      "-resource-dir", SHMEM_LINT_RESOURCE_DIR, "-Wno-unknown-cuda-version",
      "-w", "-nocudainc", "-nocudalib", "-isystem", Layout.CudaHeaders,
      "-include", "shmem_lint_cuda.h", "-std=c++17"};
  // clang-format on
  ErrorCollector Diags;
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      Code, Args, "shmem-lint-explain.cu", "shmem-lint",
      std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), {}, &Diags);
  if (!AST || !Diags.Errors.empty()) {
    std::string What = "the access '" + A.Index + "'";
    std::string Msg = Diags.Errors.empty() ? "clang could not parse it"
                                           : Diags.Errors.front().Message;
    if (!Diags.Errors.empty() && Diags.Errors.front().Line == DeclLine)
      What = "the declaration '__shared__ " + A.Type + " tile" +
             (Dims->size() == 2 ? "[" + std::to_string((*Dims)[0]) + "][" +
                                      std::to_string((*Dims)[1]) + "]"
                                : "[" + std::to_string((*Dims)[0]) + "]") +
             "' (from --type and --shape)";
    else if (!Diags.Errors.empty() && Diags.Errors.front().Line != AccessLine &&
             Diags.Errors.front().Line != 0)
      What = "the synthesised kernel";
    return fail(Err, What + " does not compile: " + Msg);
  }

  ASTContext &Ctx = AST->getASTContext();
  AnalysisOptions Opts;
  Opts.BlockDim = Block;
  Opts.enable(CheckKind::BankConflict);
  // First as the check runs by default, so that its messages and padding
  // are what a user would see; then with MinDegree 1, which reports every
  // access, for the pictures of the conflict-free ones.
  Collected Default, All;
  runChecks(Ctx, Opts, Default);
  Opts.MinDegree = 1;
  runChecks(Ctx, Opts, All);
  // Each access once, in source order: the default run's finding if it
  // reported one there.
  std::vector<std::pair<const Finding *, bool>> Shown;
  for (const Finding &F : All.Findings) {
    const Finding *Use = &F;
    bool Reported = false;
    for (const Finding &D : Default.Findings)
      if (D.Loc == F.Loc) {
        Use = &D;
        Reported = true;
        break;
      }
    Shown.push_back({Use, Reported});
  }
  if (Shown.empty())
    return fail(Err, "the access '" + A.Index +
                         "' could not be modelled: it reads no element of "
                         "'tile' with at least two active lanes, or its "
                         "address depends on data");

  if (A.Format == "html") {
    ExplorerInput In;
    In.Type = A.Type;
    In.Dims = *Dims;
    In.Index = A.Index;
    In.Store = A.Store;
    In.BlockX = Block.X;
    In.BlockY = Block.Y;
    In.BlockZ = Block.Z;
    for (const auto &[F, Reported] : Shown)
      In.Accesses.push_back(
          {Lexer::getSourceText(CharSourceRange::getTokenRange(F->Range),
                                Ctx.getSourceManager(), Ctx.getLangOpts())
               .str(),
           Reported, Reported ? F->Message : std::string(), &*F->Picture});
    writeExplorerPage(Out, In);
    return 0;
  }
  std::string Decl = "__shared__ " + A.Type + " tile";
  for (uint64_t D : *Dims)
    Decl += "[" + std::to_string(D) + "]";
  Out << "access:  " << (A.Store ? "" : "x = ") << A.Index
      << (A.Store ? " = ..." : "") << "\n"
      << "array:   " << Decl << "\n"
      << "block:   " << Block.str() << " (" << (Block.count() + 31) / 32
      << (Block.count() > 32 ? " warps" : " warp")
      << "); lane = tid % 32, warp = tid / 32, tid = linear thread id\n";
  for (size_t I = 0; I < Shown.size(); ++I) {
    const Finding &F = *Shown[I].first;
    bool Reported = Shown[I].second;
    const BankPicture &P = *F.Picture;
    Out << "\n";
    if (Shown.size() > 1) {
      std::string Text =
          Lexer::getSourceText(CharSourceRange::getTokenRange(F.Range),
                               Ctx.getSourceManager(), Ctx.getLangOpts())
              .str();
      Out << "access " << I + 1 << " of " << Shown.size()
          << (Text.empty() ? "" : ": " + Text) << "\n";
    }
    if (Reported)
      Out << "shmem-bank-conflict: " << F.Message << "\n";
    else
      Out << "no bank conflict: " << describeLayoutCost(P.Original)
          << " (the ideal for this " << P.WidthBytes << "-byte "
          << (P.Store ? "store" : "load") << ")\n";
    // Addresses past the array are analysed like any other, but say so.
    if (P.Original.SharedBytes > 0)
      for (size_t L = 0; L < P.Original.LaneBank.size(); ++L)
        if (P.Original.LaneBank[L] >= 0 &&
            (P.Original.LaneWord[L] < 0 ||
             P.Original.LaneWord[L] * 4 >= P.Original.SharedBytes)) {
          Out << "note: lane " << L << " (and maybe others) accesses beyond "
              << "the " << P.Original.SharedBytes << " bytes of 'tile'\n";
          break;
        }
    Out << "\n" << renderBankPictureText(P) << "\n";
    summaryTable(Out, P);
  }
  for (const std::string &G : Default.Gaps)
    Out << "note: not fully analysed: " << G << "\n";
  return 0;
}

} // namespace

int runExplain(const char *Argv0, int Argc, const char **Argv,
               llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  ExplainArgs A;
  if (Argc == 0) {
    Out << ExplainUsage;
    return 2;
  }
  for (int I = 0; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--help" || Arg == "-h") {
      Out << ExplainUsage;
      return 0;
    }
    if (Arg == "--store") {
      A.Store = true;
      continue;
    }
    bool Known = false;
    int Missing = 0;
    auto Value = [&](llvm::StringRef Name, auto &Dst) {
      if (Known)
        return;
      if (Arg.starts_with(Name.str() + "=")) {
        Dst = Arg.substr(Name.size() + 1).str();
        Known = true;
      } else if (Arg == Name) {
        Known = true;
        if (I + 1 >= Argc)
          Missing = 1;
        else
          Dst = std::string(Argv[++I]);
      }
    };
    Value("--shape", A.Shape);
    Value("--type", A.Type);
    Value("--index", A.Index);
    Value("--block", A.Block);
    Value("--block-dim", A.Block);
    Value("--modulus", A.Modulus);
    Value("--step", A.Step);
    Value("--format", A.Format);
    if (Missing)
      return fail(Err, Arg + " needs a value");
    if (!Known)
      return fail(Err, Arg.starts_with("-")
                           ? "unknown option '" + Arg + "'"
                           : "unexpected argument '" + Arg + "'");
  }
  if (A.Format != "text" && A.Format != "html")
    return fail(Err, "invalid --format '" + A.Format + "'; expected text or html");
  if (A.Modulus || A.Step)
    return explainResidues(A, Out, Err);
  return explainIndex(Argv0, A, Out, Err);
}

} // namespace shmem
