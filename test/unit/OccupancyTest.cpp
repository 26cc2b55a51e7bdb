//===- OccupancyTest.cpp - Blocks per SM by threads and shared memory -----===//
//
// The occupancy model against figures worked out by hand from the CUDA C++
// Programming Guide's limits (as its occupancy calculator does, registers
// left out): which limit binds, and where a few bytes of padding cost a
// block.
//
//===----------------------------------------------------------------------===//

#include "Occupancy.h"

#include "gtest/gtest.h"

using namespace shmem;

TEST(Occupancy, KnownArchitectures) {
  for (unsigned A : {70u, 75u, 80u, 86u, 89u, 90u, 100u})
    EXPECT_TRUE(smLimits(A)) << A;
  EXPECT_FALSE(smLimits(61));
  EXPECT_EQ(parseArch("sm_90a"), 90u);
  EXPECT_EQ(parseArch("sm_80"), 80u);
  EXPECT_EQ(parseArch("compute_86"), 86u);
  EXPECT_FALSE(parseArch("x86-64"));
  EXPECT_FALSE(parseArch("sm_"));
}

TEST(Occupancy, TheBindingLimit) {
  SmLimits L80 = *smLimits(80);
  // 256 threads, 4 KB: 2048 / 256 = 8 blocks by threads.
  Occupancy O = blocksPerSM(L80, 256, 4096);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.By, Occupancy::Threads);
  // 32 threads, no shared memory: the cap of 32 blocks.
  O = blocksPerSM(L80, 32, 0);
  EXPECT_EQ(O.BlocksPerSM, 32u);
  EXPECT_EQ(O.By, Occupancy::Blocks);
  // 128 threads, 40 KB: 167936 / (40960 + 1024) = 4 by shared memory.
  O = blocksPerSM(L80, 128, 40960);
  EXPECT_EQ(O.BlocksPerSM, 4u);
  EXPECT_EQ(O.By, Occupancy::SharedMemory);
  // Threads are allotted in whole warps: 48 threads take 64.
  EXPECT_EQ(blocksPerSM(L80, 48, 0).BlocksPerSM, 32u);
  EXPECT_EQ(blocksPerSM(*smLimits(86), 48, 0).BlocksPerSM, 16u);
  EXPECT_EQ(blocksPerSM(*smLimits(86), 96, 0).BlocksPerSM, 16u);
  EXPECT_EQ(blocksPerSM(*smLimits(86), 512, 0).BlocksPerSM, 3u);
  // Too much for one block, or for an SM.
  EXPECT_FALSE(blocksPerSM(L80, 128, 200 * 1024).Fits());
  EXPECT_FALSE(blocksPerSM(*smLimits(75), 2048, 0).Fits());
}

TEST(Occupancy, PaddingThatCostsABlock) {
  // sm_90: 233472 bytes per SM, 1024 reserved per block. 56 KB of tile is
  // 4 blocks (4 x 58368 = 233472 exactly); one more row of 128 bytes is 3.
  SmLimits L90 = *smLimits(90);
  EXPECT_EQ(blocksPerSM(L90, 128, 57344).BlocksPerSM, 4u);
  EXPECT_EQ(blocksPerSM(L90, 128, 57344 + 128).BlocksPerSM, 3u);
  // The same tiles on sm_80 (167936 per SM): 2 either way.
  EXPECT_EQ(blocksPerSM(*smLimits(80), 128, 57344).BlocksPerSM, 2u);
  EXPECT_EQ(blocksPerSM(*smLimits(80), 128, 57344 + 128).BlocksPerSM, 2u);
}
