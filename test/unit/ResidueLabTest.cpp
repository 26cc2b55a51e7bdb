//===- ResidueLabTest.cpp - The residue lab and the bank pictures ---------===//
//
// ResidueLab: orbits of 0 under x -> x + step (mod m) and their periods
// m / gcd(m, step). BankPicture: the what-if layouts' address remapping and
// the terminal rendering, checked against the BankModel.
//
//===----------------------------------------------------------------------===//

#include "ResidueLab.h"
#include "BankPicture.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace shmem;

namespace {

std::vector<uint64_t> orbit(uint64_t M, int64_t S) {
  std::optional<ResidueOrbit> O = residueOrbit(M, S);
  EXPECT_TRUE(O);
  return O ? O->Visits : std::vector<uint64_t>{};
}

TEST(ResidueLab, IssueExamples) {
  // Modulus 8, step 4 visits {0, 4} with period 2; step 1 visits all 8.
  EXPECT_EQ(orbit(8, 4), (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(residueOrbit(8, 4)->period(), 2u);
  EXPECT_EQ(orbit(8, 1), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(residueOrbit(8, 1)->period(), 8u);
}

TEST(ResidueLab, VisitOrderAndSortedSet) {
  // 3 is coprime to 8: every residue, in the order 0 3 6 1 4 7 2 5.
  EXPECT_EQ(orbit(8, 3), (std::vector<uint64_t>{0, 3, 6, 1, 4, 7, 2, 5}));
  EXPECT_EQ(residueOrbit(8, 3)->sorted(),
            (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(orbit(12, 8), (std::vector<uint64_t>{0, 8, 4}));
  EXPECT_EQ(residueOrbit(12, 8)->sorted(), (std::vector<uint64_t>{0, 4, 8}));
}

TEST(ResidueLab, PeriodIsModulusOverGcd) {
  for (uint64_t M : {1u, 2u, 7u, 8u, 12u, 32u, 33u, 100u})
    for (int64_t S = -40; S <= 70; ++S) {
      std::optional<ResidueOrbit> O = residueOrbit(M, S);
      ASSERT_TRUE(O);
      uint64_t Reduced = uint64_t(((S % int64_t(M)) + int64_t(M)) % int64_t(M));
      EXPECT_EQ(O->Step, Reduced);
      EXPECT_EQ(O->Gcd, std::gcd(M, Reduced));
      EXPECT_EQ(O->period(), M / std::gcd(M, Reduced)) << M << " " << S;
      // The orbit is exactly the multiples of the gcd.
      std::vector<uint64_t> Sorted = O->sorted();
      for (size_t I = 0; I < Sorted.size(); ++I)
        EXPECT_EQ(Sorted[I], I * O->Gcd);
    }
}

TEST(ResidueLab, EdgeCases) {
  EXPECT_EQ(orbit(8, 0), (std::vector<uint64_t>{0}));
  EXPECT_EQ(orbit(8, 8), (std::vector<uint64_t>{0}));
  EXPECT_EQ(orbit(8, -4), (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(orbit(8, -1), (std::vector<uint64_t>{0, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(orbit(1, 5), (std::vector<uint64_t>{0}));
  EXPECT_EQ(residueOrbit(8, INT64_MIN)->Step, 0u);
  EXPECT_EQ(residueOrbit(7, INT64_MIN)->period(), 7u);
  EXPECT_FALSE(residueOrbit(0, 1));
  EXPECT_FALSE(residueOrbit(MaxResidueModulus + 1, 1));
  EXPECT_EQ(residueOrbit(MaxResidueModulus, 1)->period(), MaxResidueModulus);
}

TEST(ResidueLab, Description) {
  std::string D = describeResidueOrbit(*residueOrbit(8, 4));
  EXPECT_NE(D.find("walk:     0 -> 4 -> 0"), std::string::npos) << D;
  EXPECT_NE(D.find("orbit:    {0, 4} (2 residues of 8)"), std::string::npos);
  EXPECT_NE(D.find("period:   2 = 8 / gcd(8, 4) = 8 / 4"), std::string::npos);
  EXPECT_NE(D.find("analogy"), std::string::npos);
  // Long orbits are abbreviated.
  std::string L = describeResidueOrbit(*residueOrbit(1000, 1), 8);
  EXPECT_NE(L.find("{0, 1, 2, 3, 4, 5, ..., 998, 999}"), std::string::npos)
      << L;
}

//===----------------------------------------------------------------------===//
// Bank pictures
//===----------------------------------------------------------------------===//

using Lanes = std::vector<std::optional<int64_t>>;

Lanes column(int64_t RowBytes, int64_t Col, int64_t ElemBytes) {
  Lanes L(32);
  for (unsigned I = 0; I < 32; ++I)
    L[I] = int64_t(I) * RowBytes + Col * ElemBytes;
  return L;
}

TEST(BankPicture, ColumnOfA32x32FloatTile) {
  BankModel M;
  LayoutPicture P = makeLayoutPicture(M, column(128, 5, 4), 4, AccessOp::Load);
  EXPECT_EQ(P.Wavefronts, 32u);
  EXPECT_EQ(P.Degree, 32u);
  for (unsigned I = 0; I < 32; ++I) {
    EXPECT_EQ(P.LaneBank[I], 5);
    EXPECT_EQ(P.LaneWord[I], int64_t(I) * 32 + 5);
    EXPECT_FALSE(P.Broadcast[I]);
  }
  EXPECT_EQ(P.WordsPerBank[5], 32u);
  EXPECT_EQ(P.activeLanes(), 32u);
  // Padded to 33 columns: one wavefront, lane i in bank (5 + i) % 32.
  LayoutPicture Q = makeLayoutPicture(M, column(132, 5, 4), 4, AccessOp::Load);
  EXPECT_EQ(Q.Wavefronts, 1u);
  for (unsigned I = 0; I < 32; ++I)
    EXPECT_EQ(Q.LaneBank[I], int((5 + I) % 32));
}

TEST(BankPicture, BroadcastAndInactiveLanes) {
  BankModel M;
  Lanes L(32);
  for (unsigned I = 0; I < 16; ++I)
    L[I] = int64_t(I / 2) * 4; // pairs of lanes on one word
  LayoutPicture P = makeLayoutPicture(M, L, 4, AccessOp::Load);
  EXPECT_EQ(P.Wavefronts, 1u);
  EXPECT_TRUE(P.Broadcast[0] && P.Broadcast[1]);
  EXPECT_EQ(P.LaneBank[16], -1);
  EXPECT_EQ(P.activeLanes(), 16u);
  EXPECT_TRUE(P.broadcasts());
}

TEST(BankPicture, Swizzle) {
  Array2D A{32, 32, 4};
  ASSERT_EQ(swizzleUnitBytes(A, 4), std::optional<int64_t>(4));
  // Element (r, c) moves to (r, c ^ r).
  EXPECT_EQ(swizzledOffset(A, 4, (3 * 32 + 5) * 4), (3 * 32 + (5 ^ 3)) * 4);
  // Rows past the row length wrap: r % 32.
  EXPECT_EQ(swizzledOffset(A, 4, (35 * 32 + 1) * 4), (35 * 32 + (1 ^ 3)) * 4);
  // A column read becomes conflict-free.
  Lanes Col = column(128, 5, 4), Sw(32);
  for (unsigned I = 0; I < 32; ++I)
    Sw[I] = swizzledOffset(A, 4, *Col[I]);
  EXPECT_EQ(makeLayoutPicture(BankModel(), Sw, 4, AccessOp::Load).Wavefronts,
            1u);
  // float4 accesses of a float tile swizzle 16-byte groups: 8 per row.
  EXPECT_EQ(swizzleUnitBytes(A, 16), std::optional<int64_t>(16));
  EXPECT_EQ(swizzledOffset(A, 16, 2 * 128 + 16 + 4), 2 * 128 + 3 * 16 + 4);
  // Rows of 33 elements, or a single unit per row: no XOR swizzle.
  EXPECT_FALSE(swizzleUnitBytes(Array2D{32, 33, 4}, 4));
  EXPECT_FALSE(swizzleUnitBytes(Array2D{32, 4, 4}, 16));
  EXPECT_EQ(arrayDeclaration("float", "tile", Array2D{32, 33, 4}),
            "float tile[32][33]");
}

TEST(BankPicture, TextRendering) {
  BankModel M;
  BankPicture P;
  P.Array = "tile";
  P.Original = makeLayoutPicture(M, column(128, 0, 4), 4, AccessOp::Load);
  P.Original.Label = "as written";
  P.Original.Layout = "float tile[32][32]";
  P.Original.SharedBytes = 4096;
  P.Padded = makeLayoutPicture(M, column(132, 0, 4), 4, AccessOp::Load);
  P.Padded->Label = "padded";
  P.Padded->Layout = "float tile[32][33]";
  P.Padded->SharedBytes = 4224;
  P.PaddingSuggested = true;
  std::string T = renderBankPictureText(P);
  EXPECT_NE(T.find("lane -> bank, warp 0, 4-byte load:\n"), std::string::npos)
      << T;
  EXPECT_NE(T.find("as written (float tile[32][32], 4096 bytes): 32 "
                   "wavefronts instead of 1: 32-way conflict\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("  lanes  0-15:  0   0   0"), std::string::npos) << T;
  EXPECT_NE(T.find("  distinct words per bank: b0=32\n"), std::string::npos);
  EXPECT_NE(T.find("padded, the suggested fix (float tile[32][33], 4224 "
                   "bytes, +128): 1 wavefront: conflict-free\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("  lanes 16-31: 16  17  18"), std::string::npos) << T;
  EXPECT_NE(T.find("  distinct words per bank: 1 in 32 banks\n"),
            std::string::npos)
      << T;
}

} // namespace
