//===- SharedObjectRewrite.cpp - __shared__ objects clang refuses ---------===//
//
// See SharedObjectRewrite.h.
//
//===----------------------------------------------------------------------===//

#include "SharedObjectRewrite.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace shmem {

unsigned refusedSharedInitDiagnostic() { return diag::err_shared_var_init; }

std::string rewriteFileKey(llvm::StringRef File, llvm::StringRef Directory) {
  llvm::SmallString<256> Path(File);
  llvm::sys::path::make_absolute(Directory, Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

namespace {

class RefusedObjects : public RecursiveASTVisitor<RefusedObjects> {
public:
  RefusedObjects(ASTContext &Ctx, llvm::StringRef Directory,
                 const std::set<SourceLocation::UIntTy> &Refused,
                 std::map<std::string, std::vector<TextEdit>> &Edits)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Directory(Directory),
        Refused(Refused), Edits(Edits) {}
  std::string Why;

  bool VisitVarDecl(VarDecl *VD) {
    SourceLocation NameLoc = VD->getLocation();
    if (!VD->hasAttr<CUDASharedAttr>() ||
        !Refused.count(NameLoc.getRawEncoding()) ||
        !Done.insert(NameLoc.getRawEncoding()).second)
      return true;
    std::string Reason = rewrite(VD);
    if (Reason.empty())
      return true;
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(NameLoc));
    Why = (P.isValid() ? std::string(P.getFilename()) + ":" +
                             std::to_string(P.getLine()) + ":" +
                             std::to_string(P.getColumn()) + ": "
                       : std::string()) +
          "the __shared__ object '" + VD->getNameAsString() +
          "' has a constructor, which clang refuses and nvcc skips; " +
          "shmem-lint declares such an object as raw storage for analysis, " +
          "but not this one (" + Reason + ")";
    return false;
  }

  size_t found() const { return Done.size(); }

private:
  /// Adds the edits for \p VD; the reason when it cannot.
  std::string rewrite(const VarDecl *VD) {
    if (!VD->getDeclContext()->isFunctionOrMethod())
      return "it is declared outside a function";
    const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
    if (!TSI)
      return "it is declared through a macro";
    // An array of objects (`__shared__ barrier full[4]`): the element type
    // is written before the name, the bounds after it.
    TypeLoc TL = TSI->getTypeLoc();
    SourceLocation BoundsEnd;
    if (auto AL = TL.getAs<ConstantArrayTypeLoc>()) {
      BoundsEnd = AL.getRBracketLoc();
      TL = AL.getElementLoc();
      while (auto Inner = TL.getAs<ConstantArrayTypeLoc>())
        TL = Inner.getElementLoc();
    } else if (VD->getType()->isArrayType()) {
      return "it is an array of unknown bound";
    }
    SourceRange TR = TL.getSourceRange();
    SourceLocation NameLoc = VD->getLocation();
    if (!TR.isValid() || !TR.getBegin().isFileID() ||
        !TR.getEnd().isFileID() || !NameLoc.isFileID())
      return "it is declared through a macro";
    auto [FID, TypeBegin] = SM.getDecomposedLoc(TR.getBegin());
    SourceLocation TypeEndLoc =
        Lexer::getLocForEndOfToken(TR.getEnd(), 0, SM, Ctx.getLangOpts());
    auto [FID2, TypeEnd] = SM.getDecomposedLoc(TypeEndLoc);
    auto [FID3, NameBegin] = SM.getDecomposedLoc(NameLoc);
    if (FID != FID2 || FID != FID3 || TypeEnd > NameBegin)
      return "it is declared through a macro";
    llvm::StringRef Text = SM.getBufferData(FID);
    std::string Name = VD->getNameAsString();
    unsigned NameEnd = NameBegin + Name.size();
    if (Text.substr(NameBegin, Name.size()) != Name)
      return "it is declared through a macro";
    std::string Bounds;
    if (BoundsEnd.isValid()) {
      auto [FID4, End] = SM.getDecomposedLoc(BoundsEnd);
      if (FID4 != FID || !BoundsEnd.isFileID() || End < NameEnd)
        return "it is declared through a macro";
      Bounds = Text.slice(NameEnd, End + 1).str();
      NameEnd = End + 1;
    }
    // Nothing but the semicolon, or a comma and the next plain declarator
    // (`__shared__ barrier barA, barB;`), after the name: no initialiser,
    // no attribute the rewrite would move.
    unsigned Semi = NameEnd;
    auto Blank = [&](unsigned I) {
      return I < Text.size() && (Text[I] == ' ' || Text[I] == '\t' ||
                                 Text[I] == '\n' || Text[I] == '\r');
    };
    while (Blank(Semi))
      ++Semi;
    while (Semi < Text.size() && Text[Semi] == ',') {
      ++Semi;
      while (Blank(Semi))
        ++Semi;
      while (Semi < Text.size() &&
             (llvm::isAlnum(Text[Semi]) || Text[Semi] == '_'))
        ++Semi;
      while (Blank(Semi))
        ++Semi;
      // An array declarator's bounds.
      while (Semi < Text.size() && Text[Semi] == '[') {
        size_t Close = Text.find(']', Semi);
        if (Close == llvm::StringRef::npos)
          break;
        Semi = unsigned(Close + 1);
        while (Blank(Semi))
          ++Semi;
      }
    }
    if (Semi >= Text.size() || Text[Semi] != ';')
      return "the declaration has more after the name";
    std::string Type = Text.slice(TypeBegin, TypeEnd).str();
    std::string Storage = (StoragePrefix + Name).str();
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
    if (!FE)
      return "its file is not on disk";
    std::vector<TextEdit> &E = Edits[rewriteFileKey(FE->getName(), Directory)];
    // The declarators of one declaration share the type and the end: one
    // edit each, the references after the semicolon in declaration order.
    auto At = [&](unsigned Offset) {
      return std::find_if(E.begin(), E.end(), [&](const TextEdit &X) {
        return X.Offset == Offset;
      });
    };
    if (At(TypeBegin) == E.end())
      E.push_back({TypeBegin, TypeEnd - TypeBegin, "unsigned char"});
    std::string Whole = Type + Bounds; // `barrier[4]`
    E.push_back({NameBegin, NameEnd - NameBegin,
                 Storage + "[sizeof(" + Whole + ")] __attribute__((aligned(" +
                     "alignof(" + Type + "))))"});
    std::string Ref = " " + Type + " (&" + Name + ")" + Bounds +
                      " = *reinterpret_cast<" + Type + " (*)" + Bounds + ">(" +
                      Storage + ");";
    if (auto It = At(Semi + 1); It != E.end())
      It->Text += Ref;
    else
      E.push_back({Semi + 1, 0, Ref});
    return "";
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  llvm::StringRef Directory;
  const std::set<SourceLocation::UIntTy> &Refused;
  std::map<std::string, std::vector<TextEdit>> &Edits;
  std::set<SourceLocation::UIntTy> Done;
};

} // namespace

bool findSharedObjectEdits(ASTContext &Ctx, llvm::StringRef Directory,
                           const std::set<SourceLocation::UIntTy> &Refused,
                           std::map<std::string, std::vector<TextEdit>> &Edits,
                           std::string &Why) {
  RefusedObjects V(Ctx, Directory, Refused, Edits);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  Why = V.Why;
  if (Why.empty() && V.found() < Refused.size())
    Why = "clang refused a __shared__ declaration that shmem-lint did not "
          "find";
  return Why.empty();
}

// Offsets are distinct (an insertion sits after the ';' it follows).
static void sortEdits(std::vector<TextEdit> &Edits) {
  std::sort(Edits.begin(), Edits.end(),
            [](const TextEdit &A, const TextEdit &B) {
              return A.Offset < B.Offset;
            });
}

/// The offset in the original text of \p Offset of the rewritten one, for
/// a range of \p Length (0: a position). A range that touches rewritten
/// text has none; a position inside it (\p Clamp) is the edit's start.
/// \p Edits are sorted.
static std::optional<unsigned>
originalOffset(const std::vector<TextEdit> &Edits, unsigned Offset,
               unsigned Length, bool Clamp = false) {
  long long Delta = 0; // Rewritten minus original, before the range.
  for (const TextEdit &E : Edits) {
    unsigned Begin = unsigned(E.Offset + Delta);
    unsigned End = Begin + unsigned(E.Text.size());
    if (Offset + Length <= Begin)
      break;
    if (Offset < End)
      return Clamp ? std::optional<unsigned>(E.Offset) : std::nullopt;
    Delta += (long long)E.Text.size() - E.Length;
  }
  return unsigned(Offset - Delta);
}

/// \p Text with \p Edits (sorted, offsets into \p Text) applied.
static std::string applyEdits(llvm::StringRef Text,
                              const std::vector<TextEdit> &Edits) {
  std::string Out;
  unsigned At = 0;
  for (const TextEdit &E : Edits) {
    if (E.Offset < At || E.Offset + E.Length > Text.size())
      continue; // Overlapping or past the end: not ours to guess.
    Out += Text.slice(At, E.Offset);
    Out += E.Text;
    At = E.Offset + E.Length;
  }
  Out += Text.substr(At);
  return Out;
}

bool RewrittenFiles::build(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
    std::map<std::string, std::vector<TextEdit>> Edits,
    llvm::StringRef Dir, std::string &Why) {
  Directory = Dir.str();
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (auto &[Path, E] : Edits) {
    auto Text = Base->getBufferForFile(Path);
    if (!Text) {
      Why = "cannot read '" + Path + "': " + Text.getError().message();
      return false;
    }
    sortEdits(E);
    File &F = Rewritten[Path];
    F.Original = (*Text)->getBuffer().str();
    F.Edits = std::move(E);
    Memory->addFile(Path, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(
                        applyEdits(F.Original, F.Edits), Path));
  }
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Base);
  Overlay->pushOverlay(Memory);
  Files = Overlay;
  return true;
}

const RewrittenFiles::File *
RewrittenFiles::rewritten(llvm::StringRef Name) const {
  auto It = Rewritten.find(rewriteFileKey(Name, Directory));
  return It == Rewritten.end() ? nullptr : &It->second;
}

unsigned RewrittenFiles::originalColumn(const File &F, unsigned Line,
                                        unsigned Column) {
  if (Line == 0 || Column == 0)
    return Column;
  // The line's start in the original text; the rewritten text has it
  // after the edits before it, none of which spans a line.
  size_t Start = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Start = F.Original.find('\n', Start);
    if (Start == std::string::npos)
      return Column;
    ++Start;
  }
  long long Delta = 0;
  for (const TextEdit &E : F.Edits)
    if (E.Offset < Start)
      Delta += (long long)E.Text.size() - E.Length;
  unsigned At = unsigned(Start + Delta + Column - 1);
  std::optional<unsigned> Orig =
      originalOffset(F.Edits, At, 0, /*Clamp=*/true);
  return Orig && *Orig >= Start ? unsigned(*Orig - Start + 1) : Column;
}

void RewrittenFiles::toOriginal(std::vector<ReportedFinding> &Findings,
                                std::vector<ReportedGap> &Gaps) const {
  auto Place = [&](ReportedLocation &L) {
    if (const File *F = rewritten(L.File))
      L.Column = originalColumn(*F, L.Line, L.Column);
  };
  for (ReportedFinding &Fi : Findings) {
    Place(Fi.Loc);
    for (ReportedNote &N : Fi.Notes)
      Place(N.Loc);
    std::vector<ReportedFix> Kept;
    for (ReportedFix &X : Fi.Fixes) {
      if (const File *F = rewritten(X.File)) {
        std::optional<unsigned> At =
            originalOffset(F->Edits, X.Offset, X.Length);
        if (!At)
          continue;
        X.Offset = *At;
        X.Column = originalColumn(*F, X.Line, X.Column);
      }
      Kept.push_back(std::move(X));
    }
    Fi.Fixes = std::move(Kept);
  }
  for (ReportedGap &G : Gaps) {
    Place(G.Loc);
    for (ReportedNote &N : G.Notes)
      Place(N.Loc);
  }
}

} // namespace shmem
