//===- BarrierIntervals.cpp - Which shared accesses may run together ------===//
//
// See BarrierIntervals.h. The graph is built once per trace; the dataflow
// is run once per set of counting warp barriers that a query asks about.
//
//===----------------------------------------------------------------------===//

#include "BarrierIntervals.h"
#include "Program/CallContexts.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SparseBitVector.h"

#include <deque>
#include <numeric>
#include <tuple>

using namespace clang;

namespace shmem {

bool LoopRelation::admits(int64_t KA, int64_t KB) const {
  auto IsAbs = [](IterState S) {
    return S == IterState::Abs0 || S == IterState::Abs1;
  };
  auto IsRel = [](IterState S) {
    return S == IterState::Rel0 || S == IterState::Rel1;
  };
  auto Index = [](IterState S) {
    return S == IterState::Abs1 || S == IterState::Rel1 ? 1 : 0;
  };
  bool KnownA = InA && KA >= 0, KnownB = InB && KB >= 0;
  if (KnownA && IsAbs(A) && KA != Index(A))
    return false;
  if (KnownB && IsAbs(B) && KB != Index(B))
    return false;
  if ((KnownA && OnlyA >= 0 && KA != OnlyA) ||
      (KnownB && OnlyB >= 0 && KB != OnlyB))
    return false;
  if ((KnownA && KA < 64 && !(MaskA >> KA & 1)) ||
      (KnownB && KB < 64 && !(MaskB >> KB & 1)))
    return false;
  // Relative states count from the iteration the tag started in, which the
  // two share only when both are in the loop.
  if (InA && InB && KnownA && KnownB && IsRel(A) && IsRel(B) &&
      KB - KA != Index(B) - Index(A))
    return false;
  return true;
}

namespace {

enum class LoopEvent : uint8_t { Enter, Back, Exit };

struct EdgeEvent {
  unsigned Loop;
  LoopEvent Event;
};

/// What a barrier-free path from a tag's source did to each loop it
/// crossed, sorted by loop. Loops it never touched are Rel0: the source is
/// in them. Source narrows the iterations of the loop the source can be in
/// (bit k: iteration k), from the branches the path took whose sides the
/// walker saw taken in some iterations only (an unrolled loop's
/// `if (k < n-1) __syncthreads();`).
struct Crossing {
  struct Entry {
    unsigned Loop;
    IterState State;
    uint64_t Source = ~uint64_t(0);
    bool operator<(const Entry &O) const {
      return std::tie(Loop, State, Source) <
             std::tie(O.Loop, O.State, O.Source);
    }
    bool operator==(const Entry &O) const {
      return Loop == O.Loop && State == O.State && Source == O.Source;
    }
  };
  std::vector<Entry> Loops;

  bool operator<(const Crossing &O) const { return Loops < O.Loops; }
  const Entry *find(unsigned Loop) const {
    for (const Entry &C : Loops)
      if (C.Loop == Loop)
        return &C;
    return nullptr;
  }
  IterState get(unsigned Loop) const {
    const Entry *E = find(Loop);
    return E ? E->State : IterState::Rel0;
  }
  uint64_t source(unsigned Loop) const {
    const Entry *E = find(Loop);
    return E ? E->Source : ~uint64_t(0);
  }
  void erase(unsigned Loop) {
    for (auto It = Loops.begin(); It != Loops.end(); ++It)
      if (It->Loop == Loop) {
        Loops.erase(It);
        return;
      }
  }
  Entry &at(unsigned Loop) {
    for (Entry &C : Loops)
      if (C.Loop == Loop)
        return C;
    auto It = std::upper_bound(
        Loops.begin(), Loops.end(), Loop,
        [](unsigned L, const Entry &X) { return L < X.Loop; });
    return *Loops.insert(It, Entry{Loop, IterState::Rel0});
  }
  void set(unsigned Loop, IterState S) { at(Loop).State = S; }
  /// Keeps only the source iterations in \p Mask; false when none is left.
  bool narrowSource(unsigned Loop, uint64_t Mask) {
    if (Mask == ~uint64_t(0))
      return true;
    Entry &E = at(Loop);
    E.Source &= Mask;
    return E.Source != 0;
  }

