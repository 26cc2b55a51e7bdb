//===- ConstantFoldsTest.cpp - One cache of constants per translation unit
//-===//
//
// The walker and the uniformity analysis fold integer constants through
// the translation unit's ConstantFolds (ProgramCFGs::folds()) when they are
// given it, as runChecks gives it: a helper two kernels call, a what-if walk
// of a trace, and the uniformity analysis of a walked kernel fold nothing
// again. A walk given no cache keeps its own, and records the same trace.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KernelTrace.h"
#include "Analysis/Program/KernelCFG.h"
#include "Analysis/Uniformity.h"

#include "ParseCuda.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace shmem;

namespace {

const char *const TwoKernels = R"(
template <int N> __device__ int scaled(int i) {
  return (i * (N / 2) + int(sizeof(float))) % (64 * N);
}
__global__ void first(float *out) {
  __shared__ float s[512];
  s[scaled<4>(__nvvm_read_ptx_sreg_tid_x())] = 1.0f;
  __syncthreads();
  out[__nvvm_read_ptx_sreg_tid_x()] = s[__nvvm_read_ptx_sreg_tid_x() * 2];
}
__global__ void second(float *out) {
  __shared__ float t[512];
  t[scaled<4>(__nvvm_read_ptx_sreg_tid_x())] = 2.0f;
  __syncthreads();
  out[__nvvm_read_ptx_sreg_tid_x()] = t[__nvvm_read_ptx_sreg_tid_x() + 64];
}
)";

/// Each access's statement and the address of every thread.
std::vector<std::pair<const Expr *, std::vector<int64_t>>>
addresses(const KernelTrace &T) {
  std::vector<std::pair<const Expr *, std::vector<int64_t>>> Out;
  for (const SharedAccess &A : T.Accesses) {
    std::vector<int64_t> PerThread;
    for (unsigned I = 0; I < A.Address.Offset.size(); ++I)
      PerThread.push_back(A.Address.Offset.evaluate(I));
    Out.push_back({A.E, PerThread});
  }
  return Out;
}

struct Unit {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *First = nullptr, *Second = nullptr;
  ThreadGeometry G{Dim3{64, 1, 1}};

  Unit() {
    AST = test::parseDeviceCode(TwoKernels);
    EXPECT_TRUE(AST);
    if (!AST)
      return;
    First = test::functionNamed(AST->getASTContext(), "first");
    Second = test::functionNamed(AST->getASTContext(), "second");
    EXPECT_TRUE(First && Second);
  }
  ASTContext &ctx() { return AST->getASTContext(); }
};

TEST(ConstantFolds, WalksOfATranslationUnitShareOneCache) {
  Unit U;
  ASSERT_TRUE(U.First && U.Second);
  ProgramCFGs Graphs(U.ctx());
  ConstantFolds &Folds = Graphs.folds();

  KernelTrace A = traceKernel(U.ctx(), U.First, U.G, AnalysisOptions(), nullptr,
                              nullptr, {}, &Folds);
  EXPECT_EQ(A.Folds, &Folds);
  unsigned AfterFirst = Folds.computed();
  EXPECT_GT(AfterFirst, 0u);

  // The second kernel calls the same helper: only its own body is new.
  unsigned ReusedBefore = Folds.reused();
  traceKernel(U.ctx(), U.Second, U.G, AnalysisOptions(), nullptr, nullptr, {},
              &Folds);
  unsigned NewForSecond = Folds.computed() - AfterFirst;
  EXPECT_GT(NewForSecond, 0u);
  EXPECT_GT(Folds.reused(), ReusedBefore);

  // A what-if walk of the first trace shares its cache: nothing new.
  unsigned Before = Folds.computed();
  KernelTrace Again = retraceKernel(U.ctx(), A, AnalysisOptions());
  EXPECT_EQ(Again.Folds, &Folds);
  EXPECT_EQ(Folds.computed(), Before);
  EXPECT_EQ(addresses(Again), addresses(A));
}

TEST(ConstantFolds, UniformityFoldsWhatTheWalkFolded) {
  Unit U;
  ASSERT_TRUE(U.First);
  ProgramCFGs Graphs(U.ctx());
  ConstantFolds &Folds = Graphs.folds();
  traceKernel(U.ctx(), U.First, U.G, AnalysisOptions(), nullptr, nullptr, {},
              &Folds);
  unsigned Walked = Folds.computed();
  unsigned Reused = Folds.reused();
  UniformityAnalysis UA(U.ctx(), &U.G, 12, &Graphs);
  EXPECT_TRUE(UA.analyzeKernel(U.First).valid());
  EXPECT_GT(Folds.reused(), Reused);

  // Alone, the uniformity analysis folds more than it has to after the
  // walk: what the walk folded it takes from the cache.
  ProgramCFGs Alone(U.ctx());
  UniformityAnalysis UAAlone(U.ctx(), &U.G, 12, &Alone);
  EXPECT_TRUE(UAAlone.analyzeKernel(U.First).valid());
  EXPECT_LT(Folds.computed() - Walked, Alone.folds().computed());
}

TEST(ConstantFolds, AWalkGivenNoCacheKeepsItsOwnAndTheSameTrace) {
  Unit U;
  ASSERT_TRUE(U.First);
  ProgramCFGs Graphs(U.ctx());
  KernelTrace Own = traceKernel(U.ctx(), U.First, U.G, AnalysisOptions());
  EXPECT_EQ(Own.Folds, nullptr);
  EXPECT_EQ(Graphs.folds().computed(), 0u);
  KernelTrace Shared = traceKernel(U.ctx(), U.First, U.G, AnalysisOptions(),
                                   nullptr, nullptr, {}, &Graphs.folds());
  ASSERT_EQ(Own.Accesses.size(), 2u);
  EXPECT_EQ(addresses(Own), addresses(Shared));
  // The helper's constants folded: thread 1 stores to word 1 * 2 + 4,
  // byte 24.
  EXPECT_EQ(addresses(Own)[0].second[1], 6 * 4);
}

} // namespace
