//===- BankConflict.cpp - shmem-bank-conflict -----------------------------===//
//
// For every shared access of a kernel trace and every warp of the block:
// the byte address of each active lane goes through the BankModel. Unknowns
// whose coefficients are the same in every lane only shift the warp's
// addresses and cannot change the degree, so they are set to zero. Unknowns
// with lane-dependent coefficients (`tile[lane * ld]`) change it: their
// residues are enumerated and the finding states the condition. An
// unknown that enters an address through bit operations (`s[(c ^ lane) %
// 32]`) is not affine: the kernel is walked again with it pinned to each
// residue that can move a bank, and the degrees compared. A 16-byte
// cp.async.cg, which the H200 serves by global line and shared row, not by
// bank, is priced by BypassCopyModel instead (BypassCopies.h).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "BankModel.h"
#include "ArrayShape.h"
#include "BankWhatIf.h"
#include "BypassCopies.h"
#include "LaneList.h"
#include "FlatStride.h"
#include "PaddingCost.h"
#include "PatternSet.h"
#include "SwizzleFix.h"
#include "TmaTiles.h"

#include "Analysis/CompiledWidths.h"
#include "Analysis/Program/CudaModel.h"

#include "clang/AST/Attr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/Hashing.h"

#include <deque>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>

using namespace clang;

namespace shmem {
namespace {

/// Unknowns are enumerated around this base so that no two lanes coincide
/// by accident (as they would at 0); it is a multiple of every bank period.
constexpr int64_t SymbolBase = int64_t(1) << 24;
constexpr unsigned MaxAssignments = 4096;

struct WarpVerdict {
  bool Valid = false;
  /// When Partial, only the counts of Result (wavefronts, ideal, phases,
  /// active lanes: BankModel::count()) are filled in: they are all that
  /// picking the worst assignment, warp and instance needs, and the warp
  /// search and the memo leave verdicts so. BankConflictChecker::complete()
  /// fills in the rest (which bank, words and lanes) for the few reported.
  bool Partial = false;
  BankResult Result;
  unsigned Warp = 0;
  std::vector<std::optional<int64_t>> Addr;
  /// The values of the unknowns Addr was computed with.
  SymbolBinding Bind;
  /// Residue conditions: degree for each enumerated assignment.
  bool Conditional = false;
  std::vector<std::pair<SymbolBinding, unsigned>> ByAssignment;
  std::map<SymbolId, int64_t> Periods;
  /// Some warp was not evaluated: its lane-dependent unknowns take this
  /// many residue combinations, more than MaxAssignments (0: none).
  uint64_t Capped = 0;
  /// A 16-byte cp.async.cg: priced by BypassCopyModel (Result holds its
  /// counts only).
  std::optional<BypassWarp> Bypass;
};

class BankConflictChecker {
public:
  BankConflictChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), Sink(Sink), Model(32, 4) {}

  void run() {
    // The same access appears once per unrolled iteration (and per inlined
    // call): report its worst instance, once.
    // A compound assignment loads and stores through one expression: one
    // finding for both.
    std::map<const Expr *, std::pair<const SharedAccess *, WarpVerdict>> Worst;
    std::map<const Expr *, std::set<AccessKind>> Kinds;
    std::vector<const Expr *> Order;
    std::map<const Expr *, WarpVerdict> Enumerated = enumerateUniforms();
    Degrees.assign(K.Trace.Accesses.size(), 0);
    WarpMemo Memo;
    std::set<const Expr *> Misaligned;
    Compiled = compiledWidths(K.Trace, Ctx());
    for (const SharedAccess &Written : K.Trace.Accesses) {
      if (Written.Kind == AccessKind::Atomic)
        continue;
      // The access as nvcc emits it: merged with the next ones of its run
      // into one wider instruction, or part of a previous one's.
      unsigned Index = unsigned(&Written - K.Trace.Accesses.data());
      const CompiledAccess &C = Compiled[Index];
      if (C.Leader != Index)
        continue;
      const SharedAccess *Emitted = &Written;
      if (C.merged()) {
        MergedCopies.push_back(Written);
        MergedCopies.back().Width = C.Width;
        CopyIndex[&MergedCopies.back()] = Index;
        Emitted = &MergedCopies.back();
      }
      const SharedAccess &A = *Emitted;
      // A misaligned row faults: its wavefronts mean nothing.
      if (!A.Matrix.empty() &&
          (Misaligned.count(A.E) || reportMisalignedRow(A))) {
        Misaligned.insert(A.E);
        continue;
      }
      WarpVerdict V = worstWarp(A, K.Trace, &Memo);
      Degrees[Index] = V.Valid ? V.Result.degree() : 1;
      for (unsigned J = Index + 1; J < Compiled.size() && Compiled[J].Leader == Index; ++J)
        Degrees[J] = Degrees[Index];
      if (V.Capped)
        reportCapped(A, V.Capped);
      if (!V.Valid) {
        auto EI = Enumerated.find(A.E);
        if (EI == Enumerated.end())
          continue;
        V = EI->second;
      }
      const Expr *Key = A.E;
      Kinds[Key].insert(A.Kind);
      auto It = Worst.find(Key);
      if (It == Worst.end()) {
        Order.push_back(Key);
        Worst.emplace(Key, std::make_pair(&A, std::move(V)));
      } else if (V.Result.Wavefronts > It->second.second.Result.Wavefronts) {
        It->second = std::make_pair(&A, std::move(V));
      }
    }
    for (const auto &Key : Order) {
      auto &[A, V] = Worst[Key];
      if (V.Result.degree() < K.Opts.MinDegree)
        continue;
      if (V.Conditional && !K.Opts.ReportConditional)
        continue;
      complete(V, *A);
      report(*A, V, Kinds[Key].size() > 1);
    }
  }

private:
  const KernelContext &K;
  FindingSink &Sink;
  BankModel Model;

