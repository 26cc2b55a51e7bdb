//===- UnreachedCodeTest.cpp - Code no thread runs is not walked ----------===//
//
// Once every thread of the walked block has returned, broken or continued,
// with an exact mask, the rest of a compound statement runs in no thread
// and the walker skips it (KernelWalker::unreachedRest): nothing in it is
// noted, not even its branches. Where threads may still arrive (a case
// label, a mask that says who may run rather than who does) it is walked
// as before.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KernelTrace.h"

#include "TraceCuda.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace shmem;

namespace {

using Walk = test::ParsedKernel;

Walk walk(const std::string &Code) { return test::traceLastKernel(Code, 64); }

/// Lines of the recorded shared accesses.
std::vector<unsigned> accessLines(const Walk &W) {
  std::vector<unsigned> Lines;
  const SourceManager &SM = W.sourceManager();
  for (const SharedAccess &A : W.T.Accesses)
    Lines.push_back(SM.getPresumedLineNumber(A.Loc));
  return Lines;
}

/// Lines of the branches the walk noted.
std::vector<unsigned> branchLines(const Walk &W) {
  std::vector<unsigned> Lines;
  const SourceManager &SM = W.sourceManager();
  for (const auto &KV : W.T.UniformBranch)
    Lines.push_back(SM.getPresumedLineNumber(KV.first->getBeginLoc()));
  std::sort(Lines.begin(), Lines.end());
  return Lines;
}

// The rest of the callee after a return every thread takes: its branch is
// not noted (it used to be, with no thread on either side).
TEST(UnreachedCode, RestAfterEveryThreadReturnedIsSkipped) {
  Walk W = walk(R"(__device__ void f(float *s, int n) {
  int tid = __nvvm_read_ptx_sreg_tid_x();
  if (tid < 64)
    return;
  if (n > 3)
    s[tid] = 1.0f;
}
__global__ void k(int n) {
  __shared__ float s[64];
  f(s, n);
  s[__nvvm_read_ptx_sreg_tid_x()] = 2.0f;
}
)");
  EXPECT_EQ(branchLines(W), std::vector<unsigned>{3});
  EXPECT_EQ(accessLines(W), std::vector<unsigned>{11});
}

// Some threads remain: the rest is walked.
TEST(UnreachedCode, RestAfterSomeThreadsReturnedIsWalked) {
  Walk W = walk(R"(__global__ void k(int n) {
  __shared__ float s[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  if (tid < 32)
    return;
  if (n > 3)
    s[tid] = 1.0f;
}
)");
  EXPECT_EQ(branchLines(W), (std::vector<unsigned>{4, 6}));
  EXPECT_EQ(accessLines(W), std::vector<unsigned>{7});
}

/// A kernel whose switch on \p Cond has an empty first case and an access
/// in the second, on line 8.
std::string caseAfterABreak(const std::string &Cond) {
  return R"(__global__ void k(int n) {
  __shared__ float s[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  switch ()" +
         Cond + R"() {
  case 0:
    break;
  case 1:
    s[tid] = 1.0f;
    break;
  }
}
)";
}

// A case after a break is reached by a jump: walked.
TEST(UnreachedCode, CaseAfterABreakIsWalked) {
  EXPECT_EQ(accessLines(walk(caseAfterABreak("tid % 2"))),
            std::vector<unsigned>{8});
}

// The same with a condition not known per thread: the switch is walked as
// straight-line code, and every thread may start at the second label.
// Before, the break left no thread for it and its access was not seen.
TEST(UnreachedCode, CaseAfterABreakIsWalkedUnderAnUnknownCondition) {
  EXPECT_EQ(accessLines(walk(caseAfterABreak("n"))), std::vector<unsigned>{8});
}

// A return under a condition not known per thread leaves a mask of who
// may run: the rest is walked.
TEST(UnreachedCode, RestAfterAnUncertainReturnIsWalked) {
  Walk W = walk(R"(__global__ void k(const int *flags) {
  __shared__ float s[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  if (flags[tid])
    return;
  s[tid] = 1.0f;
}
)");
  EXPECT_EQ(accessLines(W), std::vector<unsigned>{6});
}

} // namespace
