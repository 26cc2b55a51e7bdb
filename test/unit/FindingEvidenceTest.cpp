//===- FindingEvidenceTest.cpp - The compiler's and profiler's word -------===//
//
// What --sass and --ncu-report add to a bank-conflict finding: the emitted
// instructions and whether their width is the predicted one (with the warp
// re-costed when it is not), the measured wavefronts beside the predicted
// ones, and how files named by a listing or report are matched.
//
//===----------------------------------------------------------------------===//

#include "FindingEvidence.h"

#include "BankModel.h"

#include "gtest/gtest.h"

#include <string>

using namespace shmem;

namespace {

/// A finding at /src/k.cu:14 whose warp writes (or reads) \p Width bytes
/// a lane, lane L at word 4 * L: the unrolled `temp[tid * 4 + i]` as a
/// 4-byte access predicts it (4-way), or merged (16 bytes, conflict-free).
ReportedFinding unrolled(unsigned Width, bool Store) {
  std::vector<std::optional<int64_t>> Lanes(32);
  for (unsigned L = 0; L < 32; ++L)
    Lanes[L] = int64_t(L) * 16;
  BankModel Model;
  BankPicture P;
  P.Array = "temp";
  P.WidthBytes = Width;
  P.Store = Store;
  P.Original = makeLayoutPicture(Model, Lanes, Width,
                                 Store ? AccessOp::Store : AccessOp::Load);
  ReportedFinding F;
  F.Check = "shmem-bank-conflict";
  F.Loc = {"/src/k.cu", 14, 5};
  F.Message = "conflict";
  F.Picture = P;
  return F;
}

SharedListing ptx(llvm::StringRef Name, unsigned Width, unsigned Count = 1,
                  SharedOpKind Kind = SharedOpKind::Store) {
  SharedListing L(SharedListing::Form::Ptx);
  SharedInstruction I;
  I.Name = Name.str();
  I.Kind = Kind;
  I.WidthBytes = Width;
  I.Count = Count;
  L.add("/src/k.cu", 14, I);
  return L;
}

TEST(FindingEvidenceTest, TheWidthThePredictionAssumed) {
  std::vector<ReportedFinding> Fs = {unrolled(16, /*Store=*/true)};
  addCompiledEvidence(Fs, ptx("st.shared.v4.f32", 16), "sm_80", "/");
  ASSERT_TRUE(Fs[0].Compiled);
  EXPECT_FALSE(Fs[0].Compiled->WidthDiffers);
  EXPECT_EQ(evidenceNotes(Fs[0]),
            std::vector<std::string>{
                "nvcc emits 'st.shared.v4.f32' (16 bytes) at this line (PTX, "
                "sm_80), the width the prediction assumed"});
}

TEST(FindingEvidenceTest, MergedIntoWiderAccessesIsFlaggedAndRecosted) {
  std::vector<ReportedFinding> Fs = {unrolled(4, /*Store=*/true)};
  ASSERT_EQ(Fs[0].Picture->Original.Degree, 4u);
  addCompiledEvidence(Fs, ptx("st.shared.v4.f32", 16), "sm_80", "/");
  const CompiledEvidence &E = *Fs[0].Compiled;
  EXPECT_TRUE(E.WidthDiffers);
  EXPECT_EQ(E.EmittedWidth, 16u);
  ASSERT_TRUE(E.Recosted);
  EXPECT_EQ(E.Recosted->Wavefronts, 4u);
  EXPECT_EQ(E.Recosted->IdealWavefronts, 4u);
  EXPECT_EQ(compiledNote(E),
            "nvcc emits 'st.shared.v4.f32' (16 bytes) at this line (PTX, "
            "sm_80): the prediction assumed 4-byte stores; nvcc merged them "
            "into 16-byte ones: re-check the degree; at 16 bytes the same "
            "lanes need 4 wavefronts: conflict-free");
}

TEST(FindingEvidenceTest, NarrowerPtxIsNoVerdictNarrowerSassIs) {
  std::vector<ReportedFinding> Fs = {unrolled(16, /*Store=*/false)};
  SharedListing L = ptx("ld.shared.f32", 4, 4, SharedOpKind::Load);
  addCompiledEvidence(Fs, L, "sm_80", "/");
  EXPECT_FALSE(Fs[0].Compiled->WidthDiffers);
  EXPECT_TRUE(Fs[0].Compiled->PtxasMayMerge);
  EXPECT_EQ(compiledNote(*Fs[0].Compiled),
            "nvcc emits 4 x 'ld.shared.f32' (4 bytes) at this line (PTX, "
            "sm_80), narrower than the 16-byte loads the prediction "
            "assumed; ptxas may still merge them, which only the SASS shows "
            "(nvdisasm beside nvcc)");

  SharedListing S(SharedListing::Form::Sass);
  SharedInstruction I;
  I.Name = "LDS";
  I.Kind = SharedOpKind::Load;
  I.WidthBytes = 4;
  I.Count = 4;
  S.add("/src/k.cu", 14, I);
  std::vector<ReportedFinding> Gs = {unrolled(16, /*Store=*/false)};
  addCompiledEvidence(Gs, S, "sm_90", "/");
  const CompiledEvidence &E = *Gs[0].Compiled;
  EXPECT_TRUE(E.WidthDiffers);
  EXPECT_FALSE(E.PtxasMayMerge);
  ASSERT_TRUE(E.Recosted);
  EXPECT_EQ(E.Recosted->Degree, 4u);
  EXPECT_NE(compiledNote(E).find("nvcc split them into 4-byte ones"),
            std::string::npos);
}

TEST(FindingEvidenceTest, OnlyTheFindingsDirectionAndCheck) {
  // The line has a load and a store; a store finding hears of the store.
  SharedListing L = ptx("st.shared.f32", 4);
  SharedInstruction Load;
  Load.Name = "ld.shared.v2.f32";
  Load.Kind = SharedOpKind::Load;
  Load.WidthBytes = 8;
  L.add("/src/k.cu", 14, Load);
  std::vector<ReportedFinding> Fs = {unrolled(4, /*Store=*/true),
                                     unrolled(4, /*Store=*/true)};
  Fs[1].Check = "shmem-race";
  addCompiledEvidence(Fs, L, "sm_80", "/");
  ASSERT_TRUE(Fs[0].Compiled);
  ASSERT_EQ(Fs[0].Compiled->Instructions.size(), 1u);
  EXPECT_EQ(Fs[0].Compiled->Instructions[0].Name, "st.shared.f32");
  EXPECT_FALSE(Fs[1].Compiled);

  // No instruction of the finding's direction at its line.
  std::vector<ReportedFinding> Gs = {unrolled(4, /*Store=*/false)};
  addCompiledEvidence(Gs, ptx("st.shared.f32", 4), "sm_80", "/");
  EXPECT_TRUE(Gs[0].Compiled->Instructions.empty());
  EXPECT_FALSE(Gs[0].Compiled->WidthDiffers);
  EXPECT_EQ(compiledNote(*Gs[0].Compiled),
            "nvcc emits no shared-memory load at this line (PTX, sm_80): the "
            "access may have been moved to another line, kept in registers, "
            "or made through a generic pointer");
}

TEST(FindingEvidenceTest, MeasuredBesidePredicted) {
  NcuSourceReport R;
  NcuCounters C;
  C.Wavefronts = 16;
  C.Ideal = 16;
  C.Executions = 4;
  C.Opcodes = {"STS.128"};
  R.add("/elsewhere/src/k.cu", 14, NcuAccess::Store, C);
  std::vector<ReportedFinding> Fs = {unrolled(16, /*Store=*/true),
                                     unrolled(4, /*Store=*/true)};
  // Profiled in another checkout: matched by the trailing path.
  EXPECT_EQ(addMeasuredEvidence(Fs, R, "rep.csv", "/"), 2u);
  EXPECT_EQ(measuredNote(*Fs[0].Measured),
            "ncu measured 4 wavefronts per warp-wide store at this line where "
            "4 are ideal (16 wavefronts, 16 ideal, over 4 executions of "
            "STS.128; in 'rep.csv'); the prediction is 4 where 4 are ideal, "
            "which agrees");
  EXPECT_EQ(Fs[0].Measured->agrees(), true);
  // The 4-byte prediction says 4-way; the hardware served 16 bytes.
  EXPECT_EQ(Fs[1].Measured->agrees(), false);
  EXPECT_NE(measuredNote(*Fs[1].Measured)
                .find("the prediction is 4 where 1 is ideal, but ncu "
                      "measured no conflict"),
            std::string::npos);

  // A line the report has nothing at (edited since, or never run).
  std::vector<ReportedFinding> Gs = {unrolled(4, /*Store=*/false)};
  addMeasuredEvidence(Gs, R, "rep.csv", "/");
  EXPECT_FALSE(Gs[0].Measured->Found);
  EXPECT_EQ(measuredNote(*Gs[0].Measured),
            "ncu measured no shared-memory wavefronts at this line in "
            "'rep.csv'");
  // A file the report does not have: nothing said.
  std::vector<ReportedFinding> Hs = {unrolled(4, /*Store=*/false)};
  Hs[0].Loc.File = "/src/other.cu";
  EXPECT_EQ(addMeasuredEvidence(Hs, R, "rep.csv", "/"), 0u);
  EXPECT_FALSE(Hs[0].Measured);
}

TEST(FindingEvidenceTest, SourceFileMatcher) {
  SourceFileMatcher M({"/build/a/src/k.cu", "/build/b/src/k.cu",
                       "/build/a/lib/util.cuh", "rel/x.cu"},
                      "/base");
  // Exact, relative ones against their directories.
  EXPECT_EQ(M.match("/build/a/src/k.cu", "/"), "/build/a/src/k.cu");
  EXPECT_EQ(M.match("x.cu", "/base/rel"), "rel/x.cu");
  // By the longest unique run of trailing components.
  EXPECT_EQ(M.match("/home/me/a/src/k.cu", "/"), "/build/a/src/k.cu");
  EXPECT_EQ(M.match("/home/me/lib/util.cuh", "/"), "/build/a/lib/util.cuh");
  // Two equally good: none.
  EXPECT_EQ(M.match("/home/me/src/k.cu", "/"), std::nullopt);
  EXPECT_EQ(M.match("/home/me/src/other.cu", "/"), std::nullopt);
}

} // namespace
