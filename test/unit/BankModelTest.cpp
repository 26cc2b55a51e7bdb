//===- BankModelTest.cpp - Hand cases for the shared-memory bank model ----===//

#include "BankModel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

using namespace shmem;

namespace {

using Lanes = std::vector<std::optional<int64_t>>;

/// Byte offset per lane from a function of the lane; lanes >= Active or for
/// which Mask is false are inactive.
Lanes lanes(const std::function<int64_t(unsigned)> &Off, unsigned Active = 32,
            const std::function<bool(unsigned)> &Mask = nullptr) {
  Lanes L(32);
  for (unsigned I = 0; I < 32; ++I)
    if (I < Active && (!Mask || Mask(I)))
      L[I] = Off(I);
  return L;
}

Lanes strided(int64_t StrideBytes, unsigned Active = 32) {
  return lanes([=](unsigned L) { return int64_t(L) * StrideBytes; }, Active);
}

BankResult load(const Lanes &L, unsigned Width) {
  return BankModel().analyze(L, Width, AccessOp::Load);
}
BankResult store(const Lanes &L, unsigned Width) {
  return BankModel().analyze(L, Width, AccessOp::Store);
}

TEST(BankModel, BankOf) {
  BankModel M;
  EXPECT_EQ(M.bankOf(0), 0u);
  EXPECT_EQ(M.bankOf(3), 0u);
  EXPECT_EQ(M.bankOf(4), 1u);
  EXPECT_EQ(M.bankOf(124), 31u);
  EXPECT_EQ(M.bankOf(128), 0u);
  EXPECT_EQ(M.bankOf(-4), 31u);
  EXPECT_EQ(M.bankOf(-1), 31u);
  EXPECT_EQ(M.phaseLanes(1), 32u);
  EXPECT_EQ(M.phaseLanes(4), 32u);
  EXPECT_EQ(M.phaseLanes(8), 16u);
  EXPECT_EQ(M.phaseLanes(16), 8u);
}

TEST(BankModel, UnitStrideIsOneWavefront) {
  BankResult R = load(strided(4), 4);
  EXPECT_EQ(R.Wavefronts, 1u);
  EXPECT_EQ(R.IdealWavefronts, 1u);
  EXPECT_EQ(R.BankConflicts, 0u);
  EXPECT_EQ(R.degree(), 1u);
  EXPECT_FALSE(R.conflicted());
  EXPECT_EQ(R.ActiveLanes, 32u);
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(R.LaneBank[L], int(L));
  for (unsigned B = 0; B < 32; ++B)
    EXPECT_EQ(R.WordsPerBank[B], 1u);
}

TEST(BankModel, ColumnOf32x32TileIs32Way) {
  // float tile[32][32]; lane reads tile[lane][c].
  BankResult R =
      load(lanes([](unsigned L) { return int64_t(L) * 128 + 12; }), 4);
  EXPECT_EQ(R.Wavefronts, 32u);
  EXPECT_EQ(R.IdealWavefronts, 1u);
  EXPECT_EQ(R.BankConflicts, 31u);
  EXPECT_EQ(R.degree(), 32u);
  EXPECT_TRUE(R.conflicted());
  EXPECT_EQ(R.Worst.Bank, 3u);
  EXPECT_EQ(R.Worst.Words.size(), 32u);
  EXPECT_EQ(R.Worst.Words.front(), 3);
  EXPECT_EQ(R.Worst.Words.back(), 31 * 32 + 3);
  ASSERT_EQ(R.Worst.Lanes.size(), 32u);
  EXPECT_EQ(R.Worst.Lanes.front(), 0u);
  EXPECT_EQ(R.Worst.Lanes.back(), 31u);
  EXPECT_EQ(R.PhaseBegin, 0u);
  EXPECT_EQ(R.PhaseEnd, 32u);
  EXPECT_EQ(R.WordsPerBank[3], 32u);
  EXPECT_EQ(R.WordsPerBank[4], 0u);
}

TEST(BankModel, PaddedColumnIsConflictFree) {
  // float tile[32][33]; lane reads tile[lane][0].
  BankResult R = load(strided(33 * 4), 4);
  EXPECT_EQ(R.Wavefronts, 1u);
  EXPECT_FALSE(R.conflicted());
}

TEST(BankModel, XorSwizzleIsConflictFree) {
  BankResult R =
      load(lanes([](unsigned L) { return int64_t(L * 32 + (L ^ 7)) * 4; }), 4);
  EXPECT_EQ(R.Wavefronts, 1u);
}

TEST(BankModel, BroadcastIsOneWavefront) {
  Lanes All0 = strided(0);
  EXPECT_EQ(load(All0, 1).Wavefronts, 1u);
  EXPECT_EQ(load(All0, 4).Wavefronts, 1u);
  EXPECT_EQ(store(All0, 4).Wavefronts, 1u);
  // Wide loads fold lane pairs: a 64-bit broadcast is one wavefront, a
  // 128-bit broadcast two (one per half-warp).
  BankResult R64 = load(All0, 8);
  EXPECT_EQ(R64.Wavefronts, 1u);
  EXPECT_TRUE(R64.PairsFolded);
  EXPECT_EQ(R64.PhaseLanes, 32u);
  BankResult R128 = load(All0, 16);
  EXPECT_EQ(R128.Wavefronts, 2u);
  EXPECT_EQ(R128.IdealWavefronts, 2u);
  EXPECT_EQ(R128.PhaseLanes, 16u);
  EXPECT_FALSE(R128.conflicted());
  // Stores never fold.
  BankResult S128 = store(All0, 16);
  EXPECT_EQ(S128.Wavefronts, 4u);
  EXPECT_FALSE(S128.PairsFolded);
  EXPECT_EQ(store(All0, 8).Wavefronts, 2u);
}

TEST(BankModel, Stride2IsTwoWay) {
  BankResult R = load(strided(8), 4);
  EXPECT_EQ(R.Wavefronts, 2u);
  EXPECT_EQ(R.degree(), 2u);
  EXPECT_EQ(R.BankConflicts, 1u);
  EXPECT_EQ(R.Worst.Bank, 0u);
  EXPECT_EQ(R.Worst.Words, (std::vector<int64_t>{0, 32}));
  EXPECT_EQ(R.Worst.Lanes, (std::vector<unsigned>{0, 16}));
  // Odd strides are conflict-free.
  EXPECT_EQ(load(strided(12), 4).Wavefronts, 1u);
  EXPECT_EQ(load(strided(4 * 17), 4).Wavefronts, 1u);
  EXPECT_EQ(load(strided(4 * 16), 4).Wavefronts, 16u);
}

TEST(BankModel, SubWordAccessesShareWords) {
  // Bytes and halves of one word don't conflict.
  EXPECT_EQ(load(strided(1), 1).Wavefronts, 1u);
  EXPECT_EQ(load(strided(2), 2).Wavefronts, 1u);
  EXPECT_EQ(store(strided(1), 1).Wavefronts, 1u);
  // 1-byte loads 8 bytes apart: words 0, 2, ..., 62, two in each even bank.
  EXPECT_EQ(load(strided(8), 1).Wavefronts, 2u);
  // Four lanes per word, eight words in bank 0.
  BankResult R =
      load(lanes([](unsigned L) { return int64_t(L % 4 + (L / 4) * 128); }), 1);
  EXPECT_EQ(R.Wavefronts, 8u);
  EXPECT_EQ(R.Worst.Lanes.size(), 32u);
}

TEST(BankModel, WideAccessesUsePhases) {
  // 64-bit: two half-warp phases; 128-bit: four quarter-warp phases.
  BankResult R64 = load(strided(8), 8);
  EXPECT_EQ(R64.Wavefronts, 2u);
  EXPECT_EQ(R64.IdealWavefronts, 2u);
  EXPECT_EQ(R64.PhaseLanes, 16u);
  EXPECT_FALSE(R64.conflicted());
  BankResult R128 = load(strided(16), 16);
  EXPECT_EQ(R128.Wavefronts, 4u);
  EXPECT_EQ(R128.IdealWavefronts, 4u);
  EXPECT_EQ(R128.PhaseLanes, 8u);
  EXPECT_FALSE(R128.conflicted());
  // Stride 2 elements: 2-way within each phase.
  BankResult C64 = load(strided(16), 8);
  EXPECT_EQ(C64.Wavefronts, 4u);
  EXPECT_EQ(C64.degree(), 2u);
  BankResult C128 = load(strided(32), 16);
  EXPECT_EQ(C128.Wavefronts, 8u);
  EXPECT_EQ(C128.degree(), 2u);
  // Phases are by lane number: even lanes on row 0, odd lanes on row 1.
  BankResult Rows = load(
      lanes([](unsigned L) { return int64_t((L % 2) * 128 + (L / 2) * 8); }),
      8);
  EXPECT_EQ(Rows.Wavefronts, 4u);
  EXPECT_EQ(Rows.BankConflicts, 2u);
  EXPECT_EQ(Rows.PhaseEnd - Rows.PhaseBegin, 16u);
  // Column of a float4 tile[32][8]: every lane in banks 0-3.
  EXPECT_EQ(load(strided(128), 16).Wavefronts, 32u);
}

TEST(BankModel, WideLoadsFoldOnlyWholeWarpPairs) {
  // Lane pairs (2k, 2k+1) share a 16-byte element: two wavefronts.
  Lanes Pairs = lanes([](unsigned L) { return int64_t(L / 2) * 16; });
  EXPECT_EQ(load(Pairs, 16).Wavefronts, 2u);
  EXPECT_TRUE(load(Pairs, 16).PairsFolded);
  EXPECT_EQ(store(Pairs, 16).Wavefronts, 4u);
  EXPECT_EQ(
      load(lanes([](unsigned L) { return int64_t(L / 2) * 8; }), 8).Wavefronts,
      1u);
  // Lanes i and i+8 share: no folding, four quarter-warps.
  BankResult NoFold =
      load(lanes([](unsigned L) { return int64_t(L % 8) * 16; }), 16);
  EXPECT_FALSE(NoFold.PairsFolded);
  EXPECT_EQ(NoFold.Wavefronts, 4u);
  // Pairs in one half only: no folding.
  Lanes Half = lanes([](unsigned L) {
    return L < 16 ? int64_t(L / 2) * 16 : 256 + int64_t(L - 16) * 16;
  });
  EXPECT_EQ(load(Half, 16).Wavefronts, 4u);
  // An inactive partner does not prevent folding.
  Lanes Even = lanes([](unsigned L) { return int64_t(L / 2) * 8; }, 32,
                     [](unsigned L) { return L % 2 == 0; });
  EXPECT_EQ(load(Even, 8).Wavefronts, 1u);
  EXPECT_EQ(store(Even, 8).Wavefronts, 2u);
}

TEST(BankModel, PartialWarpsAndMasks) {
  // A block of 8 threads reading float4: one quarter-warp phase.
  BankResult Q = load(strided(16, 8), 16);
  EXPECT_EQ(Q.Wavefronts, 1u);
  EXPECT_EQ(Q.IdealWavefronts, 1u);
  EXPECT_EQ(Q.ActiveLanes, 8u);
  EXPECT_EQ(Q.LaneBank[8], -1);
  // 16 threads, column of a 32x32 float tile: 16-way.
  BankResult C = load(strided(128, 16), 4);
  EXPECT_EQ(C.Wavefronts, 16u);
  EXPECT_EQ(C.degree(), 16u);
  // if (lane < 16) on 64-bit loads: one phase.
  EXPECT_EQ(load(strided(8, 16), 8).Wavefronts, 1u);
  // A single lane.
  Lanes One(32);
  One[5] = 80;
  BankResult S = load(One, 16);
  EXPECT_EQ(S.Wavefronts, 1u);
  EXPECT_EQ(S.ActiveLanes, 1u);
  EXPECT_EQ(S.LaneBank[5], 20);
  // No active lane: nothing to do.
  BankResult None = load(Lanes(32), 4);
  EXPECT_EQ(None.Wavefronts, 0u);
  EXPECT_EQ(None.Phases, 0u);
  EXPECT_EQ(None.ActiveLanes, 0u);
  EXPECT_FALSE(None.conflicted());
  EXPECT_EQ(None.degree(), 1u);
  // Shorter lane vectors are partial warps.
  Lanes Short = {0, 128, 256};
  BankResult Sh = load(Short, 4);
  EXPECT_EQ(Sh.Wavefronts, 3u);
  EXPECT_EQ(Sh.LaneBank.size(), 3u);
}

TEST(BankModel, WorstBankAndLanes) {
  // Lanes 0, 8, 16, 24 hit bank 0 (words 0, 32, 64, 96); lanes 4, 20 hit
  // bank 4 (words 4, 36); the rest are conflict-free.
  Lanes L = strided(4);
  L[8] = 128;
  L[16] = 256;
  L[24] = 384;
  L[20] = 144;
  BankResult R = load(L, 4);
  EXPECT_EQ(R.Wavefronts, 4u);
  EXPECT_EQ(R.Worst.Bank, 0u);
  EXPECT_EQ(R.Worst.Words, (std::vector<int64_t>{0, 32, 64, 96}));
  EXPECT_EQ(R.Worst.Lanes, (std::vector<unsigned>{0, 8, 16, 24}));
  EXPECT_EQ(R.WordsPerBank[0], 4u);
  EXPECT_EQ(R.WordsPerBank[4], 2u);
  EXPECT_EQ(R.WordsPerBank[8], 0u);
  // The worst phase of a 128-bit access: quarter 2 has the conflict.
  Lanes W = strided(16);
  W[17] = 256 + 128; // lane 16 reads bytes 256..271: banks 0-3 again
  BankResult R2 = load(W, 16);
  EXPECT_FALSE(R2.PairsFolded);
  EXPECT_EQ(R2.Wavefronts, 5u);
  EXPECT_EQ(R2.BankConflicts, 1u);
  EXPECT_EQ(R2.PhaseBegin, 16u);
  EXPECT_EQ(R2.PhaseEnd, 24u);
  EXPECT_EQ(R2.Worst.Bank, 0u);
  EXPECT_EQ(R2.Worst.Words, (std::vector<int64_t>{64, 96}));
  EXPECT_EQ(R2.Worst.Lanes, (std::vector<unsigned>{16, 17}));
}

TEST(BankModel, OtherBankGeometries) {
  // 16 banks of 8 bytes.
  BankModel M(16, 8);
  EXPECT_EQ(M.bankOf(8), 1u);
  EXPECT_EQ(M.bankOf(128), 0u);
  BankResult R = M.analyze(strided(8), 8, AccessOp::Load);
  EXPECT_EQ(R.PhaseLanes, 16u);
  EXPECT_FALSE(R.PairsFolded); // one word per lane: nothing to fold
  EXPECT_EQ(R.Wavefronts, 2u);
}

} // namespace

