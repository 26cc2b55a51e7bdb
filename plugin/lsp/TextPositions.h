//===- TextPositions.h - Bytes, lines and LSP positions --------*- C++ -*-===//
//
// shmem-lint reports 1-based lines and byte columns (clang's); LSP counts
// 0-based lines and UTF-16 code units. A table of one text's line starts
// converts between them, and finds the token a finding points at.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_LSP_TEXTPOSITIONS_H
#define SHMEM_LINT_LSP_TEXTPOSITIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <vector>

namespace shmem::lsp {

/// An LSP position: 0-based line, UTF-16 code units into it.
struct Position {
  unsigned Line = 0;
  unsigned Character = 0;
  friend bool operator<(const Position &A, const Position &B) {
    return A.Line != B.Line ? A.Line < B.Line : A.Character < B.Character;
  }
  friend bool operator<=(const Position &A, const Position &B) {
    return !(B < A);
  }
};

struct Range {
  Position Start, End;
  bool contains(Position P) const { return Start <= P && P < End; }
  bool touches(const Range &O) const {
    return Start <= O.End && O.Start <= End;
  }
};

llvm::json::Value toJson(const Position &P);
llvm::json::Value toJson(const Range &R);
bool fromJson(const llvm::json::Value *V, Position &P);
bool fromJson(const llvm::json::Value *V, Range &R);

class LineTable {
public:
  explicit LineTable(llvm::StringRef Text);

  /// The byte offset of a 1-based line and byte column, clamped to the text.
  size_t offsetOf(unsigned Line1, unsigned Column1) const;
  /// The byte offset of an LSP position (clamped to its line).
  size_t offsetOf(Position P) const;
  /// The LSP position of a byte offset (clamped to the text).
  Position position(size_t Offset) const;
  /// The end of the identifier or number at \p Offset, else one character
  /// on (a diagnostic is never empty, or editors draw nothing).
  size_t tokenEnd(size_t Offset) const;
  /// The range of a finding at a 1-based line and byte column.
  Range tokenAt(unsigned Line1, unsigned Column1) const;
  /// The whole of a 0-based line, without its line break.
  llvm::StringRef line(unsigned Line0) const;
  unsigned lines() const { return Starts.size(); }

private:
  llvm::StringRef Text;
  std::vector<size_t> Starts;
};

} // namespace shmem::lsp

#endif
