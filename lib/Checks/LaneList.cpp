//===- LaneList.cpp - Lanes as the findings name them ---------------------===//
//
// See LaneList.h.
//
//===----------------------------------------------------------------------===//

#include "LaneList.h"

#include <sstream>

namespace shmem {

std::string laneList(const std::vector<unsigned> &Lanes) {
  // "0-31", "0, 2, 4, ..., 30" or "0, 5, 9".
  std::ostringstream OS;
  if (Lanes.empty())
    return "none";
  bool Contiguous = true;
  for (unsigned I = 1; I < Lanes.size(); ++I)
    if (Lanes[I] != Lanes[I - 1] + 1)
      Contiguous = false;
  if (Contiguous && Lanes.size() > 2) {
    OS << Lanes.front() << "-" << Lanes.back();
    return OS.str();
  }
  if (Lanes.size() > 6) {
    unsigned Step = Lanes[1] - Lanes[0];
    bool Arith = true;
    for (unsigned I = 1; I < Lanes.size(); ++I)
      if (Lanes[I] - Lanes[I - 1] != Step)
        Arith = false;
    if (Arith) {
      OS << Lanes[0] << ", " << Lanes[1] << ", ..., " << Lanes.back();
      return OS.str();
    }
    OS << Lanes[0] << ", " << Lanes[1] << ", " << Lanes[2] << ", ... ("
       << Lanes.size() << " lanes)";
    return OS.str();
  }
  for (unsigned I = 0; I < Lanes.size(); ++I)
    OS << (I ? ", " : "") << Lanes[I];
  return OS.str();
}

} // namespace shmem
