//===- Walker/Loops.cpp - Loops -------------------------------------------===//
//
// Loops: a trip count simulated where the counter's start, step and bound
// are known; unrolled up to a bound; otherwise walked until the values the
// loop changes reach a fixpoint.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace shmem {
namespace walker {

void KernelWalker::LoopVisit::test(const KernelWalker &W, unsigned K,
                                   const LaneValue &C) {
  std::optional<int64_t> Splat = W.uniformTest(C);
  if (!W.anyActive() && !(W.ActiveApprox && Splat))
    return;
  if (K == 0)
    Reached = true;
  if (W.ActiveApprox && !Splat)
    Exact = false;
  bool SomeLeave = Splat ? !*Splat : !C.isConcrete();
  if (!Splat && !SomeLeave) {
    const std::vector<char> &A = W.Active;
    C.constants().forEachWhile([&](unsigned I, int64_t X) {
      SomeLeave = SomeLeave || (A[I] && !X);
      return !SomeLeave;
    });
  }
  if (!SomeLeave)
    return;
  if (K == 0)
    FirstTestHolds = false;
  Trips =
      !C.isConcrete() || (Trips != -2 && Trips != int64_t(K)) ? -1 : int64_t(K);
}

std::optional<LaneValue>
KernelWalker::additiveStep(const Expr *E, const VarDecl *V,
                           const std::set<const VarDecl *> &Mod) {
  E = E->IgnoreParenImpCasts();
  auto IsV = [&](const Expr *X) { return ModifiedVars::varOf(X) == V; };
  auto Invariant = [&](const Expr *X) -> std::optional<LaneValue> {
    // Any modified variable in the step makes it vary between iterations.
    ReferencedVars Refs;
    Refs.TraverseStmt(const_cast<Expr *>(X));
    for (const VarDecl *D : Refs.Vars)
      if (Mod.count(D))
        return std::nullopt;
    bool SavedRec = Recording;
    Recording = false;
    LaneValue S = eval(X).Int;
    Recording = SavedRec;
    if (!S.isAffine())
      return std::nullopt;
    return S;
  };
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->isIncrementDecrementOp() && IsV(U->getSubExpr()))
      return constant(U->isIncrementOp() ? 1 : -1);
    return std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (!IsV(B->getLHS()))
      return std::nullopt;
    if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) {
      auto S = Invariant(B->getRHS());
      if (S && B->getOpcode() == BO_SubAssign)
        S = -*S;
      return S;
    }
    if (B->getOpcode() == BO_Assign) {
      const auto *R =
          dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
      if (R && (R->getOpcode() == BO_Add || R->getOpcode() == BO_Sub)) {
        if (IsV(R->getLHS())) {
          auto S = Invariant(R->getRHS());
          if (S && R->getOpcode() == BO_Sub)
            S = -*S;
          return S;
        }
        if (R->getOpcode() == BO_Add && IsV(R->getRHS()))
          return Invariant(R->getLHS());
      }
    }
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>>
KernelWalker::simulateLoop(const VarDecl *V, const Expr *Cond,
                           const Expr *Inc) {
  auto It = Vars.find(V);
  if (!Cond || !Inc || It == Vars.end() || It->second.IsPointer)
    return std::nullopt;
  auto Start = activeConstant(It->second.Int);
  if (!Start)
    return std::nullopt;
  return simulateOnce(V, Cond, Inc, *Start);
}

std::optional<std::vector<int64_t>> KernelWalker::simulateOnce(const VarDecl *V,
                                                               const Expr *Cond,
                                                               const Expr *Inc,
                                                               int64_t Start) {
  // The simulation is a function of the counter's start and of the values
  // of the variables the condition and increment read: when those are
  // integers the same in every thread (`j < ncols` with a local constant),
  // they key the memo with the start. An unrolled loop around the loop asks
  // again at every iteration with the same values.
  SimulationKey Key{V, Cond, Inc, {Start}};
  if (!simulationInputs(V, Cond, Inc, Key.Inputs))
    return simulateFrom(V, Cond, Inc, Start);
  auto Found = Simulated.find(Key);
  if (Found == Simulated.end())
    Found = Simulated.emplace(std::move(Key), simulateFrom(V, Cond, Inc, Start))
                .first;
  return Found->second;
}