namespace {

/// ldmatrix/stmatrix .xN as the walker records it: a 16-byte access by
/// lanes 0 .. 8N-1, each the address of one row. The figures an H200 gave
/// under ncu for one warp (docs/checks/shmem-bank-conflict.md): x4 over
/// 128-byte rows 32 wavefronts against 4; 144-byte rows or the 16-byte
/// chunk XORed with row % 8, 4; x1 over 128-byte rows 8 against 1.
TEST(BankModel, LdmatrixFigures) {
  auto X4 = [](int64_t RowBytes, bool Swizzle) {
    return lanes([=](unsigned L) {
      int64_t Row = L % 16, Chunk = L / 16;
      if (Swizzle)
        Chunk ^= Row % 8;
      return Row * RowBytes + Chunk * 16;
    });
  };
  BankResult R = load(X4(128, false), 16);
  EXPECT_EQ(R.Wavefronts, 32u);
  EXPECT_EQ(R.IdealWavefronts, 4u);
  EXPECT_EQ(R.degree(), 8u);
  R = load(X4(144, false), 16);
  EXPECT_EQ(R.Wavefronts, 4u);
  EXPECT_EQ(R.IdealWavefronts, 4u);
  R = load(X4(128, true), 16);
  EXPECT_EQ(R.Wavefronts, 4u);
  R = store(X4(128, false), 16);
  EXPECT_EQ(R.Wavefronts, 32u);
  EXPECT_EQ(R.IdealWavefronts, 4u);
  R = load(strided(128, 8), 16);
  EXPECT_EQ(R.Wavefronts, 8u);
  EXPECT_EQ(R.IdealWavefronts, 1u);
  R = load(strided(144, 8), 16);
  EXPECT_EQ(R.Wavefronts, 1u);
}

} // namespace
