//===- BarrierMessages.h - Words of a divergent-barrier finding -*- C++ -*-===//
//
// Part of shmem-divergent-barrier: the parts of its messages and notes that
// depend only on why threads miss a barrier and whom it waits for (what
// goes wrong, the fix to offer), on the branch that decides it, or on how
// the call spells its callee.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_BARRIERMESSAGES_H
#define SHMEM_LINT_CHECKS_BARRIERMESSAGES_H

#include "BarrierSites.h"

#include <string>

namespace shmem {
namespace divergent {

/// Why the threads that do not reach a barrier miss it.
enum class Reason { Inside, Return, Continue, Break, Goto, Loop };

/// "'blockSum'", or for a lambda or function object "'reduce'" as the
/// call spells the object.
std::string callName(const clang::CallExpr *Call, const clang::ASTContext &Ctx);

/// The name of the function \p Call reaches, through a constant function
/// pointer too (calleeOf()); empty when it has none.
std::string calledName(const clang::CallExpr *Call);

/// "the threads for which 'tid < n' is true", from the condition alone.
std::string conditionWitness(const BranchInfo &Br, const BarrierSite &Site,
                             const FunctionUniformity &FU, bool Lanes,
                             const clang::ASTContext &Ctx);

/// The fix the note at the deciding condition offers.
std::string fixFor(Reason R, Scope Sc);

/// What the threads that miss the barrier do: "skip it", "have returned".
const char *skipText(Reason R);

/// What goes wrong. Threads waiting at a block barrier for threads that
/// skipped it are released by whichever barrier those reach next, so the
/// two groups may synchronise at different barriers rather than hang;
/// threads that exited no longer count (on current GPUs), but the
/// programming model leaves both undefined.
std::string consequence(Reason R, Scope S);

/// "block", "warp", "tile": what a barrier of scope \p S synchronises.
const char *scopeNoun(Scope S);

} // namespace divergent
} // namespace shmem

#endif
