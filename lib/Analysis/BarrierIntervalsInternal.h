//===- BarrierIntervalsInternal.h - Barrier intervals' parts ----*- C++ -*-===//
//
// Internal to BarrierIntervals: the graph of segments, barriers and calls
// that BarrierIntervalsGraph.cpp builds from the trace and the program's
// CFGs; the crossings (what a barrier-free path did to the loops it passed
// through) that BarrierIntervals.cpp's flow sends along its edges; and the
// tags the flow leaves at each node.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_BARRIERINTERVALSINTERNAL_H
#define SHMEM_LINT_ANALYSIS_BARRIERINTERVALSINTERNAL_H

#include "BarrierIntervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SparseBitVector.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace shmem {
namespace intervals {

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
  bool operator==(const Crossing &O) const { return Loops == O.Loops; }
  struct Hash {
    size_t operator()(const Crossing &C) const {
      size_t H = C.Loops.size();
      for (const Entry &E : C.Loops)
        H = llvm::hash_combine(H, E.Loop, unsigned(E.State), E.Source);
      return H;
    }
  };
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
  /// Hashed: a flow interns a crossing at every new transition (118,595
  /// times on ggml's fattn-mma-f16 file), and each comparison in an ordered
  /// map walked two crossings' loops. The ids are in order of interning.
  std::unordered_map<Crossing, unsigned, Crossing::Hash> Ids;
  std::vector<const Crossing *> Of;
};

inline uint64_t tag(unsigned Source, unsigned Crossing) {
  return uint64_t(Source) << 32 | Crossing;
}
inline unsigned sourceOf(uint64_t Tag) { return unsigned(Tag >> 32); }
inline unsigned crossingOf(uint64_t Tag) { return unsigned(Tag); }

} // namespace intervals

struct BarrierIntervals::Graph {
  struct Edge {
    unsigned To = 0;
    std::vector<intervals::EdgeEvent> Events;
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
  /// Per node: its barrier-free region (a block barrier is its own). A tag
  /// never leaves the region of its source.
  std::vector<unsigned> RegionOf;

  struct Context {
    std::vector<const clang::CallExpr *> Stack;
    const clang::FunctionDecl *F = nullptr;
    const KernelCFG *FC = nullptr;
    int Parent = -1;
    std::map<const clang::CallExpr *, unsigned> Children;
    /// Per CFG block: its nodes in order.
    std::vector<std::vector<unsigned>> Chain;
    /// Per loop of FC: the global loop index.
    std::vector<unsigned> LoopIndex;
  };
  std::vector<Context> Contexts;
  std::map<std::vector<const clang::CallExpr *>, unsigned> ContextOf;

  /// The crossings tags carry, and what each edge with loop events does
  /// to them: (edge id, crossing) -> crossing, -1 when the edge stops it
  /// (a loop condition known not to let it out).
  intervals::CrossingTable Crossings;
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
  /// The barrier-free regions whose sources have flowed (flowRegion()).
  llvm::DenseSet<unsigned> Regions;

  const std::vector<uint64_t> &
  crossed(unsigned Node, const intervals::CrossingTable &Crossings);
  /// The crossings of source \p S's tags at \p Node, in crossing order
  /// (the empty one, of the plain tag, first).
  void tagsOf(unsigned Node, unsigned S,
              const intervals::CrossingTable &Crossings,
              std::vector<unsigned> &Out);
};

} // namespace shmem

#endif // SHMEM_LINT_ANALYSIS_BARRIERINTERVALSINTERNAL_H
