//===- NodeMap.h - Hash maps keyed by AST nodes -----------------*- C++ -*-===//
//
// DenseMap hashes a pointer as (p >> 4) ^ (p >> 9). The AST's bump
// allocator hands out the nodes of one function close together and in like
// sizes, so those bits vary little between the keys of a map that holds a
// function's expressions or variables, or a translation unit's: buckets
// cluster and a lookup probes long runs of them (122 instructions a lookup
// in the fold cache on ggml's flash attention, 48 with this hash).
// NodeMap mixes the whole address (a multiply by 2^64/phi, the high half
// kept) for the maps the analyses fill with many nodes.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_NODEMAP_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_NODEMAP_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace shmem {

template <typename T> struct NodeKeyInfo : llvm::DenseMapInfo<const T *> {
  static unsigned getHashValue(const T *P) {
    return unsigned(
        (uint64_t(reinterpret_cast<uintptr_t>(P)) * 0x9E3779B97F4A7C15ull) >>
        32);
  }
};

/// A DenseMap from AST nodes of type \p T to \p V.
template <typename T, typename V>
using NodeMap = llvm::DenseMap<const T *, V, NodeKeyInfo<T>>;

} // namespace shmem

#endif // SHMEM_LINT_ANALYSIS_PROGRAM_NODEMAP_H
