//===- NamedBarrier.cpp - shmem-named-barrier ------------------------------===//
//
// A named barrier with a thread count (`bar.sync id, count`, `bar.arrive id,
// count`) completes when `count` threads have arrived at it, whichever they
// are. Warp-specialised kernels rest on those counts: producer warps
// arrive, consumer warps wait, and the count is the sum of both. Nothing
// checks them at run time: on an H200 `bar.sync 2, 64` run by 128 threads
// simply completes twice, and compute-sanitizer's synccheck is silent.
//
// From the named-barrier groups (Analysis/NamedBarriers: the uses of one id
// between two block-wide barriers, with each thread's id and count), this
// check reports
//   - at each use, an id outside 0-15 and a count that is not a positive
//     multiple of the warp size;
//   - per group: uses that give different counts; a count other than the
//     number of threads that use the id (fewer: it never completes and the
//     waiting threads hang; more: it completes for whichever threads come
//     first, so two groups sharing an id are not ordered); and threads
//     that use the id unequally often (the last generation never fills);
//     and a thread that may arrive again before every other user arrived
//     once (its arrivals then fill the wrong generation: a producer that
//     does not wait for the consumers to free a buffer before refilling it).
// It makes no claim where the walk does not know the values or the threads
// exactly, or where the block shape is assumed (the counts are about the
// shape); it says so as a gap instead.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "ThreadSets.h"

#include "Analysis/NamedBarriers.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <sstream>

using namespace clang;

namespace shmem {
namespace {

class NamedBarrierChecker {
public:
  NamedBarrierChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), T(K.Trace), Sink(Sink), G(T.Geometry), NB(T) {}

  void run() {
    if (!NB.any())
      return;
    for (const NamedBarrierUse &U : NB.uses()) {
      if (!llvm::is_contained(U.Threads, 1))
        continue;
      if (!U.Known)
        gap(U, U.Unknown);
      else
        checkOperands(U);
    }
    if (T.GeometryAssumed) {
      // Which threads use an id follows from the shape; a guessed shape
      // would make the counts look wrong.
      gap(NB.uses().front(), "the block shape is assumed; state it with "
                             "'// shmem-lint: block=X[xY[xZ]]'");
      return;
    }
    for (const NamedBarrierGroup &Gr : NB.groups()) {
      if (Gr.Id < 0 || Gr.Id >= NumBarrierIds)
        continue; // Said at the use.
      if (Gr.S == NamedBarrierGroup::Miscounted)
        reportMiscounted(Gr);
      else if (!Gr.CountsHold)
        gap(use(Gr.Uses.front()), Gr.Why);
      else
        checkAlignedWaits(Gr);
    }
  }

private:
  const KernelContext &K;
  const KernelTrace &T;
  FindingSink &Sink;
  const ThreadGeometry &G;
  NamedBarriers NB;

  const NamedBarrierUse &use(unsigned I) const { return NB.uses()[I]; }
  const CountedBarrierEvent &event(const NamedBarrierUse &U) const {
    return T.CountedBarriers[U.Event];
  }

  /// The id and count each thread gives, on their own.
  void checkOperands(const NamedBarrierUse &U) {
    for (unsigned Th = 0; Th < U.Threads.size(); ++Th) {
      if (!U.Threads[Th])
        continue;
      if (U.Id[Th] < 0 || U.Id[Th] >= NumBarrierIds) {
        std::ostringstream Msg;
        Msg << subject(U) << " names barrier " << U.Id[Th] << " for "
            << threadsGiving(U, U.Id, U.Id[Th])
            << ", but a block has 16 barriers, 0-15 (undefined behaviour)";
        report(U, Msg.str(), {});
        return;
      }
      int64_t Count = U.Count[Th];
      if (Count <= 0 || Count % G.warpSize() != 0) {
        std::ostringstream Msg;
        Msg << subject(U) << " counts " << Count << " threads for "
            << threadsGiving(U, U.Count, Count)
            << ", but a barrier counts whole warps: the count must be a "
               "positive multiple of the warp size ("
            << G.warpSize() << ")";
        report(U, Msg.str(), {});
        return;
      }
    }
  }

  void reportMiscounted(const NamedBarrierGroup &Gr) {
    if (Gr.RunsAhead)
      reportRunAhead(Gr);
    else if (Gr.Counts.size() > 1)
      reportCounts(Gr);
    else if (Gr.Counts.begin()->first != int64_t(Gr.Users))
      reportArrivals(Gr);
    else
      reportUses(Gr);
  }

