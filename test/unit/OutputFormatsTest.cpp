//===- OutputFormatsTest.cpp - text, SARIF, GitHub, GitLab, JSON, YAML ----===//
//
// SARIF output is also validated against the SARIF 2.1.0 JSON schema with
// test/sarif/validate_sarif.py (Python 3 and its jsonschema module; Debian:
// python3-jsonschema). The build passes where they are:
//   SHMEM_LINT_SARIF_DIR  the test/sarif directory of the source tree;
//   SHMEM_LINT_PYTHON     the Python interpreter (default "python3").
//
//===----------------------------------------------------------------------===//

#include "OutputFormats.h"

#include "Analysis/Finding.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <set>
#include <string>

using namespace shmem;

#ifndef SHMEM_LINT_PYTHON
#define SHMEM_LINT_PYTHON "python3"
#endif

namespace {

// A kernel as the findings below see it, at /repo/src/k.cu.
const char *KernelSource = "  __shared__ float tile[32][32];\n"
                           "  int i = threadIdx.x;\n"
                           "  float v = tile[i][0];\n";

FileReader readerFor(llvm::StringMap<std::string> Files) {
  return [Files](llvm::StringRef Path) -> std::optional<std::string> {
    auto It = Files.find(Path);
    if (It == Files.end())
      return std::nullopt;
    return It->second;
  };
}

OutputContext context(llvm::StringRef Source = KernelSource) {
  OutputContext Ctx;
  Ctx.ToolVersion = "0.1.0";
  Ctx.RepoRoot = "/repo";
  Ctx.ReadFile = readerFor({{"/repo/src/k.cu", Source.str()}});
  return Ctx;
}

ReportedFinding bankConflict() {
  ReportedFinding F;
  F.Check = "shmem-bank-conflict";
  F.Loc = {"/repo/src/k.cu", 3, 13};
  F.Message = "32-way bank conflict on 'tile' (32 wavefronts, ideal 1)";
  F.Notes.push_back({{"/repo/src/k.cu", 1, 20}, "'tile' declared here"});
  F.Fixes.push_back({"/repo/src/k.cu", 28, 2, 1, 29, "33"});
  F.Detail = "lane 0 -> bank 0\nlane 1 -> bank 0\n";
  return F;
}

ReportedFinding race() {
  ReportedFinding F;
  F.Check = "shmem-race";
  F.Loc = {"/repo/src/k.cu", 2, 3};
  F.Message = "write to 'tile' races with the read at line 3";
  return F;
}

std::string render(OutputFormat Format,
                   llvm::ArrayRef<ReportedFinding> Findings,
                   const OutputContext &Ctx) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeFindings(OS, Format, Findings, Ctx);
  return S;
}

llvm::json::Value parseJson(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError()) << "\n" << Text.str();
    return nullptr;
  }
  return std::move(*V);
}

std::string str(const llvm::json::Object *O, llvm::StringRef Key) {
  if (!O)
    return "<no object>";
  std::optional<llvm::StringRef> S = O->getString(Key);
  return S ? S->str() : "<missing " + Key.str() + ">";
}

int64_t num(const llvm::json::Object *O, llvm::StringRef Key) {
  if (!O)
    return -1;
  return O->getInteger(Key).value_or(-1);
}

/// The SARIF run object of a SARIF log text.
struct Sarif {
  llvm::json::Value Root = nullptr;
  const llvm::json::Object *Log = nullptr, *Run = nullptr, *Driver = nullptr;
  const llvm::json::Array *Rules = nullptr, *Results = nullptr;

  explicit Sarif(llvm::StringRef Text) : Root(parseJson(Text)) {
    Log = Root.getAsObject();
    if (!Log)
      return;
    if (const llvm::json::Array *Runs = Log->getArray("runs"))
      if (!Runs->empty())
        Run = (*Runs)[0].getAsObject();
    if (!Run)
      return;
    if (const llvm::json::Object *Tool = Run->getObject("tool"))
      Driver = Tool->getObject("driver");
    if (Driver)
      Rules = Driver->getArray("rules");
    Results = Run->getArray("results");
  }
  const llvm::json::Object *result(size_t I) const {
    return Results && I < Results->size() ? (*Results)[I].getAsObject()
                                          : nullptr;
  }
  const llvm::json::Object *rule(size_t I) const {
    return Rules && I < Rules->size() ? (*Rules)[I].getAsObject() : nullptr;
  }
};

const llvm::json::Object *physical(const llvm::json::Object *Loc) {
  return Loc ? Loc->getObject("physicalLocation") : nullptr;
}

const llvm::json::Object *firstLocation(const llvm::json::Object *Result) {
  if (!Result)
    return nullptr;
  const llvm::json::Array *Locs = Result->getArray("locations");
  return Locs && !Locs->empty() ? physical((*Locs)[0].getAsObject()) : nullptr;
}

std::string fingerprintOf(const llvm::json::Object *Result) {
  if (!Result || !Result->getObject("partialFingerprints"))
    return "<none>";
  return str(Result->getObject("partialFingerprints"),
             "shmemLintFingerprint/v1");
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, ParseOutputFormat) {
  OutputFormat F = OutputFormat::Text;
  EXPECT_TRUE(parseOutputFormat("sarif", F));
  EXPECT_EQ(F, OutputFormat::Sarif);
  EXPECT_TRUE(parseOutputFormat("GitHub", F));
  EXPECT_EQ(F, OutputFormat::GitHub);
  EXPECT_TRUE(parseOutputFormat("gitlab", F));
  EXPECT_EQ(F, OutputFormat::GitLab);
  EXPECT_TRUE(parseOutputFormat("JSON", F));
  EXPECT_EQ(F, OutputFormat::Json);
  EXPECT_TRUE(parseOutputFormat("text", F));
  EXPECT_EQ(F, OutputFormat::Text);
  EXPECT_FALSE(parseOutputFormat("xml", F));
  EXPECT_FALSE(parseOutputFormat("", F));
  EXPECT_EQ(F, OutputFormat::Text);
  for (OutputFormat G :
       {OutputFormat::Text, OutputFormat::Sarif, OutputFormat::GitHub,
        OutputFormat::GitLab, OutputFormat::Json}) {
    OutputFormat Back = OutputFormat::Text;
    EXPECT_TRUE(parseOutputFormat(outputFormatName(G), Back));
    EXPECT_EQ(Back, G);
    EXPECT_TRUE(outputFormatNames().contains(outputFormatName(G)));
  }
}

TEST(OutputFormatsTest, KnownChecksMatchTheAnalysis) {
  std::vector<CheckDescription> Checks = knownChecks();
  ASSERT_EQ(Checks.size(), NumCheckKinds);
  for (unsigned I = 0; I < NumCheckKinds; ++I) {
    CheckKind K = static_cast<CheckKind>(I);
    EXPECT_EQ(Checks[I].Id, checkName(K).str());
    EXPECT_EQ(Checks[I].ShortDescription, checkSummary(K).str());
    // Written for every check, not the fallbacks.
    EXPECT_NE(Checks[I].Name, Checks[I].Id);
    EXPECT_GT(Checks[I].FullDescription.size(),
              Checks[I].ShortDescription.size());
    EXPECT_TRUE(llvm::StringRef(Checks[I].HelpMarkdown).contains("```cuda"));
  }
  // In registry order, which is CheckKind order (checked above), starting
  // with the first check there was.
  ASSERT_FALSE(Checks.empty());
  EXPECT_EQ(Checks.front().Id, "shmem-bank-conflict");
}

