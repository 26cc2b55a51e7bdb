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
#include <map>

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
  std::vector<unsigned> Masks;
  for (const auto &M : maps()) {
    unsigned Mask = 0;
    for (unsigned I = 0; I < N; ++I)
      if (M[Pieces[I].first % 8] == Pieces[I].second % 8)
        Mask |= 1u << I;
    if (Mask && std::find(Masks.begin(), Masks.end(), Mask) == Masks.end())
      Masks.push_back(Mask);
  }
  const unsigned Full = (1u << N) - 1;
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

BypassCopyResult
analyzeBypassCopy(const std::vector<std::optional<int64_t>> &Shared,
                  const std::vector<std::optional<int64_t>> &Global) {
  BypassCopyResult R;
  // Line -> row -> (global piece, shared piece, lane).
  struct Piece {
    unsigned Q, P, Lane;
  };
  std::map<int64_t, std::map<int64_t, std::vector<Piece>>> Lines;
  for (unsigned L = 0; L < Shared.size() && L < Global.size(); ++L) {
    if (!Shared[L] || !Global[L])
      continue;
    ++R.ActiveLanes;
    int64_t G = *Global[L], S = *Shared[L];
    Lines[floorDiv(G, LineBytes)][floorDiv(S, LineBytes)].push_back(
        {unsigned(floorMod(G, LineBytes) / PieceBytes),
         unsigned(floorMod(S, LineBytes) / PieceBytes), L});
  }
  R.IdealWavefronts = unsigned(Lines.size());
  for (const auto &[Line, Rows] : Lines) {
    unsigned Cost = 0;
    std::vector<unsigned> Lanes;
    std::vector<int64_t> RowIds;
    for (const auto &[Row, Ps] : Rows) {
      std::vector<std::pair<unsigned, unsigned>> QP;
      for (const Piece &X : Ps) {
        QP.push_back({X.Q, X.P});
        Lanes.push_back(X.Lane);
      }
      Cost += rowWavefronts(QP);
      RowIds.push_back(Row);
    }
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
