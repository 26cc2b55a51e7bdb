//===- UniformityTest.cpp - The divergence analysis on small kernels ------===//
//
// Each test parses a kernel with shmem-lint's CUDA header and asks for the
// level of the argument of every `probe(...)` call, in source order: the
// probes are the test points.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Butterfly.h"
#include "Analysis/Program/Worklist.h"
#include "Analysis/Uniformity.h"
#include "Checks/Checks.h"

#include "ParseCuda.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace shmem;

namespace {

using L = UniformityLevel;

const char *Prelude = R"cu(
template <class T> __device__ void probe(T);
)cu";
constexpr unsigned PreludeLines = 2;

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *Kernel = nullptr;
};

Parsed parse(const std::string &Code) {
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80",
      "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version",
      "-resource-dir", SHMEM_LINT_RESOURCE_DIR,
      "-isystem", SHMEM_LINT_CUDA_HEADERS,
      "-include", "shmem_lint_cuda.h", "-std=c++17"};
  Parsed P;
  P.AST = tooling::buildASTFromCodeWithArgs(Prelude + Code, Args, "test.cu");
  if (P.AST)
    P.Kernel = test::lastKernel(P.AST->getASTContext());
  return P;
}

/// The probes of a function body, in source order.
class ProbeFinder : public RecursiveASTVisitor<ProbeFinder> {
public:
  std::vector<const CallExpr *> Probes;
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee())
      if (FD->getDeclName().isIdentifier() && FD->getName() == "probe")
        Probes.push_back(C);
    return true;
  }
};

std::vector<L> levels(const FunctionUniformity &FU) {
  ProbeFinder PF;
  PF.TraverseStmt(FU.function()->getBody());
  std::vector<L> Out;
  for (const CallExpr *C : PF.Probes)
    Out.push_back(FU.level(C->getArg(0)));
  return Out;
}

/// The levels of the probes of the (last) kernel in \p Code, analysed for
/// a block of \p Block threads (none: no geometry).
std::vector<L> probe(const std::string &Code,
                     std::optional<Dim3> Block = Dim3{256, 1, 1}) {
  Parsed P = parse(Code);
  if (!P.AST || !P.Kernel) {
    ADD_FAILURE() << "could not parse:\n" << Code;
    return {};
  }
  std::optional<ThreadGeometry> G;
  if (Block)
    G.emplace(*Block);
  UniformityAnalysis UA(P.AST->getASTContext(), G ? &*G : nullptr);
  return levels(UA.analyzeKernel(P.Kernel));
}

constexpr L Grid = L::GridUniform, Block = L::BlockUniform,
            Warp = L::WarpUniform, Vary = L::Varying;

//===----------------------------------------------------------------------===//
// The lattice, without an AST.
//===----------------------------------------------------------------------===//

TEST(UniformityValue, JoinTakesTheLargerLevel) {
  UniformityValue A = UniformityValue::uniform(Block);
  UniformityValue B = UniformityValue::varying(
      Warp, VarianceSource::WarpCollective, nullptr);
  UniformityValue J = UniformityValue::join(A, B);
  EXPECT_EQ(J.Level, Warp);
  EXPECT_EQ(J.Source.K, VarianceSource::WarpCollective);
  EXPECT_TRUE(UniformityValue::join(B, A).sameAs(J));
}

TEST(UniformityValue, JoinKeepsPerThreadValuesOnlyWhenEqual) {
  auto V = std::make_shared<const LaneValue>(LaneValue::constant(64, 3));
  auto W = std::make_shared<const LaneValue>(LaneValue::constant(64, 4));
  UniformityValue A, B, C;
  A.PerThread = V;
  B.PerThread = std::make_shared<const LaneValue>(LaneValue::constant(64, 3));
  C.PerThread = W;
  EXPECT_NE(UniformityValue::join(A, B).PerThread, nullptr);
  EXPECT_EQ(UniformityValue::join(A, C).PerThread, nullptr);
  EXPECT_FALSE(A.sameAs(C));
}

//===----------------------------------------------------------------------===//
// Sources of variance and uniformity.
//===----------------------------------------------------------------------===//

