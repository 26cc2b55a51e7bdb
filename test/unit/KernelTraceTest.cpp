//===- KernelTraceTest.cpp - Facts a kernel trace promises ----------------===//
//
// SymbolInfo::key() names an unknown the same way in every walk of a
// kernel: the bank check matches the unknowns of a what-if walk (padding,
// an unknown pinned to a residue) with those of the kernel as written by
// them, and skips re-judging global accesses whose offsets did not move.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KernelTrace.h"

#include "TraceCuda.h"

#include "gtest/gtest.h"

#include <set>
#include <thread>

using namespace clang;
using namespace shmem;

namespace {

// blockIdx.x, blockIdx.y and gridDim.x (spelled as the NVVM builtins they
// lower to), a parameter, and a product of two unknowns.
const char *const Kernel = R"(
__global__ void k(float *out, int n) {
  __shared__ float s[256];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  int bx = __nvvm_read_ptx_sreg_ctaid_x();
  int by = __nvvm_read_ptx_sreg_ctaid_y();
  int gx = __nvvm_read_ptx_sreg_nctaid_x();
  s[tid] = 1.0f;
  __syncthreads();
  out[(by * gx + bx) * n + tid] = s[tid];
}
)";

struct Walks {
  std::unique_ptr<ASTUnit> AST;
  KernelTrace A, B;
};

Walks walkTwice() {
  Walks W;
  test::ParsedKernel P = test::parseKernel(Kernel);
  if (!P)
    return W;
  W.A = P.trace(256);
  // The second walk runs on another thread's stack: a key must not depend
  // on where a walk keeps its state (blockIdx's used to be the address of
  // the walk's own symbol table, which two walks from the same stack frame
  // happen to share).
  std::thread Other([&] { W.B = P.trace(256); });
  Other.join();
  W.AST = std::move(P.AST); // The traces point into it.
  return W;
}

TEST(KernelTraceTest, UnknownsKeepTheirKeyAcrossWalks) {
  Walks W = walkTwice();
  ASSERT_GT(W.A.Symbols.size(), 0u);
  std::set<std::string> Names;
  for (SymbolId S = 0; S < W.A.Symbols.size(); ++S) {
    const SymbolInfo &I = W.A.Symbols.info(S);
    Names.insert(I.Name);
    std::optional<SymbolId> Other = W.B.Symbols.find(I.key());
    ASSERT_TRUE(Other) << "'" << I.Name << "' has no counterpart";
    EXPECT_EQ(W.B.Symbols.info(*Other).Name, I.Name);
  }
  // The unknowns the kernel is written in, and blockIdx's products.
  EXPECT_TRUE(Names.count("blockIdx.x"));
  EXPECT_TRUE(Names.count("blockIdx.y"));
  EXPECT_TRUE(Names.count("gridDim.x"));
  EXPECT_TRUE(Names.count("n"));
  // So a global access's offset is the same value in both walks.
  ASSERT_EQ(W.A.GlobalAccesses.size(), W.B.GlobalAccesses.size());
  ASSERT_FALSE(W.A.GlobalAccesses.empty());
  EXPECT_EQ(W.A.GlobalAccesses[0].Offset, W.B.GlobalAccesses[0].Offset);
}

TEST(KernelTraceTest, DistinctUnknownsHaveDistinctKeys) {
  Walks W = walkTwice();
  std::set<SymbolKey> Keys;
  for (SymbolId S = 0; S < W.A.Symbols.size(); ++S) {
    const SymbolInfo &I = W.A.Symbols.info(S);
    EXPECT_TRUE(Keys.insert(I.key()).second)
        << "'" << I.Name << "' shares its key";
  }
  // An unknown the walk never made is not found.
  EXPECT_FALSE(W.A.Symbols.find(&W, 0));
}

} // namespace

// Unknowns are told apart by what they are made from, never by a hash: the
// values of two variables after one join (the same statement, two VarDecls)
// are two unknowns however many variables the join has.
TEST(KernelTraceTest, VariablesJoinedAtOneStatementAreDistinct) {
  std::string Code = "__global__ void k(int c) {\n"
                     "  __shared__ int s[4096];\n";
  const unsigned Vars = 300;
  for (unsigned I = 0; I < Vars; ++I)
    Code += "  int v" + std::to_string(I) + ";\n";
  std::string Then, Else;
  for (unsigned I = 0; I < Vars; ++I) {
    Then += " v" + std::to_string(I) + " = c * " + std::to_string(I) + ";";
    Else += " v" + std::to_string(I) + " = c + " + std::to_string(I) + ";";
  }
  Code += "  if (c) {" + Then + " } else {" + Else + " }\n";
  for (unsigned I = 0; I < Vars; ++I)
    Code += "  s[v" + std::to_string(I) + "] = 0;\n";
  Code += "}\n";
  test::ParsedKernel P = test::traceLastKernel(Code, 32);
  ASSERT_TRUE(P);
  const KernelTrace &T = P.T;
  ASSERT_EQ(T.Accesses.size(), Vars);
  std::set<SymbolId> Seen;
  for (const SharedAccess &A : T.Accesses) {
    std::vector<SymbolId> S = A.Address.Offset.symbols();
    ASSERT_EQ(S.size(), 1u);
    EXPECT_TRUE(Seen.insert(S[0]).second)
        << "two variables share the unknown '" << T.Symbols.info(S[0]).Name
        << "'";
  }
  // And the table keeps one key per unknown.
  SymbolTable Table;
  int A = 0, B = 0;
  SymbolId X = Table.get(SymbolKey{&Table, &A, 0}, SymbolInfo::Opaque, "a");
  SymbolId Y = Table.get(SymbolKey{&Table, &B, 0}, SymbolInfo::Opaque, "b");
  EXPECT_NE(X, Y);
  EXPECT_EQ(Table.get(SymbolKey{&Table, &A, 0}, SymbolInfo::Opaque, "a"), X);
}

