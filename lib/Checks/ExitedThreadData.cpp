//===- ExitedThreadData.cpp - Survivors reading what exited threads skip --===//
//
// See ExitedThreadData.h. The facts come from the kernel trace: at each
// event of a barrier that only exits make divergent, the threads not active
// are the ones that have exited; every shared store gives the bytes it
// writes in each of its threads, and every load the bytes each of its
// threads reads. A surviving thread's read is reported when
//  - some of the bytes it reads are written by no store of the trace, in no
//    thread (so nothing before or after the exit filled them), and
//  - a store before a barrier that orders it before the read, executed by
//    exactly the threads that have not exited by that barrier (so the exit
//    is what kept the others from it), would write them in a thread that
//    has exited.
// Loads whose address is affine in the iterations of loops walked
// symbolically with known trip counts are judged in each iteration (at most
// MaxReadIterations); other loads whose address is not concrete are not
// judged, and a store whose address is not concrete might write anything:
// its variable's reads are not judged either.
//
// The exits of real code mostly depend on a kernel parameter (`if (i >= n)
// return;`), so the trace cannot say who exits. The race check binds such
// unknowns to large generic values, at which no thread would exit; here the
// kernel is walked again with the parameters of the exit conditions pinned
// (IterationPins::Unknowns) to a few values that split the block, blockIdx
// to 0 when a condition reads it, and the finding says which value showed
// it.
//
//===----------------------------------------------------------------------===//

#include "ExitedThreadData.h"

#include "Analysis/ExprUtil.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

using namespace clang;

namespace shmem {
namespace {

/// Walks with pinned parameters, at most, per kernel and block shape.
constexpr unsigned MaxPinnedWalks = 8;
/// The value of the exit conditions' other parameters in a walk that pins
/// one of them: large, so that they let every thread through (`i >= n`).
constexpr int64_t LargeValue = int64_t(1) << 24;
/// Iterations of the loops walked symbolically tried per read, at most.
constexpr size_t MaxReadIterations = 1024;

/// What the exit conditions read that a walk can pin: integer kernel
/// parameters and blockIdx, directly or through the locals they initialise
/// (`int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n)`).
struct ExitUnknowns {
  std::vector<const ParmVarDecl *> Params;
  bool BlockIndex = false;

  void gather(const Stmt *S, std::set<const VarDecl *> &Seen) {
    if (!S)
      return;
    // `blockIdx.x` is a property of a builtin variable.
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(S))
      S = PO->getSyntacticForm();
    if (const auto *MP = dyn_cast<MSPropertyRefExpr>(S))
      S = MP->getBaseExpr();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(S))
      S = OV->getSourceExpr();
    if (!S)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
        if (P->getType()->isIntegerType() &&
            std::find(Params.begin(), Params.end(), P) == Params.end())
          Params.push_back(P);
      } else if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
        if (V->getName() == "blockIdx")
          BlockIndex = true;
        else if (V->isLocalVarDecl() && V->getInit() && Seen.size() < 16 &&
                 Seen.insert(V).second)
          gather(V->getInit(), Seen);
      }
    }
    for (const Stmt *C : S->children())
      gather(C, Seen);
  }
};

/// A walk and the values it pinned, for the message ("when n = 128").
struct PinnedWalk {
  const KernelTrace *T = nullptr;
  std::string When;
};

/// The threads that have exited by one event of an ExitedBarrier.
struct ExitPoint {
  unsigned Seq = 0;
  std::vector<char> Exited;
  const ExitedBarrier *B = nullptr;
};

/// An element only exited threads would have written: the first such
/// thread, and the store it skips.
struct Orphan {
  unsigned Thread = 0;
  unsigned Store = 0;                ///< Index into the trace's accesses.
  const ExitPoint *Before = nullptr; ///< The barrier ordering the store.
};

