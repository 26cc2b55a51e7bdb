//===- BypassCopyModel.h - Wavefronts of a 16-byte cp.async.cg --*- C++ -*-===//
//
// A 16-byte `cp.async.cg` (LDGSTS.E.BYPASS.128: `__pipeline_memcpy_async`
// of 16 bytes, cuda::memcpy_async's 16-byte pieces, CUTLASS's and ggml's
// cp_async_cg_16) is not served like a 16-byte store. Its data arrives by
// 128-byte global line and is written to shared memory one 128-byte row at
// a time, and a wavefront can move a line's 16-byte pieces into its row
// only through a rotation by a multiple of 32 bytes and an XOR of the
// piece index. Measured on an H200 (test/calibration/ldgsts-h200.tsv,
// bench/gpu/ldgsts; BypassCopyModel.cpp cites the rows):
//  1. The pieces are grouped by the global 128-byte line they come from
//     (not by lane: lanes 0, 4, ..., 28 reading one line are one group);
//     each line costs at least one wavefront (the ideal).
//  2. A line's pieces that land in different shared 128-byte rows take
//     different wavefronts: a tile whose rows are 144 bytes apart (padded
//     by 16 bytes, conflict-free for st.shared.v4) costs 2 or 3 wavefronts
//     a line.
//  3. Within one row, one wavefront writes the pieces whose positions
//     (global piece q -> shared piece p, both 0..7 within their 128 bytes)
//     fit one map p = ((q + 2a) mod 8) XOR k; the row costs the fewest such
//     maps that cover its pieces. So a rotation by an odd number of pieces
//     costs 2, every XOR swizzle 1.
// Rule 3 is exact on every layout of that table built from rows, strides,
// rotations and swizzles (239 of 437 launches); on random permutations
// within a row the H200 takes up to 3 more wavefronts than the fewest maps,
// never fewer, and never is one conflict-free where the other is not.
//
// `cp.async.ca` (4, 8 and 16 bytes) is served like st.shared of its width
// (BankModel) when its global side is coalesced.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_BYPASSCOPYMODEL_H
#define SHMEM_LINT_MODEL_BYPASSCOPYMODEL_H

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace shmem {

struct BypassCopyResult {
  unsigned ActiveLanes = 0;
  unsigned Wavefronts = 0;
  /// One per global 128-byte line the warp reads.
  unsigned IdealWavefronts = 0;
  /// The line that costs the most wavefronts: its lanes (ascending), the
  /// shared rows they write (128-byte row numbers, ascending), its cost.
  std::vector<unsigned> WorstLanes;
  std::vector<int64_t> WorstRows;
  unsigned WorstWavefronts = 0;

  bool conflicted() const { return Wavefronts > IdealWavefronts; }
  /// Wavefronts over the ideal, rounded up; 1 is ideal.
  unsigned degree() const;
};

/// \p Shared and \p Global: per lane of the warp, the byte addresses of its
/// 16-byte copy (nullopt: the lane copies nothing). Global addresses only
/// need to be right modulo 2^40 relative to each other (lines are told apart
/// by address / 128).
class RowWavefrontCache;
BypassCopyResult
analyzeBypassCopy(const std::vector<std::optional<int64_t>> &Shared,
                  const std::vector<std::optional<int64_t>> &Global,
                  RowWavefrontCache *Cache = nullptr);

/// The fewest maps p = ((q + 2a) mod 8) ^ k that cover the pieces
/// (Global[i] -> Shared[i], positions 0..7) of one line and one row.
unsigned
rowWavefronts(const std::vector<std::pair<unsigned, unsigned>> &Pieces);

/// rowWavefronts() with its answers kept. The answer depends only on which
/// (global, shared) piece positions the row holds, and the rows of one
/// copy's warps repeat a few such patterns, each a search over up to 2^8
/// sets of pieces (most of the bank check's time on ggml's flash
/// attention, whose copies reorder pieces no one map gives).
class RowWavefrontCache {
public:
  unsigned operator()(const std::vector<std::pair<unsigned, unsigned>> &Pieces);

private:
  std::unordered_map<uint64_t, unsigned> Known;
};

} // namespace shmem

#endif
