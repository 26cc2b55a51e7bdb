//===- TmaReads.cpp - shmem-layout-mismatch for TMA tiles -----------------===//
//
// A TMA copy lays its box out as the tensor map says (TmaBoxLayout): with a
// swizzle mode each 16-byte chunk of a row moves, and rows always take the
// map's pitch, never the tile's declared row. A read that indexes the tile
// as a plain row-major array of its declared shape then gets another
// element than it names: measured on the H200, `tile[r][c]` of an 8 x 32
// float box loaded with SWIZZLE_128B is wrong in 224 of 256 threads.
//
// Each read is judged per thread by its bytes alone: the element the
// tile's declared shape puts there (what the index names) against the
// element the layout puts there (what the copy wrote). A read whose index
// has an XOR is taken to apply a swizzle of its own and is not judged: its
// intent is not in the bytes. So a read through the right swizzle, a
// plain tile read plainly and an ldmatrix of a swizzled tile are silent;
// a wrong XOR is not found.
//
// The swizzle reads address bits of the destination itself (measured: a
// destination 128 bytes past a 1024-byte boundary is swizzled as from the
// boundary), so a swizzled tile must start on the pattern's boundary, and
// every TMA destination on 128 bytes (16 fails the launch).
//
//===----------------------------------------------------------------------===//

#include "TmaTiles.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <sstream>

using namespace clang;

namespace shmem {
namespace {

} // namespace

bool indexHasXor(const Expr *E, unsigned Depth) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    if (B->getOpcode() == BO_Xor || B->getOpcode() == BO_XorAssign)
      return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->isLocalVarDecl() && V->getInit())
        return indexHasXor(V->getInit(), Depth + 1);
  for (const Stmt *C : E->children())
    if (indexHasXor(dyn_cast_or_null<Expr>(C), Depth + 1))
      return true;
  return false;
}

namespace {

std::string sourceText(const KernelContext &K, const Expr *E) {
  const SourceManager &SM = K.Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  return Lexer::getSourceText(R, SM, K.Ctx.getLangOpts()).str();
}

/// The declared row of \p Var in bytes (a 2-D array's row), or 0.
int64_t declaredRowBytes(const KernelContext &K, const ValueDecl *Var,
                         int64_t &ElemBytes) {
  const auto *VT = K.Ctx.getAsConstantArrayType(Var->getType());
  if (!VT)
    return 0;
  QualType Row = VT->getElementType();
  const auto *RT = K.Ctx.getAsConstantArrayType(Row);
  if (!RT || RT->getElementType()->isArrayType())
    return 0;
  ElemBytes = K.Ctx.getTypeSizeInChars(RT->getElementType()).getQuantity();
  return K.Ctx.getTypeSizeInChars(Row).getQuantity();
}

class TmaReadChecker {
public:
  TmaReadChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), T(K.Trace), Sink(Sink) {}

  void run() {
    for (const TmaTile &Tile : tmaTiles(K)) {
      const TmaBoxLayout *L = Tile.layout();
      if (!L || !Tile.Var || !Tile.DstByte)
        continue;
      if (checkAlignment(Tile, *L))
        continue;
      checkReads(Tile, *L);
    }
  }

private:
  const KernelContext &K;
  const KernelTrace &T;
  FindingSink &Sink;

  unsigned lineOf(SourceLocation L) const {
    return K.Ctx.getSourceManager().getExpansionLineNumber(L);
  }
  std::string name(const ValueDecl *V) const {
    return cast<NamedDecl>(V)->getNameAsString();
  }
  SourceLocation copySite(const TmaTile &Tile) const {
    const BulkCopyEvent &C = T.BulkCopies[Tile.Copy];
    return kernelSite(C.Loc, C.CallStack);
  }

  void finish(Finding &F) {
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    Sink.report(F);
  }

  /// Reports a destination whose alignment breaks the copy; true when one
  /// is reported (its reads are then not judged).
  bool checkAlignment(const TmaTile &Tile, const TmaBoxLayout &L) {
    int64_t Align = 0;
    if (const auto *VD = dyn_cast<VarDecl>(Tile.Var))
      Align = K.Ctx.getDeclAlign(VD).getQuantity();
    int64_t Need = int64_t(L.alignment());
    int64_t Dst = *Tile.DstByte;
    std::ostringstream Msg;
    std::string Var = name(Tile.Var);
    // Provably off: a known base alignment the offset breaks.
    int64_t Known = std::min<int64_t>(Align, 128);
    if (Known > 0 && Dst % Known != 0) {
      Msg << "TMA destination not 128-byte aligned: " << tmaCopyName(K, Tile)
          << " writes to '" << Var << "' at byte " << Dst
          << "; a bulk tensor copy needs a 128-byte aligned destination, "
             "and the launch fails with 'misaligned address' (measured on "
             "the H200 with a 16-byte offset)";
    } else if (Need > 16 && !readThroughIndex(Tile)) {
      // Only a read that computes the swizzle from the tile's start needs
      // the boundary: a tile read only by wgmma (through a descriptor) or
      // not read here is not judged (the H200 places such tiles on or off
      // a boundary by their order, bench/gpu/tma: placement).
      return false;
    } else if (Need > 16 && Align >= Need && Dst % Need != 0) {
      Msg << "'" << Var << "' is laid out by " << tmaCopyName(K, Tile)
          << " from byte " << Dst << ", which is not on a " << Need
          << "-byte boundary: " << swizzleName(L.Swizzle)
          << " swizzles by the bits of the shared address, so the tile is "
             "swizzled as if it started " << Dst % Need
          << " bytes earlier and every read through the swizzle formula "
             "gets another element; place the tile on a " << Need
          << "-byte boundary";
    } else if (Need > 16 && Align < Need) {
      Msg << "'" << Var << "' is aligned to " << Align
          << " bytes only, but " << tmaCopyName(K, Tile) << " swizzles by "
             "the bits of the shared address, which is the pattern a read "
             "expects only from a " << Need << "-byte boundary: declare '"
          << Var << "' alignas(" << Need << ")";
    } else {
      return false;
    }
    Finding F;
    F.Check = CheckKind::LayoutMismatch;
    F.Loc = copySite(Tile);
    F.Message = Msg.str();
    F.Notes.push_back({Tile.Var->getLocation(), "'" + Var + "' is declared here"});
    finish(F);
    return true;
  }

