//===- LaunchGeometry.h - Block shapes a kernel runs with -------*- C++ -*-===//
//
// In order of precedence: a `// shmem-lint: block=32x8` comment just above
// the kernel, the block shapes of its launch sites in the translation unit
// (<<<g, dim3(16, 16)>>>, <<<g, 256>>>, cudaLaunchKernel), __launch_bounds__,
// the BlockDim option, and finally a default that the findings then say was
// assumed. A front end analysing a whole project adds the launches its
// other files make (ProjectLaunches.h).
//
// A launch shape only partly constant (`dim3(32, by)`) keeps its constant
// parts. Where a part is guessed (the rest of such a launch, the split of a
// __launch_bounds__ count, the default), the guess respects what the
// kernel's code states about blockDim (ShapeFacts: `assert(blockDim.x ==
// 32)`, an early out, an array indexed by threadIdx.x), and the shape's
// Source says which parts were taken from where.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_LAUNCHGEOMETRY_H
#define SHMEM_LINT_ANALYSIS_LAUNCHGEOMETRY_H

#include "AnalysisOptions.h"
#include "KernelTrace.h"
#include "ProjectLaunches.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

class KernelReach;

/// What one comment line says as a block shape: nothing (no `shmem-lint:`,
/// or prose about it), a shape, or a directive that was meant as one and
/// cannot be used (`blcok=256`, `block=2000`, `block=abc`).
struct ShapeComment {
  enum Kind { None, Shape, Malformed } K = None;
  Dim3 Block;
  /// Malformed: what is wrong and the accepted form, lowercase.
  std::string Problem;
  /// Where `shmem-lint:` starts in the line.
  size_t Offset = 0;
};
ShapeComment parseShapeComment(llvm::StringRef Line);

/// A malformed shape comment above a kernel, where it stands.
struct ShapeCommentProblem {
  clang::SourceLocation Loc;
  std::string Message;
};

class LaunchGeometry {
public:
  /// Scan the translation unit for launch sites once. \p Reach, when
  /// given, says which kernels read threadIdx.y or .z, which decides how a
  /// `__launch_bounds__` thread count is split into a shape.
  LaunchGeometry(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
                 KernelReach *Reach = nullptr);

  /// The shapes to analyse \p Kernel with (never empty).
  std::vector<BlockShape> shapesFor(const clang::FunctionDecl *Kernel) const;

  /// \p Kernel's integer parameters that every launch in the translation
  /// unit (and the project's other files, takeLaunchesFrom()) passes one
  /// constant for (`attention<<<g, b>>>(out, in, 32)`):
  /// the walk takes them as that value. None when some launch's arguments
  /// are not seen (through a pointer, a helper or cudaLaunchKernel) or the
  /// kernel is launched nowhere here.
  std::vector<ArgumentConstant>
  constantArguments(const clang::FunctionDecl *Kernel) const;

  /// Every __global__ function with a body, template instantiations
  /// included and patterns excluded, in source order; none declared in a
  /// system header (those are not analysed, and not even collected).
  const std::vector<const clang::FunctionDecl *> &kernels() const {
    return Kernels;
  }

  /// The kernel templates (outside system headers) that the translation
  /// unit never instantiates: nothing of them is analysed.
  const std::vector<const clang::FunctionTemplateDecl *> &
  uninstantiatedKernels() const {
    return Uninstantiated;
  }

  /// What this file tells the rest of its project (ProjectLaunches.h):
  /// the launches it makes, the kernels it defines, analyses and
  /// instantiates. Before takeLaunchesFrom(), which adds others' launches.
  void describe(TranslationUnitLaunches &Out) const;

  /// Analyse this file's kernels with the launches other files of the
  /// project make of them too (launchesFromElsewhere()).
  void takeLaunchesFrom(const ProjectLaunches &Elsewhere);

  /// The malformed `shmem-lint:` comments above \p Kernel, nearest first:
  /// they are passed over, so the kernel is analysed with another shape.
  std::vector<ShapeCommentProblem>
  shapeCommentProblems(const clang::FunctionDecl *Kernel) const;

private:
  clang::ASTContext &Ctx;
  const AnalysisOptions &Opts;
  KernelReach *Reach;
  std::vector<const clang::FunctionDecl *> Kernels;
  std::vector<const clang::FunctionTemplateDecl *> Uninstantiated;
  /// What the launches of each kernel give it, by canonical declaration:
  /// this file's, and those taken from other files of the project.
  llvm::DenseMap<const clang::FunctionDecl *, KernelLaunches> Launched;
  /// The kernels' names across files (mangled), once asked for.
  mutable std::unique_ptr<clang::ASTNameGenerator> Names;
  std::string nameOf(const clang::FunctionDecl *Kernel) const;

  std::optional<Dim3>
  annotation(const clang::FunctionDecl *Kernel,
             std::vector<ShapeCommentProblem> *Problems = nullptr) const;
};

/// Evaluate a dim3-typed (or integer) launch argument to a constant shape.
std::optional<Dim3> evaluateDim3(const clang::Expr *E, clang::ASTContext &Ctx);
/// The same, keeping the constant parts of a shape that is not all
/// constant; none when no part is one or the argument is not a shape.
std::optional<PartialDim3> evaluatePartialDim3(const clang::Expr *E,
                                               clang::ASTContext &Ctx);

} // namespace shmem

#endif
