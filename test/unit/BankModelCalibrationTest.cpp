//===- BankModelCalibrationTest.cpp - Replay the measured wavefronts ------===//
//
// Replays every row of test/calibration/h200-shared-wavefronts.tsv (one
// single-access kernel each, measured with Nsight Compute on an H200; see
// test/calibration/README.md) through the BankModel and expects the exact
// measured wavefront count, and ncu's bank-conflict count where the table
// has it.
//
// The directory comes from the compile definition SHMEM_LINT_CALIBRATION_DIR;
// the environment variable of the same name overrides it at run time.
//
//===----------------------------------------------------------------------===//

#include "BankModel.h"

#include "CalibrationTable.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace shmem;
using namespace shmem::calibration;

namespace {

struct Row {
  unsigned Line = 0;
  std::string Name, Op, Sass;
  unsigned Width = 0;
  std::vector<std::optional<int64_t>> Offsets;
  long Wavefronts = -1, Instructions = -1, Conflicts = -1;
};

/// Parses the table; on a malformed file returns what it could and sets
/// \p Error.
std::vector<Row> readTable(const std::string &Path, std::string &Error) {
  std::vector<Row> Rows;
  forEachRow(
      Path,
      {"name", "op", "width_bytes", "offsets", "wavefronts", "instructions"},
      [&](unsigned LineNo, const CellGetter &Get) {
        Row R;
        R.Line = LineNo;
        R.Name = Get("name");
        R.Op = Get("op");
        R.Sass = Get("sass");
        R.Width = unsigned(number(Get("width_bytes")));
        R.Wavefronts = number(Get("wavefronts"));
        R.Instructions = number(Get("instructions"));
        R.Conflicts = number(Get("bank_conflicts"));
        R.Offsets = offsets(Get("offsets"));
        Rows.push_back(std::move(R));
      },
      Error);
  return Rows;
}

const std::vector<Row> &rows() {
  static std::string Error;
  static std::vector<Row> Rows =
      readTable(calibrationDir() + "/h200-shared-wavefronts.tsv", Error);
  if (!Error.empty())
    ADD_FAILURE() << Error;
  return Rows;
}

TEST(BankModelCalibration, TableIsComplete) {
  const std::vector<Row> &Rs = rows();
  EXPECT_GE(Rs.size(), 100u);
  unsigned Loads = 0, Stores = 0;
  std::map<unsigned, unsigned> Widths;
  for (const Row &R : Rs) {
    SCOPED_TRACE(R.Name);
    EXPECT_EQ(R.Offsets.size(), 32u) << R.Name << " (line " << R.Line << ")";
    EXPECT_TRUE(R.Op == "ld" || R.Op == "st") << R.Name;
    EXPECT_GE(R.Wavefronts, 0) << R.Name << ": no measurement";
    // One warp, one shared-memory instruction (none executed when no lane
    // is active: the warp branches around it). Anything else means the
    // compiler split or merged the access and the row cannot be replayed.
    bool AnyActive = false;
    for (const auto &O : R.Offsets)
      AnyActive |= O.has_value();
    EXPECT_EQ(R.Instructions, AnyActive ? 1 : 0)
        << R.Name << ": SASS " << R.Sass;
    EXPECT_TRUE(R.Sass.rfind(R.Op == "ld" ? "LDS" : "STS", 0) == 0 &&
                R.Sass.find('+') == std::string::npos)
        << R.Name << ": SASS " << R.Sass;
    Loads += R.Op == "ld";
    Stores += R.Op == "st";
    ++Widths[R.Width];
  }
  EXPECT_GT(Loads, 0u);
  EXPECT_GT(Stores, 0u);
  for (unsigned W : {1u, 2u, 4u, 8u, 16u})
    EXPECT_GT(Widths[W], 0u) << "no row of width " << W;
}

TEST(BankModelCalibration, EveryRowMatchesExactly) {
  BankModel Model;
  unsigned Checked = 0, Mismatched = 0;
  for (const Row &R : rows()) {
    if (R.Wavefronts < 0 || R.Offsets.size() != 32)
      continue;
    AccessOp Op = R.Op == "st" ? AccessOp::Store : AccessOp::Load;
    BankResult Res = Model.analyze(R.Offsets, R.Width, Op);
    ++Checked;
    bool Bad = long(Res.Wavefronts) != R.Wavefronts ||
               (R.Conflicts >= 0 && long(Res.BankConflicts) != R.Conflicts);
    Mismatched += Bad;
    EXPECT_EQ(long(Res.Wavefronts), R.Wavefronts)
        << "row " << R.Name << " (line " << R.Line << ", " << R.Sass
        << "): model " << Res.Wavefronts << " wavefronts, measured "
        << R.Wavefronts << " (phases of " << Res.PhaseLanes << " lanes"
        << (Res.PairsFolded ? ", pairs folded" : "") << ")";
    if (R.Conflicts >= 0) {
      EXPECT_EQ(long(Res.BankConflicts), R.Conflicts)
          << "row " << R.Name << " (line " << R.Line
          << "): model bank conflicts " << Res.BankConflicts << ", ncu "
          << R.Conflicts;
    }
  }
  EXPECT_GE(Checked, 100u);
  EXPECT_EQ(Mismatched, 0u)
      << Mismatched << " of " << Checked << " rows mismatched";
}

} // namespace
