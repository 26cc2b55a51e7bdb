//===- CoalescingModel.h - Global-memory sectors per warp request -*- C++ -*-===//
//
// How many 32-byte sectors one warp-wide global load or store touches, given
// the byte address each active lane accesses, and how many it would need at
// best for the bytes it moves. Calibrated against Nsight Compute on an H200
// (test/calibration/h200-global-sectors.tsv, see README.md there); the unit
// test CoalescingModelTest replays every measured row and expects the exact
// sector and request counts.
//
// The rules (CoalescingModel.cpp cites the rows that show each one):
//  1. A warp-wide access is one request (LDG/STG of 1 to 16 bytes per lane),
//     none when no lane is active.
//  2. It costs the number of distinct 32-byte sectors the active lanes'
//     bytes fall in; lanes sharing a sector share it (a broadcast is one
//     sector), whatever the order of the lanes.
//  3. Ideal = the fewest sectors that can hold the distinct bytes the warp
//     moves: ceil(distinct bytes / 32). Misalignment of a contiguous run
//     costs at most one sector more per run.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_COALESCINGMODEL_H
#define SHMEM_LINT_MODEL_COALESCINGMODEL_H

#include "BankModel.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace shmem {

struct CoalescingResult {
  unsigned ActiveLanes = 0;
  /// Warp-wide requests (1, or 0 with no active lane).
  unsigned Requests = 0;
  /// Distinct 32-byte sectors touched: what
  /// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum counts.
  unsigned Sectors = 0;
  /// The fewest sectors that can hold the bytes moved.
  unsigned IdealSectors = 0;
  /// Distinct bytes the active lanes access.
  uint64_t DistinctBytes = 0;
  /// Sector indices (address / 32), ascending.
  std::vector<int64_t> SectorList;

  /// Bytes fetched for every byte used, rounded up: 1 is coalesced.
  unsigned degree() const;
  /// Sectors / ideal as a ratio (1.0 when ideal).
  double ratio() const;
};

class CoalescingModel {
public:
  explicit CoalescingModel(unsigned SectorBytes = 32);

  /// \p LaneAddress holds one entry per lane of the warp: the byte address
  /// the lane accesses (relative to a base aligned to at least a sector), or
  /// nullopt when the lane is inactive. \p WidthBytes is 1, 2, 4, 8 or 16.
  /// Loads and stores follow the same rules (\p Op is kept for symmetry with
  /// BankModel; the calibration measured loads).
  CoalescingResult analyze(const std::vector<std::optional<int64_t>> &LaneAddress,
                           unsigned WidthBytes, AccessOp Op = AccessOp::Load) const;

  /// analyze() without the SectorList, for callers that try many address
  /// sets and keep the list of few.
  CoalescingResult count(const std::vector<std::optional<int64_t>> &LaneAddress,
                         unsigned WidthBytes) const;

  unsigned sectorBytes() const { return SectorBytes; }
  int64_t sectorOf(int64_t ByteAddress) const;

private:
  unsigned SectorBytes;
  /// log2 of SectorBytes, or -1 when not a power of two (then sectorOf
  /// divides).
  int SectorShift = -1;

  void compute(const std::vector<std::optional<int64_t>> &LaneAddress,
               unsigned WidthBytes, CoalescingResult &R,
               std::vector<int64_t> *SectorList) const;
  /// The active lanes' addresses (the first ActiveLanes entries), kept
  /// between calls so that analysing warp after warp does not allocate (a
  /// model is used by one thread).
  mutable std::vector<int64_t> Scratch;
};

} // namespace shmem

#endif
