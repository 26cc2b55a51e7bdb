//===- BankModel.h - Shared-memory banks and wavefronts ---------*- C++ -*-===//
//
// How many wavefronts the shared-memory pipeline needs for one warp-wide
// access, given the byte address each active lane touches. The rules are
// calibrated against Nsight Compute on an H200 (see
// test/calibration/README.md); the unit test BankModelCalibrationTest
// replays every measured row and expects the exact wavefront count, and the
// exact bank-conflict count ncu reports.
// BankModelEquivalenceTest compares analyze() and count() field by field
// with a plain reference written from the rules below, over random warps.
//
// The rules, in short (BankModel.cpp cites the rows that show each one):
//  1. The lanes are served in fixed phases of consecutive lanes: 32 lanes
//     for 1-, 2- and 4-byte accesses, 16 for 8-byte, 8 for 16-byte.
//  2. A phase costs as many wavefronts as the most distinct 4-byte words any
//     one bank must deliver in it (lanes on the same word share it); a phase
//     with no active lane costs nothing.
//  3. An 8- or 16-byte *load* whose lane pairs (2k, 2k+1) never hold two
//     active lanes at different addresses is served in phases twice as wide
//     (one 32-lane phase for 8 bytes, two 16-lane phases for 16 bytes).
//     Stores never fold.
//  4. Ideal = number of phases with an active lane; ncu's bank-conflict
//     counter is Wavefronts - Ideal.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_BANKMODEL_H
#define SHMEM_LINT_MODEL_BANKMODEL_H

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

enum class AccessOp { Load, Store };

/// One bank's share of the worst wavefront: the distinct words it must serve
/// and the lanes that asked for them.
struct BankPressure {
  unsigned Bank = 0;
  std::vector<int64_t> Words;  ///< Distinct word addresses, ascending.
  std::vector<unsigned> Lanes; ///< Lanes touching those words, ascending.
};

struct BankResult {
  unsigned ActiveLanes = 0;
  unsigned Wavefronts = 0; ///< What the hardware needs.
  /// What the access needs at best: the number of phases that hold an
  /// active lane (at least 1).
  unsigned IdealWavefronts = 0;
  /// Phases holding an active lane (0 when no lane is active).
  unsigned Phases = 0;
  /// Lanes per phase after folding (32, 16 or 8 on a 32-bank machine).
  unsigned PhaseLanes = 0;
  /// True when a wide load was served in double-width phases because no
  /// lane pair (2k, 2k+1) disagreed on its address (rule 3).
  bool PairsFolded = false;
  /// Wavefronts beyond one per phase: what Nsight Compute reports as
  /// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.
  unsigned BankConflicts = 0;
  /// The bank that needs the most distinct words in the worst phase.
  BankPressure Worst;
  /// The lanes of the phase in which Worst was found ([first, last)).
  unsigned PhaseBegin = 0, PhaseEnd = 0;
  /// Per lane: the bank of the first word it touches (-1 when inactive).
  std::vector<int> LaneBank;
  /// Per bank: distinct words requested over the whole warp.
  std::vector<unsigned> WordsPerBank;

  /// Conflict degree: wavefronts over the ideal, rounded up; 1 is ideal.
  unsigned degree() const;
  bool conflicted() const { return Wavefronts > IdealWavefronts; }
};

/// Not thread-safe: a model keeps scratch space between calls (see
/// Tallies); give each thread its own.
class BankModel {
public:
  explicit BankModel(unsigned Banks = 32, unsigned BankBytes = 4);

  /// \p LaneAddress holds one entry per lane of the warp: the byte offset the
  /// lane accesses, or nullopt when the lane is inactive. \p WidthBytes is
  /// 1, 2, 4, 8 or 16.
  BankResult analyze(const std::vector<std::optional<int64_t>> &LaneAddress,
                     unsigned WidthBytes, AccessOp Op) const;

  /// analyze() for callers that need only the cost: the same ActiveLanes,
  /// Wavefronts, IdealWavefronts, Phases, PhaseLanes, PairsFolded and
  /// BankConflicts (hence degree() and conflicted()), but LaneBank and
  /// WordsPerBank empty, Worst and PhaseBegin/PhaseEnd left at their
  /// defaults. For searches that cost many warps or many values of the
  /// unknowns and explain only the one they keep (CoalescingModel::count is
  /// the same for sectors). Past the first call it allocates nothing.
  BankResult count(const std::vector<std::optional<int64_t>> &LaneAddress,
                   unsigned WidthBytes, AccessOp Op) const;

  unsigned banks() const { return Banks; }
  unsigned bankBytes() const { return BankBytes; }
  unsigned bankOf(int64_t ByteAddress) const;

  /// Lanes per phase for an access of \p WidthBytes before any folding.
  unsigned phaseLanes(unsigned WidthBytes) const;
  /// Rule 3: may a load of this width fold lane pairs for these addresses?
  bool foldsPairs(const std::vector<std::optional<int64_t>> &LaneAddress,
                  unsigned WidthBytes, AccessOp Op) const;

private:
  int64_t wordOf(int64_t ByteAddress) const;
  unsigned bankOfWord(int64_t Word) const;

  template <bool Detail>
  void compute(const std::vector<std::optional<int64_t>> &LaneAddress,
               unsigned Width, AccessOp Op, BankResult &R) const;
  void wordsOfBank(const std::vector<std::optional<int64_t>> &LaneAddress,
                   unsigned Begin, unsigned End, unsigned Width, unsigned Bank,
                   std::vector<int64_t> &Words,
                   std::vector<unsigned> *Lanes) const;

  unsigned Banks;
  unsigned BankBytes;
  /// log2 of BankBytes, or -1 when not a power of two (then wordOf divides).
  int WordShift = -1;
  /// Banks - 1 when Banks is a power of two (then the bank of a word is its
  /// low bits), else -1.
  int64_t BankMask = -1;

  /// Distinct words per bank while lanes are scanned in order: as long as
  /// the words a bank receives never decrease, counting the changes counts
  /// them with no sort and no set. A word below the bank's last marks it
  /// Unsorted, and its words are then counted again exactly.
  struct Tallies {
    std::vector<int64_t> Last;   ///< Per bank: the highest word so far.
    std::vector<unsigned> Words; ///< Per bank: exact unless Unsorted.
    std::vector<char> Unsorted;  ///< Per bank: a word came below Last.
    bool AnyUnsorted = false;

    void reset(unsigned Banks) {
      Last.resize(Banks); // Read only where Words is not 0.
      Words.resize(Banks);
      Unsorted.resize(Banks);
      std::fill(Words.begin(), Words.end(), 0u);
      std::fill(Unsorted.begin(), Unsorted.end(), char(0));
      AnyUnsorted = false;
    }
    /// Counts word \p W of bank \p B; returns whether Words[B] rose.
    bool add(unsigned B, int64_t W) {
      if (Words[B] && W <= Last[B]) {
        if (W != Last[B])
          Unsorted[B] = AnyUnsorted = true;
        return false;
      }
      ++Words[B];
      Last[B] = W;
      return true;
    }
  };
  /// For the current phase and for the whole warp; kept between calls so
  /// that analysing warp after warp does not allocate.
  mutable Tallies PhaseTally, WarpTally;
  bool recount(Tallies &T,
               const std::vector<std::optional<int64_t>> &LaneAddress,
               unsigned Begin, unsigned End, unsigned Width) const;
  /// Words of one bank, sorted, when an Unsorted tally is counted again.
  mutable std::vector<int64_t> SortScratch;
};

} // namespace shmem

#endif
