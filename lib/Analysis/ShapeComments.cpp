//===- ShapeComments.cpp - The `shmem-lint: block=` comment ---------------===//
//
// A kernel's shape as the comment above it states it, and what is wrong
// with a comment that tries to (see LaunchGeometry.h). The other sources
// of a shape, launch sites and the kernel's own facts, are in
// LaunchGeometry.cpp.
//
//===----------------------------------------------------------------------===//

#include "LaunchGeometry.h"

#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"

#include <cstring>

using namespace clang;

namespace shmem {

ShapeComment parseShapeComment(llvm::StringRef Line) {
  ShapeComment C;
  size_t At = Line.find("shmem-lint:");
  if (At == StringRef::npos)
    return C;
  C.Offset = At;
  StringRef Rest = Line.drop_front(At + strlen("shmem-lint:")).ltrim();
  StringRef Key = Rest.take_while([](char Ch) {
    return isAsciiIdentifierContinue(Ch) || Ch == '-';
  });
  StringRef AfterKey = Rest.drop_front(Key.size()).ltrim();
  const std::string Expected =
      "expected 'shmem-lint: block=X[xY[xZ]]' with at most " +
      std::to_string(ThreadGeometry::MaxThreadsPerBlock) + " threads";
  auto Malformed = [&](const std::string &Why) {
    C.K = ShapeComment::Malformed;
    C.Problem = Why + "; " + Expected;
    return C;
  };
  // Prose that mentions the tool (`// shmem-lint: see docs`) is no
  // directive; a key with '=' after it is, and so is `block` alone.
  if (Key != "block") {
    if (Key.empty() || !AfterKey.starts_with("="))
      return C;
    // With one key there is room to be generous: a swap (`blcok`) is two
    // edits, more than nearestName allows a five-letter word, and every
    // name nearestName would offer is within two edits anyway.
    std::string Lower = Key.lower();
    std::string Why = "unknown key '" + Key.str() + "'";
    if (StringRef(Lower).edit_distance("block", true, 2) <= 2)
      Why += " (did you mean 'block'?)";
    else
      Why += " (the only key is 'block')";
    return Malformed(Why);
  }
  if (!AfterKey.consume_front("="))
    return Malformed("'block' needs a value");
  // What is read as the shape, exactly as before this was diagnosed: the
  // run of digits, separators and parentheses after '='.
  StringRef Run = AfterKey.take_while(
      [](char Ch) { return StringRef("0123456789xX,() ").contains(Ch); });
  if (std::optional<Dim3> D = Dim3::parse(Run.trim().str())) {
    C.K = ShapeComment::Shape;
    C.Block = *D;
    return C;
  }
  // Why not, from the word the user wrote.
  StringRef Word = AfterKey.ltrim();
  Word = Word.take_until([](char Ch) { return isWhitespace(Ch); });
  if (size_t End = Word.find("*/"); End != StringRef::npos)
    Word = Word.take_front(End);
  if (Word.empty())
    return Malformed("'block' needs a value");
  std::string Quoted = "'block=" + Word.str() + "'";
  llvm::SmallVector<StringRef, 4> Parts;
  Word.split(Parts, 'x');
  if (Parts.size() == 1)
    Parts.clear(), Word.split(Parts, ',');
  uint64_t Threads = 1;
  for (StringRef P : Parts) {
    P = P.trim().trim("()");
    uint64_t V;
    if (P.empty() || P.getAsInteger(10, V))
      return Malformed(Quoted + " is not a block shape");
    if (V == 0)
      return Malformed(Quoted + " has a dimension of 0");
    Threads = std::min<uint64_t>(Threads * V, uint64_t(1) << 40);
  }
  if (Parts.size() > 3)
    return Malformed(Quoted + " has more than three dimensions");
  if (Threads > ThreadGeometry::MaxThreadsPerBlock)
    return Malformed(Quoted + " has " +
                     (Threads >= uint64_t(1) << 40 ? std::string("too many")
                                                   : std::to_string(Threads)) +
                     " threads, more than a block can have");
  return Malformed(Quoted + " is not a block shape");
}

std::optional<Dim3>
LaunchGeometry::annotation(const FunctionDecl *Kernel,
                           std::vector<ShapeCommentProblem> *Problems) const {
  // Look at the comment lines directly above the kernel (or its template
  // header) for `shmem-lint: block=...`.
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern();
  const Decl *D = Pattern ? Pattern : Kernel;
  if (const FunctionTemplateDecl *FT =
          (Pattern ? Pattern : Kernel)->getDescribedFunctionTemplate())
    D = FT;
  SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
  if (Loc.isInvalid())
    return std::nullopt;
  FileID FID = SM.getFileID(Loc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return std::nullopt;
  unsigned Offset = SM.getFileOffset(Loc);
  StringRef Before = Buf.substr(0, Offset);
  // Walk back over comment and blank lines.
  for (unsigned Lines = 0; Lines < 12 && !Before.empty(); ++Lines) {
    size_t End = Before.rfind('\n');
    if (End == StringRef::npos)
      break;
    StringRef Prev = Before.substr(0, End);
    size_t Start = Prev.rfind('\n');
    StringRef Line = Start == StringRef::npos ? Prev : Prev.substr(Start + 1);
    StringRef Trim = Line.trim();
    bool Comment = Trim.starts_with("//") || Trim.starts_with("/*") ||
                   Trim.starts_with("*");
    if (!Comment && !Trim.empty())
      break;
    ShapeComment C = parseShapeComment(Line);
    if (C.K == ShapeComment::Shape)
      return C.Block;
    // A malformed comment is said, then passed over as before: one
    // further up may still state the shape.
    if (C.K == ShapeComment::Malformed && Problems) {
      unsigned LineStart = Line.data() - Buf.data();
      Problems->push_back(
          {SM.getComposedLoc(FID, LineStart + C.Offset), C.Problem});
    }
    Before = Prev;
  }
  return std::nullopt;
}

std::vector<ShapeCommentProblem>
LaunchGeometry::shapeCommentProblems(const FunctionDecl *Kernel) const {
  std::vector<ShapeCommentProblem> P;
  annotation(Kernel, &P);
  return P;
}

} // namespace shmem
