//===- RaceEvaluation.cpp - Every thread's offsets of an access -----------===//
//
// See RaceFinder.h. What is fixed about each site (its variable, the loops
// walked symbolically its address depends on), and each access instance
// evaluated in every thread of the block, with the unknowns bound: loop
// iterations as pinned, everything else to generic values.
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace clang;

namespace shmem {
namespace race {

int64_t RaceFinder::generic(const SymbolInfo &I) {
  auto [It, New] = Generic.try_emplace(I.key(), 0);
  if (New)
    It->second = GenericStep * int64_t(Generic.size());
  return It->second;
}

const ParentMap &RaceFinder::parents(const FunctionDecl *F) {
  auto &PM = Parents[F];
  if (!PM)
    PM = std::make_unique<ParentMap>(F->getBody());
  return *PM;
}

const Stmt *RaceFinder::statementOf(const SharedAccess &A) {
  const FunctionDecl *F = functionOf(A);
  if (!F || !F->getBody())
    return A.E;
  const ParentMap &PM = parents(F);
  const Stmt *S = A.E;
  while (const Stmt *P = PM.getParent(S)) {
    if (!isa<Expr>(P))
      break;
    S = P;
  }
  return S;
}

bool RaceFinder::symbolicAt(const SharedAccess &A, const Stmt *L) {
  for (unsigned P = 0; P < A.Loops.size(); ++P)
    if (A.Loops[P] == L)
      return A.LoopIterations[P] < 0;
  return false;
}

void RaceFinder::computeFacts() {
  for (unsigned S = 0; S < T.Symbols.size(); ++S)
    if (T.Symbols.info(S).K == SymbolInfo::LoopIteration)
      IterSymbol[T.Symbols.info(S).Loop] = S;
  Facts.resize(BI.numSites());
  Values.resize(BI.numSites());
  for (unsigned S = 0; S < BI.numSites(); ++S) {
    SiteFacts &F = Facts[S];
    const SharedAccess &First = T.Accesses[BI.instances(S)[0]];
    F.Base = First.Address.Base;
    F.Dynamic = First.Address.DynamicShared;
    F.Kind = First.Kind;
    if (F.Kind == AccessKind::Store)
      F.ConstantStored = constantStored(First);
    std::set<const Stmt *> Dep;
    for (unsigned I : BI.instances(S)) {
      const SharedAccess &A = T.Accesses[I];
      std::vector<SymbolId> Syms = A.Address.Offset.symbols();
      if (A.Stored) {
        std::vector<SymbolId> SS = A.Stored->symbols();
        Syms.insert(Syms.end(), SS.begin(), SS.end());
      }
      bool NonAffine = !A.Address.Offset.isAffine();
      for (SymbolId Sym : Syms) {
        const SymbolInfo &Info = T.Symbols.info(Sym);
        if (Info.Loop) {
          // The iteration unknown, or a variable the loop steps.
          if (symbolicAt(A, Info.Loop)) {
            Dep.insert(Info.Loop);
            F.NeedsWalk |= NonAffine;
          }
          continue;
        }
        if (!Info.Scope)
          continue;
        // Made inside a loop body: may differ in every iteration of that
        // loop and of the loops around it. Only a re-walk knows how.
        for (unsigned P = 0; P < A.Loops.size(); ++P) {
          if (A.LoopIterations[P] < 0) {
            Dep.insert(A.Loops[P]);
            F.NeedsWalk = true;
          }
          if (A.Loops[P] == Info.Scope)
            break;
        }
      }
    }
    F.DepLoops.assign(Dep.begin(), Dep.end());
  }
}

std::string RaceFinder::describeUnknown(const LaneValue &V,
                                        const SymbolTable &ST) {
  if (V.isUnknown())
    return V.reason();
  std::string S = "its address depends non-linearly on ";
  bool First = true;
  for (SymbolId Sym : V.needs()) {
    S += (First ? "'" : ", '") + ST.info(Sym).Name + "'";
    First = false;
  }
  return First ? "its address is not modelled" : S;
}

const Eval &RaceFinder::eval(unsigned Instance, const Assignment &Asg) {
  auto Key = std::make_pair(Instance, Asg);
  auto It = Evals.find(Key);
  if (It != Evals.end())
    return It->second;
  Eval &E = Evals[Key];
  if (Asg.empty())
    ++PlainEvals[BI.siteOf(Instance)];
  const SharedAccess *A = &T.Accesses[Instance];
  const SymbolTable *ST = &T.Symbols;
  const SiteFacts &F = Facts[BI.siteOf(Instance)];
  bool Walked = F.NeedsWalk && !Asg.empty();
  if (Walked) {
    const PinnedWalk *P = Pinned.walk(Asg);
    if (!P) {
      E.S = Eval::Unknown;
      E.Reason = "too many iterations to re-evaluate";
      if (!PinnedCutAt)
        PinnedCutAt = Instance;
      return E;
    }
    A = P->instanceOf(*A);
    if (!A) {
      E.S = Eval::Missing; // No thread runs it in that iteration.
      return E;
    }
    ST = &P->T.Symbols;
  }
  E.Width = A->Width;
  E.Active = A->Active;
  E.ActiveApprox = A->ActiveApprox;
  // A thread whose own trips end before the iteration does not run it
  // (`for (i = threadIdx.x; i < 96; i += 64)`: thread 32 runs one).
  for (const auto &[Loop, K] : Asg) {
    auto It = IterSymbol.find(Loop);
    if (It == IterSymbol.end())
      continue;
    const std::vector<int64_t> &Trips = T.Symbols.info(It->second).ThreadTrips;
    for (unsigned Th = 0; Th < Trips.size() && Th < N; ++Th)
      if (K >= Trips[Th])
        E.Active[Th] = 0;
  }
  const LaneValue &Off = A->Address.Offset;
  if (!Off.isAffine()) {
    E.S = Eval::Unknown;
    E.Reason = describeUnknown(Off, *ST);
    if (Off.isUnknown() && Off.residueModulus()) {
      E.Mod = Off.residueModulus();
      E.Res = Off.constants().toVector();
    }
    return E;
  }
  // Bind the unknowns: pinned iterations, then generic values.
  auto Bind = [&](const LaneValue &V) {
    SymbolBinding B;
    for (SymbolId Sym : V.symbols()) {
      const SymbolInfo &Info = ST->info(Sym);
      std::optional<int64_t> K;
      if (Info.Loop && !Walked)
        for (const auto &KV : Asg)
          if (KV.first == Info.Loop)
            K = KV.second;
      if (K && Info.K == SymbolInfo::LoopIteration)
        B[Sym] = *K;
      else if (K && Info.Values && *K < int64_t(Info.Values->size()))
        B[Sym] = (*Info.Values)[*K];
      else if (K)
        B[Sym] = generic(Info) + *K * IterationSpread;
      else
        B[Sym] = generic(Info);
    }
    return B;
  };
  SymbolBinding B = Bind(Off);
  E.Off.assign(N, 0);
  for (unsigned Th = 0; Th < N; ++Th) {
    if (!E.Active[Th])
      continue;
    int64_t O = Off.evaluate(Th, B);
    E.Off[Th] = O;
    while (E.Align > 1 && O % E.Align)
      E.Align /= 2;
    E.Min = std::min(E.Min, O);
    E.Max = std::max(E.Max, O);
    ++E.Count;
  }
  if (A->Stored && A->Stored->isAffine()) {
    SymbolBinding SB = Bind(*A->Stored);
    E.Stored.assign(N, 0);
    E.StoredKnown.assign(N, 0);
    for (unsigned Th = 0; Th < N; ++Th)
      if (E.Active[Th]) {
        E.Stored[Th] = A->Stored->evaluate(Th, SB);
        E.StoredKnown[Th] = 1;
      }
  }
  if (E.Count == 0)
    E.S = Eval::Missing;
  return E;
}

const RaceFinder::WordOwners *RaceFinder::wordOwners(unsigned Site) {
  if (Owners.empty())
    Owners.resize(Facts.size());
  std::optional<std::unique_ptr<WordOwners>> &Slot = Owners[Site];
  if (Slot)
    return Slot->get();
  Slot.emplace();
  // Listing every (instance, thread) is what a scan would do anyway, and
  // the list holds one entry per word of the array whatever the count;
  // past this many (some 20 ms) the pair is left to the scan.
  // cudaTensorCoreGemm's unrolled tile copy needs more than 64 Ki.
  constexpr uint64_t MaxTouches = 1 << 20;
  uint64_t Touches = 0;
  // Every (instance, thread) of the site and the words it touches.
  // An offset with an unknown to bind differs between the walks that pin
  // it; a concrete one is the same in all of them, for the same or fewer
  // threads (the base walk's mask counts every thread that may run the
  // access).
  auto ForEachTouch = [&](auto &&Touch) {
    for (unsigned I : BI.instances(Site)) {
      const SharedAccess &A = T.Accesses[I];
      const Lanes &Off = A.Address.Offset.constants();
      for (unsigned Th = 0; Th < N && Th < A.Active.size(); ++Th)
        if (A.Active[Th])
          Touch(Th, floorDiv(Off[Th], 4),
                floorDiv(Off[Th] + int64_t(A.Width) - 1, 4));
    }
  };
  // First the span of words touched: an array's words are few, and a
  // table over the span is filled without hashing and read out in order.
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  for (unsigned I : BI.instances(Site))
    if (!T.Accesses[I].Address.Offset.isConcrete())
      return nullptr;
  bool TooMany = false;
  ForEachTouch([&](unsigned, int64_t First, int64_t Last) {
    TooMany = TooMany || ++Touches > MaxTouches;
    Lo = std::min(Lo, First);
    Hi = std::max(Hi, Last);
  });
  if (TooMany)
    return nullptr;
  auto Out = std::make_unique<WordOwners>();
  // Each word's thread, ManyThreads once a second one touches it.
  auto Mark = [](int32_t &Owner, unsigned Th) {
    if (Owner == NoThread)
      Owner = int32_t(Th);
    else if (Owner != int32_t(Th))
      Owner = ManyThreads;
  };
  if (Touches && uint64_t(Hi) - uint64_t(Lo) < 4 * Touches + 4096) {
    std::vector<int32_t> Owner(size_t(Hi - Lo + 1), NoThread);
    ForEachTouch([&](unsigned Th, int64_t First, int64_t Last) {
      for (int64_t W = First; W <= Last; ++W)
        Mark(Owner[size_t(W - Lo)], Th);
    });
    for (size_t W = 0; W < Owner.size(); ++W)
      if (Owner[W] != NoThread)
        Out->emplace_back(Lo + int64_t(W), Owner[W]);
  } else {
    // Scattered words (a pointer's offsets far apart): an open-addressing
    // table, then sorted.
    llvm::DenseMap<int64_t, int32_t> Owner;
    ForEachTouch([&](unsigned Th, int64_t First, int64_t Last) {
      for (int64_t W = First; W <= Last; ++W)
        Mark(Owner.try_emplace(W, NoThread).first->second, Th);
    });
    Out->assign(Owner.begin(), Owner.end());
    llvm::sort(*Out);
  }
  *Slot = std::move(Out);
  return Slot->get();
}

bool RaceFinder::threadsApart(unsigned SA, unsigned SB) {
  const WordOwners *A = wordOwners(SA);
  const WordOwners *B = A ? wordOwners(SB) : nullptr;
  if (!A || !B)
    return false;
  if (SA == SB)
    return llvm::none_of(*A, [](const auto &KV) {
      return KV.second == ManyThreads;
    });
  auto Clash = [](int32_t X, int32_t Y) {
    return X == ManyThreads || Y == ManyThreads || X != Y;
  };
  if (A->size() > B->size())
    std::swap(A, B);
  // Both sorted by word: a few words against many are looked up, lists of
  // like size merged.
  if (A->size() * 16 < B->size()) {
    for (const auto &[Word, Owner] : *A) {
      auto It = llvm::lower_bound(
          *B, Word, [](const auto &KV, int64_t W) { return KV.first < W; });
      if (It != B->end() && It->first == Word && Clash(Owner, It->second))
        return false;
    }
    return true;
  }
  auto IA = A->begin(), IB = B->begin();
  while (IA != A->end() && IB != B->end()) {
    if (IA->first < IB->first) {
      ++IA;
    } else if (IB->first < IA->first) {
      ++IB;
    } else {
      if (Clash(IA->second, IB->second))
        return false;
      ++IA;
      ++IB;
    }
  }
  return true;
}

} // namespace race
} // namespace shmem
