//===- ProjectLaunches.cpp - Launches across translation units ------------===//

#include "ProjectLaunches.h"

namespace shmem {

void KernelLaunches::addArguments(
    const std::vector<std::optional<int64_t>> &Now) {
  if (!ArgumentsSeen) {
    ArgumentsSeen = true;
    Arguments = Now;
    return;
  }
  for (size_t I = 0; I < Now.size() && I < Arguments.size(); ++I)
    if (Arguments[I] != Now[I])
      Arguments[I] = std::nullopt;
}

void KernelLaunches::merge(const KernelLaunches &O) {
  for (const BlockShape &S : O.Shapes)
    addLaunchShape(Shapes, S);
  for (const PartialLaunch &P : O.Partials)
    addLaunchShape(Partials, P);
  if (O.ArgumentsSeen)
    addArguments(O.Arguments);
  ArgumentsUnseen |= O.ArgumentsUnseen;
}

bool KernelLaunches::changedBy(const KernelLaunches &O) const {
  KernelLaunches M = *this;
  M.merge(O);
  auto SameShapes = [](const auto &A, const auto &B) {
    if (A.size() != B.size())
      return false;
    for (size_t I = 0; I < A.size(); ++I)
      if (!(A[I].Block == B[I].Block) ||
          A[I].DynamicSharedBytes != B[I].DynamicSharedBytes)
        return false;
    return true;
  };
  return !SameShapes(M.Shapes, Shapes) || !SameShapes(M.Partials, Partials) ||
         M.ArgumentsSeen != ArgumentsSeen || M.Arguments != Arguments ||
         M.ArgumentsUnseen != ArgumentsUnseen;
}

std::vector<ProjectLaunches> launchesFromElsewhere(
    const std::vector<const TranslationUnitLaunches *> &Units) {
  // Per kernel: the places it is defined at, and the files launching it.
  std::map<std::string, std::set<std::string>> DefinedAt;
  std::map<std::string, std::vector<size_t>> LaunchedIn;
  for (size_t U = 0; U < Units.size(); ++U) {
    for (const auto &[Name, Where] : Units[U]->Defined)
      DefinedAt[Name].insert(Where);
    for (const auto &[Name, L] : Units[U]->Launched)
      LaunchedIn[Name].push_back(U);
  }
  std::vector<ProjectLaunches> Out(Units.size());
  for (size_t T = 0; T < Units.size(); ++T) {
    for (const std::string &Name : Units[T]->Analysed) {
      auto In = LaunchedIn.find(Name);
      if (In == LaunchedIn.end())
        continue;
      const std::string &Where = Units[T]->Defined.at(Name);
      auto OwnIt = Units[T]->Launched.find(Name);
      const KernelLaunches Own =
          OwnIt == Units[T]->Launched.end() ? KernelLaunches() : OwnIt->second;
      KernelLaunches Taken;
      for (size_t U : In->second) {
        if (U == T)
          continue;
        auto D = Units[U]->Defined.find(Name);
        bool Declares = D == Units[U]->Defined.end();
        if (Declares ? DefinedAt[Name].size() == 1
                     : D->second == Where && Own.empty())
          Taken.merge(Units[U]->Launched.at(Name));
      }
      if (!Taken.empty() && Own.changedBy(Taken))
        Out[T][Name] = std::move(Taken);
    }
  }
  return Out;
}

} // namespace shmem
