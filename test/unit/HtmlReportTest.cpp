//===- HtmlReportTest.cpp - The self-contained HTML report ----------------===//
//
// Structure and escaping of --format=html on hand-made findings; the lit
// tests under test/lit/html run it end to end (and in headless Chromium).
//
//===----------------------------------------------------------------------===//

#include "HtmlReport.h"
#include "OutputFormats.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <string>

using namespace shmem;

namespace {

const char *Source = "__global__ void k(float *out) {\n"
                     "  __shared__ float tile[32][32];\n"
                     "  tile[threadIdx.y][threadIdx.x] = 1.0f;\n"
                     "  out[0] = tile[threadIdx.x][0] < 2 ? 1 : 0;\n"
                     "}\n";

OutputContext context() {
  OutputContext Ctx;
  Ctx.ToolVersion = "0.1.0";
  Ctx.RepoRoot = "/repo";
  llvm::StringMap<std::string> Files;
  Files["/repo/k.cu"] = Source;
  Ctx.ReadFile = [Files](llvm::StringRef P) -> std::optional<std::string> {
    auto It = Files.find(P);
    if (It == Files.end())
      return std::nullopt;
    return It->second;
  };
  return Ctx;
}

LayoutPicture layout(int64_t RowBytes, const char *Label, const char *Decl,
                     int64_t Bytes) {
  std::vector<std::optional<int64_t>> Addr(32);
  for (unsigned I = 0; I < 32; ++I)
    Addr[I] = int64_t(I) * RowBytes;
  LayoutPicture L = makeLayoutPicture(BankModel(), Addr, 4, AccessOp::Load);
  L.Label = Label;
  L.Layout = Decl;
  L.SharedBytes = Bytes;
  return L;
}

ReportedFinding conflict() {
  ReportedFinding F;
  F.Check = "shmem-bank-conflict";
  F.Loc = {"/repo/k.cu", 4, 13};
  F.Message = "32-way bank conflict: lanes 0-31 read 32 distinct words of "
              "'tile' in bank 0 (32 wavefronts instead of 1)";
  F.Notes.push_back({{"/repo/k.cu", 2, 20},
                     "padding 'tile' to [32][33] makes every access to it "
                     "conflict-free or no worse"});
  F.Fixes.push_back({"/repo/k.cu", 60, 2, 2, 29, "33"});
  BankPicture P;
  P.Array = "tile";
  P.Original = layout(128, "as written", "float tile[32][32]", 4096);
  P.Padded = layout(132, "padded", "float tile[32][33]", 4224);
  P.PaddingSuggested = true;
  P.Swizzled = layout(128 + 4, "XOR swizzle", "tile[r][c ^ r]", 4096);
  F.Picture = P;
  F.Detail = "(text picture)";
  return F;
}

ReportedFinding race() {
  ReportedFinding F;
  F.Check = "shmem-race";
  F.Loc = {"/repo/k.cu", 4, 13};
  F.Message = "thread (1,0) reads tile[1][0] (line 4) while thread (0,1) "
              "writes tile[1][0] (line 3); no barrier between them";
  F.Notes.push_back(
      {{"/repo/k.cu", 3, 3}, "the conflicting write by thread (0,1)"});
  return F;
}

std::string render(llvm::ArrayRef<ReportedFinding> Fs) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeFindings(OS, OutputFormat::Html, Fs, context());
  return S;
}

size_t count(llvm::StringRef Hay, llvm::StringRef Needle) {
  return Hay.count(Needle);
}

TEST(HtmlReport, FormatName) {
  OutputFormat F = OutputFormat::Text;
  EXPECT_TRUE(parseOutputFormat("HTML", F));
  EXPECT_EQ(F, OutputFormat::Html);
  EXPECT_EQ(outputFormatName(OutputFormat::Html), "html");
  EXPECT_TRUE(llvm::StringRef(outputFormatNames()).contains("html"));
}

