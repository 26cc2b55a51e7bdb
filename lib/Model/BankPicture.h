//===- BankPicture.h - A warp's lane->bank picture and what-ifs -*- C++ -*-===//
//
// The structured picture behind a bank-conflict finding: for one warp of one
// access, which bank (and which 4-byte word) each lane touches, how many
// distinct words each bank serves, which lanes share a word (broadcast), and
// the wavefronts. A finding carries it for the layout as written and, where
// the array is a 2-D array, for two what-if layouts: the rows padded
// (the padding the check suggests, else one element) and an XOR swizzle of
// the column with the row. Front ends render it: the text output under
// --verbose, the HTML report, `shmem-lint explain`.
//
// Every picture is computed by the BankModel from the lanes' byte addresses,
// so it shows exactly what the analysis decided.
//
// Model layer: no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_BANKPICTURE_H
#define SHMEM_LINT_MODEL_BANKPICTURE_H

#include "BankModel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// One warp's access under one layout of the array.
struct LayoutPicture {
  /// "as written", "padded", "XOR swizzle".
  std::string Label;
  /// The layout in source terms: "float tile[32][33]",
  /// "tile[r][c ^ (r % 32)] in float tile[32][32]".
  std::string Layout;
  /// Per lane of the warp: the bank of the first word it touches, -1 when
  /// the lane is inactive.
  std::vector<int> LaneBank;
  /// Per lane: that word's index from the start of the array (bytes / 4);
  /// meaningless for inactive lanes.
  std::vector<int64_t> LaneWord;
  /// Per lane: another active lane of its phase touches the same first word.
  std::vector<char> Broadcast;
  /// Per bank: distinct words requested over the whole warp.
  std::vector<unsigned> WordsPerBank;
  unsigned Wavefronts = 0;
  unsigned IdealWavefronts = 0;
  unsigned Degree = 1;
  /// Lanes served per phase (32, 16, 8) and the phases used.
  unsigned PhaseLanes = 32;
  unsigned Phases = 0;
  /// Bytes of the array in this layout; -1 when unknown (extern __shared__).
  int64_t SharedBytes = -1;

  unsigned activeLanes() const;
  bool broadcasts() const;
};

struct BankPicture {
  /// The shared array ("tile").
  std::string Array;
  /// Which warp of the block is shown (the worst one).
  unsigned Warp = 0;
  unsigned WidthBytes = 4;
  bool Store = false;
  LayoutPicture Original;
  /// What-if layouts; absent when they do not apply.
  std::optional<LayoutPicture> Padded;
  std::optional<LayoutPicture> Swizzled;
  /// The check suggests Padded (its fix-it); otherwise Padded is only a
  /// what-if.
  bool PaddingSuggested = false;
  /// The rows the what-ifs work on: the elements per row (a 2-D array's
  /// columns, a flattened array's row stride; 0 without what-ifs) and the
  /// elements Padded adds to each.
  int64_t RowElems = 0, PadElems = 0;
  /// Why there are no what-ifs, or what limits them (may be empty).
  std::string WhatIfNote;
};

/// The picture of one layout, from each lane's byte offset from the start of
/// the array (nullopt: inactive lane).
LayoutPicture
makeLayoutPicture(const BankModel &Model,
                  const std::vector<std::optional<int64_t>> &LaneAddress,
                  unsigned WidthBytes, AccessOp Op);

/// A 2-D array `T a[Rows][Cols]` with elements of ElemBytes.
struct Array2D {
  int64_t Rows = 0, Cols = 0, ElemBytes = 0;
  int64_t bytes() const { return Rows * Cols * ElemBytes; }
};

/// The unit an XOR swizzle permutes for accesses of \p WidthBytes to \p A:
/// the element, or the access when it is wider (a float4 read of a float
/// tile moves 4 elements together). std::nullopt when the swizzle does not
/// apply: the units per row are not a power of two greater than one.
std::optional<int64_t> swizzleUnitBytes(const Array2D &A, unsigned WidthBytes);

/// Where the byte at \p Offset of the array lives after the swizzle
/// `a[r][c ^ (r % n)]`, with c counted in units of \p UnitBytes and n the
/// units per row. Offsets outside the array are mapped periodically.
int64_t swizzledOffset(const Array2D &A, int64_t UnitBytes, int64_t Offset);

/// "float tile[32][33]".
std::string arrayDeclaration(const std::string &ElemType,
                             const std::string &Name, const Array2D &A);

/// The terminal rendering (the text output's --verbose detail and
/// `shmem-lint explain`): for each layout, a header line with wavefronts,
/// degree and bytes, then the lanes' banks in two rows of 16 (`*` marks a
/// broadcast, `.` an inactive lane) and the distinct words per bank.
std::string renderBankPictureText(const BankPicture &P);

/// "32-way conflict", "conflict-free", and wavefronts, for one layout.
std::string describeLayoutCost(const LayoutPicture &L);

} // namespace shmem

#endif
