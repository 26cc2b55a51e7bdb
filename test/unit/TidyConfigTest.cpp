//===- TidyConfigTest.cpp - shmem-* settings from .clang-tidy files -------===//

#include "TidyConfig.h"

#include "Analysis/CheckOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

#include <set>

using namespace shmem;

namespace {

TidyConfigFile parse(llvm::StringRef Text) {
  TidyConfigFile F;
  std::string Error;
  EXPECT_TRUE(parseTidyConfig(Text, F, Error)) << Error;
  return F;
}

std::string parseError(llvm::StringRef Text) {
  TidyConfigFile F;
  std::string Error;
  EXPECT_FALSE(parseTidyConfig(Text, F, Error));
  return Error;
}

using Globs = std::vector<std::string>;
using Options = std::vector<std::pair<std::string, std::string>>;

unsigned bit(CheckKind K) { return static_cast<unsigned>(K); }

} // namespace

TEST(TidyConfigTest, ChecksInEveryShape) {
  EXPECT_EQ(*parse("Checks: '-*,shmem-*'").Checks, (Globs{"-*", "shmem-*"}));
  EXPECT_EQ(*parse("Checks: >\n  -*,\n  shmem-bank-conflict,\n"
                   "  -shmem-race\n")
                 .Checks,
            (Globs{"-*", "shmem-bank-conflict", "-shmem-race"}));
  EXPECT_EQ(*parse("Checks: |\n  -*\n  shmem-*\n").Checks,
            (Globs{"-*", "shmem-*"}));
  EXPECT_EQ(*parse("Checks: [ '-*', shmem-race ]").Checks,
            (Globs{"-*", "shmem-race"}));
  EXPECT_EQ(*parse("Checks:\n  - -*\n  - 'shmem-*, -shmem-race'\n").Checks,
            (Globs{"-*", "shmem-*", "-shmem-race"}));
  EXPECT_FALSE(parse("WarningsAsErrors: '*'").Checks.has_value());
  EXPECT_EQ(splitCheckGlobs(" a ,, b\n c,"), (Globs{"a", "b", "c"}));
}

// WarningsAsErrors is a check list like Checks, in the same shapes, and
// concatenated outermost first under InheritParentConfig, as clang-tidy
// merges it.
TEST(TidyConfigTest, WarningsAsErrorsLikeChecks) {
  EXPECT_EQ(*parse("WarningsAsErrors: 'shmem-*,-shmem-race'").WarningsAsErrors,
            (Globs{"shmem-*", "-shmem-race"}));
  EXPECT_EQ(*parse("WarningsAsErrors: [ shmem-race ]").WarningsAsErrors,
            (Globs{"shmem-race"}));
  EXPECT_TRUE(parse("WarningsAsErrors: ''").WarningsAsErrors->empty());
  EXPECT_FALSE(parse("Checks: '*'").WarningsAsErrors.has_value());
  EXPECT_EQ(parseError("WarningsAsErrors: {a: b}\n"),
            "'WarningsAsErrors' must be a string or a list of strings");

  llvm::StringMap<std::string> Disk = {
      {"/p/.clang-tidy", "WarningsAsErrors: 'shmem-*'\n"},
      {"/p/a/.clang-tidy", "InheritParentConfig: true\n"
                           "WarningsAsErrors: -shmem-race\n"},
      {"/p/own/.clang-tidy", "Checks: 'shmem-*'\n"},
  };
  TidyConfigFinder Finder([&](llvm::StringRef Path)
                              -> std::optional<std::string> {
    auto It = Disk.find(Path);
    if (It == Disk.end())
      return std::nullopt;
    return It->second;
  });
  EXPECT_EQ(Finder.forFile("/p/k.cu").WarningsAsErrorsGlobs,
            (Globs{"shmem-*"}));
  EXPECT_EQ(Finder.forFile("/p/a/k.cu").WarningsAsErrorsGlobs,
            (Globs{"shmem-*", "-shmem-race"}));
  // The nearest file without the key promotes nothing.
  EXPECT_TRUE(Finder.forFile("/p/own/k.cu").WarningsAsErrorsGlobs.empty());
}

