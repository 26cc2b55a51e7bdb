//===- UncoalescedTransferTest.cpp - Global-side what-ifs, fast and slow -===//
//
// analyzeTransfer and Reassignment evaluate offsets from per-thread arrays
// read off the compact Lanes forms once, and Reassignment prices a warp
// pattern once however many warps repeat it shifted. These tests hold them
// to the straightforward computation they replace: LaneValue::evaluate per
// thread with the bindings in a std::map, every warp priced by the models.
//
//===----------------------------------------------------------------------===//

#include "Checks/Checks.h"

#include "BankModel.h"
#include "CoalescingModel.h"

#include "TraceCuda.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace clang;
using namespace shmem;

namespace {

// Transfers of several shapes: a transpose through a tile (padded and
// not), a column read with a runtime pitch, a read thinned out by a branch,
// 8- and 1-byte elements, a tile read at a stride of two words, and rows
// that start at different offsets within a sector.
const char *const Kernels[] = {
    R"(
__global__ void k(float *out, const float *in, int width, int height) {
  __shared__ float tile[32][32];
  int tx = __nvvm_read_ptx_sreg_tid_x(), ty = __nvvm_read_ptx_sreg_tid_y();
  int x = __nvvm_read_ptx_sreg_ctaid_x() * 32 + tx;
  int y = __nvvm_read_ptx_sreg_ctaid_y() * 32 + ty;
  for (int j = 0; j < 32; j += 8)
    tile[ty + j][tx] = in[(y + j) * width + x];
  __syncthreads();
  x = __nvvm_read_ptx_sreg_ctaid_y() * 32 + tx;
  y = __nvvm_read_ptx_sreg_ctaid_x() * 32 + ty;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * height + x] = tile[tx][ty + j];
}
)",
    R"(
__global__ void k(float *out, const float *in, int n) {
  __shared__ float tile[32][33];
  int tx = __nvvm_read_ptx_sreg_tid_x(), ty = __nvvm_read_ptx_sreg_tid_y();
  for (int j = 0; j < 32; j += 8)
    tile[ty + j][tx] = in[(ty + j) * n + tx];
  __syncthreads();
  for (int j = 0; j < 32; j += 8)
    out[(ty + j) * n + tx] = tile[tx][ty + j];
}
)",
    R"(
__global__ void k(float *out, const float *in, int pitch) {
  __shared__ float tile[16][17];
  int tx = __nvvm_read_ptx_sreg_tid_x(), ty = __nvvm_read_ptx_sreg_tid_y();
  tile[ty][tx] = in[tx * pitch + ty];
  __syncthreads();
  out[ty * pitch + tx] = tile[tx][ty];
}
)",
    R"(
__global__ void k(double *out, const double *in, int n) {
  __shared__ double tile[256];
  int t = __nvvm_read_ptx_sreg_tid_x() + 32 * __nvvm_read_ptx_sreg_tid_y();
  if (t % 3 != 0)
    tile[t] = in[t * 2 + n];
  __syncthreads();
  out[t] = tile[(t * 7) % 256];
}
)",
    R"(
__global__ void k(char *out, const char *in, int n) {
  __shared__ char tile[64][64];
  int tx = __nvvm_read_ptx_sreg_tid_x(), ty = __nvvm_read_ptx_sreg_tid_y();
  tile[tx][ty] = in[ty * n + tx];
  __syncthreads();
  out[tx * n + ty] = tile[ty][2 * tx % 64];
}
)",
    R"(
__global__ void k(float *out, const float *in) {
  __shared__ float tile[8][33];
  int tx = __nvvm_read_ptx_sreg_tid_x(), ty = __nvvm_read_ptx_sreg_tid_y();
  tile[ty % 8][tx] = in[ty * 33 + tx + 1];
  __syncthreads();
  out[tx * 33 + ty] = tile[ty % 8][(tx * 3) % 33];
}
)",
};

const Dim3 Blocks[] = {{32, 8, 1}, {16, 16, 1}, {32, 4, 1}, {8, 8, 1}};

