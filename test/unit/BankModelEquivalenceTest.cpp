//===- BankModelEquivalenceTest.cpp - BankModel against a plain reference -===//
//
// BankModel::analyze tallies banks in lane order and sorts only banks whose
// words arrive out of order; BankModel::count is the same without the
// detail. Both are compared here, field by field, with a reference written
// straight from the rules in BankModel.h (a std::set of words per bank per
// phase) over many random warps: every width, loads and stores, inactive
// lanes, broadcasts, lane pairs, strides, permuted and negative addresses,
// short and long lane vectors, and bank geometries that are not powers of
// two. One model serves every warp, so scratch left by one call that leaked
// into the next would show too.
//
//===----------------------------------------------------------------------===//

#include "BankModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace shmem;

namespace {

using Lanes = std::vector<std::optional<int64_t>>;

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && A < 0) ? Q - 1 : Q;
}

/// The rules of BankModel.h, one at a time, with sets.
BankResult reference(const Lanes &Addr, unsigned WidthBytes, AccessOp Op,
                     unsigned Banks, unsigned BankBytes) {
  BankResult R;
  const int64_t Width = std::max(1u, WidthBytes);
  auto WordOf = [&](int64_t A) { return floorDiv(A, BankBytes); };
  auto BankOf = [&](int64_t Word) {
    return unsigned(Word - floorDiv(Word, Banks) * int64_t(Banks));
  };
  // Rule 1: phases of Banks / (words per lane) lanes.
  unsigned WordsPerLane = unsigned((Width + BankBytes - 1) / BankBytes);
  unsigned PhaseLanes = std::max(1u, Banks / WordsPerLane);
  // Rule 3: a wide load folds when no aligned pair disagrees.
  bool Fold = Op == AccessOp::Load && Width > int64_t(BankBytes);
  for (size_t L = 0; Fold && L + 1 < Addr.size(); L += 2)
    if (Addr[L] && Addr[L + 1] && *Addr[L] != *Addr[L + 1])
      Fold = false;
  R.PairsFolded = Fold;
  R.PhaseLanes = Fold ? 2 * PhaseLanes : PhaseLanes;

  R.LaneBank.assign(Addr.size(), -1);
  std::map<unsigned, std::set<int64_t>> WarpWords;
  unsigned WorstCost = 0;
  for (size_t Begin = 0; Begin < Addr.size(); Begin += R.PhaseLanes) {
    size_t End = std::min(Addr.size(), Begin + R.PhaseLanes);
    std::map<unsigned, std::set<int64_t>> Words;
    std::map<unsigned, std::set<unsigned>> LanesOf;
    for (size_t L = Begin; L < End; ++L) {
      if (!Addr[L])
        continue;
      ++R.ActiveLanes;
      R.LaneBank[L] = int(BankOf(WordOf(*Addr[L])));
      for (int64_t W = WordOf(*Addr[L]); W <= WordOf(*Addr[L] + Width - 1);
           ++W) {
        Words[BankOf(W)].insert(W);
        LanesOf[BankOf(W)].insert(unsigned(L));
        WarpWords[BankOf(W)].insert(W);
      }
    }
    if (Words.empty())
      continue;
    // Rule 2: the most distinct words of one bank; the worst is the first
    // phase, then the lowest bank, to reach the maximum.
    unsigned Cost = 0;
    for (const auto &[Bank, Set] : Words) {
      Cost = std::max(Cost, unsigned(Set.size()));
      if (Set.size() > WorstCost) {
        WorstCost = unsigned(Set.size());
        R.Worst.Bank = Bank;
        R.Worst.Words.assign(Set.begin(), Set.end());
        R.Worst.Lanes.assign(LanesOf[Bank].begin(), LanesOf[Bank].end());
        R.PhaseBegin = unsigned(Begin);
        R.PhaseEnd = unsigned(End);
      }
    }
    R.Wavefronts += Cost;
    ++R.Phases;
  }
  // Rule 4.
  R.IdealWavefronts = std::max(1u, R.Phases);
  R.BankConflicts = R.Wavefronts - R.Phases;
  R.WordsPerBank.assign(Banks, 0);
  for (const auto &[Bank, Set] : WarpWords)
    R.WordsPerBank[Bank] = unsigned(Set.size());
  return R;
}