TEST(Uniformity, BuiltinsAtTheirGranularity) {
  EXPECT_EQ(probe(R"cu(
    __global__ void k(int n) {
      probe(threadIdx.x);
      probe(threadIdx.x / 32);
      probe(threadIdx.x >> 5);
      probe(threadIdx.x & ~31u);
      probe(threadIdx.x % 32);
      probe(threadIdx.x < 64);
      probe(threadIdx.x < 256);
      probe(blockIdx.x);
      probe(blockIdx.x * blockDim.x + threadIdx.x);
      probe(blockDim.x);
      probe(gridDim.y);
      probe(n);
      probe(42);
      probe(warpSize);
    })cu"),
            (std::vector<L>{Vary, Warp, Warp, Warp, Vary, Warp, Grid, Block,
                            Vary, Grid, Grid, Grid, Grid, Grid}));
}

TEST(Uniformity, WarpGranularityFollowsTheBlockShape) {
  const char *Code = R"cu(
    __global__ void k() {
      probe(threadIdx.y);
      probe(threadIdx.x + 32 * threadIdx.y);
    })cu";
  EXPECT_EQ(probe(Code, Dim3{32, 8, 1}), (std::vector<L>{Warp, Vary}));
  EXPECT_EQ(probe(Code, Dim3{16, 16, 1}), (std::vector<L>{Vary, Vary}));
  // Without a shape nothing thread-indexed is known to be warp-uniform.
  EXPECT_EQ(probe(R"cu(
    __global__ void k() { probe(threadIdx.x / 32); })cu",
                  std::nullopt),
            (std::vector<L>{Vary}));
}

TEST(Uniformity, Memory) {
  // One word of global memory is one value for the launch (in[0], a
  // __device__ variable); a __shared__ word one per block.
  EXPECT_EQ(probe(R"cu(
    __constant__ int table[4];
    __device__ int counter;
    __global__ void k(const int *in, volatile int *flag) {
      __shared__ int s[256];
      probe(in[threadIdx.x]);
      probe(in[blockIdx.x]);
      probe(in[0]);
      probe(*in);
      probe(table[2]);
      probe(counter);
      probe(s[threadIdx.x]);
      probe(s[0]);
      probe(flag[0]);
      probe(atomicAdd(&s[0], 1));
    })cu"),
            (std::vector<L>{Vary, Block, Grid, Grid, Grid, Grid, Vary, Block,
                            Vary, Vary}));
  // A kernel pointer the body moves, or a local pointer (which may point
  // into shared memory): block-uniform at best.
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *in, const int *moved) {
      __shared__ int s[256];
      moved += blockIdx.x;
      probe(moved[0]);
      const int *p = threadIdx.y ? in : s;
      probe(p[0]);
    })cu"),
            (std::vector<L>{Block, Block}));
}

TEST(Uniformity, Collectives) {
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *in) {
      int v = in[threadIdx.x];
      probe(__syncthreads_count(v > 0));
      probe(__syncthreads_or(v));
      probe(__ballot_sync(0xffffffff, v > 0));
      probe(__ballot_sync(0x0000ffff, v > 0));
      probe(__any_sync(0xffffffff, v));
      probe(__shfl_sync(0xffffffff, v, 0));
      probe(__shfl_sync(0xffffffff, v, threadIdx.x ^ 1));
      probe(__shfl_down_sync(0xffffffff, v, 1));
      probe(__shfl_xor_sync(0xffffffff, (int)blockIdx.x, 1));
    })cu"),
            (std::vector<L>{Block, Block, Warp, Vary, Warp, Warp, Vary, Vary,
                            Block}));
}

TEST(Uniformity, CooperativeGroups) {
  EXPECT_EQ(probe(R"cu(
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    __global__ void k() {
      cg::thread_block b = cg::this_thread_block();
      auto t = cg::tiled_partition<32>(b);
      probe(b.thread_rank());
      probe(b.size());
      probe(t.thread_rank());
      probe(t.meta_group_rank());
      probe(t.any(threadIdx.x & 1));
      probe(t.any(threadIdx.x < 100));
    })cu"),
            // threadIdx.x & 1 is the same in lane l of every warp, so every
            // warp's vote is the same.
            (std::vector<L>{Vary, Grid, Vary, Warp, Block, Warp}));
}

//===----------------------------------------------------------------------===//
// Warp-invariant values and lane symmetries.
//===----------------------------------------------------------------------===//

