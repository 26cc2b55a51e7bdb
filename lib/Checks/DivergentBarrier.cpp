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
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "ExitedThreadData.h"

#include "Analysis/Program/CallContexts.h"
#include "Analysis/Program/CudaModel.h"
#include "Analysis/Uniformity.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <sstream>

using namespace clang;

namespace shmem {
namespace {

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

/// Whom a barrier waits for.
enum class Scope {
  Grid,    ///< grid.sync(): every thread of the launch.
  Block,   ///< __syncthreads(), block.sync(), bar.sync 0.
  Counted, ///< bar.sync with a thread count: whole warps.
  Warp,    ///< __syncwarp(mask): the lanes of the mask.
  Tile,    ///< thread_block_tile<N>::sync(): the tile.
  Group,   ///< thread_group::sync(): some group of whole warps or tiles.
};

struct BarrierSite {
  const Stmt *S = nullptr; ///< The call or asm statement.
  Scope Sc = Scope::Block;
  unsigned TileSize = 0;
  /// For Warp: the mask, when constant.
  std::optional<uint32_t> Mask;
  std::string Name; ///< "__syncthreads()", as written when short.
  /// A warp collective with a mask (`__shfl_sync`, `__ballot_sync`, ...;
  /// Sc is Warp), or a call to a function that executes one: every
  /// non-exited lane of the mask must execute it, and only those. Its
  /// events are KernelTrace::Collectives.
  bool Collective = false;
  /// For a call to a function that executes a barrier: the callee, and the
  /// calls and barrier inside it, outermost first.
  const FunctionDecl *Callee = nullptr;
  std::vector<const Stmt *> Path;
};

using cuda::calleeName;

Scope scopeOf(cuda::SyncScope S) {
  switch (S) {
  case cuda::SyncScope::Grid:
    return Scope::Grid;
  case cuda::SyncScope::Counted:
    return Scope::Counted;
  case cuda::SyncScope::Warp:
  case cuda::SyncScope::Coalesced:
    return Scope::Warp;
  case cuda::SyncScope::Tile:
    return Scope::Tile;
  case cuda::SyncScope::Group:
    return Scope::Group;
  case cuda::SyncScope::Block:
    break;
  }
  return Scope::Block;
}

std::string text(const Stmt *S, const ASTContext &Ctx, size_t Max = 48) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid())
    return {};
  bool Invalid = false;
  StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || T.empty() || T.size() > Max || T.contains('\n'))
    return {};
  return T.str();
}

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  return std::nullopt;
}

/// coalesced_group::sync() and cg::sync(coalesced): the group is, by
/// construction, the threads that reach the call.
bool isCoalescedSync(const CallExpr *Call) {
  auto B = cuda::barrierOf(Call);
  return B && B->Scope == cuda::SyncScope::Coalesced;
}

/// The barrier a call is, with its scope; none for calls that are not
/// barriers and for coalesced groups (which are, by construction, the
/// threads that reach the call).
std::optional<BarrierSite> barrierCall(const CallExpr *Call,
                                       const FunctionUniformity &FU,
                                       const ASTContext &Ctx) {
  auto Kind = cuda::barrierOf(Call);
  if (!Kind || Kind->Scope == cuda::SyncScope::Coalesced)
    return std::nullopt;
  BarrierSite B;
  B.S = Call;
  B.Name = text(Call, Ctx, 40);
  if (B.Name.empty())
    B.Name = calleeName(Call) + "()";
  B.Sc = scopeOf(Kind->Scope);
  B.TileSize = Kind->TileSize;
  if (B.Sc == Scope::Warp) {
    const Expr *Mask = Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
    if (!Mask || isa<CXXDefaultArgExpr>(Mask)) {
      B.Mask = 0xffffffffu;
    } else if (auto C = constantOf(Mask, Ctx)) {
      B.Mask = uint32_t(*C);
    } else if (const UniformityValue *V = FU.value(Mask);
               V && V->PerThread) {
      if (auto C = V->PerThread->asConstant())
        B.Mask = uint32_t(*C);
    }
  }
  return B;
}

