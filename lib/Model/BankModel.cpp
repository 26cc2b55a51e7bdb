//===- BankModel.cpp - Shared-memory banks and wavefronts -----------------===//
//
// Fitted to test/calibration/h200-shared-wavefronts.tsv (433 single-access
// kernels on an H200, Nsight Compute 2025.3.1; every row reproduced exactly,
// wavefronts and bank conflicts). Row names below are that file's.
//
// Rule 1, fixed phases. A warp's lanes are split into consecutive groups of
// Banks / ceil(Width / BankBytes) lanes: 32 lanes up to 4 bytes, 16 lanes
// (two half-warps) for 8 bytes, 8 lanes (four quarter-warps) for 16 bytes.
// The split is by lane number, not by address: ld64_evenodd_rows costs 4
// (two half-warps with a 2-way conflict each) although its 32 addresses fit
// in 2 conflict-free wavefronts; ld128_mod4_rows costs 16, not 4;
// st64_evenodd_rows and st128_mod4_rows likewise.
//
// Rule 2, cost of a phase. The most distinct 4-byte words that one bank must
// deliver to the phase's active lanes. Lanes reading or writing the same
// word share it, whatever bytes of it they touch: ld8_stride1 and
// ld16_stride1 cost 1 (4 and 2 lanes per word), ld32_stride0 and
// st32_stride0 cost 1 (one address; a store to one word by every lane is
// one wavefront too), ld8_4perword_samebank costs 8 (eight words of bank 0,
// four lanes each), ld16_2perword_samebank 16. Strides: ld32_stride2 2,
// ld32_stride32 32, ld32_stride33 1, ld64_stride2 4 (2 per phase),
// ld128_stride2 8. Empty phases cost nothing: ld32_nolanes 0 (the
// warp branches around the instruction), ld128_lane5only 1,
// ld128_block8_stride1 1, ld64_masklt16_stride1 1.
//
// Rule 3, wide loads fold lane pairs. For a load of 8 or 16 bytes, when no
// pair of lanes (2k, 2k+1) holds two active lanes at different addresses,
// the phases are twice as wide: one 32-lane phase for 8 bytes, two 16-lane
// phases for 16 bytes. This is what the "broadcast" and "multicast" rows
// show: ld64_stride0 1 and ld128_stride0 2 (not 2 and 4), ld64_group2..16
// 1, ld128_group2..16 2, ld128_halves_samebank 2. An inactive partner does
// not prevent folding: ld64_even_lanes_pairs 1 (else 2),
// ld128_even_lanes_pairs 2 (else 4), ld128_block16_group2 1,
// ld128_masklt16_group2 1. The folded phase's cost is its union's worst
// bank: ld64_pairs_conflict_split 2 (two 2-way conflicts in different
// halves fall into one phase; unfolded: 4), ld128_pairs_conflict 3 (else 5).
// The test is all-or-nothing over the warp: ld128_pairs_half0 and
// ld128_pairs_half1 cost 4 (folding one half alone would give 3),
// ld128_pairs_scattered 4, ld64_pairs_half0_rows 3. Only the aligned pairs
// count, and no wider grouping folds further: ld128_oddpairs 4 (lanes
// 2k+1, 2k+2 share), ld128_lane_i_i8_same 4, ld128_lane_i_i16_same 4,
// ld64_lane_i_i16_same 2, ld64_cyclic8 2, ld128_group4 2 (not 1).
//
// Stores never fold: st64_stride0 2, st128_stride0 4 (also with one value
// from every lane: st64_stride0_samevalue 2, st128_stride0_samevalue 4),
// st128_group2 4, st128_group2_samevalue 4, st64_even_lanes_pairs 2,
// st128_block16_group2 2.
//
// Rule 4, the ideal. Ideal = phases with an active lane; Nsight Compute's
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st} equals
// Wavefronts - Ideal on every row (e.g. ld128_stride0: 2 wavefronts, 0
// conflicts; ld64_evenodd_rows: 4 wavefronts, 2 conflicts).
//
//===----------------------------------------------------------------------===//

