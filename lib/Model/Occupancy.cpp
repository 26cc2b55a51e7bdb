//===- Occupancy.cpp - How many blocks an SM holds ------------------------===//
//
// See Occupancy.h.
//
//===----------------------------------------------------------------------===//

#include "Occupancy.h"

#include <algorithm>

namespace shmem {

std::optional<SmLimits> smLimits(unsigned Arch) {
  constexpr uint64_t KB = 1024;
  // Arch, threads/SM, blocks/SM, shared/SM, shared/block, reserved/block.
  static const SmLimits Table[] = {
      {70, 2048, 32, 96 * KB, 96 * KB, 0},
      {72, 2048, 32, 96 * KB, 96 * KB, 0},
      {75, 1024, 16, 64 * KB, 64 * KB, 0},
      {80, 2048, 32, 164 * KB, 163 * KB, 1 * KB},
      {86, 1536, 16, 100 * KB, 99 * KB, 1 * KB},
      {87, 2048, 16, 164 * KB, 163 * KB, 1 * KB},
      {89, 1536, 24, 100 * KB, 99 * KB, 1 * KB},
      {90, 2048, 32, 228 * KB, 227 * KB, 1 * KB},
      {100, 2048, 32, 228 * KB, 227 * KB, 1 * KB},
  };
  for (const SmLimits &L : Table)
    if (L.Arch == Arch)
      return L;
  return std::nullopt;
}

std::optional<unsigned> parseArch(const std::string &Name) {
  for (const char *Prefix : {"sm_", "compute_"}) {
    size_t P = std::string(Prefix).size();
    if (Name.compare(0, P, Prefix) != 0)
      continue;
    unsigned V = 0;
    size_t I = P;
    for (; I < Name.size() && Name[I] >= '0' && Name[I] <= '9'; ++I)
      V = V * 10 + unsigned(Name[I] - '0');
    if (I == P)
      return std::nullopt;
    return V;
  }
  return std::nullopt;
}

Occupancy blocksPerSM(const SmLimits &L, unsigned Threads,
                      uint64_t SharedBytes) {
  Occupancy O;
  if (!Threads || Threads > L.MaxThreadsPerSM ||
      SharedBytes > L.MaxSharedPerBlock)
    return O; // Does not fit.
  // Threads are allotted in whole warps.
  unsigned Warps = (Threads + 31) / 32;
  unsigned ByThreads = L.MaxThreadsPerSM / (Warps * 32);
  O.BlocksPerSM = ByThreads;
  O.By = Occupancy::Threads;
  if (L.MaxBlocksPerSM < O.BlocksPerSM) {
    O.BlocksPerSM = L.MaxBlocksPerSM;
    O.By = Occupancy::Blocks;
  }
  if (SharedBytes) {
    uint64_t ByShared = L.SharedPerSM / (SharedBytes + L.ReservedPerBlock);
    if (ByShared < O.BlocksPerSM) {
      O.BlocksPerSM = unsigned(ByShared);
      O.By = Occupancy::SharedMemory;
    }
  }
  return O;
}

std::string limiterName(const SmLimits &L, Occupancy::Limiter By) {
  switch (By) {
  case Occupancy::Threads:
    return "threads per SM";
  case Occupancy::Blocks:
    return "blocks per SM (" + std::to_string(L.MaxBlocksPerSM) + ")";
  case Occupancy::SharedMemory:
    return "shared memory per SM";
  }
  return "";
}

} // namespace shmem
