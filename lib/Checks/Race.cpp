//===- Race.cpp - shmem-race ----------------------------------------------===//
//
// Two threads of a block touch the same shared bytes, at least one of them
// writing without an atomic, and no barrier orders them. The analysis
// (Analysis/RaceAnalysis) finds each race with a witness: two threads, two
// accesses, the element and the iterations involved. This file words it:
// the warning goes where the barrier is missing (the later access), the
// note to the other access, and the fix names the barrier that orders the
// pair (__syncthreads(), or __syncwarp() when both threads share a warp;
// a named barrier where not every thread passes between the two accesses,
// with a fix-it, see RaceFixes.cpp).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "ThreadSets.h"
#include "TmaTiles.h"

#include "Analysis/AsyncCopies.h"
#include "Analysis/BulkCopies.h"
#include "Analysis/Program/CudaModel.h"
#include "Analysis/RaceAnalysis.h"

#include "clang/AST/Type.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <sstream>

using namespace clang;

namespace shmem {
namespace {

class RaceReporter : public RaceHandler {
public:
  RaceReporter(const KernelContext &K, FindingSink &Sink) : K(K), Sink(Sink) {}

  void handleRace(const RaceReport &R) override {
    const SharedAccess &L = access(R.Later), &E = access(R.Earlier);
    Finding F;
    F.Check = CheckKind::Race;
    F.Loc = L.Loc;
    F.Range = L.E->getSourceRange();
    switch (R.K) {
    case RaceReport::Race:
      F.Message = raceMessage(R, L, E);
      if (R.Fix)
        F.Fixes = fixIts(*R.Fix);
      break;
    case RaceReport::Benign:
      F.Message = benignMessage(R, L, E);
      break;
    case RaceReport::PossibleRace:
      F.Message = possibleMessage(R, L, E);
      break;
    }
    std::string Other =
        R.K == RaceReport::PossibleRace
            ? "the other access"
            : "the conflicting " + noun(E) + " by " + thread(R.Earlier.Thread);
    F.Notes.push_back({E.Loc, Other});
    if (!L.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, L.CallStack.front()->getExprLoc()));
    if (!E.CallStack.empty() && (L.CallStack.empty() ||
                                 E.CallStack.front() != L.CallStack.front()))
      F.Notes.push_back({E.CallStack.front()->getExprLoc(),
                         "the conflicting " + noun(E) + " is in this call"});
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    Sink.report(F);
  }

  void handleCut(unsigned First, unsigned long long PairsAnalysed) override {
    // At the first pair left out; the pairs after it in site order are.
    handleGap(First,
              "race pairs after the first " + std::to_string(PairsAnalysed) +
                  " not analysed",
              "probe budget reached");
  }

  void handleGap(unsigned Access, std::string What, std::string Why) override {
    const SharedAccess &A = K.Trace.Accesses[Access];
    AnalysisGap G;
    G.Check = CheckKind::Race;
    G.Loc = A.Loc;
    G.What = std::move(What);
    G.Why = std::move(Why);
    G.CallStack = A.CallStack;
    K.reportGap(Sink, std::move(G));
  }

private:
  const KernelContext &K;
  FindingSink &Sink;

  const SharedAccess &access(const RaceSide &S) const {
    return K.Trace.Accesses[S.Access];
  }
  const SourceManager &SM() const { return K.Ctx.getSourceManager(); }
  unsigned line(SourceLocation Loc) const {
    return SM().getPresumedLineNumber(SM().getExpansionLoc(Loc));
  }
  /// Where a barrier goes for access \p A against \p Other: the access
  /// itself, or, when it is inside a helper the other isn't in, the call to
  /// that helper from the function they share.
  unsigned anchorLine(const SharedAccess &A, const SharedAccess &Other) const {
    size_t Common = 0;
    while (Common < A.CallStack.size() && Common < Other.CallStack.size() &&
           A.CallStack[Common] == Other.CallStack[Common])
      ++Common;
    if (Common < A.CallStack.size())
      return line(A.CallStack[Common]->getExprLoc());
    return line(A.Loc);
  }