  void apply(const EdgeEvent &E) {
    switch (E.Event) {
    case LoopEvent::Back:
      switch (get(E.Loop)) {
      case IterState::Rel0: set(E.Loop, IterState::Rel1); break;
      case IterState::Abs0: set(E.Loop, IterState::Abs1); break;
      default: set(E.Loop, IterState::Any); break;
      }
      break;
    case LoopEvent::Exit:
      // Outside the loop, its state says nothing more (the access reached
      // is not in it, and re-entering starts afresh at Abs0) unless it
      // becomes Last, which the caller sets after this: forgetting it
      // keeps the tags of a kernel with many loops behind it (ggml's
      // flash attention crosses dozens) from multiplying by each state of
      // every loop passed through.
      erase(E.Loop);
      break;
    case LoopEvent::Enter:
      // A fresh instance of the loop, also when the tag has been in an
      // earlier one: what it reaches now is in this instance's first
      // iteration (and when the loop is the source's, the source's
      // iteration in its own instance is free: Rel0 for the source side).
      // Knowing that it is the first test lets a known condition stop it.
      at(E.Loop) = Entry{E.Loop, IterState::Abs0};
      break;
    }
  }
};

/// Every crossing a flow met, once: a tag is then (source, crossing id), a
/// 64-bit key (tag()), and what an edge does to a crossing is computed once
/// per (crossing, edge) rather than per tag sent along it. Id 0 is the empty
/// crossing, which the flow keeps as a plain bit instead.
class CrossingTable {
public:
  CrossingTable() { intern(Crossing{}); }
  unsigned intern(Crossing C) {
    auto [It, New] = Ids.try_emplace(std::move(C), unsigned(Of.size()));
    if (New)
      Of.push_back(&It->first);
    return It->second;
  }
  const Crossing &operator[](unsigned Id) const { return *Of[Id]; }

private:
  std::map<Crossing, unsigned> Ids;
  std::vector<const Crossing *> Of;
};

uint64_t tag(unsigned Source, unsigned Crossing) {
  return uint64_t(Source) << 32 | Crossing;
}
unsigned sourceOf(uint64_t Tag) { return unsigned(Tag >> 32); }
unsigned crossingOf(uint64_t Tag) { return unsigned(Tag); }

} // namespace

struct BarrierIntervals::Graph {
  struct Edge {
    unsigned To = 0;
    std::vector<EdgeEvent> Events;
    int Source = -1; ///< A branch source started on this edge.
    /// The false edge of this loop's condition (a global loop index).
    int CondExit = -1;
    /// A side of a branch in an unrolled loop (a global loop index) that
    /// the walker saw taken only in the iterations of GuardIters.
    int GuardLoop = -1;
    uint64_t GuardIters = ~uint64_t(0);
    /// Whether crossing the edge can change a tag.
    bool transforms() const { return !Events.empty() || GuardLoop >= 0; }
    /// Numbered once the graph is built, for the transitions of crossings.
    unsigned Id = 0;
  };
  struct Node {
    enum Kind { Segment, Barrier, Call } K = Segment;
    int BarrierSite = -1;
    int Source = -1; ///< For segments holding accesses.
    std::vector<Edge> Succs;
  };
  std::vector<Node> Nodes;
  /// For each source: the branch node it comes from (-1: a segment).
  std::vector<int> SourceBranch;
  std::vector<unsigned> SourceSide;

  struct Context {
    std::vector<const CallExpr *> Stack;
    const FunctionDecl *F = nullptr;
    const KernelCFG *FC = nullptr;
    int Parent = -1;
    std::map<const CallExpr *, unsigned> Children;
    /// Per CFG block: its nodes in order.
    std::vector<std::vector<unsigned>> Chain;
    /// Per loop of FC: the global loop index.
    std::vector<unsigned> LoopIndex;
  };
  std::vector<Context> Contexts;
  std::map<std::vector<const CallExpr *>, unsigned> ContextOf;