/// Shared variables as the trace tells them apart: every extern
/// __shared__ array aliases one buffer.
const void *variableKey(const PointerValue &P) {
  static const char Dynamic = 0;
  return P.DynamicShared ? static_cast<const void *>(&Dynamic) : P.Base;
}

class ExitedReadFinder {
public:
  ExitedReadFinder(const KernelContext &K,
                   llvm::ArrayRef<ExitedBarrier> Barriers)
      : K(K), Barriers(Barriers), N(K.Trace.Geometry.threads()) {}

  void run(std::vector<Finding> &Out) {
    // The trace as walked knows who exits when the exit conditions are
    // concrete (`threadIdx.x >= 100`).
    if (judge({&K.Trace, ""}, Out))
      return;
    ExitUnknowns U;
    std::set<const VarDecl *> Seen;
    for (const ExitedBarrier &B : Barriers)
      for (const Expr *C : B.Conditions)
        U.gather(C, Seen);
    if (U.Params.empty())
      return;
    std::vector<SymbolKey> BlockKeys;
    if (U.BlockIndex)
      for (unsigned S = 0; S < K.Trace.Symbols.size(); ++S)
        if (K.Trace.Symbols.info(S).K == SymbolInfo::BlockIndex)
          BlockKeys.push_back(K.Trace.Symbols.info(S).key());
    unsigned Walks = 0;
    for (const ParmVarDecl *P : U.Params)
      for (int64_t V : candidates()) {
        if (Walks++ == MaxPinnedWalks)
          return;
        IterationPins Pins;
        for (const ParmVarDecl *Q : U.Params)
          Pins.Unknowns[SymbolKey{Q, nullptr, 0}] = Q == P ? V : LargeValue;
        for (const auto &Key : BlockKeys)
          Pins.Unknowns[Key] = 0;
        KernelTrace T = retraceKernel(K.Ctx, K.Trace, K.Opts, nullptr,
                                      &Pins);
        std::string When = " when " + P->getNameAsString() + " = " +
                           std::to_string(V) +
                           (BlockKeys.empty() ? "" : " in block 0");
        if (judge({&T, When}, Out))
          return;
      }
  }

private:
  const KernelContext &K;
  llvm::ArrayRef<ExitedBarrier> Barriers;
  unsigned N;

  /// Values of a parameter that split a block along its threads, a row or
  /// a column: half of each extent first.
  std::vector<int64_t> candidates() const {
    const Dim3 &D = K.Trace.Geometry.block();
    std::vector<int64_t> C;
    auto Add = [&](int64_t V) {
      if (V > 0 && std::find(C.begin(), C.end(), V) == C.end())
        C.push_back(V);
    };
    for (unsigned E : {unsigned(N), D.X, D.Y})
      if (E > 1)
        Add(E / 2);
    Add(N / 4);
    Add(3 * int64_t(N) / 4);
    Add(int64_t(N) - 1);
    return C;
  }

  const SourceManager &SM() const { return K.Ctx.getSourceManager(); }
  unsigned line(SourceLocation L) const {
    return SM().getPresumedLineNumber(SM().getExpansionLoc(L));
  }

  /// The ExitedBarrier a trace event belongs to: the barrier itself, or
  /// one the call executes.
  const ExitedBarrier *barrierOf(const BarrierEvent &Ev) const {
    for (const ExitedBarrier &EB : Barriers)
      if (EB.Call ? !Ev.CallStack.empty() && Ev.CallStack.front() == EB.Barrier
                  : Ev.CallStack.empty() && Ev.E == EB.Barrier)
        return &EB;
    return nullptr;
  }