  std::string thread(unsigned T) const {
    return K.Trace.Geometry.describeThread(T);
  }

  static std::string noun(const SharedAccess &A) {
    switch (A.Kind) {
    case AccessKind::Load: return "read";
    case AccessKind::Store: return "write";
    case AccessKind::Atomic: return "atomic update";
    }
    return "access";
  }

  std::string baseName(const SharedAccess &A) const {
    if (const auto *ND = dyn_cast_or_null<NamedDecl>(A.Address.Base))
      return ND->getNameAsString();
    return "shared memory";
  }

  /// `tile[3][5]` for byte offset \p Off into the shared variable.
  std::string element(const SharedAccess &A, int64_t Off) const {
    return sharedElementName(K.Ctx, A, Off);
  }

  /// ", s = 64": the counters of unrolled loops around the access.
  std::string iterationValues(const SharedAccess &A) const {
    return unrolledIterationValues(K.Trace, A);
  }

  std::string side(const RaceSide &S, const SharedAccess &A) const {
    return thread(S.Thread) + " " + accessVerb(A) + " " +
           element(A, S.Offset) +
           " (line " + std::to_string(line(A.Loc)) + iterationValues(A) + ")";
  }

  std::string carried(const RaceReport &R) const {
    if (!R.CarriedBy)
      return "";
    std::string Loop =
        "the loop at line " + std::to_string(line(R.CarriedBy->getBeginLoc()));
    if (R.Distance == 1)
      return " in the next iteration of " + Loop;
    if (R.Distance > 1)
      return " " + std::to_string(R.Distance) + " iterations later in " + Loop;
    return " in another iteration of " + Loop;
  }

  /// "thread 1 writes the element of s that thread 0 writes (line 9): its
  /// index depends on data (...) but is the same in every lane of a warp".
  std::string uniformIndexMessage(const RaceReport &R,
                                  const SharedAccess &L) const {
    std::ostringstream OS;
    if (R.K == RaceReport::Benign)
      OS << "benign race: ";
    OS << thread(R.Later.Thread) << " writes the element of " << baseName(L)
       << " that " << thread(R.Earlier.Thread) << " writes (line "
       << line(L.Loc) << "): its index depends on data (" << R.Reason
       << ") but is the same in every "
       << (R.IndexPerWarp ? "lane of a warp" : "thread of the block")
       << "; no barrier between them; ";
    if (R.K == RaceReport::Benign)
      OS << "every thread stores the same value";
    else
      OS << "the threads store different values: not a reduction; use an "
            "atomic or a single writer";
    return OS.str();
  }

  /// ": the __syncthreads() at line 247 does not run: no thread of this
  /// block takes its side of the branch at line 246".
  std::string skipped(const RaceReport &R) const {
    if (!R.SkippedBarrier)
      return "";
    std::string At = std::to_string(line(R.SkippedBarrier->getBeginLoc()));
    std::string What = "the barrier at line " + At;
    if (const auto *Call = dyn_cast<CallExpr>(R.SkippedBarrier)) {
      std::string Name = cuda::calleeName(Call);
      What = cuda::barrierOf(Call)
                 ? "the " + Name + "() at line " + At
                 : "the barrier in '" + Name + "' (called at line " + At + ")";
    }
    return ": " + What +
           " does not run: no thread of this block takes its side of the "
           "branch at line " +
           std::to_string(line(R.SkippedBranch->getBeginLoc()));
  }

