//===- KernelReachTest.cpp - Which kernels runChecks need not walk --------===//
//
// KernelReach::reachesSharedOrBarrier() lets runChecks skip kernels that reach no
// __shared__ variable, no barrier and no inline assembly. It must say yes
// wherever the walk could record a shared access or a barrier, through
// calls, lambdas, constructors and default arguments, and no for the plain
// global-memory kernels that make up most of real code.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KernelTrace.h"

#include "ParseCuda.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace shmem;

namespace {

struct Case {
  const char *Name;
  const char *Code;
  bool Reaches;
};

const Case Cases[] = {
    {"global memory only, through device functions", R"(
__device__ float sq(float x) { return x * x; }
__device__ float norm(const float *v, int i) { return sq(v[i]) + sq(v[i + 1]); }
__global__ void k(float *out, const float *in, int n) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * 256 + __nvvm_read_ptx_sreg_tid_x();
  if (i < n)
    out[i] = norm(in, 2 * i);
}
)",
     false},
    {"a loop and a struct, no shared memory", R"(
struct Acc { float s = 0; __device__ void add(float x) { s += x; } };
__global__ void k(float *out, const float *in, int n) {
  Acc a;
  for (int j = 0; j < n; ++j)
    a.add(in[j * 32 + __nvvm_read_ptx_sreg_tid_x()]);
  out[__nvvm_read_ptx_sreg_tid_x()] = a.s;
}
)",
     false},
    {"shared memory in the kernel, declared in a nested block", R"(
__global__ void k(float *out) {
  {
    __shared__ float s[32];
    s[__nvvm_read_ptx_sreg_tid_x()] = 1;
    out[0] = s[0];
  }
}
)",
     true},
    {"shared memory two calls down", R"(
__device__ float leaf(int i) {
  __shared__ float s[64];
  s[i] = i;
  return s[63 - i];
}
__device__ float mid(int i) { return leaf(i) + 1; }
__global__ void k(float *out) {
  out[__nvvm_read_ptx_sreg_tid_x()] = mid(__nvvm_read_ptx_sreg_tid_x());
}
)",
     true},
    {"a barrier in a callee", R"(
__device__ void wait() { __syncthreads(); }
__global__ void k(float *out) {
  out[__nvvm_read_ptx_sreg_tid_x()] = 1;
  wait();
}
)",
     true},
    {"namespace-scope shared memory through a lambda", R"(
__shared__ float g[128];
__global__ void k(float *out) {
  auto at = [](int i) { return g[i]; };
  out[0] = at(__nvvm_read_ptx_sreg_tid_x());
}
)",
     true},
    {"a barrier in a function object's call operator", R"(
struct Stage {
  __device__ void operator()() const { __syncthreads(); }
};
__global__ void k(float *out) {
  Stage stage;
  stage();
}
)",
     true},
    {"a lambda handed to a helper template, with a barrier", R"(
template <class F> __device__ void run(F f) { f(); }
__global__ void k(float *out) {
  run([] { __syncthreads(); });
}
)",
     true},
    {"shared memory in a default argument", R"(
__shared__ float g[128];
__device__ float first(const float *p = g) { return p[0]; }
__global__ void k(float *out) { out[0] = first(); }
)",
     true},
    {"shared memory in a constructor's member initializer", R"(
__shared__ float g[128];
struct View {
  float *p;
  __device__ View() : p(g) {}
};
__global__ void k(float *out) {
  View v;
  out[0] = v.p[__nvvm_read_ptx_sreg_tid_x()];
}
)",
     true},
    {"inline assembly", R"(
__global__ void k(float *out) {
  asm volatile("bar.sync 0;");
  out[0] = 1;
}
)",
     true},
    // The barrier check looks at warp collectives even without shared
    // memory.
    {"a warp collective, no shared memory", R"(
__device__ int __shfl_down_sync(unsigned mask, int v, unsigned delta, int w = 32);
__global__ void k(int *out) {
  out[0] = __shfl_down_sync(0xffffffff, out[0], 1);
}
)",
     true},
};

TEST(KernelReachTest, SaysYesWhereTheWalkCanRecordAnything) {
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Name);
    std::unique_ptr<ASTUnit> AST = test::parseDeviceCode(C.Code);
    ASSERT_TRUE(AST);
    ASTContext &Ctx = AST->getASTContext();
    const FunctionDecl *K = test::lastKernel(Ctx);
    ASSERT_TRUE(K);
    EXPECT_EQ(KernelReach().reachesSharedOrBarrier(K), C.Reaches);
    // The promise runChecks relies on: a kernel the scan rules out has an
    // empty trace.
    KernelTrace T = traceKernel(Ctx, K, ThreadGeometry(Dim3{64, 1, 1}),
                                AnalysisOptions());
    if (!C.Reaches) {
      EXPECT_TRUE(T.Accesses.empty());
      EXPECT_TRUE(T.Barriers.empty());
      EXPECT_TRUE(T.Collectives.empty());
    }
  }
}

// One KernelReach serves a translation unit: a function's summary, scanned
// for the first kernel that reaches it, must give the right answer for the
// next ones, recursion included.
TEST(KernelReachTest, OneScanPerFunctionAcrossKernels) {
  std::unique_ptr<ASTUnit> AST = test::parseDeviceCode(R"(
__device__ int down(int n) { return n > 0 ? down(n - 1) + 1 : 0; }
__device__ float plain(const float *p, int i) { return p[i] + down(i); }
__device__ float tiled(const float *p, int i) {
  __shared__ float s[64];
  s[i] = plain(p, i);
  return s[63 - i];
}
__global__ void a(float *out, const float *in) { out[0] = plain(in, 1); }
__global__ void b(float *out, const float *in) { out[0] = tiled(in, 1); }
__global__ void c(float *out, const float *in) { out[1] = plain(in, 2); }
)");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  KernelReach Reach;
  for (auto [Name, Want] : {std::pair<const char *, bool>{"a", false},
                            {"b", true},
                            {"c", false},
                            {"b", true}}) {
    SCOPED_TRACE(Name);
    const FunctionDecl *K = test::functionNamed(Ctx, Name);
    ASSERT_TRUE(K);
    EXPECT_EQ(Reach.reachesSharedOrBarrier(K), Want);
  }
}

} // namespace
