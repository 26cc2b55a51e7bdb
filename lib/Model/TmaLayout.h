//===- TmaLayout.h - Where a TMA box lands in shared memory -----*- C++ -*-===//
//
// A bulk tensor copy (TMA, `cp.async.bulk.tensor`) writes a box of a global
// tensor into shared memory row after row. The tensor map made on the host
// (`cuTensorMapEncodeTiled`) fixes the element size, the box and a swizzle
// mode; with a swizzle the copy engine moves each 16-byte chunk of a row to
// another chunk of the same row, so that reading a column later touches
// every bank. Measured on the H200 (bench/gpu/tma, test/calibration/
// tma-layout-h200.tsv, replayed by TmaLayoutCalibrationTest):
//
//  - element (r, c) of the box is at byte b = r * Pitch + c * ElemBytes of
//    the destination, then its chunk index is XORed with the row of 128
//    bytes it falls in: b ^= ((b >> 7) & (Span / 16 - 1)) << 4, Span being
//    32, 64 or 128 bytes for SWIZZLE_32B/64B/128B (none for SWIZZLE_NONE);
//  - a row takes Pitch bytes: the box row's bytes, rounded up to 16, and
//    at least Span for a swizzled mode (a narrower box row still occupies
//    a whole span, so a tile sized by the box is overrun);
//  - the XOR reads address bits of the destination itself: the pattern is
//    the one above only from an address aligned to Span * 8 bytes (1024
//    for 128B).
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_TMALAYOUT_H
#define SHMEM_LINT_MODEL_TMALAYOUT_H

#include <cstdint>
#include <optional>
#include <string>

namespace shmem {

/// CU_TENSOR_MAP_SWIZZLE_*: the values cuda.h gives them.
enum class TmaSwizzle { None = 0, B32 = 1, B64 = 2, B128 = 3 };

/// "SWIZZLE_128B", as the enumerator's suffix reads.
const char *swizzleName(TmaSwizzle S);
/// 32, 64 or 128; 0 for None.
unsigned swizzleSpan(TmaSwizzle S);

/// The layout a tensor map gives a box in shared memory (the two innermost
/// dimensions; outer ones repeat the rows).
struct TmaBoxLayout {
  TmaSwizzle Swizzle = TmaSwizzle::None;
  unsigned ElemBytes = 4;
  /// Box extent per dimension, innermost first (boxDim of the encode call).
  unsigned Rank = 2;
  uint32_t Box[5] = {1, 1, 1, 1, 1};

  unsigned cols() const { return Box[0]; }
  /// Rows: the product of the outer dimensions.
  uint64_t rows() const;
  /// Bytes one box row takes in shared memory.
  uint64_t pitch() const;
  /// Bytes the whole box takes from the destination on.
  uint64_t footprint() const { return rows() * pitch(); }
  /// The alignment the destination needs for the layout below to hold
  /// (16 for SWIZZLE_NONE; the hardware itself requires 128).
  uint64_t alignment() const;
  /// The byte, from the destination, that element (Row, Col) lands at.
  uint64_t byteOf(uint64_t Row, uint64_t Col) const;
  /// The element whose bytes start at \p Byte, if one does: the inverse of
  /// byteOf (the swizzle is its own inverse within a row of 128 bytes).
  std::optional<std::pair<uint64_t, uint64_t>> elementAt(uint64_t Byte) const;
  /// Whether the map is one the copy engine accepts: box rows of at most
  /// Span bytes for a swizzled mode, extents of 1..256, a known element
  /// size. The layout means nothing otherwise.
  bool valid() const;
  /// "8 x 32 box of 4-byte elements, SWIZZLE_128B".
  std::string describe() const;
};

} // namespace shmem

#endif
