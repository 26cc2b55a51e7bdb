//===- BarrierIntervalsTest.cpp - Barrier intervals and loop relations ----===//
//
// The loop-relation lattice with no AST at all, then the intervals of small
// kernels: which accesses meet, and in which iterations.
//
//===----------------------------------------------------------------------===//

#include "Analysis/BarrierIntervals.h"

#include "TraceCuda.h"

#include "clang/Frontend/ASTUnit.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace shmem;

namespace {

LoopRelation rel(IterState A, IterState B, bool InA = true, bool InB = true) {
  LoopRelation R;
  R.InA = InA;
  R.InB = InB;
  R.A = A;
  R.B = B;
  return R;
}

TEST(LoopRelationTest, RelativeStatesFixTheDistance) {
  // B one back edge after A: iteration k against k + 1 only.
  LoopRelation R = rel(IterState::Rel0, IterState::Rel1);
  EXPECT_TRUE(R.admits(3, 4));
  EXPECT_FALSE(R.admits(3, 3));
  EXPECT_FALSE(R.admits(4, 3));
  // An iteration not asked about is no constraint.
  EXPECT_TRUE(R.admits(3, -1));
  EXPECT_TRUE(rel(IterState::Rel0, IterState::Rel0).admits(2, 2));
  EXPECT_FALSE(rel(IterState::Rel0, IterState::Rel0).admits(2, 3));
}

TEST(LoopRelationTest, AbsoluteStatesFixTheIteration) {
  // The tag entered the loop: B is in its first or second iteration.
  EXPECT_TRUE(rel(IterState::Rel0, IterState::Abs0, false).admits(-1, 0));
  EXPECT_FALSE(rel(IterState::Rel0, IterState::Abs0, false).admits(-1, 1));
  EXPECT_TRUE(rel(IterState::Rel0, IterState::Abs1, false).admits(7, 1));
  // Relative on a loop around A only: A's iteration is free.
  EXPECT_TRUE(rel(IterState::Rel0, IterState::Rel0, true, false).admits(9, -1));
}

TEST(LoopRelationTest, AnyAdmitsEverything) {
  LoopRelation R = rel(IterState::Rel0, IterState::Any);
  EXPECT_TRUE(R.admits(0, 0));
  EXPECT_TRUE(R.admits(5, 1));
  EXPECT_TRUE(rel(IterState::Any, IterState::Abs0).admits(4, 0));
  EXPECT_FALSE(rel(IterState::Any, IterState::Abs0).admits(4, 1));
}

TEST(LoopRelationTest, OnlyFixesOneAccessesIteration) {
  // A's tag left the loop after A's last iteration (7): B, after the loop,
  // meets A there only.
  LoopRelation R = rel(IterState::Rel0, IterState::Any, true, false);
  R.OnlyA = 7;
  EXPECT_TRUE(R.admits(7, -1));
  EXPECT_FALSE(R.admits(0, -1));
  EXPECT_TRUE(R.admits(-1, -1));
  LoopRelation S = rel(IterState::Any, IterState::Rel0, false, true);
  S.OnlyB = 3;
  EXPECT_TRUE(S.admits(-1, 3));
  EXPECT_FALSE(S.admits(-1, 2));
}

struct Analysed : test::ParsedKernel {
  explicit Analysed(test::ParsedKernel P) : test::ParsedKernel(std::move(P)) {}
  std::unique_ptr<BarrierIntervals> BI;

