//===- TransposeAdvice.cpp - Re-assigning a transfer's work to threads ----===//
//
// Part of shmem-uncoalesced-transfer and of the bank check's trade-off
// advice: what handing the elements of a global transfer to other threads
// costs on both sides (Reassignment), the "transpose through the tile"
// advice it supports, and the notes at coalesced global accesses that
// fixing a bank conflict by re-assigning lanes would make uncoalesced.
//
//===----------------------------------------------------------------------===//

#include "TransferSearch.h"

#include "BankModel.h"
#include "PatternSet.h"

#include "clang/AST/Decl.h"

#include <algorithm>
#include <set>
#include <sstream>

using namespace clang;

namespace shmem {

namespace {

/// What unknowns with a thread-dependent coefficient stand for in what-if
/// evaluations that re-assign threads: a large, sector-aligned value.
constexpr int64_t LargeValue = 4096;

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

} // namespace

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
      KernelTrace P = retraceKernel(K.Ctx, T, K.Opts, &O);
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

} // namespace shmem
