//===- LaneValueTest.cpp - The per-thread value domain, with no AST -------===//

#include "LaneValue.h"
#include "ThreadGeometry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

using namespace shmem;

namespace {

LaneValue lanes(std::vector<int64_t> V) { return LaneValue::perThread(V); }

TEST(LaneValue, ConstantsAndArithmetic) {
  LaneValue A = LaneValue::constant(4, 3), B = lanes({0, 1, 2, 3});
  EXPECT_EQ((A + B).constants().toVector(), (std::vector<int64_t>{3, 4, 5, 6}));
  EXPECT_EQ((B - A).constants().toVector(), (std::vector<int64_t>{-3, -2, -1, 0}));
  EXPECT_EQ((A * B).constants().toVector(), (std::vector<int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(A.asConstant(), 3);
  EXPECT_FALSE(B.asConstant());
  EXPECT_TRUE(A.isUniform());
  EXPECT_FALSE(B.isUniform());
}

TEST(LaneValue, LaneTimesUnknownStaysAffine) {
  // tile[lane * ld]: the lane vector becomes the coefficient of ld.
  LaneValue Lane = lanes({0, 1, 2, 3});
  LaneValue Ld = LaneValue::symbol(4, 7);
  LaneValue Idx = Lane * Ld;
  ASSERT_TRUE(Idx.isAffine());
  ASSERT_EQ(Idx.coefficients().count(7u), 1u);
  EXPECT_EQ(Idx.coefficients().at(7).toVector(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_FALSE(Idx.hasUniformCoefficients(0, 4));
  EXPECT_EQ(Idx.evaluate(3, {{7, 33}}), 99);
  // A uniform offset keeps coefficients uniform.
  LaneValue Off = Lane + LaneValue::symbol(4, 8);
  EXPECT_TRUE(Off.hasUniformCoefficients(0, 4));
  EXPECT_FALSE(Off.isUniform());
}

TEST(LaneValue, ProductOfUnknownsIsNonAffine) {
  LaneValue P = LaneValue::symbol(2, 1) * LaneValue::symbol(2, 2);
  EXPECT_EQ(P.kind(), LaneValue::Kind::NonAffine);
  EXPECT_EQ(P.needs(), (std::vector<SymbolId>{1, 2}));
}

TEST(LaneValue, UnknownPropagatesWithReason) {
  LaneValue U = LaneValue::unknown(2, "data");
  LaneValue R = U + LaneValue::constant(2, 1);
  EXPECT_TRUE(R.isUnknown());
  EXPECT_EQ(R.reason(), "data");
  EXPECT_TRUE(LaneValue::apply(LaneValue::Op::Xor, R, R).isUnknown());
}

TEST(LaneValue, UnknownKeepsResiduesThroughScaleAndShift) {
  // `data * 64 + tid`: whatever the data, thread t's value is t mod 64.
  LaneValue Data = LaneValue::unknown(4, "value loaded from memory");
  EXPECT_EQ(Data.residueModulus(), 0);
  LaneValue V = Data * LaneValue::constant(4, 64) + lanes({0, 1, 2, 67});
  ASSERT_TRUE(V.isUnknown());
  EXPECT_EQ(V.reason(), "value loaded from memory");
  EXPECT_EQ(V.residueModulus(), 64);
  EXPECT_EQ(V.constants().toVector(), (std::vector<int64_t>{0, 1, 2, 3}));
  // Scaling again scales the modulus; subtraction shifts the residues.
  LaneValue W = (V * LaneValue::constant(4, 2)) - lanes({1, 1, 1, 1});
  EXPECT_EQ(W.residueModulus(), 128);
  EXPECT_EQ(W.constants().toVector(), (std::vector<int64_t>{127, 1, 3, 5}));
  // Two unknowns: known modulo the gcd of their moduli.
  LaneValue G = V + Data * LaneValue::constant(4, 48);
  EXPECT_EQ(G.residueModulus(), 16);
  EXPECT_EQ(G.constants().toVector(), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(LaneValue, UnknownResiduesDroppedWhenNotExact) {
  LaneValue Data = LaneValue::unknown(2, "value loaded from memory");
  LaneValue V = Data * LaneValue::constant(2, 64);
  // A walk unknown (a kernel parameter) in the sum, a per-thread factor,
  // an operation the domain does not hold, or wrapping to fewer bits than
  // the modulus divides: nothing is known.
  EXPECT_EQ((V + LaneValue::symbol(2, 0)).residueModulus(), 0);
  EXPECT_EQ((Data * lanes({1, 2})).residueModulus(), 0);
  EXPECT_EQ(LaneValue::apply(LaneValue::Op::And, V, LaneValue::constant(2, 7))
                .residueModulus(),
            0);
  EXPECT_EQ((Data * LaneValue::constant(2, 3)).truncate(8, false).residueModulus(), 0);
  EXPECT_EQ(V.truncate(8, false).residueModulus(), 64);
  EXPECT_EQ((Data * LaneValue::constant(2, 1)).residueModulus(), 0);
}

TEST(LaneValue, NonLinearOperationsOnConcreteValuesAreExact) {
  LaneValue T = lanes({0, 5, 33, 64});
  auto Apply = [&](LaneValue::Op O, int64_t C) {
    return LaneValue::apply(O, T, LaneValue::constant(4, C)).constants().toVector();
  };
  EXPECT_EQ(Apply(LaneValue::Op::Rem, 32), (std::vector<int64_t>{0, 5, 1, 0}));
  EXPECT_EQ(Apply(LaneValue::Op::Div, 32), (std::vector<int64_t>{0, 0, 1, 2}));
  EXPECT_EQ(Apply(LaneValue::Op::And, 31), (std::vector<int64_t>{0, 5, 1, 0}));
  EXPECT_EQ(Apply(LaneValue::Op::Shr, 5), (std::vector<int64_t>{0, 0, 1, 2}));
  EXPECT_EQ(Apply(LaneValue::Op::Xor, 1), (std::vector<int64_t>{1, 4, 32, 65}));
  EXPECT_EQ(Apply(LaneValue::Op::LT, 33), (std::vector<int64_t>{1, 1, 0, 0}));
  EXPECT_TRUE(
      LaneValue::apply(LaneValue::Op::Div, T, LaneValue::constant(4, 0))
          .isUnknown());
}

TEST(LaneValue, ApplyOverVectorsAgreesWithEachThreadAlone) {
  // apply() picks the operation once for a whole vector; each thread's
  // result must be the operation on that thread's operands alone (a
  // one-thread Splat), in every form, signed and unsigned, including the
  // operands that make the result unknown.
  std::mt19937_64 Rng(7);
  const LaneValue::Op Ops[] = {
      LaneValue::Op::Div, LaneValue::Op::Rem, LaneValue::Op::Shl,
      LaneValue::Op::Shr, LaneValue::Op::And, LaneValue::Op::Or,
      LaneValue::Op::Xor, LaneValue::Op::Min, LaneValue::Op::Max,
      LaneValue::Op::LT,  LaneValue::Op::LE,  LaneValue::Op::GT,
      LaneValue::Op::GE,  LaneValue::Op::EQ,  LaneValue::Op::NE,
      LaneValue::Op::LAnd, LaneValue::Op::LOr};
  const unsigned Dx = 8, Dy = 4, N = Dx * Dy * 2;
  auto Make = [&](int Form, int64_t Lo, int64_t Hi) {
    auto R = [&] { return Lo + int64_t(Rng() % uint64_t(Hi - Lo + 1)); };
    if (Form == 0)
      return LaneValue::constant(N, R());
    if (Form == 1)
      return LaneValue::perThread(Lanes::linear(N, Dx, Dy, R(), R() % 3,
                                                R() % 3, R() % 3));
    std::vector<int64_t> V(N);
    for (int64_t &X : V)
      X = R();
    return LaneValue::perThread(Lanes::values(V, Dx, Dy));
  };
  for (LaneValue::Op O : Ops)
    for (bool Unsigned : {false, true})
      for (int FL = 0; FL < 3; ++FL)
        for (int FR = 0; FR < 3; ++FR)
          for (int Round = 0; Round < 4; ++Round) {
            // Right operands from -2 to 70: zero divisors and shifts out
            // of range occur.
            LaneValue L = Make(FL, -300, 300), R = Make(FR, -2, 70);
            LaneValue Out = LaneValue::apply(O, L, R, Unsigned);
            bool AnyFailed = false;
            std::vector<int64_t> Expect(N);
            for (unsigned T = 0; T < N; ++T) {
              LaneValue One = LaneValue::apply(
                  O, LaneValue::constant(1, L.constants()[T]),
                  LaneValue::constant(1, R.constants()[T]), Unsigned);
              if (One.isUnknown())
                AnyFailed = true;
              else
                Expect[T] = *One.asConstant();
            }
            ASSERT_EQ(Out.isUnknown(), AnyFailed);
            if (!AnyFailed)
              EXPECT_EQ(Out.constants().toVector(), Expect);
          }
}

TEST(LaneValue, ReasonsCompareByTextWhereverMade) {
  LaneValue A = LaneValue::unknown(2, "value loaded from shared memory");
  LaneValue B = LaneValue::unknown(2, "value loaded from shared memory");
  LaneValue C = LaneValue::unknown(2, "value loaded from memory");
  EXPECT_EQ(A, B);
  EXPECT_NE(A, C);
  LaneValue Copy = A;
  LaneValue Moved = std::move(Copy);
  EXPECT_EQ(Moved.reason(), "value loaded from shared memory");
  // Carried through arithmetic and truncation.
  EXPECT_EQ((A * LaneValue::constant(2, 3) + C).reason(),
            "value loaded from shared memory");
  LaneValue Residue = C * LaneValue::constant(2, 3);
  ASSERT_EQ(Residue.residueModulus(), 3);
  LaneValue Wrapped = Residue.truncate(8, true); // 3 does not divide 2^8.
  EXPECT_EQ(Wrapped.residueModulus(), 0);
  EXPECT_EQ(Wrapped.reason(), "value loaded from memory");
  EXPECT_EQ(LaneValue().reason(), "");
  EXPECT_EQ(LaneValue::constant(2, 1).reason(), "");
}

TEST(LaneValue, SelectKeepsEachThreadsForm) {
  LaneValue Cond = lanes({1, 0});
  LaneValue A = LaneValue::symbol(2, 1), B = LaneValue::constant(2, 9);
  LaneValue S = LaneValue::select(Cond, A, B);
  ASSERT_TRUE(S.isAffine());
  EXPECT_EQ(S.evaluate(0, {{1, 4}}), 4);
  EXPECT_EQ(S.evaluate(1, {{1, 4}}), 9);
}

TEST(LaneValue, TruncateWrapsConcreteValues) {
  LaneValue V = lanes({-1, 256});
  EXPECT_EQ(V.truncate(8, false).constants().toVector(), (std::vector<int64_t>{255, 0}));
  EXPECT_EQ(V.truncate(8, true).constants().toVector(), (std::vector<int64_t>{-1, 0}));
}

TEST(LaneValue, SplitDivisionKeepsUnknowns) {
  // (lane + 32*s) / 32 == lane / 32 + s and (lane + 32*s) % 32 == lane % 32.
  LaneValue L = lanes({0, 31, 32, 70}) +
                LaneValue::constant(4, 32) * LaneValue::symbol(4, 1);
  LaneValue M = LaneValue::constant(4, 32);
  auto Split = [&](LaneValue::Op O, const LaneValue &R) {
    return LaneValue::splitDivision(O, L, R, LaneValue::apply(O, L, R));
  };
  LaneValue Div = Split(LaneValue::Op::Div, M);
  ASSERT_TRUE(Div.isAffine());
  EXPECT_EQ(Div.evaluate(3, {{1, 5}}), (70 + 32 * 5) / 32);
  LaneValue Rem = Split(LaneValue::Op::Rem, M);
  ASSERT_TRUE(Rem.isAffine());
  EXPECT_EQ(Rem.evaluate(3, {{1, 5}}), (70 + 32 * 5) % 32);
  // >> 5 divides by 32: splits; the result is exact.
  LaneValue Shr = Split(LaneValue::Op::Shr, LaneValue::constant(4, 5));
  ASSERT_TRUE(Shr.isAffine());
  EXPECT_EQ(Shr.evaluate(3, {{1, 5}}), (70 + 32 * 5) >> 5);
}

TEST(LaneValue, SplitShiftNeedsMultiplesOfThePowerOfTwo) {
  // s >> 1 is not 0 * s: the coefficient must be a multiple of 2^1, not of
  // the shift count 1 (a bug the model fuzzer found); likewise (6*s) >> 6.
  LaneValue S = LaneValue::symbol(4, 1);
  auto Shr = [&](const LaneValue &L, int64_t By) {
    LaneValue R = LaneValue::constant(4, By);
    return LaneValue::splitDivision(LaneValue::Op::Shr, L, R,
                                    LaneValue::apply(LaneValue::Op::Shr, L, R));
  };
  EXPECT_EQ(Shr(S, 1).kind(), LaneValue::Kind::NonAffine);
  EXPECT_EQ(Shr(LaneValue::constant(4, 6) * S, 6).kind(),
            LaneValue::Kind::NonAffine);
  // (64*s + lane) >> 6 == s + lane >> 6.
  LaneValue Ok = Shr(LaneValue::constant(4, 64) * S + lanes({0, 1, 63, 64}), 6);
  ASSERT_TRUE(Ok.isAffine());
  EXPECT_EQ(Ok.evaluate(3, {{1, 3}}), (64 * 3 + 64) >> 6);
}

TEST(LaneValue, ArithmeticWrapsAt64Bits) {
  // Overflow wraps like the machine's arithmetic instead of being undefined
  // behaviour in the analyser (found by the model fuzzer under UBSan).
  LaneValue Big = LaneValue::constant(2, INT64_MAX);
  EXPECT_EQ((Big + LaneValue::constant(2, 1)).constants()[0], INT64_MIN);
  EXPECT_EQ((Big * LaneValue::constant(2, 2)).constants()[0], -2);
  EXPECT_EQ((-LaneValue::constant(2, INT64_MIN)).constants()[0], INT64_MIN);
  EXPECT_EQ(LaneValue::apply(LaneValue::Op::Div, LaneValue::constant(2, INT64_MIN),
                             LaneValue::constant(2, -1))
                .constants()[0],
            INT64_MIN);
  LaneValue Scaled = LaneValue::symbol(2, 1) * LaneValue::constant(2, INT64_MAX);
  EXPECT_EQ(Scaled.evaluate(0, {{1, 2}}), -2);
}

TEST(LaneValue, BindAndSlice) {
  LaneValue V = lanes({0, 1, 2, 3}) * LaneValue::symbol(4, 3) +
                LaneValue::constant(4, 1);
  LaneValue B = V.bind({{3, 2}});
  EXPECT_TRUE(B.isConcrete());
  EXPECT_EQ(B.constants().toVector(), (std::vector<int64_t>{1, 3, 5, 7}));
  LaneValue S = V.slice(2, 4);
  EXPECT_EQ(S.size(), 2u);
  EXPECT_EQ(S.evaluate(0, {{3, 10}}), 21);
}

TEST(LaneValue, CopiesShareCoefficientsUntilOneChanges) {
  // Coefficients, needs and reasons are shared by copies and copied before
  // a change: every operation on a copy leaves the original as it was.
  LaneValue V =
      lanes({0, 1, 2, 3}) * LaneValue::symbol(4, 3) + LaneValue::symbol(4, 5);
  const std::string Before = V.str();
  LaneValue Copy = V;
  EXPECT_EQ(Copy, V);
  LaneValue Sum = Copy + LaneValue::constant(4, 4) * LaneValue::symbol(4, 3);
  LaneValue Scaled = Copy * lanes({0, 1, 0, 1});
  LaneValue Sliced = Copy.slice(1, 3);
  LaneValue Bound = Copy.bind({{5, 7}});
  LaneValue Picked =
      LaneValue::select(lanes({1, 0, 1, 0}), Copy, LaneValue::symbol(4, 9));
  EXPECT_EQ(V.str(), Before);
  EXPECT_EQ(Copy, V);
  EXPECT_EQ(Sum.coefficients().at(3).toVector(),
            (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(Scaled.coefficients().at(3).toVector(),
            (std::vector<int64_t>{0, 1, 0, 3}));
  EXPECT_EQ(Sliced.coefficients().at(3).toVector(),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Bound.coefficients().count(5u), 0u);
  EXPECT_EQ(Bound.constants().toVector(), (std::vector<int64_t>{7, 7, 7, 7}));
  EXPECT_EQ(Picked.coefficients().count(9u), 1u);
  EXPECT_EQ(V.coefficients().size(), 2u);
  EXPECT_EQ(V.coefficients().at(3).toVector(),
            (std::vector<int64_t>{0, 1, 2, 3}));
  // A coefficient cancelled to zero everywhere is dropped, and the value
  // equals one made without it.
  LaneValue Cancelled = V - lanes({0, 1, 2, 3}) * LaneValue::symbol(4, 3);
  EXPECT_EQ(Cancelled, LaneValue::symbol(4, 5));
  EXPECT_EQ(Cancelled - LaneValue::symbol(4, 5), LaneValue::constant(4, 0));
  EXPECT_TRUE((Cancelled - LaneValue::symbol(4, 5)).isConcrete());
  // Needs: a copy of a NonAffine value keeps them; the original too.
  LaneValue N = LaneValue::symbol(4, 1) * LaneValue::symbol(4, 2);
  LaneValue NCopy = N;
  LaneValue NSum = NCopy + LaneValue::symbol(4, 6);
  EXPECT_EQ(N.needs(), (std::vector<SymbolId>{1, 2}));
  EXPECT_EQ(NSum.needs(), (std::vector<SymbolId>{1, 2, 6}));
}

TEST(Dim3, Parse) {
  EXPECT_EQ(Dim3::parse("256"), (Dim3{256, 1, 1}));
  EXPECT_EQ(Dim3::parse("32x8"), (Dim3{32, 8, 1}));
  EXPECT_EQ(Dim3::parse("(16, 16)"), (Dim3{16, 16, 1}));
  EXPECT_EQ(Dim3::parse("8x8x4"), (Dim3{8, 8, 4}));
  EXPECT_FALSE(Dim3::parse(""));
  EXPECT_FALSE(Dim3::parse("0"));
  EXPECT_FALSE(Dim3::parse("32x"));
  EXPECT_FALSE(Dim3::parse("abc"));
  EXPECT_FALSE(Dim3::parse("2048")); // more than 1024 threads
  EXPECT_EQ((Dim3{32, 8, 1}).str(), "32x8");
}

TEST(ThreadGeometry, WarpsFollowLinearOrderXFastest) {
  ThreadGeometry G(Dim3{16, 4, 1});
  EXPECT_EQ(G.threads(), 64u);
  EXPECT_EQ(G.warps(), 2u);
  LaneValue X = G.threadIdx(0), Y = G.threadIdx(1);
  // Thread 17 is (1, 1): threadIdx.y is not uniform in a warp when
  // blockDim.x < 32.
  EXPECT_EQ(X.constants()[17], 1);
  EXPECT_EQ(Y.constants()[17], 1);
  EXPECT_FALSE(Y.isUniform(G.warpBegin(0), G.warpEnd(0)));
  ThreadGeometry W(Dim3{32, 8, 1});
  EXPECT_TRUE(W.threadIdx(1).isUniform(W.warpBegin(3), W.warpEnd(3)));
  EXPECT_EQ(W.laneId().constants()[45], 13);
  EXPECT_EQ(W.warpId().constants()[45], 1);
  EXPECT_EQ(W.describeThread(33), "thread (1,1)");
}

TEST(ThreadGeometry, PartialLastWarp) {
  ThreadGeometry G(Dim3{48, 1, 1});
  EXPECT_EQ(G.warps(), 2u);
  EXPECT_EQ(G.warpEnd(1), 48u);
}

} // namespace
