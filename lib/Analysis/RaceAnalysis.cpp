//===- RaceAnalysis.cpp - Shared-memory races with a witness --------------===//
//
// See RaceAnalysis.h. The work is organised by site pairs (two program
// points of the trace, see BarrierIntervals): their interval relations are
// computed once, then their instances (unrolled iterations) and the
// iterations of loops walked symbolically are enumerated as the relations
// allow, each combination evaluated per thread and scanned for a pair of
// threads whose byte ranges overlap.
//
//===----------------------------------------------------------------------===//

#include "RaceAnalysis.h"

#include "BarrierIntervals.h"
#include "Uniformity.h"

#include "clang/AST/ParentMap.h"

#include <algorithm>
#include <climits>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>

using namespace clang;

namespace shmem {

RaceHandler::~RaceHandler() = default;

namespace {

/// Unknowns other than loop iterations (kernel parameters, blockIdx, values
/// loaded from uniform addresses) take the same value on both sides of a
/// pair: a large one, a different one per unknown, so that no two threads
/// collide by the accident of an unknown being 0. A race that needs a
/// particular value of a parameter is not claimed.
constexpr int64_t GenericStep = int64_t(1) << 24;
/// A variable a loop changes in ways the walker could not follow has an
/// unrelated value in another iteration: keep iterations far apart.
constexpr int64_t IterationSpread = int64_t(1) << 36;
/// Iterations tried for a loop walked symbolically: the first
/// MaxKnownIterations when the trip count is known (a loop too long to
/// unroll), else the first WindowIterations + 1 (enough for `k & 1`, `k % 4`
/// and a next iteration).
constexpr unsigned MaxKnownIterations = 8;
constexpr unsigned WindowIterations = 4;
/// Bounds on the work for one kernel shape.
constexpr unsigned MaxScansPerPair = 4096;
constexpr uint64_t MaxProbesPerKernel = uint64_t(64) << 20;
constexpr unsigned MaxPinnedWalks = 48;
constexpr int64_t MaxFlatSpan = int64_t(1) << 20;
constexpr unsigned MaxCachedTables = 4096;

/// Iterations of loops walked symbolically, by loop statement.
using Assignment = std::vector<std::pair<const Stmt *, int64_t>>;

/// An instance evaluated for every thread of the block.
struct Eval {
  enum Status { Ok, Missing, Unknown } S = Ok;
  std::string Reason;
  std::vector<int64_t> Off;
  std::vector<char> Active;
  bool ActiveApprox = false;
  std::vector<int64_t> Stored;
  std::vector<char> StoredKnown;
  int64_t Min = INT64_MAX, Max = INT64_MIN;
  unsigned Count = 0;
  unsigned Width = 4;
  /// The largest power of two (up to 16) dividing every active offset.
  int64_t Align = 16;
  /// For an Unknown address known modulo Mod (LaneValue::residueModulus()):
  /// each thread's offset modulo Mod.
  int64_t Mod = 0;
  std::vector<int64_t> Res;
};

/// The threads of one evaluated access by granule of bytes (hashed byte
/// ranges): for each granule the first thread touching it, the first from
/// another warp and a second one from the first one's warp, which is all a
/// probe needs to find a partner other than itself, in or out of its warp.
struct GranuleTable {
  struct Slot {
    int32_t T1 = -1, T2 = -1, T3 = -1;
  };
  int64_t Gr = 1, Lo = 0, Hi = -1;
  bool Flat = true;
  std::vector<Slot> FlatSlots;
  std::unordered_map<int64_t, Slot> HashSlots;

  static int64_t floorDiv(int64_t X, int64_t D) {
    return X >= 0 ? X / D : -((-X + D - 1) / D);
  }
  const Slot *at(int64_t J) const {
    if (Flat)
      return J < Lo || J > Hi ? nullptr : &FlatSlots[J - Lo];
    auto It = HashSlots.find(J);
    return It == HashSlots.end() ? nullptr : &It->second;
  }
};

using InstanceKey = std::tuple<const Expr *, int, std::vector<const CallExpr *>,
                               std::vector<int>>;

InstanceKey keyOf(const SharedAccess &A) {
  return {A.E, int(A.Kind), A.CallStack, A.LoopIterations};
}

/// A re-walk of the kernel with some symbolic loops pinned.
struct PinnedTrace {
  KernelTrace T;
  std::map<InstanceKey, unsigned> Index;
};

/// What is fixed about a site for the whole analysis.
struct SiteFacts {
  const ValueDecl *Base = nullptr;
  bool Dynamic = false;
  AccessKind Kind = AccessKind::Load;
  /// Loops walked symbolically whose iteration the address (or stored
  /// value) depends on.
  std::vector<const Stmt *> DepLoops;
  /// Evaluating an iteration needs a pinned re-walk (the dependence is not
  /// an affine term of the iteration unknown).
  bool NeedsWalk = false;
  /// For stores of a constant (`flag = 1.0f`): the constant, spelled.
  std::optional<std::string> ConstantStored;
};

/// What the uniformity analysis says of a site, asked on first need.
struct SiteValues {
  bool Known = false;
  /// For `x = v`: which threads storing in one instance agree on v: the
  /// lane offsets and whether lane l holds one value in every warp
  /// (UniformityValue::laneXor(), warpInvariant()).
  uint32_t StoredLaneXor = 1;
  bool StoredWarpInvariant = false;
  /// How widely they agree on the address.
  UniformityLevel Address = UniformityLevel::Varying;
};

/// The iterations of one side of a combination, by global loop index
/// (BarrierIntervals::loop), -1 where not fixed.
using SideIters = std::map<unsigned, int64_t>;

struct Witness {
  bool Found = false;
  unsigned TA = 0, TB = 0;
  unsigned IA = 0, IB = 0;
  Assignment AsgA, AsgB;
  int64_t OffA = 0, OffB = 0;
  const Concurrency *Alt = nullptr;
};

class RaceFinder {
public:
  RaceFinder(ASTContext &Ctx, const KernelTrace &T, const AnalysisOptions &Opts,
             RaceHandler &H, RaceSearch &Search, ProgramCFGs *Graphs)
      : Ctx(Ctx), T(T), Opts(Opts), H(H), Search(Search), BI(Ctx, T, Graphs),
        G(T.Geometry), N(G.threads()), WS(G.warpSize()) {}