TEST(UniformityValue, SymmetriesJoinAndImplyLevels) {
  UniformityValue Lane = UniformityValue::varying(
      Vary, VarianceSource::ThreadIndex, nullptr);
  Lane.WarpInvariant = true;
  UniformityValue Data = UniformityValue::varying(
      Vary, VarianceSource::ThreadDependentLoad, nullptr);
  EXPECT_TRUE(Lane.warpInvariant());
  EXPECT_FALSE(UniformityValue::join(Lane, Data).warpInvariant());
  EXPECT_TRUE(
      UniformityValue::join(Lane, UniformityValue::uniform(Block)).warpInvariant());
  EXPECT_FALSE(Lane.sameAs(Data));
  // Every lane offset: warp-uniform; and warp-invariant: block-uniform.
  Data.LaneXor = ~0u;
  Data.normalize();
  EXPECT_EQ(Data.Level, Warp);
  Lane.LaneXor = ~0u;
  Lane.normalize();
  EXPECT_EQ(Lane.Level, Block);
  EXPECT_EQ(closeLaneXor(1, 16), 0x00010001u);
  EXPECT_EQ(closeLaneXor(closeLaneXor(1, 1), 2), 0xfu);
}

TEST(Uniformity, FullWarpReductionsOfWarpInvariantValues) {
  const char *Code = R"cu(
    __global__ void k(const int *in) {
      __shared__ int s[256];
      unsigned lane = threadIdx.x % 32;
      int w = s[lane];
      int v = in[threadIdx.x];
      probe(w);
      probe(__all_sync(0xffffffff, w));
      probe(__all_sync(0xffffffff, v));
      probe(__ballot_sync(0xffffffff, lane < 4));
      probe(__reduce_add_sync(0xffffffff, w));
      probe(__shfl_sync(0xffffffff, w, 0));
      probe(__shfl_xor_sync(0xffffffff, w, 1));
      probe(__any_sync(0xffffffff, __shfl_xor_sync(0xffffffff, w, 1)));
      probe(__any_sync(0xffffffff, __shfl_down_sync(0xffffffff, w, 3)));
      probe(__any_sync(0xffffffff, s[threadIdx.x / 8]));
      probe(__any_sync(0x0000ffff, w));
      probe(__any_sync(0xffffffff, in[lane] > 0));
    })cu";
  EXPECT_EQ(probe(Code), (std::vector<L>{Vary, Block, Warp, Block, Block,
                                         Block, Vary, Block, Block, Warp,
                                         Vary, Block}));
  // In blocks of 48 the second warp holds 16 lanes and votes on fewer.
  EXPECT_EQ(probe(Code, Dim3{48, 1, 1}),
            (std::vector<L>{Vary, Warp, Warp, Warp, Warp, Warp, Vary, Warp,
                            Warp, Warp, Vary, Warp}));
  // Assigned under a warp-invariant branch: lane l of every warp takes the
  // same side.
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *in) {
      unsigned lane = threadIdx.x % 32;
      int x = 1, y = 1;
      if (lane < 16)
        x = 2;
      if (in[threadIdx.x] > 0)
        y = 2;
      probe(__all_sync(0xffffffff, x));
      probe(__all_sync(0xffffffff, y));
    })cu"),
            (std::vector<L>{Block, Warp}));
  // An element just stored reads back as stored, until the array or the
  // index changes.
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *in) {
      int sum[2], lane = threadIdx.x % 32;
      for (int j = 0; j < 2; ++j) {
        sum[j] = in[threadIdx.x + j];
        sum[j] = __reduce_add_sync(0xffffffff, sum[j]);
        probe(sum[j]);
        probe(sum[lane]);
      }
      probe(sum[0]);
      int k = 0;
      sum[k] = 1;
      k = lane;
      probe(sum[k]);
    })cu"),
            (std::vector<L>{Warp, Vary, Vary, Vary}));
  // threadIdx.x is the lane in blocks 32 wide.
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *in) {
      probe(__any_sync(0xffffffff, in[threadIdx.x] > 0));
    })cu",
                  Dim3{32, 8, 1}),
            (std::vector<L>{Block}));
}

