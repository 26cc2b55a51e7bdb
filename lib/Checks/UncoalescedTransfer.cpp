//===- UncoalescedTransfer.cpp - shmem-uncoalesced-transfer ---------------===//
//
// The global side of a shared tile: every global load whose value the
// kernel stores to __shared__ memory, and every global store of a value
// loaded from it (the walker's dataflow links, see GlobalAccess), goes
// through the CoalescingModel warp by warp. A request is reported when it
// touches at least UncoalescedRatio times the 32-byte sectors its bytes
// need.
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

#include "Checks.h"

#include "BankModel.h"
#include "CoalescingModel.h"
#include "PatternSet.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

using namespace clang;

namespace shmem {

namespace {

constexpr unsigned MaxAssignments = 4096;
/// The largest value a lane-dependent unknown is enumerated up to before
/// the periodic tail.
constexpr int64_t MaxThreshold = 2048;
/// What unknowns with a thread-dependent coefficient stand for in what-if
/// evaluations that re-assign threads: a large, sector-aligned value.
constexpr int64_t LargeValue = 4096;

struct WarpInfo {
  unsigned Begin = 0, End = 0, First = 0;
  std::vector<unsigned> Active;
  /// Every thread of the warp, active or not.
  std::vector<unsigned> All;
  /// The offset over the warp's threads (index T - Begin), read off the
  /// compact Lanes forms once per access: analyzeTransfer prices every
  /// warp under up to MaxAssignments bindings, and a lookup per lane and
  /// binding (a Linear form divides per lookup) was most of its cost. The
  /// concrete part, as it is:
  std::vector<int64_t> Const;
  /// and, for each varying unknown whose coefficient is not the same in
  /// every thread of the warp, its index in Varying and the coefficient
  /// minus the first active lane's (the warp-uniform part cancels, see
  /// warpAddresses).
  std::vector<std::pair<unsigned, std::vector<int64_t>>> Terms;
};

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

bool isUncoalesced(const CoalescingResult &R) {
  return R.ActiveLanes >= 2 && R.IdealSectors > 0 &&
         R.Sectors >= UncoalescedRatio * R.IdealSectors;
}

/// \p Off in every thread with every unknown bound: those in \p B as
/// given, those with a thread-dependent coefficient over the active threads
/// to a large value, the others to 0. The same values as
/// LaneValue::evaluate(T, ...) for each thread T, but bind() folds each
/// coefficient into the constants in its compact form instead of a lookup
/// per thread through a std::map.
std::vector<int64_t> fullyBound(const LaneValue &Off,
                                const std::vector<char> &Active,
                                const SymbolBinding &B) {
  SymbolBinding Full = B;
  unsigned K = 0;
  for (const auto &[S, Coeffs] : Off.coefficients()) {
    if (Full.count(S) || Coeffs.form() == Lanes::Form::Splat)
      continue;
    std::optional<int64_t> Seen;
    bool Varies = !Coeffs.forEachWhile([&](unsigned T, int64_t C) {
      if (!Active[T])
        return true;
      if (Seen && *Seen != C)
        return false;
      Seen = C;
      return true;
    });
    if (Varies)
      Full[S] = LargeValue * int64_t(1 + K++);
  }
  return Off.bind(Full).constants().toVector();
}

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

/// What analyzeTransfer enumerates: the distinct warps of the access, the
/// unknowns with a lane-dependent coefficient and the values each takes.
/// Cheap next to the enumeration (which prices every warp under every
/// assignment), so callers that need only the unknowns build this alone.
struct TransferSearch {
  /// False when there is nothing to enumerate or too much: analyzeTransfer
  /// then gives no verdict (Valid false).
  bool Ok = false;
  std::vector<WarpInfo> Warps;
  /// In SymbolId order: the keys of the verdict's Binding.
  std::vector<SymbolId> Varying;
  std::vector<std::vector<int64_t>> Values;
  /// One unknown enumerated 0..S0 then over a periodic tail.
  bool Generated = false;
  int64_t S0 = 0;
  uint64_t Combos = 1;