  /// ldmatrix/stmatrix rows must start on 16 bytes (PTX ISA; a misaligned
  /// row fails the launch with a misaligned-address error). The shared
  /// array's base is taken as 16-byte aligned, as the bank model takes it.
  static constexpr int64_t RowBytes = cuda::AsmMatrixAccess::RowBytes;
  /// The first active thread of a matrix access whose row is misaligned,
  /// and its byte offset; none when every row is aligned or the unknowns
  /// could decide it.
  static std::optional<std::pair<unsigned, int64_t>>
  misalignedRow(const SharedAccess &A) {
    const LaneValue &Off = A.Address.Offset;
    if (A.Matrix.empty() || A.ActiveApprox || !Off.isAffine())
      return std::nullopt;
    for (const auto &KV : Off.coefficients()) {
      bool Whole = KV.second.forEachWhile(
          [&](unsigned, int64_t X) { return X % RowBytes == 0; });
      if (!Whole)
        return std::nullopt;
    }
    std::optional<std::pair<unsigned, int64_t>> Bad;
    Off.constants().forEachWhile([&](unsigned I, int64_t X) {
      if (I < A.Active.size() && A.Active[I] && X % RowBytes) {
        Bad = std::make_pair(I, X);
        return false;
      }
      return true;
    });
    return Bad;
  }

  /// Reports the first active lane whose row is misaligned, when the
  /// unknowns of the address cannot change that; returns whether it did.
  bool reportMisalignedRow(const SharedAccess &A) {
    std::optional<std::pair<unsigned, int64_t>> Bad = misalignedRow(A);
    if (!Bad)
      return false;
    Finding F;
    F.Check = CheckKind::BankConflict;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();
    std::ostringstream Msg;
    Msg << "misaligned " << StringRef(A.Matrix).take_until([](char C) {
      return C == '.';
    }).str()
        << " row: lane " << Bad->first % K.Trace.Geometry.warpSize()
        << " gives byte " << Bad->second << " of '" << baseName(A)
        << "', not a multiple of " << RowBytes << " (" << A.Matrix
        << " needs " << RowBytes << "-byte aligned rows; the launch fails with a "
           "misaligned address)";
    F.Message = Msg.str();
    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    F.Notes.push_back(blockShapeNote(K));
    F.Weight = 64 * 32;
    Sink.report(F);
    return true;
  }

  /// Warps of \p A left out by the enumeration's bound: said, not dropped.
  void reportCapped(const SharedAccess &A, uint64_t Combos) {
    AnalysisGap G;
    G.Check = CheckKind::BankConflict;
    G.Loc = A.Loc;
    G.What = "bank conflicts of this access not analysed in some warps (" +
             std::to_string(Combos) + " combinations)";
    G.Why = "its unknowns take more than " + std::to_string(MaxAssignments) +
            " combinations of residues";
    G.CallStack = A.CallStack;
    K.reportGap(Sink, std::move(G));
  }
  /// What each access of K.Trace becomes in the emitted code.
  std::vector<CompiledAccess> Compiled;
  /// Merged accesses: the run's first access with the instruction's width,
  /// and the index of that first access in K.Trace.
  std::deque<SharedAccess> MergedCopies;
  std::map<const SharedAccess *, unsigned> CopyIndex;
  unsigned indexOf(const SharedAccess &A) const {
    auto It = CopyIndex.find(&A);
    return It != CopyIndex.end() ? It->second
                                 : unsigned(&A - K.Trace.Accesses.data());
  }
  /// What nvcc makes of a merged or mergeable access (CompiledWidths.h),
  /// as a clause of the message; empty for the others.
  std::string mergedNote(const SharedAccess &A) {
    std::string What = describe(Compiled[indexOf(A)],
                                A.Kind == AccessKind::Load, baseName(A));
    return What.empty() ? What : "; " + What;
  }

  /// worstWarp's degree of each access of K.Trace (1 when it makes no
  /// claim), for the padding what-if's comparison.
  std::vector<unsigned> Degrees;
  /// The lane->bank pictures findings carry (as written and what-ifs).
  BankWhatIf WhatIf{K};

  static AccessOp opOf(const SharedAccess &A) {
    return A.Kind == AccessKind::Load ? AccessOp::Load : AccessOp::Store;
  }

  /// The step by which moving every lane's address leaves an access's
  /// wavefronts unchanged (the banks only rotate).
  static int64_t unitOf(const SharedAccess &A) {
    return std::max<int64_t>(4, A.Width);
  }

  /// Fills in a partial verdict's bank analysis from its addresses.
  void complete(WarpVerdict &V, const SharedAccess &A) const {
    if (!V.Valid || !V.Partial)
      return;
    V.Result = Model.analyze(V.Addr, A.Width, opOf(A));
    V.Partial = false;
  }