TEST(Uniformity, Butterflies) {
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const float *in) {
      float v = in[threadIdx.x];
      float a = v;
      a += __shfl_xor_sync(0xffffffff, a, 16);
      probe(a);
      a += __shfl_xor_sync(0xffffffff, a, 8);
      a += __shfl_xor_sync(0xffffffff, a, 4);
      a = a + __shfl_xor_sync(0xffffffff, a, 2);
      a = __shfl_xor_sync(0xffffffff, a, 1) + a;
      probe(a);
      float b = v;
      for (int o = 16; o > 0; o >>= 1)
        b = fmaxf(b, __shfl_xor_sync(0xffffffff, b, o));
      probe(b);
      float c = v;
      for (int o = 1; o < 32; o *= 2)
        c += __shfl_xor_sync(0xffffffff, c, o);
      probe(c);
      float d = v;
      for (int o = 16; o > 0; o >>= 1)
        d += __shfl_down_sync(0xffffffff, d, o);
      probe(d);
      float e = v;
      for (int o = 16; o > 0; o >>= 1) {
        e += __shfl_xor_sync(0xffffffff, e, o);
        e -= 1.0f;
      }
      probe(e);
      float f = v;
      for (int o = 8; o > 0; o >>= 1)
        f += __shfl_xor_sync(0xffffffff, f, o, 16);
      probe(f);
      int g = v > 0.0f;
      for (int o = 16; o > 0; o >>= 1)
        g = g && __shfl_xor_sync(0xffffffff, g, o);
      probe(g);
      int h = v > 0.0f;
      for (int o = 16; o > 0; o >>= 1)
        h = __shfl_xor_sync(0xffffffff, h, o) && h;
      probe(h);
      float w = in[threadIdx.x % 32];
      for (int o = 16; o > 0; o >>= 1)
        w += __shfl_xor_sync(0xffffffff, w, o);
      probe(w);
      float x = v;
      for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0x0000ffff, x, o);
      probe(x);
    })cu"),
            (std::vector<L>{Vary, Warp, Warp, Warp, Vary, Vary, Vary, Vary,
                            Warp, Block, Vary}));
}

TEST(Uniformity, GroupReductions) {
  EXPECT_EQ(probe(R"cu(
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    __global__ void k(const int *in) {
      auto t = cg::tiled_partition<32>(cg::this_thread_block());
      auto h = cg::tiled_partition<16>(cg::this_thread_block());
      int v = in[threadIdx.x];
      probe(cg::reduce(t, v, cg::plus<int>()));
      probe(cg::reduce(t, in[t.thread_rank()], cg::plus<int>()));
      probe(cg::reduce(h, v, cg::plus<int>()));
      probe(__any_sync(0xffffffff, cg::reduce(h, in[threadIdx.x % 32],
                                              cg::plus<int>())));
      int m = v;
      for (int o = 16; o > 0; o /= 2)
        m = max(m, t.shfl_xor(m, o));
      probe(m);
    })cu"),
            (std::vector<L>{Warp, Block, Vary, Block, Warp}));
}

//===----------------------------------------------------------------------===//
// Control dependence.
//===----------------------------------------------------------------------===//

TEST(Uniformity, AssignmentsUnderBranches) {
  EXPECT_EQ(probe(R"cu(
    __global__ void k(int n) {
      int x = 0, y = 0, z = 0;
      if (threadIdx.x < 16) {
        x = 1;
        probe(x);   // Uniform among the threads that get here.
      }
      probe(x);     // Differs after the join.
      if (n > 3)
        y = 1;
      probe(y);
      if (blockIdx.x == 0)
        z = 1;
      probe(z);
      if (threadIdx.x / 32 == 1)
        z = 2;
      probe(z);
    })cu"),
            (std::vector<L>{Grid, Vary, Grid, Block, Warp}));
}

TEST(Uniformity, EarlyReturnDoesNotTaintTheSurvivors) {
  EXPECT_EQ(probe(R"cu(
    __global__ void k(int n) {
      if (threadIdx.x >= n)
        return;
      int x = 5;
      probe(x);
    })cu"),
            (std::vector<L>{Grid}));
}

