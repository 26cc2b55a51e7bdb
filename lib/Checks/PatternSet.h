//===- PatternSet.h - Warp address patterns already priced ------*- C++ -*-===//
//
// The searches of the bank and transfer checks price a warp's request once
// per pattern: warps (and assignments of the unknowns) whose addresses repeat
// another's up to a shift the model cannot see cost the same. A pattern is a
// vector of integers; this is the set of those met so far.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_PATTERNSET_H
#define SHMEM_LINT_CHECKS_PATTERNSET_H

#include "llvm/ADT/Hashing.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace shmem {

/// Patterns are stored one after the other in one vector and found by
/// hash: a node-based set of vectors cost two allocations per pattern, and
/// the searches insert one pattern per warp. Most sets stay small (a block
/// has a few warps, most of one shape); they are searched linearly, and an
/// index by hash is built once a set grows past SmallSize.
class PatternSet {
public:
  /// Adds \p P; false when it was already there.
  bool insert(const std::vector<int64_t> &P) {
    size_t Hash = llvm::hash_combine_range(P.begin(), P.end());
    unsigned Head = NoEntry;
    if (Heads.empty()) {
      for (const Entry &E : Entries)
        if (E.Hash == Hash && equal(E, P))
          return false;
    } else if (auto It = Heads.find(Hash); It != Heads.end()) {
      for (unsigned I = It->second; I != NoEntry; I = Entries[I].Next)
        if (equal(Entries[I], P))
          return false;
      Head = It->second;
    }
    Entries.push_back({Hash, Data.size(), P.size(), Head});
    Data.insert(Data.end(), P.begin(), P.end());
    if (!Heads.empty())
      Heads[Hash] = unsigned(Entries.size() - 1);
    else if (Entries.size() > SmallSize)
      index();
    return true;
  }

  bool empty() const { return Entries.empty(); }

private:
  static constexpr unsigned NoEntry = ~0u;
  static constexpr size_t SmallSize = 16;
  struct Entry {
    size_t Hash, Begin, Size;
    unsigned Next; ///< The previous pattern with the same hash (indexed).
  };
  std::vector<Entry> Entries;
  std::vector<int64_t> Data;
  /// Hash -> the last pattern inserted with it; empty while the set is
  /// small.
  std::unordered_map<size_t, unsigned> Heads;

  bool equal(const Entry &E, const std::vector<int64_t> &P) const {
    return E.Size == P.size() &&
           std::equal(P.begin(), P.end(), Data.begin() + E.Begin);
  }
  void index() {
    for (unsigned I = 0; I < Entries.size(); ++I) {
      auto [It, New] = Heads.try_emplace(Entries[I].Hash, I);
      Entries[I].Next = New ? NoEntry : It->second;
      It->second = I;
    }
  }
};

} // namespace shmem

#endif // SHMEM_LINT_CHECKS_PATTERNSET_H
