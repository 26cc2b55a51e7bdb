//===- SpeculationTest.cpp - Probe walks that record ----------------------===//
//
// A loop's probe walk records, and is kept as the loop's walk when it finds
// nothing to change (walker/Speculation.h). Kept or taken back, the trace
// must be the one the walk gives with probes that do not record
// (AnalysisOptions::RecordingProbes off): each kernel below is walked both
// ways and the traces compared, and the counts say which way it went.
// The taken-back cases are each a way a probe reaches outside the loop:
// their counts fail if the walker stops noticing it, their traces if
// taking back leaves something a probe that does not record would not.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KernelTrace.h"

#include "TraceCuda.h"

#include "gtest/gtest.h"

#include <sstream>

using namespace clang;
using namespace shmem;

namespace {

const char *const Declarations = R"(
  __device__ void __pipeline_memcpy_async(void *, const void *, unsigned long,
                                          unsigned long = 0);
  __device__ void __pipeline_commit();
  __device__ void __pipeline_wait_prior(unsigned long);
)";

std::string activeText(const std::vector<char> &A, bool Approx) {
  std::string S(A.begin(), A.end());
  for (char &C : S)
    C = C ? '1' : '0';
  return S + (Approx ? "~" : "");
}

/// Everything a check reads of a trace, as text.
std::string fingerprint(const KernelTrace &T) {
  std::ostringstream OS;
  for (const SharedAccess &A : T.Accesses) {
    OS << "S " << A.Loc.getRawEncoding() << ' ' << int(A.Kind) << " stretch "
       << A.Stretch << " seq " << A.Seq << ' '
       << activeText(A.Active, A.ActiveApprox) << ' ' << A.AfterExit << ' '
       << A.Address.Offset.str() << " done " << A.AsyncDoneSeq << " global";
    for (unsigned G : A.Global)
      OS << ' ' << G;
    OS << " stored " << (A.Stored ? A.Stored->str() : "-") << '\n';
  }
  for (const GlobalAccess &A : T.GlobalAccesses) {
    OS << "G " << A.Loc.getRawEncoding() << " seq " << A.Seq << ' '
       << activeText(A.Active, A.ActiveApprox) << ' ' << A.Offset.str()
       << " shared";
    for (unsigned S : A.Shared)
      OS << ' ' << S;
    OS << '\n';
  }
  for (const BarrierEvent &B : T.Barriers)
    OS << "B " << B.Loc.getRawEncoding() << " seq " << B.Seq << ' '
       << activeText(B.Active, B.ActiveApprox) << ' '
       << activeText(B.Exited, false) << '\n';
  OS << "branches " << T.Branches.size() << " uniform "
     << T.UniformBranch.size() << " loops " << T.LoopFacts.size() << " gaps "
     << T.Gaps.size() << " symbols " << T.Symbols.size() << '\n';
  for (const auto &[S, ByContext] : T.LoopFacts)
    for (const auto &[C, F] : ByContext)
      OS << "L " << F.Exact << F.FirstTestHolds << ' ' << F.Trips << '\n';
  return OS.str();
}

struct Walked {
  std::string With, Without;
  unsigned Kept = 0, TakenBack = 0;
};

Walked walkBothWays(const std::string &Code) {
  Walked W;
  test::ParsedKernel P = test::parseKernel(Code, Declarations);
  if (!P)
    return W;
  AnalysisOptions Opts;
  KernelTrace With = P.trace(64, Opts);
  Opts.RecordingProbes = false;
  KernelTrace Without = P.trace(64, Opts);
  EXPECT_EQ(Without.ProbesKept + Without.ProbesTakenBack, 0u);
  EXPECT_FALSE(With.Accesses.empty());
  W.With = fingerprint(With);
  W.Without = fingerprint(Without);
  W.Kept = With.ProbesKept;
  W.TakenBack = With.ProbesTakenBack;
  return W;
}