/// `bar.sync 0;`, `barrier.sync.aligned 1, 128;`, `bar.red.popc...` in
/// inline asm. With a thread count the barrier waits for whole warps only.
std::optional<BarrierSite> barrierAsm(const GCCAsmStmt *Asm) {
  auto A = cuda::asmBarrierOf(Asm);
  if (!A)
    return std::nullopt;
  BarrierSite B;
  B.S = Asm;
  B.Name = "inline asm '" + A->Mnemonic + "'";
  B.Sc = A->Counted ? Scope::Counted : Scope::Block;
  return B;
}

/// A warp collective with a mask (cuda::collectiveOf).
bool isMaskedCollective(const CallExpr *Call) {
  auto C = cuda::collectiveOf(Call);
  return C && C->Sync && Call->getNumArgs() > 0;
}

/// What a function executes, through the functions it calls: the first
/// block-level, counted (whole-warp) and warp-level barrier and the first
/// warp collective, with the path of calls to each.
struct BarrierContent {
  std::vector<const Stmt *> BlockPath, CountedPath, WarpPath, CollectivePath;
  bool any() const {
    return !BlockPath.empty() || !CountedPath.empty() || !WarpPath.empty();
  }
};

class ContentFinder {
public:
  explicit ContentFinder(ASTContext &Ctx) : Ctx(Ctx) {}

  const BarrierContent &of(const FunctionDecl *F) {
    auto It = Memo.find(F);
    if (It != Memo.end())
      return It->second;
    Memo[F]; // Empty while in progress: cuts recursion.
    BarrierContent Found;
    Visitor V(*this, Found);
    V.TraverseStmt(F->getBody());
    return Memo[F] = std::move(Found);
  }

  /// What the walker follows for \p Call (CallContexts.h): a device-side
  /// kernel launch starts another grid, whose barriers are its own.
  static const FunctionDecl *definition(const CallExpr *Call,
                                        const ASTContext &Ctx) {
    return followedCallee(Call, Ctx);
  }

private:
  ASTContext &Ctx;
  std::map<const FunctionDecl *, BarrierContent> Memo;

  class Visitor : public RecursiveASTVisitor<Visitor> {
  public:
    Visitor(ContentFinder &CF, BarrierContent &Out) : CF(CF), Out(Out) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (isCoalescedSync(Call))
        return true;
      if (auto K = barrierKindOf(Call)) {
        auto &Path = *K == BarrierKind::Block ? Out.BlockPath : Out.WarpPath;
        if (Path.empty())
          Path.push_back(Call);
        return true;
      }
      if (isMaskedCollective(Call)) {
        if (Out.CollectivePath.empty())
          Out.CollectivePath.push_back(Call);
        return true;
      }
      if (const FunctionDecl *Def = definition(Call, CF.Ctx)) {
        const BarrierContent &Sub = CF.of(Def);
        auto Take = [&](std::vector<const Stmt *> &Path,
                        const std::vector<const Stmt *> &From) {
          if (Path.empty() && !From.empty()) {
            Path.push_back(Call);
            Path.insert(Path.end(), From.begin(), From.end());
          }
        };
        Take(Out.BlockPath, Sub.BlockPath);
        Take(Out.CountedPath, Sub.CountedPath);
        Take(Out.WarpPath, Sub.WarpPath);
        Take(Out.CollectivePath, Sub.CollectivePath);
      }
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
      if (auto B = barrierAsm(Asm)) {
        auto &Path = B->Sc == Scope::Counted ? Out.CountedPath : Out.BlockPath;
        if (Path.empty())
          Path.push_back(Asm);
      }
      return true;
    }

  private:
    ContentFinder &CF;
    BarrierContent &Out;
  };
};

//===----------------------------------------------------------------------===//
// Describing sets of threads
//===----------------------------------------------------------------------===//