TEST(HtmlReport, SelfContained) {
  std::string H = render({conflict(), race()});
  EXPECT_TRUE(llvm::StringRef(H).starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(llvm::StringRef(H).ends_with("</html>\n"));
  for (const char *External :
       {"<script", "<link", "src=", "@import", "url(", "http://", "https://"})
    EXPECT_EQ(H.find(External), std::string::npos) << External;
}

TEST(HtmlReport, BankPictures) {
  std::string H = render({conflict()});
  // Three layouts, each with an SVG of 32 lanes and 32 banks.
  EXPECT_EQ(count(H, "<figure class=\"layout original\">"), 1u);
  EXPECT_EQ(count(H, "<figure class=\"layout padded\">"), 1u);
  EXPECT_EQ(count(H, "<figure class=\"layout swizzled\">"), 1u);
  EXPECT_EQ(count(H, "<svg class=\"lanebank\""), 3u);
  EXPECT_EQ(count(H, "<circle class=\"lane\""), 96u);
  EXPECT_EQ(count(H, "<rect class=\"bank\""), 96u);
  // The original: every lane's edge goes to bank 0, which serves 32 words.
  EXPECT_NE(H.find("<title>bank 0: 32 distinct words</title>"),
            std::string::npos);
  EXPECT_NE(H.find("32 wavefronts instead of 1: 32-way conflict"),
            std::string::npos);
  EXPECT_NE(H.find("After the suggested padding"), std::string::npos);
  EXPECT_NE(H.find("shared memory: 4224 bytes (+128)"), std::string::npos);
  EXPECT_NE(H.find("1 wavefront: conflict-free"), std::string::npos);
  // The table: one row per lane; source excerpt with the line marked.
  EXPECT_EQ(count(H, "<tr><td>"), 32u);
  EXPECT_NE(
      H.find("<span class=\"l hl\"><span class=\"ln\">4</span>   out[0] = "
             "tile[threadIdx.x][0] &lt; 2 ? 1 : 0;</span>"),
      std::string::npos)
      << H;
  // The message's quoted names as code, the fix-it.
  EXPECT_NE(H.find("words of <code>tile</code> in bank 0"), std::string::npos);
  EXPECT_NE(H.find("k.cu:2:29</span>: replace 2 bytes with <code>33</code>"),
            std::string::npos);
  // The text detail is not repeated when there is a picture.
  EXPECT_EQ(H.find("(text picture)"), std::string::npos);
}

TEST(HtmlReport, Broadcasts) {
  std::vector<std::optional<int64_t>> Addr(32);
  for (unsigned I = 0; I < 32; ++I)
    Addr[I] = int64_t(I / 4) * 4;
  LayoutPicture L = makeLayoutPicture(BankModel(), Addr, 4, AccessOp::Load);
  std::string S = laneBankSvg(L, "t");
  EXPECT_EQ(count(S, "<circle class=\"lane bcast\""), 32u);
  EXPECT_EQ(count(S, "edge ok bcast"), 32u);
  EXPECT_NE(S.find("(shared with another lane: broadcast)"), std::string::npos);
}

TEST(HtmlReport, RaceShowsBothAccessesAndWitnesses) {
  std::string H = render({race()});
  EXPECT_NE(H.find("<div class=\"pair\">"), std::string::npos);
  EXPECT_NE(H.find("<b class=\"thread\">thread (1,0)</b>"), std::string::npos);
  EXPECT_NE(H.find("the conflicting write by <b class=\"thread\">thread "
                   "(0,1)</b>"),
            std::string::npos);
  // Both lines of the pair are excerpted.
  EXPECT_NE(H.find("<span class=\"ln\">3</span>   tile[threadIdx.y]"),
            std::string::npos);
  EXPECT_NE(H.find("<span class=\"ln\">4</span>   out[0]"), std::string::npos);
}

TEST(HtmlReport, EscapingAndEmpty) {
  EXPECT_EQ(escapeHtml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  ReportedFinding F = race();
  F.Message = "<script>alert(1)</script> 'x<y'";
  F.Loc.File = "/elsewhere/none.cu"; // unreadable: no excerpt
  std::string H = render({F});
  EXPECT_EQ(H.find("<script>"), std::string::npos);
  EXPECT_NE(H.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(H.find("<code>x&lt;y</code>"), std::string::npos);
  std::string E = render({});
  EXPECT_NE(E.find("No findings."), std::string::npos);
}

} // namespace
