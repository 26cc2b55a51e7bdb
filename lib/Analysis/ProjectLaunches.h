//===- ProjectLaunches.h - Launches across translation units ----*- C++ -*-===//
//
// A kernel defined in kernels.cu and launched from main.cu (linked
// together) has its block shape and constant arguments at a launch that the
// analysis of kernels.cu alone never sees, so it was analysed for an assumed
// shape. A front end that analyses a whole project (the driver with -p, or
// several files) gathers what each file launches, by the kernel's mangled
// name, and what each defines; then it analyses again the files whose
// kernels other files launch, handing them those launches.
//
// Which of another file's launches a kernel takes:
//  - from a file that only declares it: the launch calls the one definition
//    the project has. When files define the name at several places (two
//    programs built from one tree, each with its own `kernel`), the launch
//    could call any of them, and none takes it.
//  - from a file that defines it at the same place (a kernel in a header
//    both include): the same kernel. Taken only by a file that does not
//    launch it itself: the files that do analyse their own copy with their
//    own launches, and the front end merges their findings.
//
// Plain data, no Clang types: the driver keeps one per file between passes.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROJECTLAUNCHES_H
#define SHMEM_LINT_ANALYSIS_PROJECTLAUNCHES_H

#include "ThreadGeometry.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace shmem {

struct BlockShape {
  Dim3 Block;
  std::string Source; ///< "annotation", "launch at line 40", ...
  bool Assumed = false;
  /// For launches: the bytes of dynamic shared memory they give (the
  /// third launch argument, 0 when absent), the largest over the launches
  /// with this shape; none when one of them gives a size not known at
  /// compile time, and for shapes that are not launches.
  std::optional<int64_t> DynamicSharedBytes;
};

/// A launch's block shape where only some parts are constants
/// (`dim3(32, by)`): the unknown ones are none.
struct PartialDim3 {
  std::optional<unsigned> Part[3];
  /// x and y are one variable the launch does not give as a constant
  /// (`dim3(s, s)`): a square block.
  bool SameXY = false;
  bool complete() const { return Part[0] && Part[1] && Part[2]; }
  bool operator==(const PartialDim3 &O) const {
    return Part[0] == O.Part[0] && Part[1] == O.Part[1] &&
           Part[2] == O.Part[2] && SameXY == O.SameXY;
  }
};

/// A launch whose shape is partly constant: its known parts and where it
/// is.
struct PartialLaunch {
  PartialDim3 Block;
  std::string Source;
  std::optional<int64_t> DynamicSharedBytes;
};

/// Adds \p S to \p Shapes, or merges it into the one with its block: a
/// kernel launched twice with one shape is analysed once (named by the
/// first launch), with the larger dynamic shared memory, or none when one
/// of them is not known. For whole shapes and partly constant ones alike.
template <typename Shape>
void addLaunchShape(std::vector<Shape> &Shapes, const Shape &S) {
  for (Shape &Old : Shapes)
    if (Old.Block == S.Block) {
      Old.DynamicSharedBytes =
          Old.DynamicSharedBytes && S.DynamicSharedBytes
              ? std::optional<int64_t>(
                    std::max(*Old.DynamicSharedBytes, *S.DynamicSharedBytes))
              : std::nullopt;
      return;
    }
  Shapes.push_back(S);
}

/// What the launches of one kernel give it.
struct KernelLaunches {
  std::vector<BlockShape> Shapes;
  std::vector<PartialLaunch> Partials;
  /// Whether a `<<<>>>` launch was seen, and per parameter the integer
  /// constant every such launch passes (none where they differ or one
  /// passes something else).
  bool ArgumentsSeen = false;
  std::vector<std::optional<int64_t>> Arguments;
  /// Some launch passes its arguments where they are not seen (through a
  /// pointer, a helper or cudaLaunchKernel): no argument is a constant.
  bool ArgumentsUnseen = false;

  /// The arguments of one more `<<<>>>` launch: a parameter keeps a value
  /// only while every launch agrees on it.
  void addArguments(const std::vector<std::optional<int64_t>> &Now);
  /// \p O's launches added to these.
  void merge(const KernelLaunches &O);
  /// Whether merge(\p O) would change what the kernel is analysed with
  /// (a shape, a partial shape, dynamic shared bytes, an argument), as
  /// opposed to another launch's name for the same.
  bool changedBy(const KernelLaunches &O) const;
  bool empty() const {
    return Shapes.empty() && Partials.empty() && !ArgumentsSeen &&
           !ArgumentsUnseen;
  }
};

/// Kernels by mangled name.
using ProjectLaunches = std::map<std::string, KernelLaunches>;

/// What one file tells the rest of its project.
struct TranslationUnitLaunches {
  /// The launches this file makes, of kernels defined here or elsewhere.
  ProjectLaunches Launched;
  /// Every kernel with external linkage defined here, with where it is
  /// defined ("/path/kernels.cuh:40"): a kernel in a header is defined in
  /// every file that includes it, at one place.
  std::map<std::string, std::string> Defined;
  /// Those of them that are analysed (they reach shared memory or a
  /// barrier): only these gain from launches elsewhere.
  std::set<std::string> Analysed;
  /// The kernel templates instantiated here, by the place of their
  /// declaration as a report names it ("file:line:col"): another file's
  /// notice that one was never instantiated is not true of the project.
  std::set<std::string> InstantiatedTemplates;
};

/// For each of \p Units (one per file, in the driver's order): the launches
/// the other files make of the kernels it analyses, by the rules above;
/// only those that change what a kernel is analysed with, so a file with
/// none is not analysed again.
std::vector<ProjectLaunches> launchesFromElsewhere(
    const std::vector<const TranslationUnitLaunches *> &Units);

} // namespace shmem

#endif
