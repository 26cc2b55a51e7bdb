//===- PinnedWalks.h - A kernel walked again with loops pinned --*- C++ -*-===//
//
// A loop the walker does not unroll stands for all its iterations at once:
// an address that depends on the iteration non-linearly (`buf[it & 1]`,
// `s[(t + i) % N]`) is not affine in it. The analyses that need such an
// address in a given iteration walk the kernel again with the loop pinned
// there (IterationPins) and look the access up in that walk. PinnedWalks
// keeps those walks, one per set of pins, up to a cap (each costs a walk of
// the kernel), and finds an access's instance in one: the same expression,
// kind, call stack and unrolled iterations.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PINNEDWALKS_H
#define SHMEM_LINT_ANALYSIS_PINNEDWALKS_H

#include "KernelTrace.h"

#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace shmem {

/// Iterations of loops walked symbolically, by loop statement.
using PinnedLoops = std::vector<std::pair<const clang::Stmt *, int64_t>>;

/// One walk with some loops pinned.
struct PinnedWalk {
  KernelTrace T;
  /// \p A's instance in this walk (\p A an access of the walk the pins were
  /// applied to); null when no thread runs it in the pinned iterations.
  const SharedAccess *instanceOf(const SharedAccess &A) const;

private:
  friend class PinnedWalks;
  using InstanceKey = std::tuple<const clang::Expr *, int,
                                 std::vector<const clang::CallExpr *>,
                                 std::vector<int>>;
  static InstanceKey keyOf(const SharedAccess &A);
  std::map<InstanceKey, unsigned> Index;
};

class PinnedWalks {
public:
  PinnedWalks(clang::ASTContext &Ctx, const KernelTrace &Base,
              const AnalysisOptions &Opts, unsigned Cap)
      : Ctx(Ctx), Base(Base), Opts(Opts), Cap(Cap) {}

  /// \p Base walked again with \p Pins; null once Cap walks are made.
  const PinnedWalk *walk(const PinnedLoops &Pins);

private:
  clang::ASTContext &Ctx;
  const KernelTrace &Base;
  const AnalysisOptions &Opts;
  unsigned Cap;
  std::map<PinnedLoops, std::unique_ptr<PinnedWalk>> Walks;
};

} // namespace shmem

#endif