TEST(TidyConfigTest, CheckOptionsInBothForms) {
  EXPECT_EQ(parse("CheckOptions:\n"
                  "  - key: shmem-bank-conflict.MinDegree\n"
                  "    value: 64\n"
                  "  - {key: shmem-race.BlockDim, value: '32x8'}\n")
                .CheckOptions,
            (Options{{"shmem-bank-conflict.MinDegree", "64"},
                     {"shmem-race.BlockDim", "32x8"}}));
  EXPECT_EQ(parse("CheckOptions:\n"
                  "  shmem-bank-conflict.MinDegree: 64\n"
                  "  readability-x.Y: \"a b\"\n")
                .CheckOptions,
            (Options{{"shmem-bank-conflict.MinDegree", "64"},
                     {"readability-x.Y", "a b"}}));
  EXPECT_EQ(parse("CheckOptions: {shmem-race.ReportBenign: true}").CheckOptions,
            (Options{{"shmem-race.ReportBenign", "true"}}));
  EXPECT_TRUE(parse("CheckOptions:\n").CheckOptions.empty());
}

TEST(TidyConfigTest, OtherSettingsAndEmptyFiles) {
  TidyConfigFile F = parse("---\nInheritParentConfig: true\n"
                           "HeaderFilterRegex: '.*'\n"
                           "FormatStyle: {BasedOnStyle: LLVM}\n"
                           "ExtraArgs: [-Wall]\n...\n");
  EXPECT_TRUE(F.InheritParentConfig);
  EXPECT_FALSE(F.Checks.has_value());
  EXPECT_TRUE(parse("").CheckOptions.empty());
  EXPECT_TRUE(parse("# only a comment\n").CheckOptions.empty());
}

TEST(TidyConfigTest, BadFilesSayWhy) {
  EXPECT_NE(parseError("Checks: [unclosed\n"), "");
  EXPECT_EQ(parseError("- a\n- b\n"),
            "expected a mapping of clang-tidy settings");
  EXPECT_EQ(parseError("Checks: {a: b}\n"),
            "'Checks' must be a string or a list of strings");
  EXPECT_EQ(parseError("CheckOptions: [ {key: a} ]\n"),
            "each 'CheckOptions' entry must be {key: ..., value: ...}");
  EXPECT_EQ(parseError("CheckOptions: 3\n"),
            "'CheckOptions' must be a mapping or a list of {key, value}");
  EXPECT_EQ(parseError("InheritParentConfig: maybe\n"),
            "'InheritParentConfig' must be true or false");
}

