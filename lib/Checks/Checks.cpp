//===- Checks.cpp - Run shmem-lint's checks over a translation unit -------===//

#include "Checks.h"

#include "Analysis/LaunchGeometry.h"
#include "Analysis/TensorMaps.h"
#include "Occupancy.h"

#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace clang;

namespace shmem {

static std::string displayName(const FunctionDecl *FD) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy P(FD->getASTContext().getLangOpts());
  P.SuppressScope = true;
  FD->getNameForDiagnostic(OS, P, /*Qualified=*/false);
  return OS.str();
}

/// A source location is reported once per check: kernels are analysed per
/// template instantiation, block shape and inlined call site, and the same
/// line can be found several times. Which finding stays is the check's
/// OncePolicy (Checks.def); the kept ones are emitted in source order.
class OncePerLocation : public FindingSink {
public:
  void report(const Finding &F) override {
    Kept.add(key(F.Check, F.Loc), F, checkOncePolicy(F.Check));
  }
  /// A gap is kept once per check, location and reason (the first: the
  /// kernel, shape and call path it names are those it was first met in);
  /// another count in the message ("after the first 17") is no new gap.
  void reportGap(const AnalysisGap &G) override {
    int Check = G.Check ? int(*G.Check) : -1;
    Gaps.addFirst({Check, G.Loc.getRawEncoding(), G.Why}, G);
  }
  bool settled(CheckKind Check, SourceLocation Loc) const {
    return Kept.settled(key(Check, Loc), checkOncePolicy(Check));
  }
  /// Emit in source order, as clang-tidy would sort them, so every front
  /// end prints the same sequence.
  void flush(const SourceManager &SM, FindingSink &Out) {
    std::vector<Finding> &Found = Kept.kept();
    // Stable by construction: ties keep the order they were found in.
    std::vector<size_t> Order(Found.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      SourceLocation LA = SM.getFileLoc(Found[A].Loc);
      SourceLocation LB = SM.getFileLoc(Found[B].Loc);
      if (LA != LB && LA.isValid() && LB.isValid())
        return SM.isBeforeInTranslationUnit(LA, LB);
      return A < B;
    });
    for (size_t I : Order)
      Out.report(Found[I]);
    // After the findings, in the order met (kernel by kernel, shape by
    // shape): what was not analysed reads as a summary.
    for (const AnalysisGap &G : Gaps.kept())
      Out.reportGap(G);
  }

private:
  using Key = std::pair<unsigned, unsigned>;
  static Key key(CheckKind Check, SourceLocation Loc) {
    return {unsigned(Check), Loc.getRawEncoding()};
  }
  KeptOnce<Key, Finding> Kept;
  KeptOnce<std::tuple<int, unsigned, std::string>, AnalysisGap> Gaps;
};

unsigned KernelContext::arch() const {
  const TargetInfo &TI = Ctx.getTargetInfo();
  if (TI.getTriple().isNVPTX())
    if (std::optional<unsigned> A = parseArch(TI.getTargetOpts().CPU))
      return *A;
  return Opts.GpuArch ? Opts.GpuArch : 80;
}

bool KernelContext::alreadyReported(CheckKind Check, SourceLocation Loc) const {
  return Reported && Reported->settled(Check, Loc);
}

void KernelContext::reportGap(FindingSink &Sink, AnalysisGap G) const {
  G.Kernel = DisplayName;
  G.Block = Trace.Geometry.block().str();
  if (!G.CallStack.empty())
    G.Notes.push_back(kernelCallNote(*this, G.CallStack.front()->getExprLoc()));
  addInstantiationNote(*this, G.Notes);
  G.Notes.push_back({Kernel->getLocation(),
                     "kernel '" + DisplayName +
                         "' not fully analysed for a block of " + G.Block +
                         " threads (" + Trace.GeometrySource + ")"});
  Sink.reportGap(G);
}

FindingNote kernelCallNote(const KernelContext &K, SourceLocation Call) {
  return {Call, "in the call from kernel '" + K.DisplayName + "'"};
}

void addInstantiationNote(const KernelContext &K,
                          std::vector<FindingNote> &Notes) {
  if (K.Kernel->isTemplateInstantiation())
    Notes.push_back({K.Kernel->getLocation(),
                     "in instantiation '" + K.DisplayName + "'"});
}

FindingNote blockShapeNote(const KernelContext &K, llvm::StringRef Detail) {
  std::string S = "analysed for a block of " + K.Trace.Geometry.block().str() +
                  " threads (" + K.Trace.GeometrySource + ")" + Detail.str();
  if (K.Trace.GeometryAssumed)
    S += "; state the shape with '// shmem-lint: block=X[xY[xZ]]' above the "
         "kernel or the BlockDim option";
  return {K.Kernel->getLocation(), S};
}

/// What the geometry note adds for the parameters walked as constants:
/// "; 'Bc' = 32 at every launch".
static std::string argumentsNote(const std::vector<ArgumentConstant> &Args) {
  std::string Out;
  for (const ArgumentConstant &A : Args)
    Out += (Out.empty() ? "; '" : ", '") + A.Param->getNameAsString() +
           "' = " + std::to_string(A.Value);
  return Out.empty() ? Out : Out + " at every launch";
}

