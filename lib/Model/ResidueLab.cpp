//===- ResidueLab.cpp - Orbits of repeated addition modulo m --------------===//

#include "ResidueLab.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace shmem {

std::vector<uint64_t> ResidueOrbit::sorted() const {
  std::vector<uint64_t> S = Visits;
  std::sort(S.begin(), S.end());
  return S;
}

std::optional<ResidueOrbit> residueOrbit(uint64_t Modulus, int64_t Step) {
  if (Modulus == 0 || Modulus > MaxResidueModulus)
    return std::nullopt;
  ResidueOrbit O;
  O.Modulus = Modulus;
  // Reduce without overflow for any int64_t, INT64_MIN included.
  int64_t M = int64_t(Modulus);
  int64_t R = Step % M;
  O.Step = uint64_t(R < 0 ? R + M : R);
  O.Gcd = std::gcd(Modulus, O.Step); // gcd(M, 0) = M
  uint64_t X = 0;
  do {
    O.Visits.push_back(X);
    X = (X + O.Step) % Modulus;
  } while (X != 0);
  return O;
}

namespace {

void listResidues(std::ostringstream &OS, const std::vector<uint64_t> &Rs,
                  const char *Sep, unsigned MaxListed) {
  size_t N = Rs.size();
  if (N <= MaxListed || MaxListed < 4) {
    for (size_t I = 0; I < N; ++I)
      OS << (I ? Sep : "") << Rs[I];
    return;
  }
  // The first few, an ellipsis, the last two.
  size_t Head = MaxListed - 2;
  for (size_t I = 0; I < Head; ++I)
    OS << (I ? Sep : "") << Rs[I];
  OS << Sep << "..." << Sep << Rs[N - 2] << Sep << Rs[N - 1];
}

} // namespace

std::string describeResidueOrbit(const ResidueOrbit &O, unsigned MaxListed) {
  std::ostringstream OS;
  uint64_t P = O.period();
  OS << "residue lab: start at 0, add " << O.Step << " modulo " << O.Modulus
     << ", repeat\n";
  OS << "  walk:     ";
  std::vector<uint64_t> Walk = O.Visits;
  Walk.push_back(0); // back where it started
  listResidues(OS, Walk, " -> ", MaxListed + 1);
  OS << "\n";
  OS << "  orbit:    {";
  listResidues(OS, O.sorted(), ", ", MaxListed);
  OS << "} (" << P << (P == 1 ? " residue" : " residues") << " of " << O.Modulus
     << ")\n";
  OS << "  period:   " << P << " = " << O.Modulus << " / gcd(" << O.Modulus
     << ", " << O.Step << ") = " << O.Modulus << " / " << O.Gcd << "\n";
  if (P == O.Modulus)
    OS << "  the step is coprime to the modulus, so the walk visits every "
          "residue\n";
  else if (P == 1)
    OS << "  the step is a multiple of the modulus, so the walk never leaves "
          "0\n";
  else
    OS << "  the walk visits only the multiples of " << O.Gcd << "; the other "
       << O.Modulus - P << " residues are never reached\n";
  OS << "\nThis is an analogy, not the bank model. Read the modulus as the "
        "number of banks\n"
        "(32) and the step as the distance in 4-byte words between "
        "successive lanes:\n"
        "lane k then lands in bank k * step mod 32, so the lanes reach only "
        "the banks\n"
        "of the orbit";
  if (O.Modulus == 32)
    OS << ": here a stride of " << O.Step
       << (O.Step == 1 ? " word reaches " : " words reaches ") << P
       << (P == 1 ? " bank" : " banks") << ", " << 32 / P
       << (32 / P == 1 ? " lane" : " lanes") << " in each";
  OS << ".\n"
        "The real mapping also depends on word addresses (lanes on one word "
        "share it:\n"
        "a broadcast), the access width (8- and 16-byte accesses are served "
        "in phases),\n"
        "masked lanes and the block shape. For the real thing, run e.g.\n"
        "  shmem-lint explain --shape 32x32 --type float --index "
        "'tile[lane][0]'\n";
  return OS.str();
}

} // namespace shmem
