//===- ShmemLint.cpp - The shmem-lint command -----------------------------===//
//
//   shmem-lint [options] FILE... [-- COMPILER-ARGS]
//   shmem-lint -p BUILD-DIR [options] [FILE...]
//
// Exit status: 0 when clean, 1 when there are findings (or some files could
// not be analysed), 2 on usage errors or when no file could be analysed.
// --exit-zero makes findings alone exit 0, unless one is a warning promoted
// to an error (--warnings-as-errors), as clang-tidy fails then.
// Parts of kernels not analysed (gaps) are said but leave it alone.
//
//===----------------------------------------------------------------------===//

#include "AsmEscapeRewrite.h"
#include "Baseline.h"
#include "NvccSyntaxRewrite.h"
#include "DriverOptions.h"
#include "FindingEvidence.h"
#include "NcuSourceReport.h"
#include "NvccListing.h"
#include "OutputFormats.h"
#include "ReportedFinding.h"
#include "SharedObjectRewrite.h"

#include "Analysis/NoLint.h"
#include "Checks/Checks.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/thread.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

using namespace clang;

namespace shmem {
namespace {

/// Converts findings to file positions while the SourceManager is alive,
/// applying NOLINT and skipping system headers.
class DriverSink : public FindingSink {
public:
  DriverSink(const SourceManager &SM, std::vector<ReportedFinding> &Out,
             std::vector<ReportedGap> &Gaps, std::set<std::string> &Seen)
      : SM(SM), NoLint(SM), Out(Out), Gaps(Gaps), Seen(Seen) {}

  ReportedLocation resolve(SourceLocation L) {
    ReportedLocation R;
    if (L.isInvalid())
      return R;
    SourceLocation F = SM.getFileLoc(L);
    PresumedLoc P = SM.getPresumedLoc(F);
    if (P.isInvalid())
      return R;
    R.File = P.getFilename();
    R.Line = P.getLine();
    R.Column = P.getColumn();
    return R;
  }

  void report(const Finding &F) override {
    StringRef Check = checkName(F.Check);
    if (F.Loc.isInvalid() || SM.isInSystemHeader(SM.getFileLoc(F.Loc)))
      return;
    if (NoLint.suppressed(F.Loc, Check))
      return;
    ReportedFinding R;
    R.Check = Check.str();
    R.Loc = resolve(F.Loc);
    R.Message = F.Message;
    R.Detail = F.Detail;
    R.Weight = F.Weight;
    R.Picture = F.Picture;
    for (const FindingNote &N : F.Notes)
      R.Notes.push_back({resolve(N.Loc), N.Message});
    for (const FixItHint &H : F.Fixes) {
      CharSourceRange CR = H.RemoveRange;
      if (CR.isInvalid())
        continue;
      SourceLocation B = SM.getFileLoc(CR.getBegin());
      SourceLocation E = SM.getFileLoc(CR.getEnd());
      if (CR.isTokenRange())
        E = Lexer::getLocForEndOfToken(E, 0, SM, LangOptions());
      ReportedFix X;
      X.File = resolve(B).File;
      X.Offset = SM.getFileOffset(B);
      X.Length = SM.getFileOffset(E) - X.Offset;
      X.Line = SM.getSpellingLineNumber(B);
      X.Column = SM.getSpellingColumnNumber(B);
      X.Replacement = H.CodeToInsert;
      R.Fixes.push_back(X);
    }
    // Not runChecks' rule but the front ends': the same text at the same
    // printed position is shown once (two accesses in one macro expansion
    // print at the expansion), as clang-tidy drops duplicate diagnostics.
    std::string Key = R.Check + "|" + R.Loc.File + ":" +
                      std::to_string(R.Loc.Line) + ":" +
                      std::to_string(R.Loc.Column) + "|" + R.Message;
    if (!Seen.insert(Key).second)
      return;
    Out.push_back(std::move(R));
  }