// Where the active threads are not known exactly (under a data-dependent
// condition inside a thread-dependent one), an assignment joins the new
// value with the old one into an unknown made at that assignment: two
// assignments of different values are two unknowns, not one per variable.
TEST(KernelTraceTest, AssignmentsUnderApproximateMasksAreDistinct) {
  test::ParsedKernel P = test::traceLastKernel(R"(
__global__ void k(const int *in, int p, int q) {
  __shared__ int s[4096];
  int v = 0;
  if (__nvvm_read_ptx_sreg_tid_x() < 16)
    if (in[__nvvm_read_ptx_sreg_tid_x()] > 0) {
      v = p;
      s[v] = 1;
      v = q;
      s[v] = 2;
    }
}
)",
                                               32);
  ASSERT_TRUE(P);
  const KernelTrace &T = P.T;
  ASSERT_EQ(T.Accesses.size(), 2u);
  const LaneValue &A = T.Accesses[0].Address.Offset,
                  &B = T.Accesses[1].Address.Offset;
  EXPECT_FALSE(A == B) << "two assignments share one unknown";
  ASSERT_TRUE(T.Accesses[0].ActiveApprox);
}

// The walk records the optional facts it is asked for (AnalysisOptions::
// Facts, which runChecks derives from the enabled checks) and no others:
// the walker itself names no check.
TEST(KernelTraceTest, RecordsTheTileFactsItIsAskedFor) {
  test::ParsedKernel P = test::parseKernel(R"(
__global__ void k() {
  __shared__ float t[32][32];
  __shared__ float f[1024];
  int tid = __nvvm_read_ptx_sreg_tid_x();
  t[tid][(tid + 1) % 32] = 1.0f;
  f[tid * 32 + 5] = 2.0f;
}
)");
  ASSERT_TRUE(P);
  auto Walk = [&](bool Rows, bool Formulas) {
    AnalysisOptions Opts;
    Opts.Facts.TileRows = Rows;
    Opts.Facts.TileFormulas = Formulas;
    KernelTrace T = P.trace(32, Opts);
    EXPECT_EQ(T.Accesses.size(), 2u);
    return T;
  };
  // Everything: both tiles described, with their formulas.
  KernelTrace All = Walk(true, true);
  ASSERT_EQ(All.Accesses.size(), 2u);
  EXPECT_TRUE(All.Accesses[0].Tile.Valid);
  EXPECT_TRUE(All.Accesses[0].Tile.TwoD);
  EXPECT_EQ(All.Accesses[0].Tile.Pitch, 32);
  EXPECT_TRUE(All.Accesses[0].Tile.HasColTerms);
  EXPECT_FALSE(All.Accesses[0].Tile.Text.empty());
  EXPECT_TRUE(All.Accesses[1].Tile.Valid);
  EXPECT_EQ(All.Accesses[1].Tile.Pitch, 32);
  // Rows only: the 2-D tile's row, column and pitch, no formulas, and no
  // flattened tile.
  KernelTrace Rows = Walk(true, false);
  ASSERT_EQ(Rows.Accesses.size(), 2u);
  EXPECT_TRUE(Rows.Accesses[0].Tile.Valid);
  EXPECT_EQ(Rows.Accesses[0].Tile.Pitch, 32);
  EXPECT_FALSE(Rows.Accesses[0].Tile.HasColTerms);
  EXPECT_TRUE(Rows.Accesses[0].Tile.Text.empty());
  EXPECT_FALSE(Rows.Accesses[1].Tile.Valid);
  // Nothing asked: no tile described.
  KernelTrace None = Walk(false, false);
  ASSERT_EQ(None.Accesses.size(), 2u);
  EXPECT_FALSE(None.Accesses[0].Tile.Valid);
  EXPECT_FALSE(None.Accesses[1].Tile.Valid);
}

// A call that is no builtin goes straight to its callee after its first
// evaluation (KernelWalker::PlainCalls); one that is a collective with a
// body of its own is recorded at every evaluation, and a helper's accesses
// are recorded at every call.
TEST(KernelTraceTest, RepeatedCallsRecordEveryTime) {
  test::ParsedKernel P = test::traceLastKernel(R"(
__device__ int __shfl_xor_sync(unsigned mask, int v, int lane, int w = 32) {
  return v;
}
__device__ void put(float *s, int i) { s[i] = 1.0f; }
__global__ void k(int *out) {
  __shared__ float s[256];
  int v = __nvvm_read_ptx_sreg_tid_x();
  for (int i = 0; i < 4; ++i) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    put(s, __nvvm_read_ptx_sreg_tid_x() + 32 * i);
  }
  out[0] = v;
}
)",
                                               64);
  ASSERT_TRUE(P);
  EXPECT_EQ(P.T.Collectives.size(), 4u);
  ASSERT_EQ(P.T.Accesses.size(), 4u);
  // Each iteration's store where that iteration puts it: thread 0 at
  // words 0, 32, 64, 96.
  for (unsigned I = 0; I < 4; ++I)
    EXPECT_EQ(P.T.Accesses[I].Address.Offset.evaluate(0), int64_t(128 * I));
}
