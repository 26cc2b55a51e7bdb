//===- ProjectLaunchesTest.cpp - Which launches a kernel takes elsewhere --===//
//
// The rules of ProjectLaunches.h, on files described by hand: a kernel
// takes the launches of files that only declare it when the project defines
// it at one place, and those of files that define it at the same place
// only when it has none of its own; a file is analysed again only for a
// launch that changes what its kernel is analysed with.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ProjectLaunches.h"

#include "gtest/gtest.h"

using namespace shmem;

namespace {

KernelLaunches launchOf(Dim3 Block, std::vector<std::optional<int64_t>> Args,
                        const char *Where = "launch at line 8 of main.cu") {
  KernelLaunches L;
  BlockShape S;
  S.Block = Block;
  S.Source = Where;
  S.DynamicSharedBytes = 0;
  L.Shapes.push_back(S);
  L.addArguments(Args);
  return L;
}

/// A file defining (and analysing) kernel \p Name at \p Where.
TranslationUnitLaunches definer(const std::string &Name,
                                const std::string &Where) {
  TranslationUnitLaunches U;
  U.Defined[Name] = Where;
  U.Analysed.insert(Name);
  return U;
}

std::vector<ProjectLaunches>
elsewhere(std::initializer_list<const TranslationUnitLaunches *> Units) {
  return launchesFromElsewhere(Units);
}

TEST(ProjectLaunches, DeclaringFileGivesItsLaunchToTheOneDefinition) {
  TranslationUnitLaunches Kernels = definer("_Z1kPf", "kernels.cu:5");
  TranslationUnitLaunches Main;
  Main.Launched["_Z1kPf"] = launchOf({64, 1, 1}, {std::nullopt, 32});
  auto Out = elsewhere({&Kernels, &Main});
  ASSERT_EQ(Out[0].count("_Z1kPf"), 1u);
  const KernelLaunches &Taken = Out[0].at("_Z1kPf");
  ASSERT_EQ(Taken.Shapes.size(), 1u);
  EXPECT_EQ(Taken.Shapes[0].Block, (Dim3{64, 1, 1}));
  EXPECT_EQ(Taken.Shapes[0].Source, "launch at line 8 of main.cu");
  ASSERT_EQ(Taken.Arguments.size(), 2u);
  EXPECT_EQ(Taken.Arguments[1], 32);
  EXPECT_TRUE(Out[1].empty()); // main.cu defines nothing to analyse.
}

TEST(ProjectLaunches, TwoDefinitionsTakeNoDeclaringFilesLaunch) {
  TranslationUnitLaunches A = definer("_Z1kPf", "a.cu:5");
  TranslationUnitLaunches B = definer("_Z1kPf", "b.cu:9");
  TranslationUnitLaunches Main;
  Main.Launched["_Z1kPf"] = launchOf({64, 1, 1}, {});
  auto Out = elsewhere({&A, &B, &Main});
  EXPECT_TRUE(Out[0].empty());
  EXPECT_TRUE(Out[1].empty());
}

TEST(ProjectLaunches, HeaderKernelTakesLaunchesOnlyWithoutItsOwn) {
  // One header kernel, defined in three files at one place: x.cu launches
  // it with 64 threads, y.cu with 128, z.cu not at all.
  TranslationUnitLaunches X = definer("_Z1hPf", "common.cuh:5");
  TranslationUnitLaunches Y = definer("_Z1hPf", "common.cuh:5");
  TranslationUnitLaunches Z = definer("_Z1hPf", "common.cuh:5");
  X.Launched["_Z1hPf"] = launchOf({64, 1, 1}, {});
  Y.Launched["_Z1hPf"] = launchOf({128, 1, 1}, {});
  auto Out = elsewhere({&X, &Y, &Z});
  // x.cu and y.cu analyse their own copies with their own shapes; the
  // front end merges their findings.
  EXPECT_TRUE(Out[0].empty());
  EXPECT_TRUE(Out[1].empty());
  ASSERT_EQ(Out[2].count("_Z1hPf"), 1u);
  EXPECT_EQ(Out[2].at("_Z1hPf").Shapes.size(), 2u);
}

TEST(ProjectLaunches, SameNameAtAnotherPlaceIsAnotherKernel) {
  // Two programs, each with a header kernel of one name: not the same
  // kernel, so no launch passes between them.
  TranslationUnitLaunches X = definer("_Z1hPf", "one/common.cuh:5");
  TranslationUnitLaunches Z = definer("_Z1hPf", "two/common.cuh:5");
  X.Launched["_Z1hPf"] = launchOf({64, 1, 1}, {});
  auto Out = elsewhere({&X, &Z});
  EXPECT_TRUE(Out[1].empty());
}

TEST(ProjectLaunches, LaunchThatChangesNothingAnalysesNothingAgain) {
  TranslationUnitLaunches Kernels = definer("_Z1kPfi", "kernels.cu:5");
  Kernels.Launched["_Z1kPfi"] =
      launchOf({64, 1, 1}, {std::nullopt, 32}, "launch at line 20");
  TranslationUnitLaunches Main;
  Main.Launched["_Z1kPfi"] = launchOf({64, 1, 1}, {std::nullopt, 32});
  EXPECT_TRUE(elsewhere({&Kernels, &Main})[0].empty());
  // Another constant for the argument does change it: no constant then.
  TranslationUnitLaunches Other;
  Other.Launched["_Z1kPfi"] = launchOf({64, 1, 1}, {std::nullopt, 16});
  auto Out = elsewhere({&Kernels, &Other});
  ASSERT_EQ(Out[0].count("_Z1kPfi"), 1u);
  KernelLaunches Merged = Kernels.Launched["_Z1kPfi"];
  Merged.merge(Out[0].at("_Z1kPfi"));
  ASSERT_EQ(Merged.Arguments.size(), 2u);
  EXPECT_FALSE(Merged.Arguments[1]);
}

TEST(ProjectLaunches, UnseenArgumentsElsewhereUnbindTheConstants) {
  TranslationUnitLaunches Kernels = definer("_Z1kPfi", "kernels.cu:5");
  Kernels.Launched["_Z1kPfi"] = launchOf({64, 1, 1}, {std::nullopt, 32});
  TranslationUnitLaunches Main;
  KernelLaunches ThroughPointer;
  ThroughPointer.ArgumentsUnseen = true;
  Main.Launched["_Z1kPfi"] = ThroughPointer;
  auto Out = elsewhere({&Kernels, &Main});
  ASSERT_EQ(Out[0].count("_Z1kPfi"), 1u);
  EXPECT_TRUE(Out[0].at("_Z1kPfi").ArgumentsUnseen);
}

TEST(ProjectLaunches, KernelsNotAnalysedTakeNothing) {
  TranslationUnitLaunches Kernels;
  Kernels.Defined["_Z1kPf"] = "kernels.cu:5"; // No shared memory: not walked.
  TranslationUnitLaunches Main;
  Main.Launched["_Z1kPf"] = launchOf({64, 1, 1}, {});
  EXPECT_TRUE(elsewhere({&Kernels, &Main})[0].empty());
}

} // namespace