/// The computation Reassignment replaces, kept as it was.
struct Reference {
  bool Valid = false;
  CoalescingResult GlobalBefore, GlobalAfter;
  unsigned SharedAfter = 1;
};

SymbolBinding fullBinding(const LaneValue &Off, const std::vector<char> &Active,
                          const SymbolBinding &B) {
  SymbolBinding Out = B;
  unsigned K = 0;
  for (const auto &KV : Off.coefficients()) {
    if (Out.count(KV.first))
      continue;
    std::optional<int64_t> Seen;
    bool Varies = false;
    for (unsigned T = 0; T < KV.second.size(); ++T) {
      if (!Active[T])
        continue;
      if (Seen && *Seen != KV.second[T])
        Varies = true;
      Seen = KV.second[T];
    }
    Out[KV.first] = Varies ? 4096 * int64_t(1 + K++) : 0;
  }
  return Out;
}

Reference reference(const KernelTrace &T, const TransferGroup &Grp,
                    bool ByGlobal, const SymbolBinding &Binding) {
  Reference R;
  unsigned NInst = Grp.Global.size();
  std::vector<const GlobalAccess *> Gs;
  std::vector<const SharedAccess *> Ss;
  for (unsigned K = 0; K < NInst; ++K) {
    Gs.push_back(&T.GlobalAccesses[Grp.Global[K]]);
    Ss.push_back(&T.Accesses[Grp.Shared[K]]);
    if (!Gs.back()->Offset.isAffine() || !Ss.back()->Address.Offset.isAffine())
      return R;
  }
  const std::vector<char> &Active = Gs[0]->Active;
  std::vector<unsigned> Threads;
  for (unsigned Th = 0; Th < Active.size(); ++Th)
    if (Active[Th])
      Threads.push_back(Th);
  if (Threads.size() < 2)
    return R;
  struct Item {
    int64_t G, S;
    unsigned K, Th;
  };
  std::vector<Item> Items;
  for (unsigned K = 0; K < NInst; ++K) {
    SymbolBinding GB = fullBinding(Gs[K]->Offset, Active, Binding);
    SymbolBinding SB = fullBinding(Ss[K]->Address.Offset, Active, Binding);
    for (unsigned Th : Threads)
      Items.push_back({Gs[K]->Offset.evaluate(Th, GB),
                       Ss[K]->Address.Offset.evaluate(Th, SB), K, Th});
  }
  std::vector<Item> Moved = Items;
  std::sort(Moved.begin(), Moved.end(), [&](const Item &X, const Item &Y) {
    int64_t A = ByGlobal ? X.G : X.S, B = ByGlobal ? Y.G : Y.S;
    if (A != B)
      return A < B;
    return X.K != Y.K ? X.K < Y.K : X.Th < Y.Th;
  });
  const ThreadGeometry &Geo = T.Geometry;
  CoalescingModel CM;
  BankModel BM;
  AccessOp SOp =
      Ss[0]->Kind == AccessKind::Load ? AccessOp::Load : AccessOp::Store;
  auto Evaluate = [&](const std::vector<Item> &Order, CoalescingResult &GWorst,
                      unsigned &SWorst) {
    bool Have = false;
    SWorst = 1;
    std::vector<int> Slot(Active.size(), -1);
    for (unsigned I = 0; I < Threads.size(); ++I)
      Slot[Threads[I]] = int(I);
    for (unsigned K = 0; K < NInst; ++K)
      for (unsigned W = 0; W < Geo.warps(); ++W) {
        std::vector<std::optional<int64_t>> GA, SA;
        for (unsigned Th = Geo.warpBegin(W); Th < Geo.warpEnd(W); ++Th) {
          if (Th >= Slot.size() || Slot[Th] < 0) {
            GA.push_back(std::nullopt);
            SA.push_back(std::nullopt);
            continue;
          }
          const Item &It = Order[K * Threads.size() + unsigned(Slot[Th])];
          GA.push_back(It.G);
          SA.push_back(It.S);
        }
        CoalescingResult C = CM.analyze(GA, Gs[0]->Width);
        if (C.ActiveLanes >= 2 && (!Have || C.ratio() > GWorst.ratio())) {
          GWorst = C;
          Have = true;
        }
        BankResult B = BM.analyze(SA, Ss[0]->Width, SOp);
        if (B.ActiveLanes >= 1)
          SWorst = std::max(SWorst, B.degree());
      }
  };
  unsigned SharedBefore;
  Evaluate(Items, R.GlobalBefore, SharedBefore);
  Evaluate(Moved, R.GlobalAfter, R.SharedAfter);
  R.Valid = true;
  return R;
}