  /// As findings: not in system headers (whose findings are not shown
  /// either), and `// NOLINT(check)` covers the gaps of that check.
  void reportGap(const AnalysisGap &G) override {
    if (G.Loc.isValid() && SM.isInSystemHeader(SM.getFileLoc(G.Loc)))
      return;
    std::string Check = G.Check ? checkName(*G.Check).str() : "";
    if (!Check.empty() && NoLint.suppressed(G.Loc, Check))
      return;
    ReportedGap R;
    R.Check = Check;
    R.Loc = resolve(G.Loc);
    R.What = G.What;
    R.Why = G.Why;
    R.Kernel = G.Kernel;
    R.Block = G.Block;
    R.NeverInstantiated = G.NeverInstantiated;
    for (const FindingNote &N : G.Notes)
      R.Notes.push_back({resolve(N.Loc), N.Message});
    Gaps.push_back(std::move(R));
  }

private:
  const SourceManager &SM;
  NoLintIndex NoLint;
  std::vector<ReportedFinding> &Out;
  std::vector<ReportedGap> &Gaps;
  std::set<std::string> &Seen;
};

/// What analysing one file produced. Workers fill one each; the main thread
/// prints and merges them in file order, so the output does not depend on -j.
struct JobResult {
  std::vector<ReportedFinding> Findings;
  std::vector<ReportedGap> Gaps;
  /// clang's diagnostics and the driver's messages about this file.
  std::string Messages;
  RunStats Stats;
  bool Analysed = false;
  /// The parse met what clang refuses and nvcc accepts: __shared__ objects
  /// with constructors (SharedObjectRewrite.h), inline-asm `%` that names
  /// no operand (AsmEscapeRewrite.h). Not analysed; the edits that write
  /// them as nvcc reads them, or why none.
  std::set<SourceLocation::UIntTy> RefusedShared;
  std::set<SourceLocation::UIntTy> AsmEscapes;
  std::map<std::string, std::vector<TextEdit>> DialectEdits;
  std::string RewriteWhy;
  /// The parse failed where clang refused syntax nvcc accepts
  /// (NvccSyntaxRewrite.h): the edits that write it as nvcc reads it.
  std::map<std::string, std::vector<TextEdit>> SyntaxEdits;
  bool refusedDialect() const {
    return !RefusedShared.empty() || !AsmEscapes.empty();
  }
  /// What the file launches, defines and instantiates, for the other files
  /// of the run (ProjectLaunches.h).
  TranslationUnitLaunches Launches;
};

/// How a file is analysed as one of a run's files, which the driver takes
/// as one program (ProjectLaunches.h).
struct ProjectPass {
  /// The first pass, with other files to come: say what the file launches
  /// and defines.
  bool Describe = false;
  /// The second: the launches other files make of its kernels.
  const ProjectLaunches *Elsewhere = nullptr;
};

class LintConsumer : public ASTConsumer {
public:
  LintConsumer(const FileJob &Job, const ProjectPass &Pass, JobResult &R)
      : Job(Job), Pass(Pass), R(R) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    if (R.refusedDialect()) {
      // Refused declarations make every use of them an error clang did not
      // print, and a refused asm statement is dropped: analysed after the
      // rewrite, not now.
      if (!R.RefusedShared.empty())
        findSharedObjectEdits(Ctx, Job.Directory, R.RefusedShared,
                              R.DialectEdits, R.RewriteWhy);
      if (R.RewriteWhy.empty() && !R.AsmEscapes.empty())
        findAsmEscapeEdits(Ctx.getSourceManager(), Job.Directory,
                           R.AsmEscapes, R.DialectEdits, R.RewriteWhy);
      return;
    }
    std::set<std::string> Seen;
    DriverSink Sink(Ctx.getSourceManager(), R.Findings, R.Gaps, Seen);
    for (const AnalysisOptions &Run : Job.Runs) {
      // Every run sees the same launches: the first one says them.
      ProjectExchange Project;
      Project.Elsewhere = Pass.Elsewhere;
      if (Pass.Describe && &Run == &Job.Runs.front())
        Project.Here = &R.Launches;
      RunStats S = runChecks(Ctx, Run, Sink, Project);
      // Kernels are counted once however many runs cover them.
      R.Stats.Kernels = std::max(R.Stats.Kernels, S.Kernels);
      R.Stats.Shapes += S.Shapes;
      R.Stats.SharedAccesses += S.SharedAccesses;
      R.Stats.Barriers += S.Barriers;
    }
    // By the file's settings, as clang-tidy promotes by the configuration
    // of the file it analyses, also in the headers that file includes.
    for (ReportedFinding &F : R.Findings) {
      CheckKind Kind;
      F.WarningAsError = checkFromName(F.Check, Kind) &&
                         Job.WarningsAsErrors.test(unsigned(Kind));
    }
  }

private:
  const FileJob &Job;
  const ProjectPass &Pass;
  JobResult &R;
};

class LintAction : public ASTFrontendAction {
public:
  LintAction(const FileJob &Job, const ProjectPass &Pass, JobResult &R)
      : Job(Job), Pass(Pass), R(R) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<LintConsumer>(Job, Pass, R);
  }

private:
  const FileJob &Job;
  const ProjectPass &Pass;
  JobResult &R;
};

class LintActionFactory : public tooling::FrontendActionFactory {
public:
  LintActionFactory(const FileJob &Job, const ProjectPass &Pass, JobResult &R,
                    llvm::raw_ostream &Msg)
      : Job(Job), Pass(Pass), R(R), Msg(Msg) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<LintAction>(Job, Pass, R);
  }

  /// FrontendActionFactory::runInvocation(), but clang's "N errors
  /// generated" goes with the file's other messages instead of straight to
  /// stderr, where it would overtake them when files run in parallel.
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    CompilerInstance Compiler(std::move(Invocation), std::move(PCHContainerOps));
    Compiler.setVirtualFileSystem(Files->getVirtualFileSystemPtr());
    Compiler.setFileManager(Files);
    Compiler.setVerboseOutputStream(Msg);
    std::unique_ptr<FrontendAction> Action(create());
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    // A remark, which ErrorPlaces keeps from the output: the driver
    // rewrites what clang refuses there and parses again.
    for (unsigned ID :
         {refusedSharedInitDiagnostic(), invalidAsmEscapeDiagnostic()})
      Compiler.getDiagnostics().setSeverity(ID, diag::Severity::Remark,
                                            SourceLocation());
    Compiler.createSourceManager();
    const bool Success = Compiler.ExecuteAction(*Action);
    Files->clearStatCache();
    return Success;
  }