  std::string raceMessage(const RaceReport &R, const SharedAccess &L,
                          const SharedAccess &E) const {
    if (R.UniformIndex)
      return uniformIndexMessage(R, L);
    std::ostringstream OS;
    OS << side(R.Later, L) << carried(R) << " while " << side(R.Earlier, E)
       << "; no barrier between them" << skipped(R);
    bool BothStores =
        L.Kind == AccessKind::Store && E.Kind == AccessKind::Store;
    unsigned LLine = anchorLine(L, E), ELine = anchorLine(E, L);
    // Both in one call at this line, when not in one function.
    bool SameStatement = R.SameStatement ||
                         (LLine == ELine && L.CallStack != E.CallStack);
    std::string Barrier =
        R.CrossWarp ? "__syncthreads()" : warpBarrier(R, LLine);
    if (R.MisusedBarrier >= 0) {
      OS << ": named barrier " << R.MisusedBarrier << " (line "
         << line(R.MisusedAt)
         << ") would order them if it were used as meant; see its "
            "shmem-named-barrier warning";
    } else if (BothStores && L.E == E.E && !R.CarriedBy) {
      OS << "; the threads store different values: not a reduction; use an "
            "atomic or a single writer";
    } else if (R.CarriedBy) {
      OS << "; add " << Barrier
         << " at the end of the loop body (a trailing barrier) so that the "
            "next iteration waits for this one";
    } else if (R.InBranch && R.CrossWarp) {
      OS << "; " << branchAdvice(R, L, ELine, LLine);
    } else if (SameStatement) {
      OS << "; read into a register, then " << Barrier << ", then write";
    } else if (R.Arms && R.CrossWarp) {
      OS << "; " << armsAdvice(R, L, E);
    } else if (R.UnevenLoop && R.CrossWarp) {
      OS << "; the loop at line " << line(R.UnevenLoop->getBeginLoc())
         << " may run a different number of times in different threads, "
            "so a __syncthreads() in it would be a divergent barrier: run it "
            "as often in every thread (guard its body instead) and add "
         << Barrier << " between line " << ELine << " and line " << LLine;
    } else if (std::string A = asyncAdvice(L, E, ELine); !A.empty()) {
      OS << "; " << A;
    } else {
      OS << "; add " << Barrier;
      if (ELine == LLine)
        OS << " before the " << noun(L) << " at line " << LLine;
      else
        OS << " between line " << ELine << " and line " << LLine;
      if (!R.CrossWarp && R.WarpMask && *R.WarpMask &&
          *R.WarpMask != 0xffffffffu)
        OS << " (the lanes that run line " << LLine
           << "; a __syncwarp() would wait for lanes that never arrive)";
    }
    if (!R.CrossWarp) {
      unsigned WA = R.Later.Thread / K.Trace.Geometry.warpSize();
      OS << " (both threads are in warp " << WA << ")";
      if (L.Volatile || E.Volatile)
        OS << "; 'volatile' does not make warp-synchronous code safe: since "
              "Volta, lanes of a warp are scheduled independently";
    }
    return OS.str();
  }

  /// When the earlier access is an async copy still in flight at the later
  /// one, a barrier between them does not help: the copy completes only at
  /// its issuing thread's wait, which must come first.
  std::string asyncAdvice(const SharedAccess &L, const SharedAccess &E,
                          unsigned ELine) const {
    if (!E.Async || E.Kind != AccessKind::Store || E.AsyncUntracked ||
        (E.AsyncDoneSeq && E.AsyncDoneSeq <= L.Seq))
      return "";
    std::ostringstream OS;
    OS << "line " << ELine << " is an async copy";
    if (E.AsyncDoneSeq)
      OS << ", complete only at the wait at line " << line(E.AsyncDoneLoc)
         << ": move the " << noun(L)
         << " after that wait, and after a barrier that follows every "
            "thread's wait (cg::wait() and a cuda::barrier's "
            "arrive_and_wait() are one)";
    else
      OS << " that no wait completes: wait for it (cp.async.wait_all, "
            "__pipeline_wait_prior(0)), then __syncthreads(), before the "
         << noun(L);
    return OS.str();
  }

  /// The warp barrier for a race within warps: `__syncwarp()` when every
  /// lane runs the later access, else the mask of those that do (a lane of
  /// the mask that never arrives leaves the others waiting).
  static std::string warpBarrier(const RaceReport &R, unsigned LLine) {
    if (!R.WarpMask || *R.WarpMask == 0xffffffffu)
      return "__syncwarp()";
    if (*R.WarpMask == 0)
      return "__syncwarp(mask) (mask: the lanes of each warp that run line " +
             std::to_string(LLine) + ", which differ between warps)";
    return "__syncwarp(" + hexMask(*R.WarpMask) + ")";
  }
  static std::string hexMask(uint32_t M) {
    char Buf[16];
    snprintf(Buf, sizeof Buf, "0x%08x", M);
    return Buf;
  }

