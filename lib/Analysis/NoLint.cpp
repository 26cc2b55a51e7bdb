//===- NoLint.cpp - NOLINT comments --------------------------------------===//

#include "NoLint.h"

namespace shmem {

bool globMatches(llvm::StringRef Glob, llvm::StringRef Name) {
  Glob = Glob.trim();
  if (Glob.empty())
    return false;
  size_t Star = Glob.find('*');
  if (Star == llvm::StringRef::npos)
    return Glob == Name;
  llvm::StringRef Prefix = Glob.substr(0, Star);
  llvm::StringRef Rest = Glob.substr(Star + 1);
  if (!Name.starts_with(Prefix))
    return false;
  Name = Name.drop_front(Prefix.size());
  if (Rest.empty())
    return true;
  for (size_t I = 0; I <= Name.size(); ++I)
    if (globMatches(Rest, Name.substr(I)))
      return true;
  return false;
}

bool noLintCovers(llvm::StringRef Line, llvm::StringRef Marker,
                  llvm::StringRef Check) {
  size_t Pos = 0;
  while ((Pos = Line.find(Marker, Pos)) != llvm::StringRef::npos) {
    llvm::StringRef After = Line.substr(Pos + Marker.size());
    Pos += Marker.size();
    // NOLINT must not match the start of NOLINTNEXTLINE.
    if (Marker == "NOLINT" && After.starts_with("NEXTLINE"))
      continue;
    if (Marker == "NOLINT" && After.starts_with("BEGIN"))
      continue;
    if (Marker == "NOLINT" && After.starts_with("END"))
      continue;
    if (!After.starts_with("("))
      return true;
    size_t Close = After.find(')');
    if (Close == llvm::StringRef::npos)
      return true;
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    After.substr(1, Close - 1).split(Parts, ',');
    for (llvm::StringRef P : Parts)
      if (globMatches(P, Check))
        return true;
  }
  return false;
}

static llvm::StringRef lineAt(const clang::SourceManager &SM, clang::FileID F,
                              unsigned Line) {
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid || Line == 0)
    return {};
  clang::SourceLocation Start = SM.translateLineCol(F, Line, 1);
  if (Start.isInvalid())
    return {};
  unsigned Off = SM.getFileOffset(Start);
  llvm::StringRef Rest = Buf.substr(Off);
  return Rest.substr(0, Rest.find('\n'));
}

std::vector<NoLintRegion> noLintRegions(llvm::StringRef Text) {
  struct Open {
    unsigned Line;
    llvm::StringRef Checks;
  };
  std::vector<Open> Stack;
  std::vector<NoLintRegion> Regions;
  // Only lines holding a marker matter: find them, then count the newlines
  // before each (a header of ten thousand lines has a handful of markers).
  unsigned Line = 1;
  size_t Counted = 0;
  for (size_t Pos = Text.find("NOLINT"); Pos != llvm::StringRef::npos;
       Pos = Text.find("NOLINT", Pos + 1)) {
    llvm::StringRef After = Text.substr(Pos + 6);
    bool Begin = After.starts_with("BEGIN"), End = After.starts_with("END");
    if (!Begin && !End)
      continue;
    Line += Text.substr(Counted, Pos - Counted).count('\n');
    Counted = Pos;
    After = After.drop_front(Begin ? 5 : 3);
    // The check list as written, parentheses included: clang-tidy pairs a
    // NOLINTEND with the NOLINTBEGIN of the same list.
    llvm::StringRef Checks;
    if (After.starts_with("(")) {
      size_t Close = After.find_first_of(")\n");
      if (Close == llvm::StringRef::npos || After[Close] != ')')
        continue;
      Checks = After.substr(0, Close + 1);
    }
    if (Begin) {
      Stack.push_back({Line, Checks});
      continue;
    }
    // An END closes the latest BEGIN of the same list; one with none
    // closes nothing.
    for (size_t I = Stack.size(); I-- > 0;)
      if (Stack[I].Checks == Checks) {
        Regions.push_back({Stack[I].Line, Line, Checks.str()});
        Stack.erase(Stack.begin() + I);
        break;
      }
  }
  return Regions;
}

bool noLintRegionCovers(const NoLintRegion &R, unsigned Line,
                        llvm::StringRef Check) {
  if (Line < R.First || Line > R.Last)
    return false;
  // The marker's own form: "NOLINT" plus the list covers as NOLINT does.
  return noLintCovers("NOLINT" + R.Checks, "NOLINT", Check);
}

bool NoLintIndex::suppressed(clang::SourceLocation Loc, llvm::StringRef Check) {
  if (Loc.isInvalid())
    return false;
  clang::SourceLocation L = SM.getFileLoc(Loc);
  clang::FileID F = SM.getFileID(L);
  unsigned Line = SM.getSpellingLineNumber(L);
  if (noLintCovers(lineAt(SM, F, Line), "NOLINT", Check))
    return true;
  if (Line > 1 && noLintCovers(lineAt(SM, F, Line - 1), "NOLINTNEXTLINE", Check))
    return true;
  auto [It, New] = Regions.try_emplace(F);
  if (New) {
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(F, &Invalid);
    if (!Invalid)
      It->second = noLintRegions(Buf);
  }
  for (const NoLintRegion &R : It->second)
    if (noLintRegionCovers(R, Line, Check))
      return true;
  return false;
}

} // namespace shmem