  /// Whether a thread reads \p Tile's variable by index (an element load
  /// or an ldmatrix row) after the copy.
  bool readThroughIndex(const TmaTile &Tile) const {
    const BulkCopyEvent &C = T.BulkCopies[Tile.Copy];
    return std::any_of(T.Accesses.begin(), T.Accesses.end(),
                       [&](const SharedAccess &A) {
                         return A.Kind == AccessKind::Load && A.Seq > C.Seq &&
                                A.Address.Base == Tile.Var;
                       });
  }

  /// "tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]": how to read element
  /// (r, c) of a tile whose declared row is the layout's pitch.
  std::string swizzledRead(const TmaBoxLayout &L, const std::string &Var,
                           std::string R, std::string C, bool TwoD) const {
    unsigned Span = swizzleSpan(L.Swizzle);
    uint64_t P = L.pitch();
    unsigned Chunk = 16 / L.ElemBytes, Mask = Span / 16;
    auto Paren = [](const std::string &S) {
      return S.find_first_of(" +-*/%^&|") == std::string::npos ? S
                                                                : "(" + S + ")";
    };
    std::string Row = Paren(R);
    std::string Term =
        P >= 128 ? (P == 128 ? Row : Row + " * " + std::to_string(P / 128)) +
                       " % " + std::to_string(Mask)
                 : "(" + Row + " / " + std::to_string(128 / P) + ") % " +
                       std::to_string(Mask);
    std::string Col =
        Chunk == 1 ? Paren(C) + " ^ (" + Term + ")"
                   : "((" + Paren(C) + " / " + std::to_string(Chunk) + ") ^ (" +
                         Term + ")) * " + std::to_string(Chunk) + " + " +
                         Paren(C) + " % " + std::to_string(Chunk);
    if (TwoD)
      return Var + "[" + R + "][" + Col + "]";
    return Var + "[" + Row + " * " + std::to_string(P / L.ElemBytes) + " + " +
           Col + "]";
  }

  void checkReads(const TmaTile &Tile, const TmaBoxLayout &L) {
    const BulkCopyEvent &C = T.BulkCopies[Tile.Copy];
    int64_t Elem = 0;
    int64_t RowBytes = declaredRowBytes(K, Tile.Var, Elem);
    const int64_t Dst = *Tile.DstByte, Foot = int64_t(L.footprint());
    struct Verdict {
      unsigned Compared = 0, Mismatched = 0;
      unsigned Access = 0, Thread = 0;
      std::pair<uint64_t, uint64_t> Named, Holds;
      int64_t Row = 0; ///< The row the index reads the tile with.
      bool Xor = false; ///< The index swizzles.
    };
    std::map<const Expr *, Verdict> ByExpr;
    std::vector<const Expr *> Order;
    for (unsigned AI = 0; AI < T.Accesses.size(); ++AI) {
      const SharedAccess &A = T.Accesses[AI];
      if (A.Kind != AccessKind::Load || A.Seq <= C.Seq || A.ActiveApprox ||
          !A.Matrix.empty() || A.Address.Base != Tile.Var ||
          !A.Address.Offset.isAffine() || !A.Address.Offset.coefficients().empty())
        continue;
      int64_t Row = RowBytes;
      if (!Row) {
        // A flat tile: its rows as the index spells them, else packed.
        int64_t W = A.Width;
        Row = A.Tile.Valid && A.Tile.Pitch > 0 ? A.Tile.Pitch * W
                                                : int64_t(L.cols()) * W;
        Elem = W;
      }
      // A read through a swizzle formula means the element its index
      // names without the XOR (TileIndex::Unswizzled); one whose XOR the
      // walk cannot take apart is not judged.
      const bool Xor = indexHasXor(A.E);
      if (Elem != int64_t(L.ElemBytes) || A.Width != L.ElemBytes ||
          (Xor && !A.Tile.HasUnswizzled))
        continue;
      auto It = ByExpr.find(A.E);
      if (It == ByExpr.end()) {
        It = ByExpr.emplace(A.E, Verdict()).first;
        Order.push_back(A.E);
      }
      Verdict &V = It->second;
      for (unsigned Th = 0; Th < A.Active.size(); ++Th) {
        if (!A.Active[Th])
          continue;
        int64_t B = A.Address.Offset.constants()[Th] - Dst;
        if (B < 0 || B >= Foot)
          continue;
        // What the index names: the declared row-major element there (for
        // a swizzled index, at the place its XOR-less twin reads).
        int64_t N = Xor ? A.Tile.Unswizzled.constants()[Th] * Elem - Dst : B;
        if (N < 0 || N >= Foot)
          continue;
        std::pair<uint64_t, uint64_t> Named{uint64_t(N / Row),
                                            uint64_t(N % Row / Elem)};
        std::optional<std::pair<uint64_t, uint64_t>> Holds = L.elementAt(B);
        if (Named.second >= L.cols() || !Holds)
          continue;
        ++V.Compared;
        if (*Holds == Named)
          continue;
        if (!V.Mismatched++) {
          V.Access = AI;
          V.Thread = Th;
          V.Named = Named;
          V.Holds = *Holds;
          V.Row = Row;
          V.Xor = Xor;
        }
      }
    }
    for (const Expr *E : Order) {
      const Verdict &V = ByExpr[E];
      if (V.Mismatched)
        report(Tile, L, V.Access, V.Thread, V.Named, V.Holds, V.Mismatched,
               V.Compared, V.Row, RowBytes != 0, V.Xor);
    }
  }