private:
  const FileJob &Job;
  const ProjectPass &Pass;
  JobResult &R;
  llvm::raw_ostream &Msg;
};

/// One command per file, exactly as the driver built it.
class FixedCommands : public tooling::CompilationDatabase {
public:
  std::map<std::string, tooling::CompileCommand> Commands;
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef File) const override {
    auto It = Commands.find(File.str());
    if (It == Commands.end())
      return {};
    return {It->second};
  }
};

/// Prints clang's diagnostics and notes whether an error came from a file
/// under \p Dir (the toolkit's headers), and where clang refused what the
/// driver rewrites (an initialised __shared__ object, \p Refused; an
/// inline-asm `%`, \p Escapes; syntax such as a launch chevron with blanks
/// inside, whose edits go to \p Syntax): not printed, nor their notes.
class ErrorPlaces : public DiagnosticConsumer {
public:
  ErrorPlaces(DiagnosticConsumer &Next, llvm::StringRef Dir,
              llvm::StringRef Directory,
              std::set<SourceLocation::UIntTy> &Refused,
              std::set<SourceLocation::UIntTy> &Escapes,
              std::map<std::string, std::vector<TextEdit>> &Syntax)
      : Next(Next), Dir(Dir), Directory(Directory), Refused(Refused),
        Escapes(Escapes), Syntax(Syntax) {}
  bool ErrorUnderDir = false;

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    if (Info.getID() == refusedSharedInitDiagnostic() ||
        Info.getID() == invalidAsmEscapeDiagnostic()) {
      (Info.getID() == refusedSharedInitDiagnostic() ? Refused : Escapes)
          .insert(Info.getLocation().getRawEncoding());
      Quiet = true;
      return;
    }
    if (L == DiagnosticsEngine::Error &&
        addNvccSyntaxEdits(Info, Directory, Syntax)) {
      Quiet = true;
      return;
    }
    if (L == DiagnosticsEngine::Note && Quiet)
      return;
    Quiet = false;
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L >= DiagnosticsEngine::Error && !Dir.empty() &&
        Info.getLocation().isValid() && Info.hasSourceManager()) {
      const SourceManager &SM = Info.getSourceManager();
      llvm::StringRef File =
          SM.getFilename(SM.getExpansionLoc(Info.getLocation()));
      ErrorUnderDir |= File.starts_with(Dir);
    }
    Next.HandleDiagnostic(L, Info);
  }

private:
  DiagnosticConsumer &Next;
  std::string Dir, Directory;
  std::set<SourceLocation::UIntTy> &Refused;
  std::set<SourceLocation::UIntTy> &Escapes;
  std::map<std::string, std::vector<TextEdit>> &Syntax;
  bool Quiet = false;
};

/// Parses and analyses one file with \p Args. \p Errors receives clang's
/// messages; false when the file did not parse.
static bool parseAndAnalyse(const FileJob &Job, const ProjectPass &Pass,
                            const std::vector<std::string> &Args,
                            llvm::StringRef VfsOverlay, bool ColorDiagnostics,
                            JobResult &R, llvm::raw_ostream &Errors,
                            bool &ToolkitError);

/// The files clang reads for one parse: the real ones, with --vfsoverlay's
/// YAML laid over them. A file system of its own per parse: ClangTool sets
/// the working directory of the file system it is given, and the real
/// one's is the process's, shared by every worker. Null, with the reason on
/// Msg, when the overlay does not read.
static llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
filesFor(llvm::StringRef VfsOverlay, llvm::raw_ostream &Msg) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real =
      llvm::vfs::createPhysicalFileSystem();
  if (VfsOverlay.empty())
    return Real;
  auto Yaml = llvm::MemoryBuffer::getFile(VfsOverlay);
  if (!Yaml) {
    Msg << "shmem-lint: error: --vfsoverlay: cannot read '" << VfsOverlay
        << "': " << Yaml.getError().message() << "\n";
    return nullptr;
  }
  std::string Why;
  auto Silence = [](const llvm::SMDiagnostic &D, void *Out) {
    *static_cast<std::string *>(Out) = D.getMessage().str();
  };
  std::unique_ptr<llvm::vfs::FileSystem> Redirect = llvm::vfs::getVFSFromYAML(
      std::move(*Yaml), Silence, VfsOverlay, &Why, Real);
  if (!Redirect) {
    Msg << "shmem-lint: error: --vfsoverlay: '" << VfsOverlay
        << "' is not a VFS overlay" << (Why.empty() ? "" : ": ") << Why
        << "\n";
    return nullptr;
  }
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Real);
  Overlay->pushOverlay(std::move(Redirect));
  return Overlay;
}

