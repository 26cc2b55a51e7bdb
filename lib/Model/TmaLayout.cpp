//===- TmaLayout.cpp - Where a TMA box lands in shared memory -------------===//
//
// See TmaLayout.h for the measured rules.
//
//===----------------------------------------------------------------------===//

#include "TmaLayout.h"

#include <sstream>

namespace shmem {

const char *swizzleName(TmaSwizzle S) {
  switch (S) {
  case TmaSwizzle::None:
    return "SWIZZLE_NONE";
  case TmaSwizzle::B32:
    return "SWIZZLE_32B";
  case TmaSwizzle::B64:
    return "SWIZZLE_64B";
  case TmaSwizzle::B128:
    return "SWIZZLE_128B";
  }
  return "SWIZZLE_NONE";
}

unsigned swizzleSpan(TmaSwizzle S) {
  switch (S) {
  case TmaSwizzle::None:
    return 0;
  case TmaSwizzle::B32:
    return 32;
  case TmaSwizzle::B64:
    return 64;
  case TmaSwizzle::B128:
    return 128;
  }
  return 0;
}

uint64_t TmaBoxLayout::rows() const {
  uint64_t R = 1;
  for (unsigned D = 1; D < Rank && D < 5; ++D)
    R *= Box[D];
  return R;
}

uint64_t TmaBoxLayout::pitch() const {
  uint64_t Row = (uint64_t(cols()) * ElemBytes + 15) / 16 * 16;
  uint64_t Span = swizzleSpan(Swizzle);
  return Row < Span ? Span : Row;
}

uint64_t TmaBoxLayout::alignment() const {
  unsigned Span = swizzleSpan(Swizzle);
  return Span ? uint64_t(Span) * 8 : 16;
}

uint64_t TmaBoxLayout::byteOf(uint64_t Row, uint64_t Col) const {
  uint64_t B = Row * pitch() + Col * ElemBytes;
  if (unsigned Span = swizzleSpan(Swizzle))
    B ^= ((B >> 7) & (Span / 16 - 1)) << 4;
  return B;
}

std::optional<std::pair<uint64_t, uint64_t>>
TmaBoxLayout::elementAt(uint64_t Byte) const {
  if (Byte >= footprint())
    return std::nullopt;
  // The XOR changes bits 4..6 only and reads bits 7..9: applying it again
  // undoes it.
  uint64_t B = Byte;
  if (unsigned Span = swizzleSpan(Swizzle))
    B ^= ((B >> 7) & (Span / 16 - 1)) << 4;
  uint64_t Row = B / pitch(), InRow = B % pitch();
  if (InRow % ElemBytes || InRow / ElemBytes >= cols())
    return std::nullopt; // Padding of a row narrower than its pitch.
  return std::make_pair(Row, InRow / ElemBytes);
}

bool TmaBoxLayout::valid() const {
  if (Rank < 1 || Rank > 5 ||
      (ElemBytes != 1 && ElemBytes != 2 && ElemBytes != 4 && ElemBytes != 8))
    return false;
  for (unsigned D = 0; D < Rank; ++D)
    if (Box[D] < 1 || Box[D] > 256)
      return false;
  unsigned Span = swizzleSpan(Swizzle);
  return !Span || uint64_t(cols()) * ElemBytes <= Span;
}

std::string TmaBoxLayout::describe() const {
  std::ostringstream S;
  for (unsigned D = Rank; D-- > 0;)
    S << Box[D] << (D ? " x " : "");
  S << " box of " << ElemBytes << "-byte elements, " << swizzleName(Swizzle);
  return S.str();
}

} // namespace shmem
