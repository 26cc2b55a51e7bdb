//===- IndexSteps.h - Whether nvcc sees the step between addresses -*- C++ -*-===//
//
// The walk knows each thread's addresses, so two accesses a thread makes
// one element apart look adjacent to it whatever the index says. nvcc
// merges them only when it can prove the step from the expressions (LLVM's
// scalar evolution, then ptxas): `s[t * 4 + i]` over an unrolled `i`, not
// `s[(t * 4 + i + 32) % 128]`, whose remainder hides the step although it
// never wraps inside a thread's run. Measured on the H200
// (bench/gpu/random, test/calibration/random-h200.tsv.xz): of 118 unrolled
// runs whose index passes the loop variable through `%` or `/`, nvcc kept
// 98 apart, as this rule says, and merged 20: 8 of the two exceptions
// below, 12 mostly 2-byte stores that ptxas merges through a power-of-two
// remainder (not modelled; the verdict on conflict is the same there).
//
// The rule: the address is read as a sum of products (casts, `+`, `-`,
// `*`, `<<` by a constant, subscripts, member accesses), local variables
// replaced by their initialisers when they are never assigned again. Any
// other operation (`%`, `/`, `&`, `|`, `^`, `>>`, `?:`, calls, loads) is
// opaque. The step is visible when no opaque operation mixes what differs
// between the two accesses (the variables of the loops whose iteration
// differs) with anything else; an opaque operation of the loop variables
// and constants alone folds to a constant in each unrolled copy. And
// `a[x / C][x % C]` with rows of exactly C elements is `x` for elements
// narrower than 4 bytes, whose stores ptxas merges from the final
// arithmetic; for floats and doubles nvcc kept such runs apart (5 runs).
// Two accesses at different expressions (straight-line code) must have the
// same opaque parts.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_INDEXSTEPS_H
#define SHMEM_LINT_ANALYSIS_INDEXSTEPS_H

#include "KernelTrace.h"

#include <map>
#include <set>
#include <string>

namespace shmem {

class IndexSteps {
public:
  explicit IndexSteps(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Whether nvcc can prove the step from \p A's address to \p B's (see
  /// the file comment); both accesses of one array, \p B after \p A.
  bool stepVisible(const SharedAccess &A, const SharedAccess &B);

  /// After stepVisible said no: the operator that hid the step (`%`, `/`,
  /// `^`, ...), or "" when it was another expression (a call, a load) or
  /// straight-line accesses whose opaque parts differ.
  const std::string &hiddenBy() const { return HiddenBy; }

  /// The variables \p S modifies (cached): a function body's are those it
  /// assigns after their declaration, a loop's those that differ between
  /// its iterations; a run asks once per pair.
  const std::set<const clang::VarDecl *> &modifiedIn(const clang::Stmt *S);

private:
  const clang::ASTContext &Ctx;
  std::map<const clang::Stmt *, std::set<const clang::VarDecl *>> Modified;
  std::string HiddenBy;
};

} // namespace shmem

#endif
