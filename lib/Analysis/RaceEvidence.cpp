//===- RaceEvidence.cpp - Same values and data-dependent indices ----------===//
//
// See RaceFinder.h. A collision is benign when the threads store the same
// value (the walker's values, one constant, or a value the uniformity
// analysis finds the same in both) or a thread reads back what it stored
// itself; an address that depends on loaded data is claimed only with
// evidence (a read-modify-write of one element, or an index the same in
// every thread of the block or of a warp).
//
//===----------------------------------------------------------------------===//

#include "RaceFinder.h"

#include "Program/CudaModel.h"

#include <algorithm>
#include <numeric>

using namespace clang;

namespace shmem {
namespace race {

std::optional<std::string> RaceFinder::constantStored(const SharedAccess &A) {
  const FunctionDecl *F = functionOf(A);
  if (!F || !F->getBody())
    return std::nullopt;
  // The value assigned: by `=`, or by a vector type's `operator=`.
  const Stmt *P = parents(F).getParentIgnoreParens(A.E);
  const Expr *RHS = nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == A.E)
    RHS = BO->getRHS();
  else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
           OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
           OC->getArg(0)->IgnoreParens() == A.E)
    RHS = OC->getArg(1);
  return RHS ? constantValue(RHS) : std::nullopt;
}

std::optional<std::string> RaceFinder::constantValue(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor())
    E = CE->getArg(0)->IgnoreImplicit();
  if (E->isValueDependent())
    return std::nullopt;
  // `make_float2(1.0f, 2.0f)`: constant components, a constant vector
  // (not constexpr, so not for the evaluator).
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && cuda::isVectorMaker(Call)) {
    std::string Out = cuda::calleeName(Call) + "(";
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      std::optional<std::string> V = constantValue(Call->getArg(I));
      if (!V)
        return std::nullopt;
      Out += (I ? ", " : "") + *V;
    }
    return Out + ")";
  }
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
    return std::nullopt;
  return R.Val.getAsString(Ctx, E->getType());
}

const SiteValues &RaceFinder::values(unsigned S) {
  SiteValues &V = Values[S];
  if (V.Known)
    return V;
  V.Known = true;
  if (!UA)
    UA = std::make_unique<UniformityAnalysis>(Ctx, &T.Geometry,
                                              Opts.InlineDepth, Graphs);
  const SharedAccess &A = T.Accesses[BI.instances(S)[0]];
  const FunctionUniformity *FU = &UA->analyzeKernel(T.Kernel);
  for (const CallExpr *Call : A.CallStack)
    if (!FU || !(FU = FU->callee(Call)))
      return V;
  if (!FU->valid())
    return V;
  V.Address = FU->addressLevel(A.E);
  if (A.Kind != AccessKind::Store)
    return V;
  const Stmt *P = parents(FU->function()).getParentIgnoreParens(A.E);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getLHS()->IgnoreParens() == A.E)
    if (const UniformityValue *UV = FU->value(BO)) { // Assigned, converted.
      V.StoredLaneXor = UV->laneXor();
      V.StoredWarpInvariant = UV->warpInvariant();
    }
  return V;
}

bool RaceFinder::agree(unsigned S, unsigned TA, unsigned TB) {
  const SiteValues &V = values(S);
  unsigned D = (TA % WS) ^ (TB % WS);
  return D < 32 && ((V.StoredLaneXor >> D) & 1) &&
         (TA / WS == TB / WS || V.StoredWarpInvariant);
}

bool RaceFinder::isDataDependent(llvm::StringRef Reason) {
  return Reason.starts_with("value loaded from") ||
         Reason.starts_with("result of an atomic");
}

bool RaceFinder::sameStoredValue(unsigned SA, unsigned SB, unsigned IA,
                                 unsigned IB, const Assignment &AsgA,
                                 const Assignment &AsgB, const Concurrency &C,
                                 const Eval &EA, const Eval &EB, unsigned TA,
                                 unsigned TB) {
  if (Facts[SA].Kind != AccessKind::Store || Facts[SB].Kind != AccessKind::Store)
    return false;
  if (!EA.StoredKnown.empty() && !EB.StoredKnown.empty() &&
      EA.StoredKnown[TA] && EB.StoredKnown[TB])
    return EA.Stored[TA] == EB.Stored[TB];
  if (Facts[SA].ConstantStored && Facts[SB].ConstantStored &&
      *Facts[SA].ConstantStored == *Facts[SB].ConstantStored)
    return true;
  return SA == SB && IA == IB && AsgA == AsgB && sameIteration(C) &&
         agree(SA, TA, TB);
}

bool RaceFinder::readsOwnSameValue(unsigned SS, unsigned IS, const Eval &ES,
                                   unsigned IL, const Eval &EL,
                                   const Concurrency &C, unsigned Writer,
                                   unsigned Reader) {
  if (Facts[SS].Kind != AccessKind::Store || ES.ActiveApprox ||
      !ES.Active[Reader] || T.Accesses[IS].Seq >= T.Accesses[IL].Seq ||
      ES.Off[Reader] > EL.Off[Reader] ||
      EL.Off[Reader] + EL.Width > ES.Off[Reader] + ES.Width ||
      !sameIteration(C))
    return false;
  return agree(SS, Writer, Reader);
}