  /// The site of the first access of \p Kind on line \p Line of the code.
  unsigned site(unsigned Line, AccessKind Kind) const {
    const SourceManager &SM = sourceManager();
    for (unsigned I = 0; I < T.Accesses.size(); ++I)
      if (T.Accesses[I].Kind == Kind &&
          SM.getPresumedLineNumber(T.Accesses[I].Loc) == Line)
        return BI->siteOf(I);
    ADD_FAILURE() << "no access on line " << Line;
    return 0;
  }
};

Analysed analyse(const std::string &Code, unsigned Threads) {
  Analysed A(test::traceLastKernel(Code, Threads));
  A.BI = std::make_unique<BarrierIntervals>(A.ctx(), A.T);
  EXPECT_TRUE(A.BI->valid());
  return A;
}

// Line numbers below count from the first line of the kernel's source.
const char *TiledLoop = R"(__global__ void k(float *out, int n) {
  __shared__ float tile[64];
  for (int i = 0; i < n; ++i) {
    tile[__nvvm_read_ptx_sreg_tid_x()] = out[i];
    __syncthreads();
    out[i] = tile[63 - __nvvm_read_ptx_sreg_tid_x()];
    TRAILING
  }
})";

std::string withTrailing(const char *Barrier) {
  std::string S = TiledLoop;
  S.replace(S.find("TRAILING"), 8, Barrier);
  return S;
}

TEST(BarrierIntervalsTest, TrailingBarrierSeparatesIterations) {
  Analysed A = analyse(withTrailing("__syncthreads();"), 64);
  unsigned Store = A.site(4, AccessKind::Store);
  unsigned Load = A.site(6, AccessKind::Load);
  EXPECT_TRUE(A.BI->concurrency(Store, Load).empty());
}

TEST(BarrierIntervalsTest, MissingTrailingBarrierMeetsTheNextIteration) {
  Analysed A = analyse(withTrailing(""), 64);
  unsigned Store = A.site(4, AccessKind::Store);
  unsigned Load = A.site(6, AccessKind::Load);
  std::vector<Concurrency> Cs = A.BI->concurrency(Store, Load);
  ASSERT_EQ(Cs.size(), 1u);
  // The load runs first; the store is one back edge later.
  EXPECT_EQ(Cs[0].Order, Concurrency::BThenA);
  ASSERT_EQ(Cs[0].Loops.size(), 1u);
  EXPECT_EQ(Cs[0].Loops[0].A, IterState::Rel1);
  EXPECT_EQ(Cs[0].Loops[0].B, IterState::Rel0);
  EXPECT_TRUE(Cs[0].Loops[0].admits(4, 3));
  EXPECT_FALSE(Cs[0].Loops[0].admits(3, 3));
}

TEST(BarrierIntervalsTest, ThreadDependentBranchSplitsThreads) {
  Analysed A = analyse(R"(__global__ void k(float *out) {
  __shared__ float s[64];
  if (__nvvm_read_ptx_sreg_tid_x() < 32)
    s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  else
    out[0] = s[0];
})",
                       64);
  unsigned Store = A.site(4, AccessKind::Store);
  unsigned Load = A.site(6, AccessKind::Load);
  std::vector<Concurrency> Cs = A.BI->concurrency(Store, Load);
  ASSERT_FALSE(Cs.empty());
  EXPECT_EQ(Cs[0].Order, Concurrency::Unordered);
}

TEST(BarrierIntervalsTest, UniformBranchDoesNotSplitThreads) {
  Analysed A = analyse(R"(__global__ void k(float *out, int n) {
  __shared__ float s[64];
  if (n > 3)
    s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  else
    out[0] = s[0];
})",
                       64);
  unsigned Store = A.site(4, AccessKind::Store);
  unsigned Load = A.site(6, AccessKind::Load);
  EXPECT_TRUE(A.BI->concurrency(Store, Load).empty());
}