  /// worstWarp's answers for the accesses of one trace, by offset up to a
  /// shift. An access whose offset is another's moved by the same multiple
  /// of the access unit in every thread (the same expression in the next
  /// unrolled iteration: `tile[ty + j][tx]` for j = 0, 8, 16, 24) has, in
  /// every warp and for every value of the unknowns, the same wavefronts up
  /// to a rotation of the banks: the same worst warp and assignment, its
  /// addresses moved by the shift. Lives no longer than its trace.
  struct WarpMemo {
    struct Entry {
      LaneValue Key; ///< The offset less Shift.
      int64_t Shift;
      unsigned Width;
      AccessOp Op;
      const std::vector<char> *Active;
      WarpVerdict Verdict;
    };
    std::unordered_multimap<size_t, Entry> Entries;
  };

  /// The worst warp of the block for one access; \p Memo (for accesses of
  /// \p T only) answers repeats up to a shift without a search.
  WarpVerdict worstWarp(const SharedAccess &A, const KernelTrace &T,
                        WarpMemo *Memo = nullptr) {
    if (isBypassCopy(A))
      return bypassVerdict(A, T);
    const LaneValue &Off = A.Address.Offset;
    if (!Memo || !Off.isAffine() || Off.size() == 0)
      return searchWorstWarp(A, T);
    // Shift the offset so that thread 0's constant lies in [0, unit).
    int64_t C0 = Off.constants()[0];
    int64_t Shift = wrapSub(C0, floorMod(C0, unitOf(A)));
    LaneValue Key = Off - LaneValue::constant(Off.size(), Shift);
    const Lanes &KC = Key.constants();
    unsigned Last = Key.size() - 1;
    size_t H = llvm::hash_combine(KC[0], KC[Last], KC[Last / 2], A.Width,
                                  unsigned(opOf(A)));
    for (const auto &KV : Key.coefficients())
      H = llvm::hash_combine(H, KV.first, KV.second[0], KV.second[Last]);
    auto [Lo, Hi] = Memo->Entries.equal_range(H);
    for (auto It = Lo; It != Hi; ++It) {
      const WarpMemo::Entry &E = It->second;
      if (E.Width != A.Width || E.Op != opOf(A) || !(E.Key == Key) ||
          !(*E.Active == A.Active))
        continue;
      WarpVerdict V = E.Verdict;
      int64_t Delta = wrapSub(Shift, E.Shift);
      if (V.Valid && Delta != 0) {
        // The counts carry over; which bank is worst rotates with the
        // shift and is worked out again only if this instance is reported.
        for (std::optional<int64_t> &X : V.Addr)
          if (X)
            *X = wrapAdd(*X, Delta);
        V.Partial = true;
      }
      return V;
    }
    WarpVerdict V = searchWorstWarp(A, T);
    Memo->Entries.emplace(
        H, WarpMemo::Entry{std::move(Key), Shift, A.Width, opOf(A), &A.Active, V});
    return V;
  }

  /// worstWarp for a 16-byte cp.async.cg (BypassCopies.h): its lines and
  /// rows, not its banks, set its cost.
  static WarpVerdict bypassVerdict(const SharedAccess &A,
                                   const KernelTrace &T) {
    WarpVerdict V;
    std::optional<BypassWarp> W = worstBypassWarp(A, T);
    if (!W)
      return V;
    V.Valid = true;
    V.Warp = W->Warp;
    V.Result.ActiveLanes = W->Result.ActiveLanes;
    V.Result.Wavefronts = W->Result.Wavefronts;
    V.Result.IdealWavefronts = W->Result.IdealWavefronts;
    V.Result.BankConflicts = W->Result.Wavefronts - W->Result.IdealWavefronts;
    V.Addr = W->Shared;
    V.Bypass = std::move(W);
    return V;
  }