TEST(Uniformity, Loops) {
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *keys) {
      for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)
        probe(s);
      int k = 0;
      for (; k < 8; ++k) {
        probe(k);   // The threads still searching agree.
        if (keys[k] == (int)threadIdx.x)
          break;
      }
      probe(k);     // Threads left at different iterations.
      int i = 0;
      while (i < (int)threadIdx.x)
        ++i;
      probe(i);
    })cu"),
            (std::vector<L>{Grid, Grid, Vary, Vary}));
}

TEST(Uniformity, SharedPerThreadPartsCancel) {
  // base + tid and end + tid differ by a uniform amount in every thread,
  // through the loop's increment too; 2 * tid, -tid and a per-thread step
  // do not cancel against + tid.
  EXPECT_EQ(probe(R"cu(
    __global__ void k(const int *in, int base, int end, int C) {
      const int tid = threadIdx.x;
      for (int t = base + tid; t < end + tid; t += C)
        probe(t < end + tid);
      int u = base + tid;
      probe(u - (end + tid));
      probe(u < end + 2 * tid);
      probe(base - tid < end + tid);
      int v = base + tid;
      for (int j = 0; j < 4; ++j)
        v += tid;
      probe(v < end + tid);
      probe(in[0] + tid == in[1] + tid);
    })cu"),
            (std::vector<L>{Grid, Grid, Vary, Vary, Vary, Grid}));
}

TEST(Uniformity, ScopedLocals) {
  // Locals leave the dataflow state where their scope ends. Variables
  // declared by a for, if or switch header live through the whole
  // statement, inner blocks included; a local of a loop body is a fresh
  // variable in every iteration.
  EXPECT_EQ(probe(R"cu(
    __global__ void k(int n) {
      for (int t = threadIdx.x; t < n; t += 32) {
        { int z = n; probe(z); }
        probe(t);
      }
      if (int q = threadIdx.x % 32; q < n) {
        { int z = 0; probe(z); }
        probe(q);
      }
      switch (int w = threadIdx.x / 32) {
      case 0: { int z = 1; probe(z); } probe(w); break;
      default: break;
      }
      for (int i = 0; i < n; ++i) {
        int c = i;
        probe(c);   // Fresh each iteration: not the last one's threadIdx.x.
        int e;
        if (threadIdx.x < 5) e = 1; else e = 2;
        probe(e);
        c = threadIdx.x;
        probe(c);
      }
    })cu"),
            (std::vector<L>{Grid, Vary, Grid, Vary, Grid, Warp, Grid, Vary,
                            Vary}));
}

TEST(Uniformity, Callees) {
  EXPECT_EQ(probe(R"cu(
    __device__ unsigned lane() { return threadIdx.x % 32; }
    __device__ unsigned warp() { return threadIdx.x / 32; }
    __device__ int twice(int v) { return 2 * v; }
    __device__ void tidInto(int &t) { t = threadIdx.x; }
    __global__ void k(int n) {
      probe(lane());
      probe(warp());
      probe(twice(n));
      probe(twice(threadIdx.x));
      int t = 0;
      tidInto(t);
      probe(t);
    })cu"),
            (std::vector<L>{Vary, Warp, Grid, Vary, Vary}));
}

//===----------------------------------------------------------------------===//
// Branch queries.
//===----------------------------------------------------------------------===//

/// The branches controlling the first __syncthreads() of the kernel.
std::vector<std::string> controllers(const std::string &Code, L Min) {
  Parsed P = parse(Code);
  if (!P.AST || !P.Kernel) {
    ADD_FAILURE() << "could not parse";
    return {};
  }
  ThreadGeometry G(Dim3{256, 1, 1});
  UniformityAnalysis UA(P.AST->getASTContext(), &G);
  const FunctionUniformity &FU = UA.analyzeKernel(P.Kernel);
  struct Finder : RecursiveASTVisitor<Finder> {
    const CallExpr *Barrier = nullptr;
    bool VisitCallExpr(CallExpr *C) {
      if (!Barrier && C->getDirectCallee() &&
          C->getDirectCallee()->getName() == "__syncthreads")
        Barrier = C;
      return true;
    }
  } F;
  F.TraverseStmt(P.Kernel->getBody());
  std::vector<std::string> Out;
  const SourceManager &SM = P.AST->getSourceManager();
  for (const BranchInfo *B : FU.controllingBranches(F.Barrier, Min))
    Out.push_back(std::string(B->IsLoopCondition ? "loop@" : "branch@") +
                  std::to_string(SM.getSpellingLineNumber(
                      B->Condition->getBeginLoc()) - PreludeLines));
  return Out;
}