  /// Two accesses in the two arms of one branch: a block barrier between
  /// them would be reached by only some threads. With a verified fix, the
  /// named barrier that orders the two groups.
  std::string armsAdvice(const RaceReport &R, const SharedAccess &L,
                         const SharedAccess &E) const {
    const ThreadGeometry &G = K.Trace.Geometry;
    std::string Earlier = divergent::describeWarps(E.Active, G),
                Later = divergent::describeWarps(L.Active, G);
    std::ostringstream OS;
    OS << Earlier << " " << pluralVerb(E) << " and " << Later << " "
       << pluralVerb(L) << " in the two arms of the branch at line "
       << line(R.Arms->getBeginLoc())
       << ", where a __syncthreads() would be a divergent barrier";
    if (const auto &Fix = R.Fix) {
      const SharedAccess &First = K.Trace.Accesses[Fix->ArriveAfter];
      const SharedAccess &Second = K.Trace.Accesses[Fix->WaitBefore];
      std::string Op = std::to_string(Fix->Id) + ", " +
                       std::to_string(Fix->Count) + ";'";
      OS << ": add 'bar.arrive " << Op << " after line "
         << anchorLine(First, Second) << " in "
         << divergent::describeWarps(Fix->Arriving, G) << " and 'bar.sync "
         << Op << " before line " << anchorLine(Second, First) << " in "
         << divergent::describeWarps(Fix->Waiting, G) << " (named barrier "
         << Fix->Id << " for the " << Fix->Count << " threads of both)";
    } else {
      OS << ": order them after the branch, where both groups pass, or "
            "with a named barrier counting the threads of both, "
            "'bar.arrive' after the access that must come first and "
            "'bar.sync' before the other";
    }
    return OS.str();
  }

  /// Both accesses in a branch only some threads take: a block barrier
  /// between them is reached by those only. With a verified fix, the named
  /// barrier for the threads that take it.
  std::string branchAdvice(const RaceReport &R, const SharedAccess &L,
                           unsigned ELine, unsigned LLine) const {
    const ThreadGeometry &G = K.Trace.Geometry;
    std::ostringstream OS;
    OS << "only " << divergent::describeWarps(L.Active, G) << " run "
       << (ELine == LLine ? "line " + std::to_string(LLine)
                          : "lines " + std::to_string(ELine) + " and " +
                                std::to_string(LLine))
       << ", so a __syncthreads() between them would be a divergent "
          "barrier";
    std::string Split = "close the branch before line " +
                        std::to_string(LLine) +
                        ", call __syncthreads() there and open the branch "
                        "again after it";
    if (const auto &Fix = R.Fix) {
      OS << ": add 'bar.sync " << Fix->Id << ", " << Fix->Count
         << ";' before the " << noun(L) << " at line " << LLine
         << " (named barrier " << Fix->Id << " for the " << Fix->Count
         << " threads that run them)";
      if (R.SplitOrders)
        OS << ", or " << Split;
    } else if (R.SplitOrders) {
      OS << ": " << Split;
    } else {
      OS << ": order them where every thread passes, or with a barrier of "
            "the threads that run them";
    }
    return OS.str();
  }

