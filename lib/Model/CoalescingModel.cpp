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

#include "IntMath.h"

#include <algorithm>
#include <functional>
#include <limits>

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

CoalescingModel::CoalescingModel(unsigned SectorBytes)
    : SectorBytes(SectorBytes ? SectorBytes : 1),
      // sectorOf() divides; with sectors of a power of two bytes (always,
      // on real hardware) an arithmetic shift is the same floor division.
      SectorShift(exactLog2(this->SectorBytes)) {}

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
  compute(LaneAddress, WidthBytes, R, &R.SectorList);
  return R;
}

CoalescingResult
CoalescingModel::count(const std::vector<std::optional<int64_t>> &LaneAddress,
                       unsigned WidthBytes) const {
  CoalescingResult R;
  compute(LaneAddress, WidthBytes, R, nullptr);
  return R;
}

void CoalescingModel::compute(
    const std::vector<std::optional<int64_t>> &LaneAddress,
    unsigned WidthBytes, CoalescingResult &R,
    std::vector<int64_t> *SectorList) const {
  int64_t W = WidthBytes ? WidthBytes : 1;
  // Every lane moves [a, a + W) with the same W, so in ascending order of
  // a both the byte runs and the sectors come out sorted: one sort gives
  // the distinct bytes (merging overlapping runs) and the distinct sectors
  // (skipping the ones already counted). Called for every warp of every
  // candidate value of the unknowns, hence no set, and the scratch sized
  // once rather than grown lane by lane.
  if (Scratch.size() < LaneAddress.size())
    Scratch.resize(LaneAddress.size());
  int64_t *Starts = Scratch.data();
  size_t N = 0;
  bool Ascending = true;
  int64_t Prev = std::numeric_limits<int64_t>::min();
  for (const auto &A : LaneAddress) {
    if (!A)
      continue;
    Ascending &= *A >= Prev;
    Prev = *A;
    Starts[N++] = *A;
  }
  R.ActiveLanes = unsigned(N);
  if (N == 0)
    return;
  R.Requests = 1;
  // Lanes usually come in address order already, or in reverse order.
  if (!Ascending) {
    if (std::is_sorted(Starts, Starts + N, std::greater<int64_t>()))
      std::reverse(Starts, Starts + N);
    else
      std::sort(Starts, Starts + N);
  }
  if (SectorList)
    SectorList->reserve(N + 1);
  // One pass for both: the current run of bytes, and the last sector
  // counted (one below the first lane's at the start).
  int64_t CurBegin = Starts[0], CurEnd = Starts[0] + W;
  unsigned Sectors = 0;
  auto Scan = [&](auto Sector) {
    int64_t LastSector = Sector(Starts[0]) - 1;
    for (size_t I = 0; I < N; ++I) {
      int64_t A = Starts[I];
      if (A <= CurEnd) {
        CurEnd = std::max(CurEnd, A + W);
      } else {
        R.DistinctBytes += uint64_t(CurEnd - CurBegin);
        CurBegin = A;
        CurEnd = A + W;
      }
      int64_t First = std::max(Sector(A), LastSector + 1);
      int64_t Last = Sector(A + W - 1);
      if (First > Last)
        continue;
      Sectors += unsigned(Last - First + 1);
      if (SectorList)
        for (int64_t S = First; S <= Last; ++S)
          SectorList->push_back(S);
      LastSector = Last;
    }
  };
  // The shift or the division chosen once per warp, not once per lane.
  if (SectorShift >= 0)
    Scan([Shift = SectorShift](int64_t A) { return A >> Shift; });
  else
    Scan([this](int64_t A) { return sectorOf(A); });
  R.DistinctBytes += uint64_t(CurEnd - CurBegin);
  R.Sectors = Sectors;
  R.IdealSectors = unsigned((R.DistinctBytes + SectorBytes - 1) / SectorBytes);
}

} // namespace shmem