/// "0-15", "0, 2, 4, ..., 30", "3, 7, 9".
std::string rangeList(const std::vector<unsigned> &V) {
  std::ostringstream OS;
  if (V.empty())
    return "none";
  // Runs of consecutive values.
  std::vector<std::pair<unsigned, unsigned>> Runs;
  for (unsigned X : V) {
    if (!Runs.empty() && Runs.back().second + 1 == X)
      Runs.back().second = X;
    else
      Runs.push_back({X, X});
  }
  if (Runs.size() <= 3) {
    for (unsigned I = 0; I < Runs.size(); ++I) {
      OS << (I ? ", " : "") << Runs[I].first;
      if (Runs[I].second != Runs[I].first)
        OS << (Runs[I].second == Runs[I].first + 1 ? ", " : "-")
           << Runs[I].second;
    }
    return OS.str();
  }
  if (V.size() > 3) {
    unsigned Step = V[1] - V[0];
    bool Arith = true;
    for (unsigned I = 1; I < V.size(); ++I)
      Arith = Arith && V[I] - V[I - 1] == Step;
    if (Arith) {
      OS << V[0] << ", " << V[1] << ", " << V[2] << ", ..., " << V.back();
      return OS.str();
    }
  }
  for (unsigned I = 0; I < 2; ++I) {
    OS << (I ? ", " : "") << Runs[I].first;
    if (Runs[I].second != Runs[I].first)
      OS << "-" << Runs[I].second;
  }
  OS << ", ... (" << V.size() << " in all)";
  return OS.str();
}

/// A predicate on one coordinate that holds exactly for the values in \p In
/// among [0, Extent): "< 128", ">= 32", "== 0", "!= 5", "in 32-63",
/// "% 2 == 0". Empty when there is none as simple.
std::string predicate(const std::vector<bool> &In, unsigned Extent,
                      const std::string &Var) {
  std::vector<unsigned> Vals;
  for (unsigned V = 0; V < Extent; ++V)
    if (In[V])
      Vals.push_back(V);
  if (Vals.empty() || Vals.size() == Extent)
    return {};
  bool Contiguous = Vals.back() - Vals.front() + 1 == Vals.size();
  if (Vals.size() == 1)
    return Var + " == " + std::to_string(Vals[0]);
  if (Vals.size() + 1 == Extent)
    for (unsigned V = 0; V < Extent; ++V)
      if (!In[V])
        return Var + " != " + std::to_string(V);
  if (Contiguous && Vals.front() == 0)
    return Var + " < " + std::to_string(Vals.back() + 1);
  if (Contiguous && Vals.back() + 1 == Extent)
    return Var + " >= " + std::to_string(Vals.front());
  if (Contiguous)
    return std::to_string(Vals.front()) + " <= " + Var + " < " +
           std::to_string(Vals.back() + 1);
  for (unsigned M = 2; M <= Extent / 2; M *= 2)
    for (unsigned Rm = 0; Rm < M; ++Rm) {
      bool Match = true;
      for (unsigned V = 0; V < Extent && Match; ++V)
        Match = In[V] == (V % M == Rm);
      if (Match)
        return Var + " % " + std::to_string(M) + " == " + std::to_string(Rm);
    }
  return {};
}

/// The values \p Of takes in the threads of \p Active, when they determine
/// membership (no value is taken both inside and outside the set).
std::optional<std::vector<bool>>
separatingValues(const std::vector<char> &Active, unsigned Extent,
                 const std::function<unsigned(unsigned)> &Of) {
  std::vector<char> Seen(Extent, 0); // 1 inside, 2 outside.
  for (unsigned T = 0; T < Active.size(); ++T)
    Seen[Of(T)] |= Active[T] ? 1 : 2;
  std::vector<bool> In(Extent);
  for (unsigned V = 0; V < Extent; ++V) {
    if (Seen[V] == 3)
      return std::nullopt;
    In[V] = Seen[V] == 1;
  }
  return In;
}