  /// The crossings tags carry, and what each edge with loop events does
  /// to them: (edge id, crossing) -> crossing, -1 when the edge stops it
  /// (a loop condition known not to let it out).
  CrossingTable Crossings;
  llvm::DenseMap<uint64_t, int> Transitions;
  /// The crossing a tag with crossing \p C has after \p E, or -1; \p Loops
  /// says what the walker knows of each loop's condition.
  int cross(const Edge &E, unsigned C, const std::vector<LoopData> &Loops);

  unsigned addNode(Node::Kind K) {
    Nodes.emplace_back();
    Nodes.back().K = K;
    return Nodes.size() - 1;
  }

  /// Every node, in reverse post-order of depth-first searches started at
  /// each node not yet visited: without cycles, whatever the roots, every
  /// node comes after its predecessors.
  std::vector<unsigned> reversePostOrder() const {
    std::vector<unsigned> Post;
    std::vector<bool> Seen(Nodes.size(), false);
    // (node, next successor to visit): iterative, a long kernel is deep.
    std::vector<std::pair<unsigned, unsigned>> Stack;
    for (unsigned Root = 0; Root < Nodes.size(); ++Root) {
      if (Seen[Root])
        continue;
      Seen[Root] = true;
      Stack.push_back({Root, 0});
      while (!Stack.empty()) {
        auto &[N, I] = Stack.back();
        if (I < Nodes[N].Succs.size()) {
          unsigned S = Nodes[N].Succs[I++].To;
          if (!Seen[S]) {
            Seen[S] = true;
            Stack.push_back({S, 0});
          }
          continue;
        }
        Post.push_back(N);
        Stack.pop_back();
      }
    }
    return std::vector<unsigned>(Post.rbegin(), Post.rend());
  }
};

/// The tags that reach each node. A tag whose crossing is empty is just
/// its source: those are kept as one bit per source (sparse bit vectors:
/// runs of 128 sources share one element), the others as tag() keys. In
/// code with no barrier every source reaches every later node, and one
/// std::set node per (node, source) made the flow the largest cost of a
/// barrier-free kernel.
struct BarrierIntervals::Flow {
  using Bits = llvm::SparseBitVector<>;
  std::vector<Bits> Plain;
  std::vector<llvm::DenseSet<uint64_t>> In; ///< Tags with a crossing.
  /// Per node, built on first use: In sorted by source, then crossing.
  std::vector<std::vector<uint64_t>> Sorted;
  std::vector<bool> Indexed;
  /// Per node, built on first use: the branch sources among its tags. Every
  /// pair of sites at a node asked for them, and copying the node's sparse
  /// bit vector allocated one list element per 128 sources each time.
  std::vector<std::unique_ptr<Bits>> BranchAt;

  const std::vector<uint64_t> &crossed(unsigned Node,
                                       const CrossingTable &Crossings) {
    if (!Indexed[Node]) {
      std::vector<uint64_t> &V = Sorted[Node];
      V.assign(In[Node].begin(), In[Node].end());
      std::sort(V.begin(), V.end(), [&](uint64_t X, uint64_t Y) {
        if (sourceOf(X) != sourceOf(Y))
          return sourceOf(X) < sourceOf(Y);
        return Crossings[crossingOf(X)] < Crossings[crossingOf(Y)];
      });
      Indexed[Node] = true;
    }
    return Sorted[Node];
  }

  /// The crossings of source \p S's tags at \p Node, in crossing order
  /// (the empty one, of the plain tag, first).
  void tagsOf(unsigned Node, unsigned S, const CrossingTable &Crossings,
              std::vector<unsigned> &Out) {
    Out.clear();
    if (Plain[Node].test(S))
      Out.push_back(0);
    const std::vector<uint64_t> &C = crossed(Node, Crossings);
    for (auto It = std::lower_bound(C.begin(), C.end(), tag(S, 0),
                                    [](uint64_t X, uint64_t Key) {
                                      return sourceOf(X) < sourceOf(Key);
                                    });
         It != C.end() && sourceOf(*It) == S; ++It)
      Out.push_back(crossingOf(*It));
  }
};

BarrierIntervals::~BarrierIntervals() = default;

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
    BarrierCtx[S] = ContextFor(T.Barriers[BarrierSites[S].Instances[0]].CallStack,
                               ContextFor);

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
  for (SiteInfo &S : Sites)
    if (S.Node >= 0)
      S.Region = Find(unsigned(S.Node));
}

