//===- ThreadGeometry.h - Block shape, warps and lanes ----------*- C++ -*-===//
//
// The threads of one block, in the order the hardware groups them into
// warps: linear id = x + y*Dx + z*Dx*Dy, lane = linear id mod warp size.
// threadIdx.y is therefore uniform in a warp only when Dx is a multiple of
// the warp size; the analysis never assumes it is.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_THREADGEOMETRY_H
#define SHMEM_LINT_MODEL_THREADGEOMETRY_H

#include "LaneValue.h"

#include <optional>
#include <string>
#include <string_view>

namespace shmem {

struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
  unsigned count() const { return X * Y * Z; }
  /// "256", "32x8", "16x16x4", "32,8" or "(32, 8)".
  static std::optional<Dim3> parse(std::string_view Text);
  std::string str() const;
  bool operator==(const Dim3 &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
  bool operator!=(const Dim3 &O) const { return !(*this == O); }
  bool operator<(const Dim3 &O) const {
    return X != O.X ? X < O.X : Y != O.Y ? Y < O.Y : Z < O.Z;
  }
};

class ThreadGeometry {
public:
  static constexpr unsigned MaxThreadsPerBlock = 1024;

  explicit ThreadGeometry(Dim3 Block, unsigned WarpSize = 32);

  const Dim3 &block() const { return Block; }
  unsigned warpSize() const { return WarpSize; }
  unsigned threads() const { return Block.count(); }
  unsigned warps() const { return (threads() + WarpSize - 1) / WarpSize; }
  /// The threads [first, last) of warp \p W (the last warp may be partial).
  unsigned warpBegin(unsigned W) const { return W * WarpSize; }
  unsigned warpEnd(unsigned W) const;
  /// Whether \p In (1 per thread of the block) holds whole warps only:
  /// every thread of a warp, or none (what a named barrier can count).
  bool wholeWarps(const std::vector<char> &In) const;

  /// threadIdx.{x,y,z} (Axis 0, 1, 2) in every thread of the block.
  LaneValue threadIdx(unsigned Axis) const;
  /// blockDim.{x,y,z} as constants.
  LaneValue blockDim(unsigned Axis) const;
  LaneValue linearId() const;
  LaneValue laneId() const;
  LaneValue warpId() const;

  unsigned coordinate(unsigned Thread, unsigned Axis) const;
  /// "threadIdx=(x,y,z)" or "thread 5" for a 1-D block.
  std::string describeThread(unsigned Thread) const;

private:
  Dim3 Block;
  unsigned WarpSize;
};

} // namespace shmem

#endif
