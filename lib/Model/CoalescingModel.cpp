//===- CoalescingModel.cpp - Global-memory sectors per warp request -------===//
//
// Fitted to test/calibration/h200-global-sectors.tsv (19 single-load kernels
// on an H200, Nsight Compute 2025.3.1; every row reproduced exactly, sectors
// and requests). Row names below are that file's.
//
// Rule 1, one request per warp-wide instruction, whatever the width or the
// spread of the addresses: every row, f32_stride32 (32 sectors) and
// f4_stride32 (32 sectors of 16-byte lanes) included, has 1 request.
//
// Rule 2, distinct sectors. f32_stride1 4, f32_stride2 8, f32_stride4 16,
// f32_stride8 32 (one sector per lane from 32 bytes apart on),
// f32_stride32 and f32_stride33 32; f32_broadcast 1 (all lanes one sector);
// f32_reverse 4 (lane order does not matter); f32_stride1_offset1 5 (a
// 128-byte run starting 4 bytes into a sector spans five); f2_stride1 8,
// f2_stride2 16, f2_stride32 32; f4_stride1 16, f4_stride2 32,
// f4_stride32 32; u8_stride1 1, u16_stride1 2 (sub-word lanes share a
// sector); f32_transposed_4x8 and f32_block8x4_pitch1024 4 (four rows
// 4096 bytes apart, 32 bytes each: one sector per row).
//
// Rule 3, the ideal: ceil(distinct bytes / 32), the sectors a perfectly
// aligned contiguous access of the same bytes needs (f32_stride1 4,
// f2_stride1 8, f4_stride1 16, u8_stride1 1, u16_stride1 2, broadcast 1).
//
//===----------------------------------------------------------------------===//

#include "CoalescingModel.h"

#include <algorithm>
#include <set>

namespace shmem {

unsigned CoalescingResult::degree() const {
  if (IdealSectors == 0)
    return 1;
  return (Sectors + IdealSectors - 1) / IdealSectors;
}

double CoalescingResult::ratio() const {
  if (IdealSectors == 0)
    return 1.0;
  return double(Sectors) / double(IdealSectors);
}

int64_t CoalescingModel::sectorOf(int64_t ByteAddress) const {
  int64_t S = SectorBytes;
  // Floor division, so that negative offsets (below the base) are right too.
  return ByteAddress >= 0 ? ByteAddress / S : -((-ByteAddress + S - 1) / S);
}

CoalescingResult
CoalescingModel::analyze(const std::vector<std::optional<int64_t>> &LaneAddress,
                         unsigned WidthBytes, AccessOp Op) const {
  (void)Op;
  CoalescingResult R;
  unsigned W = WidthBytes ? WidthBytes : 1;
  std::set<int64_t> Sectors;
  // Distinct bytes: the union of [a, a + W) over active lanes.
  std::vector<std::pair<int64_t, int64_t>> Runs;
  for (const auto &A : LaneAddress) {
    if (!A)
      continue;
    ++R.ActiveLanes;
    int64_t First = sectorOf(*A), Last = sectorOf(*A + int64_t(W) - 1);
    for (int64_t S = First; S <= Last; ++S)
      Sectors.insert(S);
    Runs.push_back({*A, *A + int64_t(W)});
  }
  if (R.ActiveLanes == 0)
    return R;
  R.Requests = 1;
  std::sort(Runs.begin(), Runs.end());
  int64_t CurBegin = Runs[0].first, CurEnd = Runs[0].second;
  for (size_t I = 1; I < Runs.size(); ++I) {
    if (Runs[I].first <= CurEnd) {
      CurEnd = std::max(CurEnd, Runs[I].second);
      continue;
    }
    R.DistinctBytes += uint64_t(CurEnd - CurBegin);
    CurBegin = Runs[I].first;
    CurEnd = Runs[I].second;
  }
  R.DistinctBytes += uint64_t(CurEnd - CurBegin);
  R.Sectors = unsigned(Sectors.size());
  R.IdealSectors = unsigned((R.DistinctBytes + SectorBytes - 1) / SectorBytes);
  R.SectorList.assign(Sectors.begin(), Sectors.end());
  return R;
}

} // namespace shmem
