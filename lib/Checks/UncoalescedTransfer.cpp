//===- UncoalescedTransfer.cpp - shmem-uncoalesced-transfer ---------------===//
//
// The global side of a shared tile: every global load whose value the
// kernel stores to __shared__ memory, and every global store of a value
// loaded from it (the walker's dataflow links, see GlobalAccess), goes
// through the CoalescingModel warp by warp. A request is reported when it
// touches at least UncoalescedRatio times the 32-byte sectors its bytes
// need.
//
// The verdict is TransferVerdict.cpp's, the transpose advice
// TransposeAdvice.cpp's; this file turns them into findings.
//
//===----------------------------------------------------------------------===//

#include "TransferSearch.h"

#include <map>
#include <set>
#include <sstream>

using namespace clang;

namespace shmem {

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