// The registry (Analysis/Checks.def): one name per check, shmem-<kebab>,
// found again by checkFromName, with its page under docs/checks/ named after
// it, and a SARIF rule name of its own.
TEST(OutputFormatsTest, CheckRegistryIsConsistent) {
  std::set<std::string> Names, RuleNames;
  for (unsigned I = 0; I < NumCheckKinds; ++I) {
    CheckKind K = static_cast<CheckKind>(I);
    llvm::StringRef Name = checkName(K);
    EXPECT_TRUE(Names.insert(Name.str()).second) << Name.str();
    EXPECT_TRUE(Name.starts_with("shmem-")) << Name.str();
    EXPECT_EQ(Name.find_first_not_of("abcdefghijklmnopqrstuvwxyz-"),
              llvm::StringRef::npos)
        << Name.str();
    CheckKind Back = CheckKind::BankConflict;
    ASSERT_TRUE(checkFromName(Name, Back)) << Name.str();
    EXPECT_EQ(Back, K);
    EXPECT_EQ(checkDocPage(K), ("docs/checks/" + Name + ".md").str());
    EXPECT_FALSE(checkSummary(K).empty());
  }
  CheckKind Unused;
  EXPECT_FALSE(checkFromName("shmem-no-such-check", Unused));
  EXPECT_FALSE(checkFromName("bank-conflict", Unused));
  for (const CheckDescription &D : knownChecks()) {
    EXPECT_TRUE(RuleNames.insert(D.Name).second) << D.Name;
    EXPECT_EQ(D.DocPage, "docs/checks/" + D.Id + ".md");
#ifdef SHMEM_LINT_SARIF_DIR
    // test/sarif/../../ is the source tree.
    llvm::SmallString<256> Page(SHMEM_LINT_SARIF_DIR);
    llvm::sys::path::append(Page, "..", "..", D.DocPage);
    EXPECT_TRUE(llvm::sys::fs::exists(Page)) << Page.str().str();
#endif
  }
}

// One finding per location, the first found unless the check keeps the
// worst: the rule runChecks and the driver's merge across files share.
TEST(OutputFormatsTest, KeptOnceFollowsTheCheckPolicy) {
  struct F {
    std::string Text;
    unsigned Weight;
  };
  KeptOnce<int, F> Worst, First;
  for (KeptOnce<int, F> *K : {&Worst, &First}) {
    OncePolicy P = K == &Worst ? OncePolicy::Worst : OncePolicy::First;
    EXPECT_FALSE(K->settled(1, P));
    K->add(1, {"a", 2}, P);
    K->add(2, {"b", 0}, P);
    K->add(1, {"c", 5}, P); // Heavier.
    K->add(1, {"d", 5}, P); // A tie: the earlier stays.
    K->add(2, {"e", 0}, P);
  }
  ASSERT_EQ(Worst.kept().size(), 2u);
  EXPECT_EQ(Worst.kept()[0].Text, "c");
  EXPECT_EQ(Worst.kept()[1].Text, "b");
  EXPECT_FALSE(Worst.settled(1, OncePolicy::Worst));
  ASSERT_EQ(First.kept().size(), 2u);
  EXPECT_EQ(First.kept()[0].Text, "a");
  EXPECT_EQ(First.kept()[1].Text, "b");
  EXPECT_TRUE(First.settled(1, OncePolicy::First));
  EXPECT_FALSE(First.settled(3, OncePolicy::First));
  // The barrier check keeps the first shape's report; the others the worst.
  EXPECT_EQ(checkOncePolicy(CheckKind::DivergentBarrier), OncePolicy::First);
  EXPECT_EQ(checkOncePolicy(CheckKind::BankConflict), OncePolicy::Worst);
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, Text) {
  OutputContext Ctx = context();
  EXPECT_EQ(render(OutputFormat::Text, {bankConflict()}, Ctx),
            "/repo/src/k.cu:3:13: warning: 32-way bank conflict on 'tile' "
            "(32 wavefronts, ideal 1) [shmem-bank-conflict]\n"
            "    3 |   float v = tile[i][0];\n"
            "      |             ^\n"
            "/repo/src/k.cu:1:20: note: 'tile' declared here\n"
            "    1 |   __shared__ float tile[32][32];\n"
            "      |                    ^        ~~\n"
            "      |                             33\n");
}

TEST(OutputFormatsTest, TextVerbose) {
  OutputContext Ctx = context();
  Ctx.Verbose = true;
  EXPECT_EQ(render(OutputFormat::Text, {bankConflict()}, Ctx),
            "/repo/src/k.cu:3:13: warning: 32-way bank conflict on 'tile' "
            "(32 wavefronts, ideal 1) [shmem-bank-conflict]\n"
            "    3 |   float v = tile[i][0];\n"
            "      |             ^\n"
            "    lane 0 -> bank 0\n"
            "    lane 1 -> bank 0\n"
            "/repo/src/k.cu:1:20: note: 'tile' declared here\n"
            "    1 |   __shared__ float tile[32][32];\n"
            "      |                    ^        ~~\n"
            "      |                             33\n"
            "/repo/src/k.cu:1:29: note: fix-it: replace 2 bytes with \"33\"\n"
            "    1 |   __shared__ float tile[32][32];\n"
            "      |                             ^\n");
}

TEST(OutputFormatsTest, TextWithoutSource) {
  OutputContext Ctx = context();
  Ctx.ReadFile = readerFor({}); // Nothing readable.
  ReportedFinding NoLine = race();
  NoLine.Loc = {"gen.cu", 0, 0};
  ReportedFinding NoFile = race();
  NoFile.Loc = {};
  EXPECT_EQ(render(OutputFormat::Text, {bankConflict(), NoLine, NoFile}, Ctx),
            "/repo/src/k.cu:3:13: warning: 32-way bank conflict on 'tile' "
            "(32 wavefronts, ideal 1) [shmem-bank-conflict]\n"
            "/repo/src/k.cu:1:20: note: 'tile' declared here\n"
            "gen.cu: warning: write to 'tile' races with the read at line 3 "
            "[shmem-race]\n"
            "shmem-lint: warning: write to 'tile' races with the read at "
            "line 3 [shmem-race]\n");
  Ctx = context();
  Ctx.ShowSource = false;
  EXPECT_EQ(render(OutputFormat::Text, {race()}, Ctx),
            "/repo/src/k.cu:2:3: warning: write to 'tile' races with the "
            "read at line 3 [shmem-race]\n");
}

