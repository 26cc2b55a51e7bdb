//===- DivergentBarrier.cpp - shmem-divergent-barrier ---------------------===//
//
// A barrier must be reached by every thread it waits for: __syncthreads() by
// the whole block, __syncwarp(mask) by every lane of its mask, a tile's
// sync() by the whole tile, grid.sync() by the whole grid. The decision comes
// from the uniformity analysis (Uniformity.h): a barrier is divergent when it
// is control dependent on a branch whose condition is not uniform at the
// barrier's scope, which catches data-dependent conditions, early returns,
// jumps and thread-dependent trip counts alike, in the kernel and in the
// __device__ functions it calls. Threads that returned from the kernel do
// not count for a block barrier (a bar.sync waits for the threads that have
// not exited) unless StrictExits; what such exits break, survivors reading
// elements only exited threads would write, is ExitedThreadData.cpp's.
//
// The kernel trace's per-thread masks (exact unless ActiveApprox) supply the
// witness ("reached only by threads with threadIdx.x < 128") and settle the
// warp-level cases, where a partial mask is correct exactly when it names
// the lanes that take the branch.
//
// runChecks calls the check once per kernel and block shape. A barrier is
// reported once per translation unit, for the first shape and call path
// that shows the problem: the check's OncePolicy is First (Checks.def), and
// it skips a barrier runChecks has already kept.
//
// What each statement is as a barrier comes from BarrierSites.h, the words
// of the findings from BarrierMessages.h, ThreadSets.h and WarpMasks.h (which
// also judges warp masks against the lanes that arrive), and whether
// hoisting a __syncthreads() out of its branch, or making it the named
// barrier of the warps that reach it, keeps the kernel race-free from
// BarrierHoist.h; this file decides.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "BarrierHoist.h"
#include "BarrierMessages.h"
#include "BarrierSites.h"
#include "ExitedThreadData.h"
#include "ThreadSets.h"
#include "WarpMasks.h"

#include "Analysis/ExprUtil.h"
#include "Analysis/Program/CallContexts.h"
#include "Analysis/Uniformity.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <cstring>
#include <sstream>

using namespace clang;

namespace shmem {
using namespace divergent;

namespace {

using cuda::calleeName;

class DivergentBarrierChecker {
public:
  DivergentBarrierChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), Sink(Sink),
        UA(K.Ctx, &K.Trace.Geometry, K.Opts.InlineDepth, &K.Graphs), Hoist(K) {}

  void run() {
    UA.setStepCap(K.Opts.UniformityStepCap);
    const FunctionUniformity &FU = UA.analyzeKernel(K.Kernel);
    if (!FU.converged()) {
      // The levels are the last state, not a fixpoint: a barrier judged
      // uniform may not be. Said, so that no one reads silence as safety.
      AnalysisGap G;
      G.Check = CheckKind::DivergentBarrier;
      G.Loc = K.Kernel->getLocation();
      G.What = "which threads reach each barrier not settled";
      G.Why = "the uniformity fixpoint reached its step cap";
      K.reportGap(Sink, std::move(G));
    }
    std::vector<const CallExpr *> Chain;
    // Each finding goes to runChecks as it is found, so that a barrier met
    // again on another call path is skipped; runChecks emits them in
    // source order.
    visit(FU, Chain);
    // The survivors' reads of what only exited threads would have written.
    std::vector<Finding> ExitFindings;
    findExitedThreadReads(K, Exited, ExitFindings);
    for (const Finding &F : ExitFindings)
      Sink.report(F);
  }

private:
  const KernelContext &K;
  FindingSink &Sink;
  UniformityAnalysis UA;
  /// The what-ifs of hoisting, sharing one analysis of the kernel's races.
  BarrierHoist Hoist;
  /// Barriers divergent only through early exits (see check()).
  std::vector<ExitedBarrier> Exited;

  const ThreadGeometry &geometry() const { return K.Trace.Geometry; }

