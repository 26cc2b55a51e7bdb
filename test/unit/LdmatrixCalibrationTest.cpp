//===- LdmatrixCalibrationTest.cpp - ldmatrix/stmatrix on an H200 ---------===//
//
// Replays test/calibration/ldmatrix-h200.tsv (bench/gpu/ldmatrix, measured
// with ncu, one warp per kernel) against the bank model as the walker feeds
// it an ldmatrix/stmatrix .xN: a 16-byte access by lanes 0 .. 8N-1, each
// lane the address of one row. Every row must match exactly.
//
//===----------------------------------------------------------------------===//

#include "BankModel.h"

#include "CalibrationTable.h"

#include <gtest/gtest.h>

using namespace shmem;
using namespace shmem::calibration;

namespace {

/// The lane addresses bench/gpu/ldmatrix/ldmatrix.cu gives.
std::vector<std::optional<int64_t>> rowAddresses(unsigned X, int64_t Stride,
                                                 bool Swz) {
  std::vector<std::optional<int64_t>> L(32);
  for (unsigned I = 0; I < 8 * X; ++I) {
    int64_t Row = X == 1 ? I % 8 : I % 16;
    int64_t Chunk = X == 4 ? I / 16 : 0;
    if (Swz)
      Chunk ^= Row % 8;
    L[I] = Row * Stride + Chunk * 16;
  }
  return L;
}

TEST(LdmatrixCalibration, EveryRowMatches) {
  std::string Error;
  unsigned Rows = 0;
  bool Ok = forEachRow(
      calibrationDir() + "/ldmatrix-h200.tsv",
      {"op", "x", "stride", "swz", "wavefronts", "instructions"},
      [&](unsigned LineNo, const CellGetter &Get) {
        ++Rows;
        unsigned X = unsigned(number(Get("x")));
        int64_t Stride = number(Get("stride"));
        bool Swz = number(Get("swz")) != 0;
        bool Store = Get("op") == "stmatrix";
        long Instructions = number(Get("instructions"));
        ASSERT_EQ(Instructions, 1) << "line " << LineNo;
        BankResult R = BankModel().analyze(rowAddresses(X, Stride, Swz), 16,
                                           Store ? AccessOp::Store
                                                 : AccessOp::Load);
        EXPECT_EQ(long(R.Wavefronts), number(Get("wavefronts")))
            << "line " << LineNo << ": " << Get("op") << ".x" << X
            << " stride " << Stride << (Swz ? " swizzled" : "");
        EXPECT_EQ(R.IdealWavefronts, X) << "line " << LineNo;
      },
      Error);
  ASSERT_TRUE(Ok) << Error;
  EXPECT_EQ(Rows, 144u);
}

TEST(LdmatrixCalibration, GgmlRowsOnAnH100) {
  // bench/gpu/triage/cp-async-rows.cu's ldmatrix .x4 kernels, ggml's
  // fattn-mma K/V tile read back: an H100 measured 4 shared-load
  // wavefronts for 144-byte rows, 32 for 128-byte rows and 4 with the
  // 16-byte chunk XORed by the row (h100-cp-async-rows.txt, 2026-12-05,
  // one LDSM.16.M88.4 each), as the H200 table says for these strides.
  auto Wavefronts = [](int64_t Stride, bool Swz) {
    return BankModel()
        .analyze(rowAddresses(4, Stride, Swz), 16, AccessOp::Load)
        .Wavefronts;
  };
  EXPECT_EQ(Wavefronts(144, false), 4u);
  EXPECT_EQ(Wavefronts(128, false), 32u);
  EXPECT_EQ(Wavefronts(128, true), 4u);
}

} // namespace