  /// worstWarp, searching every warp.
  WarpVerdict searchWorstWarp(const SharedAccess &A, const KernelTrace &T) {
    WarpVerdict Worst;
    uint64_t Capped = 0;
    const LaneValue &Off = A.Address.Offset;
    if (!Off.isAffine())
      return Worst; // Data-dependent or not modelled: no claim.
    const ThreadGeometry &G = T.Geometry;
    // Warps whose addresses are another's moved by the same multiple of
    // the access unit in every lane, for every value of the unknowns, map
    // their lanes to banks the same way up to a rotation of the banks: the
    // same wavefronts and degrees. Only the first is evaluated (a later one
    // never replaces it as the worst: that takes strictly more wavefronts).
    const int64_t Unit = unitOf(A);
    auto Residue = [Unit](int64_t V) { return floorMod(V, Unit); };
    PatternSet Seen;
    std::vector<int64_t> Sig;
    // When the offset is stored Splat or Linear over the block's shape, a
    // warp's signature is fixed by its first thread's x, where (if at all)
    // the warp crosses into the next z plane, its active lanes and the
    // first active lane's residues: the differences between lanes are
    // strides times coordinate differences, and those depend only on where
    // x and y wrap. Warps that agree on this short key are skipped without
    // building their signature.
    auto Compact = [&](const Lanes &L) {
      return L.form() == Lanes::Form::Splat ||
             (L.form() == Lanes::Form::Linear &&
              L.shapeX() == G.block().X && L.shapeY() == G.block().Y);
    };
    bool ShortKeys = Compact(Off.constants());
    for (const auto &KV : Off.coefficients())
      ShortKeys = ShortKeys && Compact(KV.second);
    PatternSet SeenShort;
    std::vector<int64_t> Short;
    std::vector<unsigned> ActiveLanes;
    // The active lanes as a bit mask, one word per 64 lanes of a warp: the
    // signatures' (and short keys') first words.
    const unsigned MaskWords = (G.warpSize() + 63) / 64;
    std::vector<int64_t> Mask;
    for (unsigned W = 0; W < G.warps(); ++W) {
      unsigned B = G.warpBegin(W), E = G.warpEnd(W);
      ActiveLanes.clear();
      Mask.assign(MaskWords, 0);
      for (unsigned L = B; L < E; ++L)
        if (A.Active[L]) {
          ActiveLanes.push_back(L);
          Mask[(L - B) / 64] |= int64_t(uint64_t(1) << ((L - B) % 64));
        }
      if (ActiveLanes.size() < 2)
        continue;
      unsigned First = ActiveLanes[0];
      if (ShortKeys) {
        uint64_t Plane = uint64_t(G.block().X) * G.block().Y;
        int64_t InPlane = int64_t(B % Plane);
        bool Crosses = uint64_t(InPlane) + (E - B) > Plane;
        Short.assign({int64_t(G.coordinate(B, 0)), Crosses ? InPlane : -1,
                      int64_t(E - B)});
        Short.insert(Short.end(), Mask.begin(), Mask.end());
        Short.push_back(Residue(Off.constants()[First]));
        for (const auto &KV : Off.coefficients())
          Short.push_back(Residue(KV.second[First]));
        if (!SeenShort.insert(Short))
          continue;
      }
      Sig.clear();
      auto Relative = [&](const Lanes &V) {
        Sig.push_back(Residue(V[First]));
        for (unsigned L : ActiveLanes)
          Sig.push_back(V[L] - V[First]);
      };
      Sig.assign(Mask.begin(), Mask.end());
      Relative(Off.constants());
      for (const auto &KV : Off.coefficients()) {
        Sig.push_back(KV.first);
        Relative(KV.second);
      }
      if (!Seen.insert(Sig))
        continue;
      // Unknowns whose coefficient differs between active lanes, and those
      // coefficients.
      std::vector<SymbolId> Varying;
      std::vector<const Lanes *> VaryingCoef;
      std::map<SymbolId, int64_t> Periods;
      for (const auto &KV : Off.coefficients()) {
        int64_t Gcd = 0;
        for (unsigned L : ActiveLanes)
          Gcd = std::gcd(Gcd, KV.second[L] - KV.second[ActiveLanes[0]]);
        if (Gcd == 0)
          continue;
        // Addresses matter modulo banks*bytes (128) for the bank and
        // exactly for word identity; residues of the unknown modulo
        // 128/gcd give every distinct bank pattern.
        int64_t Period = 128 / std::gcd<int64_t>(128, Gcd);
        Varying.push_back(KV.first);
        VaryingCoef.push_back(&KV.second);
        Periods[KV.first] = Period;
        // A loop variable whose values are known is enumerated over them.
        const SymbolInfo &SI = T.Symbols.info(KV.first);
        if (SI.Values && !SI.Values->empty() && SI.Values->size() <= 64)
          Periods[KV.first] = -int64_t(SI.Values->size());
      }
      uint64_t Combos = 1;
      for (SymbolId S : Varying)
        Combos *= std::abs(Periods[S]);
      if (Combos > MaxAssignments) {
        Capped = std::max(Capped, Combos);
        continue;
      }
      WarpVerdict V;
      V.Warp = W;
      V.Periods = Periods;
      // The active lanes' constants and varying coefficients, read once
      // per warp rather than once per lane and assignment.
      std::vector<int64_t> Base, Coef;
      for (unsigned L : ActiveLanes)
        Base.push_back(Off.constants()[L]);
      for (const Lanes *VC : VaryingCoef)
        for (unsigned L : ActiveLanes)
          Coef.push_back((*VC)[L]);
      std::vector<int64_t> Value(Varying.size());
      std::vector<std::optional<int64_t>> Addr;
      for (uint64_t C = 0; C < Combos; ++C) {
        SymbolBinding Bind;
        uint64_t Rest = C;
        for (unsigned I = 0; I < Varying.size(); ++I) {
          int64_t P = Periods[Varying[I]];
          if (P < 0)
            Value[I] =
                (*T.Symbols.info(Varying[I]).Values)[Rest % uint64_t(-P)];
          else
            Value[I] = SymbolBase + int64_t(Rest % uint64_t(P));
          Bind[Varying[I]] = Value[I];
          Rest /= uint64_t(std::abs(P));
        }
        // Uniform unknowns: any value; zero keeps numbers readable (they
        // are left out of Bind, as LaneValue::evaluate would read it).
        Addr.assign(E - B, std::nullopt);
        for (unsigned I = 0; I < ActiveLanes.size(); ++I) {
          int64_t X = Base[I];
          for (unsigned S = 0; S < Varying.size(); ++S)
            X = wrapAdd(X, wrapMul(Coef[S * ActiveLanes.size() + I], Value[S]));
          Addr[ActiveLanes[I] - B] = X;
        }
        // Counts only: the bank picture is worked out for the verdict
        // reported (complete()).
        BankResult R = Model.count(Addr, A.Width, opOf(A));
        if (!Varying.empty()) {
          SymbolBinding Residues;
          for (auto &KV : Bind)
            Residues[KV.first] = Periods[KV.first] < 0
                                     ? KV.second
                                     : KV.second - SymbolBase;
          V.ByAssignment.push_back({Residues, R.degree()});
        }
        if (!V.Valid || R.Wavefronts > V.Result.Wavefronts) {
          V.Valid = true;
          V.Partial = true;
          V.Result = R;
          V.Addr = Addr;
          V.Bind = Bind;
        }
      }
      if (!Varying.empty()) {
        std::set<unsigned> Degrees;
        for (auto &P : V.ByAssignment)
          Degrees.insert(P.second);
        V.Conditional = Degrees.size() > 1;
      }
      if (V.Valid && (!Worst.Valid || V.Result.Wavefronts > Worst.Result.Wavefronts ||
                      (V.Result.Wavefronts == Worst.Result.Wavefronts &&
                       !V.Conditional && Worst.Conditional)))
        Worst = std::move(V);
    }
    Worst.Capped = Capped;
    return Worst;
  }

