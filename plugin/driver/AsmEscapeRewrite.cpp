//===- AsmEscapeRewrite.cpp - Inline-asm `%` names clang refuses ----------===//
//
// See AsmEscapeRewrite.h.
//
//===----------------------------------------------------------------------===//

#include "AsmEscapeRewrite.h"

#include "clang/Basic/DiagnosticAST.h"

#include <algorithm>

using namespace clang;

namespace shmem {

unsigned invalidAsmEscapeDiagnostic() { return diag::err_asm_invalid_escape; }

bool findAsmEscapeEdits(const SourceManager &SM, llvm::StringRef Directory,
                        const std::set<SourceLocation::UIntTy> &Escapes,
                        std::map<std::string, std::vector<TextEdit>> &Edits,
                        std::string &Why) {
  for (SourceLocation::UIntTy Raw : Escapes) {
    SourceLocation Loc =
        SM.getSpellingLoc(SourceLocation::getFromRawEncoding(Raw));
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
    bool Invalid = false;
    llvm::StringRef Text = SM.getBufferData(FID, &Invalid);
    // clang points at the character that made the escape invalid (after
    // `%c`, the modifier it took `c` for); the `%` is before it, on the
    // same line and inside the string.
    size_t At = Offset;
    while (!Invalid && At > 0 && At <= Text.size() && Text[At - 1] != '\n' &&
           Text[At - 1] != '"' && (At >= Text.size() || Text[At] != '%'))
      --At;
    if (!File || Invalid || At >= Text.size() || Text[At] != '%') {
      Why = SM.getFilename(Loc).str() + ": an inline-asm string clang "
            "refuses ('%' that names no operand), which nvcc accepts, is "
            "not written in the file's text; shmem-lint cannot rewrite it";
      return false;
    }
    std::vector<TextEdit> &E =
        Edits[rewriteFileKey(File->getName(), Directory)];
    if (std::none_of(E.begin(), E.end(),
                     [&](const TextEdit &X) { return X.Offset == At; }))
      E.push_back({unsigned(At), 0, "%"});
  }
  return true;
}

} // namespace shmem