/// --sass for one analysed file: compiles it with nvcc and notes at each of
/// its bank-conflict findings what nvcc emitted there; a failure is one
/// warning and the findings stay the predictions.
static void addSassEvidence(const FileJob &Job, const SassTools &Tools,
                            JobResult &R, llvm::raw_ostream &Msg) {
  if (llvm::none_of(R.Findings, [](const ReportedFinding &F) {
        return F.Check == checkName(CheckKind::BankConflict);
      }))
    return; // Nothing to say it about: spare the compile.
  std::string Arch = cudaArchOf(Job.Args), Why;
  std::optional<SharedListing> Listing = compileSharedListing(
      Tools, Job.File, Job.Directory, Job.ProjectArgs, Arch, Why);
  if (!Listing) {
    Msg << "shmem-lint: warning: --sass: '" << Job.File
        << "' was not compiled (" << Why
        << "); its findings are the predictions alone\n";
    return;
  }
  addCompiledEvidence(R.Findings, *Listing, Arch, Job.Directory);
}

/// Parses and analyses one file. Runs on a worker thread: everything it
/// touches is its own, and clang's messages go to the result, not stderr.
/// \p Sass: the tools of --sass, when it is on and nvcc was found.
JobResult analyseFile(const FileJob &Job, const ProjectPass &Pass,
                      llvm::StringRef VfsOverlay, bool ColorDiagnostics,
                      const SassTools *Sass) {
  JobResult R;
  llvm::raw_string_ostream Msg(R.Messages);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files =
      filesFor(VfsOverlay, Msg);
  if (!Files)
    return R;
  llvm::SmallString<256> Abs(Job.File);
  llvm::sys::path::make_absolute(Job.Directory, Abs);
  if (!Files->exists(Abs)) {
    Msg << "shmem-lint: error: no such file: '" << Job.File << "'\n";
    return R;
  }
  // What clang would say about a binary is a page of stray characters,
  // and about an empty file nothing at all: one clear line instead.
  if (auto Text = Files->getBufferForFile(Abs)) {
    llvm::StringRef Head = (*Text)->getBuffer().take_front(8192);
    if ((*Text)->getBufferSize() == 0) {
      Msg << "shmem-lint: warning: '" << Job.File
          << "' is empty: nothing to analyse\n";
      R.Analysed = true;
      return R;
    }
    if (Head.contains('\0')) {
      Msg << "shmem-lint: error: '" << Job.File
          << "' is not source text (it holds NUL bytes: a binary?); name "
             "the .cu file\n";
      return R;
    }
  }
  if (!llvm::sys::fs::is_directory(Job.Directory)) {
    Msg << "shmem-lint: error: '" << Job.File
        << "' could not be analysed: its compile directory '" << Job.Directory
        << "' does not exist\n";
    return R;
  }
  if (Job.Runs.empty()) {
    // The file's .clang-tidy and the flags leave no check to run.
    R.Analysed = true;
    return R;
  }
  std::string First;
  llvm::raw_string_ostream FirstMsg(First);
  bool ToolkitError = false;
  if (parseAndAnalyse(Job, Pass, Job.Args, VfsOverlay, ColorDiagnostics, R,
                      FirstMsg, ToolkitError)) {
    Msg << First;
    R.Analysed = true;
    if (Sass)
      addSassEvidence(Job, *Sass, R, Msg);
    return R;
  }
  if (ToolkitError && !Job.OwnHeaderArgs.empty()) {
    // The toolkit's headers did not parse with this file's flags; nvcc
    // would not have read the one that broke. shmem-lint's own header
    // stands in for the toolkit, and the user is told.
    JobResult Retry;
    std::string Second;
    llvm::raw_string_ostream SecondMsg(Second);
    bool Again = false;
    if (parseAndAnalyse(Job, Pass, Job.OwnHeaderArgs, VfsOverlay,
                        ColorDiagnostics, Retry, SecondMsg, Again)) {
      Retry.Messages = R.Messages;
      llvm::raw_string_ostream RetryMsg(Retry.Messages);
      RetryMsg << "shmem-lint: warning: '" << Job.File
               << "': the CUDA toolkit's headers do not parse with its flags "
                  "(a macro such as -DN=64 can clash with a name in cuda.h, "
                  "which clang's CUDA mode includes and nvcc does not); "
                  "analysed with shmem-lint's own CUDA header instead "
                  "(--cuda-path=none says so up front)\n"
               << Second;
      Retry.Analysed = true;
      if (Sass)
        addSassEvidence(Job, *Sass, Retry, RetryMsg);
      return Retry;
    }
  }
  Msg << First << "shmem-lint: error: '" << Job.File
      << "' could not be analysed (see the errors above)\n";
  return R;
}