std::string show(const Lanes &Addr, unsigned Width, AccessOp Op) {
  std::ostringstream OS;
  OS << (Op == AccessOp::Load ? "load" : "store") << " width " << Width
     << " lanes";
  for (const auto &A : Addr) {
    OS << ' ';
    if (A)
      OS << *A;
    else
      OS << '-';
  }
  return OS.str();
}

/// A random warp drawn to produce broadcasts, aligned and misaligned pairs,
/// strided conflicts, permutations and negative addresses.
Lanes randomWarp(std::mt19937_64 &Rng, unsigned Width) {
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  };
  unsigned N = Pick(0, 3) ? 32 : unsigned(Pick(0, 40));
  int64_t Base = Pick(0, 4) ? Pick(-64, 64) * int64_t(Width)
                            : Pick(-(int64_t(1) << 40), int64_t(1) << 40);
  if (!Pick(0, 4))
    Base += Pick(1, 15); // Misaligned: a lane may straddle words.
  static const int64_t Strides[] = {0,  1,  2,  3,   4,   8,   16,
                                    32, 33, 64, 128, 132, 256, 1024};
  int64_t Stride = Strides[Pick(0, 13)] * (Pick(0, 5) ? 1 : -1);
  Lanes A(N);
  std::vector<int64_t> Pool(size_t(Pick(1, 6)));
  for (int64_t &P : Pool)
    P = Base + Pick(-8, 8) * Strides[Pick(0, 13)];
  switch (Pick(0, 6)) {
  case 0: // Strided, in lane order.
    for (unsigned L = 0; L < N; ++L)
      A[L] = Base + int64_t(L) * Stride * int64_t(Width);
    break;
  case 1: // A few addresses shared by many lanes.
    for (unsigned L = 0; L < N; ++L)
      A[L] = Pool[size_t(Pick(0, int64_t(Pool.size()) - 1))];
    break;
  case 2: // Lane pairs (2k, 2k+1) on one address, sometimes broken.
    for (unsigned L = 0; L < N; ++L)
      A[L] = (L % 2 && Pick(0, 20)) ? *A[L - 1]
                                    : Base + Pick(-40, 40) * int64_t(Width);
    break;
  case 3: { // Strided, lanes permuted: words reach banks out of order.
    std::vector<unsigned> Perm(N);
    for (unsigned L = 0; L < N; ++L)
      Perm[L] = L;
    std::shuffle(Perm.begin(), Perm.end(), Rng);
    for (unsigned L = 0; L < N; ++L)
      A[L] = Base + int64_t(Perm[L]) * Stride * int64_t(Width);
    break;
  }
  case 4: // XOR swizzle over rows of 32 elements.
    for (unsigned L = 0; L < N; ++L)
      A[L] = Base + int64_t((L * 32 + (L ^ unsigned(Pick(0, 31)))) * Width);
    break;
  case 5: // Anywhere in a small window, any alignment.
    for (unsigned L = 0; L < N; ++L)
      A[L] = Base + Pick(-300, 300);
    break;
  default: // Rows: a 2-D block with a pitch.
    for (unsigned L = 0; L < N; ++L)
      A[L] =
          Base + int64_t(L % 8) * int64_t(Width) + int64_t(L / 8) * Stride * 32;
    break;
  }
  switch (Pick(0, 4)) {
  case 0: // Random inactive lanes.
    for (auto &X : A)
      if (!Pick(0, 3))
        X.reset();
    break;
  case 1: // A prefix of the warp.
    for (size_t L = size_t(Pick(0, 32)); L < A.size(); ++L)
      A[L].reset();
    break;
  case 2: // Even lanes only.
    for (size_t L = 1; L < A.size(); L += 2)
      A[L].reset();
    break;
  default:
    break;
  }
  return A;
}

