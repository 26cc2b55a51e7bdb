//===- CoalescingModelTest.cpp - Replay the measured global sectors -------===//
//
// Replays every row of test/calibration/h200-global-sectors.tsv (one
// single-load kernel each, measured with Nsight Compute on an H200; see
// test/calibration/README.md) through the CoalescingModel and expects the
// exact measured sectors and requests; replays the same patterns measured as
// stores (h200-global-transfers.tsv, bench/gpu/transfer); then checks the
// ideal and a few cases the tables do not hold (masks, unaligned wide lanes).
//
// The directory comes from the compile definition SHMEM_LINT_CALIBRATION_DIR;
// the environment variable of the same name overrides it at run time.
//
//===----------------------------------------------------------------------===//

#include "CoalescingModel.h"

#include "CalibrationTable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace shmem;
using namespace shmem::calibration;

namespace {

struct Row {
  unsigned Line = 0;
  std::string Name, Type, Sass;
  unsigned Width = 0;
  std::vector<std::optional<int64_t>> Offsets;
  long Sectors = -1, Requests = -1, Instructions = -1;
};

std::vector<Row> readTable(const std::string &Path, std::string &Error) {
  std::vector<Row> Rows;
  forEachRow(
      Path, {"name", "width_bytes", "offsets", "sectors", "requests"},
      [&](unsigned LineNo, const CellGetter &Get) {
        Row R;
        R.Line = LineNo;
        R.Name = Get("name");
        R.Type = Get("type");
        R.Sass = Get("sass");
        R.Width = unsigned(number(Get("width_bytes")));
        R.Sectors = number(Get("sectors"));
        R.Requests = number(Get("requests"));
        R.Instructions = number(Get("instructions"));
        R.Offsets = offsets(Get("offsets"));
        Rows.push_back(std::move(R));
      },
      Error);
  return Rows;
}

const std::vector<Row> &rows() {
  static std::string Error;
  static std::vector<Row> Rows =
      readTable(calibrationDir() + "/h200-global-sectors.tsv", Error);
  if (!Error.empty())
    ADD_FAILURE() << Error;
  return Rows;
}

std::vector<std::optional<int64_t>> stride(int64_t Bytes, int64_t Start = 0,
                                           unsigned Lanes = 32) {
  std::vector<std::optional<int64_t>> A(32);
  for (unsigned L = 0; L < Lanes; ++L)
    A[L] = Start + int64_t(L) * Bytes;
  return A;
}

TEST(CoalescingModelCalibration, TableIsComplete) {
  const std::vector<Row> &Rs = rows();
  EXPECT_EQ(Rs.size(), 19u);
  std::map<unsigned, unsigned> Widths;
  for (const Row &R : Rs) {
    SCOPED_TRACE(R.Name);
    EXPECT_EQ(R.Offsets.size(), 32u) << R.Name << " (line " << R.Line << ")";
    EXPECT_GE(R.Sectors, 0) << R.Name << ": no measurement";
    // One warp, one LDG: anything else means the compiler split or merged
    // the load and the row cannot be replayed.
    EXPECT_EQ(R.Instructions, 1) << R.Name << ": SASS " << R.Sass;
    EXPECT_EQ(R.Sass.rfind("LDG", 0), 0u) << R.Name << ": SASS " << R.Sass;
    ++Widths[R.Width];
  }
  for (unsigned W : {1u, 2u, 4u, 8u, 16u})
    EXPECT_GT(Widths[W], 0u) << "no row of width " << W;
}

TEST(CoalescingModelCalibration, EveryRowMatchesExactly) {
  CoalescingModel Model;
  unsigned Checked = 0, Mismatched = 0;
  for (const Row &R : rows()) {
    if (R.Sectors < 0 || R.Offsets.size() != 32)
      continue;
    CoalescingResult Res = Model.analyze(R.Offsets, R.Width, AccessOp::Load);
    ++Checked;
    bool Bad = long(Res.Sectors) != R.Sectors ||
               (R.Requests >= 0 && long(Res.Requests) != R.Requests);
    Mismatched += Bad;
    EXPECT_EQ(long(Res.Sectors), R.Sectors)
        << "row " << R.Name << " (line " << R.Line << ", " << R.Sass
        << "): model " << Res.Sectors << " sectors, measured " << R.Sectors;
    if (R.Requests >= 0)
      EXPECT_EQ(long(Res.Requests), R.Requests)
          << "row " << R.Name << " (line " << R.Line << ")";
  }
  EXPECT_EQ(Checked, 19u);
  EXPECT_EQ(Mismatched, 0u)
      << Mismatched << " of " << Checked << " rows mismatched";
}

// The ideal of every measured row: what the same bytes need when packed.
TEST(CoalescingModelCalibration, IdealPerRow) {
  const std::map<std::string, unsigned> Ideal = {
      {"f32_stride1", 4},   {"f32_stride2", 4},       {"f32_stride4", 4},
      {"f32_stride8", 4},   {"f32_stride32", 4},      {"f32_stride33", 4},
      {"f32_broadcast", 1}, {"f32_stride1_offset1", 4}, {"f32_reverse", 4},
      {"f32_transposed_4x8", 4}, {"f32_block8x4_pitch1024", 4},
      {"f2_stride1", 8},    {"f2_stride2", 8},        {"f2_stride32", 8},
      {"f4_stride1", 16},   {"f4_stride2", 16},       {"f4_stride32", 16},
      {"u8_stride1", 1},    {"u16_stride1", 2}};
  CoalescingModel Model;
  unsigned Seen = 0;
  for (const Row &R : rows()) {
    auto It = Ideal.find(R.Name);
    if (It == Ideal.end())
      continue;
    ++Seen;
    CoalescingResult Res = Model.analyze(R.Offsets, R.Width);
    EXPECT_EQ(Res.IdealSectors, It->second) << R.Name;
  }
  EXPECT_EQ(Seen, Ideal.size());
}

// test/calibration/h200-global-transfers.tsv (bench/gpu/transfer): the 19
// lane patterns again, as warp-wide stores, and tile kernels of whole blocks
// measured per kernel.
struct TransferRow {
  std::string Name, Op;
  unsigned Width = 0;
  std::vector<std::optional<int64_t>> Offsets;
  long ModelSectors = -1, ModelRequests = -1, Sectors = -1, Requests = -1;
};

std::vector<TransferRow> transferRows() {
  std::vector<TransferRow> Rows;
  std::string Error;
  forEachRow(
      calibrationDir() + "/h200-global-transfers.tsv", {},
      [&](unsigned, const CellGetter &Get) {
        TransferRow R;
        R.Name = Get("name");
        R.Op = Get("op");
        R.Width = unsigned(number(Get("width_bytes")));
        R.ModelSectors = number(Get("model_sectors"));
        R.ModelRequests = number(Get("model_requests"));
        R.Sectors = number(Get("sectors"));
        R.Requests = number(Get("requests"));
        if (R.Name.rfind("st_", 0) == 0 && Get("block") == "32x1")
          for (const std::string &O : split(Get("offsets_or_expr"), ','))
            R.Offsets.push_back(std::stoll(O));
        Rows.push_back(std::move(R));
      },
      Error);
  if (!Error.empty())
    ADD_FAILURE() << Error;
  return Rows;
}

TEST(CoalescingModelCalibration, StoresFollowTheLoadRule) {
  CoalescingModel Model;
  unsigned Checked = 0;
  for (const TransferRow &R : transferRows()) {
    if (R.Offsets.size() != 32)
      continue;
    ++Checked;
    CoalescingResult Res = Model.analyze(R.Offsets, R.Width, AccessOp::Store);
    EXPECT_EQ(long(Res.Sectors), R.Sectors) << R.Name;
    EXPECT_EQ(long(Res.Requests), R.Requests) << R.Name;
  }
  EXPECT_EQ(Checked, 19u);
}

TEST(CoalescingModelCalibration, TileKernelsAgree) {
  // Whole-block kernels: the generator's per-warp model sums against ncu's
  // per-kernel counters.
  unsigned Checked = 0;
  for (const TransferRow &R : transferRows()) {
    if (!R.Offsets.empty())
      continue;
    ++Checked;
    EXPECT_EQ(R.Sectors, R.ModelSectors) << R.Name;
    EXPECT_EQ(R.Requests, R.ModelRequests) << R.Name;
  }
  EXPECT_GE(Checked, 15u);
}

TEST(CoalescingModel, Degrees) {
  CoalescingModel M;
  EXPECT_EQ(M.analyze(stride(4), 4).degree(), 1u);
  EXPECT_EQ(M.analyze(stride(8), 4).degree(), 2u);
  EXPECT_EQ(M.analyze(stride(128), 4).degree(), 8u);
  // Misaligned by one float: 5 sectors for 4, degree 2 rounded up but a
  // ratio of 1.25.
  CoalescingResult Off = M.analyze(stride(4, 4), 4);
  EXPECT_EQ(Off.Sectors, 5u);
  EXPECT_DOUBLE_EQ(Off.ratio(), 1.25);
}

TEST(CoalescingModel, InactiveLanes) {
  CoalescingModel M;
  std::vector<std::optional<int64_t>> None(32);
  CoalescingResult R = M.analyze(None, 4);
  EXPECT_EQ(R.Requests, 0u);
  EXPECT_EQ(R.Sectors, 0u);
  EXPECT_EQ(R.IdealSectors, 0u);
  // Half a warp, stride 1: 2 sectors, ideal 2.
  R = M.analyze(stride(4, 0, 16), 4);
  EXPECT_EQ(R.ActiveLanes, 16u);
  EXPECT_EQ(R.Sectors, 2u);
  EXPECT_EQ(R.IdealSectors, 2u);
  // Half a warp, column of a 32-float-pitch array: 16 sectors for 2.
  R = M.analyze(stride(128, 0, 16), 4);
  EXPECT_EQ(R.Sectors, 16u);
  EXPECT_EQ(R.IdealSectors, 2u);
}

TEST(CoalescingModel, LanesStraddlingSectors) {
  CoalescingModel M;
  // A 16-byte lane at byte 24 covers two sectors.
  std::vector<std::optional<int64_t>> A(32);
  A[0] = 24;
  CoalescingResult R = M.analyze(A, 16);
  EXPECT_EQ(R.Sectors, 2u);
  EXPECT_EQ(R.IdealSectors, 1u);
  // Overlapping lanes count their bytes once.
  A[1] = 32;
  R = M.analyze(A, 16);
  EXPECT_EQ(R.DistinctBytes, 24u);
  EXPECT_EQ(R.Sectors, 2u);
  // Negative offsets (below the base) floor correctly.
  EXPECT_EQ(M.sectorOf(-1), -1);
  EXPECT_EQ(M.sectorOf(-32), -1);
  EXPECT_EQ(M.sectorOf(-33), -2);
}

// Lanes in any order, straddling sectors, overlapping, below the base:
// the sector list is the distinct sectors ascending, and count() agrees
// with analyze() on every number. Compared with a direct enumeration.
TEST(CoalescingModel, SectorListAndCountAgree) {
  CoalescingModel M;
  uint64_t Seed = 12345;
  auto Next = [&](int64_t Mod) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return int64_t((Seed >> 33) % uint64_t(Mod));
  };
  for (unsigned Iter = 0; Iter < 500; ++Iter) {
    unsigned Width = 1u << Next(5); // 1 to 16 bytes.
    std::vector<std::optional<int64_t>> A(32);
    std::vector<int64_t> Expected;
    for (auto &Lane : A) {
      if (Next(4) == 0)
        continue; // Inactive.
      Lane = Next(512) - 128;
      for (int64_t B = *Lane; B < *Lane + int64_t(Width); ++B)
        Expected.push_back(M.sectorOf(B));
    }
    std::sort(Expected.begin(), Expected.end());
    Expected.erase(std::unique(Expected.begin(), Expected.end()),
                   Expected.end());
    CoalescingResult R = M.analyze(A, Width);
    EXPECT_EQ(R.SectorList, Expected) << "iteration " << Iter;
    EXPECT_EQ(R.Sectors, Expected.size());
    CoalescingResult C = M.count(A, Width);
    EXPECT_TRUE(C.SectorList.empty());
    EXPECT_EQ(C.Sectors, R.Sectors);
    EXPECT_EQ(C.ActiveLanes, R.ActiveLanes);
    EXPECT_EQ(C.Requests, R.Requests);
    EXPECT_EQ(C.IdealSectors, R.IdealSectors);
    EXPECT_EQ(C.DistinctBytes, R.DistinctBytes);
  }
}