  void report(const TmaTile &Tile, const TmaBoxLayout &L, unsigned AI,
              unsigned Th, std::pair<uint64_t, uint64_t> Named,
              std::pair<uint64_t, uint64_t> Holds, unsigned Mismatched,
              unsigned Compared, int64_t RowBytes, bool TwoD, bool Xor) {
    const SharedAccess &A = T.Accesses[AI];
    auto Pair = [](std::pair<uint64_t, uint64_t> P) {
      return "(" + std::to_string(P.first) + ", " + std::to_string(P.second) +
             ")";
    };
    int64_t Dst = *Tile.DstByte;
    int64_t Read = A.Address.Offset.constants()[Th];
    int64_t Put = Dst + int64_t(L.byteOf(Named.first, Named.second));
    std::string Var = name(Tile.Var);
    std::ostringstream Msg;
    Msg << "'" << Var << "' is read through a different "
        << (Xor ? "swizzle" : "layout") << " than it was written with: "
        << T.Geometry.describeThread(Th) << " reads '"
        << sharedElementName(K.Ctx, A, Read) << "' as element "
        << Pair(Named) << (Xor ? " (its index without the XOR)" : "")
        << ", but " << tmaCopyName(K, Tile) << " put element "
        << Pair(Named) << " at '" << sharedElementName(K.Ctx, A, Put)
        << "' and '" << sharedElementName(K.Ctx, A, Read) << "' holds element "
        << Pair(Holds) << " (" << Mismatched << " of " << Compared
        << " reads get another element than they index)";
    Finding F;
    F.Check = CheckKind::LayoutMismatch;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();
    F.Message = Msg.str();
    std::string How;
    if (L.Swizzle != TmaSwizzle::None && RowBytes == int64_t(L.pitch())) {
      std::string R = "r", C = "c";
      if (const auto *Outer = dyn_cast<ArraySubscriptExpr>(A.E->IgnoreParens());
          Outer && TwoD)
        if (const auto *Inner = dyn_cast<ArraySubscriptExpr>(
                Outer->getBase()->IgnoreParenImpCasts())) {
          R = sourceText(K, Inner->getIdx());
          if (!Xor)
            C = sourceText(K, Outer->getIdx());
        }
      How = "the copy lays '" + Var + "' out with " + swizzleName(L.Swizzle) +
            ": read element (r, c) as " + swizzledRead(L, Var, R, C, TwoD);
    } else if (RowBytes != int64_t(L.pitch())) {
      How = "the copy writes rows of " + std::to_string(L.pitch()) +
            " bytes, and '" + Var + "' has rows of " +
            std::to_string(RowBytes) +
            ": a TMA box is never padded; declare the rows as " +
            std::to_string(L.pitch() / L.ElemBytes) +
            " elements (a swizzle mode, not padding, avoids bank conflicts)";
    } else {
      How = "the copy lays '" + Var + "' out with " + swizzleName(L.Swizzle) +
            " in rows of " + std::to_string(L.pitch()) +
            " bytes: read it through the same layout";
    }
    F.Notes.push_back({copySite(Tile), How});
    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    F.Weight = Mismatched;
    finish(F);
  }
};

} // namespace

void checkTmaTileReads(const KernelContext &K, FindingSink &Sink) {
  if (K.Trace.BulkCopies.empty())
    return;
  reportUnknownTmaLayouts(K, CheckKind::LayoutMismatch, Sink);
  TmaReadChecker(K, Sink).run();
}

} // namespace shmem
