//===- HtmlReportTest.cpp - The self-contained HTML report ----------------===//
//
// The page's static summary, its embedded data (parsed back here) and its
// size on hand-made findings, 10,000 of them for the size bound; the lit
// tests under test/lit/html run it end to end, test/lit/html/chromium.test
// and test/browser/report.test.js in headless Chromium.
//
//===----------------------------------------------------------------------===//

#include "HtmlReport.h"
#include "OutputFormats.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdio>
#include <string>

using namespace shmem;

namespace {

const char *Source = "__global__ void k(float *out) {\n"
                     "  __shared__ float tile[32][32];\n"
                     "  tile[threadIdx.y][threadIdx.x] = 1.0f;\n"
                     "  out[0] = tile[threadIdx.x][0] < 2 ? 1 : 0;\n"
                     "}\n";

OutputContext context(llvm::StringMap<std::string> Files = {}) {
  OutputContext Ctx;
  Ctx.ToolVersion = "0.1.0";
  Ctx.RepoRoot = "/repo";
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
  F.Notes.push_back(
      {{"/repo/k.cu", 1, 17},
       "analysed for a block of 32x8 threads (launch at line 9)"});
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
  F.Notes.push_back(
      {{"/repo/k.cu", 1, 17},
       "analysed for a block of 32x8 threads (launch at line 9)"});
  return F;
}

std::string render(llvm::ArrayRef<ReportedFinding> Fs,
                   const OutputContext &Ctx = context(),
                   llvm::ArrayRef<ReportedGap> Gaps = {}) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeFindings(OS, OutputFormat::Html, Fs, Ctx, Gaps);
  return S;
}

size_t count(llvm::StringRef Hay, llvm::StringRef Needle) {
  return Hay.count(Needle);
}

/// The page's embedded data, parsed.
llvm::json::Object pageData(llvm::StringRef Page) {
  llvm::StringRef Open = "<script type=\"application/json\" id=\"shmem-data\">";
  size_t B = Page.find(Open);
  EXPECT_NE(B, llvm::StringRef::npos);
  if (B == llvm::StringRef::npos)
    return {};
  llvm::StringRef Rest = Page.drop_front(B + Open.size());
  llvm::StringRef Text = Rest.take_front(Rest.find("</script>"));
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError());
    return {};
  }
  return std::move(*V->getAsObject());
}

const llvm::json::Array &arr(const llvm::json::Object &O, llvm::StringRef K) {
  static const llvm::json::Array Empty;
  const llvm::json::Array *A = O.getArray(K);
  return A ? *A : Empty;
}

TEST(HtmlReport, FormatName) {
  OutputFormat F = OutputFormat::Text;
  EXPECT_TRUE(parseOutputFormat("HTML", F));
  EXPECT_EQ(F, OutputFormat::Html);
  EXPECT_EQ(outputFormatName(OutputFormat::Html), "html");
  EXPECT_TRUE(llvm::StringRef(outputFormatNames()).contains("html"));
}