// compute() takes shortcuts by lane order (lanes in ascending address order
// are not sorted, lanes in descending order are reversed) and by sector size
// (a shift for a power of two): every order and size is compared with a
// direct enumeration of the bytes, on one model per size so that scratch
// left by one warp would show in the next.
TEST(CoalescingModel, EveryLaneOrderMatchesEnumeration) {
  uint64_t Seed = 777;
  auto Next = [&](int64_t Mod) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return int64_t((Seed >> 33) % uint64_t(Mod));
  };
  for (unsigned SectorBytes : {32u, 24u, 1u}) {
    CoalescingModel M(SectorBytes);
    unsigned Reversed = 0, Unsorted = 0;
    for (unsigned Iter = 0; Iter < 3000; ++Iter) {
      unsigned Width = 1u << Next(5);
      int64_t Base = Next(2) ? 0 : (Next(1 << 20) - (1 << 19)) << 20;
      int64_t Stride = Next(3) ? (Next(5) - 2) * int64_t(Width) : 0;
      // Strided lanes (ascending, descending or one address), scattered
      // lanes, or strided with some scattered.
      int64_t Mode = Next(3);
      std::vector<std::optional<int64_t>> A(Next(8) ? 32 : Next(40));
      for (size_t L = 0; L < A.size(); ++L)
        if (Next(5)) {
          bool Strided = Mode == 0 || (Mode == 2 && Next(4));
          A[L] = Base + (Strided ? int64_t(L) * Stride : Next(512) - 256);
        }
      std::vector<int64_t> Active;
      for (const auto &Lane : A)
        if (Lane)
          Active.push_back(*Lane);
      if (!std::is_sorted(Active.begin(), Active.end()))
        ++(std::is_sorted(Active.rbegin(), Active.rend()) ? Reversed
                                                          : Unsorted);
      std::set<int64_t> Bytes, Sectors;
      for (int64_t Start : Active)
        for (int64_t B = Start; B < Start + int64_t(Width); ++B) {
          Bytes.insert(B);
          Sectors.insert(M.sectorOf(B));
        }
      std::string Where = "sector " + std::to_string(SectorBytes) +
                          ", iteration " + std::to_string(Iter);
      CoalescingResult R = M.analyze(A, Width);
      EXPECT_EQ(R.ActiveLanes, Active.size()) << Where;
      EXPECT_EQ(R.Requests, Active.empty() ? 0u : 1u) << Where;
      EXPECT_EQ(R.DistinctBytes, Bytes.size()) << Where;
      EXPECT_EQ(R.Sectors, Sectors.size()) << Where;
      EXPECT_EQ(R.SectorList,
                std::vector<int64_t>(Sectors.begin(), Sectors.end()))
          << Where;
      EXPECT_EQ(R.IdealSectors, (Bytes.size() + SectorBytes - 1) / SectorBytes)
          << Where;
      CoalescingResult C = M.count(A, Width);
      EXPECT_EQ(C.Sectors, R.Sectors) << Where;
      EXPECT_EQ(C.DistinctBytes, R.DistinctBytes) << Where;
      EXPECT_EQ(C.IdealSectors, R.IdealSectors) << Where;
    }
    // The draw reaches both shortcuts' other side.
    EXPECT_GT(Reversed, 100u);
    EXPECT_GT(Unsorted, 100u);
  }
}

} // namespace
