//===- WarpMasks.cpp - Lanes a warp or tile barrier's mask leaves out -----===//
//
// See WarpMasks.h.
//
//===----------------------------------------------------------------------===//

#include "WarpMasks.h"
#include "ThreadSets.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <sstream>

namespace shmem {
namespace divergent {

std::string laneMismatch(const BarrierSite &Site,
                         const std::vector<const BarrierEvent *> &Evs,
                         const ThreadGeometry &G, bool &Extra) {
  std::vector<std::pair<unsigned, std::vector<unsigned>>> Bad; // warp, lanes
  std::vector<unsigned> ActiveLanes;
  unsigned WarpsReaching = 0;
  Extra = false;
  for (const BarrierEvent *Ev : Evs) {
    std::optional<uint32_t> Mask = Site.Callee ? Ev->WarpMask : Site.Mask;
    if (!Mask)
      return {};
    // Lanes that have left the kernel need not arrive.
    auto Gone = [&](unsigned T) {
      return !Ev->Exited.empty() && Ev->Exited[T];
    };
    for (unsigned Wp = 0; Wp < G.warps(); ++Wp) {
      std::vector<unsigned> Act, Missing, Outside;
      for (unsigned T = G.warpBegin(Wp); T < G.warpEnd(Wp); ++T) {
        unsigned L = T - G.warpBegin(Wp);
        bool InMask = L < 32 && (*Mask >> L) & 1;
        if (Ev->Active[T])
          Act.push_back(L);
        if (InMask && !Ev->Active[T] && !Gone(T))
          Missing.push_back(L);
        if (!InMask && Ev->Active[T])
          Outside.push_back(L);
      }
      if (Act.empty())
        continue;
      ++WarpsReaching;
      // The message describes the first bad warp: its lanes, and those
      // that reach the call there. Lanes outside the mask outrank lanes
      // missing from it.
      if (!Outside.empty()) {
        if (!Extra)
          Bad.clear();
        Extra = true;
        if (Bad.empty())
          ActiveLanes = Act;
        Bad.push_back({Wp, Outside});
      } else if (!Missing.empty() && !Extra) {
        if (Bad.empty())
          ActiveLanes = Act;
        Bad.push_back({Wp, Missing});
      }
    }
  }
  if (Bad.empty())
    return {};
  bool Same = Bad.size() == WarpsReaching;
  for (auto &P : Bad)
    Same = Same && P.second == Bad.front().second;
  std::string Where =
      Same && G.warps() > 1
          ? " of each warp"
          : " of warp " + std::to_string(Bad.front().first);
  std::ostringstream OS;
  // A collective's message names its mask's value too: the call's text
  // may spell it as a variable.
  std::string Its = "its mask";
  if (Site.Collective && !Site.Callee && Site.Mask) {
    std::ostringstream M;
    M << "its mask 0x" << std::hex << *Site.Mask;
    Its = M.str();
  }
  auto Lanes = [](const std::vector<unsigned> &V) {
    return (V.size() == 1 ? "lane " : "lanes ") + rangeList(V);
  };
  if (Extra)
    OS << "is executed by " << Lanes(Bad.front().second) << Where
       << ", which " << Its << " does not name";
  else
    OS << "is reached only by " << Lanes(ActiveLanes) << Where << "; "
       << Lanes(Bad.front().second) << ", which " << Its
       << " names, never arrive" << (Bad.front().second.size() == 1 ? "s" : "");
  return OS.str();
}

std::string tileMismatch(const BarrierSite &Site,
                         const std::vector<const BarrierEvent *> &Evs) {
  unsigned T = Site.TileSize;
  std::vector<std::vector<unsigned>> Partial;
  unsigned First = 0, Reaching = 0;
  for (const BarrierEvent *Ev : Evs)
    for (unsigned Begin = 0; Begin < Ev->Active.size(); Begin += T) {
      std::vector<unsigned> Ranks;
      unsigned End = std::min<unsigned>(Begin + T, Ev->Active.size());
      for (unsigned I = Begin; I < End; ++I)
        if (Ev->Active[I])
          Ranks.push_back(I - Begin);
      if (Ranks.empty())
        continue;
      ++Reaching;
      if (Ranks.size() == End - Begin)
        continue;
      if (Partial.empty())
        First = Begin;
      Partial.push_back(std::move(Ranks));
    }
  if (Partial.empty())
    return {};
  // "of each tile" only when several tiles reach it, all alike.
  bool Same = Partial.size() == Reaching && Reaching > 1;
  for (const auto &P : Partial)
    Same = Same && P == Partial.front();
  std::string Size = std::to_string(T);
  return std::string("is reached only by ") +
         (Partial.front().size() == 1 ? "thread " : "threads ") +
         rangeList(Partial.front()) +
         (Same ? " of each " + Size + "-thread tile"
               : " of the " + Size + "-thread tile starting at thread " +
                     std::to_string(First)) +
         "; the rest of the tile never arrives";
}

bool uniformWithin(const UniformityValue &V, unsigned Size) {
  if (Size == 0)
    return false;
  // Lanes l and l ^ d agree for every d < Size: the aligned group of Size
  // lanes around l (a power of two up to a warp of 32) holds one value.
  if (Size <= 32 && llvm::isPowerOf2_32(Size)) {
    uint32_t Within = Size == 32 ? ~0u : (uint32_t(1) << Size) - 1;
    if ((V.laneXor() & Within) == Within)
      return true;
  }
  if (!V.PerThread)
    return false;
  const LaneValue &L = *V.PerThread;
  for (unsigned B = 0; B < L.size(); B += Size)
    if (!L.isUniform(B, std::min(B + Size, L.size())))
      return false;
  return true;
}

std::vector<unsigned> maskLanes(uint32_t Mask) {
  std::vector<unsigned> Lanes;
  for (unsigned L = 0; L < 32; ++L)
    if ((Mask >> L) & 1)
      Lanes.push_back(L);
  return Lanes;
}

} // namespace divergent
} // namespace shmem