void expectSame(const BankResult &Want, const BankResult &Got,
                const std::string &Where) {
  EXPECT_EQ(Want.ActiveLanes, Got.ActiveLanes) << Where;
  EXPECT_EQ(Want.Wavefronts, Got.Wavefronts) << Where;
  EXPECT_EQ(Want.IdealWavefronts, Got.IdealWavefronts) << Where;
  EXPECT_EQ(Want.Phases, Got.Phases) << Where;
  EXPECT_EQ(Want.PhaseLanes, Got.PhaseLanes) << Where;
  EXPECT_EQ(Want.PairsFolded, Got.PairsFolded) << Where;
  EXPECT_EQ(Want.BankConflicts, Got.BankConflicts) << Where;
  EXPECT_EQ(Want.degree(), Got.degree()) << Where;
}

void compareOver(unsigned Banks, unsigned BankBytes, unsigned Warps,
                 uint64_t Seed) {
  BankModel Model(Banks, BankBytes);
  std::mt19937_64 Rng(Seed);
  static const unsigned Widths[] = {1, 2, 4, 8, 16};
  unsigned Folded = 0, Conflicted = 0, Empty = 0;
  for (unsigned I = 0; I < Warps && !::testing::Test::HasFailure(); ++I) {
    unsigned Width = Widths[I % 5];
    AccessOp Op = (I / 5) % 2 ? AccessOp::Store : AccessOp::Load;
    Lanes A = randomWarp(Rng, Width);
    std::string Where = "banks " + std::to_string(Banks) + "x" +
                        std::to_string(BankBytes) + ", " + show(A, Width, Op);
    BankResult Want = reference(A, Width, Op, Banks, BankBytes);
    BankResult Got = Model.analyze(A, Width, Op);
    expectSame(Want, Got, Where);
    EXPECT_EQ(Want.LaneBank, Got.LaneBank) << Where;
    EXPECT_EQ(Want.WordsPerBank, Got.WordsPerBank) << Where;
    EXPECT_EQ(Want.Worst.Bank, Got.Worst.Bank) << Where;
    EXPECT_EQ(Want.Worst.Words, Got.Worst.Words) << Where;
    EXPECT_EQ(Want.Worst.Lanes, Got.Worst.Lanes) << Where;
    EXPECT_EQ(Want.PhaseBegin, Got.PhaseBegin) << Where;
    EXPECT_EQ(Want.PhaseEnd, Got.PhaseEnd) << Where;

    BankResult Count = Model.count(A, Width, Op);
    expectSame(Want, Count, "count: " + Where);
    EXPECT_TRUE(Count.LaneBank.empty() && Count.WordsPerBank.empty() &&
                Count.Worst.Words.empty() && Count.Worst.Lanes.empty())
        << Where;

    Folded += Want.PairsFolded && Want.Phases;
    Conflicted += Want.conflicted();
    Empty += Want.Phases == 0;
  }
  // The draw must reach the cases the rules distinguish.
  EXPECT_GT(Folded, Warps / 50);
  EXPECT_GT(Conflicted, Warps / 5);
  EXPECT_GT(Empty, 0u);
}

TEST(BankModelEquivalence, H200Banks) { compareOver(32, 4, 30000, 1); }

TEST(BankModelEquivalence, OtherPowersOfTwo) {
  compareOver(16, 4, 4000, 2);
  compareOver(32, 8, 4000, 3);
  compareOver(1, 4, 2000, 4);
}

TEST(BankModelEquivalence, NotPowersOfTwo) {
  compareOver(24, 4, 4000, 5);
  compareOver(32, 3, 4000, 6);
  compareOver(7, 6, 2000, 7);
}

} // namespace
