//===- TransferVerdict.cpp - Sectors a global transfer's warps touch ------===//
//
// The verdict of shmem-uncoalesced-transfer on one global access: its
// distinct warps go through the CoalescingModel under every assignment of
// the unknowns that change the sector count, and the worst is described.
//
// Offsets are relative to the pointer parameter, which is assumed 256-byte
// aligned (cudaMalloc). Unknowns whose coefficient is the same in every lane
// of a warp (blockIdx terms, a row pitch times a warp-uniform row) move the
// warp's request as a whole and are taken as sector-aligned; unknowns with a
// lane-dependent coefficient (the pitch of a column read) change the sector
// count and are enumerated: from 0 up to where the lanes' rows can no longer
// share sectors, then a period of larger values, so the condition stated
// ("when 'pitch' >= 2") holds for every value.
//
//===----------------------------------------------------------------------===//

#include "TransferSearch.h"

#include "PatternSet.h"

#include "clang/AST/Decl.h"

#include <algorithm>
#include <sstream>

using namespace clang;

namespace shmem {

namespace {

/// The largest value a lane-dependent unknown is enumerated up to before
/// the periodic tail.
constexpr int64_t MaxThreshold = 2048;

/// Lane addresses of one warp with the varying unknowns bound to \p Value
/// (by index in Varying; the others count as 0): concrete parts as they are
/// (so their alignment counts), symbolic parts relative to the first active
/// lane (the warp-uniform part of an unknown offset is taken as
/// sector-aligned). The arithmetic wraps like LaneValue::evaluate's.
void warpAddresses(const WarpInfo &W, const std::vector<int64_t> &Value,
                   std::vector<std::optional<int64_t>> &Addr,
                   bool AllLanes = false) {
  Addr.assign(W.End - W.Begin, std::nullopt);
  for (unsigned L : AllLanes ? W.All : W.Active) {
    unsigned I = L - W.Begin;
    int64_t V = W.Const[I];
    for (const auto &[S, Delta] : W.Terms)
      V = wrapAdd(V, wrapMul(Delta[I], Value[S]));
    Addr[I] = V;
  }
}

} // namespace

bool isUncoalesced(const CoalescingResult &R) {
  return R.ActiveLanes >= 2 && R.IdealSectors > 0 &&
         R.Sectors >= UncoalescedRatio * R.IdealSectors;
}

namespace {

std::string symbolName(const KernelTrace &T, SymbolId S) {
  return "'" + T.Symbols.info(S).Name + "'";
}

std::string listValues(const std::vector<int64_t> &Vs) {
  std::ostringstream OS;
  for (unsigned I = 0; I < Vs.size(); ++I)
    OS << (I == 0 ? "" : I + 1 == Vs.size() ? " or " : ", ") << Vs[I];
  return OS.str();
}

/// Runs of contiguous bytes in a warp's request: "8 runs of 16 bytes".
std::string describeRuns(const std::vector<std::optional<int64_t>> &Addr,
                         unsigned Width) {
  std::vector<std::pair<int64_t, int64_t>> Iv;
  for (const auto &A : Addr)
    if (A)
      Iv.push_back({*A, *A + Width});
  std::sort(Iv.begin(), Iv.end());
  std::vector<std::pair<int64_t, int64_t>> Merged;
  for (const auto &X : Iv) {
    if (!Merged.empty() && X.first <= Merged.back().second)
      Merged.back().second = std::max(Merged.back().second, X.second);
    else
      Merged.push_back(X);
  }
  std::vector<int64_t> Lengths;
  for (const auto &X : Merged)
    Lengths.push_back(X.second - X.first);
  std::ostringstream OS;
  bool Same = std::all_of(Lengths.begin(), Lengths.end(),
                          [&](int64_t L) { return L == Lengths[0]; });
  OS << "its lanes touch " << Lengths.size() << " separate runs";
  if (Same && !Lengths.empty())
    OS << " of " << Lengths[0] << " contiguous bytes";
  return OS.str();
}

/// "successive lanes are 'pitch' elements apart", "... 4096 bytes apart",
/// or the runs the warp touches.
std::string describeStride(const GlobalAccess &A, const WarpInfo &W,
                           const std::vector<std::optional<int64_t>> &Addr,
                           const std::vector<SymbolId> &Varying,
                           const KernelTrace &T) {
  const std::vector<unsigned> &L = W.Active;
  if (L.size() >= 2) {
    bool Consecutive = true;
    for (unsigned I = 1; I < L.size(); ++I)
      Consecutive &= L[I] == L[I - 1] + 1;
    const LaneValue &Off = A.Offset;
    if (Consecutive && Varying.size() == 1) {
      SymbolId S = Varying[0];
      auto It = Off.coefficients().find(S);
      if (It != Off.coefficients().end()) {
        int64_t C0 = Off.constants()[L[1]] - Off.constants()[L[0]];
        int64_t A0 = It->second[L[1]] - It->second[L[0]];
        bool Regular = A0 != 0;
        for (unsigned I = 1; I < L.size() && Regular; ++I)
          Regular = Off.constants()[L[I]] - Off.constants()[L[I - 1]] == C0 &&
                    It->second[L[I]] - It->second[L[I - 1]] == A0;
        int64_t W = int64_t(A.Width);
        if (Regular && A0 == W && C0 % W == 0 && C0 != 0) {
          std::ostringstream OS;
          OS << "successive lanes are " << symbolName(T, S)
             << (C0 > 0 ? " + " : " - ") << std::llabs(C0) / W
             << " elements apart";
          return OS.str();
        }
        if (Regular && C0 == 0) {
          std::ostringstream OS;
          OS << "successive lanes are ";
          if (A0 == int64_t(A.Width))
            OS << symbolName(T, S) << " elements";
          else if (A0 % int64_t(A.Width) == 0)
            OS << A0 / int64_t(A.Width) << " * " << symbolName(T, S)
               << " elements";
          else
            OS << A0 << " * " << symbolName(T, S) << " bytes";
          OS << " apart";
          return OS.str();
        }
      }
    }
    if (Consecutive && Varying.empty()) {
      int64_t D = *Addr[L[1] - W.Begin] - *Addr[L[0] - W.Begin];
      bool Regular = true;
      for (unsigned I = 1; I < L.size() && Regular; ++I)
        Regular = *Addr[L[I] - W.Begin] - *Addr[L[I - 1] - W.Begin] == D;
      if (Regular && D != 0)
        return "successive lanes are " + std::to_string(D) + " bytes apart";
    }
  }
  return describeRuns(Addr, A.Width);
}

} // namespace

TransferSearch::TransferSearch(const GlobalAccess &A, const KernelTrace &T) {
  const LaneValue &Off = A.Offset;
  if (!Off.isAffine() || A.Active.size() != Off.size())
    return;
  const ThreadGeometry &G = T.Geometry;

  // The offset's parts as one value per thread, read once (see WarpInfo).
  const std::vector<int64_t> Consts = Off.constants().toVector();
  std::vector<std::vector<int64_t>> Coeffs;
  for (const auto &KV : Off.coefficients())
    Coeffs.push_back(KV.second.toVector());

  // Warps with at least two active lanes; identical ones (same relative
  // pattern and alignment) are evaluated once.
  PatternSet Signatures;
  for (unsigned W = 0; W < G.warps(); ++W) {
    WarpInfo WI;
    WI.Begin = G.warpBegin(W);
    WI.End = std::min(G.warpEnd(W), Off.size());
    WI.All.reserve(WI.End - WI.Begin);
    WI.Active.reserve(WI.End - WI.Begin);
    for (unsigned L = WI.Begin; L < WI.End; ++L) {
      WI.All.push_back(L);
      if (A.Active[L])
        WI.Active.push_back(L);
    }
    if (WI.Active.size() < 2)
      continue;
    WI.First = WI.Active[0];
    std::vector<int64_t> Sig;
    Sig.reserve(1 + (WI.End - WI.Begin) * (2 + Coeffs.size()));
    Sig.push_back(floorMod(Consts[WI.First], 32));
    for (unsigned L = WI.Begin; L < WI.End; ++L) {
      Sig.push_back(A.Active[L]);
      Sig.push_back(Consts[L] - Consts[WI.First]);
      for (const std::vector<int64_t> &C : Coeffs)
        Sig.push_back(C[L] - C[WI.First]);
    }
    if (Signatures.insert(Sig))
      Warps.push_back(std::move(WI));
  }
  if (Warps.empty())
    return;

  // Unknowns with a lane-dependent coefficient in some warp, the smallest
  // non-zero coefficient difference of each, and the concrete spread.
  std::vector<int64_t> Steps(Coeffs.size(), 0); // 0: none yet.
  int64_t Spread = 0;
  for (const WarpInfo &W : Warps) {
    int64_t Lo = INT64_MAX, Hi = INT64_MIN;
    for (unsigned L : W.Active) {
      Lo = std::min(Lo, Consts[L]);
      Hi = std::max(Hi, Consts[L]);
    }
    Spread = std::max(Spread, Hi - Lo + int64_t(A.Width));
    for (unsigned K = 0; K < Coeffs.size(); ++K) {
      const std::vector<int64_t> &C = Coeffs[K];
      for (unsigned L : W.Active) {
        int64_t D = std::llabs(C[L] - C[W.First]);
        if (D != 0 && (Steps[K] == 0 || D < Steps[K]))
          Steps[K] = D;
      }
    }
  }
  // In SymbolId order, as Off.coefficients() is; each one's index in
  // Coeffs and Steps.
  std::vector<unsigned> VaryingIndex;
  {
    unsigned K = 0;
    for (const auto &KV : Off.coefficients()) {
      if (Steps[K] != 0) {
        Varying.push_back(KV.first);
        VaryingIndex.push_back(K);
      }
      ++K;
    }
  }
  for (WarpInfo &W : Warps) {
    W.Const.assign(Consts.begin() + W.Begin, Consts.begin() + W.End);
    for (unsigned I = 0; I < Varying.size(); ++I) {
      const std::vector<int64_t> &C = Coeffs[VaryingIndex[I]];
      std::vector<int64_t> Delta(W.End - W.Begin);
      bool Any = false;
      for (unsigned L = W.Begin; L < W.End; ++L) {
        Delta[L - W.Begin] = wrapSub(C[L], C[W.First]);
        Any |= Delta[L - W.Begin] != 0;
      }
      if (Any)
        W.Terms.push_back({I, std::move(Delta)});
    }
  }

  // The values each varying unknown is enumerated over.
  for (unsigned I = 0; I < Varying.size(); ++I) {
    const SymbolInfo &SI = T.Symbols.info(Varying[I]);
    if (SI.Values && !SI.Values->empty() && SI.Values->size() <= 64) {
      Values.push_back(*SI.Values);
      continue;
    }
    if (Varying.size() == 1) {
      // Beyond S0 the lanes of different coefficients are more than the
      // concrete spread plus two sectors apart and share no sector; what
      // is left depends on alignment, periodic with at most 32 values.
      S0 = std::min<int64_t>(MaxThreshold,
                             (Spread + 64) / Steps[VaryingIndex[I]] + 2);
      std::vector<int64_t> Vs;
      for (int64_t X = 0; X <= S0 + 32; ++X)
        Vs.push_back(X);
      Values.push_back(std::move(Vs));
      Generated = true;
      continue;
    }
    Values.push_back({0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 1024});
  }
  for (const auto &Vs : Values)
    Combos *= Vs.size();
  Ok = Combos <= MaxAssignments;
}

TransferVerdict analyzeTransfer(const GlobalAccess &A, const KernelTrace &T) {
  TransferVerdict V;
  TransferSearch Search(A, T);
  if (!Search.Ok) {
    if (Search.Combos > MaxAssignments)
      V.Capped = Search.Combos;
    return V;
  }
  const std::vector<WarpInfo> &Warps = Search.Warps;
  const std::vector<SymbolId> &Varying = Search.Varying;
  const std::vector<std::vector<int64_t>> &Values = Search.Values;
  const uint64_t Combos = Search.Combos;
  const ThreadGeometry &G = T.Geometry;
  CoalescingModel Model;

  // Each assignment's verdict; the one shown is the worst (uncoalesced
  // first, then the highest ratio), the first that gives it. Only that one
  // keeps its addresses and sectors.
  struct Shown {
    SymbolBinding Bind;
    bool Bad = false;
    CoalescingResult Worst;
    unsigned Warp = 0;
    std::vector<std::optional<int64_t>> Addr;
    const WarpInfo *WI = nullptr;
  };
  std::vector<char> BadAt(Combos);
  Shown Best;
  std::vector<std::optional<int64_t>> Addr, WorstAddr, Whole;
  // The assignment's value of each varying unknown; a SymbolBinding is
  // built only for the one shown.
  std::vector<int64_t> Value(Varying.size());
  AccessOp Op =
      A.Kind == AccessKind::Store ? AccessOp::Store : AccessOp::Load;
  for (uint64_t C = 0; C < Combos; ++C) {
    uint64_t Rest = C;
    for (unsigned I = 0; I < Varying.size(); ++I) {
      Value[I] = Values[I][Rest % Values[I].size()];
      Rest /= Values[I].size();
    }
    bool Bad = false;
    CoalescingResult Worst;
    const WarpInfo *WorstWarp = nullptr;
    for (const WarpInfo &W : Warps) {
      warpAddresses(W, Value, Addr);
      // Counts only: the sector list is the shown warp's, computed last.
      CoalescingResult R = Model.count(Addr, A.Width);
      // A request thinned out by a branch whose other side serves the other
      // lanes (`if (odd) out[tid] = ...`) is not the layout's fault: the
      // pattern must be uncoalesced over the whole warp too.
      if (isUncoalesced(R) && W.Active.size() != W.All.size()) {
        warpAddresses(W, Value, Whole, /*AllLanes=*/true);
        Bad |= isUncoalesced(Model.count(Whole, A.Width));
      } else {
        Bad |= isUncoalesced(R);
      }
      if (!WorstWarp || R.ratio() > Worst.ratio()) {
        Worst = std::move(R);
        WorstWarp = &W;
        std::swap(WorstAddr, Addr);
      }
    }
    BadAt[C] = Bad;
    if (C == 0 || (Bad && !Best.Bad) ||
        (Bad == Best.Bad && Worst.ratio() > Best.Worst.ratio())) {
      Best.Bind.clear();
      for (unsigned I = 0; I < Varying.size(); ++I)
        Best.Bind[Varying[I]] = Value[I];
      Best.Bad = Bad;
      Best.Worst = std::move(Worst);
      Best.Warp = WorstWarp->Begin / G.warpSize();
      Best.Addr = WorstAddr;
      Best.WI = WorstWarp;
    }
  }

  V.Valid = true;
  unsigned BadCount = 0;
  for (char Bad : BadAt)
    BadCount += Bad;
  V.Uncoalesced = BadCount > 0;
  V.Conditional = V.Uncoalesced && BadCount < Combos;

  V.Warp = Best.Warp;
  V.Addr = std::move(Best.Addr);
  V.Result = Model.analyze(V.Addr, A.Width, Op);
  V.Binding = std::move(Best.Bind);
  V.Stride = describeStride(A, *Best.WI, V.Addr, Varying, T);

  if (!V.Conditional)
    return V;
  if (Varying.size() == 1) {
    SymbolId S = Varying[0];
    std::string Name = symbolName(T, S);
    std::vector<int64_t> Bad, Good;
    bool TailBad = true;
    // With one unknown, assignment C binds it to Values[0][C].
    for (uint64_t C = 0; C < Combos; ++C) {
      int64_t X = Values[0][C];
      (BadAt[C] ? Bad : Good).push_back(X);
      if (Search.Generated && X > Search.S0 && !BadAt[C])
        TailBad = false;
    }
    std::ostringstream OS;
    if (!Search.Generated) {
      if (Bad.size() <= 6)
        OS << " when " << Name << " is " << listValues(Bad);
      else
        OS << " for some values of " << Name << " (e.g. " << Bad.back() << ")";
    } else if (TailBad) {
      bool Prefix = Good.back() < Bad.front();
      if (Prefix)
        OS << " when " << Name << " \u2265 " << Bad.front();
      else if (Good.size() <= 4)
        OS << " unless " << Name << " is " << listValues(Good);
      else
        OS << " for most values of " << Name << " (e.g. " << Bad.back()
           << ")";
    } else if (Bad.size() <= 4) {
      OS << " when " << Name << " is " << listValues(Bad);
    } else {
      OS << " for some values of " << Name << " (e.g. " << Bad.back() << ")";
    }
    V.Condition = OS.str();
    return V;
  }
  std::ostringstream OS;
  OS << " for some values of ";
  for (unsigned I = 0; I < Varying.size(); ++I)
    OS << (I == 0 ? "" : I + 1 == Varying.size() ? " and " : ", ")
       << symbolName(T, Varying[I]);
  OS << " (e.g. ";
  unsigned I = 0;
  for (const auto &KV : V.Binding)
    OS << (I++ ? ", " : "") << T.Symbols.info(KV.first).Name << " = "
       << KV.second;
  OS << ")";
  V.Condition = OS.str();
  return V;
}

std::string declName(const ValueDecl *D, const char *Fallback) {
  if (const auto *ND = dyn_cast_or_null<NamedDecl>(D))
    return ND->getNameAsString();
  return Fallback;
}

const TransferVerdict &analyzeTransfer(const KernelContext &K,
                                       unsigned GIndex) {
  auto It = K.TransferCache.find(GIndex);
  if (It == K.TransferCache.end())
    It = K.TransferCache
             .emplace(GIndex,
                      analyzeTransfer(K.Trace.GlobalAccesses[GIndex], K.Trace))
             .first;
  return It->second;
}

/// Whether analyzeTransfer must give the same verdict for \p A in \p TA as
/// for \p B in \p TB: it reads only the access's offset, lanes, width and
/// kind, the block shape and, for the unknowns in the offset, their names
/// and known values.
static bool sameTransferInputs(const GlobalAccess &A, const KernelTrace &TA,
                               const GlobalAccess &B, const KernelTrace &TB) {
  if (A.Kind != B.Kind || A.Width != B.Width || A.Active != B.Active ||
      A.Offset != B.Offset || !(TA.Geometry.block() == TB.Geometry.block()))
    return false;
  for (SymbolId S : A.Offset.symbols()) {
    if (S >= TA.Symbols.size() || S >= TB.Symbols.size())
      return false;
    const SymbolInfo &IA = TA.Symbols.info(S), &IB = TB.Symbols.info(S);
    if (IA.key() != IB.key() || IA.Name != IB.Name ||
        IA.Values != IB.Values)
      return false;
  }
  return true;
}

bool globalSideNoWorse(const KernelContext &K, const KernelTrace &After,
                       const ValueDecl *Var) {
  const KernelTrace &Before = K.Trace;
  if (Before.GlobalAccesses.size() != After.GlobalAccesses.size())
    return false;
  for (unsigned I = 0; I < Before.GlobalAccesses.size(); ++I) {
    const GlobalAccess &A = Before.GlobalAccesses[I];
    bool Linked = false;
    for (unsigned SI : A.Shared)
      Linked |= Before.Accesses[SI].Address.Base == Var;
    if (!Linked)
      continue;
    // A what-if of the shared layout (padding) rarely moves a global
    // address: the same inputs give the same verdict, not worse.
    if (sameTransferInputs(A, Before, After.GlobalAccesses[I], After))
      continue;
    const TransferVerdict &VB = analyzeTransfer(K, I);
    TransferVerdict VA = analyzeTransfer(After.GlobalAccesses[I], After);
    if (VA.Valid && VA.Uncoalesced &&
        (!VB.Valid || !VB.Uncoalesced ||
         VA.Result.ratio() > VB.Result.ratio()))
      return false;
  }
  return true;
}

} // namespace shmem