TEST(BarrierIntervalsTest, BlockBarriersCutRegions) {
  Analysed A = analyse(R"(__global__ void k(float *out) {
  __shared__ float s[64];
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  __syncthreads();
  float v = s[63 - __nvvm_read_ptx_sreg_tid_x()];
  s[__nvvm_read_ptx_sreg_tid_x()] = v;
  __syncthreads();
  out[0] = s[0];
})",
                       64);
  unsigned Store1 = A.site(3, AccessKind::Store);
  unsigned Load1 = A.site(5, AccessKind::Load);
  unsigned Store2 = A.site(6, AccessKind::Store);
  unsigned Load2 = A.site(8, AccessKind::Load);
  EXPECT_NE(A.BI->region(Store1), A.BI->region(Load1));
  EXPECT_EQ(A.BI->region(Load1), A.BI->region(Store2));
  EXPECT_NE(A.BI->region(Store2), A.BI->region(Load2));
  EXPECT_NE(A.BI->region(Store1), A.BI->region(Load2));
  EXPECT_FALSE(A.BI->concurrency(Load1, Store2).empty());
}

TEST(BarrierIntervalsTest, LoopWithoutTrailingBarrierIsOneRegion) {
  // The back edge joins the code after the barrier to the next iteration's
  // store; with a trailing barrier they are apart.
  Analysed Open = analyse(withTrailing(""), 64);
  EXPECT_EQ(Open.BI->region(Open.site(4, AccessKind::Store)),
            Open.BI->region(Open.site(6, AccessKind::Load)));
  Analysed Closed = analyse(withTrailing("__syncthreads();"), 64);
  EXPECT_NE(Closed.BI->region(Closed.site(4, AccessKind::Store)),
            Closed.BI->region(Closed.site(6, AccessKind::Load)));
}

TEST(BarrierIntervalsTest, SitesOfTwoRegionsAreNeverConcurrent) {
  // Every pair of sites of a kernel with branches, a loop, block and warp
  // barriers: another region means no concurrency.
  Analysed A = analyse(R"(__device__ void __syncwarp(unsigned m = ~0u);
__global__ void k(float *out, int n) {
  __shared__ float s[64];
  unsigned t = __nvvm_read_ptx_sreg_tid_x();
  s[t] = 1.0f;
  if (t < 16)
    s[t ^ 1] = 2.0f;
  __syncwarp();
  float v = s[(t + 1) & 63];
  for (int i = 0; i < n; ++i) {
    s[t] = v;
    __syncthreads();
    v += s[(t + i) & 63];
  }
  __syncthreads();
  out[t] = s[t] + v;
})",
                       64);
  unsigned Apart = 0;
  for (unsigned X = 0; X < A.BI->numSites(); ++X)
    for (unsigned Y = 0; Y < A.BI->numSites(); ++Y) {
      if (!A.BI->placed(X) || !A.BI->placed(Y) ||
          A.BI->region(X) == A.BI->region(Y))
        continue;
      ++Apart;
      EXPECT_TRUE(A.BI->concurrency(X, Y).empty()) << X << " " << Y;
    }
  EXPECT_GT(Apart, 0u);
}

TEST(BarrierIntervalsTest, RegionsFlowWhenAskedInAnyOrder) {
  // Two loops without a trailing barrier, a block barrier between them: two
  // regions, whose tags flow when a pair in each is first asked about. The
  // answers are the same whichever region is asked first.
  const char *TwoLoops = R"(__global__ void k(float *out, int n) {
  __shared__ float tile[64];
  for (int i = 0; i < n; ++i) {
    tile[__nvvm_read_ptx_sreg_tid_x()] = out[i];
    __syncthreads();
    out[i] = tile[63 - __nvvm_read_ptx_sreg_tid_x()];
  }
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    tile[__nvvm_read_ptx_sreg_tid_x()] = out[j];
    __syncthreads();
    out[j] = tile[63 - __nvvm_read_ptx_sreg_tid_x()];
  }
})";
  auto Check = [](const std::vector<Concurrency> &Cs) {
    ASSERT_EQ(Cs.size(), 1u);
    EXPECT_EQ(Cs[0].Order, Concurrency::BThenA);
    ASSERT_EQ(Cs[0].Loops.size(), 1u);
    EXPECT_EQ(Cs[0].Loops[0].A, IterState::Rel1);
    EXPECT_EQ(Cs[0].Loops[0].B, IterState::Rel0);
  };
  for (bool FirstLoopFirst : {true, false}) {
    SCOPED_TRACE(FirstLoopFirst ? "first loop first" : "second loop first");
    Analysed A = analyse(TwoLoops, 64);
    unsigned S1 = A.site(4, AccessKind::Store),
             L1 = A.site(6, AccessKind::Load);
    unsigned S2 = A.site(10, AccessKind::Store),
             L2 = A.site(12, AccessKind::Load);
    ASSERT_NE(A.BI->region(S1), A.BI->region(S2));
    if (FirstLoopFirst) {
      Check(A.BI->concurrency(S1, L1));
      Check(A.BI->concurrency(S2, L2));
    } else {
      Check(A.BI->concurrency(S2, L2));
      Check(A.BI->concurrency(S1, L1));
    }
    EXPECT_TRUE(A.BI->concurrency(S1, L2).empty());
    EXPECT_TRUE(A.BI->concurrency(L1, S2).empty());
  }
}

