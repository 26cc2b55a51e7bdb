//===- RaceAnalysisTest.cpp - The pruned search for races -----------------===//
//
// findRaces skips the pairs of sites whose report can no longer change the
// findings. These tests run it both ways, pruned and exhaustive, on many
// small generated kernels and on the long shapes the pruning is for, and
// require the same reports; on the long shapes, a number of pair analyses
// linear in the number of accesses.
//
//===----------------------------------------------------------------------===//

#include "Analysis/RaceAnalysis.h"

#include "TraceCuda.h"

#include "clang/Frontend/ASTUnit.h"

#include "gtest/gtest.h"

#include <sstream>

using namespace clang;
using namespace shmem;

namespace {

/// Every field of a report, as text, so that two runs compare whole.
struct Recorder : RaceHandler {
  std::vector<std::string> Reports;
  void handleRace(const RaceReport &R) override {
    std::ostringstream OS;
    auto Side = [&](const RaceSide &S) {
      OS << S.Access << "/" << S.Thread << "/" << S.Offset;
      for (const auto &KV : S.Iterations)
        OS << "/" << KV.first << "=" << KV.second;
      OS << " ";
    };
    OS << int(R.K) << " ";
    Side(R.Later);
    Side(R.Earlier);
    OS << R.CrossWarp << " " << R.CarriedBy << " " << R.Distance << " "
       << R.Reason << " " << R.ReadModifyWrite;
    Reports.push_back(OS.str());
  }
  /// The search's cut, as "access/pairs": a cut changes what a run says.
  void handleCut(unsigned First, unsigned long long PairsAnalysed) override {
    Reports.push_back("cut " + std::to_string(First) + "/" +
                      std::to_string(PairsAnalysed));
  }
  void handleGap(unsigned Access, std::string What, std::string Why) override {
    Reports.push_back("gap " + std::to_string(Access) + " " + What + ": " +
                      Why);
  }
};

struct Runs {
  std::vector<std::string> Pruned, Exhaustive;
  unsigned long long PrunedPairs = 0, ExhaustivePairs = 0;
};

/// findRaces both ways on the kernel of \p Code (the only one).
Runs runBoth(const std::string &Code, unsigned Threads,
             bool ReportBenign = false) {
  Runs R;
  AnalysisOptions Opts;
  Opts.ReportBenign = ReportBenign;
  test::ParsedKernel P = test::traceLastKernel(
      Code, Threads, Opts,
      "__device__ void __syncwarp(unsigned mask = 0xffffffffu);\n");
  if (!P)
    return R;
  ASTContext &Ctx = P.ctx();
  const KernelTrace &T = P.T;
  for (bool Exhaustive : {false, true}) {
    Recorder Rec;
    RaceSearch Search;
    Search.Exhaustive = Exhaustive;
    findRaces(Ctx, T, Opts, Rec, &Search);
    (Exhaustive ? R.Exhaustive : R.Pruned) = Rec.Reports;
    (Exhaustive ? R.ExhaustivePairs : R.PrunedPairs) = Search.PairsAnalysed;
  }
  return R;
}

const char *Tid = "__nvvm_read_ptx_sreg_tid_x()";

/// A barrier-free run of \p N shared accesses, the shape of
/// `gen.py --accesses`: every store meets every later access.
std::string barrierFree(unsigned N) {
  std::ostringstream OS;
  OS << "__global__ void k(const float *in, float *out) {\n"
     << "  __shared__ float tile[64];\n  __shared__ float row[64];\n"
     << "  unsigned t = " << Tid << ";\n  float acc = in[t];\n";
  for (unsigned I = 0; I < N; ++I) {
    switch (I % 6) {
    case 0: OS << "  tile[(t + " << I % 64 << ") & 63] = acc;\n"; break;
    case 1: OS << "  acc += tile[t ^ " << I % 64 << "];\n"; break;
    case 2: OS << "  row[t] = acc;\n"; break;
    case 3: OS << "  if (t < " << 16 + I % 32 << ") acc += row[(t * 3) & 63];\n"; break;
    case 4: OS << "  acc += tile[(t + 1) & 63];\n"; break;
    case 5: OS << "  if (t < 8) tile[t] = acc;\n"; break;
    }
  }
  OS << "  out[t] = acc;\n}\n";
  return OS.str();
}

/// \p N steps of store, barrier, neighbour load: `gen.py --barriers`.
std::string pipeline(unsigned N) {
  std::ostringstream OS;
  OS << "__global__ void k(const float *in, float *out) {\n"
     << "  __shared__ float buf[64];\n  unsigned t = " << Tid << ";\n"
     << "  float v = in[t];\n";
  for (unsigned I = 0; I < N; ++I)
    OS << "  buf[t] = v;\n  __syncthreads();\n  v += buf[(t + " << 1 + I % 63
       << ") & 63];\n";
  OS << "  out[t] = v;\n}\n";
  return OS.str();
}

TEST(RaceSearchTest, BarrierFreeRunNeedsLinearlyManyPairs) {
  for (unsigned N : {60u, 240u}) {
    Runs R = runBoth(barrierFree(N), 64);
    EXPECT_FALSE(R.Pruned.empty());
    EXPECT_EQ(R.Pruned, R.Exhaustive) << "N = " << N;
    // Every store meets every later access: the exhaustive search is
    // quadratic, the pruned one is not.
    EXPECT_GT(R.ExhaustivePairs, 1ull * N * N / 8);
    EXPECT_LE(R.PrunedPairs, 3ull * N) << "N = " << N;
  }
}

TEST(RaceSearchTest, BarrierPipelinePairsOnlyWithinRegions) {
  for (unsigned N : {30u, 120u}) {
    Runs R = runBoth(pipeline(N), 64);
    // Each load meets the store of the next step: N - 1 findings.
    EXPECT_EQ(R.Pruned.size(), N - 1);
    EXPECT_EQ(R.Pruned, R.Exhaustive) << "N = " << N;
    EXPECT_LE(R.PrunedPairs, 3ull * N) << "N = " << N;
    EXPECT_LE(R.ExhaustivePairs, 3ull * N) << "N = " << N;
  }
}

TEST(RaceSearchTest, SkippedPairStillCountsForTheBarrierNamed) {
  // The first race (the store against t ^ 1) is within one warp. The store
  // against (t + 32) & 63, another warp, is in the same finding's group but
  // is skipped: both its statements are named and both sites evaluated
  // (the store to s[64 + t] met them all without a race). The finding must
  // still ask for __syncthreads(), as the exhaustive search says.
  std::string Code = std::string(R"(__global__ void k(const float *in, float *out) {
  __shared__ float s[128];
  unsigned t = )") + Tid + R"(;
  float v = in[t];
  s[64 + t] = v;
  s[t] = v;
  v += s[t ^ 1] + s[(t + 32) & 63];
  out[t] = v;
})";
  Runs R = runBoth(Code, 64);
  ASSERT_EQ(R.Pruned.size(), 1u);
  EXPECT_EQ(R.Pruned, R.Exhaustive);
}

