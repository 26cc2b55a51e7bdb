//===- Checks.h - Run shmem-lint's checks over a translation unit -*- C++ -*-===//
//
// The one entry point every front end calls. It finds the kernels (template
// instantiations included), works out the block shapes each is launched
// with, walks each kernel once per shape, and hands the trace to every
// enabled check. Checks report through the FindingSink only.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_CHECKS_H
#define SHMEM_LINT_CHECKS_CHECKS_H

#include "Analysis/AnalysisOptions.h"
#include "Analysis/Finding.h"
#include "Analysis/KernelTrace.h"

#include "clang/AST/ASTContext.h"

namespace shmem {

/// Everything a check may look at for one kernel and one block shape.
struct KernelContext {
  clang::ASTContext &Ctx;
  const AnalysisOptions &Opts;
  const clang::FunctionDecl *Kernel;
  /// "transpose<float, 32>" for instantiations, else the kernel's name.
  std::string DisplayName;
  const KernelTrace &Trace;
};

/// Statistics a front end may print (--verbose, benchmarks).
struct RunStats {
  unsigned Kernels = 0;
  unsigned Shapes = 0;
  unsigned SharedAccesses = 0;
  unsigned Barriers = 0;
};

/// Run every check enabled in \p Opts over the translation unit.
RunStats runChecks(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
                   FindingSink &Sink);

// The checks. Each lives in lib/Checks/<Name>.cpp.
void checkBankConflicts(const KernelContext &K, FindingSink &Sink);
void checkDivergentBarriers(const KernelContext &K, FindingSink &Sink);
void checkRaces(const KernelContext &K, FindingSink &Sink);

} // namespace shmem

#endif