// Branch and loop facts from the walker. blockDim.x is spelled as the
// builtin __nvvm_read_ptx_sreg_ntid_x().
const char *ShapeBarrier = R"(__global__ void k(float *out) {
  __shared__ float s[256];
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  if (__nvvm_read_ptx_sreg_ntid_x() > 32)
    __syncthreads();
  out[0] = s[255 - __nvvm_read_ptx_sreg_tid_x()];
})";

TEST(BarrierIntervalsTest, KnownConditionDropsTheSideNoThreadTakes) {
  // With 64 threads the barrier always runs; with 32 it never does.
  Analysed Always = analyse(ShapeBarrier, 64);
  EXPECT_TRUE(Always.BI
                  ->concurrency(Always.site(3, AccessKind::Store),
                                Always.site(6, AccessKind::Load))
                  .empty());
  Analysed Never = analyse(ShapeBarrier, 32);
  EXPECT_FALSE(Never.BI
                   ->concurrency(Never.site(3, AccessKind::Store),
                                 Never.site(6, AccessKind::Load))
                   .empty());
}

TEST(BarrierIntervalsTest, ThreadDependentConditionKeepsBothSides) {
  // Some threads take each side: both are paths (the barrier is divergent,
  // which is the barrier check's to report).
  Analysed A = analyse(R"(__global__ void k(float *out) {
  __shared__ float s[64];
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  if (__nvvm_read_ptx_sreg_tid_x() < 32)
    __syncthreads();
  out[0] = s[63 - __nvvm_read_ptx_sreg_tid_x()];
})",
                       64);
  EXPECT_FALSE(A.BI
                   ->concurrency(A.site(3, AccessKind::Store),
                                 A.site(6, AccessKind::Load))
                   .empty());
}

const char *LoopTop = R"(__global__ void k(float *out, unsigned n) {
  __shared__ float s[256];
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  for (unsigned d = START; d > 0; d >>= 1)
    __syncthreads();
  out[0] = s[255 - __nvvm_read_ptx_sreg_tid_x()];
})";

std::string loopFrom(const char *Start) {
  std::string S = LoopTop;
  S.replace(S.find("START"), 5, Start);
  return S;
}

TEST(BarrierIntervalsTest, LoopWhoseFirstTestHoldsIsNotSkipped) {
  Analysed Runs = analyse(loopFrom("__nvvm_read_ptx_sreg_ntid_x()"), 64);
  EXPECT_TRUE(Runs.BI
                  ->concurrency(Runs.site(3, AccessKind::Store),
                                Runs.site(6, AccessKind::Load))
                  .empty());
  // Too long to unroll: the first test is still known.
  Analysed Long = analyse(R"(__global__ void k(float *out) {
  __shared__ float s[256];
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  for (int i = 0; i < 1000; ++i)
    __syncthreads();
  out[0] = s[255 - __nvvm_read_ptx_sreg_tid_x()];
})",
                          64);
  EXPECT_TRUE(Long.BI
                  ->concurrency(Long.site(3, AccessKind::Store),
                                Long.site(6, AccessKind::Load))
                  .empty());
  // A run-time start may run no iteration.
  Analysed Maybe = analyse(loopFrom("n"), 64);
  EXPECT_FALSE(Maybe.BI
                   ->concurrency(Maybe.site(3, AccessKind::Store),
                                 Maybe.site(6, AccessKind::Load))
                   .empty());
}

