//===- FlatMapTest.cpp - The sorted map of the affine values --------------===//
//
// FlatMap keeps std::map's behaviour where LaneValue relies on it: keys in
// ascending order whatever the order of insertion, one entry per key,
// try_emplace that leaves an existing value alone, erase that returns the
// next entry, equality by contents.
//
//===----------------------------------------------------------------------===//

#include "FlatMap.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace shmem;

namespace {

TEST(FlatMap, BehavesAsAnOrderedMap) {
  FlatMap<unsigned, std::string> M;
  EXPECT_TRUE(M.empty());
  M[7] = "seven";
  M[2] = "two";
  M[5] = "five";
  EXPECT_EQ(M.size(), 3u);
  std::string Keys;
  for (const auto &[K, V] : M)
    Keys += std::to_string(K) + V[0];
  EXPECT_EQ(Keys, "2t5f7s");

  auto [It, New] = M.try_emplace(5, "other");
  EXPECT_FALSE(New);
  EXPECT_EQ(It->second, "five");
  std::tie(It, New) = M.try_emplace(3, "three");
  EXPECT_TRUE(New);
  EXPECT_EQ(It->first, 3u);

  EXPECT_EQ(M.count(3), 1u);
  EXPECT_EQ(M.count(4), 0u);
  EXPECT_EQ(M.find(4), M.end());
  EXPECT_EQ(M.at(7), "seven");

  // Erasing while iterating, as LaneValue::normalize does.
  for (auto I = M.begin(); I != M.end();)
    I = I->first % 2 ? M.erase(I) : std::next(I);
  EXPECT_EQ(M.size(), 1u);
  EXPECT_EQ(M.begin()->first, 2u);

  FlatMap<unsigned, std::string> N;
  N[2] = "two";
  EXPECT_TRUE(M == N);
  N[2] = "deux";
  EXPECT_TRUE(M != N);
}

TEST(FlatMap, SameOrderAsStdMap) {
  FlatMap<unsigned, int> F;
  std::map<unsigned, int> S;
  for (unsigned I = 0; I < 200; ++I) {
    unsigned K = (I * 37) % 101;
    F[K] += int(I);
    S[K] += int(I);
  }
  ASSERT_EQ(F.size(), S.size());
  auto SI = S.begin();
  for (const auto &[K, V] : F) {
    EXPECT_EQ(K, SI->first);
    EXPECT_EQ(V, SI->second);
    ++SI;
  }
}

} // namespace