TEST(OutputFormatsTest, TextColorsLikeClang) {
  OutputContext Ctx = context();
  Ctx.Color = true;
  ReportedFinding F = bankConflict();
  F.Message = "m";
  F.Notes[0].Message = "n";
  EXPECT_EQ(
      render(OutputFormat::Text, {F}, Ctx),
      "\033[1m/repo/src/k.cu:3:13: \033[0m\033[0;1;35mwarning: \033[0m"
      "\033[1mm [shmem-bank-conflict]\033[0m\n"
      "    3 |   float v = tile[i][0];\n"
      "      |             \033[0;1;32m^\033[0m\n"
      "\033[1m/repo/src/k.cu:1:20: \033[0m\033[0;1;36mnote: \033[0mn\033[0m\n"
      "    1 |   __shared__ float tile[32][32];\n"
      "      |                    \033[0;1;32m^        ~~\033[0m\n"
      "      |                             \033[0;1;32m33\033[0m\n");
}

TEST(OutputFormatsTest, TextCaretKeepsTabsAndCountsCharacters) {
  OutputContext Ctx = context("\tx = \xCF\x80 + y;\n");
  ReportedFinding F = race();
  F.Loc = {"/repo/src/k.cu", 1, 11}; // 'y': after a tab and a 2-byte pi.
  F.Message = "m";
  EXPECT_EQ(render(OutputFormat::Text, {F}, Ctx),
            "/repo/src/k.cu:1:11: warning: m [shmem-race]\n"
            "    1 | \tx = \xCF\x80 + y;\n"
            "      | \t        ^\n");
}

//===----------------------------------------------------------------------===//
// SARIF
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, SarifLogAndRules) {
  OutputContext Ctx = context();
  Sarif S(render(OutputFormat::Sarif, {bankConflict(), race()}, Ctx));
  ASSERT_TRUE(S.Log && S.Run && S.Driver && S.Rules && S.Results);
  EXPECT_EQ(str(S.Log, "version"), "2.1.0");
  EXPECT_TRUE(llvm::StringRef(str(S.Log, "$schema"))
                  .ends_with("sarif-schema-2.1.0.json"));
  EXPECT_EQ(str(S.Driver, "name"), "shmem-lint");
  EXPECT_EQ(str(S.Driver, "version"), "0.1.0");
  EXPECT_EQ(str(S.Driver, "informationUri"),
            "https://github.com/shmem-lint/shmem-lint");

  // Every known check is a rule, whether or not it fired.
  ASSERT_EQ(S.Rules->size(), NumCheckKinds);
  for (unsigned I = 0; I < NumCheckKinds; ++I) {
    const llvm::json::Object *R = S.rule(I);
    CheckKind K = static_cast<CheckKind>(I);
    EXPECT_EQ(str(R, "id"), checkName(K).str());
    EXPECT_FALSE(str(R, "name").empty());
    EXPECT_EQ(str(R->getObject("shortDescription"), "text"),
              checkSummary(K).str());
    EXPECT_FALSE(str(R->getObject("fullDescription"), "text").empty());
    EXPECT_FALSE(str(R->getObject("help"), "text").empty());
    EXPECT_TRUE(llvm::StringRef(str(R->getObject("help"), "markdown"))
                    .contains("```cuda"));
    EXPECT_EQ(str(R, "helpUri"),
              "https://github.com/shmem-lint/shmem-lint/blob/main/docs/"
              "checks/" +
                  checkName(K).str() + ".md");
    EXPECT_EQ(str(R->getObject("defaultConfiguration"), "level"), "warning");
  }
  const llvm::json::Object *Base = S.Run->getObject("originalUriBaseIds");
  ASSERT_TRUE(Base);
  EXPECT_EQ(str(Base->getObject("%SRCROOT%"), "uri"), "file:///repo/");
}

TEST(OutputFormatsTest, SarifResults) {
  OutputContext Ctx = context();
  Ctx.DocsBaseUrl = "https://docs.example/checks/";
  Sarif S(render(OutputFormat::Sarif, {bankConflict(), race()}, Ctx));
  ASSERT_TRUE(S.Results);
  ASSERT_EQ(S.Results->size(), 2u);

  const llvm::json::Object *R = S.result(0);
  EXPECT_EQ(str(R, "ruleId"), "shmem-bank-conflict");
  EXPECT_EQ(num(R, "ruleIndex"), 0);
  EXPECT_EQ(str(R, "level"), "warning");
  EXPECT_EQ(str(R->getObject("message"), "text"),
            "32-way bank conflict on 'tile' (32 wavefronts, ideal 1)");
  const llvm::json::Object *P = firstLocation(R);
  ASSERT_TRUE(P);
  EXPECT_EQ(str(P->getObject("artifactLocation"), "uri"), "src/k.cu");
  EXPECT_EQ(str(P->getObject("artifactLocation"), "uriBaseId"), "%SRCROOT%");
  EXPECT_EQ(num(P->getObject("region"), "startLine"), 3);
  EXPECT_EQ(num(P->getObject("region"), "startColumn"), 13);

  const llvm::json::Array *Related = R->getArray("relatedLocations");
  ASSERT_TRUE(Related && Related->size() == 1);
  const llvm::json::Object *Note = (*Related)[0].getAsObject();
  EXPECT_EQ(num(Note, "id"), 0);
  EXPECT_EQ(str(Note->getObject("message"), "text"), "'tile' declared here");
  EXPECT_EQ(num(physical(Note)->getObject("region"), "startLine"), 1);

  const llvm::json::Array *Fixes = R->getArray("fixes");
  ASSERT_TRUE(Fixes && Fixes->size() == 1);
  const llvm::json::Array *Changes =
      (*Fixes)[0].getAsObject()->getArray("artifactChanges");
  ASSERT_TRUE(Changes && Changes->size() == 1);
  const llvm::json::Object *Change = (*Changes)[0].getAsObject();
  EXPECT_EQ(str(Change->getObject("artifactLocation"), "uri"), "src/k.cu");
  const llvm::json::Object *Rep =
      (*Change->getArray("replacements"))[0].getAsObject();
  EXPECT_EQ(num(Rep->getObject("deletedRegion"), "byteOffset"), 28);
  EXPECT_EQ(num(Rep->getObject("deletedRegion"), "byteLength"), 2);
  EXPECT_EQ(str(Rep->getObject("insertedContent"), "text"), "33");
  EXPECT_EQ(str(R->getObject("properties"), "detail"),
            "lane 0 -> bank 0\nlane 1 -> bank 0\n");

  const llvm::json::Object *R2 = S.result(1);
  EXPECT_EQ(str(R2, "ruleId"), "shmem-race");
  EXPECT_EQ(num(R2, "ruleIndex"), 2);
  EXPECT_EQ(str(S.rule(2), "id"), "shmem-race");
  EXPECT_EQ(str(S.rule(2), "helpUri"),
            "https://docs.example/checks/shmem-race.md");
  EXPECT_FALSE(R2->getArray("relatedLocations"));
  EXPECT_FALSE(R2->getArray("fixes"));
  EXPECT_NE(fingerprintOf(R), fingerprintOf(R2));
}