void expectSame(const CoalescingResult &A, const CoalescingResult &B) {
  EXPECT_EQ(A.ActiveLanes, B.ActiveLanes);
  EXPECT_EQ(A.Requests, B.Requests);
  EXPECT_EQ(A.Sectors, B.Sectors);
  EXPECT_EQ(A.IdealSectors, B.IdealSectors);
  EXPECT_EQ(A.DistinctBytes, B.DistinctBytes);
}

/// Calls \p Fn(context) for every kernel above in every block shape.
template <typename Fn> void forEachKernel(Fn &&Fn_) {
  for (const char *Code : Kernels) {
    test::ParsedKernel P = test::parseKernel(Code);
    ASSERT_TRUE(P);
    ASTContext &Ctx = P.ctx();
    const FunctionDecl *K = P.Kernel;
    AnalysisOptions Opts;
    ProgramCFGs Graphs(Ctx);
    for (const Dim3 &B : Blocks) {
      SCOPED_TRACE(std::string(Code) + " block " + std::to_string(B.X) + "x" +
                   std::to_string(B.Y));
      KernelTrace T = traceKernel(Ctx, K, ThreadGeometry(B), Opts);
      const KernelContext KC{Ctx, Opts, K, "k", T, Graphs};
      Fn_(KC);
    }
  }
}

/// Calls \p Fn(trace) for every kernel above in every block shape.
template <typename Fn> void forEachTrace(Fn &&Fn_) {
  forEachKernel([&](const KernelContext &KC) { Fn_(KC.Trace); });
}

TEST(UncoalescedTransferTest, ReassignmentMatchesPricingEveryWarp) {
  unsigned Compared = 0, Invalid = 0;
  forEachTrace([&](const KernelTrace &T) {
    for (unsigned SI = 0; SI < T.Accesses.size(); ++SI)
      for (unsigned GI : T.Accesses[SI].Global) {
        TransferGroup Grp = transferGroup(T, GI, SI);
        // No binding, and every unknown of the global offset at a large
        // value (the transpose advice's).
        SymbolBinding Large;
        int64_t Scale = 1;
        for (SymbolId S : T.GlobalAccesses[GI].Offset.symbols())
          Large[S] = 4096 * Scale++;
        for (const SymbolBinding &B : {SymbolBinding(), Large})
          for (bool ByGlobal : {false, true}) {
            Reference Want = reference(T, Grp, ByGlobal, B);
            Reassignment Got(T, Grp, ByGlobal, B);
            ASSERT_EQ(Got.valid(), Want.Valid);
            if (!Want.Valid) {
              ++Invalid;
              continue;
            }
            // Asked in the order globalSideNotes asks, then the rest.
            expectSame(Got.globalAfter(), Want.GlobalAfter);
            EXPECT_EQ(Got.sharedAfter(), Want.SharedAfter);
            expectSame(Got.globalBefore(), Want.GlobalBefore);
            ++Compared;
          }
      }
  });
  // The kernels exercise the comparison, not only the invalid path.
  EXPECT_GT(Compared, 100u);
  EXPECT_GT(Compared, Invalid);
}