  std::vector<ExitPoint> exitPoints(const KernelTrace &T) const {
    // The walker records on each barrier event the threads that have
    // returned from the kernel by then (BarrierEvent::Exited).
    std::vector<ExitPoint> Pts;
    for (const BarrierEvent &Ev : T.Barriers) {
      const ExitedBarrier *B = barrierOf(Ev);
      if (!B || Ev.Kind != BarrierKind::Block || Ev.ActiveApprox ||
          Ev.Active.size() != N || Ev.Exited.size() != N)
        continue;
      unsigned Count = std::count(Ev.Exited.begin(), Ev.Exited.end(), 1);
      if (Count == 0 || Count == N)
        continue;
      ExitPoint P;
      P.Seq = Ev.Seq;
      P.B = B;
      P.Exited = Ev.Exited;
      Pts.push_back(std::move(P));
    }
    std::sort(
        Pts.begin(), Pts.end(),
        [](const ExitPoint &A, const ExitPoint &B) { return A.Seq < B.Seq; });
    return Pts;
  }

  /// Every finding \p W shows, added to \p Out; whether there was one.
  bool judge(const PinnedWalk &W, std::vector<Finding> &Out) {
    const KernelTrace &T = *W.T;
    std::vector<ExitPoint> Pts = exitPoints(T);
    if (Pts.empty())
      return false;
    // The bytes some thread writes, by variable; variables with a store
    // the trace cannot place are not judged.
    std::unordered_map<const void *, std::unordered_set<int64_t>> Written;
    std::set<const void *> Unplaced;
    for (const SharedAccess &A : T.Accesses) {
      if (A.Kind == AccessKind::Load || !A.Address.isShared())
        continue;
      const void *Var = variableKey(A.Address);
      if (!A.Address.Offset.isConcrete()) {
        if (std::count(A.Active.begin(), A.Active.end(), 1))
          Unplaced.insert(Var);
        continue;
      }
      auto &Bytes = Written[Var];
      for (unsigned Th = 0; Th < N && Th < A.Active.size(); ++Th)
        if (A.Active[Th])
          for (unsigned B = 0; B < A.Width; ++B)
            Bytes.insert(A.Address.Offset.evaluate(Th) + B);
    }
    // The bytes only exited threads would write, with the first such
    // store in program order.
    std::unordered_map<const void *, std::unordered_map<int64_t, Orphan>>
        Orphans;
    for (unsigned I = 0; I < T.Accesses.size(); ++I) {
      const SharedAccess &S = T.Accesses[I];
      if (S.Kind == AccessKind::Load || !S.Address.isShared() ||
          S.ActiveApprox || !S.Address.Offset.isConcrete() ||
          S.Active.size() != N)
        continue;
      const void *Var = variableKey(S.Address);
      if (Unplaced.count(Var))
        continue;
      auto Next = std::find_if(Pts.begin(), Pts.end(), [&](const ExitPoint &P) {
        return P.Seq > S.Seq;
      });
      if (Next == Pts.end())
        continue;
      bool Survivors = true;
      for (unsigned Th = 0; Th < N && Survivors; ++Th)
        Survivors = bool(S.Active[Th]) == !Next->Exited[Th];
      if (!Survivors)
        continue;
      auto &Bytes = Written[Var];
      auto &Orph = Orphans[Var];
      for (unsigned Th = 0; Th < N; ++Th) {
        if (!Next->Exited[Th])
          continue;
        int64_t Off = S.Address.Offset.evaluate(Th);
        for (unsigned B = 0; B < S.Width; ++B)
          if (!Bytes.count(Off + B))
            Orph.try_emplace(Off + B, Orphan{Th, I, &*Next});
      }
    }
    if (Orphans.empty())
      return false;
    bool Any = false;
    std::set<const Expr *> Reported;
    for (const SharedAccess &L : T.Accesses) {
      if (L.Kind != AccessKind::Load || !L.Address.isShared() ||
          L.ActiveApprox || !L.Address.Offset.isAffine() || Reported.count(L.E))
        continue;
      auto OI = Orphans.find(variableKey(L.Address));
      if (OI == Orphans.end())
        continue;
      bool TooMany = false;
      std::vector<Iteration> Iters = iterations(T, L.Address.Offset, TooMany);
      if (TooMany) {
        // Said, not dropped: this read is not judged.
        AnalysisGap G;
        G.Check = CheckKind::DivergentBarrier;
        G.Loc = L.Loc;
        G.What = "reads of data only exited threads would write not judged "
                 "here";
        G.Why = "its loops take more than " +
                std::to_string(MaxReadIterations) + " iterations";
        G.CallStack = L.CallStack;
        K.reportGap(std::move(G));
      }
      for (const Iteration &It : Iters) {
        if (judgeLoad(W, L, It, OI->second, Out)) {
          Reported.insert(L.E);
          Any = true;
          break;
        }
      }
    }
    return Any;
  }