TEST(OutputFormatsTest, SarifPathsAndColumns) {
  OutputContext Ctx = context();
  Ctx.ReadFile = readerFor({{"/repo/src/with space/./\xC3\xA9.cu",
                             "a\xF0\x9F\x98\x80\xCF\x80 = 1;\n"}});
  ReportedFinding Inside = race();
  Inside.Loc = {"/repo/src/with space/./\xC3\xA9.cu", 1, 8};
  ReportedFinding Outside = race();
  Outside.Loc = {"/usr/include/x.h", 4, 2};
  ReportedFinding Relative = race();
  Relative.Loc = {"lib/a:b.cu", 5, 0};
  ReportedFinding Unknown = race();
  Unknown.Check = "clang-diagnostic-error";
  Sarif S(
      render(OutputFormat::Sarif, {Inside, Outside, Relative, Unknown}, Ctx));
  ASSERT_TRUE(S.Results && S.Results->size() == 4);

  const llvm::json::Object *A =
      firstLocation(S.result(0))->getObject("artifactLocation");
  EXPECT_EQ(str(A, "uri"), "src/with%20space/%C3%A9.cu");
  EXPECT_EQ(str(A, "uriBaseId"), "%SRCROOT%");
  // Byte column 8 is after 'a', a 4-byte emoji (2 UTF-16 units) and a
  // 2-byte pi (1 unit): UTF-16 column 5.
  EXPECT_EQ(num(firstLocation(S.result(0))->getObject("region"), "startColumn"),
            5);

  A = firstLocation(S.result(1))->getObject("artifactLocation");
  EXPECT_EQ(str(A, "uri"), "file:///usr/include/x.h");
  EXPECT_FALSE(A->getString("uriBaseId"));

  A = firstLocation(S.result(2))->getObject("artifactLocation");
  EXPECT_EQ(str(A, "uri"), "lib/a%3Ab.cu");
  const llvm::json::Object *Region =
      firstLocation(S.result(2))->getObject("region");
  EXPECT_EQ(num(Region, "startLine"), 5);
  EXPECT_FALSE(Region->get("startColumn"));

  // A check not known in advance gets a rule of its own.
  ASSERT_EQ(S.Rules->size(), NumCheckKinds + 1);
  EXPECT_EQ(num(S.result(3), "ruleIndex"), NumCheckKinds);
  EXPECT_EQ(str(S.rule(NumCheckKinds), "id"), "clang-diagnostic-error");

  // Without a repository root: no originalUriBaseIds.
  Ctx.RepoRoot.clear();
  Sarif NoRoot(render(OutputFormat::Sarif, {Outside, Relative}, Ctx));
  EXPECT_FALSE(NoRoot.Run->getObject("originalUriBaseIds"));
  EXPECT_EQ(str(firstLocation(NoRoot.result(0))->getObject("artifactLocation"),
                "uri"),
            "file:///usr/include/x.h");
}

TEST(OutputFormatsTest, SarifEmptyRun) {
  Sarif S(render(OutputFormat::Sarif, {}, context()));
  ASSERT_TRUE(S.Results);
  EXPECT_TRUE(S.Results->empty());
  EXPECT_EQ(S.Rules->size(), NumCheckKinds);
}

//===----------------------------------------------------------------------===//
// Fingerprints
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, FingerprintSurvivesLinesAddedAbove) {
  std::string Shifted = std::string("// a new comment\n\n") + KernelSource;
  ReportedFinding F = bankConflict();
  ReportedFinding Moved = F;
  Moved.Loc.Line += 2;
  Moved.Notes[0].Loc.Line += 2;
  EXPECT_EQ(findingFingerprint(F, context()),
            findingFingerprint(Moved, context(Shifted)));

  Sarif Before(render(OutputFormat::Sarif, {F}, context()));
  Sarif After(render(OutputFormat::Sarif, {Moved}, context(Shifted)));
  EXPECT_EQ(fingerprintOf(Before.result(0)), fingerprintOf(After.result(0)));
  EXPECT_TRUE(llvm::StringRef(fingerprintOf(Before.result(0))).ends_with(":1"));

  // Reindenting the line keeps it too; changing it does not.
  std::string Reindented = KernelSource;
  Reindented.replace(Reindented.find("  float v"), 2, "\t\t");
  EXPECT_EQ(findingFingerprint(F, context()),
            findingFingerprint(F, context(Reindented)));
  std::string Edited = KernelSource;
  Edited.replace(Edited.find("tile[i][0]"), 10, "tile[i][1]");
  EXPECT_NE(findingFingerprint(F, context()),
            findingFingerprint(F, context(Edited)));
}

TEST(OutputFormatsTest, FingerprintInputs) {
  ReportedFinding F = bankConflict();
  std::string Base = findingFingerprint(F, context());
  EXPECT_EQ(Base.size(), 32u);
  EXPECT_TRUE(llvm::all_of(Base, llvm::isHexDigit));

  ReportedFinding G = F; // Numbers in the message count.
  G.Message = "16-way bank conflict on 'tile' (16 wavefronts, ideal 1)";
  EXPECT_NE(findingFingerprint(G, context()), Base);
  G = F;
  G.Check = "shmem-race";
  EXPECT_NE(findingFingerprint(G, context()), Base);
  G = F; // Another file with the same text.
  G.Loc.File = "/repo/src/other.cu";
  OutputContext Two = context();
  Two.ReadFile = readerFor(
      {{"/repo/src/k.cu", KernelSource}, {"/repo/src/other.cu", KernelSource}});
  EXPECT_NE(findingFingerprint(G, Two), findingFingerprint(F, Two));
  // The checkout's location does not matter; the column does not either.
  G = F;
  G.Loc = {"/home/ci/work/src/k.cu", 3, 14};
  OutputContext Elsewhere = context();
  Elsewhere.RepoRoot = "/home/ci/work/";
  Elsewhere.ReadFile = readerFor({{"/home/ci/work/src/k.cu", KernelSource}});
  EXPECT_EQ(findingFingerprint(G, Elsewhere), Base);
  // Notes, fixes and detail do not count.
  G = F;
  G.Notes.clear();
  G.Fixes.clear();
  G.Detail.clear();
  EXPECT_EQ(findingFingerprint(G, context()), Base);
  // An unreadable file still gets a fingerprint, without the line text.
  OutputContext Unreadable = context();
  Unreadable.ReadFile = readerFor({});
  EXPECT_NE(findingFingerprint(F, Unreadable), Base);
  EXPECT_EQ(findingFingerprint(F, Unreadable).size(), 32u);
}

TEST(OutputFormatsTest, FingerprintsOfTwinFindingsDiffer) {
  // Two identical lines in one file, one message each.
  OutputContext Ctx = context("x = tile[i];\nx = tile[i];\n");
  ReportedFinding A = race(), B = race();
  A.Loc.Line = 1;
  B.Loc.Line = 2;
  Sarif S(render(OutputFormat::Sarif, {A, B}, Ctx));
  std::string FA = fingerprintOf(S.result(0)), FB = fingerprintOf(S.result(1));
  EXPECT_EQ(llvm::StringRef(FA).rsplit(':').first,
            llvm::StringRef(FB).rsplit(':').first);
  EXPECT_TRUE(llvm::StringRef(FA).ends_with(":1"));
  EXPECT_TRUE(llvm::StringRef(FB).ends_with(":2"));

  llvm::json::Value GL = parseJson(render(OutputFormat::GitLab, {A, B}, Ctx));
  const llvm::json::Array *Arr = GL.getAsArray();
  ASSERT_TRUE(Arr && Arr->size() == 2);
  EXPECT_NE(str((*Arr)[0].getAsObject(), "fingerprint"),
            str((*Arr)[1].getAsObject(), "fingerprint"));
}

