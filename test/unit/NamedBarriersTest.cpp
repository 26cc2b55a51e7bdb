//===- NamedBarriersTest.cpp - Generations and the order they give --------===//
//
// NamedBarriers on small kernels traced in process: which pairs of
// (access, thread) a named barrier orders, in straight-line code, through
// chains of generations, per iteration of a loop walked symbolically, and
// what it refuses to claim.
//
//===----------------------------------------------------------------------===//

#include "Analysis/NamedBarriers.h"

#include "TraceCuda.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace shmem;

namespace {

using Traced = test::ParsedKernel;

Traced trace(const std::string &Code, unsigned Threads) {
  return test::traceLastKernel(
      "__device__ void sync(int id, int n) {\n"
      "  asm volatile(\"bar.sync %0, %1;\" :: \"r\"(id), \"r\"(n));\n"
      "}\n"
      "__device__ void arrive(int id, int n) {\n"
      "  asm volatile(\"bar.arrive %0, %1;\" :: \"r\"(id), \"r\"(n));\n"
      "}\n" +
          Code,
      Threads);
}

/// The trace's accesses, in program order (Seq).
const SharedAccess &access(const KernelTrace &T, unsigned I) {
  EXPECT_LT(I, T.Accesses.size());
  return T.Accesses[I];
}

BarrierOrder order(const NamedBarriers &NB, const KernelTrace &T, unsigned A,
                   unsigned TA, unsigned B, unsigned TB,
                   std::optional<int64_t> Gap = std::nullopt) {
  return NB.order(access(T, A), TA, access(T, B), TB,
                  [&](const Stmt *) { return Gap; });
}

TEST(NamedBarriers, ArriveOrdersWritesBeforeTheWaitersReads) {
  Traced X = trace(R"(
    __global__ void k(float *out) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      if (t < 64) { buf[t] = 1.0f; arrive(1, 128); buf[t] = 2.0f; }
      else { sync(1, 128); out[t] = buf[t - 64]; }
    })",
                   128);
  NamedBarriers NB(X.T);
  ASSERT_TRUE(NB.any());
  EXPECT_TRUE(NB.exact()) << NB.why();
  ASSERT_EQ(X.T.Accesses.size(), 3u);
  // The write before the arrive, and the read after the wait.
  EXPECT_EQ(order(NB, X.T, 0, 0, 2, 64), BarrierOrder::Ordered);
  EXPECT_EQ(order(NB, X.T, 2, 64, 0, 0), BarrierOrder::Ordered);
  // The write after the arrive is not ordered with the read.
  EXPECT_EQ(order(NB, X.T, 1, 0, 2, 64), BarrierOrder::Unordered);
  ASSERT_EQ(NB.groups().size(), 1u);
  EXPECT_EQ(NB.groups()[0].S, NamedBarrierGroup::Exact);
  EXPECT_EQ(NB.groups()[0].Users, 128u);
}

TEST(NamedBarriers, MiscountedBarriersOrderNothing) {
  Traced X = trace(R"(
    __global__ void k(float *out) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      if (t < 64) { buf[t] = 1.0f; arrive(1, 64); }
      else { sync(1, 64); out[t] = buf[t - 64]; }
    })",
                   128);
  NamedBarriers NB(X.T);
  ASSERT_EQ(NB.groups().size(), 1u);
  EXPECT_EQ(NB.groups()[0].S, NamedBarrierGroup::Miscounted);
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 64), BarrierOrder::Unordered);
  // Used as meant, it would order them.
  NamedBarriers Meant(X.T, {}, /*Intended=*/true);
  EXPECT_EQ(order(Meant, X.T, 0, 0, 1, 64), BarrierOrder::Ordered);
  EXPECT_NE(Meant.orderingGroup(access(X.T, 0), 0, access(X.T, 1), 64),
            nullptr);
}

TEST(NamedBarriers, ChainsOfGenerationsOrder) {
  // Warps 0-1 arrive at 1; warps 2-3 wait on 1 then arrive at 2; warps
  // 4-5 wait on 2: the first group's write is before the last one's read.
  Traced X = trace(R"(
    __global__ void k(float *out) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x(), w = t / 32;
      if (w < 2) { buf[t] = 1.0f; arrive(1, 128); }
      else if (w < 4) { sync(1, 128); arrive(2, 128); }
      else { sync(2, 128); out[t] = buf[t - 128]; }
    })",
                   192);
  NamedBarriers NB(X.T);
  EXPECT_TRUE(NB.exact()) << NB.why();
  ASSERT_EQ(X.T.Accesses.size(), 2u);
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 128), BarrierOrder::Ordered);
}

TEST(NamedBarriers, AThreadThatMayRunAheadIsFound) {
  // The producers arrive at barrier 1 twice with nothing in between that
  // the consumers' first arrival happens before.
  Traced X = trace(R"(
    __global__ void k(float *out) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      if (t < 64) { buf[t] = 1.0f; arrive(1, 128); buf[t] = 2.0f; arrive(1, 128); }
      else { sync(1, 128); out[t] = buf[t - 64]; sync(1, 128); }
    })",
                   128);
  NamedBarriers NB(X.T);
  ASSERT_EQ(NB.groups().size(), 1u);
  const NamedBarrierGroup &G = NB.groups()[0];
  EXPECT_EQ(G.S, NamedBarrierGroup::Miscounted);
  EXPECT_TRUE(G.RunsAhead);
  EXPECT_LT(G.RunAhead, 64u);
  EXPECT_GE(G.Behind, 64u);
  EXPECT_EQ(G.AheadUse, 0u);
}

