//===- CheckSelection.cpp - Which checks a check list selects -------------===//

#include "CheckSelection.h"

#include "NoLint.h"

#include <algorithm>

namespace shmem {

std::bitset<NumCheckKinds> applyCheckGlobs(std::bitset<NumCheckKinds> Initial,
                                           llvm::ArrayRef<std::string> Globs) {
  std::bitset<NumCheckKinds> On = Initial;
  for (const std::string &G : Globs) {
    llvm::StringRef Glob = llvm::StringRef(G).trim();
    bool Negative = Glob.consume_front("-");
    Glob = Glob.trim();
    for (unsigned K = 0; K < NumCheckKinds; ++K)
      if (globMatches(Glob, checkName(CheckKind(K))))
        On.set(K, !Negative);
  }
  return On;
}

std::optional<llvm::StringRef>
nearestName(llvm::StringRef Typo, llvm::ArrayRef<llvm::StringRef> Candidates) {
  std::optional<llvm::StringRef> Best;
  unsigned BestDistance = ~0u;
  unsigned Limit = std::min<unsigned>(3, std::max<size_t>(1, Typo.size() / 3));
  for (llvm::StringRef C : Candidates) {
    unsigned D = Typo.edit_distance(C, /*AllowReplacements=*/true, Limit);
    if (D <= Limit && D < BestDistance) {
      Best = C;
      BestDistance = D;
    }
  }
  return Best;
}

std::string checkNameList() {
  std::string Known;
  for (unsigned K = 0; K < NumCheckKinds; ++K)
    Known += (K == 0 ? "" : K + 1 == NumCheckKinds ? " and " : ", ") +
             checkName(CheckKind(K)).str();
  return Known;
}

std::string UnknownCheck::message(llvm::StringRef Where) const {
  std::string M = "unknown check '" + Entry + "' in " + Where.str();
  if (!Suggestion.empty())
    return M + "; did you mean '" + Suggestion + "'?";
  return M + "; known checks are " + checkNameList();
}

std::optional<UnknownCheck> unknownCheck(llvm::ArrayRef<std::string> Globs) {
  llvm::SmallVector<llvm::StringRef, NumCheckKinds> Names;
  for (unsigned K = 0; K < NumCheckKinds; ++K)
    Names.push_back(checkName(CheckKind(K)));
  for (const std::string &G : Globs) {
    llvm::StringRef Entry = llvm::StringRef(G).trim();
    llvm::StringRef Glob = Entry;
    Glob.consume_front("-");
    Glob = Glob.trim();
    if (!Glob.starts_with("shmem-"))
      continue;
    if (llvm::any_of(Names, [&](llvm::StringRef N) {
          return globMatches(Glob, N);
        }))
      continue;
    UnknownCheck U;
    U.Entry = Entry.str();
    // A glob is not a spelling of one name: suggest for plain names only.
    if (!Glob.contains('*'))
      if (std::optional<llvm::StringRef> S = nearestName(Glob, Names))
        U.Suggestion = (Entry.starts_with("-") ? "-" : "") + S->str();
    return U;
  }
  return std::nullopt;
}

} // namespace shmem