  /// Every barrier and every call into a function with a barrier, in \p FU
  /// and, in their calling contexts, in the functions it calls.
  void visit(const FunctionUniformity &FU,
             std::vector<const CallExpr *> &Chain) {
    if (!FU.valid())
      return;
    for (const CFGBlock *B : FU.blocks()) {
      // Code no thread runs in this context waits for no one.
      if (!FU.reached(B))
        continue;
      for (const CFGElement &E : *B) {
        auto CS = E.getAs<CFGStmt>();
        if (!CS)
          continue;
        const Stmt *S = CS->getStmt();
        if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
          if (auto Site = barrierAsm(Asm))
            check(FU, Chain, *Site);
          continue;
        }
        const auto *Call = dyn_cast<CallExpr>(S);
        if (!Call)
          continue;
        if (auto Site = barrierCall(Call, FU, K.Ctx)) {
          check(FU, Chain, *Site);
          continue;
        }
        if (cuda::isMaskedCollective(Call)) {
          check(FU, Chain, collectiveSite(Call, FU, Chain));
          continue;
        }
        const FunctionDecl *Def = followedCallee(Call, K.Ctx);
        if (!Def)
          continue;
        const BarrierContent &C = K.Graphs.barrierContents().of(Def);
        if (!C.any() && C.CollectivePath.empty())
          continue;
        check(FU, Chain, callSite(Call, Def, C));
        if (const FunctionUniformity *Sub = FU.callee(Call);
            Sub && Chain.size() < K.Opts.InlineDepth) {
          Chain.push_back(Call);
          visit(*Sub, Chain);
          Chain.pop_back();
        }
      }
    }
  }

  BarrierSite callSite(const CallExpr *Call, const FunctionDecl *Def,
                       const BarrierContent &C) {
    BarrierSite Site;
    Site.S = Call;
    Site.Callee = Def;
    // The strictest barrier decides: block, then whole warps, then lanes.
    if (!C.BlockPath.empty()) {
      Site.Path = C.BlockPath;
      Site.Sc = Scope::Block;
    } else if (!C.CountedPath.empty()) {
      Site.Path = C.CountedPath;
      Site.Sc = Scope::Counted;
    } else if (!C.WarpPath.empty()) {
      Site.Path = C.WarpPath;
      Site.Sc = Scope::Warp;
    } else {
      Site.Path = C.CollectivePath;
      Site.Sc = Scope::Warp;
      Site.Collective = true;
    }
    const Stmt *Barrier = Site.Path.back();
    if (const auto *BC = dyn_cast<CallExpr>(Barrier)) {
      Site.Name = text(BC, K.Ctx, 40);
      if (Site.Name.empty())
        Site.Name = calleeName(BC) + "()";
    } else if (auto A = barrierAsm(cast<GCCAsmStmt>(Barrier))) {
      Site.Name = A->Name;
    }
    // For warp barriers in callees the masks come with the trace's events.
    return Site;
  }

  /// A warp collective called here. Its mask is the constant or exact
  /// value of argument 0, else the one the walk found in every execution
  /// (a ballot or __activemask() it could evaluate).
  BarrierSite collectiveSite(const CallExpr *Call, const FunctionUniformity &FU,
                             const std::vector<const CallExpr *> &Chain) {
    BarrierSite Site;
    Site.S = Call;
    Site.Sc = Scope::Warp;
    Site.Collective = true;
    Site.Name = text(Call, K.Ctx, 40);
    if (Site.Name.empty())
      Site.Name = calleeName(Call) + "()";
    const Expr *Mask = Call->getArg(0);
    if (auto C = foldInteger(Mask, K.Ctx)) {
      Site.Mask = uint32_t(*C);
    } else if (const UniformityValue *V = FU.value(Mask); V && V->PerThread) {
      if (auto C = V->PerThread->asConstant())
        Site.Mask = uint32_t(*C);
    }
    if (!Site.Mask) {
      std::vector<const BarrierEvent *> Evs = events(Site, Chain);
      if (!Evs.empty() && llvm::all_of(Evs, [&](const BarrierEvent *Ev) {
            return Ev->WarpMask && Ev->WarpMask == Evs.front()->WarpMask;
          }))
        Site.Mask = Evs.front()->WarpMask;
    }
    return Site;
  }

  /// A branch that threads leave only by returning from the kernel, with
  /// the barrier after it: the lanes that go are gone, and a warp barrier or
  /// collective waits only for the non-exited lanes of its mask (CUDA
  /// guide, warp shuffle and __syncwarp), so the branch does not decide it.
  bool exitsKernel(const BranchInfo &Br, const BarrierSite &Site,
                   const FunctionUniformity &FU,
                   const std::vector<const CallExpr *> &Chain) {
    const Stmt *Exit = nullptr;
    return Chain.empty() && reasonFor(Br, Site, FU, Exit) == Reason::Return &&
           llvm::all_of(Br.Exits,
                        [](const Stmt *S) { return isa<ReturnStmt>(S); }) &&
           !inOneLoop(Br.Construct, Site.S, FU.parents());
  }