//===----------------------------------------------------------------------===//
// SARIF against the schema
//===----------------------------------------------------------------------===//

#ifdef SHMEM_LINT_SARIF_DIR
/// Runs validate_sarif.py on \p Text; its exit status.
int validate(llvm::StringRef Text, llvm::StringRef Extra = "--github") {
  llvm::SmallString<128> Path;
  int FD = -1;
  if (llvm::sys::fs::createTemporaryFile("shmem-lint", "sarif", FD, Path)) {
    ADD_FAILURE() << "cannot create a temporary file";
    return -1;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  std::string Dir = SHMEM_LINT_SARIF_DIR;
  std::string Cmd = std::string(SHMEM_LINT_PYTHON) + " '" + Dir +
                    "/validate_sarif.py' " + Extra.str() + " '" + Dir +
                    "/sarif-schema-2.1.0.json' '" + std::string(Path) + "'";
  int Status = std::system(Cmd.c_str());
  llvm::sys::fs::remove(Path);
#ifdef WEXITSTATUS
  if (Status != -1 && WIFEXITED(Status))
    return WEXITSTATUS(Status);
#endif
  return Status;
}

TEST(OutputFormatsTest, SarifValidatesAgainstTheSchema) {
  OutputContext Ctx = context();
  Ctx.Verbose = true;
  ReportedFinding Outside = race();
  Outside.Loc = {"/usr/include/x.h", 4, 2};
  ReportedFinding Unknown = bankConflict();
  Unknown.Check = "clang-diagnostic-error";
  ReportedFinding Fixes2Files = bankConflict();
  Fixes2Files.Fixes.push_back({"/repo/include/t.h", 0, 0, 1, 1, "// x\n"});
  std::string Text = render(
      OutputFormat::Sarif, {bankConflict(), race(), Unknown, Fixes2Files}, Ctx);
  int Status = validate(Text);
  ASSERT_NE(Status, 77) << "Python's jsonschema module is missing: "
                           "apt-get install python3-jsonschema";
  EXPECT_EQ(Status, 0) << Text;
  // Outside the repository: valid SARIF, but no place on GitHub.
  Text = render(OutputFormat::Sarif, {Outside}, Ctx);
  EXPECT_EQ(validate(Text, ""), 0) << Text;
  EXPECT_EQ(validate(Text, "--github"), 1) << Text;
  EXPECT_EQ(validate(render(OutputFormat::Sarif, {}, Ctx)), 0);
}

TEST(OutputFormatsTest, ValidatorRejectsBadSarif) {
  // So that a passing validation means something.
  EXPECT_EQ(validate("{\"version\": \"2.1.0\"}", ""), 1);
  EXPECT_EQ(validate("{\"version\": \"2.0.0\", \"runs\": []}", ""), 1);
  std::string Text = render(OutputFormat::Sarif, {race()}, context());
  std::string Bad = Text;
  Bad.replace(Bad.find("\"level\": \"warning\""), 18, "\"level\": \"loud\"");
  EXPECT_EQ(validate(Bad, ""), 1);
  Bad = Text;
  Bad.replace(Bad.find("\"startLine\""), 11, "\"startLineX\"");
  EXPECT_EQ(validate(Bad, ""), 1);
}
#else
TEST(OutputFormatsTest, SarifValidatesAgainstTheSchema) {
  GTEST_SKIP() << "built without SHMEM_LINT_SARIF_DIR";
}
#endif

//===----------------------------------------------------------------------===//
// GitHub
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, GitHub) {
  OutputContext Ctx = context();
  EXPECT_EQ(render(OutputFormat::GitHub, {bankConflict(), race()}, Ctx),
            "::warning file=src/k.cu,line=3,col=13,title=shmem-bank-conflict::"
            "32-way bank conflict on 'tile' (32 wavefronts, ideal 1)%0A"
            "note: src/k.cu:1:20: 'tile' declared here\n"
            "::warning file=src/k.cu,line=2,col=3,title=shmem-race::"
            "write to 'tile' races with the read at line 3\n");
  Ctx.Verbose = true;
  ReportedFinding F = race();
  F.Detail = "a\nb";
  EXPECT_EQ(render(OutputFormat::GitHub, {F}, Ctx),
            "::warning file=src/k.cu,line=2,col=3,title=shmem-race::"
            "write to 'tile' races with the read at line 3%0Aa%0Ab\n");
}

TEST(OutputFormatsTest, GitHubSaysWhenThereAreMoreThanItAnnotates) {
  std::vector<ReportedFinding> Ten(GitHubAnnotationsPerStep, race());
  std::string Out = render(OutputFormat::GitHub, Ten, context());
  EXPECT_EQ(Out.find("::notice"), std::string::npos);
  std::vector<ReportedFinding> Eleven(GitHubAnnotationsPerStep + 1, race());
  Out = render(OutputFormat::GitHub, Eleven, context());
  llvm::StringRef Last = llvm::StringRef(Out).rtrim('\n').rsplit('\n').second;
  EXPECT_EQ(Last, "::notice title=shmem-lint::11 findings; GitHub annotates "
                  "only the first 10 warnings of a step. Every finding is in "
                  "this step's log; upload --format=sarif to code scanning "
                  "to see them all on the pull request.");
  EXPECT_EQ(llvm::StringRef(Out).count("::warning "), 11u);
}

TEST(OutputFormatsTest, GitHubEscaping) {
  EXPECT_EQ(escapeGitHubData("100% of\r\nlanes: a,b"),
            "100%25 of%0D%0Alanes: a,b");
  EXPECT_EQ(escapeGitHubProperty("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");

  ReportedFinding F = race();
  F.Loc = {"/repo/src/a,b:c.cu", 7, 0};
  F.Message = "50% of\nlanes";
  EXPECT_EQ(render(OutputFormat::GitHub, {F}, context()),
            "::warning file=src/a%2Cb%3Ac.cu,line=7,title=shmem-race::"
            "50%25 of%0Alanes\n");
  F.Loc = {"/repo/x.cu", 0, 0};
  EXPECT_EQ(render(OutputFormat::GitHub, {F}, context()),
            "::warning file=x.cu,title=shmem-race::50%25 of%0Alanes\n");
}

//===----------------------------------------------------------------------===//
// GitLab and JSON
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, GitLabCodeQuality) {
  ReportedFinding Unknown = race();
  Unknown.Check = "clang-diagnostic-error";
  Unknown.Loc.Line = 0;
  llvm::json::Value V = parseJson(render(
      OutputFormat::GitLab, {bankConflict(), race(), Unknown}, context()));
  const llvm::json::Array *A = V.getAsArray();
  ASSERT_TRUE(A && A->size() == 3);

  const llvm::json::Object *O = (*A)[0].getAsObject();
  EXPECT_EQ(str(O, "description"),
            "32-way bank conflict on 'tile' (32 wavefronts, ideal 1)");
  EXPECT_EQ(str(O, "check_name"), "shmem-bank-conflict");
  EXPECT_EQ(str(O, "severity"), "minor");
  EXPECT_EQ(str(O, "fingerprint"),
            findingFingerprint(bankConflict(), context()));
  EXPECT_EQ(str(O->getObject("location"), "path"), "src/k.cu");
  EXPECT_EQ(num(O->getObject("location")->getObject("lines"), "begin"), 3);
  EXPECT_EQ(O->size(), 5u); // Nothing GitLab does not know.

  O = (*A)[1].getAsObject();
  EXPECT_EQ(str(O, "severity"), "major");
  EXPECT_EQ(num(O->getObject("location")->getObject("lines"), "begin"), 2);

  O = (*A)[2].getAsObject();
  EXPECT_EQ(str(O, "severity"), "minor");
  EXPECT_EQ(num(O->getObject("location")->getObject("lines"), "begin"), 1);

  V = parseJson(render(OutputFormat::GitLab, {}, context()));
  ASSERT_TRUE(V.getAsArray());
  EXPECT_TRUE(V.getAsArray()->empty());
}

