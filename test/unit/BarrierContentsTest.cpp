//===- BarrierContentsTest.cpp - What a call executes of barriers --------===//
//
// Program/BarrierContents: the first block, counted and warp barrier and
// the first warp collective a function executes, itself or through the
// functions it calls, with the calls that lead there; nothing for a
// function that synchronises nowhere, and a recursive call ends the search
// instead of looping. One table per translation unit (ProgramCFGs): the
// barrier check of a second kernel searches only the functions the first
// did not reach.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KernelTrace.h"
#include "Analysis/Program/KernelCFG.h"
#include "Checks/Checks.h"

#include "ParseCuda.h"

#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace clang;
using namespace shmem;

namespace {

const char *const Declarations = R"(
  __device__ void __syncwarp(unsigned mask = 0xffffffffu);
  __device__ int __shfl_xor_sync(unsigned mask, int v, int lane, int w = 32);
)";

const char *const Code = R"(
__device__ void plain(float *s) { s[0] = 1.0f; }
__device__ void waits() { __syncthreads(); }
__device__ void outer(float *s) { plain(s); waits(); }
__device__ void lanes(int v) { v = __shfl_xor_sync(0xffffffffu, v, 1); __syncwarp(); }
__device__ void counted() { asm volatile("bar.sync 1, 64;"); }
__device__ int self(int n) { return n ? self(n - 1) : 0; }
__global__ void first(float *s) { outer(s); }
__global__ void second(float *s) { outer(s); lanes(1); counted(); self(2); }
)";

/// Each element of a path as text: the callee of a call, else "asm".
std::vector<std::string> names(const std::vector<const Stmt *> &Path) {
  std::vector<std::string> Out;
  for (const Stmt *S : Path) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    Out.push_back(F ? F->getNameAsString() : "asm");
  }
  return Out;
}

struct Unit {
  std::unique_ptr<ASTUnit> AST = test::parseDeviceCode(Code, Declarations);
  const FunctionDecl *get(const char *Name) {
    const FunctionDecl *F =
        AST ? test::functionNamed(AST->getASTContext(), Name) : nullptr;
    EXPECT_TRUE(F) << Name;
    return F;
  }
};

using Path = std::vector<std::string>;

TEST(BarrierContents, PathsLeadThroughCallsToTheFirstBarrier) {
  Unit U;
  ASSERT_TRUE(U.AST);
  ProgramCFGs Graphs(U.AST->getASTContext());
  BarrierContents &BC = Graphs.barrierContents();

  const BarrierContent &Outer = BC.of(U.get("outer"));
  EXPECT_TRUE(Outer.any());
  EXPECT_EQ(names(Outer.BlockPath), (Path{"waits", "__syncthreads"}));
  EXPECT_TRUE(Outer.WarpPath.empty());
  EXPECT_TRUE(Outer.CollectivePath.empty());

  const BarrierContent &Second = BC.of(U.get("second"));
  EXPECT_EQ(names(Second.BlockPath), (Path{"outer", "waits", "__syncthreads"}));
  EXPECT_EQ(names(Second.WarpPath), (Path{"lanes", "__syncwarp"}));
  EXPECT_EQ(names(Second.CollectivePath), (Path{"lanes", "__shfl_xor_sync"}));
  EXPECT_EQ(names(Second.CountedPath), (Path{"counted", "asm"}));
}

TEST(BarrierContents, NothingForCodeThatDoesNotSynchronise) {
  Unit U;
  ASSERT_TRUE(U.AST);
  ProgramCFGs Graphs(U.AST->getASTContext());
  const BarrierContent &Plain = Graphs.barrierContents().of(U.get("plain"));
  EXPECT_FALSE(Plain.any());
  EXPECT_TRUE(Plain.CollectivePath.empty());
  // A recursive function ends its own search: nothing found, no loop.
  const BarrierContent &Self = Graphs.barrierContents().of(U.get("self"));
  EXPECT_FALSE(Self.any());
  EXPECT_TRUE(Self.CollectivePath.empty());
}