#include "BankModel.h"

#include "IntMath.h"

#include <algorithm>

namespace shmem {

unsigned BankResult::degree() const {
  if (IdealWavefronts == 0)
    return 1;
  return std::max(1u, (Wavefronts + IdealWavefronts - 1) / IdealWavefronts);
}

BankModel::BankModel(unsigned Banks, unsigned BankBytes)
    : Banks(Banks ? Banks : 1), BankBytes(BankBytes ? BankBytes : 1) {
  // Word and bank indices are taken for every word every lane touches; on
  // real hardware both sizes are powers of two, where an arithmetic shift
  // and a mask are the same floor division and modulo as the general path.
  WordShift = exactLog2(this->BankBytes);
  if (exactLog2(this->Banks) >= 0)
    BankMask = int64_t(this->Banks) - 1;
}

int64_t BankModel::wordOf(int64_t A) const {
  if (WordShift >= 0)
    return A >> WordShift;
  int64_t W = A / int64_t(BankBytes);
  if (A < 0 && A % int64_t(BankBytes))
    --W;
  return W;
}

unsigned BankModel::bankOfWord(int64_t W) const {
  if (BankMask >= 0)
    return unsigned(W & BankMask);
  int64_t B = W % int64_t(Banks);
  return unsigned(B < 0 ? B + Banks : B);
}

unsigned BankModel::bankOf(int64_t A) const { return bankOfWord(wordOf(A)); }

unsigned BankModel::phaseLanes(unsigned WidthBytes) const {
  unsigned Width = std::max(1u, WidthBytes);
  unsigned WordsPerLane = (Width + BankBytes - 1) / BankBytes;
  return std::max(1u, Banks / WordsPerLane);
}

bool BankModel::foldsPairs(
    const std::vector<std::optional<int64_t>> &LaneAddress, unsigned WidthBytes,
    AccessOp Op) const {
  if (Op != AccessOp::Load || std::max(1u, WidthBytes) <= BankBytes)
    return false;
  for (size_t L = 0; L + 1 < LaneAddress.size(); L += 2) {
    const auto &A = LaneAddress[L], &B = LaneAddress[L + 1];
    if (A && B && *A != *B)
      return false;
  }
  return true;
}

BankResult
BankModel::analyze(const std::vector<std::optional<int64_t>> &LaneAddress,
                   unsigned WidthBytes, AccessOp Op) const {
  BankResult R;
  compute</*Detail=*/true>(LaneAddress, std::max(1u, WidthBytes), Op, R);
  return R;
}

BankResult
BankModel::count(const std::vector<std::optional<int64_t>> &LaneAddress,
                 unsigned WidthBytes, AccessOp Op) const {
  BankResult R;
  compute</*Detail=*/false>(LaneAddress, std::max(1u, WidthBytes), Op, R);
  return R;
}

/// The distinct words lanes [Begin, End) ask of \p Bank, ascending, and
/// when \p Lanes is given the lanes asking, ascending: the exact count for
/// an Unsorted tally and the worst bank's detail.
void BankModel::wordsOfBank(
    const std::vector<std::optional<int64_t>> &LaneAddress, unsigned Begin,
    unsigned End, unsigned Width, unsigned Bank, std::vector<int64_t> &Words,
    std::vector<unsigned> *Lanes) const {
  Words.clear();
  if (Lanes)
    Lanes->clear();
  for (unsigned L = Begin; L < End; ++L) {
    if (!LaneAddress[L])
      continue;
    int64_t A = *LaneAddress[L];
    for (int64_t W = wordOf(A), Last = wordOf(A + int64_t(Width) - 1);
         W <= Last; ++W) {
      if (bankOfWord(W) != Bank)
        continue;
      // Lanes sharing a word are often neighbours: skip those at once.
      if (Words.empty() || Words.back() != W)
        Words.push_back(W);
      if (Lanes && (Lanes->empty() || Lanes->back() != L))
        Lanes->push_back(L);
    }
  }
  if (!std::is_sorted(Words.begin(), Words.end()))
    std::sort(Words.begin(), Words.end());
  Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
}

/// An Unsorted tally counted only the words above all before them, a lower
/// bound: count those banks again, exactly. Returns whether any was.
bool BankModel::recount(Tallies &T,
                        const std::vector<std::optional<int64_t>> &LaneAddress,
                        unsigned Begin, unsigned End, unsigned Width) const {
  if (!T.AnyUnsorted)
    return false;
  for (unsigned B = 0; B < Banks; ++B)
    if (T.Unsorted[B]) {
      wordsOfBank(LaneAddress, Begin, End, Width, B, SortScratch, nullptr);
      T.Words[B] = unsigned(SortScratch.size());
    }
  return true;
}

template <bool Detail>
void BankModel::compute(const std::vector<std::optional<int64_t>> &LaneAddress,
                        unsigned Width, AccessOp Op, BankResult &R) const {
  // Rules 1 to 4, with each phase's banks tallied in lane order rather than
  // the (bank, word, lane) tuples sorted per phase and over the warp of
  // before (about ten thousand instructions per warp, most of a search's
  // time); words that arrive out of order are sorted for their bank alone.
  const unsigned Lanes = LaneAddress.size();
  if constexpr (Detail) {
    R.LaneBank.assign(Lanes, -1);
    WarpTally.reset(Banks);
  }

  unsigned PhaseLanes = phaseLanes(Width);
  R.PairsFolded = foldsPairs(LaneAddress, Width, Op);
  if (R.PairsFolded)
    PhaseLanes *= 2;
  R.PhaseLanes = PhaseLanes;

  unsigned WorstCost = 0;
  for (unsigned Begin = 0; Begin < Lanes; Begin += PhaseLanes) {
    unsigned End = std::min(Lanes, Begin + PhaseLanes);
    PhaseTally.reset(Banks);
    unsigned PhaseCost = 0;
    bool Active = false;
    for (unsigned L = Begin; L < End; ++L) {
      if (!LaneAddress[L])
        continue;
      ++R.ActiveLanes;
      Active = true;
      int64_t A = *LaneAddress[L];
      int64_t FirstW = wordOf(A), LastW = wordOf(A + int64_t(Width) - 1);
      if constexpr (Detail)
        R.LaneBank[L] = int(bankOfWord(FirstW));
      for (int64_t W = FirstW; W <= LastW; ++W) {
        unsigned B = bankOfWord(W);
        if (PhaseTally.add(B, W))
          PhaseCost = std::max(PhaseCost, PhaseTally.Words[B]);
        if constexpr (Detail)
          WarpTally.add(B, W);
      }
    }
    if (!Active)
      continue;
    if (recount(PhaseTally, LaneAddress, Begin, End, Width))
      PhaseCost = *std::max_element(PhaseTally.Words.begin(),
                                    PhaseTally.Words.end());
    // The worst bank is the lowest one reaching the maximum in the first
    // phase that reaches it.
    if (Detail && PhaseCost > WorstCost) {
      WorstCost = PhaseCost;
      unsigned B = 0;
      while (PhaseTally.Words[B] != PhaseCost)
        ++B;
      R.Worst.Bank = B;
      R.Worst.Words.reserve(PhaseCost);
      R.Worst.Lanes.reserve(End - Begin);
      wordsOfBank(LaneAddress, Begin, End, Width, B, R.Worst.Words,
                  &R.Worst.Lanes);
      R.PhaseBegin = Begin;
      R.PhaseEnd = End;
    }
    R.Wavefronts += PhaseCost;
    ++R.Phases;
  }
  if constexpr (Detail) {
    recount(WarpTally, LaneAddress, 0, Lanes, Width);
    R.WordsPerBank = WarpTally.Words;
  }
  R.BankConflicts = R.Wavefronts - R.Phases;
  R.IdealWavefronts = std::max(1u, R.Phases);
}

} // namespace shmem