  /// Accesses whose address depends non-linearly on exactly one uniform
  /// unknown (`s[(c ^ lane) % 32]`, c a parameter or loop counter). When the
  /// unknown only enters through + - * and bit operations, the address
  /// modulo 2^k depends only on the unknown modulo 2^k, and the bank of a
  /// 4-byte access on its address modulo 128: the kernel is walked once per
  /// residue of the unknown modulo 32 (64 for 2-byte accesses), with the
  /// unknown a large generic value of that residue as for affine unknowns.
  /// A second base with different high bits checks a sample of residues:
  /// any disagreement (division, a right shift, a comparison brought high
  /// bits in) means no claim. At most 40 (72) walks per unknown.
  std::map<const Expr *, WarpVerdict> enumerateUniforms() {
    std::map<const Expr *, WarpVerdict> Out;
    std::map<SymbolId, std::set<const Expr *>> BySymbol;
    std::map<SymbolId, int64_t> PeriodOf;
    for (const SharedAccess &A : K.Trace.Accesses) {
      if (A.Kind == AccessKind::Atomic ||
          A.Address.Offset.kind() != LaneValue::Kind::NonAffine)
        continue;
      std::vector<SymbolId> Syms = A.Address.Offset.symbols();
      int64_t P = A.Width >= 4 ? 32 : A.Width == 2 ? 64 : 0;
      if (Syms.size() != 1 || !P)
        continue;
      BySymbol[Syms[0]].insert(A.E);
      PeriodOf[Syms[0]] = std::max(PeriodOf[Syms[0]], P);
    }
    constexpr unsigned MaxSymbols = 4, Samples = 8;
    constexpr int64_t SecondBase = SymbolBase + (int64_t(0xB5B5) << 7);
    unsigned Done = 0;
    for (const auto &KV : BySymbol) {
      if (Done++ == MaxSymbols)
        break;
      SymbolId S = KV.first;
      const std::set<const Expr *> &Exprs = KV.second;
      const SymbolInfo &SI = K.Trace.Symbols.info(S);
      int64_t P = PeriodOf[S];
      std::set<const Expr *> Failed;
      // The worst instance of each access in a walk with S = Value.
      auto Walk = [&](int64_t Value) {
        IterationPins Pins;
        Pins.Unknowns[SI.key()] = Value;
        KernelTrace T = retraceKernel(K.Ctx, K.Trace, K.Opts, nullptr,
                                      &Pins);
        std::map<const Expr *, WarpVerdict> W;
        WarpMemo Memo;
        for (const SharedAccess &A : T.Accesses) {
          if (!Exprs.count(A.E) || A.Kind == AccessKind::Atomic)
            continue;
          WarpVerdict V = worstWarp(A, T, &Memo);
          if (!V.Valid || V.Conditional) {
            Failed.insert(A.E);
            continue;
          }
          auto It = W.find(A.E);
          if (It == W.end() || V.Result.Wavefronts > It->second.Result.Wavefronts)
            W[A.E] = std::move(V);
        }
        for (const Expr *E : Exprs)
          if (!W.count(E))
            Failed.insert(E);
        return W;
      };
      std::vector<std::map<const Expr *, WarpVerdict>> ByResidue;
      for (int64_t R = 0; R < P; ++R)
        ByResidue.push_back(Walk(SymbolBase + R));
      for (unsigned I = 0; I < Samples; ++I) {
        int64_t R = (int64_t(I) * 13 + 5) % P;
        auto W = Walk(SecondBase + R);
        for (const Expr *E : Exprs)
          if (!Failed.count(E) &&
              W[E].Result.degree() != ByResidue[R][E].Result.degree())
            Failed.insert(E);
      }
      for (const Expr *E : Exprs) {
        if (Failed.count(E))
          continue;
        WarpVerdict V;
        std::set<unsigned> Degrees;
        for (int64_t R = 0; R < P; ++R) {
          WarpVerdict &RV = ByResidue[R][E];
          Degrees.insert(RV.Result.degree());
          V.ByAssignment.push_back({SymbolBinding{{S, R}}, RV.Result.degree()});
          if (!V.Valid || RV.Result.Wavefronts > V.Result.Wavefronts) {
            V.Valid = true;
            V.Partial = RV.Partial;
            V.Result = RV.Result;
            V.Addr = RV.Addr;
            V.Warp = RV.Warp;
          }
        }
        V.Periods[S] = P;
        V.Conditional = Degrees.size() > 1;
        Out[E] = std::move(V);
      }
    }
    return Out;
  }

  std::string baseName(const SharedAccess &A) {
    if (const auto *ND = dyn_cast<NamedDecl>(A.Address.Base))
      return ND->getNameAsString();
    return "shared memory";
  }

