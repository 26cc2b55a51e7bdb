//===- BypassCopies.cpp - The bank check's 16-byte cp.async.cg ------------===//
//
// See BypassCopies.h.
//
//===----------------------------------------------------------------------===//

#include "BypassCopies.h"

#include "IntMath.h"
#include "LaneList.h"

#include <sstream>

namespace shmem {

namespace {

/// The generic value of the I-th unknown: a multiple of 128 bytes in any
/// coefficient, far from the others.
int64_t genericValue(unsigned I) { return int64_t(I + 1) << 20; }

/// \p V in thread \p Th, every unknown at its generic value.
int64_t at(const LaneValue &V, unsigned Th) {
  int64_t X = V.constants()[Th];
  unsigned I = 0;
  for (const auto &KV : V.coefficients())
    X = wrapAdd(X, wrapMul(KV.second[Th], genericValue(I++)));
  return X;
}

} // namespace

std::optional<BypassWarp> worstBypassWarp(const SharedAccess &A,
                                          const KernelTrace &T) {
  const LaneValue &Off = A.Address.Offset;
  if (!Off.isAffine())
    return std::nullopt;
  const LaneValue *Src =
      A.AsyncSource && A.AsyncSource->isAffine() ? &*A.AsyncSource : nullptr;
  const ThreadGeometry &G = T.Geometry;
  std::optional<BypassWarp> Worst;
  std::vector<std::optional<int64_t>> Shared, Global;
  RowWavefrontCache Rows;
  for (unsigned W = 0; W < G.warps(); ++W) {
    unsigned B = G.warpBegin(W), E = G.warpEnd(W);
    Shared.assign(E - B, std::nullopt);
    Global.assign(E - B, std::nullopt);
    bool Any = false;
    for (unsigned Th = B; Th < E; ++Th) {
      if (!A.Active[Th])
        continue;
      Any = true;
      Shared[Th - B] = at(Off, Th);
      Global[Th - B] = Src ? at(*Src, Th) : int64_t(Th - B) * 16;
    }
    if (!Any)
      continue;
    BypassCopyResult R = analyzeBypassCopy(Shared, Global, &Rows);
    if (!Worst || R.Wavefronts > Worst->Result.Wavefronts)
      Worst = BypassWarp{W, std::move(R), Shared, Src != nullptr};
  }
  return Worst;
}

std::string bypassConflictText(const BypassWarp &W, const std::string &Name) {
  const BypassCopyResult &R = W.Result;
  std::ostringstream OS;
  OS << " in a 16-byte cp.async.cg: lanes " << laneList(R.WorstLanes)
     << " copy one 128-byte global line";
  if (!W.SourceKnown)
    OS << " (taken as consecutive 16-byte pieces)";
  const std::vector<int64_t> &Rows = R.WorstRows;
  if (Rows.size() == 1) {
    OS << " into the row of '" << Name << "' at byte " << Rows[0] * 128;
    if (R.WorstWavefronts > 1)
      OS << " in an order no one rotation or XOR gives";
  }
  else {
    OS << " into " << Rows.size() << " rows of '" << Name << "' (at bytes ";
    for (unsigned I = 0; I < Rows.size(); ++I)
      OS << (I == 0 ? "" : I + 1 == Rows.size() ? " and " : ", ")
         << Rows[I] * 128;
    OS << ")";
  }
  OS << ", " << R.WorstWavefronts << " wavefront"
     << (R.WorstWavefronts == 1 ? "" : "s") << " for the line ("
     << R.Wavefronts << " wavefronts instead of " << R.IdealWavefronts
     << ")";
  if (!R.conflicted())
    return OS.str();
  OS << "; a 16-byte cp.async.cg moves a line into shared memory one "
        "128-byte row per wavefront, its pieces rotated by a multiple of 32 "
        "bytes or permuted by an XOR: ";
  if (Rows.size() > 1)
    OS << "start each line on a 128-byte boundary (a row pitch that is a "
          "multiple of 128 bytes; an XOR swizzle rather than padding)";
  else
    OS << "place the pieces by an XOR of their index (a swizzle) or a "
          "rotation by whole 32-byte sectors";
  return OS.str();
}

} // namespace shmem
