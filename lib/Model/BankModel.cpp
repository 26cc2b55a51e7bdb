//===- BankModel.cpp - Shared-memory banks and wavefronts -----------------===//

#include "BankModel.h"

#include <algorithm>
#include <map>
#include <set>

namespace shmem {

unsigned BankResult::degree() const {
  if (IdealWavefronts == 0)
    return 1;
  return (Wavefronts + IdealWavefronts - 1) / IdealWavefronts;
}

unsigned BankModel::bankOf(int64_t A) const {
  int64_t W = A / int64_t(BankBytes);
  if (A < 0 && A % int64_t(BankBytes))
    --W;
  int64_t B = W % int64_t(Banks);
  return unsigned(B < 0 ? B + Banks : B);
}

BankResult
BankModel::analyze(const std::vector<std::optional<int64_t>> &LaneAddress,
                   unsigned WidthBytes, AccessOp Op) const {
  BankResult R;
  const unsigned Lanes = LaneAddress.size();
  R.LaneBank.assign(Lanes, -1);
  R.WordsPerBank.assign(Banks, 0);

  // Wide accesses are served in phases of lanes: a phase moves at most one
  // word per bank, so lanes are split so that a conflict-free phase fills
  // the banks exactly once.
  unsigned WordsPerLane = std::max(1u, WidthBytes / BankBytes);
  unsigned PhaseLanes = std::max(1u, Banks / WordsPerLane);

  auto WordOf = [&](int64_t A) {
    int64_t W = A / int64_t(BankBytes);
    if (A < 0 && A % int64_t(BankBytes))
      --W;
    return W;
  };

  std::vector<std::set<int64_t>> WarpWords(Banks);
  for (unsigned Begin = 0; Begin < Lanes; Begin += PhaseLanes) {
    unsigned End = std::min(Lanes, Begin + PhaseLanes);
    std::map<unsigned, std::set<int64_t>> Words;
    std::map<unsigned, std::set<unsigned>> BankLanes;
    bool Any = false;
    for (unsigned L = Begin; L < End; ++L) {
      if (!LaneAddress[L])
        continue;
      Any = true;
      ++R.ActiveLanes;
      int64_t First = WordOf(*LaneAddress[L]);
      int64_t Last = WordOf(*LaneAddress[L] + std::max(1u, WidthBytes) - 1);
      R.LaneBank[L] = int(bankOf(*LaneAddress[L]));
      for (int64_t W = First; W <= Last; ++W) {
        unsigned B = bankOf(W * int64_t(BankBytes));
        Words[B].insert(W);
        BankLanes[B].insert(L);
        WarpWords[B].insert(W);
      }
    }
    if (!Any)
      continue;
    unsigned PhaseCost = 0;
    for (const auto &KV : Words) {
      unsigned Cost = KV.second.size();
      if (Cost > PhaseCost)
        PhaseCost = Cost;
      if (Cost > R.Worst.Words.size()) {
        R.Worst.Bank = KV.first;
        R.Worst.Words.assign(KV.second.begin(), KV.second.end());
        const auto &LS = BankLanes[KV.first];
        R.Worst.Lanes.assign(LS.begin(), LS.end());
        R.PhaseBegin = Begin;
        R.PhaseEnd = End;
      }
    }
    R.Wavefronts += PhaseCost;
    ++R.IdealWavefronts;
  }
  for (unsigned B = 0; B < Banks; ++B)
    R.WordsPerBank[B] = WarpWords[B].size();
  (void)Op;
  if (R.IdealWavefronts == 0)
    R.IdealWavefronts = 1;
  return R;
}

} // namespace shmem
