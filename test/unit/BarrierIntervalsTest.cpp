//===- BarrierIntervalsTest.cpp - Barrier intervals and loop relations ----===//
//
// The loop-relation lattice with no AST at all, then the intervals of small
// kernels: which accesses meet, and in which iterations.
//
//===----------------------------------------------------------------------===//

#include "Analysis/BarrierIntervals.h"

#include "ParseCuda.h"

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

std::unique_ptr<ASTUnit> parse(const std::string &Code) {
  return test::parseDeviceCode(Code);
}

struct Analysed {
  std::unique_ptr<ASTUnit> AST;
  KernelTrace T;
  std::unique_ptr<BarrierIntervals> BI;

  /// The site of the first access of \p Kind on line \p Line of the code.
  unsigned site(unsigned Line, AccessKind Kind) const {
    const SourceManager &SM = AST->getSourceManager();
    for (unsigned I = 0; I < T.Accesses.size(); ++I)
      if (T.Accesses[I].Kind == Kind &&
          SM.getPresumedLineNumber(T.Accesses[I].Loc) == Line)
        return BI->siteOf(I);
    ADD_FAILURE() << "no access on line " << Line;
    return 0;
  }
};

Analysed analyse(const std::string &Code, unsigned Threads) {
  Analysed A;
  A.AST = parse(Code);
  ASTContext &Ctx = A.AST->getASTContext();
  const FunctionDecl *K = test::lastKernel(Ctx);
  EXPECT_TRUE(K);
  AnalysisOptions Opts;
  A.T = traceKernel(Ctx, K, ThreadGeometry(Dim3{Threads, 1, 1}), Opts);
  A.BI = std::make_unique<BarrierIntervals>(Ctx, A.T);
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

} // namespace
