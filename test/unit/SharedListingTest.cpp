//===- SharedListingTest.cpp - PTX and SASS, shared accesses per line -----===//
//
// The readers of --sass on listings the compiler wrote: the committed ones
// of test/lit/driver/Inputs/sass (nvcc 13.0's PTX for sm_80, nvdisasm -g's
// SASS for sm_90, both of Inputs/sass-widths.cu) and small excerpts of the
// forms those do not have.
//
//===----------------------------------------------------------------------===//

#include "SharedListing.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <string>

using namespace shmem;

namespace {

std::string committed(llvm::StringRef Name) {
  std::string Path =
      std::string(SHMEM_LINT_DRIVER_INPUTS) + "/sass/" + Name.str();
  auto B = llvm::MemoryBuffer::getFile(Path);
  EXPECT_TRUE(bool(B)) << Path;
  return B ? (*B)->getBuffer().str() : std::string();
}

/// "name:width:count" of each instruction at a line, or "" when none.
std::string at(const SharedListing &L, llvm::StringRef File, unsigned Line) {
  const std::vector<SharedInstruction> *Is = L.at(File, Line);
  std::string Out;
  if (!Is)
    return Out;
  for (const SharedInstruction &I : *Is)
    Out += (Out.empty() ? "" : " ") + I.Name + ":" +
           std::to_string(I.WidthBytes) + ":" + std::to_string(I.Count);
  return Out;
}

const char *const Source = "/work/main/test/lit/driver/Inputs/sass-widths.cu";

TEST(SharedListingTest, NvccPtxOfTheUnrolledAndColumnKernels) {
  SharedListing L = parsePtxListing(committed("sass-widths.sm_80.ptx"));
  EXPECT_EQ(L.form(), SharedListing::Form::Ptx);
  EXPECT_EQ(L.files(), std::vector<std::string>{Source});
  // The unrolled loop's four 4-byte stores, merged; the four global loads
  // feeding them stay ld.global.f32 and are not shared accesses.
  EXPECT_EQ(at(L, Source, 14), "st.shared.v4.f32:16:1");
  EXPECT_EQ(at(L, Source, 19), "ld.shared.v4.f32:16:1");
  // The column accesses of 'tile', 4 bytes.
  EXPECT_EQ(at(L, Source, 26), "st.shared.f32:4:1");
  EXPECT_EQ(at(L, Source, 28), "ld.shared.f32:4:1");
  EXPECT_EQ(at(L, Source, 20), ""); // out[tid] = s: global only.
  EXPECT_EQ((*L.at(Source, 14))[0].Kind, SharedOpKind::Store);
  EXPECT_EQ((*L.at(Source, 19))[0].Kind, SharedOpKind::Load);
}

TEST(SharedListingTest, NvdisasmSassOfTheSameFile) {
  SharedListing L = parseSassListing(committed("sass-widths.sm_90.nvdisasm"));
  EXPECT_EQ(L.form(), SharedListing::Form::Sass);
  EXPECT_EQ(at(L, Source, 14), "STS.128:16:1");
  EXPECT_EQ(at(L, Source, 19), "LDS.128:16:1");
  EXPECT_EQ(at(L, Source, 26), "STS:4:1");
  EXPECT_EQ(at(L, Source, 28), "LDS:4:1");
  EXPECT_EQ(at(L, Source, 24), ""); // LDC, the kernel's first line.
}

TEST(SharedListingTest, PtxForms) {
  // .file with a timestamp and size after the path; .loc with the inlining
  // chain (the first triple is the callee's line); predicates; unmerged
  // accesses counted; inline asm's several instructions on a line; the
  // state spaces with ::cta; cp.async sizes; ldmatrix; atomics; bulk
  // copies; generic accesses left out.
  SharedListing L = parsePtxListing(R"(
.visible .entry _Z1kv()
{
	.loc	2 7 3, function_name $L__info_string0, inlined_at 1 30 5
	@%p1 ld.shared.v2.f32 	{%f1, %f2}, [%r1];
	.loc	1 12 1
	st.shared.u16 	[%r2], %rs1;
	st.shared.u16 	[%r2+2], %rs2;
	ld.f32 	%f3, [%rd1];
	.loc	1 13 1
	{ cp.async.ca.shared.global [%r3], [%rd2], 16; cp.async.commit_group; }
	cp.async.cg.shared.global.L2::128B [%r3], [%rd2], 16, %r9;
	.loc	1 14 1
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r4, %r5, %r6, %r7}, [%r8];
	atom.shared.add.u32 	%r9, [%r8], 1;
	red.shared::cta.add.f32 	[%r8], %f1;
	.loc	1 15 1
	ld.shared::cta.v4.b32 	{%r1, %r2, %r3, %r4}, [%r5];
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 256, [%r2];
	st.shared.v2.f16x2 	[%r1], {%r2, %r3};
}
	.file	1 "/src/k.cu", 1700000000, 4242
	.file	2 "/src/util.cuh"
)");
  EXPECT_EQ(at(L, "/src/util.cuh", 7), "ld.shared.v2.f32:8:1");
  EXPECT_EQ(at(L, "/src/k.cu", 30), "");
  EXPECT_EQ(at(L, "/src/k.cu", 12), "st.shared.u16:2:2");
  EXPECT_EQ(at(L, "/src/k.cu", 13), "cp.async.ca.shared.global:16:1 "
                                    "cp.async.cg.shared.global.L2::128B:16:1");
  EXPECT_EQ(at(L, "/src/k.cu", 14),
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16:16:1 "
            "atom.shared.add.u32:4:1 red.shared::cta.add.f32:4:1");
  EXPECT_EQ(at(L, "/src/k.cu", 15),
            "ld.shared::cta.v4.b32:16:1 "
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
            "bytes:0:1 st.shared.v2.f16x2:8:1");
  const std::vector<SharedInstruction> &Line14 = *L.at("/src/k.cu", 14);
  EXPECT_EQ(Line14[0].Kind, SharedOpKind::LoadMatrix);
  EXPECT_EQ(Line14[1].Kind, SharedOpKind::Atomic);
  EXPECT_EQ((*L.at("/src/k.cu", 13))[0].Kind, SharedOpKind::AsyncCopy);
  EXPECT_EQ((*L.at("/src/k.cu", 15))[1].Kind, SharedOpKind::BulkCopy);
}

