//===- LaunchGeometry.h - Block shapes a kernel runs with -------*- C++ -*-===//
//
// In order of precedence: a `// shmem-lint: block=32x8` comment just above
// the kernel, the constant block shapes of its launch sites in the
// translation unit (<<<g, dim3(16, 16)>>>, <<<g, 256>>>, cudaLaunchKernel),
// __launch_bounds__, the BlockDim option, and finally a default that the
// findings then say was assumed.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_LAUNCHGEOMETRY_H
#define SHMEM_LINT_ANALYSIS_LAUNCHGEOMETRY_H

#include "AnalysisOptions.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace shmem {

struct BlockShape {
  Dim3 Block;
  std::string Source; ///< "annotation", "launch at line 40", ...
  bool Assumed = false;
};

class LaunchGeometry {
public:
  /// Scan the translation unit for launch sites once.
  LaunchGeometry(clang::ASTContext &Ctx, const AnalysisOptions &Opts);

  /// The shapes to analyse \p Kernel with (never empty).
  std::vector<BlockShape> shapesFor(const clang::FunctionDecl *Kernel) const;

  /// Every __global__ function with a body, template instantiations
  /// included and patterns excluded, in source order; none declared in a
  /// system header (those are not analysed, and not even collected).
  const std::vector<const clang::FunctionDecl *> &kernels() const {
    return Kernels;
  }

private:
  clang::ASTContext &Ctx;
  const AnalysisOptions &Opts;
  std::vector<const clang::FunctionDecl *> Kernels;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<BlockShape>> Launches;

  std::optional<Dim3> annotation(const clang::FunctionDecl *Kernel) const;
};

/// Evaluate a dim3-typed (or integer) launch argument to a constant shape.
std::optional<Dim3> evaluateDim3(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace shmem

#endif
