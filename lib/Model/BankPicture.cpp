//===- BankPicture.cpp - One warp's lane->bank picture, and what-ifs ------===//

#include "BankPicture.h"

#include "IntMath.h"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

namespace shmem {

namespace {

bool isPowerOfTwo(int64_t X) { return X > 0 && (X & (X - 1)) == 0; }

} // namespace

unsigned LayoutPicture::activeLanes() const {
  unsigned N = 0;
  for (int B : LaneBank)
    N += B >= 0;
  return N;
}

bool LayoutPicture::broadcasts() const {
  for (char B : Broadcast)
    if (B)
      return true;
  return false;
}

LayoutPicture
makeLayoutPicture(const BankModel &Model,
                  const std::vector<std::optional<int64_t>> &LaneAddress,
                  unsigned WidthBytes, AccessOp Op) {
  BankResult R = Model.analyze(LaneAddress, WidthBytes, Op);
  LayoutPicture P;
  P.LaneBank = R.LaneBank;
  P.WordsPerBank = R.WordsPerBank;
  P.Wavefronts = R.Wavefronts;
  P.IdealWavefronts = R.IdealWavefronts;
  P.Degree = R.degree();
  P.PhaseLanes = R.PhaseLanes ? R.PhaseLanes : 32;
  P.Phases = R.Phases;
  size_t N = LaneAddress.size();
  P.LaneWord.assign(N, 0);
  P.Broadcast.assign(N, 0);
  int64_t WordBytes = Model.bankBytes();
  // Lanes per first word, within each phase.
  std::map<std::pair<size_t, int64_t>, unsigned> Sharing;
  for (size_t L = 0; L < N; ++L)
    if (LaneAddress[L]) {
      P.LaneWord[L] = floorDiv(*LaneAddress[L], WordBytes);
      ++Sharing[{L / P.PhaseLanes, P.LaneWord[L]}];
    }
  for (size_t L = 0; L < N; ++L)
    if (LaneAddress[L])
      P.Broadcast[L] = Sharing[{L / P.PhaseLanes, P.LaneWord[L]}] > 1;
  return P;
}

std::optional<int64_t> swizzleUnitBytes(const Array2D &A, unsigned WidthBytes) {
  if (A.Rows <= 0 || A.Cols <= 0 || A.ElemBytes <= 0)
    return std::nullopt;
  int64_t Unit = std::max<int64_t>(A.ElemBytes, WidthBytes);
  int64_t RowBytes = A.Cols * A.ElemBytes;
  if (RowBytes % Unit != 0)
    return std::nullopt;
  int64_t PerRow = RowBytes / Unit;
  if (PerRow < 2 || !isPowerOfTwo(PerRow))
    return std::nullopt;
  return Unit;
}

int64_t swizzledOffset(const Array2D &A, int64_t UnitBytes, int64_t Offset) {
  int64_t RowBytes = A.Cols * A.ElemBytes;
  int64_t PerRow = RowBytes / UnitBytes;
  int64_t Row = floorDiv(Offset, RowBytes);
  int64_t Within = Offset - Row * RowBytes;
  int64_t Col = Within / UnitBytes, Rem = Within % UnitBytes;
  int64_t RowMod = Row % PerRow;
  if (RowMod < 0)
    RowMod += PerRow;
  return Row * RowBytes + (Col ^ RowMod) * UnitBytes + Rem;
}

std::string arrayDeclaration(const std::string &ElemType,
                             const std::string &Name, const Array2D &A) {
  return ElemType + " " + Name + "[" + std::to_string(A.Rows) + "][" +
         std::to_string(A.Cols) + "]";
}

std::string describeLayoutCost(const LayoutPicture &L) {
  std::ostringstream OS;
  OS << L.Wavefronts << (L.Wavefronts == 1 ? " wavefront" : " wavefronts");
  if (L.Degree > 1)
    OS << " instead of " << L.IdealWavefronts << ": " << L.Degree
       << "-way conflict";
  else
    OS << ": conflict-free";
  return OS.str();
}

namespace {

void renderLayout(std::ostringstream &OS, const LayoutPicture &L,
                  const LayoutPicture *Base, const char *Tag) {
  OS << L.Label << Tag;
  if (!L.Layout.empty())
    OS << " (" << L.Layout;
  if (L.SharedBytes >= 0) {
    OS << (L.Layout.empty() ? " (" : ", ") << L.SharedBytes << " bytes";
    if (Base && Base->SharedBytes >= 0) {
      int64_t D = L.SharedBytes - Base->SharedBytes;
      OS << ", " << (D >= 0 ? "+" : "") << D;
    }
    OS << ")";
  } else if (!L.Layout.empty()) {
    OS << ")";
  }
  OS << ": " << describeLayoutCost(L) << "\n";
  size_t N = L.LaneBank.size();
  for (size_t Row = 0; Row * 16 < N; ++Row) {
    size_t First = Row * 16, Last = std::min(N, First + 16) - 1;
    OS << "  lanes " << (First < 10 ? " " : "") << First << "-" << Last
       << (Last < 10 ? " " : "") << ":";
    // Cells of four characters: the bank right-aligned in three, then '*'
    // for a broadcast lane; '.' marks an inactive lane.
    std::string Line;
    for (size_t Lane = First; Lane <= Last; ++Lane) {
      int B = L.LaneBank[Lane];
      std::string Num = B < 0 ? "." : std::to_string(B);
      Line += std::string(Num.size() < 3 ? 3 - Num.size() : 0, ' ') + Num;
      Line += (B >= 0 && Lane < L.Broadcast.size() && L.Broadcast[Lane]) ? '*'
                                                                         : ' ';
    }
    while (!Line.empty() && Line.back() == ' ')
      Line.pop_back();
    OS << Line << "\n";
  }
  // Distinct words per bank, grouped by count, largest first: "b5=32" when
  // few banks are used, else "2 in 8 banks (0, 4, ..., 28), 1 in 16 banks".
  std::map<unsigned, std::vector<size_t>, std::greater<unsigned>> ByCount;
  for (size_t B = 0; B < L.WordsPerBank.size(); ++B)
    if (L.WordsPerBank[B])
      ByCount[L.WordsPerBank[B]].push_back(B);
  size_t Used = 0;
  for (const auto &KV : ByCount)
    Used += KV.second.size();
  OS << "  distinct words per bank:";
  if (Used == 0)
    OS << " none";
  else if (Used <= 8) {
    for (size_t B = 0; B < L.WordsPerBank.size(); ++B)
      if (L.WordsPerBank[B])
        OS << " b" << B << "=" << L.WordsPerBank[B];
  } else {
    bool First = true;
    for (const auto &KV : ByCount) {
      OS << (First ? " " : ", ") << KV.first << " in " << KV.second.size()
         << (KV.second.size() == 1 ? " bank" : " banks");
      if (KV.second.size() <= 4) {
        OS << " (";
        for (size_t I = 0; I < KV.second.size(); ++I)
          OS << (I ? ", " : "") << KV.second[I];
        OS << ")";
      }
      First = false;
    }
  }
  OS << "\n";
}

} // namespace

std::string renderBankPictureText(const BankPicture &P) {
  std::ostringstream OS;
  OS << "lane -> bank, warp " << P.Warp << ", " << P.WidthBytes << "-byte "
     << (P.Store ? "store" : "load");
  if (P.WidthBytes > 4)
    OS << " (first bank of each lane; " << P.Original.PhaseLanes
       << " lanes per phase)";
  OS << ":\n";
  renderLayout(OS, P.Original, nullptr, "");
  if (P.Padded)
    renderLayout(OS, *P.Padded, &P.Original,
                 P.PaddingSuggested ? ", the suggested fix"
                                    : ", what-if, not suggested");
  if (P.Swizzled)
    renderLayout(OS, *P.Swizzled, &P.Original, ", what-if");
  if (!P.WhatIfNote.empty())
    OS << "note: " << P.WhatIfNote << "\n";
  bool Broadcast = P.Original.broadcasts() ||
                   (P.Padded && P.Padded->broadcasts()) ||
                   (P.Swizzled && P.Swizzled->broadcasts());
  if (Broadcast)
    OS << "(* lane shares its word with another lane of its phase: one "
          "broadcast read)\n";
  return OS.str();
}

} // namespace shmem
