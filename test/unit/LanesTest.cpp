//===- LanesTest.cpp - Compact per-thread integers ------------------------===//
//
// Every form of Lanes must hold exactly the values a plain vector would:
// each operation is checked against the same operation done thread by
// thread, on random operands in all three forms and several block shapes.
//
//===----------------------------------------------------------------------===//

#include "Lanes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

using namespace shmem;

namespace {

std::vector<int64_t> reference(unsigned N, unsigned Dx, unsigned Dy,
                               int64_t V, int64_t Sx, int64_t Sy,
                               int64_t Sz) {
  std::vector<int64_t> Out(N);
  for (unsigned T = 0; T < N; ++T) {
    int64_t X = T % Dx, Y = T / Dx % Dy, Z = T / (Dx * Dy);
    Out[T] = wrapAdd(wrapAdd(V, wrapMul(Sx, X)),
                     wrapAdd(wrapMul(Sy, Y), wrapMul(Sz, Z)));
  }
  return Out;
}

TEST(Lanes, ThreadIndexIsLinearAndReadsBackExactly) {
  // A 16 x 4 x 2 block: x, y, z and the linear thread id.
  Lanes X = Lanes::linear(128, 16, 4, 0, 1, 0, 0);
  Lanes Y = Lanes::linear(128, 16, 4, 0, 0, 1, 0);
  Lanes Z = Lanes::linear(128, 16, 4, 0, 0, 0, 1);
  Lanes Id = Lanes::linear(128, 16, 4, 0, 1, 16, 64);
  EXPECT_EQ(X.form(), Lanes::Form::Linear);
  for (unsigned T = 0; T < 128; ++T) {
    EXPECT_EQ(X[T], T % 16);
    EXPECT_EQ(Y[T], T / 16 % 4);
    EXPECT_EQ(Z[T], T / 64);
    EXPECT_EQ(Id[T], T);
  }
  std::vector<int64_t> Seen;
  Id.forEach([&](unsigned T, int64_t V) {
    EXPECT_EQ(V, int64_t(T));
    Seen.push_back(V);
  });
  EXPECT_EQ(Seen.size(), 128u);
}

TEST(Lanes, CoordinateOfExtentOneIsDropped) {
  // In a 32 x 1 block, y is always 0: a stride on it is no stride at all,
  // and the value is a Splat, equal to the Splat built directly.
  Lanes L = Lanes::linear(32, 32, 1, 7, 0, 5, 0);
  EXPECT_EQ(L.form(), Lanes::Form::Splat);
  EXPECT_EQ(L, Lanes::splat(32, 7));
  // One plane: z is 0.
  EXPECT_EQ(Lanes::linear(64, 8, 8, 1, 2, 3, 9),
            Lanes::linear(64, 8, 8, 1, 2, 3, 0));
}

TEST(Lanes, VectorsAreStoredInTheCheapestForm) {
  EXPECT_EQ(Lanes::values({4, 4, 4, 4}).form(), Lanes::Form::Splat);
  // x % 32 in a block 32 wide is x again.
  std::vector<int64_t> V(64);
  for (unsigned T = 0; T < 64; ++T)
    V[T] = T % 32;
  Lanes L = Lanes::values(V, 32, 2);
  EXPECT_EQ(L.form(), Lanes::Form::Linear);
  EXPECT_EQ(L, Lanes::linear(64, 32, 2, 0, 1, 0, 0));
  // Without the block's shape it stays a vector, equal all the same.
  Lanes E = Lanes::values(V);
  EXPECT_EQ(E.form(), Lanes::Form::Explicit);
  EXPECT_EQ(E, L);
  // Not linear: x % 4 in a block 8 wide.
  std::vector<int64_t> W(16);
  for (unsigned T = 0; T < 16; ++T)
    W[T] = T % 8 % 4;
  EXPECT_EQ(Lanes::values(W, 8, 2).form(), Lanes::Form::Explicit);
  EXPECT_EQ(Lanes::values(W, 8, 2).toVector(), W);
}

TEST(Lanes, OperationsAgreeWithThreadByThreadArithmetic) {
  std::mt19937_64 Rng(42);
  const unsigned Shapes[][3] = {{32, 8, 1}, {16, 16, 1}, {8, 4, 3}, {1, 32, 2},
                                {256, 1, 1}, {5, 3, 7}};
  auto Small = [&] { return int64_t(Rng() % 200) - 100; };
  for (const auto &S : Shapes) {
    unsigned Dx = S[0], Dy = S[1], N = S[0] * S[1] * S[2];
    // One operand of each form.
    auto Make = [&](int Form, std::vector<int64_t> &Ref) {
      if (Form == 0) {
        int64_t V = Small();
        Ref.assign(N, V);
        return Lanes::splat(N, V);
      }
      if (Form == 1) {
        int64_t V = Small(), Sx = Small(), Sy = Small(), Sz = Small();
        Ref = reference(N, Dx, Dy, V, Sx, Sy, Sz);
        return Lanes::linear(N, Dx, Dy, V, Sx, Sy, Sz);
      }
      Ref.resize(N);
      for (int64_t &X : Ref)
        X = Small();
      return Lanes::values(Ref, Dx, Dy);
    };
    for (int FL = 0; FL < 3; ++FL)
      for (int FR = 0; FR < 3; ++FR)
        for (int Round = 0; Round < 5; ++Round) {
          std::vector<int64_t> RL, RR, RC;
          Lanes L = Make(FL, RL), R = Make(FR, RR);
          Lanes C = Make(2, RC).map([](int64_t X) { return X & 1; });
          for (unsigned T = 0; T < N; ++T) {
            ASSERT_EQ(L[T], RL[T]);
            RC[T] &= 1;
          }
          std::vector<int64_t> Sum(N), Diff(N), Prod(N), Sel(N), Max(N);
          for (unsigned T = 0; T < N; ++T) {
            Sum[T] = wrapAdd(RL[T], RR[T]);
            Diff[T] = wrapAdd(RL[T], wrapMul(-3, RR[T]));
            Prod[T] = wrapMul(RL[T], RR[T]);
            Sel[T] = RC[T] ? RL[T] : RR[T];
            Max[T] = std::max(RL[T], RR[T]);
          }
          EXPECT_EQ(Lanes::addScaled(L, R, 1).toVector(), Sum);
          EXPECT_EQ(Lanes::addScaled(L, R, -3).toVector(), Diff);
          EXPECT_EQ(Lanes::mul(L, R).toVector(), Prod);
          EXPECT_EQ(Lanes::select(C, L, R).toVector(), Sel);
          EXPECT_EQ(Lanes::zip(L, R,
                               [](int64_t A, int64_t B) {
                                 return std::max(A, B);
                               })
                        .toVector(),
                    Max);
          // Equality is by value, whatever the forms.
          EXPECT_EQ(L == Lanes::values(RL), true);
          EXPECT_EQ(L == R, RL == RR);
          int64_t Lo = *std::min_element(RL.begin(), RL.end());
          int64_t Hi = *std::max_element(RL.begin(), RL.end());
          EXPECT_TRUE(L.within(Lo, Hi));
          EXPECT_FALSE(L.within(Lo + 1, Hi));
          EXPECT_FALSE(L.within(Lo, Hi - 1));
          EXPECT_EQ(L.sameIn(0, N), Lo == Hi);
          EXPECT_EQ(L.slice(3, N - 1).toVector(),
                    std::vector<int64_t>(RL.begin() + 3, RL.end() - 1));
        }
  }
}

TEST(Lanes, WrappingIsExactInTheLinearForm) {
  // Strides whose products overflow: the form still gives what wrapping
  // thread-by-thread arithmetic gives, and within() does not trust a
  // range that wrapped.
  Lanes L = Lanes::linear(64, 8, 8, INT64_MAX - 3, 1, INT64_MAX / 2, 0);
  std::vector<int64_t> Ref = reference(64, 8, 8, INT64_MAX - 3, 1,
                                       INT64_MAX / 2, 0);
  EXPECT_EQ(L.toVector(), Ref);
  EXPECT_FALSE(L.within(INT64_MIN, INT64_MAX - 1));
  EXPECT_EQ(Lanes::mul(L, Lanes::splat(64, 3)).toVector(),
            Lanes::values(Ref).map([](int64_t X) { return wrapMul(X, 3); })
                .toVector());
}

} // namespace