TEST(OutputFormatsTest, Json) {
  llvm::json::Value V = parseJson(
      render(OutputFormat::Json, {bankConflict(), race()}, context()));
  const llvm::json::Array *A = V.getAsArray();
  ASSERT_TRUE(A && A->size() == 2);
  const llvm::json::Object *O = (*A)[0].getAsObject();
  EXPECT_EQ(str(O, "check"), "shmem-bank-conflict");
  EXPECT_EQ(str(O, "file"), "/repo/src/k.cu");
  EXPECT_EQ(str(O, "path"), "src/k.cu");
  EXPECT_EQ(num(O, "line"), 3);
  EXPECT_EQ(num(O, "column"), 13);
  EXPECT_EQ(str(O, "message"),
            "32-way bank conflict on 'tile' (32 wavefronts, ideal 1)");
  EXPECT_EQ(str(O, "detail"), "lane 0 -> bank 0\nlane 1 -> bank 0\n");
  EXPECT_EQ(str(O, "fingerprint"),
            findingFingerprint(bankConflict(), context()));
  const llvm::json::Object *N = (*O->getArray("notes"))[0].getAsObject();
  EXPECT_EQ(str(N, "file"), "/repo/src/k.cu");
  EXPECT_EQ(num(N, "line"), 1);
  EXPECT_EQ(num(N, "column"), 20);
  EXPECT_EQ(str(N, "message"), "'tile' declared here");
  const llvm::json::Object *X = (*O->getArray("fixes"))[0].getAsObject();
  EXPECT_EQ(str(X, "file"), "/repo/src/k.cu");
  EXPECT_EQ(num(X, "offset"), 28);
  EXPECT_EQ(num(X, "length"), 2);
  EXPECT_EQ(num(X, "line"), 1);
  EXPECT_EQ(num(X, "column"), 29);
  EXPECT_EQ(str(X, "replacement"), "33");
  O = (*A)[1].getAsObject();
  EXPECT_TRUE(O->getArray("notes")->empty());
  EXPECT_TRUE(O->getArray("fixes")->empty());
  EXPECT_EQ(str(O, "detail"), "");
}

/// bankConflict() as --sass and --ncu-report leave it.
ReportedFinding withEvidence() {
  ReportedFinding F = bankConflict();
  CompiledEvidence C;
  C.Listing = "PTX";
  C.Arch = "sm_80";
  SharedInstruction I;
  I.Name = "ld.shared.f32";
  I.WidthBytes = 4;
  C.Instructions = {I};
  C.AssumedWidth = 4;
  F.Compiled = C;
  MeasuredEvidence M;
  M.Report = "rep.csv";
  M.Found = true;
  M.Wavefronts = 4096;
  M.Ideal = 128;
  M.Executions = 128;
  M.Opcodes = {"LDS"};
  M.PredictedWavefronts = 32;
  M.PredictedIdeal = 1;
  F.Measured = M;
  return F;
}

TEST(OutputFormatsTest, CompiledAndMeasuredInEveryFormat) {
  const std::string Compiled = "nvcc emits 'ld.shared.f32' (4 bytes) at this "
                               "line (PTX, sm_80), the width the prediction "
                               "assumed";
  const std::string Measured =
      "ncu measured 32 wavefronts per warp-wide load at this line where 1 "
      "is ideal (4096 wavefronts, 128 ideal, over 128 executions of LDS; in "
      "'rep.csv'); the prediction is 32 where 1 is ideal, which agrees";
  // Text: notes at the finding, after its own, without the source again.
  std::string Text = render(OutputFormat::Text, {withEvidence()}, context());
  EXPECT_NE(Text.find("      |                             33\n"
                      "/repo/src/k.cu:3:13: note: " + Compiled + "\n" +
                      "/repo/src/k.cu:3:13: note: " + Measured + "\n"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.substr(Text.size() - Measured.size() - 1), Measured + "\n");

  // JSON: the fields and the note.
  llvm::json::Value V =
      parseJson(render(OutputFormat::Json, {withEvidence()}, context()));
  const llvm::json::Object *O = (*V.getAsArray())[0].getAsObject();
  const llvm::json::Object *C = O->getObject("compiled");
  ASSERT_TRUE(C);
  EXPECT_EQ(str(C, "listing"), "ptx");
  EXPECT_EQ(str(C, "note"), Compiled);
  EXPECT_EQ(C->getBoolean("width_differs"), false);
  const llvm::json::Object *I =
      (*C->getArray("instructions"))[0].getAsObject();
  EXPECT_EQ(str(I, "name"), "ld.shared.f32");
  EXPECT_EQ(num(I, "width_bytes"), 4);
  const llvm::json::Object *M = O->getObject("measured");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getNumber("wavefronts"), 4096);
  EXPECT_EQ(M->getNumber("ideal_wavefronts"), 128);
  EXPECT_EQ(M->getBoolean("agrees"), true);
  EXPECT_EQ(str(M, "note"), Measured);
  // The fingerprint is the finding's, evidence or not.
  EXPECT_EQ(str(O, "fingerprint"),
            findingFingerprint(bankConflict(), context()));

  // SARIF: in the result's properties.
  llvm::json::Value L =
      parseJson(render(OutputFormat::Sarif, {withEvidence()}, context()));
  const llvm::json::Object *Run =
      (*L.getAsObject()->getArray("runs"))[0].getAsObject();
  const llvm::json::Object *R =
      (*Run->getArray("results"))[0].getAsObject();
  const llvm::json::Object *P = R->getObject("properties");
  ASSERT_TRUE(P);
  EXPECT_EQ(str(P->getObject("compiled"), "note"), Compiled);
  EXPECT_EQ(P->getObject("measured")->getNumber("executions"), 128);

  // GitHub: folded into the annotation as the notes are.
  std::string G = render(OutputFormat::GitHub, {withEvidence()}, context());
  EXPECT_NE(G.find("%0Anote: nvcc emits 'ld.shared.f32'"), std::string::npos)
      << G;

  // Without them, nothing of either anywhere.
  for (OutputFormat Format : {OutputFormat::Text, OutputFormat::Json,
                              OutputFormat::Sarif, OutputFormat::GitHub}) {
    std::string Out = render(Format, {bankConflict()}, context());
    EXPECT_EQ(Out.find("nvcc emits"), std::string::npos);
    EXPECT_EQ(Out.find("\"measured\""), std::string::npos);
  }
}

