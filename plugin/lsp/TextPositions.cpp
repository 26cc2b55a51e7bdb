//===- TextPositions.cpp - Bytes, lines and LSP positions -----------------===//

#include "TextPositions.h"

#include "OutputFormats.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace shmem::lsp {

llvm::json::Value toJson(const Position &P) {
  return llvm::json::Object{{"line", P.Line}, {"character", P.Character}};
}

llvm::json::Value toJson(const Range &R) {
  return llvm::json::Object{{"start", toJson(R.Start)}, {"end", toJson(R.End)}};
}

bool fromJson(const llvm::json::Value *V, Position &P) {
  const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return false;
  std::optional<int64_t> L = O->getInteger("line"),
                         C = O->getInteger("character");
  if (!L || !C || *L < 0 || *C < 0)
    return false;
  P = {unsigned(*L), unsigned(*C)};
  return true;
}

bool fromJson(const llvm::json::Value *V, Range &R) {
  const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
  return O && fromJson(O->get("start"), R.Start) &&
         fromJson(O->get("end"), R.End);
}

LineTable::LineTable(llvm::StringRef Text) : Text(Text) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

size_t LineTable::offsetOf(unsigned Line1, unsigned Column1) const {
  if (Line1 == 0)
    return 0;
  if (Line1 > Starts.size())
    return Text.size();
  size_t Start = Starts[Line1 - 1];
  size_t End = Line1 < Starts.size() ? Starts[Line1] - 1 : Text.size();
  return std::min(Start + (Column1 ? Column1 - 1 : 0), End);
}

size_t LineTable::offsetOf(Position P) const {
  if (P.Line >= Starts.size())
    return Text.size();
  size_t I = Starts[P.Line];
  size_t End = P.Line + 1 < Starts.size() ? Starts[P.Line + 1] - 1 : Text.size();
  for (unsigned Units = 0; I < End && Units < P.Character;) {
    unsigned char C = Text[I];
    unsigned Len = C >= 0xF0 ? 4 : C >= 0xE0 ? 3 : C >= 0xC0 ? 2 : 1;
    Units += Len == 4 ? 2 : 1;
    I = std::min(I + Len, End);
  }
  return I;
}

Position LineTable::position(size_t Offset) const {
  Offset = std::min(Offset, Text.size());
  unsigned Line =
      std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin() -
      1;
  size_t Start = Starts[Line];
  return {Line, utf16Column(Text.slice(Start, Offset),
                            unsigned(Offset - Start + 1)) -
                    1};
}

size_t LineTable::tokenEnd(size_t Offset) const {
  auto Word = [&](size_t I) {
    return I < Text.size() && (llvm::isAlnum(Text[I]) || Text[I] == '_');
  };
  size_t End = Offset;
  while (Word(End))
    ++End;
  if (End > Offset)
    return End;
  if (Offset >= Text.size() || Text[Offset] == '\n')
    return Offset; // At a line's end: the caller widens backwards.
  // One character: a lead byte and its continuation bytes.
  End = Offset + 1;
  while (End < Text.size() && (static_cast<unsigned char>(Text[End]) & 0xC0) == 0x80)
    ++End;
  return End;
}

Range LineTable::tokenAt(unsigned Line1, unsigned Column1) const {
  size_t Begin = offsetOf(Line1, Column1);
  size_t End = tokenEnd(Begin);
  Range R{position(Begin), position(End)};
  if (!(R.Start < R.End) && R.Start.Character > 0)
    --R.Start.Character; // A finding at a line's end marks its last character.
  if (!(R.Start < R.End))
    R.End.Character = R.Start.Character + 1;
  return R;
}

llvm::StringRef LineTable::line(unsigned Line0) const {
  if (Line0 >= Starts.size())
    return {};
  size_t End = Line0 + 1 < Starts.size() ? Starts[Line0 + 1] - 1 : Text.size();
  llvm::StringRef L = Text.slice(Starts[Line0], End);
  return L.ends_with("\r") ? L.drop_back() : L;
}

} // namespace shmem::lsp