TEST(BarrierContents, OneSearchPerFunctionForTheTranslationUnit) {
  Unit U;
  ASSERT_TRUE(U.AST);
  ASTContext &Ctx = U.AST->getASTContext();
  ProgramCFGs Graphs(Ctx);
  struct Drop : FindingSink {
    void report(const Finding &) override {}
    void reportGap(const AnalysisGap &) override {}
  } Sink;
  AnalysisOptions Opts;
  auto Check = [&](const char *Name) {
    const FunctionDecl *K = U.get(Name);
    KernelTrace T = traceKernel(Ctx, K, ThreadGeometry(Dim3{64, 1, 1}), Opts);
    KernelContext KC{Ctx, Opts, K, Name, T, Graphs};
    checkDivergentBarriers(KC, Sink);
  };
  // The first kernel's call of outer searches outer, plain and waits.
  Check("first");
  EXPECT_EQ(Graphs.barrierContents().searched(), 3u);
  // The second kernel calls outer again (answered) and lanes, counted and
  // self (searched).
  Check("second");
  EXPECT_EQ(Graphs.barrierContents().searched(), 6u);
}

// A branch side no thread takes, which the walk does not enter: what it
// would execute, through calls too (KernelTrace::SkippedBarriers). An
// instantiation keeps the discarded side of an `if constexpr` as an empty
// block: that side is read from the template's pattern.
const char *const Sides = R"(
__device__ void waits() { __syncthreads(); }
template <int W> __device__ void staged(float *s) {
  if constexpr (W > 1) { __syncthreads(); }
  if (W > 1) { waits(); } else { s[0] = 1.0f; }
}
__global__ void k(float *s) { staged<1>(s); }
)";

TEST(BarrierContents, BranchSidesAndDiscardedConstexprSides) {
  std::unique_ptr<ASTUnit> AST = test::parseDeviceCode(Sides);
  ASSERT_TRUE(AST);
  ProgramCFGs Graphs(AST->getASTContext());
  BarrierContents &BC = Graphs.barrierContents();
  // staged<1>, as the kernel calls it, and its two ifs in order.
  struct Find : RecursiveASTVisitor<Find> {
    const FunctionDecl *Staged = nullptr;
    std::vector<const IfStmt *> Ifs;
    bool VisitCallExpr(CallExpr *C) {
      if (!Staged)
        Staged = C->getDirectCallee();
      return true;
    }
    bool VisitIfStmt(IfStmt *S) {
      Ifs.push_back(S);
      return true;
    }
  } F;
  const FunctionDecl *K = test::functionNamed(AST->getASTContext(), "k");
  ASSERT_TRUE(K);
  F.TraverseStmt(K->getBody());
  ASSERT_TRUE(F.Staged && F.Staged->getBody());
  ASSERT_TRUE(F.Staged->isTemplateInstantiation());
  F.TraverseStmt(F.Staged->getBody());
  ASSERT_EQ(F.Ifs.size(), 2u);
  const IfStmt *Constexpr = F.Ifs[0], *Plain = F.Ifs[1];

  // The plain if: its barrier is in the call of waits(); the other side
  // synchronises nowhere.
  EXPECT_EQ(names(BC.ofStatement(Plain->getThen()).BlockPath),
            (Path{"waits", "__syncthreads"}));
  EXPECT_FALSE(BC.ofStatement(Plain->getElse()).any());

  // The instantiation's discarded side is empty; the template's is not.
  ASSERT_TRUE(Constexpr->isConstexpr());
  EXPECT_FALSE(BC.ofStatement(Constexpr->getThen()).any());
  EXPECT_EQ(names(BC.ofConstexprSide(Constexpr, true, F.Staged).BlockPath),
            (Path{"__syncthreads"}));
  // No else side, in the instantiation or the template.
  EXPECT_FALSE(BC.ofConstexprSide(Constexpr, false, F.Staged).any());
}

} // namespace