  /// "when ld ≡ 0 (mod 32)"-style condition for the worst degree.
  std::string condition(const WarpVerdict &V, unsigned Degree) {
    if (!V.Conditional || V.Periods.size() != 1)
      return V.Conditional ? " for some values of the unknowns involved" : "";
    SymbolId S = V.Periods.begin()->first;
    int64_t Period = V.Periods.begin()->second;
    if (Period < 0) {
      // Known loop values: list those that give the worst degree.
      std::ostringstream OS;
      OS << " when '" << K.Trace.Symbols.info(S).Name << "' is ";
      unsigned Shown = 0;
      for (auto &P : V.ByAssignment)
        if (P.second == Degree && Shown++ < 6)
          OS << (Shown > 1 ? ", " : "") << P.first.at(S);
      return OS.str();
    }
    std::vector<int64_t> Bad, Free;
    for (auto &P : V.ByAssignment) {
      if (P.second == Degree)
        Bad.push_back(P.first.at(S));
      if (P.second == 1)
        Free.push_back(P.first.at(S));
    }
    std::string Name = K.Trace.Symbols.info(S).Name;
    std::ostringstream OS;
    OS << " when '" << Name << "'";
    auto Residues = [&](const std::vector<int64_t> &Rs) {
      std::ostringstream R;
      if (Rs.size() == 1 && Rs[0] == 0) {
        R << " is a multiple of " << Period;
        return R.str();
      }
      // All odd residues.
      bool AllOdd = Rs.size() == size_t(Period / 2) && Period % 2 == 0;
      for (int64_t X : Rs)
        AllOdd = AllOdd && (X % 2 == 1);
      if (AllOdd)
        return std::string(" is odd");
      if (Rs.size() > 4) {
        // Too many residues to list: say how many, with an example.
        R << " \u2261 " << Rs[0] << " (mod " << Period << ") and "
          << Rs.size() - 1 << " other residues";
        return R.str();
      }
      R << " \u2261 ";
      for (unsigned I = 0; I < Rs.size(); ++I)
        R << (I ? ", " : "") << Rs[I];
      R << " (mod " << Period << ")";
      return R.str();
    };
    OS << Residues(Bad);
    if (!Free.empty())
      OS << "; conflict-free when '" << Name << "'" << Residues(Free);
    return OS.str();
  }

  /// Why the lanes collide, in words: the stride between successive lanes.
  std::string why(const WarpVerdict &V, unsigned Width) {
    if (!V.Periods.empty())
      return "";
    std::vector<std::pair<unsigned, int64_t>> Pts;
    for (unsigned L = 0; L < V.Addr.size(); ++L)
      if (V.Addr[L])
        Pts.push_back({L, *V.Addr[L]});
    if (Pts.size() < 2)
      return "";
    int64_t Stride = Pts[1].second - Pts[0].second;
    if (Pts[1].first != Pts[0].first + 1)
      return "";
    for (unsigned I = 1; I < Pts.size(); ++I)
      if (Pts[I].first != Pts[I - 1].first + 1 ||
          Pts[I].second - Pts[I - 1].second != Stride)
        return "";
    if (Stride % 4 != 0 || Stride == 0)
      return "";
    int64_t Words = Stride / 4;
    int64_t Mod = floorMod(Words, 32);
    int64_t Banks = 32 / std::gcd<int64_t>(32, Mod ? Mod : 32);
    std::ostringstream OS;
    OS << "successive lanes are " << Words << " words apart";
    if (Width <= 4) {
      if (Words >= 32 || Words < 0)
        OS << " and " << Words << " \u2261 " << Mod << " (mod 32)";
      if (Mod == 0)
        OS << ", so every lane maps to the same bank";
      else
        OS << ", so the lanes cycle through only " << Banks << " banks";
    }
    return OS.str();
  }

  ASTContext &Ctx() { return K.Ctx; }

  /// A degree per access (expression and kind), over its instances.
  using DegreeMap = std::map<std::pair<const Expr *, AccessKind>, unsigned>;

  /// Worst degree of every access to \p V in the kernel as written, over
  /// all instances (run() found them).
  DegreeMap degreesOf(const VarDecl *V) {
    DegreeMap D;
    for (const SharedAccess &A : K.Trace.Accesses)
      if (A.Address.Base == V && A.Kind != AccessKind::Atomic) {
        unsigned &Cur = D[{A.E, A.Kind}];
        Cur = std::max(Cur, Degrees[&A - K.Trace.Accesses.data()]);
      }
    return D;
  }

  /// Whether every access to \p V in the what-if \p T is no worse than in
  /// the kernel as written (\p Before, degreesOf()) and, if it had a
  /// conflict of at least MinDegree, is now below. An access fails when
  /// one of its instances does, so the search stops at the first: most
  /// candidate paddings fail.
  bool keepsDegrees(const KernelTrace &T, const VarDecl *V,
                    const DegreeMap &Before) {
    WarpMemo Memo;
    for (const SharedAccess &A : T.Accesses) {
      if (A.Address.Base != V || A.Kind == AccessKind::Atomic)
        continue;
      WarpVerdict W = worstWarp(A, T, &Memo);
      unsigned Degree = W.Valid ? W.Result.degree() : 1u;
      auto It = Before.find({A.E, A.Kind});
      unsigned Old = It == Before.end() ? 1 : It->second;
      if (Degree > Old ||
          (Old >= K.Opts.MinDegree && Degree >= K.Opts.MinDegree))
        return false;
    }
    return true;
  }

