//===- NvccSyntaxRewrite.cpp - Syntax nvcc accepts, clang refuses ---------===//
//
// See NvccSyntaxRewrite.h.
//
//===----------------------------------------------------------------------===//

#include "NvccSyntaxRewrite.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/DiagnosticParse.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <optional>

using namespace clang;

namespace shmem {

static bool isBlank(char C) { return C == ' ' || C == '\t'; }

namespace {
/// Three chevron characters in a line, blanks between them: where each is.
struct Chevron {
  size_t At[3];
  bool spaced() const { return At[2] - At[0] > 2; }
};
} // namespace

/// The chevron whose last character is at \p Last: three \p Ch with only
/// blanks between them, no fourth before them.
static std::optional<Chevron> chevronEndingAt(llvm::StringRef T, size_t Last,
                                              char Ch) {
  Chevron C;
  size_t I = Last;
  for (int K = 2; K >= 0; --K) {
    if (I >= T.size() || T[I] != Ch)
      return std::nullopt;
    C.At[K] = I;
    if (K == 0)
      break;
    if (I == 0)
      return std::nullopt;
    --I;
    while (I > 0 && isBlank(T[I]))
      --I;
  }
  size_t Before = C.At[0];
  while (Before > 0 && isBlank(T[Before - 1]))
    --Before;
  if (Before > 0 && T[Before - 1] == Ch)
    return std::nullopt;
  return C;
}

/// The closing chevron of the launch whose opening one ends at \p Open:
/// the first `>`, blanks, `>`, blanks, `>` outside parentheses, brackets
/// and braces, before the statement's `;`.
static std::optional<Chevron> closingAfter(llvm::StringRef T, size_t Open) {
  int Depth = 0;
  for (size_t I = Open + 1; I < T.size(); ++I) {
    char C = T[I];
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
    if (Depth < 0 || (C == ';' && Depth == 0))
      return std::nullopt;
    if (C != '>' || Depth != 0)
      continue;
    size_t J = I + 1, Seen = 1;
    Chevron Ch;
    Ch.At[0] = I;
    while (Seen < 3) {
      while (J < T.size() && isBlank(T[J]))
        ++J;
      if (J >= T.size() || T[J] != '>')
        break;
      Ch.At[Seen++] = J++;
    }
    if (Seen == 3)
      return Ch;
  }
  return std::nullopt;
}

/// The removals that join \p C, added to \p E once each.
static void join(const Chevron &C, std::vector<TextEdit> &E) {
  for (int K = 0; K < 2; ++K) {
    unsigned From = C.At[K] + 1, To = C.At[K + 1];
    if (From == To)
      continue;
    if (std::none_of(E.begin(), E.end(),
                     [&](const TextEdit &X) { return X.Offset == From; }))
      E.push_back({From, To - From, ""});
  }
}

/// The edits for a refused chevron at \p Offset of \p T, if it is one.
static bool chevronEdits(llvm::StringRef T, size_t Offset,
                         std::vector<TextEdit> &E) {
  char Ch = T[Offset];
  if (Ch != '<' && Ch != '>')
    return false;
  std::optional<Chevron> C = chevronEndingAt(T, Offset, Ch);
  if (!C || !C->spaced())
    return false;
  join(*C, E);
  if (Ch == '<')
    if (std::optional<Chevron> Close = closingAfter(T, C->At[2]))
      join(*Close, E);
  return true;
}

/// The comma for an asm operand list clang refused at \p Offset of \p T
/// (the `"` of the constraint after the operand `)`), if it is one: the
/// statement starts with `asm` and the operands' `:` comes before.
static bool asmCommaEdit(llvm::StringRef T, size_t Offset,
                         std::vector<TextEdit> &E) {
  if (T[Offset] != '"')
    return false;
  size_t I = Offset;
  while (I > 0 && isBlank(T[I - 1]))
    --I;
  if (I == 0 || T[I - 1] != ')')
    return false;
  // Back to the statement's start, which must be `asm [volatile] (`
  // with a `:` between it and here.
  size_t Start = T.take_front(Offset).rfind("asm");
  if (Start == llvm::StringRef::npos || Offset - Start > 4096)
    return false;
  // `asm`, `__asm` or `__asm__`, not the end of another name.
  size_t Name = Start >= 2 && T.slice(Start - 2, Start) == "__" ? Start - 2
                                                                 : Start;
  if (Name > 0 && isAsciiIdentifierContinue(T[Name - 1]))
    return false;
  // Outside the strings (the instructions end in `;`): no statement ends
  // between, and the operands' `:` is there.
  bool Colon = false;
  for (size_t J = Start; J < Offset; ++J) {
    if (T[J] == '"') {
      for (++J; J < Offset && T[J] != '"'; ++J)
        J += T[J] == '\\';
      continue;
    }
    if (T[J] == ';')
      return false;
    Colon |= T[J] == ':';
  }
  if (!Colon)
    return false;
  if (std::none_of(E.begin(), E.end(),
                   [&](const TextEdit &X) { return X.Offset == I; }))
    E.push_back({unsigned(I), 0, ","});
  return true;
}

bool addNvccSyntaxEdits(const Diagnostic &Info, llvm::StringRef Directory,
                        std::map<std::string, std::vector<TextEdit>> &Edits) {
  bool Chevron = Info.getID() == diag::err_expected_expression;
  bool Comma = Info.getID() == diag::err_expected && Info.getNumArgs() == 1 &&
               Info.getArgKind(0) == DiagnosticsEngine::ak_tokenkind &&
               Info.getRawArg(0) == tok::r_paren;
  if ((!Chevron && !Comma) || !Info.hasSourceManager() ||
      Info.getLocation().isInvalid())
    return false;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation Loc = SM.getSpellingLoc(Info.getLocation());
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
  bool Invalid = false;
  llvm::StringRef T = SM.getBufferData(FID, &Invalid);
  if (!File || Invalid || Offset >= T.size())
    return false;
  std::vector<TextEdit> E;
  if (!(Chevron ? chevronEdits(T, Offset, E) : asmCommaEdit(T, Offset, E)))
    return false;
  std::vector<TextEdit> &Into =
      Edits[rewriteFileKey(File->getName(), Directory)];
  for (const TextEdit &X : E)
    if (std::none_of(Into.begin(), Into.end(), [&](const TextEdit &Y) {
          return Y.Offset == X.Offset;
        }))
      Into.push_back(X);
  return true;
}

} // namespace shmem