TEST(HtmlReport, SelfContainedAndDeterministic) {
  std::string H = render({conflict(), race()});
  EXPECT_TRUE(llvm::StringRef(H).starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(llvm::StringRef(H).ends_with("</html>\n"));
  // Three inline scripts (the data, the report's code and the layout
  // explorer's, for the bank conflict), nothing fetched.
  EXPECT_EQ(count(H, "<script"), 3u);
  for (const char *External :
       {"<link", "<img", "<iframe", "src=", "@import", "url(", "https://",
        "fetch(", "XMLHttpRequest", "import("})
    EXPECT_EQ(H.find(External), std::string::npos) << External;
  // The one http:// is the SVG namespace the explorer draws in.
  EXPECT_EQ(count(H, "http://"), count(H, "'http://www.w3.org/2000/svg'"));
  EXPECT_EQ(H, render({conflict(), race()}));
}

TEST(HtmlReport, ReadableWithoutScript) {
  std::string H = render({conflict(), race()});
  EXPECT_NE(H.find("<p>2 findings in 1 file: 1 shmem-bank-conflict, 1 "
                   "shmem-race</p>"),
            std::string::npos);
  EXPECT_NE(H.find("<noscript><p class=\"nojs\">JavaScript is off"),
            std::string::npos);
  // The controls appear once the script runs.
  EXPECT_NE(H.find("<section id=\"report\" hidden>"), std::string::npos);
  // Summary tables: by check, by degree, by file, by kernel.
  EXPECT_NE(H.find("<tr data-value=\"0\"><td><span class=\"check\">"
                   "shmem-bank-conflict</span>"),
            std::string::npos);
  EXPECT_NE(H.find("<tr data-value=\"32\"><td>32-way</td><td class=\"n\">1"
                   "</td></tr>"),
            std::string::npos);
  EXPECT_NE(H.find("<td><span class=\"path\">k.cu</span></td><td "
                   "class=\"n\">2</td><td class=\"n\">1</td><td "
                   "class=\"n\">1</td>"),
            std::string::npos)
      << H;
  // The kernel from the block-shape note at its name.
  EXPECT_NE(H.find("<td><code>k</code></td><td><span "
                   "class=\"path\">k.cu:1</span></td><td class=\"n\">2</td>"),
            std::string::npos);
}

TEST(HtmlReport, DataOfABankConflict) {
  llvm::json::Object D = pageData(render({conflict()}));
  const llvm::json::Array &Fs = arr(D, "findings");
  ASSERT_EQ(Fs.size(), 1u);
  const llvm::json::Array &F = *Fs[0].getAsArray();
  ASSERT_EQ(F.size(), 14u); // 15 with --sass or --ncu-report
  EXPECT_EQ(*F[2].getAsInteger(), 4);        // line
  EXPECT_EQ(*F[7].getAsInteger(), 32);       // degree
  EXPECT_EQ(*F[8].getAsInteger(), 0);        // picture
  EXPECT_EQ(F[12].getAsString()->str(), ""); // no text detail
  EXPECT_EQ(*F[13].getAsInteger(), -1);      // no pair
  // The fix-it, as text.
  const llvm::json::Array &Fix = *(*F[11].getAsArray())[0].getAsArray();
  EXPECT_EQ(*Fix[1].getAsInteger(), 2);
  EXPECT_EQ(*Fix[2].getAsInteger(), 29);
  EXPECT_EQ(*Fix[3].getAsInteger(), 2);
  EXPECT_EQ(Fix[4].getAsString()->str(), "33");
  // The picture: three layouts; the original sends every lane to bank 0.
  const llvm::json::Array &P = *arr(D, "pictures")[0].getAsArray();
  EXPECT_EQ(P[0].getAsString()->str(), "tile");
  EXPECT_EQ(*P[4].getAsInteger(), 0);
  EXPECT_EQ(*P[5].getAsInteger(), 1);
  EXPECT_EQ(*P[6].getAsInteger(), 2);
  EXPECT_EQ(*P[7].getAsInteger(), 1); // padding suggested
  const llvm::json::Array &L = arr(D, "layouts");
  ASSERT_EQ(L.size(), 3u);
  const llvm::json::Array &O = *L[0].getAsArray();
  EXPECT_EQ(O[0].getAsString()->str(), "float tile[32][32]");
  EXPECT_EQ(O[1].getAsString()->str(),
            "32 wavefronts instead of 1: 32-way conflict");
  for (const llvm::json::Value &B : *O[2].getAsArray())
    EXPECT_EQ(*B.getAsInteger(), 0);
  EXPECT_EQ(*(*O[3].getAsArray())[31].getAsInteger(), 31 * 32); // words
  EXPECT_EQ(*(*O[5].getAsArray())[0].getAsInteger(), 32); // words of bank 0
  EXPECT_EQ(*O[8].getAsInteger(), 4096);
  EXPECT_EQ(*(*L[1].getAsArray())[8].getAsInteger(), 4224);
  // The array under its declaration (the padding note's place), the kernel.
  const llvm::json::Array &A = *arr(D, "arrays")[0].getAsArray();
  EXPECT_EQ(A[0].getAsString()->str(), "tile");
  EXPECT_EQ(*A[2].getAsInteger(), 2);
  EXPECT_EQ(*A[3].getAsInteger(), 20);
  const llvm::json::Array &K = *arr(D, "kernels")[0].getAsArray();
  EXPECT_EQ(K[0].getAsString()->str(), "k");
  EXPECT_EQ(*K[2].getAsInteger(), 1);
  // The lines excerpts show: 2 around the finding, the notes' own lines.
  const llvm::json::Object &Lines = *D.getObject("lines")->getObject("0");
  for (const char *N : {"1", "2", "3", "4", "5"})
    EXPECT_TRUE(Lines.get(N)) << N;
  EXPECT_EQ(Lines.getString("4")->str(),
            "  out[0] = tile[threadIdx.x][0] < 2 ? 1 : 0;");
}

TEST(HtmlReport, OnePicturePerPattern) {
  // 300 findings of 3 access patterns: 3 pictures.
  std::vector<ReportedFinding> Fs;
  for (unsigned I = 0; I < 300; ++I) {
    ReportedFinding F = conflict();
    F.Loc.Line = 1 + I % 5;
    F.Message += " #" + std::to_string(I);
    if (I % 3 == 1)
      F.Picture->Original =
          layout(64, "as written", "float tile[32][16]", 2048);
    if (I % 3 == 2)
      F.Picture->Store = true;
    Fs.push_back(F);
  }
  llvm::json::Object D = pageData(render(Fs));
  EXPECT_EQ(arr(D, "findings").size(), 300u);
  EXPECT_EQ(arr(D, "pictures").size(), 3u);
  EXPECT_EQ(arr(D, "layouts").size(), 4u);
  // Note messages are kept once each.
  EXPECT_EQ(arr(D, "strings").size(), 2u);
}

TEST(HtmlReport, CompiledAndMeasuredInTheCard) {
  // --sass and --ncu-report: a line each in the card, the kind first.
  ReportedFinding F = conflict();
  CompiledEvidence C;
  C.Listing = "SASS";
  C.Arch = "sm_90";
  SharedInstruction I;
  I.Name = "LDS";
  I.WidthBytes = 4;
  C.Instructions = {I};
  C.AssumedWidth = 4;
  F.Compiled = C;
  MeasuredEvidence M;
  M.Report = "rep.csv";
  M.Found = true;
  M.Wavefronts = 128;
  M.Ideal = 4;
  M.Executions = 4;
  M.PredictedWavefronts = 32;
  M.PredictedIdeal = 1;
  F.Measured = M;
  llvm::json::Object D = pageData(render({F}));
  const llvm::json::Array &E =
      *(*arr(D, "findings")[0].getAsArray())[14].getAsArray();
  ASSERT_EQ(E.size(), 2u);
  const llvm::json::Array &Strings = arr(D, "strings");
  const llvm::json::Array &First = *E[0].getAsArray();
  EXPECT_EQ(*First[0].getAsInteger(), 0);
  EXPECT_EQ(Strings[*First[1].getAsInteger()].getAsString()->str(),
            "nvcc emits 'LDS' (4 bytes) at this line (SASS, sm_90), the "
            "width the prediction assumed");
  const llvm::json::Array &Second = *E[1].getAsArray();
  EXPECT_EQ(*Second[0].getAsInteger(), 1);
  EXPECT_EQ(Strings[*Second[1].getAsInteger()].getAsString()->str(),
            "ncu measured 32 wavefronts per warp-wide load at this line "
            "where 1 is ideal (128 wavefronts, 4 ideal, over 4 executions; "
            "in 'rep.csv'); the prediction is 32 where 1 is ideal, which "
            "agrees");
}

TEST(HtmlReport, RacePairAndArrayDeclarationFromSource) {
  llvm::json::Object D = pageData(render({race()}));
  const llvm::json::Array &F = *arr(D, "findings")[0].getAsArray();
  EXPECT_EQ(*F[13].getAsInteger(), 0); // the conflicting write beside it
  EXPECT_EQ(*F[7].getAsInteger(), 0);  // no degree
  EXPECT_EQ(*F[8].getAsInteger(), -1); // no picture
  // 'tile' from "reads tile[1][0]", declared on line 2 ("__shared__").
  const llvm::json::Array &A =
      *arr(D, "arrays")[*F[6].getAsInteger()].getAsArray();
  EXPECT_EQ(A[0].getAsString()->str(), "tile");
  EXPECT_EQ(*A[2].getAsInteger(), 2);
  EXPECT_EQ(*A[3].getAsInteger(), 20);
  // The pair shows a line around each access.
  const llvm::json::Object &Lines = *D.getObject("lines")->getObject("0");
  for (const char *N : {"2", "3", "4", "5"})
    EXPECT_TRUE(Lines.get(N)) << N;
}

TEST(HtmlReport, WarningAsErrorAndArrayNotDeclaredHere) {
  ReportedFinding F = race();
  F.WarningAsError = true;
  F.Message = "thread 1 reads buf[1] (line 4) while thread 0 writes buf[1] "
              "(line 3); no barrier between them";
  std::string H = render({F});
  EXPECT_NE(H.find("<th class=\"n\">errors</th>"), std::string::npos);
  llvm::json::Object D = pageData(H);
  const llvm::json::Array &R = *arr(D, "findings")[0].getAsArray();
  EXPECT_EQ(*R[9].getAsInteger(), 1);
  // 'buf' has no __shared__ declaration in k.cu: grouped by name, line 0.
  const llvm::json::Array &A = *arr(D, "arrays")[0].getAsArray();
  EXPECT_EQ(A[0].getAsString()->str(), "buf");
  EXPECT_EQ(*A[2].getAsInteger(), 0);
}

TEST(HtmlReport, KernelFromInstantiationNote) {
  ReportedFinding F = race();
  F.Notes.insert(F.Notes.begin() + 1,
                 {{"/repo/k.cu", 1, 17}, "in instantiation 'k<float, 32>'"});
  llvm::json::Object D = pageData(render({F}));
  EXPECT_EQ((*arr(D, "kernels")[0].getAsArray())[0].getAsString()->str(),
            "k<float, 32>");
}

TEST(HtmlReport, KernelFromSourceWhenNoNoteNamesIt) {
  ReportedFinding F = race();
  F.Notes.pop_back(); // no block-shape note
  llvm::json::Object D = pageData(render({F}));
  const llvm::json::Array &K = *arr(D, "kernels")[0].getAsArray();
  EXPECT_EQ(K[0].getAsString()->str(), "k");
  EXPECT_EQ(*K[2].getAsInteger(), 1);
}

TEST(HtmlReport, EscapingAndEmpty) {
  EXPECT_EQ(escapeHtml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(scriptJsonString("</script>\n\"\\ \u2028"),
            "\"\\u003c/script\\u003e\\n\\\"\\\\ \\u2028\"");
  ReportedFinding F = race();
  F.Message = "</script><script>alert(1)</script> 'x<y'";
  F.Loc.File = "/elsewhere/none.cu"; // unreadable: no excerpt
  std::string H = render({F});
  EXPECT_EQ(count(H, "<script"), 2u);
  EXPECT_EQ(H.find("</script><script>alert"), std::string::npos);
  llvm::json::Object D = pageData(H);
  EXPECT_EQ((*arr(D, "findings")[0].getAsArray())[4].getAsString()->str(),
            F.Message);
  std::string E = render({});
  EXPECT_NE(E.find("No findings."), std::string::npos);
  EXPECT_EQ(E.find("<script"), std::string::npos);
}

TEST(HtmlReport, GapsAreSaid) {
  ReportedGap G;
  G.Check = "shmem-race";
  G.Loc = {"/repo/k.cu", 3, 3};
  G.What = "race pairs after the first 17";
  G.Why = "not analysed";
  G.Kernel = "k";
  G.Block = "32x8";
  std::string H = render({race()}, context(), {G});
  EXPECT_NE(H.find("<a href=\"#not-analysed\">1 part of kernels not "
                   "analysed</a>"),
            std::string::npos);
  EXPECT_NE(H.find("<section class=\"gaps\" id=\"not-analysed\">"),
            std::string::npos);
  EXPECT_NE(H.find("race pairs after the first 17: not analysed"),
            std::string::npos);
}

/// 10,000 findings over 20 files and 2,000 kernels, in the proportions of a
/// real corpus: half bank conflicts (five access patterns, 2-D ones with
/// the padded and swizzled what-ifs), races, out-of-bounds accesses and
/// divergent barriers; each with its own message and lines.
TEST(HtmlReport, TenThousandFindingsFitInTenMegabytes) {
  llvm::StringMap<std::string> Files;
  const unsigned NFiles = 20, LinesPerKernel = 12;
  for (unsigned Fi = 0; Fi < NFiles; ++Fi) {
    std::string Text;
    for (unsigned K = 0; K < 100; ++K) {
      Text += "// shmem-lint: block=32x8\n";
      Text += "__global__ void kernel_" + std::to_string(Fi) + "_" +
              std::to_string(K) + "(float *out, const float *in) {\n";
      Text += "  __shared__ float tile[32][32];\n";
      Text += "  __shared__ float s[2048];\n";
      Text += "  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];\n";
      Text += "  s[threadIdx.x + 1] = in[threadIdx.x];\n";
      Text += "  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x * 8];\n";
      Text += "  if (threadIdx.x < 128)\n";
      Text += "    __syncthreads();\n";
      Text += "  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n";
      Text += "  out[threadIdx.x] += s[threadIdx.x + 2048];\n";
      Text += "}\n";
    }
    Files["/repo/src/f" + std::to_string(Fi) + ".cu"] = Text;
  }
  OutputContext Ctx = context(Files);
  const unsigned Strides[] = {2, 4, 8, 16, 32};
  std::vector<ReportedFinding> Fs;
  for (unsigned I = 0; Fs.size() < 10000; ++I) {
    unsigned Fi = I % NFiles, K = (I / NFiles) % 100;
    std::string File = "/repo/src/f" + std::to_string(Fi) + ".cu";
    unsigned Base = K * LinesPerKernel + 1;
    std::string Kernel =
        "kernel_" + std::to_string(Fi) + "_" + std::to_string(K);
    ReportedNote Block{{File, Base + 1, 17},
                       "analysed for a block of 32x8 threads (shmem-lint "
                       "annotation)"};
    ReportedFinding F;
    F.Loc.File = File;
    switch (I % 4) {
    case 0:
    case 1: {
      unsigned S = Strides[(I / 4) % 5];
      F.Check = "shmem-bank-conflict";
      F.Loc.Line = Base + 9;
      F.Loc.Column = 22;
      F.Message = std::to_string(S) + "-way bank conflict: lanes 0, " +
                  std::to_string(32 / S) + ", ... read " + std::to_string(S) +
                  " distinct words of 'tile' in bank 0 (" + std::to_string(S) +
                  " wavefronts instead of 1) in " + Kernel +
                  "; successive lanes are " + std::to_string(32 * S) +
                  " words apart; pad the row of 'tile' to 33 elements";
      F.Notes.push_back({{File, Base + 2, 20},
                         "padding 'tile' to [32][33] makes every access to "
                         "it conflict-free or no worse; it costs 128 more "
                         "bytes of shared memory (4096 -> 4224)"});
      F.Notes.push_back(Block);
      F.Fixes.push_back({File, 0, 2, Base + 2, 29, "33"});
      BankPicture P;
      P.Array = "tile";
      std::vector<std::optional<int64_t>> Addr(32);
      for (unsigned L = 0; L < 32; ++L)
        Addr[L] = int64_t(L % (32 / S)) * 4 + int64_t(L / (32 / S)) * 128;
      P.Original = makeLayoutPicture(BankModel(), Addr, 4, AccessOp::Load);
      P.Original.Layout = "float tile[32][32]";
      P.Original.SharedBytes = 4096;
      P.Padded = layout(132, "padded", "float tile[32][33]", 4224);
      P.PaddingSuggested = true;
      P.Swizzled = layout(132, "XOR swizzle", "tile[r][c ^ r]", 4096);
      F.Picture = P;
      F.Detail = std::string(1500, 'x'); // the text picture: not embedded
      break;
    }
    case 2:
      F.Check = "shmem-race";
      F.Loc.Line = Base + 6;
      F.Loc.Column = 22;
      F.Message = "thread 32 reads s[32] (line " + std::to_string(F.Loc.Line) +
                  ") while thread 31 writes s[32] (line " +
                  std::to_string(Base + 5) +
                  "); no barrier between them; add __syncthreads() between "
                  "them";
      F.Notes.push_back(
          {{File, Base + 5, 3}, "the conflicting write by thread 31"});
      F.Notes.push_back(Block);
      F.Fixes.push_back({File, 0, 0, Base + 6, 3, "__syncthreads();\n  "});
      break;
    case 3:
      if (I % 8 == 3) {
        F.Check = "shmem-divergent-barrier";
        F.Loc.Line = Base + 8;
        F.Loc.Column = 5;
        F.Message = "__syncthreads() is reached only by threads with "
                    "threadIdx.x < 128 (128 of 256 threads) in " +
                    Kernel + "; the other threads skip it";
        F.Notes.push_back(
            {{File, Base + 7, 7}, "this condition depends on threadIdx.x"});
        F.Notes.push_back(Block);
      } else {
        F.Check = "shmem-out-of-bounds";
        F.Loc.Line = Base + 10;
        F.Loc.Column = 25;
        F.Message = "thread 0 reads s[2048] (line " +
                    std::to_string(F.Loc.Line) +
                    "), 0 bytes past the end of 's' (8192 bytes, "
                    "'float[2048]'); 256 of the threads that run it access "
                    "outside it";
        F.Notes.push_back(Block);
      }
      break;
    }
    Fs.push_back(std::move(F));
  }
  auto Start = std::chrono::steady_clock::now();
  std::string H = render(Fs, Ctx);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  llvm::json::Object D = pageData(H);
  std::printf("10000 findings: %zu bytes (%.1f per finding), %zu layouts, "
              "%zu pictures, %zu kernels, %zu arrays, written in %.2f s\n",
              H.size(), double(H.size()) / 10000, arr(D, "layouts").size(),
              arr(D, "pictures").size(), arr(D, "kernels").size(),
              arr(D, "arrays").size(), Seconds);
  EXPECT_LE(H.size(), 10u * 1000 * 1000);
  EXPECT_EQ(arr(D, "findings").size(), 10000u);
  EXPECT_EQ(arr(D, "kernels").size(), 2000u);
  // One picture per access pattern: five originals, one padded, one
  // swizzled layout (the padded and swizzled pictures are equal here).
  EXPECT_EQ(arr(D, "pictures").size(), 5u);
  EXPECT_LE(arr(D, "layouts").size(), 7u);
  // The summary caps its long tables; the script shows the rest.
  EXPECT_NE(H.find("&hellip; and 1950 kernels more"), std::string::npos);
}

} // namespace
