//===- FlatKeySet.h - A set of short word strings ---------------*- C++ -*-===//
//
// The set the barrier intervals and the race search dedupe their
// concurrency alternatives with: a key is a short run of 64-bit words the
// caller lays out (a loop relation's fields, an admits table, an
// assignment), built in one reused buffer and kept only when new. std::set of vectors of tuples allocated a key per question and
// compared them word by word down a tree; ggml's mmq asks a million such
// questions. Here the keys live one after another in one vector, found by
// hash in an open-addressed table.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_FLATKEYSET_H
#define SHMEM_LINT_MODEL_FLATKEYSET_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace shmem {

class FlatKeySet {
public:
  /// Adds the \p N words at \p Key; true when they were not in the set.
  bool insert(const uint64_t *Key, size_t N) {
    uint64_t H = hash(Key, N);
    if ((Entries.size() + 1) * 2 > Slots.size())
      grow();
    size_t Mask = Slots.size() - 1;
    for (size_t I = H & Mask;; I = (I + 1) & Mask) {
      uint32_t S = Slots[I];
      if (S == 0) {
        Slots[I] = uint32_t(Entries.size() + 1);
        Entries.push_back({H, Words.size(), N});
        Words.insert(Words.end(), Key, Key + N);
        return true;
      }
      const Entry &E = Entries[S - 1];
      if (E.Hash == H && E.Size == N &&
          (N == 0 || !std::memcmp(&Words[E.Offset], Key, N * sizeof(uint64_t))))
        return false;
    }
  }
  bool insert(const std::vector<uint64_t> &Key) {
    return insert(Key.data(), Key.size());
  }
  size_t size() const { return Entries.size(); }

private:
  struct Entry {
    uint64_t Hash;
    size_t Offset, Size;
  };
  std::vector<uint64_t> Words;
  std::vector<Entry> Entries;
  std::vector<uint32_t> Slots; ///< 0: empty; else an index into Entries + 1.

  static uint64_t hash(const uint64_t *Key, size_t N) {
    uint64_t H = 0x9E3779B97F4A7C15ull ^ N;
    for (size_t I = 0; I < N; ++I) {
      H ^= Key[I];
      H *= 0xBF58476D1CE4E5B9ull;
      H ^= H >> 31;
    }
    return H;
  }
  void grow() {
    Slots.assign(Slots.empty() ? 16 : Slots.size() * 2, 0);
    size_t Mask = Slots.size() - 1;
    for (size_t E = 0; E < Entries.size(); ++E) {
      size_t I = Entries[E].Hash & Mask;
      while (Slots[I])
        I = (I + 1) & Mask;
      Slots[I] = uint32_t(E + 1);
    }
  }
};

} // namespace shmem

#endif