TEST(Uniformity, ControllingBranches) {
  // Lines are the snippet's (the first, after `R"cu(`, is empty).
  EXPECT_EQ(controllers(R"cu(
__global__ void k(int n) {
  if (n > 0) {
    if (threadIdx.x < 128)
      __syncthreads();
  }
})cu",
                        Warp),
            (std::vector<std::string>{"branch@4"}));
  EXPECT_EQ(controllers(R"cu(
__global__ void k(int n) {
  if (n > 0) {
    if (threadIdx.x < 128)
      __syncthreads();
  }
})cu",
                        Grid),
            (std::vector<std::string>{"branch@4", "branch@3"}));
  EXPECT_EQ(controllers(R"cu(
__global__ void k(int n) {
  for (int i = threadIdx.x; i < n; i += 256)
    __syncthreads();
})cu",
                        Warp),
            (std::vector<std::string>{"loop@3"}));
  // Reconverged before the barrier.
  EXPECT_EQ(controllers(R"cu(
__global__ void k(int *out) {
  if (threadIdx.x < 128)
    out[threadIdx.x] = 0;
  __syncthreads();
})cu",
                        Warp),
            (std::vector<std::string>{}));
  // In a loop that never exits, the paths still meet before the barrier
  // comes round again.
  EXPECT_EQ(controllers(R"cu(
__global__ void k(int *out) {
  for (;;) {
    __syncthreads();
    if (out[threadIdx.x])
      out[0] = 1;
  }
})cu",
                        Warp),
            (std::vector<std::string>{}));
}

//===----------------------------------------------------------------------===//
// The fixpoint's step cap.
//===----------------------------------------------------------------------===//

const char *LoopKernel = R"cu(
__device__ int loopy(int n) {
  int x = 0;
  for (int i = 0; i < n; ++i)
    if (threadIdx.x < 3)
      x = i;
  return x;
}
__global__ void k(int n) {
  probe(loopy(n));
})cu";

/// The result of loopy() in the context of the kernel's one call.
const FunctionUniformity *calleeOf(const FunctionUniformity &FU) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const CallExpr *Call = nullptr;
    bool VisitCallExpr(CallExpr *C) {
      if (C->getDirectCallee() && C->getDirectCallee()->getName() == "loopy")
        Call = C;
      return true;
    }
  } F;
  F.TraverseStmt(FU.function()->getBody());
  return F.Call ? FU.callee(F.Call) : nullptr;
}

TEST(Uniformity, DefaultCapConvergesOnALoop) {
  Parsed P = parse(LoopKernel);
  ASSERT_TRUE(P.AST && P.Kernel);
  ThreadGeometry G(Dim3{256, 1, 1});
  UniformityAnalysis UA(P.AST->getASTContext(), &G);
  const FunctionUniformity &FU = UA.analyzeKernel(P.Kernel);
  const FunctionUniformity *Callee = calleeOf(FU);
  ASSERT_NE(Callee, nullptr);
  EXPECT_TRUE(FU.converged());
  EXPECT_TRUE(Callee->converged());
  // The loop is visited again once x varies: more steps than blocks.
  EXPECT_GT(Callee->fixpointSteps(), Callee->blocks().size());
  EXPECT_EQ(levels(FU), (std::vector<L>{Vary}));
}

TEST(Uniformity, TinyCapIsReported) {
  Parsed P = parse(LoopKernel);
  ASSERT_TRUE(P.AST && P.Kernel);
  ThreadGeometry G(Dim3{256, 1, 1});
  UniformityAnalysis UA(P.AST->getASTContext(), &G);
  UA.setStepCap(1);
  const FunctionUniformity &FU = UA.analyzeKernel(P.Kernel);
  EXPECT_FALSE(FU.converged());
  EXPECT_EQ(FU.fixpointSteps(), 1u);
}