TEST(TidyConfigTest, FinderTakesTheNearestFileAndInherits) {
  llvm::StringMap<std::string> Disk = {
      {"/p/.clang-tidy", "Checks: '-*,shmem-*'\n"
                         "CheckOptions: {shmem-bank-conflict.MinDegree: 4, "
                         "shmem-race.WarpSize: 32}\n"},
      {"/p/a/b/.clang-tidy", "InheritParentConfig: true\n"
                             "Checks: -shmem-race\n"
                             "CheckOptions: {shmem-bank-conflict.MinDegree: 8}\n"},
      {"/p/own/.clang-tidy", "CheckOptions: {shmem-race.ReportBenign: 1}\n"},
      {"/p/bad/.clang-tidy", "Checks: [\n"},
  };
  unsigned Reads = 0;
  TidyConfigFinder Finder([&](llvm::StringRef Path)
                              -> std::optional<std::string> {
    ++Reads;
    auto It = Disk.find(Path);
    if (It == Disk.end())
      return std::nullopt;
    return It->second;
  });

  const TidyConfig &Top = Finder.forFile("/p/k.cu");
  EXPECT_EQ(Top.Files, (Globs{"/p/.clang-tidy"}));
  EXPECT_EQ(Top.CheckGlobs, (Globs{"-*", "shmem-*"}));
  EXPECT_EQ(Top.Options.at("shmem-bank-conflict.MinDegree"), "4");

  // Nothing in /p/a: the parent's applies.
  EXPECT_EQ(Finder.forFile("/p/a/k.cu").Files, (Globs{"/p/.clang-tidy"}));

  const TidyConfig &Deep = Finder.forFile("/p/a/b/c/../k.cu");
  EXPECT_EQ(Deep.Files, (Globs{"/p/.clang-tidy", "/p/a/b/.clang-tidy"}));
  EXPECT_EQ(Deep.CheckGlobs, (Globs{"-*", "shmem-*", "-shmem-race"}));
  EXPECT_EQ(Deep.Options.at("shmem-bank-conflict.MinDegree"), "8");
  EXPECT_EQ(Deep.Options.at("shmem-race.WarpSize"), "32");

  // Without InheritParentConfig the nearest file stands alone.
  const TidyConfig &Own = Finder.forFile("/p/own/k.cu");
  EXPECT_EQ(Own.Files, (Globs{"/p/own/.clang-tidy"}));
  EXPECT_FALSE(Own.HasChecks);
  EXPECT_EQ(Own.Options.count("shmem-bank-conflict.MinDegree"), 0u);

  const TidyConfig &Bad = Finder.forFile("/p/bad/k.cu");
  ASSERT_EQ(Bad.Errors.size(), 1u);
  EXPECT_EQ(llvm::StringRef(Bad.Errors[0]).starts_with("/p/bad/.clang-tidy: "),
            true);

  EXPECT_TRUE(Finder.forFile("/elsewhere/k.cu").Files.empty());

  // Each directory is looked at once.
  unsigned Before = Reads;
  Finder.forFile("/p/a/b/k2.cu");
  Finder.forFile("/p/k2.cu");
  EXPECT_EQ(Reads, Before);

  EXPECT_EQ(Finder.forConfigFile("/p/own/.clang-tidy").Files,
            (Globs{"/p/own/.clang-tidy"}));
  EXPECT_EQ(Finder.forConfigFile("/nope").Errors.size(), 1u);
}