  void run();

private:
  ASTContext &Ctx;
  const KernelTrace &T;
  const AnalysisOptions &Opts;
  RaceHandler &H;
  RaceSearch &Search;
  BarrierIntervals BI;
  const ThreadGeometry &G;
  unsigned N, WS;

  std::vector<SiteFacts> Facts;
  std::vector<SiteValues> Values;
  /// The one authority on which threads agree on a value (Uniformity.h),
  /// built when a pair first needs it.
  std::unique_ptr<UniformityAnalysis> UA;
  std::map<const Stmt *, SymbolId> IterSymbol;
  std::map<SymbolKey, int64_t> Generic;
  std::map<Assignment, std::unique_ptr<PinnedTrace>> Pinned;
  std::map<std::pair<unsigned, Assignment>, Eval> Evals;
  std::map<std::tuple<std::vector<bool>, unsigned, unsigned>,
           std::vector<Concurrency>>
      WarpAlts;
  std::map<const FunctionDecl *, std::unique_ptr<ParentMap>> Parents;
  uint64_t Probes = 0;

  struct Pending {
    RaceReport R;
    unsigned Rank; // 0: race, 1: benign, 2: possible.
  };

  /// Per site: its instances evaluated with no symbolic iteration pinned.
  std::vector<unsigned> PlainEvals;
  /// Per site: the statement its accesses are part of (findings are
  /// grouped by statement).
  std::vector<const Stmt *> SiteStatement;

  // The grouping of reports into findings (see run()) ----------------------

  /// Statements already part of a finding, groups already reported.
  std::set<const Stmt *> Named;
  std::set<const void *> Groups;
  /// Per group: some report in it has threads of two warps.
  std::map<const void *, bool> GroupCrossWarp;
  struct Finding {
    RaceReport R;
    const void *Group;
  };
  std::vector<Finding> Findings;

  const void *groupOf(const RaceReport &R) const {
    if (R.CarriedBy)
      return R.CarriedBy;
    return T.Accesses[R.Earlier.Access].E;
  }
  bool counts(const RaceReport &R) const {
    return R.K != RaceReport::Benign || Opts.ReportBenign;
  }
  /// One report, in the order findings are chosen: a new finding unless it
  /// joins one already made.
  void consider(const RaceReport &R) {
    if (!counts(R))
      return;
    const Stmt *Later = SiteStatement[BI.siteOf(R.Later.Access)];
    const Stmt *Earlier = SiteStatement[BI.siteOf(R.Earlier.Access)];
    const void *Group = groupOf(R);
    bool Linked = Named.count(Later) || Named.count(Earlier);
    if (Named.count(Later) || (Named.count(Earlier) && !R.CarriedBy) ||
        Groups.count(Group)) {
      // Part of a finding already made: its statements join it, so the
      // next link of a chain is not reported either.
      if (Linked || Groups.count(Group)) {
        Named.insert(Later);
        Named.insert(Earlier);
      }
      return;
    }
    Groups.insert(Group);
    Named.insert(Later);
    Named.insert(Earlier);
    Findings.push_back({R, Group});
  }

  // Facts -----------------------------------------------------------------

  int64_t generic(const SymbolInfo &I) {
    auto [It, New] = Generic.try_emplace(I.key(), 0);
    if (New)
      It->second = GenericStep * int64_t(Generic.size());
    return It->second;
  }

  const ParentMap &parents(const FunctionDecl *F) {
    auto &PM = Parents[F];
    if (!PM)
      PM = std::make_unique<ParentMap>(F->getBody());
    return *PM;
  }