TEST(Uniformity, ACalleeCutOffAtItsCapIsReportedByTheKernel) {
  Parsed P = parse(LoopKernel);
  ASSERT_TRUE(P.AST && P.Kernel);
  ThreadGeometry G(Dim3{256, 1, 1});
  unsigned KernelSteps, CalleeSteps;
  {
    UniformityAnalysis UA(P.AST->getASTContext(), &G);
    const FunctionUniformity &FU = UA.analyzeKernel(P.Kernel);
    ASSERT_NE(calleeOf(FU), nullptr);
    KernelSteps = FU.fixpointSteps();
    CalleeSteps = calleeOf(FU)->fixpointSteps();
  }
  ASSERT_GT(CalleeSteps, KernelSteps);
  // Enough for the straight-line kernel, not for the loop it calls.
  UniformityAnalysis UA(P.AST->getASTContext(), &G);
  UA.setStepCap(KernelSteps);
  const FunctionUniformity &FU = UA.analyzeKernel(P.Kernel);
  ASSERT_NE(calleeOf(FU), nullptr);
  EXPECT_EQ(FU.fixpointSteps(), KernelSteps);
  EXPECT_FALSE(calleeOf(FU)->converged());
  EXPECT_FALSE(FU.converged());
}

// Reaching the cap is said where users see it: shmem-divergent-barrier
// reports an analysis gap for the kernel (a remark in every front end),
// and nothing at the default cap.
TEST(Uniformity, TheBarrierCheckSaysACapReached) {
  Parsed P = parse(R"(
__global__ void k(float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] = acc;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % 256];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}
)");
  ASSERT_TRUE(P.AST && P.Kernel);
  struct Collect : FindingSink {
    std::vector<Finding> Findings;
    std::vector<AnalysisGap> Gaps;
    void report(const Finding &F) override { Findings.push_back(F); }
    void reportGap(const AnalysisGap &G) override { Gaps.push_back(G); }
  };
  auto Run = [&](unsigned Cap) {
    AnalysisOptions Opts;
    Opts.BlockDim = Dim3{256, 1, 1};
    Opts.enable(CheckKind::DivergentBarrier);
    Opts.UniformityStepCap = Cap;
    Collect C;
    runChecks(P.AST->getASTContext(), Opts, C);
    return C;
  };
  Collect Default = Run(0);
  EXPECT_TRUE(Default.Gaps.empty());
  EXPECT_TRUE(Default.Findings.empty());
  Collect Capped = Run(1);
  ASSERT_EQ(Capped.Gaps.size(), 1u);
  EXPECT_EQ(Capped.Gaps[0].Check, CheckKind::DivergentBarrier);
  EXPECT_EQ(Capped.Gaps[0].message(),
            "which threads reach each barrier not settled: the uniformity "
            "fixpoint reached its step cap");
  EXPECT_EQ(Capped.Gaps[0].Kernel, "k");
}

TEST(Worklist, ReversePostOrderAndTheCap) {
  Parsed P = parse(LoopKernel);
  ASSERT_TRUE(P.AST && P.Kernel);
  auto K = KernelCFG::build(P.AST->getASTContext(), P.Kernel);
  ASSERT_TRUE(K);
  // Nothing pushed back: every reachable block once, in reverse post-order.
  std::vector<const CFGBlock *> Order;
  FixpointRun Once = runToFixpoint(
      *K, 1000, [&](const CFGBlock *B, BlockWorklist &) { Order.push_back(B); });
  EXPECT_EQ(Once.Result, FixpointResult::Converged);
  EXPECT_EQ(Once.Steps, K->reversePostOrder().size());
  EXPECT_EQ(Order, std::vector<const CFGBlock *>(K->reversePostOrder().begin(),
                                                 K->reversePostOrder().end()));
  // A visit that always changes something stops at the cap, and says so.
  FixpointRun Never = runToFixpoint(
      *K, 50, [&](const CFGBlock *B, BlockWorklist &W) {
        for (const CFGBlock::AdjacentBlock &S : B->succs())
          W.push(S.getReachableBlock());
        W.push(B);
      });
  EXPECT_EQ(Never.Result, FixpointResult::CapReached);
  EXPECT_FALSE(Never.converged());
  EXPECT_EQ(Never.Steps, 50u);
}

