//===- Checks.cpp - Run shmem-lint's checks over a translation unit -------===//

#include "Checks.h"

#include "Analysis/LaunchGeometry.h"

#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

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

RunStats runChecks(ASTContext &Ctx, const AnalysisOptions &Opts,
                   FindingSink &Sink) {
  RunStats Stats;
  if (!Ctx.getLangOpts().CUDA)
    return Stats;
  LaunchGeometry Geometry(Ctx, Opts);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *K : Geometry.kernels()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(K->getLocation())))
      continue;
    ++Stats.Kernels;
    for (const BlockShape &Shape : Geometry.shapesFor(K)) {
      ++Stats.Shapes;
      ThreadGeometry G(Shape.Block, Opts.WarpSize);
      KernelTrace Trace = traceKernel(Ctx, K, G, Opts);
      Trace.GeometrySource = Shape.Source;
      Trace.GeometryAssumed = Shape.Assumed;
      Stats.SharedAccesses += Trace.Accesses.size();
      Stats.Barriers += Trace.Barriers.size();
      KernelContext KC{Ctx, Opts, K, displayName(K), Trace};
      if (Opts.enabled(CheckKind::BankConflict))
        checkBankConflicts(KC, Sink);
      if (Opts.enabled(CheckKind::DivergentBarrier))
        checkDivergentBarriers(KC, Sink);
      if (Opts.enabled(CheckKind::Race))
        checkRaces(KC, Sink);
    }
  }
  return Stats;
}

} // namespace shmem