/// Small kernels drawn from a menu of statements (a fixed generator, so
/// the test is deterministic): threads of one warp and of two, guards,
/// block and warp barriers, same-value stores, a loop. The pruned search
/// must report exactly what the exhaustive one does.
std::string drawn(unsigned Seed) {
  static const char *Menu[] = {
      "s[t] = v;",
      "v += s[t ^ 1];",
      "v += s[(t + 32) & 63];",
      "s[(t + 1) & 63] = v;",
      "__syncthreads();",
      "__syncwarp();",
      "if (t < 16) s[t] = v;",
      "v += s[t ^ 2] + s[(t + 33) & 63];",
      "s[t ^ 3] = 1.0f;",
      "s[5] = 2.0f;",
      "s[5] = 2.0f;",
      "v += s[5];",
      "r[t] = v;",
      "v += r[63 - t];",
      "s[t] += s[t ^ 16];",
      "for (int i = 0; i < 4; ++i) s[(t + i) & 63] = v;",
      "for (int i = 0; i < n; ++i) { v += s[(t + i) & 63]; s[t] = v; }",
      "s[64 + t] = v;",
  };
  constexpr unsigned NMenu = sizeof(Menu) / sizeof(Menu[0]);
  uint64_t X = Seed * 0x9E3779B97F4A7C15ull + 1;
  auto Next = [&] {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    return X;
  };
  std::ostringstream OS;
  OS << "__global__ void k(const float *in, float *out, int n) {\n"
     << "  __shared__ float s[128];\n  __shared__ float r[64];\n"
     << "  unsigned t = " << Tid << ";\n  float v = in[t];\n";
  unsigned Len = 6 + Next() % 14;
  for (unsigned I = 0; I < Len; ++I)
    OS << "  " << Menu[Next() % NMenu] << "\n";
  OS << "  out[t] = v;\n}\n";
  return OS.str();
}

TEST(RaceSearchTest, PrunedSearchReportsWhatExhaustiveDoes) {
  unsigned WithFindings = 0;
  unsigned long long Pruned = 0, Exhaustive = 0;
  for (unsigned Seed = 0; Seed < 60; ++Seed) {
    std::string Code = drawn(Seed);
    Runs R = runBoth(Code, 64, /*ReportBenign=*/Seed % 2);
    EXPECT_EQ(R.Pruned, R.Exhaustive) << Code;
    WithFindings += !R.Pruned.empty();
    Pruned += R.PrunedPairs;
    Exhaustive += R.ExhaustivePairs;
  }
  // The kernels are not all trivial, and pruning happened.
  EXPECT_GT(WithFindings, 30u);
  EXPECT_LT(Pruned, Exhaustive);
}

} // namespace