TEST(NamedBarriers, LoopsWalkedSymbolicallyOrderPerIteration) {
  Traced X = trace(R"(
    __global__ void k(float *out, int n) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      for (int i = 0; i < n; ++i) {
        if (t < 64) { buf[t] = 1.0f; sync(1, 128); }
        else { sync(1, 128); out[t] = buf[t - 64]; }
      }
    })",
                   128);
  NamedBarriers NB(X.T);
  EXPECT_TRUE(NB.exact()) << NB.why();
  ASSERT_EQ(X.T.Accesses.size(), 2u);
  // Same iteration, and the read one iteration after the write: ordered.
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 64, 0), BarrierOrder::Ordered);
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 64, 1), BarrierOrder::Ordered);
  // The write one iteration after the read: nothing between them.
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 64, -1), BarrierOrder::Unordered);
  // Any distance: not all are ordered.
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 64), BarrierOrder::Unordered);
}

TEST(NamedBarriers, WhatItCannotFollowIsUnknown) {
  // An arrive in a loop walked symbolically.
  Traced X = trace(R"(
    __global__ void k(float *out, int n) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      for (int i = 0; i < n; ++i) {
        if (t < 64) { buf[t] = 1.0f; arrive(1, 128); }
        else { sync(1, 128); out[t] = buf[t - 64]; }
      }
    })",
                   128);
  NamedBarriers NB(X.T);
  EXPECT_FALSE(NB.exact());
  EXPECT_NE(NB.why().find("arrives without waiting"), std::string::npos)
      << NB.why();
  EXPECT_EQ(order(NB, X.T, 0, 0, 1, 64, 0), BarrierOrder::Unknown);

  // An id the walk does not know.
  Traced Y = trace(R"(
    __global__ void k(float *out, int id) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      if (t < 64) { buf[t] = 1.0f; arrive(id, 128); }
      else { sync(1, 128); out[t] = buf[t - 64]; }
    })",
                   128);
  NamedBarriers NY(Y.T);
  EXPECT_FALSE(NY.exact());
  EXPECT_EQ(order(NY, Y.T, 0, 0, 1, 64), BarrierOrder::Unknown);
}

TEST(NamedBarriers, VirtualUsesAreTheFixesWhatIf) {
  Traced X = trace(R"(
    __global__ void k(float *out) {
      __shared__ float buf[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      if (t < 64) buf[t] = 1.0f;
      else out[t] = buf[t - 64];
    })",
                   128);
  NamedBarriers None(X.T);
  EXPECT_FALSE(None.any());
  std::vector<char> Low(128, 0), High(128, 0);
  for (unsigned T = 0; T < 128; ++T)
    (T < 64 ? Low : High)[T] = 1;
  VirtualBarrierUse Arrive{2, 128, true, Low, 0, false, std::nullopt};
  VirtualBarrierUse Sync{2, 128, false, High, 1, true, std::nullopt};
  NamedBarriers Fixed(X.T, {Arrive, Sync});
  EXPECT_TRUE(Fixed.exact()) << Fixed.why();
  EXPECT_EQ(order(Fixed, X.T, 0, 0, 1, 64), BarrierOrder::Ordered);
  // Counting only one side fixes nothing.
  Arrive.Count = Sync.Count = 64;
  NamedBarriers Half(X.T, {Arrive, Sync});
  EXPECT_EQ(order(Half, X.T, 0, 0, 1, 64), BarrierOrder::Unordered);
}

TEST(NamedBarriers, VirtualUseInPlaceOfATraceBarrier) {
  // Warps 0-1 fill and read around a __syncthreads() the others skip; warp
  // 2 reads after the branch. In its place: the named barrier of warps 0-1
  // orders their own pair only; a barrier of all 128 threads (the barrier
  // hoisted) orders warp 2's read too.
  Traced X = trace(R"(
    __global__ void k(float *out) {
      __shared__ float s[64];
      int t = __nvvm_read_ptx_sreg_tid_x();
      float y = 0;
      if (t < 64) {
        s[t] = 1.0f;
        __syncthreads();
        y = s[63 - t];
      }
      out[t] = y + s[t % 64];
    })",
                   128);
  ASSERT_EQ(X.T.Barriers.size(), 1u);
  ASSERT_EQ(X.T.Accesses.size(), 3u);
  X.T.Barriers[0].Named = true;
  std::vector<char> Low(128, 0), All(128, 1);
  for (unsigned T = 0; T < 64; ++T)
    Low[T] = 1;
  VirtualBarrierUse Warps{1, 64, false, Low, 0, false, 0u};
  NamedBarriers Named(X.T, {Warps});
  EXPECT_TRUE(Named.exact()) << Named.why();
  EXPECT_EQ(order(Named, X.T, 0, 0, 1, 63), BarrierOrder::Ordered);
  EXPECT_EQ(order(Named, X.T, 0, 0, 2, 64), BarrierOrder::Unordered);
  VirtualBarrierUse Hoisted{1 << 20, 128, false, All, 0, false, 0u};
  NamedBarriers Block(X.T, {Hoisted});
  EXPECT_TRUE(Block.exact()) << Block.why();
  EXPECT_EQ(order(Block, X.T, 0, 0, 2, 64), BarrierOrder::Ordered);
}

} // namespace