/// One parse of the file with \p Args over \p Files, analysed unless clang
/// refused what the driver rewrites (R.refusedDialect()).
static bool parseOnce(const FileJob &Job, const ProjectPass &Pass,
                      const std::vector<std::string> &Args,
                      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files,
                      bool ColorDiagnostics, JobResult &R,
                      llvm::raw_ostream &Msg, bool &ToolkitError) {
  // ClangTool looks files up by absolute path.
  llvm::SmallString<256> Abs(Job.File);
  llvm::sys::path::make_absolute(Job.Directory, Abs);
  FixedCommands DB;
  tooling::CompileCommand C(Job.Directory, Abs.str().str(), Args, "");
  DB.Commands[Abs.str().str()] = C;
  tooling::ClangTool Tool(DB, {Abs.str().str()},
                          std::make_shared<PCHContainerOperations>(), Files);
  Tool.clearArgumentsAdjusters();
  Tool.setPrintErrorMessage(false);
  DiagnosticOptions DiagOpts;
  DiagOpts.ShowColors = ColorDiagnostics;
  TextDiagnosticPrinter Printer(Msg, DiagOpts);
  ErrorPlaces Places(Printer, Job.ToolkitInclude, Job.Directory,
                     R.RefusedShared, R.AsmEscapes, R.SyntaxEdits);
  Tool.setDiagnosticConsumer(&Places);
  LintActionFactory F(Job, Pass, R, Msg);
  int RC = Tool.run(&F);
  ToolkitError = Places.ErrorUnderDir;
  return RC == 0;
}

static bool parseAndAnalyse(const FileJob &Job, const ProjectPass &Pass,
                            const std::vector<std::string> &Args,
                            llvm::StringRef VfsOverlay, bool ColorDiagnostics,
                            JobResult &R, llvm::raw_ostream &Msg,
                            bool &ToolkitError) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files =
      filesFor(VfsOverlay, Msg);
  if (!Files)
    return false;
  // Parsed again with what clang refused written as nvcc reads it: first
  // syntax (which fails the parse), then __shared__ objects and asm escapes
  // (found in the parsed AST). Each rewrite lies over the files of
  // the one before, and findings are taken back through all of them.
  std::vector<RewrittenFiles> Rewrites;
  for (;;) {
    std::string Said;
    llvm::raw_string_ostream Out(Said);
    bool Parsed =
        parseOnce(Job, Pass, Args, Files, ColorDiagnostics, R, Out,
                  ToolkitError);
    std::map<std::string, std::vector<TextEdit>> Edits;
    std::string Why;
    // Refused syntax is an error clang counts but the consumer hides, so
    // the parse may read as a success; nothing was analysed.
    const bool Syntax = !R.SyntaxEdits.empty();
    if (Syntax) {
      // What clang said after the refusal is about its recovery.
      Edits = std::move(R.SyntaxEdits);
    } else {
      Msg << Said;
      if (!Parsed)
        return false;
      if (!R.refusedDialect())
        break;
      Edits = std::move(R.DialectEdits);
      Why = R.RewriteWhy;
    }
    if (Rewrites.size() == 2) { // Not one the rewrites could reach.
      Msg << "shmem-lint: error: '" << Job.File << "': clang still refuses "
          << (Syntax                    ? "syntax nvcc accepts"
              : R.RefusedShared.empty() ? "an inline-asm string"
                                        : "a __shared__ object")
          << " after the rewrite\n";
      return false;
    }
    Rewrites.emplace_back();
    if (!Why.empty() ||
        !Rewrites.back().build(Files, std::move(Edits), Job.Directory, Why)) {
      Msg << "shmem-lint: error: " << Why << "\n";
      return false;
    }
    Files = Rewrites.back().files();
    R.RefusedShared.clear();
    R.AsmEscapes.clear();
    R.DialectEdits.clear();
    R.SyntaxEdits.clear();
    R.RewriteWhy.clear();
  }
  for (auto It = Rewrites.rbegin(); It != Rewrites.rend(); ++It)
    It->toOriginal(R.Findings, R.Gaps);
  return true;
}

/// A one-line "[3/40] kernels.cu" on stderr, rewritten in place.
class ProgressLine {
public:
  ProgressLine(llvm::raw_ostream &Err, bool On, size_t Total)
      : Err(Err), On(On), Total(Total) {}
  void show(size_t Done, llvm::StringRef File) {
    if (!On)
      return;
    clear();
    std::string Line = "[" + std::to_string(Done) + "/" +
                       std::to_string(Total) + "] " +
                       llvm::sys::path::filename(File).str();
    Err << Line;
    Err.flush();
    Shown = Line.size();
  }
  void clear() {
    if (!On || !Shown)
      return;
    Err << "\r" << std::string(Shown, ' ') << "\r";
    Err.flush();
    Shown = 0;
  }

private:
  llvm::raw_ostream &Err;
  bool On;
  size_t Total;
  size_t Shown = 0;
};

/// One finding per check and place: a header included from several files
/// is analysed in each (perhaps with other launch shapes), as runChecks()
/// analyses a kernel once per shape.
std::string findingKey(const ReportedFinding &F) {
  return F.Check + "|" + F.Loc.File + ":" + std::to_string(F.Loc.Line) + ":" +
         std::to_string(F.Loc.Column);
}

/// One gap per check, place and reason, across files as within one.
std::string gapKey(const ReportedGap &G) {
  return G.Check + "|" + G.Loc.File + ":" + std::to_string(G.Loc.Line) + ":" +
         std::to_string(G.Loc.Column) + "|" + G.Why;
}

