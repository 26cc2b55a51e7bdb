//===- ShmemCheckBase.cpp -------------------------------------------------===//

#include "ShmemCheckBase.h"

#include "Analysis/CheckOptions.h"
#include "Checks/Checks.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace shmem {
namespace tidy {

ShmemCheckBase::ShmemCheckBase(StringRef Name,
                               clang::tidy::ClangTidyContext *Context,
                               CheckKind K, std::shared_ptr<SharedRun> Shared)
    : ClangTidyCheck(Name, Context), Kind(K), TidyContext(Context),
      Shared(std::move(Shared)) {
  unsigned WarpSize = Options.get("WarpSize", Options_.WarpSize);
  if (WarpSize == CudaWarpSize)
    Options_.WarpSize = WarpSize;
  else
    configurationDiag("invalid WarpSize '%0' for %1; only 32: %2")
        << std::to_string(WarpSize) << Name << WarpSizeReason;
  // shmem-<check>.BlockDim, else a global BlockDim: one shape for every
  // check, as the driver's --block-dim and the plugin's block= give.
  BlockDimText = Options.getLocalOrGlobal("BlockDim", "").str();
  if (!BlockDimText.empty()) {
    if (auto D = Dim3::parse(BlockDimText))
      Options_.BlockDim = D;
    else
      configurationDiag("invalid BlockDim '%0' for %1; expected e.g. 256 or "
                        "32x8")
          << BlockDimText << Name;
  }
  // The check's own options (CheckOptions.def); the defaults are those of
  // AnalysisOptions, and clang-tidy parses and diagnoses the values.
  for (const CheckOption &Opt : checkOptions()) {
    if (Opt.Check != Kind)
      continue;
    if (Opt.Type == CheckOptionType::Bool)
      Options_.*Opt.BoolMember =
          Options.get(Opt.Name, Options_.*Opt.BoolMember);
    else if (unsigned N = Options.get(Opt.Name, Options_.*Opt.UnsignedMember);
             N >= Opt.Min)
      Options_.*Opt.UnsignedMember = N;
    else
      configurationDiag("invalid %0 '%1' for %2; expected %3")
          << Opt.Name << std::to_string(N) << Name << Opt.expected();
  }
  Options_.enable(Kind);
  // clang-tidy shows messages, notes and fix-its only.
  Options_.Pictures = false;
}

void ShmemCheckBase::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &O) {
  Options.store(O, "WarpSize", Options_.WarpSize);
  Options.store(O, "BlockDim", BlockDimText);
  for (const CheckOption &Opt : checkOptions()) {
    if (Opt.Check != Kind)
      continue;
    if (Opt.Type == CheckOptionType::Bool)
      Options.store(O, Opt.Name, Options_.*Opt.BoolMember);
    else
      Options.store(O, Opt.Name, Options_.*Opt.UnsignedMember);
  }
}

void ShmemCheckBase::registerMatchers(MatchFinder *Finder) {
  // The analysis is per translation unit (kernels, their launch sites and
  // callees together); the matcher only hands us the unit once.
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

namespace {
class TidySink : public FindingSink {
public:
  explicit TidySink(ShmemCheckBase &Check,
                    std::function<DiagnosticBuilder(SourceLocation, StringRef,
                                                    DiagnosticIDs::Level)>
                        Diag)
      : Diag(std::move(Diag)) {
    (void)Check;
  }
  // runChecks has reported each location once already (OncePerLocation).
  void report(const Finding &F) override {
    {
      auto D = Diag(F.Loc, "%0", DiagnosticIDs::Warning);
      D << F.Message;
      for (const FixItHint &H : F.Fixes)
        D << H;
    }
    for (const FindingNote &N : F.Notes)
      Diag(N.Loc, "%0", DiagnosticIDs::Note) << N.Message;
  }
  // A remark, not a warning: clang-tidy counts and promotes
  // (--warnings-as-errors) warnings only, and a part of a kernel the
  // analysis left out is no defect of the code.
  void reportGap(const AnalysisGap &G) override {
    Diag(G.Loc, "%0", DiagnosticIDs::Remark) << G.message();
    for (const FindingNote &N : G.Notes)
      Diag(N.Loc, "%0", DiagnosticIDs::Note) << N.Message;
  }

private:
  std::function<DiagnosticBuilder(SourceLocation, StringRef,
                                  DiagnosticIDs::Level)>
      Diag;
};
} // namespace

namespace {
bool sameAnalysis(const AnalysisOptions &A, const AnalysisOptions &B) {
  if (A.WarpSize != B.WarpSize || A.BlockDim != B.BlockDim ||
      A.DefaultBlockDim != B.DefaultBlockDim || A.InlineDepth != B.InlineDepth)
    return false;
  for (const CheckOption &Opt : checkOptions())
    if (!Opt.same(A, B))
      return false;
  return true;
}
class CollectSink : public FindingSink {
public:
  CollectSink(std::vector<Finding> &Out, std::vector<AnalysisGap> &Gaps)
      : Out(Out), Gaps(Gaps) {}
  void report(const Finding &F) override { Out.push_back(F); }
  void reportGap(const AnalysisGap &G) override { Gaps.push_back(G); }

private:
  std::vector<Finding> &Out;
  std::vector<AnalysisGap> &Gaps;
};
} // namespace

void ShmemCheckBase::check(const MatchFinder::MatchResult &R) {
  TidySink Sink(*this, [this](SourceLocation L, StringRef Msg,
                              DiagnosticIDs::Level Lvl) {
    return diag(L, Msg, Lvl);
  });
  SharedRun &S = *Shared;
  if (!S.Valid || !S.Opts.enabled(Kind) || !sameAnalysis(S.Opts, Options_)) {
    S = SharedRun();
    S.Opts = Options_;
    for (unsigned K = 0; K < NumCheckKinds; ++K)
      if (TidyContext->isCheckEnabled(checkName(CheckKind(K))))
        S.Opts.enable(CheckKind(K));
    S.Opts.enable(Kind);
    CollectSink C(S.Findings, S.Gaps);
    runChecks(*R.Context, S.Opts, C);
    S.Valid = true;
  }
  for (const Finding &F : S.Findings)
    if (F.Check == Kind)
      Sink.report(F);
  // A gap of every check's (the walk's) is said once, by the first enabled
  // check: clang-tidy needs a check's name on every diagnostic.
  unsigned First = 0;
  while (First < NumCheckKinds && !S.Opts.enabled(CheckKind(First)))
    ++First;
  for (const AnalysisGap &G : S.Gaps)
    if (G.Check ? *G.Check == Kind : unsigned(Kind) == First)
      Sink.reportGap(G);
}

void ShmemCheckBase::onEndOfTranslationUnit() { *Shared = SharedRun(); }

} // namespace tidy
} // namespace shmem