//===----------------------------------------------------------------------===//
// Paths
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, RepoRelativePath) {
  EXPECT_EQ(repoRelativePath("/repo/src/k.cu", "/repo"), "src/k.cu");
  EXPECT_EQ(repoRelativePath("/repo/src/k.cu", "/repo/"), "src/k.cu");
  EXPECT_EQ(repoRelativePath("/repo/src/../inc/./t.h", "/repo"), "inc/t.h");
  EXPECT_EQ(repoRelativePath("/repository/k.cu", "/repo"), "/repository/k.cu");
  EXPECT_EQ(repoRelativePath("/usr/include/x.h", "/repo"), "/usr/include/x.h");
  EXPECT_EQ(repoRelativePath("src/./k.cu", "/repo"), "src/k.cu");
  EXPECT_EQ(repoRelativePath("/repo/src/k.cu", ""), "/repo/src/k.cu");
  EXPECT_EQ(repoRelativePath("/k.cu", "/"), "k.cu");
}

//===----------------------------------------------------------------------===//
// clang-tidy --export-fixes
//===----------------------------------------------------------------------===//

TEST(OutputFormatsTest, ExportFixesYaml) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeExportFixesYaml(OS, "/repo/src/k.cu", {bankConflict(), race()},
                       "/repo/build", fileOffsetResolver(context().ReadFile));
  // Offsets: line 3 starts at 56, column 13 -> 68; line 1 column 20 -> 19;
  // line 2 starts at 33, column 3 -> 35.
  EXPECT_EQ(llvm::StringRef(KernelSource).find("tile[i]"), 68u);
  EXPECT_EQ(S, "---\n"
               "MainSourceFile:  '/repo/src/k.cu'\n"
               "Diagnostics:\n"
               "  - DiagnosticName:  shmem-bank-conflict\n"
               "    DiagnosticMessage:\n"
               "      Message:         '32-way bank conflict on ''tile'' (32 "
               "wavefronts, ideal 1)'\n"
               "      FilePath:        '/repo/src/k.cu'\n"
               "      FileOffset:      68\n"
               "      Replacements:\n"
               "        - FilePath:        '/repo/src/k.cu'\n"
               "          Offset:          28\n"
               "          Length:          2\n"
               "          ReplacementText: '33'\n"
               "    Notes:\n"
               "      - Message:         '''tile'' declared here'\n"
               "        FilePath:        '/repo/src/k.cu'\n"
               "        FileOffset:      19\n"
               "        Replacements:    []\n"
               "    Level:           Warning\n"
               "    BuildDirectory:  '/repo/build'\n"
               "  - DiagnosticName:  shmem-race\n"
               "    DiagnosticMessage:\n"
               "      Message:         'write to ''tile'' races with the read "
               "at line 3'\n"
               "      FilePath:        '/repo/src/k.cu'\n"
               "      FileOffset:      35\n"
               "      Replacements:    []\n"
               "    Level:           Warning\n"
               "    BuildDirectory:  '/repo/build'\n"
               "...\n");
}

TEST(OutputFormatsTest, ExportFixesOffsetsFromDisk) {
  llvm::SmallString<128> Path;
  int FD = -1;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("shmem-lint", "cu", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "a\r\nbc\r\n  d\n";
  }
  OffsetResolver R = fileOffsetResolver();
  EXPECT_EQ(R(Path, 1, 1), 0u);
  EXPECT_EQ(R(Path, 2, 2), 4u);
  EXPECT_EQ(R(Path, 3, 3), 9u);
  EXPECT_EQ(R(Path, 4, 1), std::nullopt);
  EXPECT_EQ(R(Path, 0, 1), std::nullopt);
  EXPECT_EQ(R("/no/such/file.cu", 1, 1), std::nullopt);

  ReportedFinding F = race();
  F.Loc = {std::string(Path), 3, 3};
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeExportFixesYaml(OS, Path, {F});
  EXPECT_TRUE(llvm::StringRef(S).contains("FileOffset:      9\n")) << S;
  EXPECT_TRUE(llvm::StringRef(S).contains("BuildDirectory:  ''\n")) << S;
  llvm::sys::fs::remove(Path);

  // Unknown offsets are 0, as clang-tidy writes for no location.
  S.clear();
  F.Loc = {"/no/such/file.cu", 3, 3};
  writeExportFixesYaml(OS, "/no/such/file.cu", {F});
  EXPECT_TRUE(llvm::StringRef(S).contains("FileOffset:      0\n")) << S;
}

TEST(OutputFormatsTest, ExportFixesEmpty) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeExportFixesYaml(OS, "/repo/src/k.cu", {});
  EXPECT_EQ(S, "---\n"
               "MainSourceFile:  '/repo/src/k.cu'\n"
               "Diagnostics:     []\n"
               "...\n");
}

} // namespace

//===----------------------------------------------------------------------===//
// Parts of kernels not analysed (gaps)
//===----------------------------------------------------------------------===//

namespace {
ReportedGap raceGap() {
  ReportedGap G;
  G.Check = "shmem-race";
  G.Loc = {"/repo/src/k.cu", 3, 13};
  G.What = "race pairs after the first 34 not analysed";
  G.Why = "probe budget reached";
  G.Kernel = "k";
  G.Block = "1024";
  G.Notes.push_back({{"/repo/src/k.cu", 1, 3},
                     "kernel 'k' not fully analysed for a block of 1024 "
                     "threads (assumed)"});
  return G;
}

std::string renderWithGap(OutputFormat Format,
                          llvm::ArrayRef<ReportedFinding> Findings) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  ReportedGap G = raceGap();
  writeFindings(OS, Format, Findings, context(), {G});
  return S;
}
} // namespace