TEST(BarrierIntervalsTest, LeavingAKnownLoopFixesTheLastIteration) {
  // The store in the body meets the load after the loop only from the
  // last of its 4 iterations (the others wait at the next barrier).
  Analysed A = analyse(R"(__global__ void k(float *out) {
  __shared__ float s[64];
  for (int i = 0; i < 4; ++i) {
    __syncthreads();
    s[__nvvm_read_ptx_sreg_tid_x()] = i;
  }
  out[0] = s[63 - __nvvm_read_ptx_sreg_tid_x()];
})",
                       64);
  unsigned Store = A.site(5, AccessKind::Store);
  unsigned Load = A.site(7, AccessKind::Load);
  std::vector<Concurrency> Cs = A.BI->concurrency(Store, Load);
  ASSERT_EQ(Cs.size(), 1u);
  EXPECT_EQ(Cs[0].Order, Concurrency::AThenB);
  ASSERT_EQ(Cs[0].Loops.size(), 1u);
  EXPECT_EQ(Cs[0].Loops[0].OnlyA, 3);
  EXPECT_TRUE(Cs[0].Loops[0].admits(3, -1));
  EXPECT_FALSE(Cs[0].Loops[0].admits(0, -1));
  // The four instances of the store: only the last one's iteration fits.
  unsigned Fit = 0;
  for (unsigned I : A.BI->instances(Store))
    Fit += Cs[0].Loops[0].admits(A.T.Accesses[I].LoopIterations[0], -1);
  EXPECT_EQ(A.BI->instances(Store).size(), 4u);
  EXPECT_EQ(Fit, 1u);
}

TEST(BarrierIntervalsTest, FactsArePerCallContext) {
  // One helper, two calls: the condition holds in the first only.
  Analysed A = analyse(R"(__device__ void stage(unsigned w) {
  if (w > 32)
    __syncthreads();
}
__global__ void k(float *out) {
  __shared__ float s[64];
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  stage(64);
  float v = s[63 - __nvvm_read_ptx_sreg_tid_x()];
  stage(16);
  s[__nvvm_read_ptx_sreg_tid_x()] = v;
})",
                       64);
  EXPECT_TRUE(A.BI
                  ->concurrency(A.site(7, AccessKind::Store),
                                A.site(9, AccessKind::Load))
                  .empty());
  EXPECT_FALSE(A.BI
                   ->concurrency(A.site(9, AccessKind::Load),
                                 A.site(11, AccessKind::Store))
                   .empty());
}

TEST(BarrierIntervalsTest, WalkerRecordsBranchAndLoopFacts) {
  Analysed A = analyse(loopFrom("__nvvm_read_ptx_sreg_ntid_x()"), 64);
  ASSERT_EQ(A.T.LoopFacts.size(), 1u);
  const auto &ByContext = A.T.LoopFacts.begin()->second;
  ASSERT_EQ(ByContext.size(), 1u);
  const KernelTrace::LoopOutcomes &O = ByContext.begin()->second;
  EXPECT_TRUE(O.Exact);
  EXPECT_TRUE(O.FirstTestHolds);
  EXPECT_EQ(O.Trips, 7); // d = 64, 32, ..., 1.
  Analysed B = analyse(ShapeBarrier, 64);
  ASSERT_EQ(B.T.Branches.size(), 1u);
  const KernelTrace::BranchOutcomes &Br = B.T.Branches.begin()->second;
  EXPECT_TRUE(Br.Exact);
  EXPECT_TRUE(Br.TakenTrue);
  EXPECT_FALSE(Br.TakenFalse);
}