// transposeApplies() answers, without the verdict's enumeration, whether
// transposeAdvice() would advise: the bank check asks for the verdict only
// where it says yes. With a verdict at hand the two must agree exactly;
// the kernels give both answers.
TEST(UncoalescedTransferTest, TransposeAppliesAgreesWithTheAdvice) {
  unsigned Advised = 0, NotAdvised = 0;
  forEachKernel([&](const KernelContext &KC) {
    const KernelTrace &T = KC.Trace;
    for (unsigned SI = 0; SI < T.Accesses.size(); ++SI)
      for (unsigned GI : T.Accesses[SI].Global) {
        const TransferVerdict &V = analyzeTransfer(KC, GI);
        bool Applies = transposeApplies(KC, GI, SI);
        if (!V.Valid) {
          EXPECT_FALSE(Applies);
          continue;
        }
        bool Advice = !transposeAdvice(KC, GI, SI, V).empty();
        EXPECT_EQ(Applies, Advice);
        (Advice ? Advised : NotAdvised)++;
      }
  });
  EXPECT_GT(Advised, 0u);
  EXPECT_GT(NotAdvised, 0u);
}

TEST(UncoalescedTransferTest, ShownWarpMatchesEvaluate) {
  unsigned Checked = 0;
  forEachTrace([&](const KernelTrace &T) {
    for (const GlobalAccess &A : T.GlobalAccesses) {
      TransferVerdict V = analyzeTransfer(A, T);
      if (!V.Valid)
        continue;
      // The shown warp's addresses: every active lane's offset under the
      // shown binding, the symbolic part relative to the first active
      // lane's.
      const ThreadGeometry &G = T.Geometry;
      unsigned Begin = G.warpBegin(V.Warp);
      unsigned End = std::min(G.warpEnd(V.Warp), A.Offset.size());
      ASSERT_EQ(V.Addr.size(), End - Begin);
      std::optional<unsigned> First;
      for (unsigned L = Begin; L < End; ++L)
        if (A.Active[L] && !First)
          First = L;
      ASSERT_TRUE(First);
      int64_t Shift = wrapSub(A.Offset.evaluate(*First, V.Binding),
                              A.Offset.constants()[*First]);
      for (unsigned L = Begin; L < End; ++L) {
        if (!A.Active[L]) {
          EXPECT_FALSE(V.Addr[L - Begin]);
          continue;
        }
        ASSERT_TRUE(V.Addr[L - Begin]);
        EXPECT_EQ(*V.Addr[L - Begin],
                  wrapSub(A.Offset.evaluate(L, V.Binding), Shift));
      }
      ++Checked;
    }
  });
  EXPECT_GT(Checked, 20u);
}

// Reassignment::price prices a warp pattern once per shift by whole sectors
// (global side) or whole words (tile side): the models must give the same
// counts for shifted copies, whatever the lanes, widths and gaps.
TEST(UncoalescedTransferTest, ModelsIgnoreShiftsByWholePeriods) {
  std::mt19937_64 Rng(7);
  CoalescingModel CM;
  BankModel BM;
  const int64_t GPeriod = CM.sectorBytes();
  const int64_t SPeriod = BM.bankBytes();
  for (int Round = 0; Round < 2000; ++Round) {
    unsigned Width = 1u << (Rng() % 5);
    int64_t Spread = int64_t(1) << (Rng() % 14);
    std::vector<std::optional<int64_t>> Addr(32);
    for (auto &A : Addr)
      if (Rng() % 5)
        A = int64_t(Rng() % uint64_t(Spread)) / Width * Width - Spread / 2;
    int64_t K = int64_t(Rng() % 2001) - 1000;
    std::vector<std::optional<int64_t>> GShift = Addr, SShift = Addr;
    for (auto &A : GShift)
      if (A)
        *A += K * GPeriod;
    for (auto &A : SShift)
      if (A)
        *A += K * SPeriod;
    expectSame(CM.count(GShift, Width), CM.count(Addr, Width));
    for (AccessOp Op : {AccessOp::Load, AccessOp::Store}) {
      BankResult Want = BM.analyze(Addr, Width, Op);
      BankResult Got = BM.analyze(SShift, Width, Op);
      EXPECT_EQ(Got.ActiveLanes, Want.ActiveLanes);
      EXPECT_EQ(Got.Wavefronts, Want.Wavefronts);
      EXPECT_EQ(Got.degree(), Want.degree());
    }
  }
}

} // namespace
