//===- NoLintTest.cpp - NOLINT markers the driver and plugin honour -------===//
//
// clang-tidy honours NOLINT markers itself; the driver and the compiler
// plugin ask lib/Analysis/NoLint, which must read them the same way.
//
//===----------------------------------------------------------------------===//

#include "Analysis/NoLint.h"

#include "gtest/gtest.h"

using namespace shmem;

namespace {

bool covered(llvm::StringRef Text, unsigned Line, llvm::StringRef Check) {
  for (const NoLintRegion &R : noLintRegions(Text))
    if (noLintRegionCovers(R, Line, Check))
      return true;
  return false;
}

TEST(NoLintTest, RegionsCoverTheLinesBetweenTheirMarkers) {
  const char *Text = "a\n"                            // 1
                     "// NOLINTBEGIN(shmem-race)\n"    // 2
                     "b\n"                            // 3
                     "// NOLINTEND(shmem-race)\n"      // 4
                     "c\n";                           // 5
  EXPECT_TRUE(covered(Text, 3, "shmem-race"));
  EXPECT_TRUE(covered(Text, 2, "shmem-race"));
  EXPECT_TRUE(covered(Text, 4, "shmem-race"));
  EXPECT_FALSE(covered(Text, 1, "shmem-race"));
  EXPECT_FALSE(covered(Text, 5, "shmem-race"));
  // Only the listed checks.
  EXPECT_FALSE(covered(Text, 3, "shmem-bank-conflict"));
}

TEST(NoLintTest, AListlessRegionCoversEveryCheckAndGlobsMatch) {
  const char *All = "// NOLINTBEGIN\nx\n// NOLINTEND\n";
  EXPECT_TRUE(covered(All, 2, "shmem-bank-conflict"));
  const char *Glob = "// NOLINTBEGIN(shmem-*)\nx\n// NOLINTEND(shmem-*)\n";
  EXPECT_TRUE(covered(Glob, 2, "shmem-race"));
  EXPECT_FALSE(covered(Glob, 2, "bugprone-foo"));
}

TEST(NoLintTest, UnmatchedMarkersSuppressNothing) {
  // A BEGIN with no END, an END with no BEGIN, and an END whose list is
  // not the BEGIN's (clang-tidy pairs them by the list as written).
  EXPECT_FALSE(covered("// NOLINTBEGIN\nx\n", 2, "shmem-race"));
  EXPECT_FALSE(covered("x\n// NOLINTEND\n", 1, "shmem-race"));
  EXPECT_FALSE(covered("// NOLINTBEGIN(shmem-race)\nx\n"
                       "// NOLINTEND(shmem-*)\n",
                       2, "shmem-race"));
}

TEST(NoLintTest, RegionsNest) {
  const char *Text = "// NOLINTBEGIN(shmem-race)\n"           // 1
                     "// NOLINTBEGIN(shmem-bank-conflict)\n"  // 2
                     "x\n"                                   // 3
                     "// NOLINTEND(shmem-bank-conflict)\n"    // 4
                     "y\n"                                   // 5
                     "// NOLINTEND(shmem-race)\n";            // 6
  EXPECT_TRUE(covered(Text, 3, "shmem-bank-conflict"));
  EXPECT_TRUE(covered(Text, 3, "shmem-race"));
  EXPECT_FALSE(covered(Text, 5, "shmem-bank-conflict"));
  EXPECT_TRUE(covered(Text, 5, "shmem-race"));
}

TEST(NoLintTest, LineMarkersAreNotRegions) {
  // NOLINT and NOLINTNEXTLINE are not the start of a region.
  EXPECT_TRUE(noLintRegions("// NOLINT\nx\n// NOLINTNEXTLINE\ny\n").empty());
  EXPECT_FALSE(noLintCovers("// NOLINTBEGIN", "NOLINT", "shmem-race"));
}

} // namespace