  /// Uses of one id that give different counts.
  void reportCounts(const NamedBarrierGroup &Gr) {
    auto First = Gr.Counts.begin(), Second = std::next(First);
    // Reported at the later of the two first uses.
    if (First->second.second > Second->second.second)
      std::swap(First, Second);
    const NamedBarrierUse &A = use(First->second.second);
    const NamedBarrierUse &B = use(Second->second.second);
    bool TwoPlaces = A.Event != B.Event;
    std::ostringstream Msg;
    Msg << "barrier " << Gr.Id << " is given different thread counts: "
        << Second->first << " by "
        << divergent::describeWarps(Second->second.first, G) << " at "
        << subject(B) << ", " << First->first << " by "
        << divergent::describeWarps(First->second.first, G);
    if (TwoPlaces)
      Msg << " at line " << line(where(A));
    Msg << ", with no block-wide barrier between; every use of one barrier "
           "must give the same count";
    std::vector<FindingNote> Notes;
    if (TwoPlaces)
      Notes.push_back({where(A), "the other count is given here"});
    report(B, Msg.str(), std::move(Notes));
  }

  /// A count other than the number of threads that use the id.
  void reportArrivals(const NamedBarrierGroup &Gr) {
    int64_t Count = Gr.Counts.begin()->first;
    int64_t Users = Gr.Users;
    // At the first use that waits, else the first.
    unsigned At = Gr.Uses.front();
    for (unsigned I : Gr.Uses)
      if (!use(I).Arrive) {
        At = I;
        break;
      }
    const NamedBarrierUse &E = use(At);
    std::vector<char> Who(G.threads(), 0);
    for (unsigned Th = 0; Th < G.threads(); ++Th)
      Who[Th] = !Gr.ByThread[Th].empty();
    std::string UserText = divergent::describeWarps(Who, G);
    std::ostringstream Msg;
    if (Users < Count)
      Msg << "barrier " << Gr.Id << " waits for " << Count
          << " threads, but only " << Users << " arrive at it (" << UserText
          << "): it never completes, so the threads waiting at "
          << subject(E) << " hang";
    else
      Msg << Users << " threads arrive at barrier " << Gr.Id << " ("
          << UserText << "), which completes every " << Count
          << " arrivals: whichever threads come first are released together, "
             "so it does not order the groups it was meant for";
    std::vector<FindingNote> Notes = placesOf(Gr, At);
    Notes.push_back(
        {where(E), Users < Count
                    ? "count only the threads that arrive, or let the "
                      "missing ones arrive ('bar.arrive " +
                          std::to_string(Gr.Id) + ", " +
                          std::to_string(Count) + "')"
                    : "give each group of threads its own barrier id, or "
                      "count all " +
                          std::to_string(Users)});
    report(E, Msg.str(), std::move(Notes));
  }

  /// Threads that use the id unequally often between two block-wide
  /// barriers: the generation the extra uses start never fills.
  void reportUses(const NamedBarrierGroup &Gr) {
    size_t Most = Gr.ByThread[Gr.MostThread].size();
    size_t Fewest = Gr.ByThread[Gr.FewestThread].size();
    std::vector<char> Many(G.threads(), 0), Few(G.threads(), 0);
    for (unsigned Th = 0; Th < G.threads(); ++Th) {
      Many[Th] = Gr.ByThread[Th].size() == Most;
      Few[Th] = !Gr.ByThread[Th].empty() && Gr.ByThread[Th].size() < Most;
    }
    const NamedBarrierUse &E = use(Gr.ByThread[Gr.MostThread][Fewest]);
    std::ostringstream Msg;
    Msg << divergent::describeWarps(Many, G) << " use barrier " << Gr.Id
        << " " << times(Most) << " and " << divergent::describeWarps(Few, G)
        << " " << (Fewest == Most - 1 ? "one time fewer" : "fewer times")
        << ", with no block-wide barrier between: a generation "
           "waits for "
        << Gr.Counts.begin()->first
        << " threads, and the threads of its last one never all come";
    std::vector<FindingNote> Notes = placesOf(Gr, Gr.ByThread[Gr.MostThread][Fewest]);
    report(E, Msg.str(), std::move(Notes));
  }