int BarrierIntervals::Graph::cross(const Edge &E, unsigned C,
                                   const std::vector<LoopData> &Loops) {
  if (!E.transforms())
    return int(C);
  auto [It, New] = Transitions.try_emplace(uint64_t(E.Id) << 32 | C, -1);
  if (!New)
    return It->second;
  Crossing X = Crossings[C];
  if (E.GuardLoop >= 0) {
    // The branch is in the source's iteration (Rel0) or the next (Rel1),
    // or in the first or second iteration after the tag entered the loop.
    unsigned L = unsigned(E.GuardLoop);
    switch (X.get(L)) {
    case IterState::Rel0:
      if (!X.narrowSource(L, E.GuardIters))
        return -1;
      break;
    case IterState::Rel1:
      if (!X.narrowSource(L, E.GuardIters >> 1))
        return -1;
      break;
    case IterState::Abs0:
      if (!(E.GuardIters & 1))
        return -1;
      break;
    case IterState::Abs1:
      if (!(E.GuardIters & 2))
        return -1;
      break;
    default:
      break;
    }
  }
  bool Last = false;
  if (E.CondExit >= 0) {
    // Leaving through the condition at test k after entering (Abs0, Abs1),
    // or one back edge after the source (Rel1): see LoopInfo.
    const LoopInfo &LI = Loops[E.CondExit].Info;
    switch (X.get(unsigned(E.CondExit))) {
    case IterState::Abs0:
      if (LI.FirstTestHolds)
        return -1;
      break;
    case IterState::Abs1:
      if (LI.Trips >= 0 && LI.Trips != 1)
        return -1;
      break;
    case IterState::Rel1:
      Last = LI.Trips >= 1;
      break;
    default:
      break;
    }
  }
  for (const EdgeEvent &Ev : E.Events)
    X.apply(Ev);
  if (Last)
    X.set(unsigned(E.CondExit), IterState::Last);
  It->second = int(Crossings.intern(std::move(X)));
  return It->second;
}

BarrierIntervals::Flow &
BarrierIntervals::flow(const std::vector<bool> &Counting) {
  if (&Counting == &NoWarpBarriers && NoWarpFlow)
    return *NoWarpFlow;
  std::unique_ptr<Flow> &F = Flows[Counting];
  if (F)
    return *F;
  F = std::make_unique<Flow>();
  unsigned NN = G->Nodes.size();
  F->Plain.resize(NN);
  F->In.resize(NN);
  F->Sorted.resize(NN);
  F->Indexed.assign(NN, false);
  F->BranchAt.resize(NN);
  auto Stops = [&](const Graph::Node &N) {
    if (N.K != Graph::Node::Barrier)
      return false;
    return BarrierSites[N.BarrierSite].Cuts ||
           (size_t(N.BarrierSite) < Counting.size() && Counting[N.BarrierSite]);
  };
  // Each node forwards only the tags that arrived since it last ran (and,
  // on its first run, the tags it starts): the fixpoint is the same as
  // re-sending the whole In set, but resending it made a barrier-free
  // kernel cost O(nodes x tags) per pass instead of O(tags) in all.
  std::deque<unsigned> Work;
  std::vector<bool> Queued(NN, true), Started(NN, false);
  std::vector<Flow::Bits> FreshPlain(NN);
  std::vector<std::vector<uint64_t>> Fresh(NN);
  // Nodes first in reverse post-order, so that in code without loops each
  // node runs once, after all its predecessors (node numbers follow the
  // CFG's block numbers, which run backwards: a FIFO over them moved tags
  // one node per pass, O(nodes) passes over a straight run of code).
  for (unsigned N : G->reversePostOrder())
    Work.push_back(N);
  while (!Work.empty()) {
    unsigned N = Work.front();
    Work.pop_front();
    Queued[N] = false;
    const Graph::Node &Node = G->Nodes[N];
    Flow::Bits OutPlain;
    std::swap(OutPlain, FreshPlain[N]);
    std::vector<uint64_t> Out;
    std::swap(Out, Fresh[N]);
    if (Stops(Node))
      continue;
    bool First = !Started[N];
    Started[N] = true;
    if (First && Node.Source >= 0)
      OutPlain.set(unsigned(Node.Source));
    for (const Graph::Edge &E : Node.Succs) {
      bool Changed = false;
      auto Send = [&](unsigned S, unsigned C) {
        int To = G->cross(E, C, Loops);
        if (To < 0)
          return;
        if (To == 0) {
          // Back to no crossing (it left every loop it entered): a plain
          // tag, as if it had crossed nothing.
          if (!F->Plain[E.To].test_and_set(S))
            return;
          FreshPlain[E.To].set(S);
        } else {
          if (!F->In[E.To].insert(tag(S, unsigned(To))).second)
            return;
          Fresh[E.To].push_back(tag(S, unsigned(To)));
        }
        Changed = true;
      };
      const Flow::Bits *Plain = &OutPlain;
      Flow::Bits WithEdge;
      if (First && E.Source >= 0) {
        WithEdge = OutPlain;
        WithEdge.set(unsigned(E.Source));
        Plain = &WithEdge;
      }
      if (!E.transforms()) {
        // Plain tags stay plain: forward the bits the target lacks.
        Flow::Bits New;
        New.intersectWithComplement(*Plain, F->Plain[E.To]);
        if (!New.empty()) {
          F->Plain[E.To] |= New;
          FreshPlain[E.To] |= New;
          Changed = true;
        }
      } else {
        for (unsigned S : *Plain)
          Send(S, 0);
      }
      for (uint64_t Tg : Out)
        Send(sourceOf(Tg), crossingOf(Tg));
      if (Changed && !Queued[E.To]) {
        Queued[E.To] = true;
        Work.push_back(E.To);
      }
    }
  }
  if (&Counting == &NoWarpBarriers)
    NoWarpFlow = F.get();
  return *F;
}