/// --stats: what was analysed and found, one `name: value` per line so
/// that scripts over many projects (bench/corpus/run.sh) can add them up.
void printStats(unsigned Analysed, const std::vector<std::string> &FailedFiles,
                unsigned Again, const RunStats &Stats,
                const std::vector<ReportedFinding> &Findings,
                const std::vector<ReportedGap> &Gaps,
                llvm::raw_ostream &Err) {
  Err << "shmem-lint: stats: files analysed: " << Analysed << "\n";
  Err << "shmem-lint: stats: files not analysed: " << FailedFiles.size()
      << "\n";
  for (const std::string &F : FailedFiles)
    Err << "shmem-lint: stats: not analysed: " << F << "\n";
  Err << "shmem-lint: stats: files analysed again with launches elsewhere: "
      << Again << "\n";
  Err << "shmem-lint: stats: kernels: " << Stats.Kernels << "\n";
  Err << "shmem-lint: stats: block shapes: " << Stats.Shapes << "\n";
  Err << "shmem-lint: stats: shared accesses: " << Stats.SharedAccesses
      << "\n";
  Err << "shmem-lint: stats: barriers: " << Stats.Barriers << "\n";
  Err << "shmem-lint: stats: findings: " << Findings.size() << "\n";
  // Every check in the registry, also those with no finding, so that the
  // per-check lines add up to the total.
  for (unsigned K = 0; K < NumCheckKinds; ++K) {
    StringRef Name = checkName(CheckKind(K));
    size_t Count = std::count_if(
        Findings.begin(), Findings.end(),
        [&](const ReportedFinding &F) { return F.Check == Name; });
    Err << "shmem-lint: stats: findings: " << Name << ": " << Count << "\n";
  }
  // Parts of kernels not analysed, as the files not analysed: the count,
  // then each (place, check, message, kernel and shape).
  Err << "shmem-lint: stats: parts not analysed: " << Gaps.size() << "\n";
  for (const ReportedGap &G : Gaps) {
    Err << "shmem-lint: stats: part not analysed: " << G.Loc.File << ":"
        << G.Loc.Line << ":" << G.Loc.Column << ": " << G.message();
    if (!G.Check.empty())
      Err << " [" << G.Check << "]";
    Err << G.where() << "\n";
  }
  Err.flush();
}

} // namespace

static unsigned effectiveParallelism(const DriverOptions &Opts) {
  unsigned N = Opts.Parallelism;
  if (N == 0)
    N = std::max(1u, std::thread::hardware_concurrency());
  return std::max<size_t>(1, std::min<size_t>(N, Opts.Jobs.size()));
}

/// Runs \p Job(I) for I in [0, N) on \p Workers threads.
static void forEachJob(size_t N, unsigned Workers,
                       llvm::function_ref<void(size_t)> Job) {
  std::mutex Lock;
  size_t Next = 0;
  auto Work = [&] {
    for (;;) {
      size_t I;
      {
        std::lock_guard<std::mutex> G(Lock);
        if (Next == N)
          return;
        I = Next++;
      }
      Job(I);
    }
  };
  if (Workers <= 1 || N <= 1) {
    Work();
    return;
  }
  // Clang's parser and the kernel walker recurse deeply; give each worker
  // the stack the main thread has.
  std::vector<llvm::thread> Threads;
  for (unsigned T = 0; T < std::min<size_t>(Workers, N); ++T)
    Threads.emplace_back(std::optional<unsigned>(8u << 20), Work);
  for (llvm::thread &T : Threads)
    T.join();
}

/// The second pass over a run's files: each whose kernels other files
/// launch (with shapes or arguments it did not see) is analysed again with
/// those launches, and that analysis replaces its first. Its messages were
/// printed by the first pass and are not repeated. Returns how many files
/// were analysed again.
static unsigned
analyseWithLaunchesElsewhere(const DriverOptions &Opts, unsigned Workers,
                             bool ColorDiagnostics, const SassTools *Sass,
                             std::vector<std::optional<JobResult>> &Results,
                             llvm::raw_ostream &Err) {
  std::vector<const TranslationUnitLaunches *> Units;
  for (const std::optional<JobResult> &R : Results)
    Units.push_back(&R->Launches);
  std::vector<ProjectLaunches> Elsewhere = launchesFromElsewhere(Units);
  std::vector<size_t> Again;
  for (size_t I = 0; I < Results.size(); ++I)
    if (Results[I]->Analysed && !Elsewhere[I].empty())
      Again.push_back(I);
  if (Opts.Verbose && !Again.empty())
    Err << "shmem-lint: analysing " << Again.size()
        << " file(s) again with the launches other files make of their "
           "kernels\n";
  forEachJob(Again.size(), Workers, [&](size_t J) {
    size_t I = Again[J];
    ProjectPass Second;
    Second.Elsewhere = &Elsewhere[I];
    JobResult R = analyseFile(Opts.Jobs[I], Second, Opts.VfsOverlay,
                              ColorDiagnostics, Sass);
    if (!R.Analysed)
      return; // As the first pass parsed it, this is not expected: keep it.
    JobResult &Old = *Results[I];
    Old.Findings = std::move(R.Findings);
    Old.Gaps = std::move(R.Gaps);
    Old.Stats = R.Stats;
  });
  return Again.size();
}