  /// `x = <constant>`: the constant, so stores of one float literal by
  /// every thread are recognised as storing the same value.
  std::optional<std::string> constantStored(const SharedAccess &A) {
    const FunctionDecl *F = T.Kernel;
    if (!A.CallStack.empty()) {
      const FunctionDecl *Def = nullptr;
      if (const FunctionDecl *FD = A.CallStack.back()->getDirectCallee())
        FD->hasBody(Def);
      F = Def;
    }
    if (!F || !F->getBody())
      return std::nullopt;
    const Stmt *P = parents(F).getParentIgnoreParens(A.E);
    const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
    if (!BO || BO->getOpcode() != BO_Assign ||
        BO->getLHS()->IgnoreParens() != A.E)
      return std::nullopt;
    const Expr *RHS = BO->getRHS();
    if (RHS->isValueDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (!RHS->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
      return std::nullopt;
    return R.Val.getAsString(Ctx, RHS->getType());
  }

  /// The uniformity of site \p S's stored value and address, in the
  /// calling context the walker reached it in.
  const SiteValues &values(unsigned S) {
    SiteValues &V = Values[S];
    if (V.Known)
      return V;
    V.Known = true;
    if (!UA)
      UA = std::make_unique<UniformityAnalysis>(Ctx, &T.Geometry,
                                                Opts.InlineDepth);
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

  /// Every loop around both accesses of \p C is in the same iteration for
  /// the two threads: they run the same instance of what is in both.
  static bool sameIteration(const Concurrency &C) {
    for (const LoopRelation &R : C.Loops)
      if (R.InA && R.InB && (R.A != R.B || R.A == IterState::Any))
        return false;
    return true;
  }

  /// Threads \p TA and \p TB agree on the value site \p S stores: lanes of
  /// one warp the value is symmetric under, or of two warps when it is
  /// warp-invariant too (a block-uniform value: any two threads).
  bool agree(unsigned S, unsigned TA, unsigned TB) {
    const SiteValues &V = values(S);
    unsigned D = (TA % WS) ^ (TB % WS);
    return D < 32 && ((V.StoredLaneXor >> D) & 1) &&
           (TA / WS == TB / WS || V.StoredWarpInvariant);
  }

  /// The statement an access is part of (`s[i] += s[i + 1];`), for
  /// grouping findings.
  const Stmt *statementOf(const SharedAccess &A) {
    const FunctionDecl *F = T.Kernel;
    if (!A.CallStack.empty()) {
      const FunctionDecl *Def = nullptr;
      if (const FunctionDecl *FD = A.CallStack.back()->getDirectCallee())
        FD->hasBody(Def);
      F = Def;
    }
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

  static bool symbolicAt(const SharedAccess &A, const Stmt *L) {
    for (unsigned P = 0; P < A.Loops.size(); ++P)
      if (A.Loops[P] == L)
        return A.LoopIterations[P] < 0;
    return false;
  }

  void computeFacts() {
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

  // Evaluation --------------------------------------------------------------

  PinnedTrace *pinned(const Assignment &Asg) {
    auto It = Pinned.find(Asg);
    if (It != Pinned.end())
      return It->second.get();
    if (Pinned.size() >= MaxPinnedWalks)
      return nullptr;
    IterationPins Pins;
    for (const auto &KV : Asg)
      Pins.Loops[KV.first] = KV.second;
    auto P = std::make_unique<PinnedTrace>();
    P->T = traceKernel(Ctx, T.Kernel, T.Geometry, Opts, nullptr, &Pins);
    for (unsigned I = 0; I < P->T.Accesses.size(); ++I)
      P->Index.try_emplace(keyOf(P->T.Accesses[I]), I);
    return (Pinned[Asg] = std::move(P)).get();
  }

  static bool isDataDependent(llvm::StringRef Reason) {
    return Reason.starts_with("value loaded from") ||
           Reason.starts_with("result of an atomic");
  }

  static std::string describeUnknown(const LaneValue &V,
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

  const Eval &eval(unsigned Instance, const Assignment &Asg) {
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
      PinnedTrace *P = pinned(Asg);
      if (!P) {
        E.S = Eval::Unknown;
        E.Reason = "too many iterations to re-evaluate";
        return E;
      }
      auto PI = P->Index.find(keyOf(*A));
      if (PI == P->Index.end()) {
        E.S = Eval::Missing; // No thread runs it in that iteration.
        return E;
      }
      A = &P->T.Accesses[PI->second];
      ST = &P->T.Symbols;
    }
    E.Width = A->Width;
    E.Active = A->Active;
    E.ActiveApprox = A->ActiveApprox;
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

  // Combinations ------------------------------------------------------------

  int globalLoop(unsigned Site, const Stmt *L) const {
    const SharedAccess &A = T.Accesses[BI.instances(Site)[0]];
    for (unsigned P = 0; P < A.Loops.size(); ++P)
      if (A.Loops[P] == L)
        return BI.siteLoops(Site)[P];
    return -1;
  }

  SideIters unrolledIters(unsigned Site, unsigned Instance) const {
    SideIters S;
    const SharedAccess &A = T.Accesses[Instance];
    for (unsigned P = 0; P < A.LoopIterations.size(); ++P)
      if (A.LoopIterations[P] >= 0 && BI.siteLoops(Site)[P] >= 0)
        S[BI.siteLoops(Site)[P]] = A.LoopIterations[P];
    return S;
  }

  SideIters withSymbolic(SideIters S, unsigned Site, const Assignment &Asg) {
    for (const auto &KV : Asg) {
      int L = globalLoop(Site, KV.first);
      if (L >= 0)
        S[L] = KV.second;
    }
    return S;
  }

  static bool admits(const Concurrency &C, const SideIters &A,
                     const SideIters &B) {
    for (const LoopRelation &R : C.Loops) {
      auto IA = A.find(R.Loop), IB = B.find(R.Loop);
      int64_t KA = IA == A.end() ? -1 : IA->second;
      int64_t KB = IB == B.end() ? -1 : IB->second;
      if ((KA >= 0 || KB >= 0) && !R.admits(KA, KB))
        return false;
    }
    return true;
  }

  std::vector<int64_t> iterationsOf(const Stmt *L) const {
    std::vector<int64_t> V;
    auto It = IterSymbol.find(L);
    unsigned Count = WindowIterations + 1;
    if (It != IterSymbol.end() && T.Symbols.info(It->second).Values)
      Count = std::min<size_t>(T.Symbols.info(It->second).Values->size(),
                               MaxKnownIterations);
    for (unsigned K = 0; K < Count; ++K)
      V.push_back(K);
    return V;
  }

  /// The symbolic iterations to try for sites \p SA and \p SB under \p C.
  std::vector<std::pair<Assignment, Assignment>>
  symbolicCombos(const Concurrency &C, unsigned SA, unsigned SB) {
    std::vector<const Stmt *> Loops = Facts[SA].DepLoops;
    for (const Stmt *L : Facts[SB].DepLoops)
      if (!llvm::is_contained(Loops, L))
        Loops.push_back(L);
    std::vector<std::pair<Assignment, Assignment>> Out{{}};
    for (const Stmt *L : Loops) {
      bool NeedA = llvm::is_contained(Facts[SA].DepLoops, L);
      bool NeedB = llvm::is_contained(Facts[SB].DepLoops, L);
      int GA = globalLoop(SA, L), GB = globalLoop(SB, L);
      const LoopRelation *R = nullptr;
      for (const LoopRelation &X : C.Loops)
        if (int(X.Loop) == GA || int(X.Loop) == GB)
          R = &X;
      std::vector<int64_t> Vals = iterationsOf(L);
      std::vector<std::pair<int64_t, int64_t>> Pairs;
      for (int64_t KA : NeedA ? Vals : std::vector<int64_t>{-1})
        for (int64_t KB : NeedB ? Vals : std::vector<int64_t>{-1})
          if (!R || R->admits(KA, KB))
            Pairs.push_back({KA, KB});
      std::vector<std::pair<Assignment, Assignment>> Next;
      for (const auto &Base : Out)
        for (const auto &P : Pairs) {
          auto X = Base;
          if (P.first >= 0)
            X.first.push_back({L, P.first});
          if (P.second >= 0)
            X.second.push_back({L, P.second});
          Next.push_back(std::move(X));
          if (Next.size() > 256)
            break;
        }
      Out = std::move(Next);
    }
    for (auto &P : Out) {
      std::sort(P.first.begin(), P.first.end());
      std::sort(P.second.begin(), P.second.end());
    }
    return Out;
  }

  // Warps --------------------------------------------------------------------

  /// Whether __syncwarp() site \p W orders threads \p TA and \p TB.
  bool covers(unsigned W, unsigned TA, unsigned TB) const {
    for (unsigned I : BI.barrierInstances(W)) {
      const BarrierEvent &B = T.Barriers[I];
      if (B.Kind != BarrierKind::Warp)
        return false;
      bool InA = B.Active[TA] || B.ActiveApprox;
      bool InB = B.Active[TB] || B.ActiveApprox;
      if (B.WarpMask) {
        // A constant mask names the lanes; both must also run it.
        if (((*B.WarpMask >> (TA % WS)) & 1) && ((*B.WarpMask >> (TB % WS)) & 1) &&
            InA && InB)
          return true;
      } else if (InA && InB) {
        // A computed mask (__activemask(), a ballot): the threads that run
        // the call.
        return true;
      }
    }
    return false;
  }

  /// Threads \p TA, \p TB of one warp: ordered by a __syncwarp() between
  /// them in this combination of iterations?
  bool orderedInWarp(unsigned SA, unsigned SB, const SideIters &IA,
                     const SideIters &IB, unsigned TA, unsigned TB) {
    std::vector<bool> Counting(BI.numBarrierSites(), false);
    bool Any = false;
    for (unsigned W = 0; W < BI.numBarrierSites(); ++W)
      if (covers(W, TA, TB))
        Counting[W] = Any = true;
    if (!Any)
      return false;
    auto Key = std::make_tuple(Counting, SA, SB);
    auto It = WarpAlts.find(Key);
    if (It == WarpAlts.end())
      It = WarpAlts.emplace(Key, BI.concurrency(SA, SB, Counting)).first;
    for (const Concurrency &C : It->second)
      if (admits(C, IA, IB))
        return false;
    return true;
  }

  // Scanning -----------------------------------------------------------------

  std::map<std::pair<const Eval *, int64_t>, std::unique_ptr<GranuleTable>>
      Tables;

  /// The granule table of \p E, cached (each access meets many others).
  const GranuleTable &table(const Eval &E, int64_t Gr,
                            std::unique_ptr<GranuleTable> &Scratch) {
    auto Key = std::make_pair(&E, Gr);
    auto It = Tables.find(Key);
    if (It != Tables.end())
      return *It->second;
    auto Tab = std::make_unique<GranuleTable>();
    Tab->Gr = Gr;
    Tab->Lo = GranuleTable::floorDiv(E.Min, Gr);
    Tab->Hi = GranuleTable::floorDiv(E.Max + E.Width - 1, Gr);
    Tab->Flat = Tab->Hi - Tab->Lo < MaxFlatSpan;
    if (Tab->Flat)
      Tab->FlatSlots.resize(Tab->Hi - Tab->Lo + 1);
    for (unsigned Th = 0; Th < N; ++Th) {
      if (!E.Active[Th])
        continue;
      int64_t B = GranuleTable::floorDiv(E.Off[Th], Gr);
      int64_t End = GranuleTable::floorDiv(E.Off[Th] + E.Width - 1, Gr);
      for (int64_t J = B; J <= End; ++J) {
        GranuleTable::Slot &S =
            Tab->Flat ? Tab->FlatSlots[J - Tab->Lo] : Tab->HashSlots[J];
        ++Probes;
        int32_t X = int32_t(Th);
        if (S.T1 < 0)
          S.T1 = X;
        else if (S.T2 < 0 && unsigned(S.T1) / WS != Th / WS)
          S.T2 = X;
        else if (S.T3 < 0 && unsigned(S.T1) / WS == Th / WS)
          S.T3 = X;
      }
    }
    if (Tables.size() >= MaxCachedTables) {
      Scratch = std::move(Tab);
      return *Scratch;
    }
    return *(Tables[Key] = std::move(Tab));
  }

  struct PairScan {
    Witness Race, CrossRace, Benign;
    unsigned Scans = 0;
    bool Possible = false;
    std::string PossibleReason;
    unsigned PossibleA = 0, PossibleB = 0;
  };

  /// Threads \p TA (at site SA, instance IA) and \p TB (SB, IB) store the
  /// same value: the walker's values say so, or one constant, or they run
  /// one instance of one store whose value the uniformity analysis finds
  /// the same in both (block-uniform, or warp-uniform and one warp).
  bool sameStoredValue(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
                       const Assignment &AsgA, const Assignment &AsgB,
                       const Concurrency &C, const Eval &EA, const Eval &EB,
                       unsigned TA, unsigned TB) {
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

  /// Thread \p Reader loads bytes it stored itself earlier in the same
  /// instance (site \p SS, instance \p IS, evaluated \p ES), a value every
  /// thread that stores there in that instance agrees on with \p Writer:
  /// whichever store it sees, it reads that value (every thread storing one
  /// pointer and reading it back).
  bool readsOwnSameValue(unsigned SS, unsigned IS, const Eval &ES,
                         unsigned IL, const Eval &EL, const Concurrency &C,
                         unsigned Writer, unsigned Reader) {
    if (Facts[SS].Kind != AccessKind::Store || ES.ActiveApprox ||
        !ES.Active[Reader] || T.Accesses[IS].Seq >= T.Accesses[IL].Seq ||
        ES.Off[Reader] > EL.Off[Reader] ||
        EL.Off[Reader] + EL.Width > ES.Off[Reader] + ES.Width ||
        !sameIteration(C))
      return false;
    return agree(SS, Writer, Reader);
  }

  void scan(unsigned SA, unsigned SB, unsigned IA, unsigned IB,
            const Assignment &AsgA, const Assignment &AsgB,
            const Concurrency &C, const Eval &EA, const Eval &EB,
            PairScan &Out) {
    // Quick rejection: the byte ranges of the two accesses don't meet.
    if (EA.Max + EA.Width <= EB.Min || EB.Max + EB.Width <= EA.Min)
      return;
    ++Out.Scans;
    SideIters ItA = withSymbolic(unrolledIters(SA, IA), SA, AsgA);
    SideIters ItB = withSymbolic(unrolledIters(SB, IB), SB, AsgB);

    // Granule: the narrower width when every range is aligned to it.
    int64_t Gr = std::min(EA.Width, EB.Width);
    if (EA.Width % Gr || EB.Width % Gr || EA.Align % Gr || EB.Align % Gr)
      Gr = 1;
    std::unique_ptr<GranuleTable> Scratch;
    const GranuleTable &Tab = table(EA, Gr, Scratch);
    auto Record = [&](Witness &W, unsigned TA, unsigned TB) {
      if (W.Found)
        return;
      W.Found = true;
      W.TA = TA;
      W.TB = TB;
      W.IA = IA;
      W.IB = IB;
      W.AsgA = AsgA;
      W.AsgB = AsgB;
      W.OffA = EA.Off[TA];
      W.OffB = EB.Off[TB];
      W.Alt = &C;
    };
    for (unsigned U = 0; U < N && !Out.CrossRace.Found; ++U) {
      if (!EB.Active[U])
        continue;
      int64_t B = GranuleTable::floorDiv(EB.Off[U], Gr);
      int64_t E = GranuleTable::floorDiv(EB.Off[U] + EB.Width - 1, Gr);
      for (int64_t J = B; J <= E; ++J) {
        ++Probes;
        const GranuleTable::Slot *S = Tab.at(J);
        if (!S)
          continue;
        for (int32_t Cand : {S->T1, S->T2, S->T3}) {
          if (Cand < 0 || unsigned(Cand) == U)
            continue;
          unsigned TA = unsigned(Cand);
          bool SameWarp = TA / WS == U / WS;
          if (SameWarp && orderedInWarp(SA, SB, ItA, ItB, TA, U))
            continue;
          if (sameStoredValue(SA, SB, IA, IB, AsgA, AsgB, C, EA, EB, TA, U) ||
              (Facts[SB].Kind == AccessKind::Load &&
               readsOwnSameValue(SA, IA, EA, IB, EB, C, TA, U)) ||
              (Facts[SA].Kind == AccessKind::Load &&
               readsOwnSameValue(SB, IB, EB, IA, EA, C, U, TA))) {
            Record(Out.Benign, TA, U);
            continue;
          }
          Record(Out.Race, TA, U);
          if (!SameWarp)
            Record(Out.CrossRace, TA, U);
        }
      }
    }
  }

  /// Two data-dependent addresses known modulo M1 and M2 (`s[data * 64 +
  /// tid]`): whatever the data, the offsets of threads t and u differ by
  /// res(u) - res(t) modulo gcd(M1, M2), so their byte ranges can only meet
  /// when that residue is within the widths. True when no two different
  /// threads can meet: each thread stays in a column of its own.
  bool residuesSeparate(const Eval &EA, const Eval &EB) const {
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

  // Pairs --------------------------------------------------------------------

  bool mayAlias(unsigned SA, unsigned SB) const {
    const SiteFacts &A = Facts[SA], &B = Facts[SB];
    if (A.Kind != AccessKind::Store && B.Kind != AccessKind::Store)
      return false; // Reads and atomics only.
    if (!BI.placed(SA) || !BI.placed(SB))
      return false;
    if (A.Dynamic || B.Dynamic)
      return A.Dynamic && B.Dynamic; // extern __shared__ arrays share one buffer.
    return A.Base == B.Base;
  }

  std::optional<Pending> analysePair(unsigned SA, unsigned SB) {
    std::vector<Concurrency> Alts = BI.concurrency(SA, SB);
    if (Alts.empty())
      return std::nullopt;
    PairScan PS;
    std::set<std::tuple<unsigned, unsigned, Assignment, Assignment, bool>> Done;
    std::vector<SideIters> UB;
    for (unsigned IB : BI.instances(SB))
      UB.push_back(unrolledIters(SB, IB));
    for (const Concurrency &C : Alts) {
      auto Combos = symbolicCombos(C, SA, SB);
      for (unsigned IA : BI.instances(SA)) {
        SideIters UA = unrolledIters(SA, IA);
        for (unsigned JB = 0; JB < UB.size(); ++JB) {
          unsigned IB = BI.instances(SB)[JB];
          if (PS.CrossRace.Found || PS.Scans > MaxScansPerPair ||
              Probes > MaxProbesPerKernel)
            break;
          if (!admits(C, UA, UB[JB]))
            continue;
          for (const auto &[AsgA, AsgB] : Combos) {
            // Whether stores are of the same value depends on whether the
            // threads are in the same iteration (sameStoredValue).
            if (!Done.insert({IA, IB, AsgA, AsgB, sameIteration(C)}).second)
              continue;
            const Eval &EA = eval(IA, AsgA);
            const Eval &EB = eval(IB, AsgB);
            if (EA.S == Eval::Missing || EB.S == Eval::Missing)
              continue;
            if (EA.S == Eval::Unknown || EB.S == Eval::Unknown) {
              // Only an address computed from loaded data is reported as a
              // possible race (`hist[in[t]] += 1`). Addresses the analysis
              // merely cannot model (non-linear in an unknown, results of
              // calls it does not follow) give no claim: correct kernels
              // must stay quiet.
              const Eval &U = EA.S == Eval::Unknown ? EA : EB;
              if (!isDataDependent(U.Reason))
                continue;
              // `s[data * 64 + tid]`: the data moves each thread along a
              // column of its own; no claim.
              if (EA.S == Eval::Unknown && EB.S == Eval::Unknown &&
                  residuesSeparate(EA, EB))
                continue;
              if (!PS.Possible) {
                PS.Possible = true;
                PS.PossibleReason = EA.S == Eval::Unknown ? EA.Reason : EB.Reason;
                PS.PossibleA = IA;
                PS.PossibleB = IB;
              }
              continue;
            }
            scan(SA, SB, IA, IB, AsgA, AsgB, C, EA, EB, PS);
          }
        }
      }
    }
    if (PS.Race.Found) {
      const Witness &W = PS.CrossRace.Found ? PS.CrossRace : PS.Race;
      RaceReport R = makeReport(SA, SB, W);
      R.K = RaceReport::Race;
      R.CrossWarp = PS.CrossRace.Found;
      return Pending{std::move(R), 0};
    }
    if (PS.Benign.Found) {
      RaceReport R = makeReport(SA, SB, PS.Benign);
      R.K = RaceReport::Benign;
      R.CrossWarp = PS.Benign.TA / WS != PS.Benign.TB / WS;
      return Pending{std::move(R), 1};
    }
    if (PS.Possible)
      return reportPossible(SA, SB, PS);
    return std::nullopt;
  }

  std::optional<Pending> reportPossible(unsigned SA, unsigned SB,
                                        const PairScan &PS) {
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

  /// Store site \p S at a data-dependent index that the uniformity analysis
  /// finds the same in every thread of the block (or of a warp): two
  /// threads that run one instance write one element.
  std::optional<Pending> uniformIndex(unsigned S, const PairScan &PS) {
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

  /// Which side of a witness is later, and across which loop iteration.
  RaceReport makeReport(unsigned SA, unsigned SB, const Witness &W) {
    RaceReport R;
    RaceSide A, B;
    A.Access = W.IA;
    A.Thread = W.TA;
    A.Offset = W.OffA;
    B.Access = W.IB;
    B.Thread = W.TB;
    B.Offset = W.OffB;
    for (const auto &KV : W.AsgA)
      A.Iterations[KV.first] = KV.second;
    for (const auto &KV : W.AsgB)
      B.Iterations[KV.first] = KV.second;
    SideIters ItA = withSymbolic(unrolledIters(SA, W.IA), SA, W.AsgA);
    SideIters ItB = withSymbolic(unrolledIters(SB, W.IB), SB, W.AsgB);
    int Later = 0; // 1: A, -1: B.
    const SharedAccess &AA = T.Accesses[W.IA];
    for (unsigned P = 0; P < AA.Loops.size() && !Later; ++P) {
      int L = BI.siteLoops(SA)[P];
      if (L < 0)
        continue;
      const LoopRelation *Rel = nullptr;
      for (const LoopRelation &X : W.Alt->Loops)
        if (int(X.Loop) == L && X.InA && X.InB)
          Rel = &X;
      if (!Rel)
        continue;
      auto KA = ItA.find(L), KB = ItB.find(L);
      if (KA != ItA.end() && KB != ItB.end()) {
        if (KA->second != KB->second) {
          Later = KA->second > KB->second ? 1 : -1;
          R.Distance = std::abs(KA->second - KB->second);
          R.CarriedBy = AA.Loops[P];
        }
        continue;
      }
      bool A1 = Rel->A == IterState::Rel1, B1 = Rel->B == IterState::Rel1;
      if (A1 != B1) {
        Later = A1 ? 1 : -1;
        R.Distance = 1;
        R.CarriedBy = AA.Loops[P];
      } else if (Rel->A == IterState::Any || Rel->B == IterState::Any) {
        // Unrelated iterations: "another iteration".
        R.CarriedBy = AA.Loops[P];
        R.Distance = 0;
        Later = AA.Seq >= T.Accesses[W.IB].Seq ? 1 : -1;
      }
    }
    if (!Later) {
      switch (W.Alt->Order) {
      case Concurrency::AThenB: Later = -1; break;
      case Concurrency::BThenA: Later = 1; break;
      case Concurrency::Unordered:
        Later = AA.Seq >= T.Accesses[W.IB].Seq ? 1 : -1;
        break;
      }
    }
    R.Later = Later > 0 ? A : B;
    R.Earlier = Later > 0 ? B : A;
    return R;
  }
};

void RaceFinder::run() {
  if (!BI.valid() || !T.Kernel)
    return;
  computeFacts();
  unsigned NS = BI.numSites();
  PlainEvals.assign(NS, 0);
  SiteStatement.resize(NS);
  std::map<const Stmt *, std::vector<unsigned>> SitesOfStatement;
  for (unsigned S = 0; S < NS; ++S) {
    SiteStatement[S] = statementOf(T.Accesses[BI.instances(S)[0]]);
    SitesOfStatement[SiteStatement[S]].push_back(S);
  }

  // One finding per missing barrier, not per pair: the pairs a single
  // barrier fixes are grouped. Races across iterations of one loop all want
  // the trailing barrier of that loop; other races are grouped by their
  // earlier access (a stencil's three reads of a just-written tile). An
  // access already named by a finding starts no new one: in a chain of
  // unordered statements (a warp-synchronous reduction) the first link says
  // what is wrong with all of them. Within a group the most certain report
  // (race, then benign, then possible) in program order is shown, with the
  // block barrier as the fix if any member needs one.
  //
  // Races are considered as the pairs are analysed (pairs in order, so the
  // order of reports is the order of findings); benign and possible races
  // come after every race, so they wait until the end. That makes the
  // search for pairs prunable: once both statements of a pair are named
  // (and every instance of both sites has been evaluated, so the pair
  // would change no state either), its report, whatever it is, joins a
  // finding without changing anything. A site in that state is "closed",
  // and a closed site is only paired with open ones. Without this a kernel
  // with no barrier, where every access meets every other, cost O(sites^2)
  // pair analyses for the few findings it gets.
  constexpr uint64_t Never = UINT64_MAX;
  std::vector<uint64_t> ClosedAt(NS, Never); // The pair during which.
  auto Closed = [&](unsigned S) { return ClosedAt[S] != Never; };

  // Sites that may meet: one barrier-free region, one shared variable (the
  // dynamic shared arrays share one), at least one a store. A site is
  // paired with the later sites of its bucket, a load with its stores
  // only; a closed site with open ones only.
  struct Partners {
    std::vector<unsigned> Sites; // In site order.
    // NextOpen[P]: a position at or after P whose site may be open
    // (path-halved; Sites.size() is the end).
    std::vector<unsigned> NextOpen;
    unsigned findOpen(unsigned P) {
      while (NextOpen[P] != P)
        P = NextOpen[P] = NextOpen[NextOpen[P]];
      return P;
    }
  };
  struct Bucket {
    Partners All, Stores;
  };
  std::map<std::tuple<unsigned, bool, const ValueDecl *>, unsigned> BucketOf;
  std::vector<Bucket> Buckets;
  std::vector<int> SiteBucket(NS, -1);
  std::vector<unsigned> PosAll(NS), PosStore(NS);
  for (unsigned S = 0; S < NS; ++S) {
    if (!BI.placed(S))
      continue;
    const SiteFacts &F = Facts[S];
    auto [It, New] = BucketOf.try_emplace(
        {BI.region(S), F.Dynamic, F.Dynamic ? nullptr : F.Base},
        Buckets.size());
    if (New)
      Buckets.emplace_back();
    SiteBucket[S] = int(It->second);
    Bucket &B = Buckets[It->second];
    PosAll[S] = B.All.Sites.size();
    B.All.Sites.push_back(S);
    if (F.Kind == AccessKind::Store) {
      PosStore[S] = B.Stores.Sites.size();
      B.Stores.Sites.push_back(S);
    }
  }
  for (Bucket &B : Buckets)
    for (Partners *P : {&B.All, &B.Stores}) {
      P->NextOpen.resize(P->Sites.size() + 1);
      std::iota(P->NextOpen.begin(), P->NextOpen.end(), 0u);
    }
  auto TryClose = [&](unsigned S, uint64_t Key) {
    if (Search.Exhaustive || Closed(S) || !Named.count(SiteStatement[S]) ||
        !Facts[S].DepLoops.empty() || PlainEvals[S] != BI.instances(S).size())
      return;
    ClosedAt[S] = Key;
    Bucket &B = Buckets[SiteBucket[S]];
    B.All.NextOpen[PosAll[S]] = PosAll[S] + 1;
    if (Facts[S].Kind == AccessKind::Store)
      B.Stores.NextOpen[PosStore[S]] = PosStore[S] + 1;
  };
  std::set<const Stmt *> NamedSeen;
  auto AfterPair = [&](unsigned SA, unsigned SB, uint64_t Key) {
    for (unsigned S : {SA, SB}) {
      // A statement newly named closes the sites it holds.
      if (Named.count(SiteStatement[S]) &&
          NamedSeen.insert(SiteStatement[S]).second)
        for (unsigned X : SitesOfStatement[SiteStatement[S]])
          if (SiteBucket[X] >= 0)
            TryClose(X, Key);
      TryClose(S, Key);
    }
  };

  std::vector<Pending> Deferred; // Benign and possible races.
  auto Take = [&](std::optional<Pending> P) {
    if (!P)
      return;
    if (counts(P->R))
      GroupCrossWarp[groupOf(P->R)] |= P->R.CrossWarp;
    if (P->Rank == 0)
      consider(P->R);
    else
      Deferred.push_back(std::move(*P));
  };
  uint64_t CutAt = Never; // The first pair not analysed for lack of probes.
  for (unsigned SA = 0; SA < NS && CutAt == Never; ++SA) {
    if (SiteBucket[SA] < 0)
      continue;
    Bucket &B = Buckets[SiteBucket[SA]];
    bool Store = Facts[SA].Kind == AccessKind::Store;
    Partners &P = Store ? B.All : B.Stores;
    unsigned Start =
        Store ? PosAll[SA]
              : unsigned(std::lower_bound(P.Sites.begin(), P.Sites.end(), SA) -
                         P.Sites.begin());
    for (unsigned Pos = Start; Pos < P.Sites.size();
         Pos = Closed(SA) ? P.findOpen(Pos + 1) : Pos + 1) {
      unsigned SB = P.Sites[Pos];
      uint64_t Key = uint64_t(SA) * NS + SB;
      if (Probes > MaxProbesPerKernel) {
        CutAt = Key;
        break;
      }
      if ((Closed(SA) && Closed(SB)) || !mayAlias(SA, SB))
        continue;
      ++Search.PairsAnalysed;
      Take(analysePair(SA, SB));
      AfterPair(SA, SB, Key);
    }
  }
  if (CutAt != Never) // Said, not silent: the handler reports the gap.
    H.handleCut(BI.instances(unsigned(CutAt / NS))[0], Search.PairsAnalysed);
  for (unsigned Rank : {1u, 2u})
    for (const Pending &P : Deferred)
      if (P.Rank == Rank)
        consider(P.R);

  // A finding names the block barrier when any report of its group needs
  // one. Reports of skipped pairs are missing from that: for a group still
  // within one warp, analyse the skipped pairs that can fall in it (a site
  // of the group's expression or loop against every other site).
  auto Skipped = [&](unsigned SA, unsigned SB) {
    uint64_t Key = uint64_t(SA) * NS + SB;
    return Key < CutAt && Key > ClosedAt[SA] && Key > ClosedAt[SB] &&
           Closed(SA) && Closed(SB) && SiteBucket[SA] == SiteBucket[SB] &&
           mayAlias(SA, SB);
  };
  for (const Finding &F : Findings) {
    if (GroupCrossWarp[F.Group])
      continue;
    std::vector<unsigned> Touching;
    for (unsigned S = 0; S < NS; ++S) {
      const SharedAccess &A = T.Accesses[BI.instances(S)[0]];
      if (static_cast<const void *>(A.E) == F.Group ||
          llvm::is_contained(A.Loops, F.Group))
        Touching.push_back(S);
    }
    for (unsigned S : Touching)
      for (unsigned X = 0; X < NS && !GroupCrossWarp[F.Group]; ++X) {
        unsigned SA = std::min(S, X), SB = std::max(S, X);
        if (!Skipped(SA, SB))
          continue;
        ++Search.PairsAnalysed;
        std::optional<Pending> P = analysePair(SA, SB);
        if (P && counts(P->R) && groupOf(P->R) == F.Group)
          GroupCrossWarp[F.Group] |= P->R.CrossWarp;
      }
  }

  for (Finding &F : Findings) {
    F.R.CrossWarp = GroupCrossWarp[F.Group];
    H.handleRace(F.R);
  }
}

} // namespace

void findRaces(ASTContext &Ctx, const KernelTrace &T,
               const AnalysisOptions &Opts, RaceHandler &Handler,
               RaceSearch *Search, ProgramCFGs *Graphs) {
  RaceSearch Default;
  RaceFinder(Ctx, T, Opts, Handler, Search ? *Search : Default, Graphs).run();
}

} // namespace shmem
