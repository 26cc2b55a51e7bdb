//===- ShmemLint.cpp - The shmem-lint command -----------------------------===//
//
//   shmem-lint [options] FILE... [-- COMPILER-ARGS]
//   shmem-lint -p BUILD-DIR [options] [FILE...]
//
// Exit status: 0 when clean, 1 when there are findings (or some files could
// not be analysed), 2 on usage errors or when no file could be analysed.
//
//===----------------------------------------------------------------------===//

#include "DriverOptions.h"
#include "ReportedFinding.h"

#include "Analysis/NoLint.h"
#include "Checks/Checks.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace clang;

namespace shmem {
namespace {

/// Converts findings to file positions while the SourceManager is alive,
/// applying NOLINT and skipping system headers.
class DriverSink : public FindingSink {
public:
  DriverSink(const SourceManager &SM, std::vector<ReportedFinding> &Out,
             std::set<std::string> &Seen)
      : SM(SM), Out(Out), Seen(Seen) {}

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
    if (isSuppressed(SM, F.Loc, Check))
      return;
    ReportedFinding R;
    R.Check = Check.str();
    R.Loc = resolve(F.Loc);
    R.Message = F.Message;
    R.Detail = F.Detail;
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
    std::string Key = R.Check + "|" + R.Loc.File + ":" +
                      std::to_string(R.Loc.Line) + ":" +
                      std::to_string(R.Loc.Column) + "|" + R.Message;
    if (!Seen.insert(Key).second)
      return;
    Out.push_back(std::move(R));
  }

private:
  const SourceManager &SM;
  std::vector<ReportedFinding> &Out;
  std::set<std::string> &Seen;
};

struct RunState {
  const DriverOptions &Opts;
  std::vector<ReportedFinding> Findings;
  std::set<std::string> Seen;
  RunStats Stats;
};

class LintConsumer : public ASTConsumer {
public:
  explicit LintConsumer(RunState &S) : S(S) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    DriverSink Sink(Ctx.getSourceManager(), S.Findings, S.Seen);
    RunStats R = runChecks(Ctx, S.Opts.Analysis, Sink);
    S.Stats.Kernels += R.Kernels;
    S.Stats.Shapes += R.Shapes;
    S.Stats.SharedAccesses += R.SharedAccesses;
    S.Stats.Barriers += R.Barriers;
  }

private:
  RunState &S;
};

class LintAction : public ASTFrontendAction {
public:
  explicit LintAction(RunState &S) : S(S) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<LintConsumer>(S);
  }

private:
  RunState &S;
};

class LintActionFactory : public tooling::FrontendActionFactory {
public:
  explicit LintActionFactory(RunState &S) : S(S) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<LintAction>(S);
  }

private:
  RunState &S;
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

} // namespace

int runDriver(const DriverOptions &Opts, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err) {
  RunState State{Opts, {}, {}, {}};
  unsigned Analysed = 0, Failed = 0;
  for (const FileJob &Job : Opts.Jobs) {
    if (!llvm::sys::fs::exists(Job.File)) {
      Err << "shmem-lint: error: no such file: '" << Job.File << "'\n";
      ++Failed;
      continue;
    }
    // ClangTool looks files up by absolute path.
    llvm::SmallString<256> Abs(Job.File);
    llvm::sys::path::make_absolute(Job.Directory, Abs);
    FixedCommands DB;
    tooling::CompileCommand C(Job.Directory, Abs.str().str(), Job.Args, "");
    DB.Commands[Abs.str().str()] = C;
    tooling::ClangTool Tool(DB, {Abs.str().str()});
    Tool.clearArgumentsAdjusters();
    if (!Opts.ShowCompilerDiagnostics)
      Tool.setPrintErrorMessage(true);
    LintActionFactory F(State);
    int RC = Tool.run(&F);
    if (RC != 0) {
      Err << "shmem-lint: error: '" << Job.File
          << "' could not be analysed (see the errors above)\n";
      ++Failed;
    } else {
      ++Analysed;
    }
  }
  if (!Opts.OutputFile.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream File(Opts.OutputFile, EC);
    if (EC) {
      Err << "shmem-lint: error: cannot write '" << Opts.OutputFile
          << "': " << EC.message() << "\n";
      return 2;
    }
    writeReport(Opts, State.Findings, File);
  } else {
    writeReport(Opts, State.Findings, Out);
  }
  if (Opts.Verbose)
    Err << "shmem-lint: " << Analysed << " file(s) analysed, " << Failed
        << " failed; " << State.Stats.Kernels << " kernel(s), "
        << State.Stats.Shapes << " block shape(s), "
        << State.Stats.SharedAccesses << " shared access(es), "
        << State.Stats.Barriers << " barrier(s); " << State.Findings.size()
        << " finding(s)\n";
  if (Analysed == 0)
    return 2;
  if (!State.Findings.empty() || Failed)
    return 1;
  return 0;
}

} // namespace shmem
