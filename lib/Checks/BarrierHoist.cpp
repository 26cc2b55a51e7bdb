//===- BarrierHoist.cpp - What a divergent __syncthreads() becomes --------===//
//
// See BarrierHoist.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierHoist.h"

#include "Analysis/NamedBarriers.h"
#include "Analysis/RaceAnalysis.h"

#include "ThreadSets.h"

#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>

using namespace clang;

namespace shmem {
namespace divergent {

/// The racing pairs of one exhaustive analysis (every pair of sites, not
/// only those that could change a finding), by their expressions, with
/// the witness's words; gaps counted.
class BarrierHoist::Races : public RaceHandler {
public:
  Races(const KernelContext &K) : K(K) {}

  struct Race {
    const Expr *Earlier, *Later;
    std::string Words;
  };
  std::vector<Race> Found;
  /// Found's pairs, both ways round.
  std::set<std::pair<const Expr *, const Expr *>> Pairs;
  unsigned Gaps = 0;

  void handleRace(const RaceReport &) override {}
  void handlePair(const RaceReport &R) override {
    if (R.K != RaceReport::Race)
      return;
    const SharedAccess &E = K.Trace.Accesses[R.Earlier.Access];
    const SharedAccess &L = K.Trace.Accesses[R.Later.Access];
    const SourceManager &SM = K.Ctx.getSourceManager();
    auto Line = [&](const SharedAccess &A) {
      return std::to_string(SM.getExpansionLineNumber(A.Loc));
    };
    const ThreadGeometry &G = K.Trace.Geometry;
    std::string Words = G.describeThread(R.Later.Thread) + " " +
                        accessVerb(L) + " " +
                        sharedElementName(K.Ctx, L, R.Later.Offset) +
                        " (line " + Line(L) + ") while " +
                        G.describeThread(R.Earlier.Thread) + " " +
                        accessVerb(E) + " it (line " + Line(E) + ")";
    Found.push_back({E.E, L.E, std::move(Words)});
    Pairs.insert({E.E, L.E});
    Pairs.insert({L.E, E.E});
  }
  void handleCut(unsigned, unsigned long long) override { ++Gaps; }
  void handleGap(unsigned, std::string, std::string) override { ++Gaps; }

private:
  const KernelContext &K;
};

BarrierHoist::BarrierHoist(const KernelContext &K) : K(K) {}
BarrierHoist::~BarrierHoist() = default;

const BarrierHoist::Races &BarrierHoist::asWritten() {
  if (!AsWritten) {
    AsWritten = std::make_unique<Races>(K);
    RaceSearch Search;
    Search.Exhaustive = true;
    findRacesWith(K.Ctx, K.Trace, K.Opts, *AsWritten, Search, {}, &K.Graphs);
  }
  return *AsWritten;
}

FixVerdict BarrierHoist::judge(const std::vector<unsigned> &Events,
                               int64_t Id, const std::vector<char> &Threads) {
  const Races &Before = asWritten();
  KernelTrace WhatIf = K.Trace;
  std::vector<VirtualBarrierUse> Uses;
  int64_t Count = std::count(Threads.begin(), Threads.end(), 1);
  for (unsigned Ev : Events) {
    WhatIf.Barriers[Ev].Named = true;
    VirtualBarrierUse U;
    U.Id = Id;
    U.Count = Count;
    U.Threads = Threads;
    U.AtBarrier = Ev;
    Uses.push_back(std::move(U));
  }
  Races With(K);
  RaceSearch Search;
  Search.Exhaustive = true;
  findRacesWith(K.Ctx, WhatIf, K.Opts, With, Search, std::move(Uses),
                &K.Graphs);
  FixVerdict V;
  if (With.Gaps > Before.Gaps) {
    V.Unknown = true;
    return V;
  }
  for (const Races::Race &R : With.Found)
    if (!Before.Pairs.count({R.Earlier, R.Later})) {
      V.Race = R.Words;
      return V;
    }
  V.Holds = true;
  for (const Races::Race &R : Before.Found)
    if (!With.Pairs.count({R.Earlier, R.Later})) {
      if (V.Orders.empty())
        V.FirstOrdered = R.Words;
      V.Orders.insert({R.Earlier, R.Later});
    }
  return V;
}

/// What reopening the branch after the barrier needs: the condition read
/// before the branch changes it, and its declarations moved out.
static std::string splitCaveats(const IfStmt *If, const CompoundStmt *Arm,
                                const CallExpr *Barrier) {
  std::set<const ValueDecl *> Read;
  std::function<void(const Stmt *)> Reads = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      Read.insert(DR->getDecl());
    for (const Stmt *C : S->children())
      Reads(C);
  };
  Reads(If->getCond());
  std::set<std::string> Changed, Declared;
  std::function<void(const Stmt *)> Writes = [&](const Stmt *S) {
    if (!S)
      return;
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    if (Target)
      if (const auto *DR =
              dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
          DR && Read.count(DR->getDecl()))
        Changed.insert(DR->getDecl()->getNameAsString());
    for (const Stmt *C : S->children())
      Writes(C);
  };
  for (const Stmt *S : Arm->body()) {
    if (S == Barrier)
      break;
    Writes(S);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Declared.insert(V->getNameAsString());
  }
  std::string Out;
  auto List = [](const std::set<std::string> &Names) {
    std::string L;
    for (const std::string &N : Names)
      L += (L.empty() ? "'" : ", '") + N + "'";
    return L;
  };
  if (!Changed.empty())
    Out += ", kept in a variable before the branch (it changes " +
           List(Changed) + ")";
  if (!Declared.empty())
    Out += ", and " + List(Declared) + " declared before the branch";
  return Out;
}

std::string BarrierHoist::advice(const CallExpr *Call,
                                 const BranchInfo &Primary,
                                 const std::vector<const BarrierEvent *> &Evs,
                                 const std::vector<char> &Active,
                                 const ParentMap &PM, Finding &F) {
  const auto *If = dyn_cast_or_null<IfStmt>(Primary.Construct);
  if (!If)
    return "";
  std::vector<unsigned> Events;
  for (const BarrierEvent *Ev : Evs)
    Events.push_back(unsigned(Ev - K.Trace.Barriers.data()));
  HoistWhatIf W = whatIf(Events, Active);
  std::ostringstream OS;
  // Splitting the branch is one place only when the barrier is a
  // statement of the braces of one of its arms.
  const auto *Arm = dyn_cast_or_null<CompoundStmt>(PM.getParent(Call));
  bool SaidSplit = Arm && (Arm == If->getThen() || Arm == If->getElse()) &&
                   W.Split.Holds;
  if (SaidSplit)
    OS << ": end the branch before line "
       << K.Ctx.getSourceManager().getExpansionLineNumber(
              Call->getBeginLoc())
       << " and open it again after the barrier, with the same condition"
       << splitCaveats(If, Arm, Call)
       << " (analysed with every thread waiting there: no new race"
       << (W.Split.FirstOrdered.empty()
               ? std::string()
               : ", and it orders what the branch leaves racing: " +
                     W.Split.FirstOrdered)
       << ")";
  if (!W.NamedId)
    return OS.str();
  std::string Op = "bar.sync " + std::to_string(*W.NamedId) + ", " +
                   std::to_string(W.NamedCount) + ";";
  std::string Who = describeWarps(Active, K.Trace.Geometry);
  // The named barrier orders nothing for the other threads: where the
  // hoisted one orders a race it leaves, it is the lesser fix.
  bool Lesser = W.Split.Holds &&
                llvm::any_of(W.Split.Orders, [&](const auto &P) {
                  return !W.Named.Orders.count(P);
                });
  if (W.Named.Holds && Lesser) {
    OS << "; a named barrier for " << Who << " alone ('" << Op
       << "') would leave "
       << (SaidSplit ? "that race"
                     : "a race a barrier of every thread orders: " +
                           W.Split.FirstOrdered);
  } else if (W.Named.Holds) {
    OS << "; or, since " << Who
       << " are the threads that reach it, make it their named barrier, "
          "asm volatile(\""
       << Op << "\") (analysed: no new race)";
    if (!Call->getBeginLoc().isMacroID() && !Call->getEndLoc().isMacroID())
      F.Fixes.push_back(FixItHint::CreateReplacement(
          Call->getSourceRange(), "asm volatile(\"" + Op + "\")"));
  } else if (!W.Named.Race.empty()) {
    OS << "; a named barrier for " << Who << " alone ('" << Op
       << "') would not do: " << W.Named.Race;
  }
  return OS.str();
}

HoistWhatIf BarrierHoist::whatIf(const std::vector<unsigned> &Events,
                                 const std::vector<char> &Active) {
  HoistWhatIf Out;
  const ThreadGeometry &G = K.Trace.Geometry;
  unsigned N = G.threads();
  // Hoisted: every thread that has not exited waits there.
  std::vector<char> Alive(N, 1);
  bool AnyExited = false;
  for (unsigned Ev : Events) {
    const BarrierEvent &B = K.Trace.Barriers[Ev];
    for (unsigned Th = 0; Th < N && Th < B.Exited.size(); ++Th)
      if (B.Exited[Th]) {
        Alive[Th] = 0;
        AnyExited = true;
      }
  }
  Out.Split = judge(Events, VirtualBarrierId, Alive);

  // Named: the threads that reach it, when each event has them all and
  // they are whole warps (a bar.sync counts warps).
  if (AnyExited || !G.wholeWarps(Active))
    return Out;
  for (unsigned Ev : Events)
    if (K.Trace.Barriers[Ev].Active != Active)
      return Out;
  Out.NamedId = NamedBarriers(K.Trace).freeId();
  if (!Out.NamedId)
    return Out;
  Out.NamedCount = std::count(Active.begin(), Active.end(), 1);
  Out.Named = judge(Events, *Out.NamedId, Active);
  return Out;
}

} // namespace divergent
} // namespace shmem
