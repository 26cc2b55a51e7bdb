//===- WarpMasks.h - Lanes a warp or tile mask leaves out -------*- C++ -*-===//
//
// Part of shmem-divergent-barrier: where the trace's per-thread masks are
// exact, a warp barrier or collective is correct exactly when its mask
// names the lanes that reach it, and a tile barrier when every tile is
// reached by all its threads or by none; these say which lanes or threads
// break that, in the words of the finding.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_WARPMASKS_H
#define SHMEM_LINT_CHECKS_WARPMASKS_H

#include "BarrierSites.h"

#include "Analysis/KernelTrace.h"

#include <string>
#include <vector>

namespace shmem {
namespace divergent {

/// For warp barriers with exact masks: the first warp whose active lanes
/// differ from the lanes the mask names, described; empty when every warp
/// agrees with the mask.
/// \p Extra: the lanes described execute it outside the mask (else they are
/// lanes of the mask that never arrive). \p G is the block's geometry.
std::string laneMismatch(const BarrierSite &Site,
                         const std::vector<const BarrierEvent *> &Evs,
                         const ThreadGeometry &G, bool &Extra);

/// For tile barriers with exact masks: the tiles that are only partly
/// active, described; empty when every tile is all in or all out.
std::string tileMismatch(const BarrierSite &Site,
                         const std::vector<const BarrierEvent *> &Evs);

/// Whether the condition \p V is the same across each aligned group of
/// \p Size threads: its exact per-thread values say so, or, for a group
/// within a warp, its lane symmetries (a vote or a shuffle from one lane of
/// a tile of that size gives every lane of the tile one value).
bool uniformWithin(const UniformityValue &V, unsigned Size);

/// The lanes a constant mask names.
std::vector<unsigned> maskLanes(uint32_t Mask);

} // namespace divergent
} // namespace shmem

#endif
