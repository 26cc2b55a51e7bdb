//===- ShmemPlugin.cpp - shmem-lint as a clang compiler plugin ------------===//
//
//   clang++ -x cuda -fplugin=$(shmem-lint --print-clang-plugin) ...
//
// Findings become compiler warnings. A .cu file is compiled several times
// (one device pass per GPU architecture, one host pass); to warn once per
// finding the plugin reports in the host pass only. Builds that have no host
// pass (--cuda-device-only) pass `-fplugin-arg-shmem_lint-pass=device`,
// which reports in the device passes instead (once per architecture).
//
// Arguments (each as -fplugin-arg-shmem_lint-NAME=VALUE; clang splits the
// plugin name at the first '-', so the plugin is registered as shmem_lint):
//   checks=GLOB[,GLOB]   checks to run (default shmem-*)
//   block=32x8           BlockDim option
//   arch=sm_90           the GPU architecture occupancy figures are for in
//                        the host pass, which does not know it (the device
//                        passes use their own; default sm_80)
//   warp-size=32
//   KEY=VALUE            a check's option by its key in
//                        lib/Analysis/CheckOptions.def: min-degree=2,
//                        strict-exits=0|1, ... (booleans as clang-tidy
//                        reads them: 0|1, true|false, on|off)
//   pass=host|device|all
//   werror=GLOB[,GLOB]   findings of these checks are errors (default
//                        none), as clang-tidy's --warnings-as-errors
//
// Why werror= and not -Werror: clang 22 leaves a custom diagnostic that has
// no warning group (a plugin cannot add one) out of -Werror, -Werror=...,
// -Wno-error and -w alike, so the findings stay warnings under -Werror.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CheckOptions.h"
#include "Analysis/CheckSelection.h"
#include "Analysis/NoLint.h"
#include "Checks/Checks.h"
#include "Occupancy.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"


using namespace clang;

