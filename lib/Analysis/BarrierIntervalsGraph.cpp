//===- BarrierIntervalsGraph.cpp - The graph of a trace's barriers --------===//
//
// Builds BarrierIntervals' graph: the trace's sites and barriers placed in
// the CFG of every call context the walk entered, chained per block, with
// the loops' events and the branch sides' facts on the edges. See
// BarrierIntervals.h for what it is for.
//
//===----------------------------------------------------------------------===//

#include "BarrierIntervalsInternal.h"
#include "Program/CallContexts.h"

#include "clang/Analysis/CFG.h"

#include <numeric>

using namespace clang;

namespace shmem {

using namespace intervals;

BarrierIntervals::BarrierIntervals(ASTContext &Ctx, const KernelTrace &Tr,
                                   ProgramCFGs *SharedGraphs)
    : T(Tr), G(std::make_unique<Graph>()) {
  // The graph keeps pointers into the CFGs: those built here live as long.
  if (!SharedGraphs)
    OwnGraphs = std::make_unique<ProgramCFGs>(Ctx);
  ProgramCFGs &Graphs = SharedGraphs ? *SharedGraphs : *OwnGraphs;
  using Stack = std::vector<const CallExpr *>;

  // Sites and barrier sites.
  std::map<std::tuple<const Expr *, int, Stack>, unsigned> SiteKey;
  SiteOfAccess.resize(T.Accesses.size());
  for (unsigned I = 0; I < T.Accesses.size(); ++I) {
    const SharedAccess &A = T.Accesses[I];
    auto [It, New] =
        SiteKey.try_emplace({A.E, int(A.Kind), A.CallStack}, Sites.size());
    if (New)
      Sites.emplace_back();
    Sites[It->second].Instances.push_back(I);
    SiteOfAccess[I] = It->second;
  }
  std::map<std::pair<const void *, Stack>, unsigned> BarrierKey;
  BarrierSiteOfEvent.resize(T.Barriers.size());
  for (unsigned I = 0; I < T.Barriers.size(); ++I) {
    const BarrierEvent &B = T.Barriers[I];
    // Barriers in inline asm have no call: key them by location.
    const void *Anchor =
        B.E ? static_cast<const void *>(B.E)
            : reinterpret_cast<const void *>(uintptr_t(B.Loc.getRawEncoding()));
    auto [It, New] =
        BarrierKey.try_emplace({Anchor, B.CallStack}, BarrierSites.size());
    if (New)
      BarrierSites.emplace_back();
    BarrierSites[It->second].Instances.push_back(I);
    // A site cuts when each of its instances orders the whole block.
    BarrierSites[It->second].Cuts &= B.Kind == BarrierKind::Block && !B.Named;
    BarrierSiteOfEvent[I] = It->second;
  }
  NoWarpBarriers.assign(BarrierSites.size(), false);

  // Call contexts: one per call stack the walker inlined through.
  auto ContextFor = [&](const Stack &S, auto &Self) -> int {
    auto It = G->ContextOf.find(S);
    if (It != G->ContextOf.end())
      return It->second;
    int Parent = -1;
    const FunctionDecl *F = T.Kernel;
    if (!S.empty()) {
      Parent = Self(Stack(S.begin(), S.end() - 1), Self);
      F = followedCallee(S.back(), Ctx); // What the walker inlined.
      if (Parent < 0 || !F)
        return -1;
    }
    const KernelCFG *FC = Graphs.get(F);
    if (!FC)
      return -1;
    unsigned Id = G->Contexts.size();
    G->Contexts.emplace_back();
    Graph::Context &C = G->Contexts.back();
    C.Stack = S;
    C.F = F;
    C.FC = FC;
    C.Parent = Parent;
    G->ContextOf[S] = Id;
    if (Parent >= 0)
      G->Contexts[Parent].Children[S.back()] = Id;
    for (const KernelCFG::Loop &L : C.FC->loops()) {
      G->Contexts[Id].LoopIndex.push_back(Loops.size());
      LoopInfo LI{L.L, Id};
      const KernelTrace::LoopOutcomes *O = T.loopOutcomes(L.L, S);
      if (O && O->Exact && !C.FC->hasGoto()) {
        LI.Trips = O->Trips >= 0 ? O->Trips : -1;
        LI.FirstTestHolds = O->FirstTestHolds || LI.Trips > 0;
      }
      Loops.push_back(LoopData{LI});
    }
    return Id;
  };
  if (!T.Kernel || ContextFor({}, ContextFor) < 0) {
    Valid = false;
    return;
  }
  std::vector<int> SiteCtx(Sites.size()), BarrierCtx(BarrierSites.size());
  for (unsigned S = 0; S < Sites.size(); ++S)
    SiteCtx[S] = ContextFor(T.Accesses[Sites[S].Instances[0]].CallStack,
                            ContextFor);
  for (unsigned S = 0; S < BarrierSites.size(); ++S)
    BarrierCtx[S] = ContextFor(
        T.Barriers[BarrierSites[S].Instances[0]].CallStack, ContextFor);

  // Where each barrier and inlined call sits: they cut blocks into nodes.
  struct Cut {
    unsigned Index;
    int BarrierSite = -1;
    int Child = -1;
    bool operator<(const Cut &O) const { return Index < O.Index; }
  };
  std::vector<std::map<unsigned, std::vector<Cut>>> Cuts(G->Contexts.size());
  for (unsigned S = 0; S < BarrierSites.size(); ++S) {
    const BarrierEvent &B = T.Barriers[BarrierSites[S].Instances[0]];
    if (BarrierCtx[S] < 0) {
      Valid = false;
      continue;
    }
    const KernelCFG &FC = *G->Contexts[BarrierCtx[S]].FC;
    std::optional<std::pair<unsigned, unsigned>> At;
    if (B.E) {
      At = FC.enclosingElement(B.E);
    } else {
      // An asm barrier is known by its location only.
      for (unsigned ID = 0; ID < FC.numBlocks(); ++ID)
        if (const CFGBlock *Blk = FC.block(ID))
          for (const CFGElement &El : *Blk)
            if (auto CS = El.getAs<CFGStmt>())
              if (const auto *Asm = dyn_cast<AsmStmt>(CS->getStmt());
                  Asm && Asm->getAsmLoc() == B.Loc)
                At = FC.element(Asm);
    }
    if (!At) {
      Valid = false;
      continue;
    }
    Cuts[BarrierCtx[S]][At->first].push_back(Cut{At->second, int(S), -1});
  }
  for (unsigned C = 1; C < G->Contexts.size(); ++C) {
    const Graph::Context &Cc = G->Contexts[C];
    const KernelCFG &PFC = *G->Contexts[Cc.Parent].FC;
    auto At = PFC.enclosingElement(Cc.Stack.back());
    if (!At) {
      // The call is not in its caller's CFG (a default argument, say):
      // nothing inside can be reached. Accesses in it are then never
      // concurrent with anything, which only loses findings; a barrier in
      // it would be lost too, and the code around the call would look
      // unordered, so the whole answer is withdrawn.
      for (int BC : BarrierCtx)
        for (int X = BC; X >= 0; X = G->Contexts[X].Parent)
          if (X == int(C))
            Valid = false;
      continue;
    }
    Cuts[Cc.Parent][At->first].push_back(Cut{At->second, -1, int(C)});
  }

  // Nodes: each block becomes segment (cut segment)* .
  for (unsigned C = 0; C < G->Contexts.size(); ++C) {
    Graph::Context &Cx = G->Contexts[C];
    Cx.Chain.resize(Cx.FC->numBlocks());
    for (unsigned ID = 0; ID < Cx.FC->numBlocks(); ++ID) {
      const CFGBlock *B = Cx.FC->block(ID);
      if (!B)
        continue;
      std::vector<Cut> &Cs = Cuts[C][B->getBlockID()];
      std::sort(Cs.begin(), Cs.end());
      std::vector<unsigned> &Chain = Cx.Chain[B->getBlockID()];
      Chain.push_back(G->addNode(Graph::Node::Segment));
      for (const Cut &X : Cs) {
        unsigned N = G->addNode(X.BarrierSite >= 0 ? Graph::Node::Barrier
                                                   : Graph::Node::Call);
        G->Nodes[N].BarrierSite = X.BarrierSite;
        if (X.BarrierSite >= 0)
          BarrierSites[X.BarrierSite].Node = N;
        Chain.push_back(N);
        Chain.push_back(G->addNode(Graph::Node::Segment));
      }
    }
  }
  // Sites: the segment before the first cut at or after their element.
  for (unsigned S = 0; S < Sites.size(); ++S) {
    if (SiteCtx[S] < 0)
      continue;
    Graph::Context &Cx = G->Contexts[SiteCtx[S]];
    auto At = Cx.FC->enclosingElement(T.Accesses[Sites[S].Instances[0]].E);
    if (!At)
      continue;
    const std::vector<Cut> &Cs = Cuts[SiteCtx[S]][At->first];
    unsigned Seg = 0;
    while (Seg < Cs.size() && Cs[Seg].Index < At->second)
      ++Seg;
    unsigned N = Cx.Chain[At->first][2 * Seg];
    Sites[S].Node = int(N);
    Graph::Node &Node = G->Nodes[N];
    if (Node.Source < 0) {
      Node.Source = G->SourceBranch.size();
      G->SourceBranch.push_back(-1);
      G->SourceSide.push_back(0);
    }
  }
  // The loops around each site, matched to the contexts they are in.
  for (unsigned S = 0; S < Sites.size(); ++S) {
    const SharedAccess &A = T.Accesses[Sites[S].Instances[0]];
    for (const Stmt *L : A.Loops) {
      int Found = -1;
      for (int C = SiteCtx[S]; C >= 0 && Found < 0;
           C = G->Contexts[C].Parent) {
        const Graph::Context &Cx = G->Contexts[C];
        for (unsigned I = 0; I < Cx.FC->loops().size(); ++I)
          if (Cx.FC->loops()[I].L == L)
            Found = int(Cx.LoopIndex[I]);
      }
      Sites[S].Loops.push_back(Found);
    }
  }

  // Edges.
  auto Uniform = [&](const CFGBlock *B) {
    const Stmt *Term = B->getTerminatorStmt();
    if (!Term || isa<DeclStmt>(Term)) // `static init` of a shared variable.
      return true;
    auto It = T.UniformBranch.find(Term);
    return It != T.UniformBranch.end() && It->second;
  };
  // What the walker saw B's two-way branch do in context Cx
  // (KernelTrace::Branches), when those facts are exact and the function
  // has no goto; null otherwise.
  auto ExactOutcomes = [&](const Graph::Context &Cx, const CFGBlock *B)
      -> const KernelTrace::BranchOutcomes * {
    const Stmt *Term = B->getTerminatorStmt();
    if (Cx.FC->hasGoto() || B->succ_size() != 2 ||
        !isa_and_nonnull<IfStmt, AbstractConditionalOperator, BinaryOperator>(
            Term))
      return nullptr;
    const KernelTrace::BranchOutcomes *O = T.branchOutcomes(Term, Cx.Stack);
    return O && O->Exact ? O : nullptr;
  };
  // The side \p Index (0: true) of B's branch, which no thread takes in
  // context Cx: a branch that some thread took at all (one no thread
  // reached keeps both).
  auto Untaken = [&](const Graph::Context &Cx, const CFGBlock *B,
                     unsigned Index) {
    const KernelTrace::BranchOutcomes *O = ExactOutcomes(Cx, B);
    if (!O || (!O->TakenTrue && !O->TakenFalse))
      return false;
    return Index == 0 ? !O->TakenTrue : !O->TakenFalse;
  };
  // The iterations of an unrolled loop in which some thread took side
  // \p Index of B's branch in context \p C, when only some did: the edge is
  // then guarded by them.
  auto Guard = [&](unsigned C, const CFGBlock *B, unsigned Index,
                   Graph::Edge &E) {
    const KernelTrace::BranchOutcomes *O = ExactOutcomes(G->Contexts[C], B);
    if (!O)
      return;
    uint64_t Iters = O->iterationsTaking(Index);
    if (Iters == ~uint64_t(0))
      return;
    // The loop is in this function or a caller's, around the call.
    for (int X = int(C); X >= 0; X = G->Contexts[X].Parent) {
      const Graph::Context &Xc = G->Contexts[X];
      for (unsigned I = 0; I < Xc.FC->loops().size(); ++I)
        if (Xc.FC->loops()[I].L == O->IterLoop) {
          E.GuardLoop = int(Xc.LoopIndex[I]);
          E.GuardIters = Iters;
          return;
        }
    }
  };
  for (unsigned C = 0; C < G->Contexts.size(); ++C) {
    Graph::Context &Cx = G->Contexts[C];
    for (unsigned ID = 0; ID < Cx.FC->numBlocks(); ++ID) {
      const CFGBlock *B = Cx.FC->block(ID);
      if (!B)
        continue;
      std::vector<unsigned> &Chain = Cx.Chain[B->getBlockID()];
      for (unsigned I = 0; I + 1 < Chain.size(); ++I) {
        // Calls are linked below, through their callee.
        Graph::Node &N = G->Nodes[Chain[I]];
        if (N.K != Graph::Node::Call)
          N.Succs.push_back(Graph::Edge{Chain[I + 1], {}, -1});
      }
      // Block exit -> successors.
      unsigned Last = Chain.back();
      std::vector<const CFGBlock *> Succs;
      unsigned Index = 0;
      for (const CFGBlock *S : B->succs()) {
        Succs.push_back(S && !Untaken(Cx, B, Index) ? S : nullptr);
        ++Index;
      }
      unsigned NSucc = 0;
      for (const CFGBlock *S : Succs)
        NSucc += S != nullptr;
      bool Splits = NSucc > 1 && !Uniform(B);
      unsigned Side = 0;
      for (Index = 0; Index < Succs.size(); ++Index) {
        const CFGBlock *S = Succs[Index];
        if (!S)
          continue;
        Graph::Edge E;
        E.To = Cx.Chain[S->getBlockID()].front();
        Guard(C, B, Index, E);
        for (unsigned L = 0; L < Cx.FC->loops().size(); ++L) {
          const KernelCFG::Loop &Lp = Cx.FC->loops()[L];
          bool InP = Lp.Body.test(B->getBlockID());
          bool InS = Lp.Body.test(S->getBlockID());
          bool Back = llvm::is_contained(Lp.BackSources, B->getBlockID()) &&
                      llvm::is_contained(Lp.Headers, S->getBlockID());
          if (Back)
            E.Events.push_back({Cx.LoopIndex[L], LoopEvent::Back});
          else if (InP && !InS) {
            E.Events.push_back({Cx.LoopIndex[L], LoopEvent::Exit});
            if (Index == 1 && B->getTerminatorStmt() == Lp.L)
              E.CondExit = int(Cx.LoopIndex[L]);
          }
          else if (!InP && InS)
            E.Events.push_back({Cx.LoopIndex[L], LoopEvent::Enter});
        }
        if (Splits) {
          E.Source = G->SourceBranch.size();
          G->SourceBranch.push_back(int(Last));
          G->SourceSide.push_back(Side);
        }
        ++Side;
        G->Nodes[Last].Succs.push_back(std::move(E));
      }
    }
  }
  // Call nodes: into the callee's entry; the callee's exit returns to the
  // segment after the call.
  for (unsigned C = 1; C < G->Contexts.size(); ++C) {
    const Graph::Context &Cc = G->Contexts[C];
    const Graph::Context &Px = G->Contexts[Cc.Parent];
    const std::vector<Cut> *Cs = nullptr;
    auto At = Px.FC->enclosingElement(Cc.Stack.back());
    if (!At)
      continue;
    Cs = &Cuts[Cc.Parent][At->first];
    unsigned Pos = 0;
    for (; Pos < Cs->size(); ++Pos)
      if ((*Cs)[Pos].Child == int(C))
        break;
    if (Pos == Cs->size())
      continue;
    const std::vector<unsigned> &Chain = Px.Chain[At->first];
    unsigned CallNode = Chain[2 * Pos + 1], After = Chain[2 * Pos + 2];
    unsigned Entry = Cc.Chain[Cc.FC->cfg().getEntry().getBlockID()].front();
    unsigned Exit = Cc.Chain[Cc.FC->cfg().getExit().getBlockID()].back();
    G->Nodes[CallNode].Succs.push_back(Graph::Edge{Entry, {}, -1});
    G->Nodes[Exit].Succs.push_back(Graph::Edge{After, {}, -1});
  }

  unsigned EdgeId = 0;
  for (Graph::Node &N : G->Nodes)
    for (Graph::Edge &E : N.Succs)
      E.Id = EdgeId++;

  // Barrier-free regions: the nodes that edges join once block barriers
  // are taken out. A tag only travels inside one, and the two sides of a
  // branch are in the region of the branch, so sites of two regions are
  // never concurrent.
  auto BlockBarrier = [&](unsigned N) {
    const Graph::Node &Nd = G->Nodes[N];
    return Nd.K == Graph::Node::Barrier && BarrierSites[Nd.BarrierSite].Cuts;
  };
  std::vector<unsigned> Leader(G->Nodes.size());
  std::iota(Leader.begin(), Leader.end(), 0u);
  auto Find = [&](unsigned N) {
    while (Leader[N] != N)
      N = Leader[N] = Leader[Leader[N]];
    return N;
  };
  for (unsigned N = 0; N < G->Nodes.size(); ++N) {
    if (BlockBarrier(N))
      continue;
    for (const Graph::Edge &E : G->Nodes[N].Succs)
      if (!BlockBarrier(E.To))
        Leader[Find(N)] = Find(E.To);
  }
  G->RegionOf.resize(G->Nodes.size());
  for (unsigned N = 0; N < G->Nodes.size(); ++N)
    G->RegionOf[N] = Find(N);
  for (SiteInfo &S : Sites)
    if (S.Node >= 0)
      S.Region = G->RegionOf[unsigned(S.Node)];
}

} // namespace shmem