  /// One binding of the loop-iteration unknowns of a read's address, and
  /// how the message names it (", counter = 255").
  struct Iteration {
    SymbolBinding B;
    std::string Text;
  };

  /// The bindings to try for an address: none needed when it is concrete;
  /// when it is affine in the iterations of loops walked symbolically
  /// whose trip counts the trace knows (`sharedPos[counter]` with `counter
  /// < blockDim.x`, more trips than the walker unrolls), every combination
  /// of their iterations, at most MaxReadIterations; otherwise none (the
  /// read is not judged; \p TooMany says when that is for the bound).
  std::vector<Iteration> iterations(const KernelTrace &T, const LaneValue &Off,
                                    bool &TooMany) const {
    if (Off.isConcrete())
      return {Iteration{}};
    // The loops the unknowns count, with the known iteration count.
    std::vector<std::pair<const Stmt *, size_t>> Loops;
    std::vector<SymbolId> Syms = Off.symbols();
    for (SymbolId S : Syms) {
      const SymbolInfo &I = T.Symbols.info(S);
      if (!I.Loop || !I.Values ||
          (I.K != SymbolInfo::LoopIteration && I.K != SymbolInfo::Opaque))
        return {};
      auto LI = std::find_if(Loops.begin(), Loops.end(),
                             [&](const auto &P) { return P.first == I.Loop; });
      if (LI == Loops.end())
        Loops.push_back({I.Loop, I.Values->size()});
      else
        LI->second = std::min(LI->second, I.Values->size());
    }
    size_t Total = 1;
    for (const auto &P : Loops) {
      Total *= P.second;
      TooMany = Total > MaxReadIterations;
      if (P.second == 0 || TooMany)
        return {};
    }
    std::vector<Iteration> Out;
    std::vector<size_t> Ks(Loops.size(), 0);
    for (size_t C = 0; C < Total; ++C) {
      Iteration It;
      for (size_t P = 0, Rem = C; P < Loops.size(); ++P) {
        Ks[P] = Rem % Loops[P].second;
        Rem /= Loops[P].second;
        It.Text += iterationText(Loops[P].first, Ks[P]);
      }
      for (SymbolId S : Syms) {
        const SymbolInfo &I = T.Symbols.info(S);
        size_t P =
            std::find_if(Loops.begin(), Loops.end(),
                         [&](const auto &X) { return X.first == I.Loop; }) -
            Loops.begin();
        It.B[S] = I.K == SymbolInfo::LoopIteration ? int64_t(Ks[P])
                                                   : (*I.Values)[Ks[P]];
      }
      Out.push_back(std::move(It));
    }
    return Out;
  }