  /// The smallest padding of the array's rows that leaves every access to
  /// it (producers and consumers) no worse and every conflicted one below
  /// MinDegree, and leaves the global loads and stores that feed or drain
  /// it no less coalesced. One answer per array, so all its findings agree.
  std::optional<int64_t> findPadding(const VarDecl *V) {
    auto Cached = PaddingCache.find(V);
    if (Cached != PaddingCache.end())
      return Cached->second;
    std::optional<int64_t> Result;
    const bool TwoD = innerSizeExpr(K.Ctx, V) != nullptr;
    // A flattened array: the what-if changes its row stride.
    bool Padable = TwoD || flatStride(V).found();
    // An access whose banks come from bit operations (a swizzle) is only
    // known per residue of its unknown: the what-if cannot show that
    // padding leaves it no worse, so none is offered.
    for (const SharedAccess &A : K.Trace.Accesses)
      if (A.Address.Base == V &&
          A.Address.Offset.kind() == LaneValue::Kind::NonAffine)
        Padable = false;
    if (Padable) {
      PaddingTried.insert(V);
      auto Before = degreesOf(V);
      for (int64_t Pad : {1, 2, 4, 8}) {
        // The what-if the picture shows too (cached there).
        const KernelTrace &T =
            TwoD ? WhatIf.paddedTrace(V, Pad)
                 : WhatIf.flatPaddedTrace(V, flatStride(V), Pad);
        // A padding that leaves ldmatrix rows misaligned faults.
        bool Faults = llvm::any_of(T.Accesses, [&](const SharedAccess &A) {
          return A.Address.Base == V && misalignedRow(A);
        });
        if (!Faults && keepsDegrees(T, V, Before) &&
            globalSideNoWorse(K, T, V)) {
          Result = Pad;
          break;
        }
      }
    }
    PaddingCache[V] = Result;
    return Result;
  }
  std::map<const VarDecl *, std::optional<int64_t>> PaddingCache;

  /// The XOR swizzle of a 2-D array as a fix-it (SwizzleFix.h), judged by
  /// the padding's rule; one answer per array.
  const SwizzleFix &findSwizzle(const VarDecl *V) {
    auto It = SwizzleCache.find(V);
    if (It == SwizzleCache.end())
      It = SwizzleCache
               .emplace(V, swizzleFix(K, V, [&](const KernelTrace &T) {
                          return keepsDegrees(T, V, degreesOf(V));
                        }))
               .first;
    return It->second;
  }
  std::map<const VarDecl *, SwizzleFix> SwizzleCache;
  std::set<const VarDecl *> SwizzleFixed; ///< Its fix-it given already.
  /// Arrays for which the what-if ran (and so, without a result, no
  /// padding works).
  std::set<const VarDecl *> PaddingTried;

  /// The row stride of a flattened (1-D) array, from its traced accesses.
  const FlatStride &flatStride(const VarDecl *V) {
    auto It = StrideCache.find(V);
    if (It != StrideCache.end())
      return It->second;
    std::vector<const Expr *> Exprs;
    std::set<const Expr *> Seen;
    for (const SharedAccess &A : K.Trace.Accesses)
      if (A.Address.Base == V && A.Kind != AccessKind::Atomic &&
          Seen.insert(A.E).second)
        Exprs.push_back(A.E);
    return StrideCache[V] = findFlatStride(Ctx(), V, Exprs);
  }
  std::map<const VarDecl *, FlatStride> StrideCache;