// A gap is said in every format, and the findings around it are written
// exactly as without it (it comes after them and is never one).
TEST(AnalysisGaps, EveryFormatSaysItAndFindingsStayTheSame) {
  std::vector<ReportedFinding> Fs = {bankConflict(), race()};
  std::string Text = renderWithGap(OutputFormat::Text, Fs);
  std::string Plain = render(OutputFormat::Text, Fs, context());
  EXPECT_EQ(Text.substr(0, Plain.size()), Plain);
  EXPECT_NE(Text.find("src/k.cu:3:13: remark: race pairs after the first 34 "
                      "not analysed: probe budget reached [shmem-race]"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Plain.find("remark:"), std::string::npos);

  for (OutputFormat F : {OutputFormat::Sarif, OutputFormat::GitHub,
                         OutputFormat::GitLab, OutputFormat::Json,
                         OutputFormat::Html}) {
    std::string With = renderWithGap(F, Fs);
    std::string Without = render(F, Fs, context());
    EXPECT_NE(With.find("probe budget reached"), std::string::npos)
        << outputFormatName(F).str();
    EXPECT_EQ(Without.find("probe budget reached"), std::string::npos)
        << outputFormatName(F).str();
  }

  // JSON: the findings' elements are unchanged and first; the gap has a
  // kind and no "check" key.
  llvm::json::Value With = parseJson(renderWithGap(OutputFormat::Json, Fs));
  llvm::json::Value Without =
      parseJson(render(OutputFormat::Json, Fs, context()));
  const llvm::json::Array *A = With.getAsArray(), *B = Without.getAsArray();
  ASSERT_TRUE(A && B);
  ASSERT_EQ(A->size(), B->size() + 1);
  for (size_t I = 0; I < B->size(); ++I)
    EXPECT_EQ((*A)[I], (*B)[I]);
  const llvm::json::Object *Gap = A->back().getAsObject();
  EXPECT_EQ(str(Gap, "kind"), "gap");
  EXPECT_EQ(str(Gap, "for_check"), "shmem-race");
  EXPECT_EQ(str(Gap, "reason"), "probe budget reached");
  EXPECT_FALSE(Gap && Gap->get("check"));

  // SARIF: a notification of a successful invocation, no extra result.
  llvm::json::Value S = parseJson(renderWithGap(OutputFormat::Sarif, Fs));
  const llvm::json::Object *Run =
      (*S.getAsObject()->getArray("runs"))[0].getAsObject();
  ASSERT_TRUE(Run);
  EXPECT_EQ(Run->getArray("results")->size(), 2u);
  const llvm::json::Object *Inv =
      (*Run->getArray("invocations"))[0].getAsObject();
  ASSERT_TRUE(Inv);
  EXPECT_EQ(Inv->getBoolean("executionSuccessful"), std::optional<bool>(true));
  const llvm::json::Array *N = Inv->getArray("toolExecutionNotifications");
  ASSERT_TRUE(N && N->size() == 1);
  const llvm::json::Object *Note = (*N)[0].getAsObject();
  EXPECT_EQ(str(Note, "level"), "warning");
  EXPECT_EQ(str(Note->getObject("descriptor"), "id"), AnalysisGapId);
  EXPECT_EQ(str(Note->getObject("associatedRule"), "id"), "shmem-race");
}

// clang-tidy's YAML: the gap is an entry of level Remark after the findings.
TEST(AnalysisGaps, ExportFixesYamlHasARemark) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeExportFixesYaml(OS, "/repo/src/k.cu", {bankConflict()}, "/repo",
                       fileOffsetResolver(context().ReadFile), {raceGap()});
  size_t Warning = S.find("Level:           Warning");
  size_t Remark = S.find("Level:           Remark");
  EXPECT_NE(Warning, std::string::npos) << S;
  EXPECT_NE(Remark, std::string::npos) << S;
  EXPECT_LT(Warning, Remark);
}

//===----------------------------------------------------------------------===//
// Warnings as errors
//===----------------------------------------------------------------------===//

// clang-tidy's `error:` in clang's red, the check marked as clang-tidy 22
// marks it; notes are unchanged, and a finding not promoted next to it stays
// a warning.
TEST(WarningsAsErrors, TextIsClangTidysError) {
  OutputContext Ctx = context();
  Ctx.ShowSource = false;
  ReportedFinding F = bankConflict();
  F.WarningAsError = true;
  EXPECT_EQ(render(OutputFormat::Text, {F, race()}, Ctx),
            "/repo/src/k.cu:3:13: error: 32-way bank conflict on 'tile' "
            "(32 wavefronts, ideal 1) "
            "[shmem-bank-conflict,-warnings-as-errors]\n"
            "/repo/src/k.cu:1:20: note: 'tile' declared here\n"
            "/repo/src/k.cu:2:3: warning: write to 'tile' races with the "
            "read at line 3 [shmem-race]\n");
  Ctx.Color = true;
  F.Notes.clear();
  F.Message = "m";
  EXPECT_EQ(render(OutputFormat::Text, {F}, Ctx),
            "\033[1m/repo/src/k.cu:3:13: \033[0m\033[0;1;31merror: \033[0m"
            "\033[1mm [shmem-bank-conflict,-warnings-as-errors]\033[0m\n");
}

// GitHub annotates 10 warnings and 10 errors of a step, each counted apart.
TEST(WarningsAsErrors, GitHubErrorsAndTheirOwnLimit) {
  ReportedFinding E = race();
  E.WarningAsError = true;
  std::vector<ReportedFinding> Both(GitHubAnnotationsPerStep, race());
  Both.insert(Both.end(), GitHubAnnotationsPerStep, E);
  std::string Out = render(OutputFormat::GitHub, Both, context());
  EXPECT_EQ(llvm::StringRef(Out).count("::warning "), 10u);
  EXPECT_EQ(llvm::StringRef(Out).count("::error "), 10u);
  EXPECT_EQ(Out.find("::notice"), std::string::npos);
  Both.push_back(E);
  Out = render(OutputFormat::GitHub, Both, context());
  EXPECT_NE(Out.find("::notice title=shmem-lint::21 findings"),
            std::string::npos);
}

// Every machine format says which findings are errors; the YAML as
// clang-tidy exports a promoted warning.
TEST(WarningsAsErrors, MachineFormatsMarkOnlyThePromoted) {
  ReportedFinding E = race();
  E.WarningAsError = true;
  OutputContext Ctx = context();
  Sarif S(render(OutputFormat::Sarif, {bankConflict(), E}, Ctx));
  EXPECT_EQ(str(S.result(0), "level"), "warning");
  EXPECT_EQ(str(S.result(1), "level"), "error");

  llvm::json::Value J =
      parseJson(render(OutputFormat::Json, {bankConflict(), E}, Ctx));
  const llvm::json::Array *A = J.getAsArray();
  ASSERT_TRUE(A && A->size() == 2);
  EXPECT_EQ(str((*A)[0].getAsObject(), "level"), "warning");
  EXPECT_EQ(str((*A)[1].getAsObject(), "level"), "error");

  llvm::json::Value G =
      parseJson(render(OutputFormat::GitLab, {bankConflict(), E}, Ctx));
  const llvm::json::Array *GA = G.getAsArray();
  ASSERT_TRUE(GA && GA->size() == 2);
  EXPECT_EQ(str((*GA)[0].getAsObject(), "severity"), "minor");
  EXPECT_EQ(str((*GA)[1].getAsObject(), "severity"), "critical");

  std::string Y;
  llvm::raw_string_ostream OS(Y);
  writeExportFixesYaml(OS, "/repo/src/k.cu", {bankConflict(), E}, "",
                       [](llvm::StringRef, unsigned, unsigned) {
                         return std::optional<unsigned>(0);
                       });
  llvm::StringRef Text(Y);
  size_t Race = Text.find("DiagnosticName:  shmem-race");
  ASSERT_NE(Race, llvm::StringRef::npos);
  EXPECT_NE(Text.take_front(Race).find("Level:           Warning"),
            llvm::StringRef::npos);
  EXPECT_NE(Text.drop_front(Race).find("Level:           Error"),
            llvm::StringRef::npos);
}