TEST(SharedListingTest, PtxWithoutLineInfo) {
  // Without -lineinfo there is no .loc: nothing can be placed.
  SharedListing L = parsePtxListing(R"(
.visible .entry _Z1kv()
{
	ld.shared.f32 	%f1, [%r1];
}
)");
  EXPECT_TRUE(L.empty());
  // A .loc naming a file no .file declares is left out too.
  SharedListing M =
      parsePtxListing("\t.loc 3 4 1\n\tld.shared.f32 %f1, [%r1];\n");
  EXPECT_TRUE(M.empty());
}

TEST(SharedListingTest, SassForms) {
  // nvdisasm -gi: the innermost frame first, the outer ones on their own
  // lines; cuobjdump's encodings after the instruction; predicates; the
  // width modifiers; a new function starts without a line.
  SharedListing L = parseSassListing(R"(
//--------------------- .text._Z1kv --------------------------
.text._Z1kv:
	//## File "/src/util.cuh", line 7 inlined at "/src/k.cu", line 30
	//## File "/src/k.cu", line 30
        /*0040*/               @!P0 LDS.64 R2, [R0+0x8] ;   /* 0x000008000002b984 */
        /*0050*/                   LDS.U8 R4, [R0] ;
	//## File "/src/k.cu", line 31
        /*0060*/                   STS.U16 [R0], R4 ;
        /*0070*/                   STS.U16 [R0+0x2], R5 ;
        /*0080*/                   LDSM.16.MT88.4 R8, [R6] ;
        /*0090*/                   ATOMS.CAS.64 R10, [R0], R12, R14 ;
        /*00a0*/                   LDGSTS.E.BYPASS.LTC128B.128 [R0], desc[UR4][R2.64] ;
        /*00b0*/                   LDG.E R1, desc[UR4][R2.64] ;
        /*00c0*/                   UBLKCP.S.G [UR4], [UR6], UR8 ;
//--------------------- .text._Z1jv --------------------------
.text._Z1jv:
        /*0000*/                   LDS R1, [R0] ;
)");
  EXPECT_EQ(at(L, "/src/util.cuh", 7), "LDS.64:8:1 LDS.U8:1:1");
  EXPECT_EQ(at(L, "/src/k.cu", 30), "");
  EXPECT_EQ(at(L, "/src/k.cu", 31),
            "STS.U16:2:2 LDSM.16.MT88.4:16:1 ATOMS.CAS.64:8:1 "
            "LDGSTS.E.BYPASS.LTC128B.128:16:1 UBLKCP.S.G:0:1");
  EXPECT_EQ(L.files().size(), 2u);
}

TEST(SharedListingTest, DirectionOfEachKind) {
  EXPECT_TRUE(sharedOpMatches(SharedOpKind::Load, /*Store=*/false));
  EXPECT_FALSE(sharedOpMatches(SharedOpKind::Load, /*Store=*/true));
  EXPECT_TRUE(sharedOpMatches(SharedOpKind::AsyncCopy, /*Store=*/true));
  EXPECT_TRUE(sharedOpMatches(SharedOpKind::LoadMatrix, /*Store=*/false));
  EXPECT_TRUE(sharedOpMatches(SharedOpKind::Atomic, /*Store=*/false));
  EXPECT_TRUE(sharedOpMatches(SharedOpKind::Atomic, /*Store=*/true));
  EXPECT_FALSE(sharedOpMatches(SharedOpKind::BulkCopy, /*Store=*/true));
  EXPECT_FALSE(classifySassOpcode("LDG.E.128"));
  EXPECT_FALSE(classifyPtxInstruction("ld.global.v4.f32", "{..}, [%rd1]"));
  EXPECT_FALSE(classifyPtxInstruction("cp.async.commit_group", ""));
}

} // namespace