  /// Whether a loop holds both \p Branch and \p Barrier. A thread that
  /// returns there has waited at the barrier in the iterations before, and
  /// the survivors of `for (r ...) { if (tid == r) return; ... __syncthreads(); }`
  /// hang on an H200 (bench/gpu/crosscheck, fourth run): that is not the
  /// early exit that bar.sync tolerates, and it stays a divergent barrier.
  static bool inOneLoop(const Stmt *Branch, const Stmt *Barrier,
                        const ParentMap &PM) {
    if (!Branch || !Barrier)
      return false;
    for (const Stmt *P = PM.getParent(Branch); P; P = PM.getParent(P))
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P) &&
          isWithin(Barrier, P, PM))
        return true;
    return false;
  }

  static UniformityLevel threshold(Scope S) {
    switch (S) {
    case Scope::Grid:
      return UniformityLevel::BlockUniform;
    case Scope::Block:
      return UniformityLevel::WarpUniform;
    default:
      return UniformityLevel::Varying;
    }
  }

  /// The trace's events for a site: the barrier itself, or for a call the
  /// barriers it executes, reached through \p Chain.
  /// For a call, only the barriers of the site's kind (block or warp)
  /// unless \p AnyKind.
  std::vector<const BarrierEvent *>
  events(const BarrierSite &Site, const std::vector<const CallExpr *> &Chain,
         bool AnyKind = false) {
    std::vector<const BarrierEvent *> Out;
    bool WarpKind = Site.Sc == Scope::Warp || Site.Sc == Scope::Tile;
    for (const BarrierEvent &Ev :
         Site.Collective ? K.Trace.Collectives : K.Trace.Barriers) {
      if (Ev.CallStack.size() < Chain.size() ||
          !std::equal(Chain.begin(), Chain.end(), Ev.CallStack.begin()))
        continue;
      if (Site.Callee) {
        if (Ev.CallStack.size() > Chain.size() &&
            Ev.CallStack[Chain.size()] == Site.S &&
            (AnyKind || (Ev.Kind == BarrierKind::Block) != WarpKind))
          Out.push_back(&Ev);
        continue;
      }
      if (Ev.CallStack.size() != Chain.size())
        continue;
      if (Ev.E ? Ev.E == Site.S
               : isa<GCCAsmStmt>(Site.S) &&
                     Ev.Loc == cast<GCCAsmStmt>(Site.S)->getAsmLoc())
        Out.push_back(&Ev);
    }
    return Out;
  }

  Reason reasonFor(const BranchInfo &Br, const BarrierSite &Site,
                   const FunctionUniformity &FU, const Stmt *&Exit) {
    Exit = nullptr;
    if (Br.IsLoopCondition)
      return Reason::Loop;
    if (isWithin(Site.S, Br.Construct, FU.parents()))
      return Reason::Inside;
    if (Br.Exits.empty())
      return Reason::Inside;
    Exit = Br.Exits.front();
    if (isa<ReturnStmt>(Exit))
      return Reason::Return;
    if (isa<ContinueStmt>(Exit))
      return Reason::Continue;
    if (isa<BreakStmt>(Exit))
      return Reason::Break;
    return Reason::Goto;
  }

  /// A __syncthreads() in the kernel body, or a call to a function that
  /// executes one, that every thread reaches unless it returned through one
  /// of \p Deciders: its trace events say which threads have exited by
  /// then, for the data check.
  void noteExitedBarrier(const BarrierSite &Site,
                         llvm::ArrayRef<const BranchInfo *> Deciders) {
    ExitedBarrier B;
    B.Barrier = Site.S;
    B.Call = Site.Callee != nullptr;
    for (const BranchInfo *Br : Deciders) {
      B.Conditions.push_back(Br->Condition);
      for (const Stmt *R : Br->Exits)
        if (!llvm::is_contained(B.Returns, R))
          B.Returns.push_back(R);
    }
    Exited.push_back(std::move(B));
  }

  /// A `thread_group`'s sync(), or a call whose barriers are all tile
  /// syncs, has a tile's scope when the walk saw every barrier there wait
  /// for a tile of one size (a thread_group holding a tile; a tile passed
  /// to the callee). A call's scope otherwise comes from the kind of its
  /// barriers alone, which takes a tile's sync for the whole warp's.
  BarrierSite heldTileScope(BarrierSite Site,
                            const std::vector<const CallExpr *> &Chain) {
    if (Site.Sc != Scope::Group &&
        !(Site.Callee && (Site.Sc == Scope::Block || Site.Sc == Scope::Warp)))
      return Site;
    std::vector<const BarrierEvent *> Evs = events(Site, Chain, /*AnyKind=*/true);
    if (Evs.empty())
      return Site;
    unsigned Tile = Evs.front()->TileSize;
    for (const BarrierEvent *Ev : Evs)
      if (Ev->TileSize != Tile)
        return Site;
    if (Tile == 0)
      return Site;
    Site.Sc = Scope::Tile;
    Site.TileSize = Tile;
    return Site;
  }

  void check(const FunctionUniformity &FU,
             const std::vector<const CallExpr *> &Chain,
             const BarrierSite &StaticSite) {
    SourceLocation Loc = isa<GCCAsmStmt>(StaticSite.S)
                             ? cast<GCCAsmStmt>(StaticSite.S)->getAsmLoc()
                             : StaticSite.S->getBeginLoc();
    if (K.alreadyReported(CheckKind::DivergentBarrier, Loc))
      return;
    const BarrierSite Site = heldTileScope(StaticSite, Chain);
    auto Deciders = FU.controllingBranches(Site.S, threshold(Site.Sc));
    if (Site.Sc == Scope::Tile)
      llvm::erase_if(Deciders, [&](const BranchInfo *Br) {
        return uniformWithin(FU.conditionValue(*Br), Site.TileSize);
      });
    // Since PTX ISA 6 a bar.sync waits only for the threads that have not
    // exited: threads that returned from the kernel do not hold up a block
    // barrier, so the branches that only lead to such a return do not make
    // it divergent. What they can break is the data the survivors read
    // (ExitedThreadData.h). Only the kernel's own returns are exits: a
    // return from a __device__ function goes on in its caller. A warp
    // barrier or collective likewise needs only the non-exited lanes of
    // its mask, whatever StrictExits says (it is about the CUDA C++
    // guide's reading of block barriers).
    llvm::SmallVector<const BranchInfo *, 2> ExitDeciders;
    for (const BranchInfo *Br : Deciders)
      if (exitsKernel(*Br, Site, FU, Chain))
        ExitDeciders.push_back(Br);
    if (Site.Sc == Scope::Block) {
      if (!ExitDeciders.empty() && ExitDeciders.size() == Deciders.size() &&
          !isa<GCCAsmStmt>(Site.S))
        noteExitedBarrier(Site, ExitDeciders);
      if (K.Opts.StrictExits)
        ExitDeciders.clear();
    } else if (Site.Sc != Scope::Warp) {
      ExitDeciders.clear();
    }
    llvm::erase_if(Deciders, [&](const BranchInfo *Br) {
      return llvm::is_contained(ExitDeciders, Br);
    });
    if (Deciders.empty()) {
      // A block barrier reached by every thread that has not exited: the
      // data check judges the rest.
      if (Site.Sc != Scope::Block || ExitDeciders.empty())
        checkUnconditionalMask(Chain, Site, Loc);
      return;
    }
    const BranchInfo &Primary = *Deciders.front();
    // The walker's masks follow branches thread by thread within one pass
    // over a loop body, but not trip counts nor threads that left the loop
    // in an earlier iteration: under such branches they say nothing.
    bool LoopDecider = llvm::any_of(Deciders, [](const BranchInfo *Br) {
      return Br->IsLoopCondition || Br->LeavesLoop;
    });
    const Stmt *Exit = nullptr;
    Reason Why = reasonFor(Primary, Site, FU, Exit);

    std::vector<const BarrierEvent *> Evs = events(Site, Chain);
    bool Exact = !Evs.empty() && !LoopDecider &&
                 llvm::none_of(Evs, [](const BarrierEvent *Ev) {
                   return Ev->ActiveApprox;
                 });
    std::vector<char> Active(geometry().threads(), 0);
    for (const BarrierEvent *Ev : Evs)
      for (unsigned T = 0; T < Active.size() && T < Ev->Active.size(); ++T)
        Active[T] |= Ev->Active[T];
    unsigned Count = std::count(Active.begin(), Active.end(), 1);
    // The decision is the uniformity analysis's. A mask in which every
    // thread (or none) reaches the barrier means the walker did not see the
    // split (a value that varies only after a loop, say): it then gives no
    // witness, and no verdict on warp masks either.
    if (Count == Active.size() || Count == 0)
      Exact = false;

    std::string Subject =
        Site.Callee ? "the call to " + callName(cast<CallExpr>(Site.S), K.Ctx) +
                          " executes " + Site.Name + " but"
                    : Site.Name;
    std::ostringstream Msg;
    bool UsedMask = false;
    bool Warpish = Site.Sc == Scope::Warp || Site.Sc == Scope::Tile;
    // What a collective that not every lane of its mask executes gives:
    // the CUDA guide leaves its result undefined.
    const std::string Undefined = "so the result is undefined";
    if (Why == Reason::Loop) {
      if (Site.Sc == Scope::Warp && !Site.Callee && Site.Mask != 0xffffffffu)
        return; // A partial mask in a lane-dependent loop: no claim.
      std::string Cond = text(Primary.Condition, K.Ctx);
      Msg << Subject << " runs a " << (Warpish ? "lane" : "thread")
          << "-dependent number of times: the condition "
          << (Cond.empty() ? std::string("of the loop")
                           : "'" + Cond + "' of the loop")
          << " at line " << line(Primary.Construct) << " differs between "
          << (Warpish ? "lanes" : "threads") << ", "
          << (Site.Collective ? Undefined : consequence(Why, Site.Sc));
    } else if (Site.Sc == Scope::Warp) {
      if (!Site.Callee && !Site.Mask)
        return; // A computed mask: no claim.
      if (Exact) {
        bool Extra = false;
        std::string Mismatch = laneMismatch(Site, Evs, geometry(), Extra);
        if (Mismatch.empty() || (Extra && shapeGuessed(Site)))
          return;
        Msg << Subject << " " << Mismatch
            << (Extra              ? "; that is undefined behaviour"
                : Site.Collective ? ", " + Undefined
                                   : ", so the warp may hang");
        UsedMask = true;
      } else {
        if (!Site.Callee && Site.Mask != 0xffffffffu)
          return; // A partial mask under an unknown condition: no claim.
        Msg << Subject << " is reached only by "
            << conditionWitness(Primary, Site, FU, /*Lanes=*/true, K.Ctx)
            << ", but every lane of the warp must reach it, "
            << (Site.Collective ? Undefined : "so the warp may hang");
      }
    } else if (Site.Sc == Scope::Tile) {
      if (Exact) {
        std::string Mismatch = tileMismatch(Site, Evs);
        if (Mismatch.empty())
          return;
        Msg << Subject << " " << Mismatch << ", so the tile may hang";
        UsedMask = true;
      } else {
        Msg << Subject << " is reached only by "
            << conditionWitness(Primary, Site, FU, /*Lanes=*/false, K.Ctx)
            << ", but every thread of the " << Site.TileSize
            << "-thread tile must reach it, so the tile may hang";
      }
    } else {
      if (Exact && Site.Sc != Scope::Grid) {
        Msg << Subject << " is reached only by "
            << describeThreads(Active, geometry()) << " (" << Count << " of "
            << Active.size() << " threads)";
        UsedMask = true;
      } else {
        Msg << Subject << " is reached only by "
            << conditionWitness(Primary, Site, FU, /*Lanes=*/false, K.Ctx);
      }
      Msg << "; the other threads " << skipText(Why) << ", "
          << consequence(Why, Site.Sc);
    }

    Finding F;
    F.Check = CheckKind::DivergentBarrier;
    F.Loc = Loc;
    F.Range = Site.S->getSourceRange();
    F.Message = Msg.str();

    const UniformityValue &CV = FU.conditionValue(Primary);
    std::string Depends = CV.Source.K == VarianceSource::None
                              ? std::string("values that differ between threads")
                              : describeSource(CV.Source, K.Ctx);
    std::string Fix = fixFor(Why, Site.Sc);
    if (Why == Reason::Inside && Exact && Site.Sc == Scope::Block &&
        Deciders.size() == 1)
      if (const auto *Call = dyn_cast<CallExpr>(Site.S);
          Call && !Site.Callee)
        Fix += Hoist.advice(Call, Primary, Evs, Active,
                            UA.analyzeKernel(K.Kernel).parents(), F);
    if (Site.Collective)
      for (size_t At; (At = Fix.find("the barrier")) != std::string::npos;)
        Fix.replace(At, strlen("the barrier"), "the call");
    F.Notes.push_back({Primary.Condition->getBeginLoc(),
                       "this condition depends on " + Depends + "; " + Fix});
    if (Exit && Why != Reason::Inside && Why != Reason::Loop) {
      const char *What = Why == Reason::Return     ? "return early here"
                         : Why == Reason::Continue ? "continue here"
                         : Why == Reason::Break    ? "break out of the loop here"
                                                   : "jump away here";
      F.Notes.push_back({Exit->getBeginLoc(),
                         std::string("the threads that do not reach the ") +
                             (Site.Collective ? "call " : "barrier ") + What});
    }
    addContextNotes(F, Site, Chain, UsedMask);
    Sink.report(F);
  }

  /// A __syncwarp(mask) that no thread-dependent branch guards can still be
  /// wrong: a constant mask that leaves out lanes which execute it (e.g.
  /// __syncwarp(0xffff) run by the whole warp). Every calling lane must be in
  /// its own mask; compute-sanitizer's synccheck reports "Invalid arguments".
  void checkUnconditionalMask(const std::vector<const CallExpr *> &Chain,
                              const BarrierSite &Site, SourceLocation Loc) {
    if (Site.Sc != Scope::Warp || Site.Callee || !Site.Mask ||
        *Site.Mask == 0xffffffffu)
      return;
    std::vector<const BarrierEvent *> Evs = events(Site, Chain);
    if (Evs.empty() || llvm::any_of(Evs, [](const BarrierEvent *Ev) {
          return Ev->ActiveApprox;
        }))
      return;
    bool Extra = false;
    std::string Mismatch = laneMismatch(Site, Evs, geometry(), Extra);
    // Lanes the mask names but that never arrive are the branch case, which
    // needs a decider; with none, only lanes outside the mask are a finding.
    if (Mismatch.empty() || !Extra || shapeGuessed(Site))
      return;
    Finding F;
    F.Check = CheckKind::DivergentBarrier;
    F.Loc = Loc;
    F.Range = Site.S->getSourceRange();
    F.Message = Site.Name + " " + Mismatch +
                "; that is undefined behaviour: every lane that executes it "
                "must be in its mask";
    std::ostringstream Fix;
    Fix << "name every executing lane in the mask (0x" << std::hex
        << *Site.Mask << " names lanes "
        << rangeList(maskLanes(*Site.Mask))
        << "), or execute it only on those lanes";
    F.Notes.push_back({Loc, Fix.str()});
    addContextNotes(F, Site, Chain, /*UsedMask=*/true);
    Sink.report(F);
  }

  /// A collective's lanes outside its mask under a block shape that was
  /// assumed, not stated: a partial constant mask usually encodes the real
  /// block width (cuda-samples' reduce7<T, 16> computes 0xffff from its
  /// block size), so the extra lanes are the guess's, not the kernel's.
  bool shapeGuessed(const BarrierSite &Site) const {
    return Site.Collective && K.Trace.GeometryAssumed;
  }

  /// The notes every finding carries: the call path to the barrier, the
  /// kernel and instantiation, and the block shape when thread sets were
  /// computed for it.
  void addContextNotes(Finding &F, const BarrierSite &Site,
                       const std::vector<const CallExpr *> &Chain,
                       bool UsedMask) {
    for (size_t I = 0; I + 1 < Site.Path.size(); ++I)
      if (const auto *C = dyn_cast<CallExpr>(Site.Path[I]))
        F.Notes.push_back(
            {C->getBeginLoc(), "which calls '" + calledName(C) + "' here"});
    if (!Site.Path.empty()) {
      const Stmt *B = Site.Path.back();
      SourceLocation BL = isa<GCCAsmStmt>(B) ? cast<GCCAsmStmt>(B)->getAsmLoc()
                                             : B->getBeginLoc();
      F.Notes.push_back({BL, Site.Collective ? "the collective is here"
                                             : "the barrier is here"});
    }
    if (!Chain.empty())
      F.Notes.push_back(kernelCallNote(K, Chain.front()->getBeginLoc()));
    addInstantiationNote(K, F.Notes);
    if (UsedMask)
      F.Notes.push_back(blockShapeNote(K));
  }

  unsigned line(const Stmt *S) const {
    return K.Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
  }
};

} // namespace

void checkDivergentBarriers(const KernelContext &K, FindingSink &Sink) {
  DivergentBarrierChecker(K, Sink).run();
}

} // namespace shmem
