//===- LaneList.h - Lanes as the findings name them -------------*- C++ -*-===//
//
// The bank findings name the lanes of a conflict ("lanes 0-7 read ...");
// one spelling for every message that lists lanes.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_LANELIST_H
#define SHMEM_LINT_CHECKS_LANELIST_H

#include <string>
#include <vector>

namespace shmem {

/// Ascending lanes as "0-31", "0, 2, ..., 30", "0, 5, 9, ... (12 lanes)" or
/// "0, 5, 9"; "none" when empty.
std::string laneList(const std::vector<unsigned> &Lanes);

} // namespace shmem

#endif