  /// The fix's statements as insertions: `asm volatile("bar.sync ...");`
  /// on a line of its own before Before (and the arrive after After),
  /// indented as the statement is. None in a macro.
  std::vector<FixItHint> fixIts(const RaceReport::BarrierFix &Fix) const {
    const SourceManager &SM = K.Ctx.getSourceManager();
    const LangOptions &LO = K.Ctx.getLangOpts();
    std::string Op = std::to_string(Fix.Id) + ", " + std::to_string(Fix.Count);
    auto Indent = [&](SourceLocation Loc) {
      return std::string(SM.getSpellingColumnNumber(Loc) - 1, ' ');
    };
    // Whether only blanks are between the start of \p Loc's line and it
    // (Ahead), or between it and the end of its line.
    auto Alone = [&](SourceLocation Loc, bool Ahead) {
      bool Invalid = false;
      const char *P = SM.getCharacterData(Loc, &Invalid);
      if (Invalid)
        return false;
      if (Ahead) {
        for (unsigned C = SM.getSpellingColumnNumber(Loc); C > 1; --C)
          if (!isWhitespace(*--P))
            return false;
        return true;
      }
      for (; *P && *P != '\n'; ++P)
        if (!isWhitespace(*P))
          return false;
      return true;
    };
    std::vector<FixItHint> Out;
    if (Fix.Kind == RaceReport::BarrierFix::Trailing) {
      // On a line of its own before the body's closing brace, indented as
      // the body's statements are, or before the brace on its line.
      SourceLocation Brace = Fix.EndOf->getRBracLoc();
      if (Brace.isInvalid() || Brace.isMacroID() || Fix.EndOf->body_empty())
        return {};
      const Stmt *First = *Fix.EndOf->body_begin();
      if (First->getBeginLoc().isMacroID())
        return {};
      if (Alone(Brace, true) &&
          SM.getSpellingLineNumber(Brace) !=
              SM.getSpellingLineNumber(Fix.EndOf->getLBracLoc()))
        return {FixItHint::CreateInsertion(
            Brace.getLocWithOffset(
                -int(SM.getSpellingColumnNumber(Brace) - 1)),
            Indent(First->getBeginLoc()) + "__syncthreads();\n")};
      return {FixItHint::CreateInsertion(Brace, "__syncthreads(); ")};
    }
    if (!Fix.Before || (!Fix.Arriving.empty() && !Fix.After))
      return {};
    SourceLocation Before = Fix.Before->getBeginLoc();
    if (Before.isInvalid() || Before.isMacroID())
      return {};
    if (Fix.After) {
      SourceLocation End = Fix.After->getEndLoc();
      if (End.isMacroID() || Fix.After->getBeginLoc().isMacroID())
        return {};
      SourceLocation At =
          isa<DeclStmt>(Fix.After)
              ? Lexer::getLocForEndOfToken(End, 0, SM, LO)
              : Lexer::findLocationAfterToken(End, tok::semi, SM, LO, false);
      if (At.isInvalid())
        return {};
      std::string Arrive = "asm volatile(\"bar.arrive " + Op + ";\");";
      Out.push_back(FixItHint::CreateInsertion(
          At, Alone(At, false)
                  ? "\n" + Indent(Fix.After->getBeginLoc()) + Arrive
                  : " " + Arrive));
    }
    std::string Sync;
    switch (Fix.Kind) {
    case RaceReport::BarrierFix::NamedPair:
    case RaceReport::BarrierFix::NamedSync:
      Sync = "asm volatile(\"bar.sync " + Op + ";\");";
      break;
    case RaceReport::BarrierFix::BlockSync:
    case RaceReport::BarrierFix::Trailing:
      Sync = "__syncthreads();";
      break;
    case RaceReport::BarrierFix::WarpSync:
      Sync = Fix.Mask == 0xffffffffu ? "__syncwarp();"
                                     : "__syncwarp(" + hexMask(Fix.Mask) + ");";
      break;
    }
    Out.push_back(FixItHint::CreateInsertion(
        Before, Alone(Before, true) ? Sync + "\n" + Indent(Before)
                                    : Sync + " "));
    return Out;
  }

  static const char *pluralVerb(const SharedAccess &A) {
    switch (A.Kind) {
    case AccessKind::Load: return "read";
    case AccessKind::Store: return "write";
    case AccessKind::Atomic: return "update";
    }
    return "access";
  }

  std::string benignMessage(const RaceReport &R, const SharedAccess &L,
                            const SharedAccess &E) const {
    if (R.UniformIndex)
      return uniformIndexMessage(R, L);
    std::ostringstream OS;
    OS << "benign race: " << side(R.Later, L) << " while "
       << side(R.Earlier, E) << " with no barrier between them; ";
    const char *Who = R.CrossWarp ? "every thread" : "every lane of the warp";
    if (L.Kind == AccessKind::Load || E.Kind == AccessKind::Load)
      OS << "the reader stored the value it reads back, and " << Who
         << " stores the same value";
    else
      OS << Who << " stores the same value";
    return OS.str();
  }

