//===- ThreadSets.h - Sets of threads described in words -------*- C++ -*-===//
//
// The witness of a finding names the threads or lanes that reach a barrier
// ("threads with threadIdx.x < 128", "lanes 0-15 of each warp", "warps
// 0-3") as simply as the set allows: shmem-divergent-barrier's words, and
// shmem-named-barrier's and shmem-race's for warp roles.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_THREADSETS_H
#define SHMEM_LINT_CHECKS_THREADSETS_H

#include "ThreadGeometry.h"

#include <string>
#include <vector>

namespace shmem {
namespace divergent {

/// "0-15", "0, 2, 4, ..., 30", "3, 7, 9".
std::string rangeList(const std::vector<unsigned> &V);

/// "threads with threadIdx.x < 128", "lanes 0-15 of each warp", "warps 0-3",
/// or, when nothing simpler fits, the linear thread indices.
std::string describeThreads(const std::vector<char> &Active,
                            const ThreadGeometry &G);

/// "warps 0-3" when \p Active is whole warps (the roles of a
/// warp-specialised kernel), else describeThreads.
std::string describeWarps(const std::vector<char> &Active,
                          const ThreadGeometry &G);

} // namespace divergent
} // namespace shmem

#endif
