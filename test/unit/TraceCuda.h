//===- TraceCuda.h - Parse a test's kernel and walk it ---------*- C++ -*-===//
//
// The step most analysis tests begin with: parse the test's code as CUDA
// device code (ParseCuda.h), take its last kernel and walk it over a
// one-dimensional block. Failures are test failures at the caller's line,
// and an empty trace, so a test reads its expectations against nothing
// rather than crashing.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_TEST_UNIT_TRACECUDA_H
#define SHMEM_LINT_TEST_UNIT_TRACECUDA_H

#include "Analysis/KernelTrace.h"

#include "ParseCuda.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace shmem {
namespace test {

/// A test's translation unit, its last kernel and, once walked, its trace.
/// The trace points into the AST, so the two are kept together.
struct ParsedKernel {
  std::unique_ptr<clang::ASTUnit> AST;
  const clang::FunctionDecl *Kernel = nullptr;
  KernelTrace T;

  explicit operator bool() const { return Kernel != nullptr; }
  clang::ASTContext &ctx() const { return AST->getASTContext(); }
  const clang::SourceManager &sourceManager() const {
    return AST->getSourceManager();
  }
  /// Walks the kernel over \p Threads x 1 x 1 threads; nothing without one.
  KernelTrace trace(unsigned Threads,
                    const AnalysisOptions &Opts = AnalysisOptions()) const {
    if (!Kernel)
      return KernelTrace();
    return traceKernel(ctx(), Kernel, ThreadGeometry(Dim3{Threads, 1, 1}),
                       Opts);
  }
};

/// \p Code (after \p Declarations) parsed, and its last kernel.
inline ParsedKernel parseKernel(const std::string &Code,
                                const std::string &Declarations = "") {
  ParsedKernel P;
  P.AST = parseDeviceCode(Code, Declarations);
  EXPECT_TRUE(P.AST) << Code;
  if (!P.AST)
    return P;
  P.Kernel = lastKernel(P.ctx());
  EXPECT_TRUE(P.Kernel) << "no kernel in:\n" << Code;
  return P;
}

/// parseKernel(), and the kernel walked over \p Threads x 1 x 1 threads.
inline ParsedKernel
traceLastKernel(const std::string &Code, unsigned Threads,
                const AnalysisOptions &Opts = AnalysisOptions(),
                const std::string &Declarations = "") {
  ParsedKernel P = parseKernel(Code, Declarations);
  P.T = P.trace(Threads, Opts);
  return P;
}

} // namespace test
} // namespace shmem

#endif