std::optional<std::vector<int64_t>>
KernelWalker::threadTrips(const VarDecl *V, const Expr *Cond, const Expr *Inc) {
  auto It = Vars.find(V);
  if (!Cond || !Inc || It == Vars.end() || It->second.IsPointer ||
      !It->second.Int.isConcrete() || ActiveApprox)
    return std::nullopt;
  const Lanes Start = It->second.Int.constants();
  std::vector<int64_t> Trips(N, 0);
  std::map<int64_t, int64_t> ByStart; // Few: a block-stride loop's rows.
  for (unsigned Th = 0; Th < N; ++Th) {
    if (!Active[Th])
      continue;
    auto [BIt, New] = ByStart.try_emplace(Start[Th], -1);
    if (New) {
      if (ByStart.size() > 64)
        return std::nullopt;
      std::optional<std::vector<int64_t>> Seq =
          simulateOnce(V, Cond, Inc, Start[Th]);
      if (!Seq)
        return std::nullopt;
      BIt->second = int64_t(Seq->size());
    }
    Trips[Th] = BIt->second;
  }
  return Trips;
}

const KernelWalker::LoopExprFacts &
KernelWalker::loopExprFacts(const Expr *Cond, const Expr *Inc) {
  auto [It, New] = LoopExprs.try_emplace({Cond, Inc});
  if (New)
    for (const Expr *E : {Cond, Inc}) {
      It->second.Refs.TraverseStmt(const_cast<Expr *>(E));
      It->second.Mods.TraverseStmt(const_cast<Expr *>(E));
    }
  return It->second;
}

bool KernelWalker::simulationInputs(const VarDecl *V, const Expr *Cond,
                                    const Expr *Inc,
                                    std::vector<int64_t> &Inputs) {
  const ReferencedVars &F = loopExprFacts(Cond, Inc).Refs;
  if (F.HasCall)
    return false;
  for (const VarDecl *R : F.Vars) {
    if (R == V)
      continue;
    auto It = Vars.find(R);
    if (It == Vars.end())
      continue;
    // Only a scalar's value is all of what reading it gives; a record's
    // fields and an array's elements live in its object, not here.
    if (It->second.IsPointer || !R->getType()->isIntegralOrEnumerationType())
      return false;
    auto C = It->second.Int.asConstant();
    if (!C)
      return false;
    Inputs.push_back(*C);
  }
  return true;
}

std::optional<std::vector<int64_t>> KernelWalker::simulateFrom(const VarDecl *V,
                                                               const Expr *Cond,
                                                               const Expr *Inc,
                                                               int64_t Start) {
  std::vector<int64_t> Seen;
  bool SavedRec = Recording;
  Recording = false;
  // What the simulation changes is put back: only the counter and what the
  // condition and increment assign, unless they call a function, which may
  // assign anything through a reference. Copying every live variable at
  // each simulation was the largest cost of walking ggml's tile flash
  // attention, which simulates its inner loops at every outer iteration.
  const LoopExprFacts &Facts = loopExprFacts(Cond, Inc);
  std::optional<Env> SavedAll;
  std::vector<std::pair<const VarDecl *, std::optional<Value>>> SavedSome;
  auto Save = [&](const VarDecl *X) {
    auto It = Vars.find(X);
    std::optional<Value> Old;
    if (It != Vars.end())
      Old = It->second;
    SavedSome.push_back({X, std::move(Old)});
  };
  if (Facts.Refs.HasCall) {
    SavedAll = Vars;
  } else {
    Save(V);
    for (const VarDecl *X : Facts.Mods.Vars)
      if (X != V)
        Save(X);
  }
  std::vector<char> SavedActive = Active;
  bool SavedApprox = ActiveApprox;
  // The counter is the same in every thread: simulate it in all of them,
  // or an update under `if (tid < 32)` would keep the old value in the
  // others and the counter would stop being a constant.
  std::fill(Active.begin(), Active.end(), 1);
  ActiveApprox = false;
  int64_t Cur = Start;
  bool Ok = false;
  for (unsigned Step = 0; Step < 4096; ++Step) {
    Vars[V] = evalInt(constant(Cur));
    auto C = eval(Cond).Int.asConstant();
    if (!C)
      break;
    if (!*C) {
      Ok = true;
      break;
    }
    Seen.push_back(Cur);
    evalDiscarded(Inc);
    auto Next = Vars[V].IsPointer ? std::nullopt : Vars[V].Int.asConstant();
    if (!Next)
      break;
    Cur = *Next;
  }
  if (SavedAll) {
    Vars = std::move(*SavedAll);
  } else {
    for (auto &[X, Old] : SavedSome)
      if (Old)
        Vars[X] = std::move(*Old);
      else
        Vars.erase(X);
  }
  Active = std::move(SavedActive);
  ActiveApprox = SavedApprox;
  Recording = SavedRec;
  if (!Ok)
    return std::nullopt;
  return Seen;
}