  /// A thread that may arrive again before another arrived once: the
  /// arrivals of two generations mix.
  void reportRunAhead(const NamedBarrierGroup &Gr) {
    const NamedBarrierUse &Again = use(Gr.ByThread[Gr.RunAhead][Gr.AheadUse + 1]);
    const NamedBarrierUse &Late = use(Gr.ByThread[Gr.Behind][Gr.AheadUse]);
    std::string Ahead = threadsLike(Gr, Gr.RunAhead),
                Behind = threadsLike(Gr, Gr.Behind);
    bool Same = Ahead == Behind;
    if (Same)
      Behind = "all of them";
    std::ostringstream Msg;
    Msg << Ahead << " may arrive at barrier " << Gr.Id << " for the "
        << ordinal(Gr.AheadUse + 2) << " time before " << Behind
        << " arrived the " << ordinal(Gr.AheadUse + 1)
        << " time: nothing they wait for in between follows those arrivals, "
           "so the arrivals of two generations mix and the barrier no longer "
           "orders the threads it was meant to";
    std::vector<FindingNote> Notes;
    if (!Same || where(Late) != where(Again))
      Notes.push_back({where(Late), "the " + ordinal(Gr.AheadUse + 1) +
                                     " arrival of " + Behind});
    Notes.push_back({where(Again),
                     "before arriving again, wait for a barrier that " +
                         Behind +
                         " arrive at after their use of barrier " +
                         std::to_string(Gr.Id) +
                         " (the 'empty' barrier of a ring of buffers)"});
    report(Again, Msg.str(), std::move(Notes));
  }

  /// The threads that use the group as thread \p Th does.
  std::string threadsLike(const NamedBarrierGroup &Gr, unsigned Th) const {
    std::vector<char> S(G.threads(), 0);
    for (unsigned U = 0; U < G.threads(); ++U)
      S[U] = Gr.ByThread[U].size() == Gr.ByThread[Th].size() &&
             !Gr.ByThread[U].empty() &&
             std::equal(Gr.ByThread[U].begin(), Gr.ByThread[U].end(),
                        Gr.ByThread[Th].begin());
    return divergent::describeWarps(S, G);
  }

  /// One generation waited for at two different aligned instructions
  /// (`bar.sync` is `barrier.sync.aligned`): PTX requires the threads of an
  /// aligned barrier to execute one instruction. The hardware counts the
  /// arrivals alike, but compute-sanitizer's synccheck stops the kernel.
  void checkAlignedWaits(const NamedBarrierGroup &Gr) {
    size_t K = 0;
    for (const auto &Mine : Gr.ByThread)
      K = std::max(K, Mine.size());
    for (unsigned Kk = 0; Kk < K; ++Kk) {
      // Instruction -> the threads that wait there: the asm statement in
      // its inlined call stack (a wrapper called at two places is two
      // instructions; unrolled iterations of one statement count as one).
      std::map<std::pair<const GCCAsmStmt *,
                         std::vector<const CallExpr *>>,
               std::pair<std::vector<char>, unsigned>>
          At;
      for (unsigned Th = 0; Th < G.threads(); ++Th) {
        if (Gr.ByThread[Th].size() <= Kk)
          continue;
        unsigned I = Gr.ByThread[Th][Kk];
        const NamedBarrierUse &U = use(I);
        if (U.Arrive || U.Event < 0 || !event(U).Aligned)
          continue;
        auto &Slot = At[{event(U).Asm, event(U).At.CallStack}];
        if (Slot.first.empty())
          Slot = {std::vector<char>(G.threads(), 0), I};
        Slot.first[Th] = 1;
      }
      if (At.size() < 2)
        continue;
      // Reported at the later of the first two instructions.
      auto First = At.begin(), Second = std::next(First);
      if (use(First->second.second).Pos > use(Second->second.second).Pos)
        std::swap(First, Second);
      const NamedBarrierUse &A = use(First->second.second);
      const NamedBarrierUse &B = use(Second->second.second);
      std::string WhoA = divergent::describeWarps(First->second.first, G);
      std::string WhoB = divergent::describeWarps(Second->second.first, G);
      std::ostringstream Msg;
      Msg << WhoB << " wait for barrier " << Gr.Id << " at this "
          << subject(B) << " and " << WhoA << " at the one at line "
          << line(where(A)) << ", for one generation: "
          << (event(B).Mnemonic == "bar.sync" ? "'bar.sync' is "
                                                "'barrier.sync.aligned', "
                                              : "an aligned barrier, ")
          << "which PTX requires all threads to execute as one instruction "
             "(undefined behaviour otherwise); compute-sanitizer's synccheck "
             "stops the kernel with 'Barrier error detected'";
      std::vector<FindingNote> Notes;
      Notes.push_back({where(A), WhoA + " wait here"});
      Notes.push_back({where(B), "wait at one instruction, or write "
                                 "'barrier.sync " +
                                     std::to_string(Gr.Id) + ", " +
                                     std::to_string(Gr.Counts.begin()->first) +
                                     ";' (not aligned) at both"});
      report(B, Msg.str(), std::move(Notes));
      return;
    }
  }