  std::string possibleMessage(const RaceReport &R, const SharedAccess &L,
                              const SharedAccess &E) const {
    std::ostringstream OS;
    std::string Name = baseName(L);
    if (R.ReadModifyWrite) {
      OS << "possible race: non-atomic read-modify-write of an element of "
         << Name << " (line " << line(L.Loc)
         << ") whose address depends on data (" << R.Reason
         << "); two threads that pick the same element lose an update; use "
            "an atomic (atomicAdd)";
      return OS.str();
    }
    OS << "possible race: threads " << (L.Kind == AccessKind::Load ? "read" : "write")
       << " an element of " << Name << " (line " << line(L.Loc)
       << ") while other threads "
       << (E.Kind == AccessKind::Load ? "read" : E.Kind == AccessKind::Store
                                                      ? "write"
                                                      : "atomically update")
       << " it (line " << line(E.Loc) << "), and an address depends on data ("
       << R.Reason << "); no barrier between them";
    return OS.str();
  }
};

} // namespace

std::string sharedElementName(const ASTContext &Ctx, const SharedAccess &A,
                              int64_t Off) {
  std::string Name = "shared memory";
  if (const auto *ND = dyn_cast_or_null<NamedDecl>(A.Address.Base))
    Name = ND->getNameAsString();
  if (!A.Address.Base)
    return Name;
  QualType Ty = A.Address.Base->getType();
  std::vector<int64_t> Dims; // 0: unbounded (extern __shared__ x[]).
  while (const ArrayType *AT = Ctx.getAsArrayType(Ty)) {
    const auto *CAT = dyn_cast<ConstantArrayType>(AT);
    Dims.push_back(CAT ? int64_t(CAT->getSize().getZExtValue()) : 0);
    Ty = AT->getElementType();
  }
  std::ostringstream OS;
  OS << Name;
  int64_t Size = Ty->isIncompleteType() || Ty->isDependentType()
                     ? 0
                     : Ctx.getTypeSizeInChars(Ty).getQuantity();
  if (Dims.empty() || Size <= 0 || Off < 0) {
    if (Off)
      OS << " (byte " << Off << ")";
    return OS.str();
  }
  int64_t Index = Off / Size, Rem = Off % Size;
  std::vector<int64_t> Idx(Dims.size());
  for (size_t I = Dims.size(); I-- > 1;) {
    if (Dims[I] <= 0)
      break;
    Idx[I] = Index % Dims[I];
    Index /= Dims[I];
  }
  Idx[0] = Index;
  for (int64_t X : Idx)
    OS << "[" << X << "]";
  if (Rem)
    OS << " (byte " << Rem << ")";
  return OS.str();
}

const char *accessVerb(const SharedAccess &A) {
  switch (A.Kind) {
  case AccessKind::Load: return "reads";
  case AccessKind::Store: return "writes";
  case AccessKind::Atomic: return "atomically updates";
  }
  return "accesses";
}

std::string unrolledIterationValues(const KernelTrace &T,
                                    const SharedAccess &A) {
  std::string S;
  for (unsigned P = 0; P < A.Loops.size(); ++P) {
    if (A.LoopIterations[P] < 0)
      continue;
    auto It = T.Unrolled.find(A.Loops[P]);
    if (It == T.Unrolled.end() || !It->second.Var ||
        size_t(A.LoopIterations[P]) >= It->second.Values.size())
      continue;
    S += ", " + It->second.Var->getNameAsString() + " = " +
         std::to_string(It->second.Values[A.LoopIterations[P]]);
  }
  return S;
}

/// The line \p L is reported at, as the messages name lines.
static std::string lineText(const KernelContext &K, SourceLocation L) {
  const SourceManager &SM = K.Ctx.getSourceManager();
  return std::to_string(SM.getPresumedLineNumber(SM.getExpansionLoc(L)));
}

