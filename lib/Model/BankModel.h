//===- BankModel.h - Shared-memory banks and wavefronts ---------*- C++ -*-===//
//
// How many wavefronts the shared-memory pipeline needs for one warp-wide
// access, given the byte address each active lane touches. The rules are
// calibrated against Nsight Compute on an H200 (see
// test/calibration/README.md); the unit test BankModelCalibrationTest
// replays every measured row.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_BANKMODEL_H
#define SHMEM_LINT_MODEL_BANKMODEL_H

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
  unsigned Wavefronts = 0;      ///< What the hardware needs.
  unsigned IdealWavefronts = 0; ///< What the access width needs at best.
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

class BankModel {
public:
  explicit BankModel(unsigned Banks = 32, unsigned BankBytes = 4)
      : Banks(Banks), BankBytes(BankBytes) {}

  /// \p LaneAddress holds one entry per lane of the warp: the byte offset the
  /// lane accesses, or nullopt when the lane is inactive. \p WidthBytes is
  /// 1, 2, 4, 8 or 16.
  BankResult analyze(const std::vector<std::optional<int64_t>> &LaneAddress,
                     unsigned WidthBytes, AccessOp Op) const;

  unsigned banks() const { return Banks; }
  unsigned bankBytes() const { return BankBytes; }
  unsigned bankOf(int64_t ByteAddress) const;

private:
  unsigned Banks;
  unsigned BankBytes;
};

} // namespace shmem

#endif