bool RaceFinder::residuesSeparate(const Eval &EA, const Eval &EB) const {
  if (!EA.Mod || !EB.Mod)
    return false;
  int64_t M = std::gcd(EA.Mod, EB.Mod);
  if (M < 2 || EA.Width + EB.Width - 1 >= M)
    return false;
  auto Mod = [M](int64_t X) {
    int64_t R = X % M;
    return R < 0 ? R + M : R;
  };
  // Up to two threads of A per residue: enough to find one other than U.
  std::unordered_map<int64_t, std::pair<int64_t, int64_t>> ByRes;
  for (unsigned Th = 0; Th < N; ++Th) {
    if (!EA.Active[Th])
      continue;
    auto [It, New] = ByRes.try_emplace(Mod(EA.Res[Th]), Th, -1);
    if (!New && It->second.second < 0)
      It->second.second = Th;
  }
  // B's bytes [y, y + wB) meet A's [x, x + wA) when y - x is in
  // (-wB, wA): x's residue is within [r - (wA - 1), r + (wB - 1)].
  for (unsigned U = 0; U < N; ++U) {
    if (!EB.Active[U])
      continue;
    for (int64_t D = -(int64_t(EA.Width) - 1); D <= int64_t(EB.Width) - 1;
         ++D) {
      auto It = ByRes.find(Mod(EB.Res[U] + D));
      if (It == ByRes.end())
        continue;
      if (It->second.first != int64_t(U) ||
          (It->second.second >= 0 && It->second.second != int64_t(U)))
        return false;
    }
  }
  return true;
}

std::optional<RaceFinder::Pending>
RaceFinder::reportPossible(unsigned SA, unsigned SB, const PairScan &PS) {
  const SharedAccess &A = T.Accesses[PS.PossibleA];
  const SharedAccess &B = T.Accesses[PS.PossibleB];
  // One store at a data-dependent address, paired with itself, races only
  // if two threads pick one element: not claimed (a permutation is fine),
  // unless the index is the same in every thread of the block or a warp.
  if (SA == SB)
    return uniformIndex(SA, PS);
  // Evidence for a claim: the load and store of one read-modify-write
  // (`hist[data] += 1`). Other accesses at data-dependent addresses race
  // only if the data makes them meet, which the analysis cannot tell.
  bool RMW = A.E == B.E && A.CallStack == B.CallStack;
  if (!RMW && !Opts.ReportDataDependent)
    return std::nullopt;
  // Some thread must be able to meet another.
  auto Count = [&](const SharedAccess &X) {
    return unsigned(std::count(X.Active.begin(), X.Active.end(), 1));
  };
  unsigned CA = Count(A), CB = Count(B);
  if (CA + CB < 2 || (CA == 1 && CB == 1 && A.Active == B.Active))
    return std::nullopt;
  RaceReport R;
  R.K = RaceReport::PossibleRace;
  R.Reason = PS.PossibleReason;
  R.ReadModifyWrite = RMW;
  bool ALater = A.Seq > B.Seq;
  R.Later.Access = ALater ? PS.PossibleA : PS.PossibleB;
  R.Earlier.Access = ALater ? PS.PossibleB : PS.PossibleA;
  // For a read-modify-write, warn at the store.
  if (RMW && T.Accesses[R.Later.Access].Kind != AccessKind::Store)
    std::swap(R.Later, R.Earlier);
  return Pending{std::move(R), 2};
}

std::optional<RaceFinder::Pending>
RaceFinder::uniformIndex(unsigned S, const PairScan &PS) {
  if (Facts[S].Kind != AccessKind::Store)
    return std::nullopt;
  UniformityLevel L = values(S).Address;
  if (L > UniformityLevel::WarpUniform)
    return std::nullopt;
  bool PerWarp = L == UniformityLevel::WarpUniform;
  for (unsigned I : BI.instances(S)) {
    const SharedAccess &A = T.Accesses[I];
    if (A.ActiveApprox)
      continue; // Some of the threads may not store.
    // Two threads that run it, of two warps when any two meet.
    int First = -1, Second = -1;
    for (unsigned Th = 0; Th < N && Second < 0; ++Th) {
      if (!A.Active[Th])
        continue;
      if (First < 0)
        First = int(Th);
      else if (PerWarp ? Th / WS == unsigned(First) / WS
                       : Th / WS != unsigned(First) / WS)
        Second = int(Th);
    }
    if (Second < 0 && !PerWarp)
      for (unsigned Th = unsigned(First) + 1; Th < N && Second < 0; ++Th)
        if (A.Active[Th])
          Second = int(Th);
    if (Second < 0)
      continue;
    RaceReport R;
    bool Same = agree(S, unsigned(First), unsigned(Second));
    R.K = Same ? RaceReport::Benign : RaceReport::Race;
    R.UniformIndex = true;
    R.IndexPerWarp = PerWarp;
    R.Reason = PS.PossibleReason;
    R.Later.Access = R.Earlier.Access = I;
    R.Later.Thread = unsigned(Second);
    R.Earlier.Thread = unsigned(First);
    R.CrossWarp = unsigned(First) / WS != unsigned(Second) / WS;
    return Pending{std::move(R), Same ? 1u : 0u};
  }
  return std::nullopt;
}

} // namespace race
} // namespace shmem