namespace shmem {
namespace {

enum class Pass { Host, Device, All };

class PluginSink : public FindingSink {
public:
  PluginSink(ASTContext &Ctx, std::bitset<NumCheckKinds> Errors)
      : Ctx(Ctx), NoLint(Ctx.getSourceManager()), Errors(Errors) {
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    WarnID = D.getCustomDiagID(DiagnosticsEngine::Warning, "%0 [%1]");
    // werror=: an error from the start, marked as clang-tidy marks a
    // promoted warning, so that every front end prints the same line.
    ErrorID = D.getCustomDiagID(DiagnosticsEngine::Error,
                                "%0 [%1,-warnings-as-errors]");
    NoteID = D.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    // A part of a kernel not analysed is a remark: -Werror promotes
    // warnings only, and it is no defect of the code being built.
    GapID = D.getCustomDiagID(DiagnosticsEngine::Remark, "%0 [%1]");
    AllGapID = D.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
  }
  void report(const Finding &F) override {
    StringRef Check = checkName(F.Check);
    // runChecks has reported each location once already (OncePerLocation).
    if (NoLint.suppressed(F.Loc, Check))
      return;
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    {
      auto B = D.Report(
          F.Loc, Errors.test(unsigned(F.Check)) ? ErrorID : WarnID);
      B << F.Message << Check;
      for (const FixItHint &H : F.Fixes)
        B << H;
    }
    for (const FindingNote &N : F.Notes)
      D.Report(N.Loc, NoteID) << N.Message;
  }
  void reportGap(const AnalysisGap &G) override {
    DiagnosticsEngine &D = Ctx.getDiagnostics();
    if (G.Check) {
      StringRef Check = checkName(*G.Check);
      if (NoLint.suppressed(G.Loc, Check))
        return;
      D.Report(G.Loc, GapID) << G.message() << Check;
    } else {
      D.Report(G.Loc, AllGapID) << G.message();
    }
    for (const FindingNote &N : G.Notes)
      D.Report(N.Loc, NoteID) << N.Message;
  }

private:
  ASTContext &Ctx;
  NoLintIndex NoLint;
  std::bitset<NumCheckKinds> Errors;
  unsigned WarnID, ErrorID, NoteID, GapID, AllGapID;
};

class Consumer : public ASTConsumer {
public:
  Consumer(AnalysisOptions Opts, Pass P, std::bitset<NumCheckKinds> Errors)
      : Opts(std::move(Opts)), P(P), Errors(Errors) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    const LangOptions &LO = Ctx.getLangOpts();
    if (!LO.CUDA)
      return;
    bool Device = LO.CUDAIsDevice;
    if ((P == Pass::Host && Device) || (P == Pass::Device && !Device))
      return;
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    PluginSink Sink(Ctx, Errors);
    runChecks(Ctx, Opts, Sink);
  }

private:
  AnalysisOptions Opts;
  Pass P;
  std::bitset<NumCheckKinds> Errors;
};

const CheckOption *optionWithKey(StringRef Key) {
  for (const CheckOption &Opt : checkOptions())
    if (Opt.Key == Key)
      return &Opt;
  return nullptr;
}

class ShmemLintAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<Consumer>(Opts, P, Errors);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    std::vector<std::string> Globs = {"shmem-*"}, ErrorGlobs;
    // Compiler diagnostics carry messages and notes only.
    Opts.Pictures = false;
    DiagnosticsEngine &D = CI.getDiagnostics();
    auto Bad = [&](const std::string &A) {
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "shmem-lint plugin: invalid argument '%0'"))
          << A;
      return false;
    };
    auto Fail = [&](const std::string &Message) {
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "shmem-lint plugin: %0"))
          << Message;
      return false;
    };
    // An unknown key: the key it most likely misspells.
    auto UnknownKey = [&](const std::string &A, StringRef Key) {
      std::vector<StringRef> Keys = {"checks", "block", "warp-size", "pass",
                                     "werror", "arch"};
      for (const CheckOption &O : checkOptions())
        Keys.push_back(O.Key);
      if (std::optional<StringRef> S = nearestName(Key, Keys))
        return Fail("invalid argument '" + A + "'; did you mean '" +
                    S->str() + "'?");
      return Bad(A);
    };
    for (const std::string &A : Args) {
      StringRef Arg(A);
      auto [Key, Val] = Arg.split('=');
      unsigned N = 0;
      if (Key == "checks") {
        Globs.clear();
        SmallVector<StringRef, 4> Parts;
        Val.split(Parts, ',');
        for (StringRef G : Parts)
          Globs.push_back(G.trim().str());
      } else if (Key == "werror") {
        SmallVector<StringRef, 4> Parts;
        Val.split(Parts, ',');
        for (StringRef G : Parts)
          if (!G.trim().empty())
            ErrorGlobs.push_back(G.trim().str());
      } else if (Key == "block") {
        auto Dm = Dim3::parse(Val.str());
        if (!Dm)
          return Bad(A);
        Opts.BlockDim = Dm;
      } else if (Key == "arch") {
        std::optional<unsigned> Arch = parseArch(Val.str());
        if (!Arch)
          return Bad(A);
        Opts.GpuArch = *Arch;
      } else if (Key == "warp-size" && !Val.getAsInteger(10, N)) {
        if (N != CudaWarpSize)
          return Fail("invalid argument '" + A + "'; only 32: " +
                      WarpSizeReason);
        Opts.WarpSize = N;
      } else if (const CheckOption *Opt = optionWithKey(Key)) {
        if (!Opt->set(Opts, Val))
          return Opt->belowMinimum(Val)
                     ? Fail("invalid argument '" + A + "'; expected " +
                            Opt->expected())
                     : Bad(A);
      } else if (Key == "pass") {
        if (Val == "host")
          P = Pass::Host;
        else if (Val == "device")
          P = Pass::Device;
        else if (Val == "all")
          P = Pass::All;
        else
          return Bad(A);
      } else if (Key == "block" || Key == "warp-size" || Key == "pass" ||
                 Key == "checks" || Key == "arch") {
        return Bad(A);
      } else {
        return UnknownKey(A, Key);
      }
    }
    // As the command's --checks: a misspelt check is an error that says
    // what was meant, and a list that selects nothing is an error, not a
    // build that silently checks nothing.
    if (std::optional<UnknownCheck> U = unknownCheck(Globs))
      return Fail(U->message("checks="));
    if (std::optional<UnknownCheck> U = unknownCheck(ErrorGlobs))
      return Fail(U->message("werror="));
    Errors = applyCheckGlobs({}, ErrorGlobs);
    Opts.Enabled = applyCheckGlobs({}, Globs);
    if (Opts.Enabled.none())
      return Fail("checks= selects no check; known checks are " +
                  checkNameList());
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  AnalysisOptions Opts;
  Pass P = Pass::Host;
  /// werror=: the checks whose findings are errors.
  std::bitset<NumCheckKinds> Errors;
};

} // namespace
} // namespace shmem

static FrontendPluginRegistry::Add<shmem::ShmemLintAction>
    X("shmem_lint", "report CUDA shared-memory bank conflicts, divergent "
                    "barriers, races, uncoalesced tile transfers and tile "
                    "layout mismatches");