/// \p Given with the walk asked for the facts the enabled checks read
/// (AnalysisOptions::Facts): the walker records only those.
static AnalysisOptions withTraceFacts(const AnalysisOptions &Given) {
  AnalysisOptions O = Given;
  bool Layout = O.enabled(CheckKind::LayoutMismatch);
  O.Facts.TileRows = Layout || O.enabled(CheckKind::BankConflict);
  O.Facts.TileFormulas = Layout;
  return O;
}

RunStats runChecks(ASTContext &Ctx, const AnalysisOptions &Given,
                   FindingSink &FrontEnd, const ProjectExchange &Project) {
  const AnalysisOptions Opts = withTraceFacts(Given);
  RunStats Stats;
  OncePerLocation Sink;
  if (!Ctx.getLangOpts().CUDA)
    return Stats;
  KernelReach Reach;
  LaunchGeometry Geometry(Ctx, Opts, &Reach);
  if (Project.Here)
    Geometry.describe(*Project.Here);
  if (Project.Elsewhere)
    Geometry.takeLaunchesFrom(*Project.Elsewhere);
  ProgramCFGs Graphs(Ctx);
  std::optional<TensorMaps> Maps;
  // Said by the first enabled check, as the walk's own gaps are in the
  // clang-tidy module: every check reads the shape, and a front end needs a
  // check's name on every warning.
  unsigned FirstCheck = 0;
  while (FirstCheck < NumCheckKinds && !Opts.enabled(CheckKind(FirstCheck)))
    ++FirstCheck;
  for (const FunctionDecl *K : Geometry.kernels()) {
    ++Stats.Kernels;
    std::vector<ShapeCommentProblem> Problems =
        FirstCheck < NumCheckKinds ? Geometry.shapeCommentProblems(K)
                                   : std::vector<ShapeCommentProblem>();
    if (!Problems.empty()) {
      // The shape used instead: one for all of the kernel's comments.
      const BlockShape Used = Geometry.shapesFor(K).front();
      for (const ShapeCommentProblem &P : Problems) {
        Finding F;
        F.Check = CheckKind(FirstCheck);
        F.Loc = P.Loc;
        F.Message = "block shape comment ignored: " + P.Message;
        F.Notes.push_back({K->getLocation(),
                           "so kernel '" + displayName(K) +
                               "' is analysed for a block of " +
                               Used.Block.str() + " threads (" + Used.Source +
                               ")"});
        Sink.report(F);
      }
    }
    // Every check needs a shared access or a barrier to say anything; a
    // kernel that reaches neither is not walked.
    bool Walk = Reach.reachesSharedOrBarrier(K);
    std::vector<ArgumentConstant> Args =
        Walk ? Geometry.constantArguments(K) : std::vector<ArgumentConstant>();
    for (const BlockShape &Shape : Geometry.shapesFor(K)) {
      ++Stats.Shapes;
      if (!Walk)
        continue;
      ThreadGeometry G(Shape.Block, Opts.WarpSize);
      KernelTrace Trace =
          traceKernel(Ctx, K, G, Opts, nullptr, nullptr, Args, &Graphs.folds(),
                      &Graphs.barrierContents());
      Trace.GeometrySource = Shape.Source + argumentsNote(Args);
      Trace.GeometryAssumed = Shape.Assumed;
      Trace.DynamicSharedBytes = Shape.DynamicSharedBytes;
      Stats.SharedAccesses += Trace.Accesses.size();
      Stats.Barriers += Trace.Barriers.size();
      KernelContext KC{Ctx, Opts, K, displayName(K), Trace, Graphs};
      // The host side is scanned for tensor maps only when a kernel makes
      // a TMA copy.
      if (!Trace.BulkCopies.empty() && !Maps)
        Maps.emplace(Ctx);
      KC.Maps = Maps ? &*Maps : nullptr;
      KC.Reported = &Sink;
      KC.GapSink = &Sink;
      // What the walk left out concerns every check; said once per
      // location and reason however many shapes meet it.
      for (const AnalysisGap &G : Trace.Gaps)
        KC.reportGap(Sink, G);
#define SHMEM_CHECK(KIND, NAME, DOC, ONCE, RUN, ...)                           \
  if (Opts.enabled(CheckKind::KIND))                                           \
    RUN(KC, Sink);
#include "Analysis/Checks.def"
    }
  }
  // A kernel template with no instantiation: nothing of it could be
  // analysed, which a header-only .cuh would otherwise pass in silence.
  if (FirstCheck < NumCheckKinds)
    for (const FunctionTemplateDecl *FT : Geometry.uninstantiatedKernels()) {
      AnalysisGap G;
      G.Loc = FT->getLocation();
      G.Kernel = FT->getNameAsString();
      G.What = "kernel template '" + G.Kernel + "' not analysed";
      G.NeverInstantiated = true;
      G.Why = "it is never instantiated in this translation unit; analyse "
              "the file that launches it, or instantiate it here "
              "(template __global__ void " +
              G.Kernel + "<...>(...);)";
      Sink.reportGap(G);
    }
  Sink.flush(Ctx.getSourceManager(), FrontEnd);
  return Stats;
}

} // namespace shmem