/// The facts the walk recorded for the branch on line \p Line.
const KernelTrace::BranchOutcomes *branchOn(const Analysed &A,
                                            unsigned Line) {
  const SourceManager &SM = A.sourceManager();
  const KernelTrace::BranchOutcomes *Found = nullptr;
  unsigned Contexts = 0;
  for (const auto &KV : A.T.Branches)
    if (SM.getPresumedLineNumber(KV.first.first->getBeginLoc()) == Line) {
      Found = &KV.second;
      ++Contexts;
    }
  if (Contexts == 1)
    return Found;
  ADD_FAILURE() << "no branch in one context on line " << Line;
  return nullptr;
}

TEST(BarrierIntervalsTest, ReturnsUnderUnknownConditionsAndExactness) {
  // A callee returning under a condition the walk cannot evaluate: every
  // thread is back after the call, as exactly as before it.
  Analysed Call = analyse(R"(__device__ float slope(float b) {
  if (b <= 0.0f)
    return 1.0f;
  return b;
}
__global__ void k(float *out, float b) {
  __shared__ float s[64];
  s[__nvvm_read_ptx_sreg_tid_x()] = slope(b);
  if (__nvvm_read_ptx_sreg_ntid_x() > 32)
    __syncthreads();
  out[0] = s[63 - __nvvm_read_ptx_sreg_tid_x()];
})",
                          64);
  const KernelTrace::BranchOutcomes *After = branchOn(Call, 9);
  ASSERT_TRUE(After);
  EXPECT_TRUE(After->Exact);
  // Inside a loop, the threads that may have returned are dropped after
  // it: more than really returned, so what follows is not exact.
  Analysed Loop = analyse(R"(__device__ void tail(float *s, const float *in) {
  for (int k = 0; k < 2; ++k)
    if (__nvvm_read_ptx_sreg_tid_x() < 32 && in[__nvvm_read_ptx_sreg_tid_x()] > 0)
      return;
  if (__nvvm_read_ptx_sreg_tid_x() < 32)
    s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  s[63 - __nvvm_read_ptx_sreg_tid_x()] = 2.0f;
}
__global__ void k(const float *in) {
  __shared__ float s[64];
  tail(s, in);
})",
                          64);
  const KernelTrace::BranchOutcomes *Dropped = branchOn(Loop, 5);
  ASSERT_TRUE(Dropped);
  EXPECT_FALSE(Dropped->Exact);
  EXPECT_FALSE(Dropped->TakenTrue); // Threads 0-31 were all dropped.
  // A condition the same in every thread takes one side whichever threads
  // are there: exact under that mask, and the side is taken.
  Analysed Splat = analyse(R"(__device__ void tail(float *s, const float *in) {
  for (int k = 0; k < 2; ++k)
    if (in[__nvvm_read_ptx_sreg_tid_x()] > 0)
      return;
  if (__nvvm_read_ptx_sreg_ntid_x() > 32)
    s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
}
__global__ void k(const float *in) {
  __shared__ float s[64];
  tail(s, in);
})",
                           64);
  const KernelTrace::BranchOutcomes *Uniform = branchOn(Splat, 5);
  ASSERT_TRUE(Uniform);
  EXPECT_TRUE(Uniform->Exact);
  EXPECT_TRUE(Uniform->TakenTrue);
  EXPECT_FALSE(Uniform->TakenFalse);
}

