//===- NcuSourceReportTest.cpp - Nsight Compute's source page per line ----===//
//
// The reader of --ncu-report on the committed export of ncu 2025.3.1
// (test/lit/driver/Inputs/ncu, profiled on an H200) and on the variations
// of the layout other versions and options write.
//
//===----------------------------------------------------------------------===//

#include "NcuSourceReport.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <string>

using namespace shmem;

namespace {

std::string committed(llvm::StringRef Name) {
  std::string Path =
      std::string(SHMEM_LINT_DRIVER_INPUTS) + "/ncu/" + Name.str();
  auto B = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(bool(B)) << Path;
  return B ? (*B)->getBuffer().str() : std::string();
}

const char *const Source = "/work/main/test/lit/driver/Inputs/sass-widths.cu";

TEST(NcuSourceReportTest, TheCommittedExport) {
  std::string Error;
  std::optional<NcuSourceReport> R =
      parseNcuSourceCsv(committed("sass-widths.source.csv"), "x.csv", Error);
  ASSERT_TRUE(R) << Error;
  EXPECT_EQ(R->files(), std::vector<std::string>{Source});
  // Four blocks of one warp: the merged 16-byte store costs 4 wavefronts a
  // warp, its ideal; each instruction is listed twice and counted once.
  const NcuCounters *Store = R->at(Source, 14, NcuAccess::Store);
  ASSERT_TRUE(Store);
  EXPECT_EQ(Store->Wavefronts, 16);
  EXPECT_EQ(Store->Ideal, 16);
  EXPECT_EQ(Store->Executions, 4);
  EXPECT_EQ(Store->Opcodes, std::vector<std::string>{"STS.128"});
  EXPECT_FALSE(R->at(Source, 14, NcuAccess::Load)); // The LDGs are global.
  const NcuCounters *Load = R->at(Source, 19, NcuAccess::Load);
  ASSERT_TRUE(Load);
  EXPECT_EQ(Load->Wavefronts, 16);
  EXPECT_EQ(Load->Opcodes, std::vector<std::string>{"LDS.128"});
  // The column read of 'tile': 32 wavefronts a warp where 1 is ideal.
  const NcuCounters *Column = R->at(Source, 28, NcuAccess::Load);
  ASSERT_TRUE(Column);
  EXPECT_EQ(Column->Wavefronts, 128);
  EXPECT_EQ(Column->Ideal, 4);
  EXPECT_EQ(Column->Executions, 4);
  EXPECT_FALSE(R->at(Source, 20, NcuAccess::Store)); // Global only.
  EXPECT_EQ(R->lines(), 4u);
}

TEST(NcuSourceReportTest, SourceRowsAloneAndOtherSpellings) {
  // The cuda view with metrics (older ncu), metric names for labels, a
  // no-break space and commas grouping thousands, a K suffix, ncu's own
  // messages before the table, a BOM and CRLF line ends.
  std::string Error;
  std::optional<NcuSourceReport> R = parseNcuSourceCsv(
      "\xEF\xBB\xBF==PROF== Connected to process 42\r\n"
      "\"File Name\",\"/src/k.cu\"\r\n"
      "\"Line No\",\"Source\",\"inst_executed\",\"memory_l1_wavefronts_"
      "shared\",\"memory_l1_wavefronts_shared_ideal\"\r\n"
      "\"12\",\"  tile[i][0] = v;\",\"9,000\",\"4\xC2\xA0"
      "096\",\"128\"\r\n"
      "\"13\",\"  __syncthreads();\",\"12\",\"0\",\"0\"\r\n"
      "\"14\",\"  x = \"\"q\"\";\",\"12\",\"1.5 K\",\"-\"\r\n",
      "k.csv", Error);
  ASSERT_TRUE(R) << Error;
  const NcuCounters *C = R->at("/src/k.cu", 12, NcuAccess::LoadsAndStores);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Wavefronts, 4096);
  EXPECT_EQ(C->Ideal, 128);
  // Without SASS rows the executions are every instruction's: not kept.
  EXPECT_FALSE(C->Executions);
  EXPECT_FALSE(R->at("/src/k.cu", 12, NcuAccess::Load));
  EXPECT_FALSE(R->at("/src/k.cu", 13, NcuAccess::LoadsAndStores));
  const NcuCounters *K = R->at("/src/k.cu", 14, NcuAccess::LoadsAndStores);
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Wavefronts, 1500);
  EXPECT_FALSE(K->Ideal);
}