  static std::string ordinal(size_t K) {
    switch (K) {
    case 1: return "first";
    case 2: return "second";
    case 3: return "third";
    default: return std::to_string(K) + "th";
    }
  }

  static std::string times(size_t K) {
    return K == 1 ? "once" : K == 2 ? "twice" : std::to_string(K) + " times";
  }

  /// Up to four other places the id is used, and who uses them.
  std::vector<FindingNote> placesOf(const NamedBarrierGroup &Gr,
                                    unsigned Except) const {
    std::vector<FindingNote> Notes;
    for (unsigned I : Gr.Uses) {
      const NamedBarrierUse &U = use(I);
      if (U.Event == use(Except).Event || Notes.size() >= 4)
        continue;
      bool Seen = false;
      for (const FindingNote &N : Notes)
        Seen |= N.Loc == where(U);
      if (Seen)
        continue;
      Notes.push_back({where(U), divergent::describeWarps(U.Threads, G) +
                                  (U.Arrive ? " arrive here" : " wait here")});
    }
    return Notes;
  }

  /// Where a use is written: the asm, or for one inside a helper (a
  /// `NamedBarrier::sync(id, count)` wrapper) the call of that helper,
  /// where the id and count are given.
  SourceLocation where(const NamedBarrierUse &U) const {
    const auto &Calls = event(U).At.CallStack;
    return Calls.empty() ? U.Loc : Calls.back()->getExprLoc();
  }

  std::string subject(const NamedBarrierUse &U) const {
    return "'" + event(U).Mnemonic + "'";
  }

  /// "warps 0-3": the threads of \p U for which \p V is \p Value.
  std::string threadsGiving(const NamedBarrierUse &U,
                            const std::vector<int64_t> &V,
                            int64_t Value) const {
    std::vector<char> S(U.Threads.size(), 0);
    for (unsigned Th = 0; Th < U.Threads.size(); ++Th)
      S[Th] = U.Threads[Th] && V[Th] == Value;
    return divergent::describeWarps(S, G);
  }

  unsigned line(SourceLocation L) const {
    return K.Ctx.getSourceManager().getExpansionLineNumber(L);
  }

  void report(const NamedBarrierUse &U, std::string Message,
              std::vector<FindingNote> Notes) {
    const CountedBarrierEvent &E = event(U);
    Finding F;
    F.Check = CheckKind::NamedBarrier;
    F.Loc = where(U);
    F.Range = E.At.CallStack.empty()
                  ? E.Asm->getSourceRange()
                  : E.At.CallStack.back()->getSourceRange();
    F.Message = std::move(Message);
    F.Notes = std::move(Notes);
    // Reported at the innermost call (where()): name the kernel's call
    // when that is in another helper.
    if (E.At.CallStack.size() > 1)
      F.Notes.push_back(
          kernelCallNote(K, E.At.CallStack.front()->getBeginLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    F.Weight = 1;
    Sink.report(F);
  }

  void gap(const NamedBarrierUse &U, std::string Why) {
    AnalysisGap Gap;
    Gap.Check = CheckKind::NamedBarrier;
    Gap.Loc = where(U);
    Gap.What = "thread counts of " + subject(U) + " not checked";
    Gap.Why = std::move(Why);
    Gap.CallStack = event(U).At.CallStack;
    K.reportGap(Sink, std::move(Gap));
  }
};

} // namespace

void checkNamedBarriers(const KernelContext &K, FindingSink &Sink) {
  NamedBarrierChecker(K, Sink).run();
}

} // namespace shmem