/// Accesses that meet an async copy still in flight (AsyncCopies.h).
static void reportAsyncCopyRaces(const KernelContext &K, FindingSink &Sink) {
  auto Line = [&](SourceLocation L) { return lineText(K, L); };
  for (const AsyncCopyRace &R : asyncCopyRaces(K.Ctx, K.Trace, K.Opts)) {
    const SharedAccess &C = K.Trace.Accesses[R.Copy];
    const SharedAccess &A = K.Trace.Accesses[R.Access];
    std::string Reader = K.Trace.Geometry.describeThread(R.Thread);
    std::string Writer = K.Trace.Geometry.describeThread(R.Writer);
    std::string Element = sharedElementName(K.Ctx, A, R.Byte);
    std::ostringstream Msg;
    Msg << "race with an async copy: " << Reader << " " << accessVerb(A)
        << " '" << Element << "'";
    if (R.FirstIterationOf)
      Msg << " in the first iteration of the loop at line "
          << Line(R.FirstIterationOf->getBeginLoc());
    Msg << " while the copy "
        << (R.Writer == R.Thread ? "it" : Writer) << " issued at line "
        << Line(C.Loc) << " may still be writing it";
    if (!C.AsyncDoneSeq)
      Msg << "; no wait for that copy follows: add `cp.async.wait_all` "
             "(__pipeline_wait_prior(0)) before the "
          << (A.Kind == AccessKind::Load ? "read" : "write");
    else if (R.Writer == R.Thread)
      Msg << "; the copy is complete only after the wait at line "
          << Line(C.AsyncDoneLoc) << ": " << (A.Kind == AccessKind::Load ? "read" : "write")
          << " after it";
    else
      Msg << "; a barrier does not complete an async copy: " << Writer
          << " must wait for it (line " << Line(C.AsyncDoneLoc)
          << ") before the barrier that orders this "
          << (A.Kind == AccessKind::Load ? "read" : "write");
    Finding F;
    F.Check = CheckKind::Race;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();
    F.Message = Msg.str();
    F.Notes.push_back({C.Loc, "the async copy, by " + Writer});
    if (C.AsyncDoneSeq)
      F.Notes.push_back({C.AsyncDoneLoc, "the wait that completes it"});
    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    Sink.report(F);
  }
}

/// Accesses that meet a TMA copy in flight (BulkCopies.h).
static void reportBulkCopyRaces(const KernelContext &K, FindingSink &Sink) {
  if (K.Trace.BulkCopies.empty())
    return;
  reportUnknownTmaLayouts(K, CheckKind::Race, Sink);
  auto Line = [&](SourceLocation L) { return lineText(K, L); };
  for (const BulkCopyRace &R : bulkCopyRaces(K.Trace, tmaFootprints(K))) {
    const BulkCopyEvent &C = K.Trace.BulkCopies[R.Copy];
    const SharedAccess &A = K.Trace.Accesses[R.Access];
    const ThreadGeometry &G = K.Trace.Geometry;
    std::string Reader = G.describeThread(R.Thread);
    std::string Writer = C.ActiveApprox ? "one thread"
                                        : G.describeThread(R.Writer);
    const char *What = A.Kind == AccessKind::Load ? "read" : "write";
    std::ostringstream Msg;
    Msg << "race with a TMA copy: " << Reader << " " << accessVerb(A) << " '"
        << sharedElementName(K.Ctx, A, R.Byte) << "' while the bulk tensor "
        << "copy " << Writer << " issued at line "
        << Line(kernelSite(C.Loc, C.CallStack))
        << " may still be writing it; ";
    if (!R.Wait) {
      Msg << "no wait on its mbarrier follows the copy: wait for the phase "
             "it completes (mbarrier.try_wait.parity) before the "
          << What;
    } else {
      const BarrierWaitEvent &W = K.Trace.BarrierWaits[*R.Wait];
      std::string WaitLine = Line(kernelSite(W.Loc, W.CallStack));
      if (W.Seq > A.Seq)
        Msg << "the copy is complete only after the wait at line "
            << WaitLine << ": " << What << " after it";
      else
        Msg << Reader << " does not wait on the mbarrier (line " << WaitLine
            << ") and no __syncthreads() after that wait "
            << "comes before the " << What
            << ": wait in every thread that reads the tile, or add "
               "__syncthreads() after the wait";
    }
    Finding F;
    F.Check = CheckKind::Race;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();
    F.Message = Msg.str();
    F.Notes.push_back(
        {kernelSite(C.Loc, C.CallStack), "the TMA copy, by " + Writer});
    if (R.Wait) {
      const BarrierWaitEvent &W = K.Trace.BarrierWaits[*R.Wait];
      F.Notes.push_back(
          {kernelSite(W.Loc, W.CallStack), "the wait that completes it"});
    }
    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    Sink.report(F);
  }
}