TEST(TidyConfigTest, CheckOptionsBecomeAnalysisOptions) {
  std::array<AnalysisOptions, NumCheckKinds> Per;
  std::vector<std::string> Warnings;
  applyCheckOptions({{"shmem-bank-conflict.MinDegree", "64"},
                     {"shmem-bank-conflict.ReportConditional", "false"},
                     {"shmem-bank-conflict.BlockDim", "32x8"},
                     {"shmem-race.ReportBenign", "1"},
                     {"shmem-race.ReportDataDependent", "true"},
                     {"shmem-race.WarpSize", "32"},
                     {"shmem-divergent-barrier.BlockDim", ""},
                     {"readability-foo.Bar", "x"}},
                    Per, Warnings);
  EXPECT_TRUE(Warnings.empty());
  const AnalysisOptions &Bank = Per[bit(CheckKind::BankConflict)];
  EXPECT_EQ(Bank.MinDegree, 64u);
  EXPECT_FALSE(Bank.ReportConditional);
  ASSERT_TRUE(Bank.BlockDim.has_value());
  EXPECT_EQ(*Bank.BlockDim, (Dim3{32, 8, 1}));
  const AnalysisOptions &Race = Per[bit(CheckKind::Race)];
  EXPECT_TRUE(Race.ReportBenign);
  EXPECT_TRUE(Race.ReportDataDependent);
  EXPECT_FALSE(Bank.ReportDataDependent);
  EXPECT_EQ(Race.WarpSize, 32u);
  EXPECT_EQ(Race.MinDegree, 2u); // Not the bank check's.
  EXPECT_FALSE(Per[bit(CheckKind::DivergentBarrier)].BlockDim.has_value());

  Warnings.clear();
  applyCheckOptions({{"shmem-bank-conflict.MinDegre", "64"},
                     {"shmem-bank-conflicts.MinDegree", "64"},
                     {"shmem-race.MinDegree", "64"},
                     {"shmem-race", "1"},
                     {"shmem-race.WarpSize", "0"},
                     {"shmem-race.BlockDim", "7x"},
                     {"shmem-race.ReportBenign", "sometimes"},
                     {"shmem-bank-conflict.MinDegree", "-1"}},
                    Per, Warnings);
  EXPECT_EQ(Warnings,
            (Globs{"unknown check option 'shmem-bank-conflict.MinDegre'",
                   "invalid value '-1' for 'shmem-bank-conflict.MinDegree'; "
                   "expected a number of at least 1",
                   "unknown check option 'shmem-bank-conflicts.MinDegree'",
                   "unknown check option 'shmem-race'",
                   "invalid value '7x' for 'shmem-race.BlockDim'; expected a "
                   "block shape such as 256 or 32x8",
                   "unknown check option 'shmem-race.MinDegree'",
                   "invalid value 'sometimes' for 'shmem-race.ReportBenign'; "
                   "expected true or false",
                   "invalid value '0' for 'shmem-race.WarpSize'; expected 32 "
                   "(every CUDA GPU runs warps of 32 lanes, which the bank and "
                   "coalescing models assume)"}));
  EXPECT_EQ(Per[bit(CheckKind::BankConflict)].MinDegree, 64u); // Unchanged.

  // Numbers below what means something: every access has degree 1 or
  // more, and CUDA warps have 32 lanes.
  Warnings.clear();
  applyCheckOptions({{"shmem-bank-conflict.MinDegree", "0"},
                     {"shmem-bank-conflict.WarpSize", "64"}},
                    Per, Warnings);
  ASSERT_EQ(Warnings.size(), 2u);
  EXPECT_NE(Warnings[0].find("expected a number of at least 1"),
            std::string::npos);
  EXPECT_NE(Warnings[1].find("expected 32 ("), std::string::npos);
  EXPECT_EQ(Per[bit(CheckKind::BankConflict)].MinDegree, 64u);
  EXPECT_EQ(Per[bit(CheckKind::BankConflict)].WarpSize, 32u);
}

TEST(TidyConfigTest, GlobsInOrder) {
  auto On = [](std::bitset<NumCheckKinds> B, CheckKind K) {
    return B.test(bit(K));
  };
  std::bitset<NumCheckKinds> All = applyCheckGlobs({}, {"shmem-*"});
  EXPECT_TRUE(On(All, CheckKind::BankConflict));
  EXPECT_TRUE(On(All, CheckKind::Race));
  std::bitset<NumCheckKinds> B =
      applyCheckGlobs(All, {"-*", "shmem-race", "readability-*"});
  EXPECT_FALSE(On(B, CheckKind::BankConflict));
  EXPECT_TRUE(On(B, CheckKind::Race));
  EXPECT_TRUE(applyCheckGlobs(All, {"-*", "bugprone-*"}).none());
  EXPECT_EQ(applyCheckGlobs(All, {"clang-analyzer-*"}), All);
  B = applyCheckGlobs({}, {"shmem-*", " -shmem-race "});
  EXPECT_FALSE(On(B, CheckKind::Race));
  EXPECT_TRUE(On(B, CheckKind::DivergentBarrier));
}

