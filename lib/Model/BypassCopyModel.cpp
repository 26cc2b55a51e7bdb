//===- BypassCopyModel.cpp - Wavefronts of a 16-byte cp.async.cg ----------===//
//
// Fitted to test/calibration/ldgsts-h200.tsv (bench/gpu/ldgsts: one warp,
// one cp.async per lane; row names below are that file's).
//
// Rule 1, lines. "goff1" (lanes read 16-byte pieces 1..32: every 8-lane
// group spans two global lines) costs 12 where "contig+0" costs 4; the
// "one-spread" rows (lanes 0, 4, ..., 28 reading one line) cost what eight
// consecutive lanes reading it cost ("one-spread0", the identity, 1).
//
// Rule 2, rows. "contig+b" (lane l writes piece b + l): 4 wavefronts for
// b = 0 and 8, 8 for even b, 12 or 16 for odd b: each 8-piece line lands
// in two rows unless b is a multiple of 8. "rows<C>+<pad>" (a tile of C
// pieces a row padded by <pad>) all follow.
//
// Rule 3, maps. "one-rot<r>-xor<k>" (eight pieces of one line into one row,
// p = ((q + r) mod 8) ^ k): 1 wavefront for every even r and every k, 2 for
// every odd r. "xor<k>", "rotate<r>", "pairs<j>" (32-byte sectors moved
// whole, halves swapped or not) and the strides follow; "stride5+32" costs
// 32 where the fewest maps give 28, and the random permutations ("perm<j>",
// "one-perm<j>") 0 to 3 more than the fewest maps.
//
//===----------------------------------------------------------------------===//

#include "BypassCopyModel.h"

#include "IntMath.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

namespace shmem {

unsigned BypassCopyResult::degree() const {
  if (IdealWavefronts == 0)
    return 1;
  return (Wavefronts + IdealWavefronts - 1) / IdealWavefronts;
}

namespace {

constexpr int64_t LineBytes = 128;
constexpr int64_t PieceBytes = 16;
constexpr unsigned Pieces = LineBytes / PieceBytes;

/// The 32 maps p = ((q + 2a) mod 8) ^ k, as p for each q.
const std::array<std::array<unsigned, Pieces>, 32> &maps() {
  static const auto M = [] {
    std::array<std::array<unsigned, Pieces>, 32> Out{};
    for (unsigned A = 0; A < 4; ++A)
      for (unsigned K = 0; K < Pieces; ++K)
        for (unsigned Q = 0; Q < Pieces; ++Q)
          Out[A * Pieces + K][Q] = ((Q + 2 * A) % Pieces) ^ K;
    return Out;
  }();
  return M;
}

} // namespace

unsigned
rowWavefronts(const std::vector<std::pair<unsigned, unsigned>> &Pieces) {
  // Each piece of a line has its own global position, so a row holds at
  // most eight; a breadth-first search over the subsets covered finds the
  // fewest maps (at most 2^8 states).
  unsigned N = unsigned(Pieces.size());
  if (N == 0)
    return 0;
  if (N > 16)
    return N; // Not one line (a caller's duplicate addresses): no merging.
  const unsigned Full = (1u << N) - 1;
  std::vector<unsigned> Masks;
  for (const auto &M : maps()) {
    unsigned Mask = 0;
    for (unsigned I = 0; I < N; ++I)
      if (M[Pieces[I].first % 8] == Pieces[I].second % 8)
        Mask |= 1u << I;
    // One map takes every piece (a plain or swizzled copy, the common
    // case): the fewest is one, with no search.
    if (Mask == Full)
      return 1;
    if (Mask && std::find(Masks.begin(), Masks.end(), Mask) == Masks.end())
      Masks.push_back(Mask);
  }
  std::vector<unsigned> Dist(Full + 1, ~0u);
  std::vector<unsigned> Queue{0};
  Dist[0] = 0;
  for (size_t H = 0; H < Queue.size(); ++H) {
    unsigned S = Queue[H];
    if (S == Full)
      return Dist[S];
    for (unsigned M : Masks)
      if (Dist[S | M] == ~0u) {
        Dist[S | M] = Dist[S] + 1;
        Queue.push_back(S | M);
      }
  }
  return N; // Unreachable: every piece has a map that takes it.
}

unsigned RowWavefrontCache::operator()(
    const std::vector<std::pair<unsigned, unsigned>> &Pieces) {
  if (Pieces.size() > 16)
    return rowWavefronts(Pieces);
  // The set of (q, p) positions: pieces at one position are taken by the
  // same maps, so the fewest maps for the set is the answer.
  uint64_t Key = 0;
  for (const auto &[Q, P] : Pieces)
    Key |= uint64_t(1) << (Q % 8 * 8 + P % 8);
  auto [It, New] = Known.try_emplace(Key, 0);
  if (New)
    It->second = rowWavefronts(Pieces);
  return It->second;
}

BypassCopyResult
analyzeBypassCopy(const std::vector<std::optional<int64_t>> &Shared,
                  const std::vector<std::optional<int64_t>> &Global,
                  RowWavefrontCache *Cache) {
  BypassCopyResult R;
  // (line, row, global piece, shared piece, lane), sorted by line, row and
  // lane: each line's rows in order, each row's pieces in lane order. One
  // vector rather than a map of maps, which allocated per line and row for
  // every warp of every copy (ggml's flash attention analyses thousands).
  struct Piece {
    int64_t Line, Row;
    unsigned Q, P, Lane;
  };
  std::vector<Piece> All;
  for (unsigned L = 0; L < Shared.size() && L < Global.size(); ++L) {
    if (!Shared[L] || !Global[L])
      continue;
    ++R.ActiveLanes;
    int64_t G = *Global[L], S = *Shared[L];
    All.push_back({floorDiv(G, LineBytes), floorDiv(S, LineBytes),
                   unsigned(floorMod(G, LineBytes) / PieceBytes),
                   unsigned(floorMod(S, LineBytes) / PieceBytes), L});
  }
  std::sort(All.begin(), All.end(), [](const Piece &X, const Piece &Y) {
    return std::tie(X.Line, X.Row, X.Lane) < std::tie(Y.Line, Y.Row, Y.Lane);
  });
  std::vector<std::pair<unsigned, unsigned>> QP;
  for (size_t I = 0; I < All.size();) {
    ++R.IdealWavefronts;
    unsigned Cost = 0;
    std::vector<unsigned> Lanes;
    std::vector<int64_t> RowIds;
    size_t J = I;
    for (; J < All.size() && All[J].Line == All[I].Line;) {
      QP.clear();
      size_t K = J;
      for (; K < All.size() && All[K].Line == All[J].Line &&
             All[K].Row == All[J].Row;
           ++K) {
        QP.push_back({All[K].Q, All[K].P});
        Lanes.push_back(All[K].Lane);
      }
      Cost += Cache ? (*Cache)(QP) : rowWavefronts(QP);
      RowIds.push_back(All[J].Row);
      J = K;
    }
    I = J;
    R.Wavefronts += Cost;
    if (Cost > R.WorstWavefronts) {
      std::sort(Lanes.begin(), Lanes.end());
      R.WorstWavefronts = Cost;
      R.WorstLanes = std::move(Lanes);
      R.WorstRows = std::move(RowIds);
    }
  }
  return R;
}

} // namespace shmem