std::vector<Concurrency>
BarrierIntervals::concurrency(unsigned A, unsigned B,
                              const std::vector<bool> &Counting) {
  std::vector<Concurrency> Out;
  if (!Valid || Sites[A].Node < 0 || Sites[B].Node < 0)
    return Out;
  std::vector<Concurrency> *Memo = nullptr;
  if (&Counting == &NoWarpBarriers) {
    auto [It, New] = NoWarpAnswers.try_emplace(
        {Sites[A].Node, Sites[B].Node, Sites[A].Loops, Sites[B].Loops});
    if (!New)
      return It->second;
    Memo = &It->second;
  }
  Flow &F = flow(Counting);
  unsigned NA = Sites[A].Node, NB = Sites[B].Node;

  std::vector<unsigned> LoopsA, LoopsB, All;
  for (int L : Sites[A].Loops)
    if (L >= 0)
      LoopsA.push_back(L);
  for (int L : Sites[B].Loops)
    if (L >= 0)
      LoopsB.push_back(L);
  All = LoopsA;
  All.insert(All.end(), LoopsB.begin(), LoopsB.end());
  std::sort(All.begin(), All.end());
  All.erase(std::unique(All.begin(), All.end()), All.end());

  std::set<std::pair<
      std::vector<std::tuple<unsigned, int, int, uint64_t, uint64_t>>, int>>
      Seen;
  auto Add = [&](const Crossing *TA, const Crossing *TB,
                 Concurrency::Ordering O) {
    Concurrency C;
    C.Order = O;
    std::vector<std::tuple<unsigned, int, int, uint64_t, uint64_t>> Key;
    for (unsigned L : All) {
      LoopRelation R;
      R.Loop = L;
      R.InA = llvm::is_contained(LoopsA, L);
      R.InB = llvm::is_contained(LoopsB, L);
      R.A = TA ? TA->get(L) : IterState::Rel0;
      R.B = TB ? TB->get(L) : IterState::Rel0;
      // The iterations a tag's branches left its source: A's or B's when
      // it is the other's tag; with two branch tags, the branch's, from
      // which each access is Rel0 or Rel1.
      auto Shifted = [](uint64_t M, IterState S) -> uint64_t {
        if (S == IterState::Rel0)
          return M;
        return S == IterState::Rel1 ? M << 1 : ~uint64_t(0);
      };
      if (!TA && TB)
        R.MaskA = TB->source(L);
      else if (TA && !TB)
        R.MaskB = TA->source(L);
      else if (TA && TB) {
        uint64_t M = TA->source(L) & TB->source(L);
        if (M != ~uint64_t(0)) {
          R.MaskA = Shifted(M, R.A);
          R.MaskB = Shifted(M, R.B);
        }
      }
      Key.emplace_back(L, int(R.A), int(R.B), R.MaskA, R.MaskB);
      // One side's tag left the loop after the source's last iteration:
      // the other side, in the source's iteration or the next, is fixed
      // (the source is that side itself, or the branch both tags start at).
      auto Fix = [&](IterState S) -> int64_t {
        if (S != IterState::Rel0 && S != IterState::Rel1)
          return -1;
        return Loops[L].Info.Trips - 1 + (S == IterState::Rel1);
      };
      if (R.B == IterState::Last)
        R.OnlyA = Fix(R.A);
      if (R.A == IterState::Last)
        R.OnlyB = Fix(R.B);
      if (R.A == IterState::Last)
        R.A = IterState::Any;
      if (R.B == IterState::Last)
        R.B = IterState::Any;
      C.Loops.push_back(R);
    }
    if (Seen.insert({Key, int(O)}).second)
      Out.push_back(std::move(C));
  };

  if (NA == NB)
    Add(nullptr, nullptr, Concurrency::Unordered);
  const CrossingTable &X = G->Crossings;
  std::vector<unsigned> TagsA, TagsB;
  if (G->Nodes[NA].Source >= 0) {
    F.tagsOf(NB, G->Nodes[NA].Source, X, TagsB);
    for (unsigned C : TagsB)
      Add(nullptr, &X[C], Concurrency::AThenB);
  }
  if (G->Nodes[NB].Source >= 0) {
    F.tagsOf(NA, G->Nodes[NB].Source, X, TagsA);
    for (unsigned C : TagsA)
      Add(&X[C], nullptr, Concurrency::BThenA);
  }
  // Two sides of one branch that splits threads. The other sides of A's
  // branch are looked up in B's tags (the scan of every pair of tags was
  // O(|AtA| x |AtB|) per pair of sites).
  if (SourcesOfBranch.empty() && !G->SourceBranch.empty()) {
    SourcesOfBranch.resize(G->Nodes.size());
    for (unsigned S = 0; S < G->SourceBranch.size(); ++S)
      if (G->SourceBranch[S] >= 0) {
        SourcesOfBranch[G->SourceBranch[S]].push_back(S);
        BranchSources.set(S);
      }
  }
  // Outside every loop, all the pairs found here give one answer
  // (Unordered, no loop relation): stop at the first.
  bool OneAnswer = All.empty();
  bool Found = false;
  // The branch sources at A, in source order.
  std::unique_ptr<Flow::Bits> &BranchAtA = F.BranchAt[NA];
  if (!BranchAtA) {
    BranchAtA = std::make_unique<Flow::Bits>(F.Plain[NA]);
    *BranchAtA &= BranchSources;
    for (uint64_t Tg : F.crossed(NA, X))
      if (G->SourceBranch[sourceOf(Tg)] >= 0)
        BranchAtA->set(sourceOf(Tg));
  }
  for (unsigned SA : *BranchAtA) {
    if (OneAnswer && Found)
      break;
    int XA = G->SourceBranch[SA];
    F.tagsOf(NA, SA, X, TagsA);
    for (unsigned SB : SourcesOfBranch[XA]) {
      if (G->SourceSide[SB] == G->SourceSide[SA])
        continue;
      F.tagsOf(NB, SB, X, TagsB);
      for (unsigned CA : TagsA)
        for (unsigned CB : TagsB) {
          Add(&X[CA], &X[CB], Concurrency::Unordered);
          Found = true;
        }
      if (OneAnswer && Found)
        break;
    }
  }
  if (Memo)
    *Memo = Out;
  return Out;
}

} // namespace shmem