std::optional<int64_t> KernelWalker::activeConstant(const LaneValue &V) {
  if (auto C = V.asConstant())
    return C;
  // A symbol that only inactive threads carry does not matter: the value
  // is one in the active threads, and holds no symbol in the first.
  if (!uniformWhere(V, Active))
    return std::nullopt;
  auto First = std::find_if(Active.begin(), Active.end(),
                            [](char A) { return A != 0; });
  unsigned T = unsigned(First - Active.begin());
  if (First == Active.end() || T >= V.size())
    return std::nullopt;
  for (const auto &KV : V.coefficients())
    if (KV.second[T] != 0)
      return std::nullopt;
  return V.constants()[T];
}

bool KernelWalker::uniformWhere(const LaneValue &V,
                                const std::vector<char> &Mask) {
  if (!V.isAffine())
    return false;
  std::optional<unsigned> First;
  for (unsigned T = 0; T < Mask.size() && T < V.size(); ++T) {
    if (!Mask[T])
      continue;
    if (!First) {
      First = T;
      continue;
    }
    if (V.constants()[T] != V.constants()[*First])
      return false;
    for (const auto &KV : V.coefficients())
      if (KV.second[T] != KV.second[*First])
        return false;
  }
  return true;
}

/// 0, 1, ..., \p Trips - 1: a loop iteration unknown's values.
static std::vector<int64_t> iterationNumbers(size_t Trips) {
  std::vector<int64_t> Iters(Trips);
  std::iota(Iters.begin(), Iters.end(), 0);
  return Iters;
}

/// Merges one visit's trip counts into \p I (see SymbolInfo::ThreadTrips):
/// the largest per thread, unknown for good once a visit gives none. Where
/// they differ between threads, Values are the iterations up to the
/// largest (where not, the visits' simulations give Values, as before).
static void noteThreadTrips(SymbolInfo &I,
                            const std::optional<std::vector<int64_t>> &Trips) {
  if (I.TripsUnknown)
    return;
  if (!Trips) {
    I.TripsUnknown = true;
    I.ThreadTrips.clear();
    return;
  }
  if (I.ThreadTrips.empty())
    I.ThreadTrips.assign(Trips->size(), 0);
  for (unsigned Th = 0; Th < Trips->size(); ++Th)
    I.ThreadTrips[Th] = std::max(I.ThreadTrips[Th], (*Trips)[Th]);
  auto [Least, Most] =
      std::minmax_element(I.ThreadTrips.begin(), I.ThreadTrips.end());
  if (*Least != *Most)
    I.Values = iterationNumbers(size_t(*Most));
}

