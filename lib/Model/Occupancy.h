//===- Occupancy.h - How many blocks an SM holds ----------------*- C++ -*-===//
//
// Padding a tile costs shared memory, and shared memory is one of the
// limits on how many blocks of a kernel an SM runs at once. This model
// gives, for a GPU architecture, the blocks per SM that a block's threads
// and shared memory allow, and which of the two limits it (or the
// architecture's cap on blocks). Registers also limit it, and are not
// known from the source: the figures are upper bounds, and what padding
// changes in them is exact.
//
// The per-architecture figures are the CUDA C++ Programming Guide's
// ("Technical Specifications per Compute Capability"): threads and blocks
// per SM, the most shared memory an SM can give its blocks (the largest
// carveout) and one block (with the opt-in for more than 48 KB), and the
// shared memory the system reserves per block (1 KB from sm_80 on).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_OCCUPANCY_H
#define SHMEM_LINT_MODEL_OCCUPANCY_H

#include <cstdint>
#include <optional>
#include <string>

namespace shmem {

struct SmLimits {
  unsigned Arch = 0; ///< 80 for sm_80.
  unsigned MaxThreadsPerSM = 0;
  unsigned MaxBlocksPerSM = 0;
  uint64_t SharedPerSM = 0;       ///< Bytes, at the largest carveout.
  uint64_t MaxSharedPerBlock = 0; ///< Bytes, with the opt-in.
  uint64_t ReservedPerBlock = 0;  ///< Bytes the system takes per block.
  /// A block may declare at most this much static shared memory; more
  /// needs dynamic shared memory and the opt-in.
  static constexpr uint64_t MaxStaticPerBlock = 48 * 1024;
};

/// The limits of compute capability \p Arch (75, 80, 86, 89, 90, ...), if
/// this model knows it.
std::optional<SmLimits> smLimits(unsigned Arch);

/// 80 from "sm_80", "sm_90a", "compute_86"; nullopt otherwise.
std::optional<unsigned> parseArch(const std::string &Name);

struct Occupancy {
  enum Limiter { Threads, Blocks, SharedMemory };
  unsigned BlocksPerSM = 0;
  Limiter By = Threads;
  /// The block does not fit at all (shared memory past the per-block
  /// maximum, or more threads than an SM holds).
  bool Fits() const { return BlocksPerSM > 0; }
};

/// Blocks of \p Threads threads using \p SharedBytes of shared memory each
/// that one SM runs at once, by threads and shared memory.
Occupancy blocksPerSM(const SmLimits &L, unsigned Threads,
                      uint64_t SharedBytes);

/// "the threads", "the shared memory", "the limit of 32 blocks".
std::string limiterName(const SmLimits &L, Occupancy::Limiter By);

} // namespace shmem

#endif