TEST(BarrierIntervalsTest, BranchSidesPerUnrolledIteration) {
  Analysed A = analyse(R"(__device__ void step(float *s, int k) {
  s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
  if (k + 1 < 4)
    __syncthreads();
}
__global__ void k(int n) {
  __shared__ float s[64];
  for (int k = 0; k < 4; ++k) {
    step(s, k);
    if ((k == 1) | (__nvvm_read_ptx_sreg_tid_x() < 8))
      s[0] = 0.0f;
  }
  for (int j = 0; j < n; ++j)
    if (j < 1)
      s[1] = 0.0f;
})",
                       64);
  // In the callee, per iteration of the caller's loop: the barrier runs
  // in iterations 0-2 and is skipped in 3.
  const KernelTrace::BranchOutcomes *InCallee = branchOn(A, 3);
  ASSERT_TRUE(InCallee);
  EXPECT_TRUE(InCallee->PerIteration);
  EXPECT_EQ(InCallee->iterationsTaking(0), 0x7u);
  EXPECT_EQ(InCallee->iterationsTaking(1), 0x8u);
  // Split by thread in every iteration, all of them in iteration 1.
  const KernelTrace::BranchOutcomes *Split = branchOn(A, 10);
  ASSERT_TRUE(Split);
  EXPECT_EQ(Split->iterationsTaking(0), 0xfu);
  EXPECT_EQ(Split->iterationsTaking(1), 0xdu);
  // A loop walked symbolically has no iterations to tell apart.
  const KernelTrace::BranchOutcomes *Symbolic = branchOn(A, 14);
  ASSERT_TRUE(Symbolic);
  EXPECT_FALSE(Symbolic->PerIteration);
  EXPECT_EQ(Symbolic->iterationsTaking(1), ~uint64_t(0));
}

} // namespace

// Many pairs of tags can give one alternative (every path through two
// uniform diamonds, both sides of a thread-dependent branch): each
// alternative is listed once, in the order it was first found.
TEST(BarrierIntervalsTest, AlternativesAreListedOnce) {
  Analysed A = analyse(R"(__global__ void k(float *out, int n) {
  __shared__ float s[64];
  for (int i = 0; i < n; ++i) {
    if (__nvvm_read_ptx_sreg_tid_x() < 32)
      s[__nvvm_read_ptx_sreg_tid_x()] = 1.0f;
    else
      out[0] = s[0];
    if (n > 3)
      out[1] = 0.0f;
    if (n > 5)
      out[2] = 0.0f;
  }
})",
                       64);
  unsigned Store = A.site(5, AccessKind::Store);
  unsigned Load = A.site(7, AccessKind::Load);
  std::vector<Concurrency> Cs = A.BI->concurrency(Store, Load);
  ASSERT_FALSE(Cs.empty());
  auto Same = [](const Concurrency &X, const Concurrency &Y) {
    if (X.Order != Y.Order || X.Loops.size() != Y.Loops.size())
      return false;
    for (unsigned I = 0; I < X.Loops.size(); ++I) {
      const LoopRelation &P = X.Loops[I], &Q = Y.Loops[I];
      if (P.Loop != Q.Loop || P.A != Q.A || P.B != Q.B || P.MaskA != Q.MaskA ||
          P.MaskB != Q.MaskB || P.OnlyA != Q.OnlyA || P.OnlyB != Q.OnlyB)
        return false;
    }
    return true;
  };
  for (unsigned I = 0; I < Cs.size(); ++I)
    for (unsigned J = I + 1; J < Cs.size(); ++J)
      EXPECT_FALSE(Same(Cs[I], Cs[J])) << I << " " << J;
  // The same in the same order when asked again (the answer is kept).
  std::vector<Concurrency> Again = A.BI->concurrency(Store, Load);
  ASSERT_EQ(Again.size(), Cs.size());
  for (unsigned I = 0; I < Cs.size(); ++I)
    EXPECT_TRUE(Same(Cs[I], Again[I])) << I;
  // Both orders across the back edge, and the two sides of the branch.
  EXPECT_TRUE(llvm::any_of(Cs, [](const Concurrency &C) {
    return C.Order == Concurrency::Unordered;
  }));
  EXPECT_TRUE(llvm::any_of(Cs, [](const Concurrency &C) {
    return C.Order != Concurrency::Unordered;
  }));
}