void KernelWalker::walkLoop(const Stmt *L) {
  StretchJoin Join(*this);
  const Stmt *Body = nullptr;
  const Expr *Cond = nullptr, *Inc = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(L)) {
    walkStmt(F->getInit());
    if (const VarDecl *CV = F->getConditionVariable())
      walkVarDecl(CV);
    Body = F->getBody();
    Cond = F->getCond();
    Inc = F->getInc();
  } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
    Body = W->getBody();
    Cond = W->getCond();
  } else if (const auto *D = dyn_cast<DoStmt>(L)) {
    Body = D->getBody();
    Cond = D->getCond();
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(L)) {
    walkStmt(R->getRangeStmt());
    walkStmt(R->getBeginStmt());
    walkStmt(R->getEndStmt());
    Body = R->getBody();
    walkStmt(R->getLoopVarStmt());
  }

  auto [MIt, MNew] = LoopModsCache.try_emplace(L);
  LoopMods &LM = MIt->second;
  if (MNew) {
    LM.Mod.TraverseStmt(const_cast<Stmt *>(Body));
    if (Inc) {
      LM.Mod.TraverseStmt(const_cast<Expr *>(Inc));
      LM.IncMod.TraverseStmt(const_cast<Expr *>(Inc));
    }
    if (Cond)
      LM.Mod.TraverseStmt(const_cast<Expr *>(Cond));
  }
  const ModifiedVars &Mod = LM.Mod;

  std::optional<bool> FirstTest;
  if (tryUnroll(L, Body, Cond, Inc, LM, FirstTest))
    return;
  // Walked once for every iteration: only the first test is known, and
  // only when the counter's simulation gave it (it is the same in every
  // thread then).
  // The simulated first test is the same in every thread: known under an
  // approximate mask too (see LoopVisit::test).
  bool SimulatedTest = FirstTest && !GotoWalked;
  if (Cond && !isa<DoStmt>(L) &&
      (anyActive() || (ActiveApprox && SimulatedTest))) {
    LoopVisit Visit;
    Visit.Reached = true;
    Visit.Exact = !ActiveApprox || SimulatedTest;
    Visit.FirstTestHolds = FirstTest.value_or(false);
    Visit.Trips = FirstTest && !*FirstTest ? 0 : -1;
    noteLoop(L, Visit);
  }
  // The simulated first test fails in every thread that reaches the loop
  // (`for (j = 0; j < i; j++)` at i = 0): the body never runs, and what it
  // would assign keeps its value. Walking it once for all iterations
  // recorded accesses no thread makes.
  if (SimulatedTest && !*FirstTest)
    return;

  SymbolId Iter = T.Symbols.get(L, 0, SymbolInfo::LoopIteration,
                                "iteration of the loop at line " +
                                    std::to_string(lineOf(L)));
  T.Symbols.info(Iter).Loop = L;
  // A pinned loop (see IterationPins) is walked as its iteration *Pin.
  std::optional<int64_t> Pin;
  if (Pins) {
    auto PI = Pins->Loops.find(L);
    if (PI != Pins->Loops.end())
      Pin = PI->second;
  }
  LaneValue IterV = Pin ? constant(*Pin) : symbolValue(Iter);
  bool PinnedPastEnd = false;

  // Values of the modified variables at the top of an iteration.
  Env Entry = Vars;
  std::vector<const VarDecl *> Others;
  for (const VarDecl *V : Mod.Vars) {
    auto It = Vars.find(V);
    if (It == Vars.end())
      continue; // Declared inside the loop.
    std::optional<LaneValue> Step;
    if (Inc && Mod.Count.at(V) == 1)
      Step = additiveStep(Inc, V, Mod.Vars);
    if (Step && !It->second.IsPointer) {
      LaneValue Start = It->second.Int;
      LaneValue At = Start + *Step * IterV;
      if (!At.isAffine() && Start.isUniform() && Step->isUniform()) {
        At = opaqueUniform(SymbolKey{L, V, LoopStepSub}, V->getName().str());
        T.Symbols.info(*At.symbols().begin()).Loop = L; // Per iteration.
      }
      // Trip counts are noted for the counter (what the increment steps
      // and the condition reads), in the recorded walk.
      bool NoteTrips =
          Recording && !Pin && LM.IncMod.Vars.count(V) &&
          llvm::is_contained(loopExprFacts(Cond, Inc).Refs.Vars, V);
      if (auto Seq = simulateLoop(V, Cond, Inc)) {
        // Constant bounds: the iteration count takes known values.
        T.Symbols.info(Iter).Values = iterationNumbers(Seq->size());
        if (NoteTrips)
          noteThreadTrips(T.Symbols.info(Iter),
                          std::vector<int64_t>(N, int64_t(Seq->size())));
      } else if (NoteTrips) {
        noteThreadTrips(T.Symbols.info(Iter), threadTrips(V, Cond, Inc));
      }
      Vars[V] = evalInt(toType(At, V->getType()));
      continue;
    }
    if (Step && It->second.IsPointer) {
      PointerValue P = *It->second.Ptr;
      if (P.isShared() || P.isGlobal())
        P = offsetBy(P, *Step * IterV, V->getType()->getPointeeType());
      Vars[V] = Value::pointer(P);
      continue;
    }
    Others.push_back(V);
  }
  // Other modified variables: assume uniform if they start uniform, check
  // that by walking the body without recording, else unknown.
  for (const VarDecl *V : Others) {
    const Value &Start = Vars[V];
    if (!Start.IsPointer && Start.Int.isUniform()) {
      SymbolId S = T.Symbols.get(SymbolKey{L, V, LoopTopSub},
                                 SymbolInfo::Opaque, V->getName().str());
      // Its value at the top of each iteration: Values is indexed by
      // iteration, so the loop's trip count is known too.
      T.Symbols.info(S).Loop = L;
      auto Seq = simulateLoop(V, Cond, Inc);
      if (Seq) {
        T.Symbols.info(S).Values = *Seq;
        if (!T.Symbols.info(Iter).Values)
          T.Symbols.info(Iter).Values = iterationNumbers(Seq->size());
      }
      if (Pin && Seq) {
        if (*Pin >= 0 && uint64_t(*Pin) < Seq->size())
          Vars[V] = evalInt(constant((*Seq)[*Pin]));
        else
          PinnedPastEnd = true; // The loop has no such iteration.
      } else {
        Vars[V] = evalInt(symbolValue(S));
      }
    } else {
      Origins From = Start.From; // An accumulator keeps what it carried.
      Vars[V] = Start.IsPointer
                    ? Value::pointer(PointerValue())
                    : evalInt(unknown("'" + V->getName().str() +
                                      "' changes across loop iterations"));
      if (!Start.IsPointer)
        Vars[V].From = std::move(From);
    }
  }
  // The probe walk runs to a fixpoint: a variable found to vary at the
  // end of the body varies at the top of the next iteration, which may
  // make others vary (`a = b; b = threadIdx.x;` makes `a` vary from the
  // second iteration on). A round that demotes no variable ends the
  // loop, and no variable is demoted twice, so at most Others.size()
  // rounds run: the bound is the loop's structure, no cap is needed.
  // When every such variable already varies (float accumulators), a round
  // could demote none: no probe then, which in nested loops saved a walk
  // of the body per level (ggml's mmq).
  std::set<const VarDecl *> Varying;
  for (const VarDecl *V : Others)
    if (Vars[V].IsPointer || !Vars[V].Int.isUniform())
      Varying.insert(V);
  //
  // A probe that may be the last records (Speculation.h): kept, it is the
  // walk of the loop, and its end the body's end.
  std::optional<Env> KeptProbeEnd;
  while (Varying.size() < Others.size()) {
    Env Assumed = Vars;
    std::vector<char> SavedActive = Active;
    bool SavedApprox = ActiveApprox, SavedRec = Recording;
    unsigned SavedSeq = Seq;
    std::optional<ProbeMark> Mark;
    if (SavedRec && Opts.RecordingProbes && !PinnedPastEnd &&
        !ProbeTakenBack.count(L))
      Mark = markProbe();
    else
      Recording = false;
    walkLoopIteration(L, Body, Cond, Inc);
    Recording = SavedRec;
    unsigned EndSeq = Seq;
    Seq = SavedSeq;
    Env After = std::move(Vars);
    Vars = std::move(Assumed);
    Active = SavedActive;
    ActiveApprox = SavedApprox;
    bool Demoted = false;
    for (const VarDecl *V : Others) {
      auto It = After.find(V);
      // Threads that do not run the loop keep their value, which may differ
      // (`int stage = 0;` in a warp-specialised branch): only the threads
      // that run it decide whether it varies.
      if (It == After.end() || It->second.IsPointer ||
          !uniformWhere(It->second.Int, SavedActive)) {
        // An accumulator keeps what the body adds to it, too.
        Origins From = Vars[V].From;
        if (It != After.end() && !It->second.IsPointer)
          addOrigins(From, It->second.From);
        Vars[V] = evalInt(unknown("'" + V->getName().str() +
                                  "' changes across loop iterations"));
        Vars[V].From = std::move(From);
        Demoted |= Varying.insert(V).second;
      }
    }
    if (Mark) {
      bool Outside = endProbe(*Mark, L);
      if (!Demoted && !Outside) {
        keepProbe(*Mark);
        Seq = EndSeq;
        KeptProbeEnd = std::move(After);
      } else {
        takeBackProbe(*Mark);
        ProbeTakenBack.insert(L);
      }
    }
    if (!Demoted || Varying.size() == Others.size())
      break;
  }

  // The modified variables' values at the top of an iteration (the others
  // are Entry's): only those are asked for after the walk.
  std::map<const VarDecl *, Value> InLoop;
  for (const VarDecl *V : Mod.Vars)
    if (auto It = Vars.find(V); It != Vars.end())
      InLoop.emplace(V, It->second);
  std::vector<char> EntryActive = Active;
  bool EntryApprox = ActiveApprox;
  if (KeptProbeEnd)
    Vars = std::move(*KeptProbeEnd);
  else if (!PinnedPastEnd)
    walkLoopIteration(L, Body, Cond, Inc);
  Env BodyEnd = std::move(Vars);
  // After the loop: the threads that entered it (less those that
  // returned), with the modified variables no longer known per iteration.
  Active = EntryActive;
  ActiveApprox = EntryApprox;
  dropReturned();
  dropExited();
  Env Out = std::move(Entry);
  for (const VarDecl *V : Mod.Vars) {
    auto It = Out.find(V);
    if (It == Out.end())
      continue;
    const Value &InBody = InLoop[V];
    Origins From = It->second.IsPointer ? Origins() : It->second.From;
    if (!InBody.IsPointer && InBody.Int.isUniform() &&
        It->second.Int.isUniform())
      Out[V] = evalInt(
          opaqueUniform(SymbolKey{L, V, LoopExitSub}, V->getName().str()));
    else
      Out[V] =
          InBody.IsPointer
              ? Value::pointer(PointerValue())
              : evalInt(unknown("'" + V->getName().str() + "' after a loop"));
    // What the variable carried before, in, and at the end of the body.
    if (!Out[V].IsPointer) {
      addOrigins(From, InBody.From);
      auto End = BodyEnd.find(V);
      if (End != BodyEnd.end() && !End->second.IsPointer)
        addOrigins(From, End->second.From);
      Out[V].From = std::move(From);
    }
  }
  // Variables declared before the loop but not modified keep their value.
  Vars = std::move(Out);
}

