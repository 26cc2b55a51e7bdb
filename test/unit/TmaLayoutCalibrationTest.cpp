//===- TmaLayoutCalibrationTest.cpp - TMA box layouts on an H200 ----------===//
//
// Replays test/calibration/tma-layout-h200.tsv (bench/gpu/tma, test
// `layout`): for 56 tensor maps (every swizzle mode, 2- and 4-byte
// elements, box rows of 16 to 256 bytes, 8 and 16 rows) the byte each box
// element landed at. TmaBoxLayout must put every element exactly there, and
// account for the bytes each load touched (tma-footprint-h200.tsv).
//
//===----------------------------------------------------------------------===//

#include "TmaLayout.h"

#include "CalibrationTable.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

using namespace shmem;
using namespace shmem::calibration;

namespace {

TmaBoxLayout layoutOf(const CellGetter &Get) {
  TmaBoxLayout L;
  std::string S = Get("swizzle");
  L.Swizzle = S == "32B"    ? TmaSwizzle::B32
              : S == "64B"  ? TmaSwizzle::B64
              : S == "128B" ? TmaSwizzle::B128
                            : TmaSwizzle::None;
  L.ElemBytes = unsigned(number(Get("elem_bytes")));
  L.Rank = 2;
  L.Box[0] = uint32_t(number(Get("box_cols")));
  L.Box[1] = uint32_t(number(Get("box_rows")));
  return L;
}

TEST(TmaLayoutCalibration, EveryElementLandsWhereMeasured) {
  std::string Error;
  unsigned Rows = 0;
  bool Ok = forEachRow(
      calibrationDir() + "/tma-layout-h200.tsv",
      {"swizzle", "elem_bytes", "box_cols", "box_rows", "r", "c", "byte"},
      [&](unsigned LineNo, const CellGetter &Get) {
        ++Rows;
        TmaBoxLayout L = layoutOf(Get);
        ASSERT_TRUE(L.valid()) << "line " << LineNo << ": " << L.describe();
        uint64_t R = uint64_t(number(Get("r"))), C = uint64_t(number(Get("c")));
        long Byte = number(Get("byte"));
        ASSERT_GE(Byte, 0) << "line " << LineNo << ": element not found";
        EXPECT_EQ(L.byteOf(R, C), uint64_t(Byte))
            << "line " << LineNo << ": " << L.describe() << " (" << R << ", "
            << C << ")";
        auto E = L.elementAt(uint64_t(Byte));
        ASSERT_TRUE(E.has_value()) << "line " << LineNo;
        EXPECT_EQ(*E, std::make_pair(R, C)) << "line " << LineNo;
      },
      Error);
  ASSERT_TRUE(Ok) << Error;
  EXPECT_EQ(Rows, 16128u);
}

TEST(TmaLayoutCalibration, FootprintCoversTheBytesTouched) {
  std::string Error;
  unsigned Rows = 0;
  bool Ok = forEachRow(
      calibrationDir() + "/tma-footprint-h200.tsv",
      {"swizzle", "elem_bytes", "box_cols", "box_rows", "touched"},
      [&](unsigned LineNo, const CellGetter &Get) {
        ++Rows;
        TmaBoxLayout L = layoutOf(Get);
        uint64_t Touched = uint64_t(number(Get("touched")));
        uint64_t Last = 0;
        for (uint64_t R = 0; R < L.rows(); ++R)
          for (uint64_t C = 0; C < L.cols(); ++C)
            Last = std::max(Last, L.byteOf(R, C) + L.ElemBytes);
        EXPECT_EQ(Last, Touched) << "line " << LineNo << ": " << L.describe();
        // A box row narrower than the swizzle span still takes the span: a
        // tile sized by the box is too small.
        EXPECT_GE(L.footprint(), Touched) << "line " << LineNo;
        EXPECT_LT(L.footprint() - Touched, L.pitch()) << "line " << LineNo;
      },
      Error);
  ASSERT_TRUE(Ok) << Error;
  EXPECT_EQ(Rows, 56u);
}

TEST(TmaLayout, SwizzleIsItsOwnInverseAndNamesItsMode) {
  TmaBoxLayout L;
  L.Swizzle = TmaSwizzle::B128;
  L.Box[0] = 32;
  L.Box[1] = 8;
  EXPECT_EQ(L.pitch(), 128u);
  EXPECT_EQ(L.alignment(), 1024u);
  EXPECT_EQ(L.footprint(), 1024u);
  // Row 1, column 0 (byte 128): chunk 0 XOR 1.
  EXPECT_EQ(L.byteOf(1, 0), 144u);
  EXPECT_EQ(L.elementAt(128), std::make_pair(uint64_t(1), uint64_t(4)));
  EXPECT_EQ(L.describe(), "8 x 32 box of 4-byte elements, SWIZZLE_128B");
  L.Box[0] = 64; // 256 bytes: wider than the span.
  EXPECT_FALSE(L.valid());
  L.Swizzle = TmaSwizzle::None;
  EXPECT_TRUE(L.valid());
  EXPECT_EQ(L.byteOf(1, 0), 256u);
  EXPECT_EQ(L.alignment(), 16u);
  // A narrow unswizzled row is padded to 16 bytes.
  L.Box[0] = 2;
  EXPECT_EQ(L.pitch(), 16u);
  EXPECT_FALSE(L.elementAt(8).has_value());
}

} // namespace