TEST(Uniformity, BranchRegionsAreBuiltOncePerFunction) {
  Parsed P = parse(LoopKernel);
  ASSERT_TRUE(P.AST && P.Kernel);
  ProgramCFGs Graphs(P.AST->getASTContext());
  ThreadGeometry G256(Dim3{256, 1, 1}), G64(Dim3{64, 1, 1});
  UniformityAnalysis A(P.AST->getASTContext(), &G256, 8, &Graphs);
  UniformityAnalysis B(P.AST->getASTContext(), &G64, 8, &Graphs);
  const FunctionUniformity &FA = A.analyzeKernel(P.Kernel);
  const FunctionUniformity &FB = B.analyzeKernel(P.Kernel);
  ASSERT_NE(calleeOf(FA), nullptr);
  ASSERT_NE(calleeOf(FB), nullptr);
  // Two block shapes, one set of branches: the graph's.
  llvm::ArrayRef<BranchInfo> Shared =
      Graphs.get(calleeOf(FA)->function())->branchRegions().branches();
  ASSERT_EQ(Shared.size(), 2u); // The loop condition and the if.
  EXPECT_EQ(calleeOf(FA)->branches().data(), Shared.data());
  EXPECT_EQ(calleeOf(FB)->branches().data(), Shared.data());
}

//===----------------------------------------------------------------------===//
// Branches decided in a calling context.
//===----------------------------------------------------------------------===//

const char *WidthKernel = R"cu(
__device__ int stage(int width) {
  const int stride = 32 >> width;
  if (stride == 0)
    return 0;
  const int t = threadIdx.x % stride;
  probe(t);
  return t;
}
__global__ void k(int *out) {
  out[0] = stage(6);
  out[1] = stage(1);
})cu";

/// The analyses of stage() at the kernel's two calls, in source order.
std::vector<const FunctionUniformity *> stages(const FunctionUniformity &FU) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const CallExpr *> Calls;
    bool VisitCallExpr(CallExpr *C) {
      if (const FunctionDecl *FD = C->getDirectCallee();
          FD && FD->getDeclName().isIdentifier() && FD->getName() == "stage")
        Calls.push_back(C);
      return true;
    }
  } F;
  F.TraverseStmt(FU.function()->getBody());
  std::vector<const FunctionUniformity *> Out;
  for (const CallExpr *C : F.Calls)
    Out.push_back(FU.callee(C));
  return Out;
}

/// stage()'s probe call.
const CallExpr *probeCall(const FunctionUniformity &FU) {
  ProbeFinder PF;
  PF.TraverseStmt(FU.function()->getBody());
  return PF.Probes.size() == 1 ? PF.Probes[0] : nullptr;
}

TEST(Uniformity, TheSideABranchDoesNotTakeInAContextIsNotAnalysed) {
  Parsed P = parse(WidthKernel);
  ASSERT_TRUE(P.AST && P.Kernel);
  ThreadGeometry G(Dim3{256, 1, 1});
  UniformityAnalysis UA(P.AST->getASTContext(), &G);
  std::vector<const FunctionUniformity *> S =
      stages(UA.analyzeKernel(P.Kernel));
  ASSERT_EQ(S.size(), 2u);
  ASSERT_TRUE(S[0] && S[1]);
  // Two contexts: a width of 6 gives a stride of 0 and every thread
  // returns; a width of 1 gives 16 and the rest runs.
  ASSERT_NE(S[0], S[1]);
  const CallExpr *Probe = probeCall(*S[0]);
  ASSERT_TRUE(Probe);
  const CFGBlock *B = S[0]->blockOf(Probe);
  ASSERT_TRUE(B);
  EXPECT_FALSE(S[0]->reached(B));
  EXPECT_FALSE(S[0]->value(Probe->getArg(0))); // Not computed.
  EXPECT_TRUE(S[1]->reached(B));
  ASSERT_TRUE(S[1]->value(Probe->getArg(0)));
  EXPECT_EQ(levels(*S[1]), std::vector<L>{Vary});
  // The test that decides is analysed in both, and is grid-uniform.
  ASSERT_EQ(S[0]->branches().size(), 1u);
  const BranchInfo &If = S[0]->branches()[0];
  EXPECT_TRUE(S[0]->reached(If.Block));
  EXPECT_TRUE(S[1]->reached(If.Block));
  EXPECT_EQ(S[0]->conditionValue(If).Level, Grid);
}

} // namespace