// ggml's flash attention: a while loop over the KV cache whose counter the
// body steps. The probe finds it uniform; its walk is the loop's.
TEST(RecordingProbe, KeptWhenNothingVaries) {
  Walked W = walkBothWays(R"(
__global__ void k(const float *in, float *out, int n) {
  __shared__ float tile[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  int k0 = 0;
  while (k0 < n) {
    tile[tid] = in[k0 + tid];
    __syncthreads();
    float x = tile[(tid * 2) % 64];
    out[k0 + tid] = x;
    __syncthreads();
    k0 += 64;
  }
  if (tid == 0)
    tile[0] = 1.0f;
  out[tid] = tile[tid];
}
)");
  EXPECT_EQ(W.Kept, 1u);
  EXPECT_EQ(W.TakenBack, 0u);
  EXPECT_EQ(W.With, W.Without);
}

// The probe finds `j` varying: its trace is taken back and the loop walked
// again with `j` unknown.
TEST(RecordingProbe, TakenBackWhenAVariableVaries) {
  Walked W = walkBothWays(R"(
__global__ void k(const float *in, int n) {
  __shared__ float tile[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  int j = 0;
  int k0 = 0;
  while (k0 < n) {
    tile[j] = in[k0 + tid];
    j = tid;
    k0 += 64;
  }
}
)");
  EXPECT_EQ(W.Kept, 0u);
  EXPECT_EQ(W.TakenBack, 1u);
  EXPECT_EQ(W.With, W.Without);
}

// A return from the function that holds the loop marks threads returned in
// its frame, which the walk after a probe sees: taken back.
TEST(RecordingProbe, TakenBackAfterAReturnFromTheLoopsFunction) {
  Walked W = walkBothWays(R"(
__device__ void f(float *tile, const float *in, int n) {
  int tid = __nvvm_read_ptx_sreg_tid_x();
  int k0 = 0;
  while (k0 < n) {
    if (n > 1000)
      k0 += 64;
    tile[tid] = in[k0 + tid];
    k0 += 64;
    if (tid >= 48)
      return;
  }
}
__global__ void k(const float *in, int n) {
  __shared__ float tile[64];
  f(tile, in, n);
  __syncthreads();
  tile[0] = 1.0f;
}
)");
  EXPECT_EQ(W.Kept, 0u);
  EXPECT_EQ(W.TakenBack, 1u);
  EXPECT_EQ(W.With, W.Without);
}

// A commit and a wait change which earlier async copies are pending: the
// walk after a probe sees the groups the probe made. Taken back; the copy
// before the loop is completed at the wait in both walks.
TEST(RecordingProbe, TakenBackAfterAsyncCopyGroups) {
  Walked W = walkBothWays(R"(
__global__ void k(const float *in, int n) {
  __shared__ float tile[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  __pipeline_memcpy_async(&tile[tid], &in[tid], 4);
  int k0 = 0;
  while (k0 < n) {
    __pipeline_commit();
    __pipeline_wait_prior(0);
    float x = tile[(tid + 1) % 64];
    __pipeline_memcpy_async(&tile[tid], &in[k0 + tid], 4);
    k0 += 64;
  }
}
)");
  EXPECT_EQ(W.Kept, 0u);
  EXPECT_EQ(W.TakenBack, 1u);
  EXPECT_EQ(W.With, W.Without);
}

// A lambda made in the kernel captures `last` by reference and is called
// in a loop of the function it is passed to: its write reaches the
// kernel's frame, outside the loop's.
TEST(RecordingProbe, TakenBackAfterALambdaWritesAnOuterVariable) {
  Walked W = walkBothWays(R"(
template <typename F> __device__ void each(F f, int n) {
  int k0 = 0;
  while (k0 < n) {
    f(k0);
    k0 += 64;
  }
}
__global__ void k(const float *in, int n) {
  __shared__ float tile[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  int last = 0;
  each([&](int k0) { tile[tid] = in[k0 + tid]; last = k0; }, n);
  tile[last % 64] = 1.0f;
}
)");
  EXPECT_EQ(W.Kept, 0u);
  EXPECT_EQ(W.TakenBack, 1u);
  EXPECT_EQ(W.With, W.Without);
}

// The same loop with a lambda made inside it: nothing leaves the loop.
TEST(RecordingProbe, KeptWithALambdaMadeInTheLoop) {
  Walked W = walkBothWays(R"(
__global__ void k(const float *in, int n) {
  __shared__ float tile[64];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  int k0 = 0;
  while (k0 < n) {
    int idx = tid;
    auto load = [&](int off) { tile[idx] = in[off + idx]; };
    load(k0);
    k0 += 64;
  }
}
)");
  EXPECT_EQ(W.Kept, 1u);
  EXPECT_EQ(W.TakenBack, 0u);
  EXPECT_EQ(W.With, W.Without);
}

} // namespace