int runDriver(const DriverOptions &Opts, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err) {
  const size_t N = Opts.Jobs.size();
  const unsigned Workers = effectiveParallelism(Opts);
  bool ShowProgress = Opts.Progress == 1 ||
                      (Opts.Progress == -1 && N > 1 &&
                       llvm::sys::Process::StandardErrIsDisplayed());
  bool ColorDiagnostics = llvm::sys::Process::StandardErrHasColors();
  if (Opts.Verbose && N > 1)
    Err << "shmem-lint: analysing " << N << " files, " << Workers
        << " at a time\n";

  // Read before the analysis, so that a report that cannot be used stops
  // the run before it is spent.
  std::optional<NcuSourceReport> Measured;
  if (!Opts.NcuReport.empty()) {
    std::string Why;
    Measured = loadNcuReport(Opts.NcuReport, Why);
    if (!Measured) {
      Err << "shmem-lint: error: --ncu-report: " << Why << "\n";
      return 2;
    }
  }
  // Said once, not per file; the predictions are reported all the same.
  const SassTools *Sass = nullptr;
  if (Opts.Sass && Opts.Sass->Nvcc.empty())
    Err << "shmem-lint: warning: --sass: no nvcc found (looked for "
        << llvm::join(Opts.Sass->Searched, ", ")
        << "); findings are the predictions alone\n";
  else if (Opts.Sass)
    Sass = &*Opts.Sass;
  if (Sass && Opts.Verbose)
    Err << "shmem-lint: --sass: " << Sass->Nvcc << ", reading "
        << (Sass->Nvdisasm.empty() ? "PTX" : "SASS (" + Sass->Nvdisasm + ")")
        << "\n";

  // Results are printed as soon as every earlier file's are: clang's errors
  // appear in file order however the workers finish.
  std::vector<std::optional<JobResult>> Results(N);
  std::mutex Lock;
  size_t Printed = 0, Done = 0;
  ProgressLine Progress(Err, ShowProgress, N);
  auto Finish = [&](size_t I, JobResult R) {
    std::lock_guard<std::mutex> G(Lock);
    Results[I] = std::move(R);
    ++Done;
    while (Printed < N && Results[Printed]) {
      if (!Results[Printed]->Messages.empty()) {
        Progress.clear();
        Err << Results[Printed]->Messages;
        Err.flush();
      }
      ++Printed;
    }
    Progress.show(Done, Opts.Jobs[I].File);
  };
  // The files of a run are one program: with more than one, each says what
  // it launches and defines.
  ProjectPass First;
  First.Describe = N > 1;
  forEachJob(N, Workers, [&](size_t I) {
    Finish(I, analyseFile(Opts.Jobs[I], First, Opts.VfsOverlay,
                          ColorDiagnostics, Sass));
  });
  Progress.clear();
  unsigned Again = 0;
  if (First.Describe)
    Again = analyseWithLaunchesElsewhere(Opts, Workers, ColorDiagnostics,
                                         Sass, Results, Err);

  // Merge: a header included from several files is reported once, by the
  // rule runChecks applies within one (KeptOnce, the check's OncePolicy);
  // the findings are sorted by place, as clang-tidy sorts its diagnostics.
  KeptOnce<std::string, ReportedFinding> Merged;
  KeptOnce<std::string, ReportedGap> MergedGaps;
  // A finding in a header is an error when any file that includes it makes
  // it one, whichever file's copy is kept.
  std::set<std::string> PromotedKeys;
  RunStats Stats;
  unsigned Analysed = 0, Failed = 0;
  std::vector<std::string> FailedFiles;
  // A template one file never instantiates and another does is analysed.
  std::set<std::string> Instantiated;
  for (const std::optional<JobResult> &R : Results)
    Instantiated.insert(R->Launches.InstantiatedTemplates.begin(),
                        R->Launches.InstantiatedTemplates.end());
  for (size_t I = 0; I < N; ++I) {
    std::optional<JobResult> &R = Results[I];
    if (R->Analysed) {
      ++Analysed;
    } else {
      ++Failed;
      FailedFiles.push_back(Opts.Jobs[I].File);
    }
    Stats.Kernels += R->Stats.Kernels;
    Stats.Shapes += R->Stats.Shapes;
    Stats.SharedAccesses += R->Stats.SharedAccesses;
    Stats.Barriers += R->Stats.Barriers;
    for (ReportedFinding &F : R->Findings) {
      CheckKind Kind;
      OncePolicy Once = checkFromName(F.Check, Kind) ? checkOncePolicy(Kind)
                                                     : OncePolicy::Worst;
      std::string Key = findingKey(F);
      if (F.WarningAsError)
        PromotedKeys.insert(Key);
      Merged.add(Key, std::move(F), Once);
    }
    for (ReportedGap &G : R->Gaps) {
      if (G.NeverInstantiated && Instantiated.count(G.Loc.str()))
        continue;
      std::string Key = gapKey(G);
      MergedGaps.addFirst(Key, std::move(G));
    }
  }
  // In the order met (file by file, kernel by kernel), as runChecks gives
  // them.
  std::vector<ReportedGap> Gaps = std::move(MergedGaps.kept());
  std::vector<ReportedFinding> Findings = std::move(Merged.kept());
  size_t Promoted = 0;
  for (ReportedFinding &F : Findings) {
    F.WarningAsError = PromotedKeys.count(findingKey(F)) > 0;
    Promoted += F.WarningAsError;
  }
  // (std::stable_sort would need libstdc++'s deprecated temporary buffer.)
  std::vector<size_t> Order(Findings.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const ReportedFinding &X = Findings[A], &Y = Findings[B];
    return std::tie(X.Loc.File, X.Loc.Line, X.Loc.Column, X.Check, A) <
           std::tie(Y.Loc.File, Y.Loc.Line, Y.Loc.Column, Y.Check, B);
  });
  std::vector<ReportedFinding> Sorted;
  Sorted.reserve(Findings.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(Findings[I]));
  Findings = std::move(Sorted);

  // Baselines compare whole runs: written before, and read after, the
  // findings are merged across files.
  if (!Opts.WriteBaseline.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream File(Opts.WriteBaseline, EC);
    if (EC) {
      Err << "shmem-lint: error: cannot write '" << Opts.WriteBaseline
          << "': " << EC.message() << "\n";
      return 2;
    }
    OutputContext Ctx;
    Ctx.RepoRoot = repoRootForReports();
    writeFindings(File, OutputFormat::Json, Findings, Ctx);
  }
  if (!Opts.Baseline.empty()) {
    std::string Error;
    std::optional<std::set<std::string>> Known =
        readBaseline(Opts.Baseline, Error);
    if (!Known) {
      Err << "shmem-lint: error: " << Error << "\n";
      return 2;
    }
    OutputContext Ctx;
    Ctx.RepoRoot = repoRootForReports();
    std::vector<std::string> Prints = uniqueFingerprints(Findings, Ctx);
    std::vector<ReportedFinding> New;
    for (size_t I = 0; I < Findings.size(); ++I)
      if (!Known->count(Prints[I]))
        New.push_back(std::move(Findings[I]));
    size_t Accepted = Findings.size() - New.size();
    Findings = std::move(New);
    if (Opts.Verbose || Opts.Stats)
      Err << "shmem-lint: " << Accepted << " finding(s) in the baseline '"
          << Opts.Baseline << "' not reported\n";
  }

  if (Measured) {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    unsigned Covered =
        addMeasuredEvidence(Findings, *Measured, Opts.NcuReport, Cwd);
    bool AnyBank = llvm::any_of(Findings, [](const ReportedFinding &F) {
      return F.Check == checkName(CheckKind::BankConflict);
    });
    if (AnyBank && Covered == 0)
      Err << "shmem-lint: warning: --ncu-report: '" << Opts.NcuReport
          << "' measured none of the files of the bank conflicts found (it "
             "has lines of "
          << Measured->files().size() << " file(s)); nothing to compare\n";
  }

  if (N == 0)
    Err << "shmem-lint: no files to analyse\n";
  if (!Opts.OutputFile.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream File(Opts.OutputFile, EC);
    if (EC) {
      Err << "shmem-lint: error: cannot write '" << Opts.OutputFile
          << "': " << EC.message() << "\n";
      return 2;
    }
    writeReport(Opts, Findings, Gaps, File);
  } else {
    writeReport(Opts, Findings, Gaps, Out);
    // The summary below goes to stderr, unbuffered: without a flush, a
    // report longer than the stream's buffer came out partly before it and
    // partly after, depending on its length.
    Out.flush();
  }
  if (Opts.Verbose)
    Err << "shmem-lint: " << Analysed << " file(s) analysed, " << Failed
        << " failed; " << Stats.Kernels << " kernel(s), " << Stats.Shapes
        << " block shape(s), " << Stats.SharedAccesses
        << " shared access(es), " << Stats.Barriers << " barrier(s); "
        << Findings.size() << " finding(s)\n";
  if (Opts.Stats)
    printStats(Analysed, FailedFiles, Again, Stats, Findings, Gaps, Err);
  // clang-tidy's last line when it promoted warnings.
  if (Promoted)
    Err << "shmem-lint: " << Promoted << " warning"
        << (Promoted == 1 ? "" : "s") << " treated as error"
        << (Promoted == 1 ? "" : "s") << "\n";
  if (N == 0)
    return 0;
  // Gaps leave the status alone: they are said in every format, but a part
  // of a kernel left out at a budget is no defect the user can fix, and
  // unlike a file that fails to parse the rest of it was analysed.
  if (Analysed == 0)
    return 2;
  // --exit-zero is for findings a project tolerates; one it has made an
  // error fails the run, as it fails clang-tidy.
  if ((!Findings.empty() && !Opts.ExitZero) || Promoted || Failed)
    return 1;
  return 0;
}

} // namespace shmem