/// A copy into bytes another thread still reads from the same thread's
/// earlier copy: the buffer is reused before its readers release it.
static void reportBulkCopyReuses(const KernelContext &K, FindingSink &Sink) {
  auto Line = [&](SourceLocation L) { return lineText(K, L); };
  const ThreadGeometry &G = K.Trace.Geometry;
  for (const BulkCopyReuse &R : bulkCopyReuses(K.Trace, tmaFootprints(K))) {
    const BulkCopyEvent &C = K.Trace.BulkCopies[R.Copy];
    const BulkCopyEvent &E = K.Trace.BulkCopies[R.Earlier];
    const SharedAccess &A = K.Trace.Accesses[R.Access];
    SourceLocation CopySite = kernelSite(C.Loc, C.CallStack);
    SourceLocation EarlierSite = kernelSite(E.Loc, E.CallStack);
    std::string Writer = G.describeThread(R.Writer);
    std::string Reader = G.describeThread(R.Thread);
    std::ostringstream Msg;
    Msg << "race with a TMA copy: the bulk tensor copy " << Writer
        << " issues at line " << Line(CopySite) << " overwrites '"
        << sharedElementName(K.Ctx, A, R.Byte) << "', which " << Reader
        << " reads at line " << Line(kernelSite(A.Loc, A.CallStack));
    if (Line(EarlierSite) == Line(CopySite))
      Msg << " from the same copy's earlier iteration; ";
    else
      Msg << " from the copy at line " << Line(EarlierSite) << "; ";
    if (R.Waits.empty())
      Msg << Writer << " waits on no mbarrier between the two copies: have "
             "the readers arrive on an mbarrier after their reads (an "
             "\"empty\" barrier per stage) and wait on it before copying "
             "into the stage again";
    else
      Msg << Reader << " arrives after its read on no mbarrier that "
          << Writer << " waits on between the two copies (line "
          << Line(kernelSite(K.Trace.BarrierWaits[R.Waits.front()].Loc,
                             K.Trace.BarrierWaits[R.Waits.front()].CallStack))
          << "): arrive on that barrier after the read";
    Finding F;
    F.Check = CheckKind::Race;
    F.Loc = CopySite;
    F.Message = Msg.str();
    F.Notes.push_back({A.Loc, "the read, by " + Reader});
    F.Notes.push_back({EarlierSite, "the earlier copy into these bytes"});
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    Sink.report(F);
  }
}

void checkRaces(const KernelContext &K, FindingSink &Sink) {
  if (K.Trace.SharedPipeline.isValid()) {
    // Producers' copies waited for by consumers, stage by stage: with no
    // barrier between them every pair would look unordered.
    AnalysisGap G;
    G.Check = CheckKind::Race;
    G.Loc = K.Trace.SharedPipeline;
    G.What = "races not analysed";
    G.Why = "the kernel orders shared memory through a cuda::pipeline "
            "shared by the block, whose stages shmem-lint does not follow";
    K.reportGap(Sink, std::move(G));
    return;
  }
  RaceReporter Reporter(K, Sink);
  findRaces(K.Ctx, K.Trace, K.Opts, Reporter, /*Search=*/nullptr, &K.Graphs);
  reportAsyncCopyRaces(K, Sink);
  reportBulkCopyRaces(K, Sink);
  if (!K.Trace.BulkCopies.empty())
    reportBulkCopyReuses(K, Sink);
}

} // namespace shmem