bool KernelWalker::tryUnroll(const Stmt *L, const Stmt *Body, const Expr *Cond,
                             const Expr *Inc, const LoopMods &LM,
                             std::optional<bool> &FirstTest) {
  if (!isa<ForStmt>(L) || !Cond || !Inc)
    return false;
  for (const VarDecl *V : LM.IncMod.Vars) {
    if (LM.Mod.Count.at(V) != 1 || !Vars.count(V))
      continue;
    auto Seq = simulateLoop(V, Cond, Inc);
    if (Seq)
      FirstTest = !Seq->empty();
    if (!Seq || Seq->empty() || Seq->size() > MaxUnrolledTrips ||
        UnrollProduct * Seq->size() > MaxUnrollProduct)
      continue;
    std::vector<char> EntryActive = Active;
    bool EntryApprox = ActiveApprox;
    // The threads that do not run the loop keep the counter they had.
    std::optional<Value> Kept;
    if (!allActive())
      Kept = Vars[V];
    if (Recording)
      T.Unrolled.try_emplace(L, KernelTrace::UnrolledLoop{V, *Seq});
    UnrollProduct *= Seq->size();
    LoopVisit Visit;
    for (unsigned K = 0; K < Seq->size(); ++K) {
      // The increment computes the next value itself; pin it anyway so a
      // thread-dependent write to V in the body can't derail the count.
      Vars[V] = evalInt(constant((*Seq)[K]));
      walkLoopIteration(L, Body, Cond, Inc, int(K), &Visit);
    }
    // The last test, which ends the unrolled walk, is evaluated here: it
    // must fail in every thread still in the loop for the trip count to
    // be the one every thread leaving through the condition runs.
    if (Visit.Reached && (anyActive() || ActiveApprox)) {
      LaneValue C =
          hasEffects(Cond) ? unknown("loop condition") : quietInt(Cond);
      std::optional<int64_t> Splat = uniformTest(C);
      if (anyActive() || Splat) {
        Visit.test(*this, unsigned(Seq->size()), C);
        bool SomeStay = Splat ? bool(*Splat) : !C.isConcrete();
        if (!SomeStay && !Splat)
          C.constants().forEachWhile([&](unsigned I, int64_t X) {
            SomeStay = Active[I] && X;
            return !SomeStay;
          });
        if (SomeStay)
          Visit.Trips = -1;
      }
    }
    noteLoop(L, Visit);
    UnrollProduct /= Seq->size();
    if (Kept && !Vars[V].IsPointer && !Kept->IsPointer)
      Vars[V].Int =
          LaneValue::select(maskValue(EntryActive), Vars[V].Int, Kept->Int);
    Active = EntryActive;
    ActiveApprox = EntryApprox;
    dropReturned();
    dropExited();
    return true;
  }
  return false;
}

