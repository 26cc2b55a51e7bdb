//===- PatternSetTest.cpp - The set of warp patterns already priced -------===//
//
// PatternSet answers "met before?" by a linear search while small and by a
// hash index past 16 patterns; both must agree with an ordinary set,
// including across the switch and for patterns that differ only in length.
//
//===----------------------------------------------------------------------===//

#include "Checks/PatternSet.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace shmem;

namespace {

TEST(PatternSetTest, AgreesWithAnOrderedSet) {
  std::mt19937_64 Rng(7);
  for (unsigned Round = 0; Round < 50; ++Round) {
    PatternSet S;
    std::set<std::vector<int64_t>> Ref;
    // Few distinct values and lengths, so that repeats are frequent; up to
    // 200 inserts, so that most rounds cross into the indexed regime.
    unsigned Inserts = 1 + Rng() % 200;
    for (unsigned I = 0; I < Inserts; ++I) {
      std::vector<int64_t> P(Rng() % 4);
      for (int64_t &X : P)
        X = int64_t(Rng() % 3) - 1;
      EXPECT_EQ(S.insert(P), Ref.insert(P).second) << "round " << Round;
      EXPECT_FALSE(S.empty());
    }
  }
}

TEST(PatternSetTest, PrefixesAndEmptyPatternsAreDistinct) {
  PatternSet S;
  EXPECT_TRUE(S.empty());
  EXPECT_TRUE(S.insert({}));
  EXPECT_FALSE(S.insert({}));
  EXPECT_TRUE(S.insert({0}));
  EXPECT_TRUE(S.insert({0, 0}));
  EXPECT_FALSE(S.insert({0}));
  // Past the small-set size, the same answers from the index.
  for (int64_t I = 1; I <= 40; ++I)
    EXPECT_TRUE(S.insert({I, -I}));
  EXPECT_FALSE(S.insert({}));
  EXPECT_FALSE(S.insert({0, 0}));
  EXPECT_FALSE(S.insert({17, -17}));
  EXPECT_TRUE(S.insert({17, 17}));
}

} // namespace