  TransferSearch(const GlobalAccess &A, const KernelTrace &T);
};

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

static std::string declName(const ValueDecl *D, const char *Fallback) {
  if (const auto *ND = dyn_cast_or_null<NamedDecl>(D))
    return ND->getNameAsString();
  return Fallback;
}

TransferGroup transferGroup(const KernelTrace &T, unsigned GIndex,
                            unsigned SIndex) {
  TransferGroup Grp;
  const GlobalAccess &G0 = T.GlobalAccesses[GIndex];
  const SharedAccess &S0 = T.Accesses[SIndex];
  for (unsigned I = 0; I < T.GlobalAccesses.size(); ++I) {
    const GlobalAccess &G = T.GlobalAccesses[I];
    if (G.E != G0.E || G.CallStack != G0.CallStack || G.Active != G0.Active)
      continue;
    for (unsigned SI : G.Shared)
      if (T.Accesses[SI].E == S0.E && T.Accesses[SI].Active == G.Active) {
        Grp.Global.push_back(I);
        Grp.Shared.push_back(SI);
        break;
      }
  }
  if (Grp.Global.empty()) {
    Grp.Global.push_back(GIndex);
    Grp.Shared.push_back(SIndex);
  }
  return Grp;
}

Reassignment::Reassignment(const KernelTrace &T, const TransferGroup &Grp,
                           bool ByGlobal, const SymbolBinding &Binding,
                           const KernelTrace *Padded)
    : Geo(T.Geometry), ByGlobal(ByGlobal) {
  const KernelTrace &ST = Padded ? *Padded : T;
  NInst = Grp.Global.size();
  std::vector<const GlobalAccess *> Gs;
  std::vector<const SharedAccess *> Ss;
  for (unsigned K = 0; K < NInst; ++K) {
    if (Grp.Global[K] >= T.GlobalAccesses.size() ||
        Grp.Shared[K] >= ST.Accesses.size())
      return;
    Gs.push_back(&T.GlobalAccesses[Grp.Global[K]]);
    Ss.push_back(&ST.Accesses[Grp.Shared[K]]);
    if (!Gs.back()->Offset.isAffine() || !Ss.back()->Address.Offset.isAffine() ||
        Ss.back()->E != T.Accesses[Grp.Shared[K]].E)
      return;
  }
  const std::vector<char> &Active = Gs[0]->Active;
  Slot.assign(Active.size(), -1);
  for (unsigned Th = 0; Th < Active.size(); ++Th)
    if (Active[Th])
      Slot[Th] = int(Threads++);
  if (Threads < 2)
    return;

  // Addresses of every work item (instance, thread), both sides.
  GAddr.reserve(size_t(NInst) * Threads);
  SAddr.reserve(size_t(NInst) * Threads);
  for (unsigned K = 0; K < NInst; ++K) {
    std::vector<int64_t> GV = fullyBound(Gs[K]->Offset, Active, Binding);
    std::vector<int64_t> SV =
        fullyBound(Ss[K]->Address.Offset, Active, Binding);
    for (unsigned Th = 0; Th < Active.size(); ++Th)
      if (Active[Th]) {
        GAddr.push_back(GV[Th]);
        SAddr.push_back(SV[Th]);
      }
  }
  GWidth = Gs[0]->Width;
  SWidth = Ss[0]->Width;
  SOp = Ss[0]->Kind == AccessKind::Load ? AccessOp::Load : AccessOp::Store;
  Valid = true;
}

const CoalescingResult &Reassignment::globalBefore() {
  if (!Before)
    price(/*Reassigned=*/false, &Before.emplace(), nullptr);
  return *Before;
}

const CoalescingResult &Reassignment::globalAfter() {
  if (!After)
    price(/*Reassigned=*/true, &After.emplace(), nullptr);
  return *After;
}

unsigned Reassignment::sharedAfter() {
  if (!SharedAfter)
    price(/*Reassigned=*/true, nullptr, &SharedAfter.emplace());
  return *SharedAfter;
}

void Reassignment::price(bool Reassigned, CoalescingResult *Global,
                         unsigned *Shared) {
  if (Reassigned && Moved.empty()) {
    // Sorted by the chosen side's address, ties in item order (instance,
    // then thread).
    const std::vector<int64_t> &Key = ByGlobal ? GAddr : SAddr;
    std::vector<std::pair<int64_t, uint32_t>> Sorted;
    Sorted.reserve(Key.size());
    for (uint32_t I = 0; I < Key.size(); ++I)
      Sorted.push_back({Key[I], I});
    std::sort(Sorted.begin(), Sorted.end());
    Moved.reserve(Sorted.size());
    for (const auto &KV : Sorted)
      Moved.push_back(KV.second);
  }
  CoalescingModel CM;
  BankModel BM;
  bool Have = false;
  if (Shared)
    *Shared = 1;
  // Warps whose request is a shifted copy of one already priced cost the
  // same and are skipped: sector counts are the same under a shift by whole
  // sectors, and bank conflicts under a shift by whole words (the banks
  // only rotate). After re-assignment most warps take the same pattern a
  // tile row further on.
  const int64_t GPeriod = CM.sectorBytes();
  const int64_t SPeriod = BM.bankBytes();
  PatternSet SeenG, SeenS;
  std::vector<std::optional<int64_t>> GA, SA;
  std::vector<int64_t> GKey, SKey;
  for (unsigned K = 0; K < NInst; ++K)
    for (unsigned W = 0; W < Geo.warps(); ++W) {
      unsigned Begin = Geo.warpBegin(W), End = Geo.warpEnd(W);
      GA.assign(End - Begin, std::nullopt);
      SA.assign(End - Begin, std::nullopt);
      // The key: the lane count, which lanes are active, then each active
      // lane's address relative to the first one's, then the first one's
      // modulo the period.
      GKey.assign(2 + (End - Begin) / 64, 0);
      GKey[0] = End - Begin;
      std::optional<int64_t> G0, S0;
      for (unsigned Th = Begin; Th < End; ++Th) {
        if (Th >= Slot.size() || Slot[Th] < 0)
          continue;
        uint32_t I = K * Threads + unsigned(Slot[Th]);
        if (Reassigned)
          I = Moved[I];
        GA[Th - Begin] = GAddr[I];
        SA[Th - Begin] = SAddr[I];
        GKey[1 + (Th - Begin) / 64] |= int64_t(1) << ((Th - Begin) % 64);
        if (!G0) {
          G0 = GAddr[I];
          S0 = SAddr[I];
        }
      }
      if (!G0)
        continue;
      SKey = GKey;
      auto Seen = [](PatternSet &Set,
                     std::vector<int64_t> &Key,
                     const std::vector<std::optional<int64_t>> &Addr,
                     int64_t First, int64_t Period) {
        for (const auto &A : Addr)
          if (A)
            Key.push_back(wrapSub(*A, First));
        Key.push_back(floorMod(First, Period));
        return !Set.insert(Key);
      };
      if (Global && !Seen(SeenG, GKey, GA, *G0, GPeriod)) {
        CoalescingResult C = CM.count(GA, GWidth);
        if (C.ActiveLanes >= 2 && (!Have || C.ratio() > Global->ratio())) {
          *Global = C;
          Have = true;
        }
      }
      if (Shared && !Seen(SeenS, SKey, SA, *S0, SPeriod)) {
        BankResult B = BM.count(SA, SWidth, SOp);
        if (B.ActiveLanes >= 1)
          *Shared = std::max(*Shared, B.degree());
      }
    }
}

SymbolBinding largeBinding(const SymbolBinding &B) {
  // A large, sector-aligned value for each lane-dependent unknown (a pitch
  // of 4096 elements rather than the smallest one that shows the problem).
  SymbolBinding Large;
  int64_t Scale = 1;
  for (const auto &KV : B)
    Large[KV.first] = LargeValue * Scale++;
  return Large;
}

/// Whether \p G moves elements one to one with one shared access (a copy,
/// possibly converted or scaled), rather than combining several (a sum
/// over a tile): only then can the work be re-assigned element by element.
static bool directTransfer(const GlobalAccess &G, const KernelTrace &T) {
  if (G.Shared.size() != 1)
    return false;
  const SharedAccess &S = T.Accesses[G.Shared[0]];
  unsigned Links = 0;
  for (unsigned GI : S.Global)
    Links += T.GlobalAccesses[GI].E == G.E;
  return Links == 1;
}

/// Whether a barrier separates the tile's producers from its consumers, so
/// that which thread moves which element may change.
static bool barrierAround(const KernelTrace &T, const SharedAccess &S) {
  for (const BarrierEvent &B : T.Barriers)
    if (B.Kind == BarrierKind::Block &&
        (S.Kind == AccessKind::Store ? B.Seq > S.Seq : B.Seq < S.Seq))
      return true;
  return false;
}

/// Whether the work of the pair may be handed to other threads: the global
/// access moves elements one to one with the shared one, and a barrier
/// separates the tile's producers from its consumers.
static bool reassignable(const KernelTrace &T, unsigned GIndex,
                         unsigned SIndex) {
  return SIndex < T.Accesses.size() && GIndex < T.GlobalAccesses.size() &&
         barrierAround(T, T.Accesses[SIndex]) &&
         directTransfer(T.GlobalAccesses[GIndex], T);
}

/// Giving consecutive lanes consecutive global elements: worth advising
/// when the global side is uncoalesced as assigned now and coalesced then.
/// The before test first: most accesses are coalesced already, and it
/// needs no sort.
static bool transposeHelps(Reassignment &R) {
  return R.valid() && isUncoalesced(R.globalBefore()) &&
         !isUncoalesced(R.globalAfter());
}

bool transposeApplies(const KernelContext &K, unsigned GIndex,
                      unsigned SIndex) {
  const KernelTrace &T = K.Trace;
  if (!reassignable(T, GIndex, SIndex))
    return false;
  // The unknowns the verdict's Binding would bind, from the search's setup
  // alone: transposeAdvice binds exactly those large. No verdict, no advice.
  TransferSearch Search(T.GlobalAccesses[GIndex], T);
  if (!Search.Ok)
    return false;
  SymbolBinding Keys;
  for (SymbolId S : Search.Varying)
    Keys[S] = 0;
  Reassignment R(T, transferGroup(T, GIndex, SIndex), /*ByGlobal=*/true,
                 largeBinding(Keys));
  return transposeHelps(R);
}

std::string transposeAdvice(const KernelContext &K, unsigned GIndex,
                            unsigned SIndex, const TransferVerdict &V) {
  const KernelTrace &T = K.Trace;
  if (!reassignable(T, GIndex, SIndex))
    return "";
  const GlobalAccess &G = T.GlobalAccesses[GIndex];
  const SharedAccess &S = T.Accesses[SIndex];
  SymbolBinding Large = largeBinding(V.Binding);
  TransferGroup Grp = transferGroup(T, GIndex, SIndex);
  Reassignment R(T, Grp, /*ByGlobal=*/true, Large);
  if (!transposeHelps(R))
    return "";
  std::string Global = declName(G.Base, "global memory");
  std::string Tile = declName(S.Address.Base, "shared memory");
  std::ostringstream OS;
  OS << "with consecutive lanes on consecutive elements of '" << Global
     << "' a warp's request would touch " << R.globalAfter().Sectors
     << " sectors (not " << R.globalBefore().Sectors << "), and '" << Tile
     << "' would do the transposition";
  std::string What = S.Kind == AccessKind::Store
                         ? "the store to '" + Tile + "'"
                         : "the load from '" + Tile + "'";
  if (R.sharedAfter() <= 1) {
    OS << "; " << What << " stays conflict-free";
    return OS.str();
  }
  OS << "; " << What << " would then be a " << R.sharedAfter()
     << "-way bank conflict";
  // Which padding of the tile removes it, re-walking the kernel padded.
  const auto *Var = dyn_cast_or_null<VarDecl>(S.Address.Base);
  const ConstantArrayType *VT =
      Var && !S.Address.DynamicShared
          ? K.Ctx.getAsConstantArrayType(Var->getType())
          : nullptr;
  const ConstantArrayType *Row =
      VT ? K.Ctx.getAsConstantArrayType(VT->getElementType()) : nullptr;
  if (Row && !Row->getElementType()->isArrayType()) {
    for (int64_t Pad : {1, 2, 4, 8}) {
      PaddingOverride O{Var, Pad};
      KernelTrace P = traceKernel(K.Ctx, K.Kernel, T.Geometry, K.Opts, &O);
      // Only the tile side moves: the global side is R's.
      Reassignment RP(T, Grp, /*ByGlobal=*/true, Large, &P);
      if (!RP.valid())
        break;
      if (RP.sharedAfter() <= 1) {
        OS << ", which padding '" << Tile << "' to ["
           << VT->getSize().getZExtValue() << "]["
           << Row->getSize().getZExtValue() + uint64_t(Pad) << "] removes";
        return OS.str();
      }
    }
  }
  OS << ", which a padding or an XOR swizzle of '" << Tile
     << "' has to remove";
  return OS.str();
}

std::vector<FindingNote> globalSideNotes(const KernelContext &K,
                                         unsigned SIndex) {
  std::vector<FindingNote> Notes;
  const KernelTrace &T = K.Trace;
  const SharedAccess &S = T.Accesses[SIndex];
  if (!barrierAround(T, S))
    return Notes;
  std::set<const Expr *> Seen;
  for (unsigned GI : S.Global) {
    const GlobalAccess &G = T.GlobalAccesses[GI];
    if (!Seen.insert(G.E).second || !directTransfer(G, T))
      continue;
    // Re-assign threads so that the tile access is conflict-free
    // (consecutive lanes on consecutive words), keeping every element's
    // place in the tile: what does the global side pay?
    TransferGroup Grp = transferGroup(T, GI, SIndex);
    Reassignment R(T, Grp, /*ByGlobal=*/false, {});
    // The global side first: it rejects most groups, and it is cheaper
    // than the bank side. The access's own verdict last: it searches every
    // warp under every value of the unknowns, and R does not depend on it.
    if (!R.valid() || !isUncoalesced(R.globalAfter()) || R.sharedAfter() > 1)
      continue;
    const TransferVerdict &V = analyzeTransfer(K, GI);
    if (!V.Valid || V.Uncoalesced)
      continue;
    std::string Global = declName(G.Base, "global memory");
    std::ostringstream OS;
    OS << "'" << Global << "' is " << (G.Kind == AccessKind::Load ? "read" : "written")
       << " coalesced here (" << R.globalBefore().Sectors
       << " sectors per request); giving consecutive lanes consecutive "
          "elements of '"
       << declName(S.Address.Base, "the tile")
       << "' instead would make this access touch " << R.globalAfter().Sectors
       << " sectors: change the tile's layout, not which lanes move which "
          "elements";
    Notes.push_back({G.Loc, OS.str()});
  }
  return Notes;
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

namespace {

class UncoalescedTransferChecker {
public:
  UncoalescedTransferChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), Sink(Sink) {}

  void run() {
    const KernelTrace &T = K.Trace;
    // The same access appears once per unrolled iteration and inlined call:
    // report its worst instance once, preferring an unconditional verdict.
    std::map<const Expr *, std::pair<unsigned, TransferVerdict>> Worst;
    std::vector<const Expr *> Order;
    for (unsigned I = 0; I < T.GlobalAccesses.size(); ++I) {
      const GlobalAccess &A = T.GlobalAccesses[I];
      if (A.Shared.empty() || A.Kind == AccessKind::Atomic)
        continue;
      TransferVerdict V = analyzeTransfer(K, I);
      if (V.Capped) {
        // Said, not dropped: no verdict for this access.
        AnalysisGap G;
        G.Check = CheckKind::UncoalescedTransfer;
        G.Loc = A.Loc;
        G.What = "coalescing of this access not analysed (" +
                 std::to_string(V.Capped) + " combinations)";
        G.Why = "its unknowns take more than " +
                std::to_string(MaxAssignments) + " combinations of values";
        G.CallStack = A.CallStack;
        K.reportGap(Sink, std::move(G));
      }
      if (!V.Valid || !V.Uncoalesced)
        continue;
      auto It = Worst.find(A.E);
      if (It == Worst.end()) {
        Order.push_back(A.E);
        Worst.emplace(A.E, std::make_pair(I, std::move(V)));
        continue;
      }
      const TransferVerdict &Old = It->second.second;
      if ((Old.Conditional && !V.Conditional) ||
          (Old.Conditional == V.Conditional &&
           V.Result.ratio() > Old.Result.ratio()))
        It->second = std::make_pair(I, std::move(V));
    }
    for (const Expr *E : Order)
      report(Worst[E].first, Worst[E].second);
  }

private:
  const KernelContext &K;
  FindingSink &Sink;

  void report(unsigned Index, const TransferVerdict &V) {
    const KernelTrace &T = K.Trace;
    const GlobalAccess &A = T.GlobalAccesses[Index];
    const CoalescingResult &R = V.Result;
    bool Load = A.Kind == AccessKind::Load;
    std::string Name = declName(A.Base, "global memory");
    std::ostringstream Msg;
    Msg << "global " << (Load ? "load from" : "store to") << " '" << Name
        << "' is uncoalesced" << V.Condition << ": a warp's request touches "
        << (V.Conditional ? "up to " : "") << R.Sectors
        << " sectors of 32 bytes for " << R.DistinctBytes
        << " bytes, where " << R.IdealSectors << " would do";
    if (!V.Stride.empty())
      Msg << "; " << V.Stride;

    Finding F;
    F.Check = CheckKind::UncoalescedTransfer;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();

    // The shared accesses it feeds or drains: a note at each (two at most),
    // the first one with the transpose-through-the-tile advice if any.
    std::set<const Expr *> Noted;
    std::string Advice;
    for (unsigned SI : A.Shared) {
      const SharedAccess &S = T.Accesses[SI];
      if (!Noted.insert(S.E).second || Noted.size() > 2)
        continue;
      std::string Tile = declName(S.Address.Base, "shared memory");
      if (Advice.empty() && Noted.size() == 1)
        Advice = transposeAdvice(K, Index, SI, V);
      std::string Note =
          Load ? "the loaded value is stored to '" + Tile + "' here"
               : "the stored value is loaded from '" + Tile + "' here";
      if (!Advice.empty() && Noted.size() == 1)
        Note += "; " + Advice;
      F.Notes.push_back({S.Loc, Note});
    }
    if (!Advice.empty())
      Msg << "; let consecutive lanes take consecutive elements of '" << Name
          << "' and transpose through '"
          << declName(T.Accesses[A.Shared[0]].Address.Base, "the tile")
          << "'";
    F.Message = Msg.str();

    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(
        K, ", with '" + Name +
               "' 256-byte aligned and offsets the same in every lane taken "
               "as whole sectors"));

    std::ostringstream Detail;
    Detail << "sectors touched by warp " << V.Warp << ":";
    for (int64_t S : R.SectorList)
      Detail << " " << S;
    Detail << "\n";
    F.Detail = Detail.str();
    F.Weight = unsigned(R.ratio() * 64);
    Sink.report(F);
  }
};

} // namespace

void checkUncoalescedTransfers(const KernelContext &K, FindingSink &Sink) {
  UncoalescedTransferChecker(K, Sink).run();
}

} // namespace shmem