TEST(NcuSourceReportTest, SectionsAddUp) {
  // A header's line used by two kernels: both sections count. Atomics are
  // loads and stores together.
  std::string Error;
  const char *Section =
      "\"File Path\",\"/src/util.cuh\"\n"
      "\"Function Name\",\"%s\"\n"
      "\"Line No\",\"Source\",\"Address\",\"Source\",\"Instructions "
      "Executed\",\"L1 Wavefronts Shared\",\"L1 Wavefronts Shared Ideal\"\n"
      "\"7\",\"  s[i] += v;\",\"-\",\"-\",\"16\",\"24\",\"8\"\n"
      "\"\",\"\",\"0x10\",\"      @P0 ATOMS.ADD R1, [R2], R3\",\"8\",\"16\","
      "\"8\"\n"
      "\"\",\"\",\"0x20\",\"      LDS R4, [R2]\",\"8\",\"8\",\"0\"\n"
      "\"\",\"\",\"...\",\"...\",\"-\",\"-\",\"-\"\n"
      "\"\",\"\",\"0x10\",\"      @P0 ATOMS.ADD R1, [R2], R3\",\"8\",\"16\","
      "\"8\"\n";
  char A[1024], B[1024];
  snprintf(A, sizeof A, Section, "k1(float *)");
  snprintf(B, sizeof B, Section, "k2(float *)");
  std::optional<NcuSourceReport> R =
      parseNcuSourceCsv(std::string(A) + B, "two.csv", Error);
  ASSERT_TRUE(R) << Error;
  const NcuCounters *Atomic =
      R->at("/src/util.cuh", 7, NcuAccess::LoadsAndStores);
  ASSERT_TRUE(Atomic);
  EXPECT_EQ(Atomic->Wavefronts, 32);
  EXPECT_EQ(Atomic->Executions, 16);
  EXPECT_EQ(Atomic->Opcodes, std::vector<std::string>{"ATOMS.ADD"});
  const NcuCounters *Load = R->at("/src/util.cuh", 7, NcuAccess::Load);
  ASSERT_TRUE(Load);
  EXPECT_EQ(Load->Wavefronts, 16);
  EXPECT_EQ(Load->Ideal, 0);
}

TEST(NcuSourceReportTest, WhatIsNotTheSourcePage) {
  std::string Error;
  EXPECT_FALSE(parseNcuSourceCsv("", "empty.csv", Error));
  EXPECT_NE(Error.find("'empty.csv' is not Nsight Compute's source page"),
            std::string::npos)
      << Error;
  EXPECT_NE(Error.find("--print-source cuda,sass"), std::string::npos);

  // The SASS view: no line numbers.
  EXPECT_FALSE(
      parseNcuSourceCsv("\"Kernel Name\",\"k(float *)\",\n"
                        "\"Address\",\"Source\",\"L1 Wavefronts Shared\"\n"
                        "\"0x7f00\",\"LDS R1, [R2]\",\"128\"\n",
                        "sass.csv", Error));
  EXPECT_NE(Error.find("SASS view, which has no source lines"),
            std::string::npos)
      << Error;

  // Profiled without SourceCounters.
  EXPECT_FALSE(parseNcuSourceCsv(
      "\"File Path\",\"/src/k.cu\"\n"
      "\"Line No\",\"Source\",\"Address\",\"Source\",\"# Samples\"\n"
      "\"12\",\"x\",\"-\",\"-\",\"3\"\n",
      "nosc.csv", Error));
  EXPECT_NE(Error.find("no \"L1 Wavefronts Shared\" column"), std::string::npos)
      << Error;

  // A value that is no number: its row and column.
  EXPECT_FALSE(
      parseNcuSourceCsv("\"File Path\",\"/src/k.cu\"\n"
                        "\"Line No\",\"Source\",\"L1 Wavefronts Shared\"\n"
                        "\"12\",\"x\",\"12\"\n"
                        "\"13\",\"y\",\"lots\"\n",
                        "bad.csv", Error));
  EXPECT_EQ(Error, "row 4 of 'bad.csv': 'lots' in column \"L1 Wavefronts "
                   "Shared\" is not a number");
  EXPECT_FALSE(parseNcuSourceCsv("\"Line No\",\"Source\",\"L1 Wavefronts "
                                 "Shared\"\n\"twelve\",\"x\",\"12\"\n",
                                 "line.csv", Error));
  EXPECT_EQ(Error, "row 2 of 'line.csv': line number 'twelve' is not a "
                   "number");
}

TEST(NcuSourceReportTest, ExportCommand) {
  std::vector<std::string> Args = ncuExportArgs("r.ncu-rep");
  std::string Joined;
  for (const std::string &A : Args)
    Joined += " " + A;
  EXPECT_EQ(Joined, " --import r.ncu-rep --page source --csv --print-source "
                    "cuda,sass --print-units base");
}

} // namespace
