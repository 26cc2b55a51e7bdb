//===- FlatMap.h - A small sorted map in one vector -------------*- C++ -*-===//
//
// The map interface the affine values use (find, count, operator[],
// try_emplace, erase, ordered iteration) over one vector of pairs sorted by
// key. A per-thread value has a few symbols at most, and is copied and
// destroyed far more often than it is searched: one allocation per copy
// instead of one node per symbol.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_FLATMAP_H
#define SHMEM_LINT_MODEL_FLATMAP_H

#include <algorithm>
#include <cassert>
#include <tuple>
#include <utility>
#include <vector>

namespace shmem {

template <typename K, typename V> class FlatMap {
public:
  using value_type = std::pair<K, V>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  iterator begin() { return Items.begin(); }
  iterator end() { return Items.end(); }
  const_iterator begin() const { return Items.begin(); }
  const_iterator end() const { return Items.end(); }
  bool empty() const { return Items.empty(); }
  size_t size() const { return Items.size(); }

  iterator find(const K &Key) {
    iterator It = lowerBound(Key);
    return It != end() && It->first == Key ? It : end();
  }
  const_iterator find(const K &Key) const {
    const_iterator It = lowerBound(Key);
    return It != end() && It->first == Key ? It : end();
  }
  size_t count(const K &Key) const { return find(Key) != end(); }

  template <typename... Args>
  std::pair<iterator, bool> try_emplace(const K &Key, Args &&...A) {
    iterator It = lowerBound(Key);
    if (It != end() && It->first == Key)
      return {It, false};
    It = Items.emplace(It, std::piecewise_construct, std::forward_as_tuple(Key),
                       std::forward_as_tuple(std::forward<Args>(A)...));
    return {It, true};
  }
  V &operator[](const K &Key) { return try_emplace(Key).first->second; }
  /// The value of a key that is there (as std::map::at, without the throw:
  /// the analysis is built without exceptions).
  const V &at(const K &Key) const {
    const_iterator It = find(Key);
    assert(It != end() && "FlatMap::at of a missing key");
    return It->second;
  }

  iterator erase(const_iterator It) { return Items.erase(It); }

  bool operator==(const FlatMap &O) const { return Items == O.Items; }
  bool operator!=(const FlatMap &O) const { return !(*this == O); }

private:
  std::vector<value_type> Items;

  iterator lowerBound(const K &Key) {
    return std::lower_bound(
        Items.begin(), Items.end(), Key,
        [](const value_type &P, const K &X) { return P.first < X; });
  }
  const_iterator lowerBound(const K &Key) const {
    return std::lower_bound(
        Items.begin(), Items.end(), Key,
        [](const value_type &P, const K &X) { return P.first < X; });
  }
};

} // namespace shmem

#endif