  void report(const SharedAccess &A, const WarpVerdict &V, bool ReadWrite) {
    const BankResult &R = V.Result;
    unsigned Degree = R.degree();
    std::string Name = baseName(A);
    bool IsLoad = A.Kind == AccessKind::Load;
    std::ostringstream Msg;
    Msg << Degree << "-way bank conflict";
    if (V.Bypass) {
      Msg << bypassConflictText(*V.Bypass, Name);
    } else {
      if (!A.Matrix.empty())
        Msg << " in " << A.Matrix;
      if (V.Conditional)
        Msg << condition(V, Degree);
      Msg << ": lanes " << laneList(R.Worst.Lanes) << " "
          << (ReadWrite ? "read and write " : IsLoad ? "read " : "write ")
          << R.Worst.Words.size()
          << " distinct words of '" << Name << "' in bank " << R.Worst.Bank
          << " (" << R.Wavefronts << " wavefronts instead of "
          << R.IdealWavefronts << ")";
      Msg << mergedNote(A);
      std::string Why = why(V, A.Width);
      if (!Why.empty())
        Msg << "; " << Why;
    }

    Finding F;
    F.Check = CheckKind::BankConflict;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();

    const VarDecl *Var = dyn_cast<VarDecl>(A.Address.Base);
    std::optional<int64_t> Pad;
    std::optional<TmaTile> Tma = tmaTileOf(K, A.Address.Base);
    if (Var && !A.Address.DynamicShared && !V.Conditional && !Tma)
      Pad = findPadding(Var);
    if (Tma) {
      Msg << "; " << tmaBankAdvice(K, *Tma, Name, indexHasXor(A.E));
    } else if (Pad && !innerSizeExpr(K.Ctx, Var)) {
      adviseFlatPadding(K, flatStride(Var), F, Msg, Var, *Pad);
    } else if (Pad) {
      const Expr *Size = innerSizeExpr(K.Ctx, Var);
      const auto *VT = Ctx().getAsConstantArrayType(Var->getType());
      const auto *Row = Ctx().getAsConstantArrayType(VT->getElementType());
      int64_t Rows = VT->getSize().getZExtValue();
      int64_t Cols = Row->getSize().getZExtValue();
      int64_t Elem = Ctx().getTypeSizeInChars(Row->getElementType()).getQuantity();
      std::string SizeText =
          Lexer::getSourceText(CharSourceRange::getTokenRange(Size->getSourceRange()),
                               Ctx().getSourceManager(), Ctx().getLangOpts())
              .str();
      bool Literal = isa<IntegerLiteral>(Size->IgnoreParenImpCasts());
      std::string Repl = Literal ? std::to_string(Cols + *Pad)
                                 : SizeText + " + " + std::to_string(*Pad);
      PaddingCost PC = paddingCost(K, uint64_t(Rows * *Pad * Elem));
      const SwizzleFix *Sw = nullptr;
      if (PC.pastStaticLimit() || PC.lowersOccupancy())
        Sw = &findSwizzle(Var);
      if (PC.pastStaticLimit()) {
        Msg << "; " << PC.pastStaticLimitAdvice(Name, Cols + *Pad, Sw->Ok)
            << Sw->advise(F, Var->getLocation(),
                          SwizzleFixed.insert(Var).second);
      } else {
        Msg << "; pad the row of '" << Name << "' to " << Cols + *Pad
            << " elements";
        if (PC.lowersOccupancy())
          Msg << PC.preferSwizzle(Name, Sw->Ok);
        SourceRange SR = Size->getSourceRange();
        if (Sw)
          Msg << Sw->advise(F, Var->getLocation(),
                            SwizzleFixed.insert(Var).second);
        if (F.Fixes.empty() && SR.getBegin().isFileID() &&
            SR.getEnd().isFileID())
          F.Fixes.push_back(FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(SR), Repl));
        F.Notes.push_back(
            {Var->getLocation(),
             "padding '" + Name + "' to [" + std::to_string(Rows) + "][" +
                 std::to_string(Cols + *Pad) + "] makes every access to it "
                 "conflict-free or no worse; it costs " +
                 std::to_string(Rows * *Pad * Elem) + " more bytes of shared "
                 "memory (" + std::to_string(Rows * Cols * Elem) + " -> " +
                 std::to_string(Rows * (Cols + *Pad) * Elem) + "); " +
                 PC.occupancy()});
      }
    } else if (Var && !V.Conditional && innerSizeExpr(K.Ctx, Var)) {
      const SwizzleFix &Sw = findSwizzle(Var);
      if (Sw.Ok)
        Msg << "; no padding of '" << Name << "' makes every access to it "
               "conflict-free or no worse";
      else
        Msg << "; use an XOR swizzle (e.g. column ^ row) applied "
               "identically where '" << Name << "' is written and read";
      Msg << Sw.advise(F, Var->getLocation(),
                       SwizzleFixed.insert(Var).second);
    } else if (Var && !V.Conditional && PaddingTried.count(Var)) {
      Msg << "; no row stride for '" << Name << "' makes every access to it "
             "conflict-free or no worse: use an XOR swizzle applied at both "
             "the store and the load";
    }
    // The whole path: the global accesses this tile access exchanges data
    // with. A coalesced one must stay so (a note says why the fix belongs in
    // the layout); an uncoalesced one means transposing through the tile is
    // the real fix.
    unsigned Index = indexOf(A);
    for (FindingNote &N : globalSideNotes(K, Index))
      F.Notes.push_back(std::move(N));
    std::set<const Expr *> SeenGlobal;
    for (unsigned GI : A.Global) {
      const GlobalAccess &G = K.Trace.GlobalAccesses[GI];
      // The verdict searches every warp and value of the unknowns: only
      // for a pair the advice can apply to.
      if (!SeenGlobal.insert(G.E).second || !transposeApplies(K, GI, Index))
        continue;
      const TransferVerdict &TV = analyzeTransfer(K, GI);
      if (!TV.Valid || !TV.Uncoalesced)
        continue;
      std::string Advice = transposeAdvice(K, GI, Index, TV);
      if (Advice.empty())
        continue;
      std::string GName = "global memory";
      if (const auto *ND = dyn_cast_or_null<NamedDecl>(G.Base))
        GName = ND->getNameAsString();
      Msg << "; the " << (G.Kind == AccessKind::Load ? "load from" : "store to")
          << " '" << GName << "' is uncoalesced too: transpose through '"
          << Name << "' instead";
      F.Notes.push_back({G.Loc, "'" + GName + "' is " +
                                    (G.Kind == AccessKind::Load ? "read"
                                                                : "written") +
                                    " uncoalesced here" + TV.Condition + "; " +
                                    Advice});
      break;
    }
    F.Message = Msg.str();

    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    // The lane->bank picture shows banks, which do not price this copy.
    if (K.Opts.Pictures && !V.Bypass) {
      // A flattened array's what-ifs need its row stride.
      const FlatStride *Flat =
          Var && !A.Address.DynamicShared && !innerSizeExpr(K.Ctx, Var)
              ? &flatStride(Var)
              : nullptr;
      F.Picture = WhatIf.picture(A, V.Warp, V.Addr, V.Bind, Pad, Flat);
      F.Detail = renderBankPictureText(*F.Picture);
    }
    F.Weight = R.Wavefronts * 64 / std::max(1u, R.IdealWavefronts);
    Sink.report(F);
  }
};

} // namespace

void checkBankConflicts(const KernelContext &K, FindingSink &Sink) {
  BankConflictChecker(K, Sink).run();
}

} // namespace shmem