  /// ", counter = 255" for iteration \p Index of a `for` loop that counts a
  /// variable from a constant by a constant step; ", iteration 255 of the
  /// loop at line 12" otherwise.
  std::string iterationText(const Stmt *L, size_t Index) const {
    std::string Fallback = ", iteration " + std::to_string(Index) +
                           " of the loop at line " +
                           std::to_string(line(L->getBeginLoc()));
    const auto *F = dyn_cast<ForStmt>(L);
    const auto *DS = F ? dyn_cast_or_null<DeclStmt>(F->getInit()) : nullptr;
    const auto *V = DS && DS->isSingleDecl()
                        ? dyn_cast<VarDecl>(DS->getSingleDecl())
                        : nullptr;
    std::optional<int64_t> Start =
        V ? foldInteger(V->getInit(), K.Ctx) : std::nullopt;
    if (!Start)
      return Fallback;
    auto RefersToV = [&](const Expr *E) {
      const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DR && DR->getDecl() == V;
    };
    const Expr *Inc =
        F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
    int64_t Step = 0;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (U->isIncrementDecrementOp() && RefersToV(U->getSubExpr()))
        Step = U->isIncrementOp() ? 1 : -1;
    } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
      std::optional<int64_t> By = foldInteger(CA->getRHS(), K.Ctx);
      if (RefersToV(CA->getLHS()) && By &&
          (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
        Step = (CA->getOpcode() == BO_AddAssign ? 1 : -1) * *By;
    }
    if (Step == 0)
      return Fallback;
    return ", " + V->getNameAsString() + " = " +
           std::to_string(*Start + Step * int64_t(Index));
  }

  /// Reports \p L if, in iteration \p It, a surviving thread reads an
  /// element of \p Orph written before the read.
  bool judgeLoad(const PinnedWalk &W, const SharedAccess &L,
                 const Iteration &It,
                 const std::unordered_map<int64_t, Orphan> &Orph,
                 std::vector<Finding> &Out) {
    for (unsigned Th = 0; Th < N && Th < L.Active.size(); ++Th) {
      if (!L.Active[Th])
        continue;
      int64_t Off = L.Address.Offset.evaluate(Th, It.B);
      const Orphan *O = nullptr;
      for (unsigned B = 0; B < L.Width && !O; ++B) {
        auto OI = Orph.find(Off + B);
        if (OI != Orph.end() && OI->second.Before->Seq < L.Seq)
          O = &OI->second;
      }
      if (!O)
        continue;
      Out.push_back(finding(W, L, Th, Off, *O, It.Text));
      return true;
    }
    return false;
  }

  Finding finding(const PinnedWalk &W, const SharedAccess &L, unsigned Reader,
                  int64_t Off, const Orphan &O, const std::string &Iter) {
    const KernelTrace &T = *W.T;
    const ThreadGeometry &G = T.Geometry;
    const SharedAccess &S = T.Accesses[O.Store];
    const ExitedBarrier &B = *O.Before->B;
    std::string R = G.describeThread(Reader), X = G.describeThread(O.Thread);
    std::string Exits;
    for (const Stmt *Ret : B.Returns)
      Exits += (Exits.empty() ? "" : " or ") +
               std::to_string(line(Ret->getBeginLoc()));
    std::ostringstream Msg;
    Msg << R << " reads " << sharedElementName(K.Ctx, L, Off) << " (line "
        << line(L.Loc) << unrolledIterationValues(T, L) << Iter
        << "), which only " << X << " writes (line " << line(S.Loc) << "), but "
        << X << " has returned at line " << Exits << W.When
        << "; threads that have exited do not wait at a barrier, so " << R
        << " reads a value that was never written";
    Finding F;
    F.Check = CheckKind::DivergentBarrier;
    F.Loc = L.Loc;
    F.Range = L.E->getSourceRange();
    F.Message = Msg.str();
    unsigned Count =
        std::count(O.Before->Exited.begin(), O.Before->Exited.end(), 1);
    std::ostringstream Note;
    Note << Count << " of " << N << " threads, " << X
         << " among them, return here" << W.When
         << "; keep them to the barrier and let them store a neutral value "
            "(guard the load, not the thread)";
    F.Notes.push_back(
        {B.Returns.empty() ? S.Loc : B.Returns.front()->getBeginLoc(),
         Note.str()});
    if (!L.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, L.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    return F;
  }
};

} // namespace

void findExitedThreadReads(const KernelContext &K,
                           llvm::ArrayRef<ExitedBarrier> Barriers,
                           std::vector<Finding> &Out) {
  if (Barriers.empty())
    return;
  ExitedReadFinder(K, Barriers).run(Out);
}

} // namespace shmem