/// "threads with threadIdx.x < 128", "lanes 0-15 of each warp", "warps 0-3",
/// or, when nothing simpler fits, the linear thread indices.
std::string describeThreads(const std::vector<char> &Active,
                            const ThreadGeometry &G) {
  const Dim3 &D = G.block();
  const char *Axes[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"};
  unsigned Extents[] = {D.X, D.Y, D.Z};
  for (unsigned A = 0; A < 3; ++A) {
    if (Extents[A] < 2)
      continue;
    auto In = separatingValues(Active, Extents[A], [&](unsigned T) {
      return G.coordinate(T, A);
    });
    if (!In)
      continue;
    std::string P = predicate(*In, Extents[A], Axes[A]);
    if (!P.empty())
      return "threads with " + P;
  }
  unsigned W = G.warpSize();
  if (G.warps() > 1) {
    if (auto In = separatingValues(Active, G.warps(),
                                   [&](unsigned T) { return T / W; })) {
      std::vector<unsigned> Ws;
      for (unsigned I = 0; I < G.warps(); ++I)
        if ((*In)[I])
          Ws.push_back(I);
      return (Ws.size() == 1 ? "the threads of warp " : "the threads of warps ") +
             rangeList(Ws);
    }
    if (auto In = separatingValues(Active, W,
                                   [&](unsigned T) { return T % W; })) {
      std::vector<unsigned> Ls;
      for (unsigned I = 0; I < W; ++I)
        if ((*In)[I])
          Ls.push_back(I);
      return (Ls.size() == 1 ? "lane " : "lanes ") + rangeList(Ls) +
             " of each warp";
    }
  }
  std::vector<unsigned> Ts;
  for (unsigned T = 0; T < Active.size(); ++T)
    if (Active[T])
      Ts.push_back(T);
  return "threads " + rangeList(Ts) + " (linear thread index)";
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

/// Why the threads that do not reach a barrier miss it.
enum class Reason { Inside, Return, Continue, Break, Goto, Loop };

class DivergentBarrierChecker {
public:
  DivergentBarrierChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), Sink(Sink),
        UA(K.Ctx, &K.Trace.Geometry, K.Opts.InlineDepth, &K.Graphs),
        Contents(K.Ctx) {}

  void run() {
    const FunctionUniformity &FU = UA.analyzeKernel(K.Kernel);
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
  ContentFinder Contents;
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
        if (isMaskedCollective(Call)) {
          check(FU, Chain, collectiveSite(Call, FU, Chain));
          continue;
        }
        const FunctionDecl *Def = ContentFinder::definition(Call, K.Ctx);
        if (!Def)
          continue;
        const BarrierContent &C = Contents.of(Def);
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
    if (auto C = constantOf(Mask, K.Ctx)) {
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

  /// "'blockSum'", or for a lambda or function object "'reduce'" as the
  /// call spells the object.
  std::string callName(const CallExpr *Call) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
        OC && OC->getOperator() == OO_Call && OC->getNumArgs() > 0) {
      std::string Object = text(OC->getArg(0), K.Ctx, 32);
      if (!Object.empty())
        return "'" + Object + "'";
    }
    return "'" + calleeName(Call) + "'";
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

  /// "the threads for which 'tid < n' is true", from the condition alone.
  std::string conditionWitness(const BranchInfo &Br, const BarrierSite &Site,
                               const FunctionUniformity &FU, bool Lanes) {
    std::string Who = Lanes ? "the lanes" : "the threads";
    std::string Cond = text(Br.Condition, K.Ctx);
    const CFGBlock *B = FU.blockOf(Site.S);
    if (Cond.empty() || !B)
      return "some of " + Who + (Lanes ? " of a warp" : " of the block");
    if (isa<SwitchStmt>(Br.Construct))
      return Who + " for which '" + Cond + "' selects this case";
    if (Br.ReachableFrom.size() != 2)
      return "some of " + Who + ", depending on '" + Cond + "'";
    bool FromTrue = Br.ReachableFrom[0].test(B->getBlockID());
    bool FromFalse = Br.ReachableFrom[1].test(B->getBlockID());
    if (FromTrue == FromFalse)
      return "some of " + Who + ", depending on '" + Cond + "'";
    return Who + " for which '" + Cond + "' is " +
           (FromTrue ? "true" : "false");
  }

  std::string fixFor(Reason R, Scope Sc) {
    switch (R) {
    case Reason::Loop:
      return Sc == Scope::Warp || Sc == Scope::Tile
                 ? "loop to a bound that is the same in every lane and guard "
                   "the body with each lane's own condition"
                 : "loop to a bound that is the same for the whole block and "
                   "guard the body with each thread's own condition";
    case Reason::Return:
      return "keep the threads alive to the barrier instead of returning "
             "early (guard the work that follows instead)";
    case Reason::Continue:
    case Reason::Break:
    case Reason::Goto:
      return "let every thread reach the barrier instead of jumping past it "
             "(guard the work instead)";
    case Reason::Inside:
      break;
    }
    switch (Sc) {
    case Scope::Warp:
      return "make the mask name exactly the lanes that take the branch (for "
             "example with __ballot_sync(0xffffffff, condition) before it) or "
             "hoist the barrier out of the branch";
    case Scope::Tile:
    case Scope::Group:
      return "hoist the barrier out of the branch so that every thread of "
             "the group reaches it";
    case Scope::Grid:
      return "hoist the barrier out of the branch so that every thread of "
             "the grid reaches it";
    default:
      return "hoist the barrier out of the branch so that every thread of "
             "the block reaches it";
    }
  }

  static const char *skipText(Reason R) {
    switch (R) {
    case Reason::Return:
      return "have returned";
    case Reason::Continue:
    case Reason::Break:
    case Reason::Goto:
      return "jump past it";
    default:
      return "skip it";
    }
  }

  /// What goes wrong. Threads waiting at a block barrier for threads that
  /// skipped it are released by whichever barrier those reach next, so the
  /// two groups may synchronise at different barriers rather than hang;
  /// threads that exited no longer count (on current GPUs), but the
  /// programming model leaves both undefined.
  static std::string consequence(Reason R, Scope S) {
    switch (S) {
    case Scope::Warp:
    case Scope::Tile:
    case Scope::Counted:
      return std::string("so the ") + scopeNoun(S) + " may hang";
    default:
      break;
    }
    if (R == Reason::Return)
      return std::string("so it does not synchronise the whole ") +
             scopeNoun(S) + " (undefined behaviour)";
    return std::string("so the ") + scopeNoun(S) +
           " may hang or synchronise at the wrong barrier";
  }

  static const char *scopeNoun(Scope S) {
    switch (S) {
    case Scope::Grid:
      return "grid";
    case Scope::Block:
      return "block";
    case Scope::Warp:
      return "warp";
    case Scope::Counted:
      return "warps";
    case Scope::Tile:
      return "tile";
    default:
      return "group";
    }
  }

  /// For warp barriers with exact masks: the first warp whose active lanes
  /// differ from the lanes the mask names, described; empty when every warp
  /// agrees with the mask.
  std::string laneMismatch(const BarrierSite &Site,
                           const std::vector<const BarrierEvent *> &Evs,
                           bool &Extra) {
    const ThreadGeometry &G = geometry();
    std::vector<std::pair<unsigned, std::vector<unsigned>>> Bad; // warp, lanes
    std::vector<unsigned> ActiveLanes;
    unsigned WarpsReaching = 0;
    Extra = false;
    for (const BarrierEvent *Ev : Evs) {
      std::optional<uint32_t> Mask = Site.Callee ? Ev->WarpMask : Site.Mask;
      if (!Mask)
        return {};
      // Lanes that have left the kernel need not arrive.
      auto Gone = [&](unsigned T) {
        return !Ev->Exited.empty() && Ev->Exited[T];
      };
      for (unsigned Wp = 0; Wp < G.warps(); ++Wp) {
        std::vector<unsigned> Act, Missing, Outside;
        for (unsigned T = G.warpBegin(Wp); T < G.warpEnd(Wp); ++T) {
          unsigned L = T - G.warpBegin(Wp);
          bool InMask = L < 32 && (*Mask >> L) & 1;
          if (Ev->Active[T])
            Act.push_back(L);
          if (InMask && !Ev->Active[T] && !Gone(T))
            Missing.push_back(L);
          if (!InMask && Ev->Active[T])
            Outside.push_back(L);
        }
        if (Act.empty())
          continue;
        ++WarpsReaching;
        // The message describes the first bad warp: its lanes, and those
        // that reach the call there. Lanes outside the mask outrank lanes
        // missing from it.
        if (!Outside.empty()) {
          if (!Extra)
            Bad.clear();
          Extra = true;
          if (Bad.empty())
            ActiveLanes = Act;
          Bad.push_back({Wp, Outside});
        } else if (!Missing.empty() && !Extra) {
          if (Bad.empty())
            ActiveLanes = Act;
          Bad.push_back({Wp, Missing});
        }
      }
    }
    if (Bad.empty())
      return {};
    bool Same = Bad.size() == WarpsReaching;
    for (auto &P : Bad)
      Same = Same && P.second == Bad.front().second;
    std::string Where =
        Same && G.warps() > 1
            ? " of each warp"
            : " of warp " + std::to_string(Bad.front().first);
    std::ostringstream OS;
    // A collective's message names its mask's value too: the call's text
    // may spell it as a variable.
    std::string Its = "its mask";
    if (Site.Collective && !Site.Callee && Site.Mask) {
      std::ostringstream M;
      M << "its mask 0x" << std::hex << *Site.Mask;
      Its = M.str();
    }
    auto Lanes = [](const std::vector<unsigned> &V) {
      return (V.size() == 1 ? "lane " : "lanes ") + rangeList(V);
    };
    if (Extra)
      OS << "is executed by " << Lanes(Bad.front().second) << Where
         << ", which " << Its << " does not name";
    else
      OS << "is reached only by " << Lanes(ActiveLanes) << Where << "; "
         << Lanes(Bad.front().second) << ", which " << Its
         << " names, never arrive" << (Bad.front().second.size() == 1 ? "s" : "");
    return OS.str();
  }

  /// For tile barriers with exact masks: the tiles that are only partly
  /// active, described; empty when every tile is all in or all out.
  std::string tileMismatch(const BarrierSite &Site,
                           const std::vector<const BarrierEvent *> &Evs) {
    unsigned T = Site.TileSize;
    std::vector<std::vector<unsigned>> Partial;
    unsigned First = 0, Reaching = 0;
    for (const BarrierEvent *Ev : Evs)
      for (unsigned Begin = 0; Begin < Ev->Active.size(); Begin += T) {
        std::vector<unsigned> Ranks;
        unsigned End = std::min<unsigned>(Begin + T, Ev->Active.size());
        for (unsigned I = Begin; I < End; ++I)
          if (Ev->Active[I])
            Ranks.push_back(I - Begin);
        if (Ranks.empty())
          continue;
        ++Reaching;
        if (Ranks.size() == End - Begin)
          continue;
        if (Partial.empty())
          First = Begin;
        Partial.push_back(std::move(Ranks));
      }
    if (Partial.empty())
      return {};
    // "of each tile" only when several tiles reach it, all alike.
    bool Same = Partial.size() == Reaching && Reaching > 1;
    for (const auto &P : Partial)
      Same = Same && P == Partial.front();
    std::string Size = std::to_string(T);
    return std::string("is reached only by ") +
           (Partial.front().size() == 1 ? "thread " : "threads ") +
           rangeList(Partial.front()) +
           (Same ? " of each " + Size + "-thread tile"
                 : " of the " + Size + "-thread tile starting at thread " +
                       std::to_string(First)) +
           "; the rest of the tile never arrives";
  }

  /// Whether the exact per-thread condition of \p Br is the same across each
  /// aligned group of \p Size threads.
  static bool uniformWithin(const UniformityValue &V, unsigned Size) {
    if (!V.PerThread || Size == 0)
      return false;
    const LaneValue &L = *V.PerThread;
    for (unsigned B = 0; B < L.size(); B += Size)
      if (!L.isUniform(B, std::min(B + Size, L.size())))
        return false;
    return true;
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
        Site.Callee ? "the call to " + callName(cast<CallExpr>(Site.S)) +
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
        std::string Mismatch = laneMismatch(Site, Evs, Extra);
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
            << conditionWitness(Primary, Site, FU, /*Lanes=*/true)
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
            << conditionWitness(Primary, Site, FU, /*Lanes=*/false)
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
            << conditionWitness(Primary, Site, FU, /*Lanes=*/false);
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
    std::string Mismatch = laneMismatch(Site, Evs, Extra);
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

  static std::vector<unsigned> maskLanes(uint32_t Mask) {
    std::vector<unsigned> Lanes;
    for (unsigned L = 0; L < 32; ++L)
      if ((Mask >> L) & 1)
        Lanes.push_back(L);
    return Lanes;
  }

  /// The notes every finding carries: the call path to the barrier, the
  /// kernel and instantiation, and the block shape when thread sets were
  /// computed for it.
  void addContextNotes(Finding &F, const BarrierSite &Site,
                       const std::vector<const CallExpr *> &Chain,
                       bool UsedMask) {
    for (size_t I = 0; I + 1 < Site.Path.size(); ++I)
      if (const auto *C = dyn_cast<CallExpr>(Site.Path[I]))
        F.Notes.push_back({C->getBeginLoc(), "which calls '" + calleeName(C) +
                                                 "' here"});
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
