//===- FlatKeySetTest.cpp - The set of word strings the race search uses
//---===//
//
// FlatKeySet answers as a std::set of word vectors would: a key is new once,
// keys differ by any word or by length (a prefix is another key), the empty
// key is a key, and nothing is lost when the table grows.
//
//===----------------------------------------------------------------------===//

#include "FlatKeySet.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

using namespace shmem;

namespace {

TEST(FlatKeySet, NewOnceByContentsAndLength) {
  FlatKeySet S;
  EXPECT_TRUE(S.insert({1, 2, 3}));
  EXPECT_FALSE(S.insert({1, 2, 3}));
  EXPECT_TRUE(S.insert({1, 2}));       // A prefix is another key.
  EXPECT_TRUE(S.insert({1, 2, 3, 0})); // So is a longer one.
  EXPECT_TRUE(S.insert({3, 2, 1}));
  EXPECT_TRUE(S.insert(std::vector<uint64_t>{}));
  EXPECT_FALSE(S.insert(std::vector<uint64_t>{}));
  EXPECT_EQ(S.size(), 5u);
}

TEST(FlatKeySet, AgreesWithStdSetThroughGrowth) {
  // Keys of 0-5 words drawn from a few values: many repeats and many
  // lengths, past several doublings of the table.
  std::mt19937_64 R(42);
  FlatKeySet S;
  std::set<std::vector<uint64_t>> Ref;
  for (int I = 0; I < 20000; ++I) {
    std::vector<uint64_t> K(R() % 6);
    for (uint64_t &W : K)
      W = R() % 4 == 0 ? ~uint64_t(0) : R() % 5;
    EXPECT_EQ(S.insert(K), Ref.insert(K).second) << I;
  }
  EXPECT_EQ(S.size(), Ref.size());
  EXPECT_GT(Ref.size(), 1000u);
}

} // namespace
