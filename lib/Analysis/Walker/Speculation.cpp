//===- Walker/Speculation.cpp - Probe walks that record -------------------===//
//
// A probe of a loop that records, and is kept as the walk of the loop or
// taken back (see Speculation.h).
//
// Kept, it must be what the walk after a probe that did not record would
// have recorded. That walk starts from the state the probe left: the same
// as the probe's own start unless the probe changed something outside the
// loop's frame that is not put back after it (a return from the frame, an
// object or closure made before it, a caller's variables through a lambda,
// async-copy groups). The walker notes those effects (OuterEffects); a
// probe that made one is taken back.
//
// Taken back, everything the recording changed is undone, and only that:
// what a probe changes whether or not it records (symbols, call contexts,
// stretches, completed async copies) stays as after a probe that did not
// record.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include <algorithm>

namespace shmem {
namespace walker {

/// The trace's event lists: what a walk appends to.
template <typename Fn> static void forEachEventList(KernelTrace &T, Fn F) {
  F(T.Accesses);
  F(T.Barriers);
  F(T.Collectives);
  F(T.CountedBarriers);
  F(T.BulkCopies);
  F(T.BarrierWaits);
  F(T.BarrierArrives);
  F(T.GlobalAccesses);
  F(T.Gaps);
}

/// The trace's facts a walk merges into, each of \p To beside \p From's.
/// Symbols and call contexts are not among them: a probe that does not
/// record makes those too.
template <typename Fn>
static void forEachMergedFact(KernelTrace &To, KernelTrace &From, Fn F) {
  F(To.UniformBranch, From.UniformBranch);
  F(To.Branches, From.Branches);
  F(To.LoopFacts, From.LoopFacts);
  F(To.Unrolled, From.Unrolled);
  F(To.CompilerUnroll, From.CompilerUnroll);
  F(To.SharedPipeline, From.SharedPipeline);
}

ProbeMark KernelWalker::markProbe() {
  ProbeMark M;
  M.Epoch = ++Epoch;
  M.FrameDepth = unsigned(Frames.size());
  M.CallerDepth = unsigned(CallerEnvs.size());
  M.Stretch = Stretch;
  M.IndexGeneration = IndexGeneration;
  M.GotoWalked = GotoWalked;
  M.Enclosing = Effects;
  Effects = OuterEffects();
  M.Exited = Exited;
  M.AnyExited = AnyExited;
  M.RecordFrom = RecordFrom;
  M.GroupHeld = GroupHeld;
  forEachEventList(T, [&](auto &List) { M.EventSizes.push_back(List.size()); });
  M.Accesses = T.Accesses.size();
  M.GlobalAccesses = T.GlobalAccesses.size();
  forEachMergedFact(M.Facts, T, [](auto &To, auto &From) { To = From; });
  return M;
}

bool KernelWalker::endProbe(const ProbeMark &M, const Stmt *Loop) {
  const OuterEffects Own = Effects;
  Effects = M.Enclosing;
  Effects.merge(Own);
  if (Own.ReturnFrame <= M.FrameDepth || Own.ObjectBorn < M.Epoch ||
      Own.CallerEnv < M.CallerDepth || Own.ClosureBorn < M.Epoch ||
      Own.AsyncOps || GotoWalked != M.GotoWalked)
    return true;
  // A variable of the loop's own function declared outside the loop keeps
  // what the probe gave it; one declared in the loop, or in a function it
  // calls, is declared again by the next walk.
  const SourceManager &SM = Ctx.getSourceManager();
  const DeclContext *Home = Inlining.empty()
                                ? static_cast<const DeclContext *>(T.Kernel)
                                : Inlining.back();
  auto Outside = [&](const VarDecl *V) {
    return V->getDeclContext() == Home &&
           !SM.isPointWithin(V->getLocation(), Loop->getBeginLoc(),
                             Loop->getEndLoc());
  };
  auto ChangedOutside = [&](const auto &Now, const auto &Before) {
    for (const auto &[V, What] : Now)
      if (Outside(V)) {
        auto It = Before.find(V);
        if (It == Before.end() || It->second != What)
          return true;
      }
    return false;
  };
  return ChangedOutside(RecordFrom, M.RecordFrom) ||
         ChangedOutside(GroupHeld, M.GroupHeld);
}

void KernelWalker::keepProbe(const ProbeMark &M) {
  // The walk after a probe starts at the stretch the probe ended in: its
  // accesses are numbered as that walk would have numbered them.
  ++T.ProbesKept;
  unsigned Shift = Stretch - M.Stretch;
  for (size_t I = M.Accesses; I < T.Accesses.size(); ++I)
    T.Accesses[I].Stretch += Shift;
  Stretch += Shift;
}

void KernelWalker::takeBackProbe(ProbeMark &M) {
  // Links from earlier accesses to the probe's.
  for (size_t I = 0; I < M.Accesses; ++I)
    llvm::erase_if(T.Accesses[I].Global,
                   [&](unsigned G) { return G >= M.GlobalAccesses; });
  for (size_t I = 0; I < M.GlobalAccesses; ++I)
    llvm::erase_if(T.GlobalAccesses[I].Shared,
                   [&](unsigned S) { return S >= M.Accesses; });
  unsigned List = 0;
  forEachEventList(T, [&](auto &Events) {
    Events.erase(Events.begin() + M.EventSizes[List++], Events.end());
  });
  forEachMergedFact(T, M.Facts,
                    [](auto &To, auto &From) { To = std::move(From); });
  Exited = std::move(M.Exited);
  AnyExited = M.AnyExited;
  IndexGeneration = M.IndexGeneration;
  // The probe's copies are not pending; the groups its commits made stay,
  // as after a probe that did not record.
  auto DropNew = [&](std::vector<unsigned> &Copies) {
    llvm::erase_if(Copies, [&](unsigned I) { return I >= M.Accesses; });
  };
  DropNew(AsyncPending);
  DropNew(AsyncBarrierPending);
  for (std::vector<unsigned> &Group : AsyncGroups)
    DropNew(Group);
  forgetOrigins(M.Accesses, M.GlobalAccesses);
  ++T.ProbesTakenBack;
}

void KernelWalker::forgetOrigins(size_t SharedLimit, size_t GlobalLimit) {
  auto Gone = [&](OriginId O) {
    return O & GlobalBit ? (O & ~GlobalBit) >= GlobalLimit : O >= SharedLimit;
  };
  auto FromValue = [&](Value &V) { llvm::erase_if(V.From, Gone); };
  auto FromEnv = [&](Env &E) {
    for (auto &KV : E)
      FromValue(KV.second);
  };
  auto FromObject = [&](const ObjectRef &Obj) {
    if (Obj)
      for (auto &KV : Obj->Fields)
        FromValue(KV.second);
  };
  FromEnv(Vars);
  for (Env *E : CallerEnvs)
    FromEnv(*E);
  for (auto &KV : ClosureCopies)
    FromEnv(KV.second);
  for (auto &KV : RecordFrom)
    llvm::erase_if(KV.second, Gone);
  for (FrameState &F : Frames)
    if (F.RetVal)
      FromValue(*F.RetVal);
  for (auto &KV : Objects)
    FromObject(KV.second);
  for (auto &KV : Constructed)
    FromObject(KV.second);
  for (ThisFrame &F : ThisStack)
    FromObject(F.Obj);
}

} // namespace walker
} // namespace shmem
