//===- Walker/Speculation.h - Probe walks that record ----------*- C++ -*-===//
//
// A loop the walker does not unroll is walked once without recording (a
// probe) to find which of the variables it modifies stay uniform, and then
// once more, recording, from the same state. When the probe finds none that
// varies, the second walk repeats it: on ggml's flash attention that is the
// outer loop over the KV cache, a quarter of a kernel's walk.
//
// So the probe records, speculatively: if it finds no variable to demote
// and touched nothing outside the loop's own frame that the second walk
// would have seen changed, its trace is the walk's and the second walk is
// skipped. Otherwise what it recorded is taken back, and the walk goes on as
// after a probe that did not record. The state below is what taking back
// needs, and what tells whether the probe reached outside.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_WALKER_SPECULATION_H
#define SHMEM_LINT_ANALYSIS_WALKER_SPECULATION_H

#include "Value.h"

#include "Analysis/KernelTrace.h"

#include "llvm/ADT/DenseMap.h"

#include <climits>
#include <map>
#include <vector>

namespace shmem {
namespace walker {

/// What a walk did to state that outlives the code it walked, as the
/// outermost place it reached: the walker notes each such effect, and a
/// speculative probe compares them with where it started. Effects made by
/// a probe that did not record count too: the walk after it sees them.
struct OuterEffects {
  /// Frames.size() at a return from an inlined call: a probe at depth D
  /// reached outside if a return left frame D or an outer one.
  unsigned ReturnFrame = UINT_MAX;
  /// ObjectState::Born of the oldest object made unknown.
  unsigned ObjectBorn = UINT_MAX;
  /// The outermost caller's variables a lambda's by-reference capture
  /// wrote (an index into CallerEnvs).
  unsigned CallerEnv = UINT_MAX;
  /// When the oldest closure whose by-copy captures a call rewrote was
  /// made.
  unsigned ClosureBorn = UINT_MAX;
  /// Async-copy groups committed or waited for, and barrier-tied copies
  /// completed: each changes which earlier copies are pending.
  unsigned AsyncOps = 0;

  void merge(const OuterEffects &O) {
    ReturnFrame = std::min(ReturnFrame, O.ReturnFrame);
    ObjectBorn = std::min(ObjectBorn, O.ObjectBorn);
    CallerEnv = std::min(CallerEnv, O.CallerEnv);
    ClosureBorn = std::min(ClosureBorn, O.ClosureBorn);
    AsyncOps += O.AsyncOps;
  }
};

/// Where a speculative probe began: the positions it must return to if it
/// is taken back. Trace event lists only grow during a walk, so their sizes
/// suffice; the facts merged into are kept whole (Speculation.cpp lists
/// both, once).
struct ProbeMark {
  // Walk position.
  unsigned Epoch = 0;
  unsigned FrameDepth = 0;
  unsigned CallerDepth = 0;
  unsigned Stretch = 0;
  unsigned IndexGeneration = 0;
  bool GotoWalked = false;
  OuterEffects Enclosing;
  std::vector<char> Exited;
  bool AnyExited = false;
  std::map<const clang::VarDecl *, Origins> RecordFrom;
  llvm::DenseMap<const clang::VarDecl *, unsigned> GroupHeld;
  // Trace: the size of each event list, those of the two that other state
  // indexes by name, and a trace holding only the merged facts.
  std::vector<size_t> EventSizes;
  size_t Accesses = 0, GlobalAccesses = 0;
  KernelTrace Facts;
};

} // namespace walker
} // namespace shmem

#endif