void KernelWalker::walkLoopIteration(const Stmt *L, const Stmt *Body,
                                     const Expr *Cond, const Expr *Inc,
                                     int Iteration, LoopVisit *Visit) {
  Loops.push_back(L);
  LoopIterations.push_back(Iteration);
  LoopStates.push_back(LoopState());
  bool IsDo = isa<DoStmt>(L);
  bool Unsure = false;
  // A loop walked once for all its iterations starts each at a join of
  // its entry and its back edge.
  if (Iteration < 0)
    newStretch();
  if (!Cond)
    noteBranch(L, constant(1));
  if (Cond && !IsDo) {
    ++InexactBranches;
    LaneValue C = eval(Cond).Int;
    --InexactBranches;
    noteBranch(L, C);
    splitBy(C);
    Unsure = !C.isConcrete();
    if (Visit)
      Visit->test(*this, unsigned(Iteration), C);
    if (C.isConcrete()) {
      narrowActive(C, true);
    } else if (!C.isUniform()) {
      // Trip count varies by thread in a way we can't compute: some
      // threads may have left. Accesses still count every entering thread.
      ActiveApprox = ActiveApprox || C.isUnknown();
    }
  }
  Uncertain += Unsure;
  walkStmt(Body);
  Uncertain -= Unsure;
  const LoopState &LS = LoopStates.back();
  if (!LS.Continued.empty()) {
    newStretch(); // The threads that continued rejoin.
    for (unsigned I = 0; I < N; ++I)
      if (LS.Continued[I] && (LS.Broken.empty() || !LS.Broken[I]))
        Active[I] = 1;
  }
  if (Inc)
    evalDiscarded(Inc);
  if (Cond && IsDo) {
    ++InexactBranches;
    LaneValue C = eval(Cond).Int;
    --InexactBranches;
    noteBranch(L, C);
  }
  LoopStates.pop_back();
  Loops.pop_back();
  LoopIterations.pop_back();
}

} // namespace walker
} // namespace shmem