TEST(TidyConfigTest, OneRunPerWalkSetting) {
  CheckSettings S;
  S.Enabled.set(bit(CheckKind::BankConflict));
  S.Enabled.set(bit(CheckKind::DivergentBarrier));
  S.Enabled.set(bit(CheckKind::Race));
  S.PerCheck[bit(CheckKind::BankConflict)].MinDegree = 8;
  S.PerCheck[bit(CheckKind::Race)].ReportBenign = true;
  S.PerCheck[bit(CheckKind::Race)].ReportDataDependent = true;
  S.PerCheck[bit(CheckKind::Race)].MinDegree = 99; // Ignored: not its option.

  std::vector<AnalysisOptions> Runs = planAnalysisRuns(S);
  ASSERT_EQ(Runs.size(), 1u);
  EXPECT_TRUE(Runs[0].enabled(CheckKind::BankConflict));
  EXPECT_TRUE(Runs[0].enabled(CheckKind::DivergentBarrier));
  EXPECT_TRUE(Runs[0].enabled(CheckKind::Race));
  EXPECT_FALSE(Runs[0].enabled(CheckKind::LayoutMismatch));
  EXPECT_EQ(Runs[0].MinDegree, 8u);
  EXPECT_TRUE(Runs[0].ReportBenign);
  EXPECT_TRUE(Runs[0].ReportDataDependent);

  // A check told another block shape gets a walk of its own.
  S.PerCheck[bit(CheckKind::Race)].BlockDim = Dim3{32, 8, 1};
  Runs = planAnalysisRuns(S);
  ASSERT_EQ(Runs.size(), 2u);
  EXPECT_TRUE(Runs[0].enabled(CheckKind::BankConflict));
  EXPECT_TRUE(Runs[0].enabled(CheckKind::DivergentBarrier));
  EXPECT_FALSE(Runs[0].enabled(CheckKind::Race));
  EXPECT_FALSE(Runs[0].BlockDim.has_value());
  EXPECT_TRUE(Runs[1].enabled(CheckKind::Race));
  EXPECT_FALSE(Runs[1].enabled(CheckKind::BankConflict));
  EXPECT_EQ(*Runs[1].BlockDim, (Dim3{32, 8, 1}));
  EXPECT_TRUE(Runs[1].ReportBenign);

  S.Enabled.reset();
  EXPECT_TRUE(planAnalysisRuns(S).empty());
}

// shmem-divergent-barrier.StrictExits is that check's option only, and the
// run that includes the check carries it.
TEST(TidyConfigTest, StrictExitsIsTheBarrierChecksOption) {
  std::array<AnalysisOptions, NumCheckKinds> Per;
  std::vector<std::string> Warnings;
  applyCheckOptions({{"shmem-divergent-barrier.StrictExits", "true"}}, Per,
                    Warnings);
  EXPECT_TRUE(Warnings.empty());
  EXPECT_TRUE(Per[bit(CheckKind::DivergentBarrier)].StrictExits);
  EXPECT_FALSE(Per[bit(CheckKind::Race)].StrictExits);

  applyCheckOptions({{"shmem-race.StrictExits", "true"},
                     {"shmem-divergent-barrier.StrictExits", "maybe"}},
                    Per, Warnings);
  EXPECT_EQ(Warnings,
            (Globs{"invalid value 'maybe' for "
                   "'shmem-divergent-barrier.StrictExits'; expected true or "
                   "false",
                   "unknown check option 'shmem-race.StrictExits'"}));
  EXPECT_TRUE(Per[bit(CheckKind::DivergentBarrier)].StrictExits); // Unchanged.

  CheckSettings S;
  S.Enabled.set(bit(CheckKind::DivergentBarrier));
  S.Enabled.set(bit(CheckKind::Race));
  S.PerCheck[bit(CheckKind::DivergentBarrier)].StrictExits = true;
  std::vector<AnalysisOptions> Runs = planAnalysisRuns(S);
  ASSERT_EQ(Runs.size(), 1u);
  EXPECT_TRUE(Runs[0].StrictExits);
  S.PerCheck[bit(CheckKind::DivergentBarrier)].StrictExits = false;
  S.PerCheck[bit(CheckKind::Race)].StrictExits = true; // Not its option.
  EXPECT_FALSE(planAnalysisRuns(S)[0].StrictExits);
}

