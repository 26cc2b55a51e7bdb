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
  M.Accesses = T.Accesses.size();
  M.Barriers = T.Barriers.size();
  M.Collectives = T.Collectives.size();
  M.CountedBarriers = T.CountedBarriers.size();
  M.BulkCopies = T.BulkCopies.size();
  M.BarrierWaits = T.BarrierWaits.size();
  M.BarrierArrives = T.BarrierArrives.size();
  M.GlobalAccesses = T.GlobalAccesses.size();
  M.Gaps = T.Gaps.size();
  M.UniformBranch = T.UniformBranch;
  M.Branches = T.Branches;
  M.LoopFacts = T.LoopFacts;
  M.Unrolled = T.Unrolled;
  M.CompilerUnroll = T.CompilerUnroll;
  M.SharedPipeline = T.SharedPipeline;
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
  for (const auto &[V, From] : RecordFrom)
    if (Outside(V)) {
      auto It = M.RecordFrom.find(V);
      if (It == M.RecordFrom.end() || It->second != From)
        return true;
    }
  for (const auto &[V, Group] : GroupHeld)
    if (Outside(V)) {
      auto It = M.GroupHeld.find(V);
      if (It == M.GroupHeld.end() || It->second != Group)
        return true;
    }
  return false;
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
  auto Truncate = [](auto &V, size_t N) { V.erase(V.begin() + N, V.end()); };
  Truncate(T.Accesses, M.Accesses);
  Truncate(T.Barriers, M.Barriers);
  Truncate(T.Collectives, M.Collectives);
  Truncate(T.CountedBarriers, M.CountedBarriers);
  Truncate(T.BulkCopies, M.BulkCopies);
  Truncate(T.BarrierWaits, M.BarrierWaits);
  Truncate(T.BarrierArrives, M.BarrierArrives);
  Truncate(T.GlobalAccesses, M.GlobalAccesses);
  Truncate(T.Gaps, M.Gaps);
  T.UniformBranch = std::move(M.UniformBranch);
  T.Branches = std::move(M.Branches);
  T.LoopFacts = std::move(M.LoopFacts);
  T.Unrolled = std::move(M.Unrolled);
  T.CompilerUnroll = std::move(M.CompilerUnroll);
  T.SharedPipeline = M.SharedPipeline;
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
