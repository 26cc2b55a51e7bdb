//===- LdgstsCalibrationTest.cpp - cp.async (LDGSTS) on an H200 -----------===//
//
// Replays test/calibration/ldgsts-h200.tsv (bench/gpu/ldgsts: one warp, one
// cp.async per lane, measured with ncu). `cp.async.ca` must cost exactly
// what BankModel gives a store of its width, its global side coalesced;
// 16-byte `cp.async.cg` what BypassCopyModel gives on the layouts built
// from rows, strides, rotations and swizzles, never more than measured on
// any, and conflict-free exactly where the H200 is.
//
//===----------------------------------------------------------------------===//

#include "BankModel.h"
#include "BypassCopyModel.h"

#include "CalibrationTable.h"

#include <gtest/gtest.h>

#include <regex>

using namespace shmem;
using namespace shmem::calibration;

namespace {

/// "3,4,-1" in units of \p Width -> byte addresses, -1 a lane that copies
/// nothing.
std::vector<std::optional<int64_t>> bytes(const std::string &Cell,
                                          int64_t Width) {
  std::vector<std::optional<int64_t>> Out;
  for (const std::string &X : split(Cell, ',')) {
    long V = std::strtol(X.c_str(), nullptr, 10);
    Out.push_back(V < 0 ? std::nullopt : std::optional<int64_t>(V * Width));
  }
  return Out;
}

TEST(LdgstsCalibration, EveryRowMatches) {
  // The families whose every launch the rules give exactly (gen.py's names
  // less their numbers); the one stride they miss is below.
  const std::regex Exact("(contig|rotate|xor|pairs|rows|gxor|goff|stride|"
                         "one-rot)[-+0-9a-z]*");
  std::string Error;
  unsigned Rows = 0, Bypass = 0, BypassExact = 0;
  // One cache over every launch: each answer it gives for a row pattern
  // another launch left must be the search's.
  RowWavefrontCache Cache;
  bool Ok = forEachRow(
      calibrationDir() + "/ldgsts-h200.tsv",
      {"name", "width", "cache", "sass", "wavefronts", "src_wavefronts", "dst",
       "src"},
      [&](unsigned LineNo, const CellGetter &Get) {
        ++Rows;
        std::string Name = Get("name");
        int64_t Width = number(Get("width"));
        long Measured = number(Get("wavefronts"));
        if (number(Get("src_wavefronts")) >= 0)
          EXPECT_EQ(number(Get("src_wavefronts")), Measured)
              << "line " << LineNo << ": the source page disagrees";
        auto Dst = bytes(Get("dst"), Width), Src = bytes(Get("src"), Width);
        if (Get("cache") == "ca") {
          // The global side is coalesced but where lanes gather from other
          // lines ("gperm"): that costs global wavefronts, not banks.
          BankResult R = BankModel().analyze(Dst, unsigned(Width),
                                             AccessOp::Store);
          if (Name.rfind("gperm", 0) == 0)
            EXPECT_LE(long(R.Wavefronts), Measured) << "line " << LineNo;
          else
            EXPECT_EQ(long(R.Wavefronts), Measured)
                << "line " << LineNo << ": " << Name << " ca." << Width;
          return;
        }
        ASSERT_EQ(Get("sass"), "LDGSTS.E.BYPASS.128") << "line " << LineNo;
        ++Bypass;
        BypassCopyResult R = analyzeBypassCopy(Dst, Src);
        BypassCopyResult Cached = analyzeBypassCopy(Dst, Src, &Cache);
        EXPECT_EQ(Cached.Wavefronts, R.Wavefronts) << "line " << LineNo;
        EXPECT_EQ(Cached.WorstLanes, R.WorstLanes) << "line " << LineNo;
        EXPECT_EQ(Cached.WorstRows, R.WorstRows) << "line " << LineNo;
        EXPECT_LE(long(R.Wavefronts), Measured)
            << "line " << LineNo << ": " << Name;
        EXPECT_EQ(R.conflicted(), Measured > long(R.IdealWavefronts))
            << "line " << LineNo << ": " << Name;
        BypassExact += long(R.Wavefronts) == Measured;
        if (std::regex_match(Name, Exact) && Name != "stride5+32")
          EXPECT_EQ(long(R.Wavefronts), Measured)
              << "line " << LineNo << ": " << Name;
      },
      Error);
  ASSERT_TRUE(Ok) << Error;
  EXPECT_EQ(Rows, 790u);
  EXPECT_EQ(Bypass, 437u);
  EXPECT_EQ(BypassExact, 239u);
}

TEST(BypassCopyModel, RowsAndMaps) {
  // Eight lanes, one line, pieces in order: one row from 0 costs 1; from
  // piece 2 the line spans two rows; an odd rotation within a row costs 2,
  // an XOR 1.
  auto Run = [](std::vector<int> Pieces) {
    std::vector<std::optional<int64_t>> S, G;
    for (unsigned L = 0; L < Pieces.size(); ++L) {
      S.push_back(int64_t(Pieces[L]) * 16);
      G.push_back(int64_t(L) * 16);
    }
    return analyzeBypassCopy(S, G);
  };
  EXPECT_EQ(Run({0, 1, 2, 3, 4, 5, 6, 7}).Wavefronts, 1u);
  EXPECT_EQ(Run({2, 3, 4, 5, 6, 7, 8, 9}).Wavefronts, 2u);
  EXPECT_EQ(Run({1, 2, 3, 4, 5, 6, 7, 0}).Wavefronts, 2u);
  EXPECT_EQ(Run({3, 2, 1, 0, 7, 6, 5, 4}).Wavefronts, 1u);
  BypassCopyResult Padded = Run({1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(Padded.Wavefronts, 3u);
  EXPECT_EQ(Padded.IdealWavefronts, 1u);
  EXPECT_EQ(Padded.WorstRows, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(Padded.degree(), 3u);
  // The cache keys a row by its set of (global, shared) positions: the
  // same set in another lane order or with a piece copied twice costs the
  // same; another set does not share its answer.
  RowWavefrontCache Cache;
  EXPECT_EQ(Cache({{0, 1}, {1, 2}, {2, 3}, {3, 4}}), 2u);
  EXPECT_EQ(Cache({{3, 4}, {2, 3}, {1, 2}, {0, 1}, {0, 1}}), 2u);
  EXPECT_EQ(Cache({{0, 0}, {1, 1}, {2, 2}, {3, 3}}), 1u);
  EXPECT_EQ(Cache({{0, 0}, {1, 1}, {2, 2}, {3, 3}}),
            rowWavefronts({{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
  // Lanes without a copy cost nothing.
  EXPECT_EQ(analyzeBypassCopy({std::nullopt, int64_t(16)},
                              {int64_t(0), int64_t(16)}).Wavefronts,
            1u);
}

TEST(BypassCopyModel, GgmlPaddedRowsOnAnH100) {
  // bench/gpu/triage/cp-async-rows.cu: ggml's fattn-mma K/V tile, each
  // group of 8 lanes copying one 128-byte line into a row of Stride bytes,
  // 4 warps of 4 rows. An H100 measured the LDGSTS wavefronts of the whole
  // kernel (bench/gpu/triage/h100-cp-async-rows.txt, 2026-12-05): 42 for
  // ggml's 144-byte rows, 16 for 128-byte rows, 16 with the 16-byte chunk
  // XORed by the row. The model gives the same sums, warp by warp
  // 10 + 11 + 10 + 11 for the padded rows.
  auto Kernel = [](int Stride, bool Swizzled) {
    std::vector<unsigned> PerWarp;
    for (int W = 0; W < 4; ++W) {
      std::vector<std::optional<int64_t>> S(32), G(32);
      for (int L = 0; L < 32; ++L) {
        int Row = W * 4 + L / 8, K = L % 8;
        int Chunk = Swizzled ? K ^ (Row % 8) : K;
        S[L] = int64_t(Row) * Stride + Chunk * 16;
        G[L] = int64_t(Row * 8 + K) * 16;
      }
      PerWarp.push_back(analyzeBypassCopy(S, G).Wavefronts);
    }
    return PerWarp;
  };
  EXPECT_EQ(Kernel(144, false), (std::vector<unsigned>{10, 11, 10, 11}));
  EXPECT_EQ(Kernel(128, false), (std::vector<unsigned>{4, 4, 4, 4}));
  EXPECT_EQ(Kernel(128, true), (std::vector<unsigned>{4, 4, 4, 4}));
}

} // namespace