// Every option of CheckOptions.def, whatever their number: the value of
// shmem-<check>.<Name> reaches its own check and the run that includes it,
// and the same name under any other check is an unknown option.
TEST(TidyConfigTest, EveryRegistryOptionIsItsChecksOnly) {
  const AnalysisOptions Defaults;
  ASSERT_FALSE(checkOptions().empty());
  for (const CheckOption &Opt : checkOptions()) {
    SCOPED_TRACE(Opt.Name.str());
    // A value that is not the default, as a .clang-tidy writes it.
    std::string Value =
        Opt.Type == CheckOptionType::Bool
            ? (Defaults.*Opt.BoolMember ? "false" : "true")
            : std::to_string(Defaults.*Opt.UnsignedMember + 5);
    std::array<AnalysisOptions, NumCheckKinds> Per;
    std::vector<std::string> Warnings;
    std::map<std::string, std::string> Options;
    for (unsigned K = 0; K < NumCheckKinds; ++K)
      Options[(checkName(CheckKind(K)) + "." + Opt.Name).str()] = Value;
    applyCheckOptions(Options, Per, Warnings);
    EXPECT_EQ(Warnings.size(), NumCheckKinds - 1);
    for (unsigned K = 0; K < NumCheckKinds; ++K) {
      bool Own = CheckKind(K) == Opt.Check;
      EXPECT_EQ(Opt.same(Per[K], Defaults), !Own) << checkName(CheckKind(K)).str();
      std::string Unknown = ("unknown check option '" +
                             checkName(CheckKind(K)) + "." + Opt.Name + "'")
                                .str();
      EXPECT_EQ(llvm::is_contained(Warnings, Unknown), !Own);
    }
    CheckSettings S;
    S.PerCheck = Per;
    S.Enabled.set();
    std::vector<AnalysisOptions> Runs = planAnalysisRuns(S);
    ASSERT_EQ(Runs.size(), 1u);
    EXPECT_TRUE(Runs[0].enabled(Opt.Check));
    EXPECT_EQ(Opt.text(Runs[0]), Opt.text(Per[bit(Opt.Check)]));
    EXPECT_FALSE(Opt.same(Runs[0], Defaults));

    // A bad value names what the type expects and leaves the option alone.
    Warnings.clear();
    std::string Key = (checkName(Opt.Check) + "." + Opt.Name).str();
    applyCheckOptions({{Key, "maybe"}}, Per, Warnings);
    EXPECT_EQ(Warnings, (Globs{"invalid value 'maybe' for '" + Key +
                               "'; expected " + Opt.expected()}));
    EXPECT_FALSE(Opt.same(Per[bit(Opt.Check)], Defaults));
  }
}

// Names and keys are unique, and a key is no common option's.
TEST(TidyConfigTest, RegistryNamesAreUnique) {
  std::set<std::string> Keys = {"checks", "block", "block-dim", "warp-size",
                                "pass"};
  std::set<std::pair<unsigned, std::string>> Names;
  for (const CheckOption &Opt : checkOptions()) {
    EXPECT_TRUE(Keys.insert(Opt.Key.str()).second) << Opt.Key.str();
    EXPECT_TRUE(Names.insert({bit(Opt.Check), Opt.Name.str()}).second)
        << Opt.Name.str();
    EXPECT_NE(Opt.Name, "WarpSize");
    EXPECT_NE(Opt.Name, "BlockDim");
  }
}

// One reading of each type for every front end: booleans as clang-tidy
// reads them, numbers in decimal.
TEST(TidyConfigTest, OneParserPerType) {
  for (const char *T : {"1", "true", "True", "on", "yes", "2", " true "})
    EXPECT_EQ(parseBoolOption(T), std::optional<bool>(true)) << T;
  for (const char *F : {"0", "false", "FALSE", "off", "no", " 0"})
    EXPECT_EQ(parseBoolOption(F), std::optional<bool>(false)) << F;
  for (const char *Bad : {"", "maybe", "1x", "truth"})
    EXPECT_FALSE(parseBoolOption(Bad).has_value()) << Bad;
  EXPECT_EQ(parseUnsignedOption("8"), std::optional<unsigned>(8));
  EXPECT_EQ(parseUnsignedOption(" 64 "), std::optional<unsigned>(64));
  for (const char *Bad : {"", "-1", "x", "4.5", "99999999999"})
    EXPECT_FALSE(parseUnsignedOption(Bad).has_value()) << Bad;
}
