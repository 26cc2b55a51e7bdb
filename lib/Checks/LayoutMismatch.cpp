//===- LayoutMismatch.cpp - shmem-layout-mismatch -------------------------===//
//
// A shared tile is written through one index formula and read through
// another. Each element access is described by the walker (TileIndex) as a
// row and a column, with the column's operands when it has the shape of a
// swizzle (`c ^ f(r)`, `(c + f(r)) % m`). Here, over every instance of one
// access expression, an operand that is a function of the row (the same row
// value always gives the same operand value) and takes several values,
// while the other operand is not, is the swizzle term; the other operand is
// the logical column. So every access says, per thread, which logical
// element (row, column) it means and which bytes it touches.
//
// Replaying the accesses of a tile in program order, the last store to each
// address says which logical element the address holds. A load is reported
// when a thread reads an element that some store did write, but to other
// bytes than the ones the thread reads: the two formulas disagree on where
// that element lives. Values are compared as affine forms (exact for every
// value of the unknowns), element identity comes from the values the
// formulas compute, never from names, and a tile read transposed on
// purpose (`t[c][r]` after `t[r][c] = ...`) agrees on every element.
//
// No claim is made for a tile with a store the analysis cannot describe
// (pointer arithmetic, data-dependent index, partially known mask, atomics,
// mixed element widths), for flat layouts whose rows are re-shaped rather
// than padded, or for threads whose logical element no store wrote.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "TmaTiles.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <sstream>

using namespace clang;

namespace shmem {
namespace {

using Key = std::vector<int64_t>;

/// The affine form \p V has in thread \p T, written into \p K: equal keys
/// are equal values for every value of the unknowns.
void formKey(const LaneValue &V, unsigned T, Key &K) {
  K.clear();
  K.push_back(V.constants()[T]);
  for (const auto &KV : V.coefficients())
    if (KV.second[T] != 0) {
      K.push_back(int64_t(KV.first));
      K.push_back(KV.second[T]);
    }
}

/// Gives every distinct affine form (one thread's value of a LaneValue) a
/// small number, and every (row, column) pair of forms one too. The check
/// compares forms of every active thread of every instance of a tile's
/// accesses: numbering them once makes each comparison an integer compare
/// and each lookup a hash probe, with no allocation for forms already seen.
class FormTable {
public:
  unsigned form(const LaneValue &V, unsigned T) {
    // Most forms are plain numbers (no unknown, or none with a non-zero
    // coefficient in this thread): those are looked up by value. The two
    // values DenseMap reserves go the general way.
    int64_t C = V.constants()[T];
    bool Concrete = C != NumberInfo::getEmptyKey() &&
                    C != NumberInfo::getTombstoneKey();
    for (const auto &KV : V.coefficients())
      Concrete &= KV.second[T] == 0;
    if (Concrete)
      return number(C);
    formKey(V, T, Scratch);
    auto It = Ids.find(llvm::ArrayRef<int64_t>(Scratch));
    if (It != Ids.end())
      return It->second;
    // A deque never moves its elements, so the ArrayRef keys stay valid.
    Keys.push_back(Scratch);
    unsigned Id = unsigned(Keys.size() - 1);
    Ids.try_emplace(llvm::ArrayRef<int64_t>(Keys.back()), Id);
    return Id;
  }
  /// form(V, T) for every active thread T, by thread.
  void forms(const LaneValue &V, const std::vector<char> &Active,
             std::vector<unsigned> &Out) {
    Out.assign(Active.size(), 0);
    if (!V.coefficients().empty()) {
      for (unsigned T = 0; T < Active.size(); ++T)
        if (Active[T])
          Out[T] = form(V, T);
      return;
    }
    // A plain number per thread; neighbouring threads often agree (the row
    // of a warp's lanes).
    std::optional<int64_t> Last;
    unsigned LastId = 0;
    for (unsigned T = 0; T < Active.size(); ++T) {
      if (!Active[T])
        continue;
      int64_t C = V.constants()[T];
      if (!Last || C != *Last) {
        Last = C;
        LastId = form(V, T);
      }
      Out[T] = LastId;
    }
  }

  /// The form itself, for ordering: ids are not ordered like keys.
  const Key &key(unsigned Id) const { return Keys[Id]; }

  /// A logical element: a (row, column) pair of forms.
  unsigned point(unsigned Row, unsigned Col) {
    return Points.try_emplace({Row, Col}, unsigned(Points.size()))
        .first->second;
  }
  unsigned points() const { return unsigned(Points.size()); }

private:
  Key Scratch;
  std::deque<Key> Keys;

  unsigned number(int64_t C) {
    auto [It, New] = Numbers.try_emplace(C, unsigned(Keys.size()));
    if (New)
      Keys.push_back(Key{C});
    return It->second;
  }

  /// DenseMap's own hash of an integer (a multiply) keeps the low bits of
  /// byte offsets, which are mostly multiples of the element size and the
  /// row pitch: those all collide. Mix the bits.
  struct NumberInfo : llvm::DenseMapInfo<int64_t> {
    static unsigned getHashValue(int64_t V) {
      return unsigned(llvm::hash_value(V));
    }
  };
  llvm::DenseMap<int64_t, unsigned, NumberInfo> Numbers;
  llvm::DenseMap<llvm::ArrayRef<int64_t>, unsigned> Ids;
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> Points;
};

/// How one access expression's column splits, decided over all its
/// instances.
struct Indexing {
  bool Valid = false;
  /// -1: no swizzle (the column is the logical column); 0: ColA is the
  /// swizzle term and ColB the logical column; 1: the reverse.
  int Swizzle = -1;
  int64_t Pitch = 0;
  bool TwoD = false;
  /// A flat index whose column never varies (`t[tid * 2]`): a strided 1-D
  /// index rather than rows; its element is the whole index.
  bool Linear = false;
  /// Range of the logical column over all instances (concrete only).
  int64_t MinCol = INT64_MAX, MaxCol = INT64_MIN;
  bool ColsKnown = true;
};

class LayoutMismatchChecker {
public:
  LayoutMismatchChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), T(K.Trace), Sink(Sink) {}

  void run() {
    std::map<const ValueDecl *, std::vector<unsigned>> ByVar;
    std::vector<const ValueDecl *> Vars;
    std::set<const ValueDecl *> DynamicBases;
    for (unsigned I = 0; I < T.Accesses.size(); ++I) {
      const SharedAccess &A = T.Accesses[I];
      if (!A.Address.Base)
        continue;
      if (A.Address.DynamicShared)
        DynamicBases.insert(A.Address.Base);
      if (ByVar.find(A.Address.Base) == ByVar.end())
        Vars.push_back(A.Address.Base);
      ByVar[A.Address.Base].push_back(I);
    }
    for (const ValueDecl *V : Vars) {
      // extern __shared__ arrays alias one buffer: only one may be used.
      if (DynamicBases.count(V) && DynamicBases.size() > 1)
        continue;
      checkTile(V, ByVar[V]);
    }
  }

private:
  const KernelContext &K;
  const KernelTrace &T;
  FindingSink &Sink;
  FormTable Forms;

  /// Whether \p Of is a function of \p Row over the given instances and
  /// active threads, and takes at least two values.
  bool functionOfRow(const std::vector<unsigned> &Instances, bool UseA) {
    llvm::DenseMap<unsigned, unsigned> Map; // Row form -> operand form.
    std::optional<unsigned> FirstValue;
    bool Several = false;
    for (unsigned I : Instances) {
      const SharedAccess &A = T.Accesses[I];
      const LaneValue &Of = UseA ? A.Tile.ColA : A.Tile.ColB;
      for (unsigned Th = 0; Th < A.Active.size(); ++Th) {
        if (!A.Active[Th])
          continue;
        unsigned R = Forms.form(A.Tile.Row, Th), V = Forms.form(Of, Th);
        auto [It, New] = Map.try_emplace(R, V);
        if (!New && It->second != V)
          return false;
        if (!FirstValue)
          FirstValue = V;
        Several |= V != *FirstValue;
      }
    }
    return Several;
  }

  Indexing indexingOf(const std::vector<unsigned> &Instances) {
    Indexing X;
    bool Terms = true;
    for (unsigned I : Instances) {
      const TileIndex &TI = T.Accesses[I].Tile;
      if (!TI.Valid || T.Accesses[I].ActiveApprox)
        return X;
      Terms &= TI.HasColTerms;
    }
    const TileIndex &First = T.Accesses[Instances[0]].Tile;
    X.Pitch = First.Pitch;
    X.TwoD = First.TwoD;
    for (unsigned I : Instances)
      if (T.Accesses[I].Tile.Pitch != X.Pitch)
        return X;
    if (Terms) {
      bool A = functionOfRow(Instances, true), B = functionOfRow(Instances, false);
      if (A != B)
        X.Swizzle = A ? 0 : 1;
    }
    if (!X.TwoD && X.Pitch > 0) {
      // Whether the logical column takes more than one form.
      std::optional<unsigned> FirstCol;
      bool Varies = false;
      for (unsigned I = 0; I < Instances.size() && !Varies; ++I) {
        const SharedAccess &Acc = T.Accesses[Instances[I]];
        const LaneValue &Col = logicalCol(Acc, X);
        for (unsigned Th = 0; Th < Acc.Active.size() && !Varies; ++Th) {
          if (!Acc.Active[Th])
            continue;
          unsigned C = Forms.form(Col, Th);
          if (!FirstCol)
            FirstCol = C;
          Varies = C != *FirstCol;
        }
      }
      if (!Varies) {
        X.Linear = true;
        X.Pitch = 0;
        X.Swizzle = -1;
      }
    }
    for (unsigned I : Instances) {
      const SharedAccess &Acc = T.Accesses[I];
      const LaneValue &C = logicalCol(Acc, X);
      for (unsigned Th = 0; Th < Acc.Active.size(); ++Th) {
        if (!Acc.Active[Th])
          continue;
        if (!C.coefficients().empty()) {
          X.ColsKnown = false;
          continue;
        }
        X.MinCol = std::min(X.MinCol, C.constants()[Th]);
        X.MaxCol = std::max(X.MaxCol, C.constants()[Th]);
      }
    }
    X.Valid = true;
    return X;
  }

  /// The element each thread means: (row, logical column), or (0, index)
  /// for a linear index.
  static std::pair<LaneValue, LaneValue> logicalElement(const SharedAccess &A,
                                                        const Indexing &X) {
    if (!X.Linear)
      return {A.Tile.Row, logicalCol(A, X)};
    unsigned N = A.Tile.Row.size();
    return {LaneValue::constant(N, 0),
            A.Tile.Row * LaneValue::constant(N, A.Tile.Pitch) + A.Tile.Col};
  }

  static const LaneValue &logicalCol(const SharedAccess &A, const Indexing &X) {
    if (X.Swizzle == 0)
      return A.Tile.ColB;
    if (X.Swizzle == 1)
      return A.Tile.ColA;
    return A.Tile.Col;
  }

  /// Flat layouts of different pitches are compared only when each side's
  /// columns fit in the other's rows (padding, not a re-shaped view).
  static bool comparable(const Indexing &P, const Indexing &C) {
    if (P.TwoD || C.TwoD || P.Pitch == C.Pitch)
      return true;
    if (P.Pitch == 0 || C.Pitch == 0 || !P.ColsKnown || !C.ColsKnown)
      return false;
    return P.MinCol >= 0 && C.MinCol >= 0 && P.MaxCol < C.Pitch &&
           C.MaxCol < P.Pitch;
  }

  struct Written {
    unsigned Logical = 0; ///< FormTable point.
    unsigned Store = 0;   ///< Access index.
    unsigned Thread = 0;
    const Indexing *StoreIndex = nullptr; ///< The store expression's.
  };

  struct Witness {
    unsigned Load = 0, Thread = 0;
    unsigned Store = 0, StoreThread = 0; ///< Where the element was put.
    bool HasHolder = false;
    unsigned Holder = 0, HolderThread = 0; ///< What the read bytes hold.
  };

  struct LoadVerdict {
    unsigned Mismatched = 0, Compared = 0;
    std::optional<Witness> First;
  };

  void checkTile(const ValueDecl *Var, const std::vector<unsigned> &Accesses) {
    // Group instances by expression; give up on anything undescribed that
    // writes the tile.
    std::map<const Expr *, std::vector<unsigned>> ByExpr;
    unsigned Width = 0;
    for (unsigned I : Accesses) {
      const SharedAccess &A = T.Accesses[I];
      if (A.Kind == AccessKind::Atomic)
        return;
      if (Width && A.Width != Width)
        return;
      Width = A.Width;
      if (!A.Address.Offset.isAffine()) {
        if (A.Kind == AccessKind::Store)
          return;
        continue;
      }
      ByExpr[A.E].push_back(I);
    }
    std::map<const Expr *, Indexing> Index;
    bool AnyStore = false, AnyLoad = false;
    for (const auto &KV : ByExpr) {
      Indexing X = indexingOf(KV.second);
      bool Store = T.Accesses[KV.second[0]].Kind == AccessKind::Store;
      if (Store && !X.Valid)
        return;
      AnyStore |= Store;
      AnyLoad |= !Store;
      Index[KV.first] = X;
    }
    if (!AnyStore || !AnyLoad)
      return;

    // Physical form -> last writer; logical element -> the physical forms
    // it was stored at, ordered as their keys (the first in that order is
    // the one a witness names).
    llvm::DenseMap<unsigned, Written> Holds;
    llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 2>> PlacesOf;
    auto KeyLess = [&](unsigned A, unsigned B) {
      return Forms.key(A) < Forms.key(B);
    };
    std::vector<unsigned> PhysOf, RowOf, ColOf; // By thread, per instance.
    std::map<const Expr *, LoadVerdict> Verdicts;
    std::vector<const Expr *> Order;
    for (unsigned I : Accesses) {
      const SharedAccess &A = T.Accesses[I];
      auto XI = Index.find(A.E);
      if (XI == Index.end() || !XI->second.Valid)
        continue;
      const Indexing &X = XI->second;
      auto [RowV, ColV] = logicalElement(A, X);
      Forms.forms(A.Address.Offset, A.Active, PhysOf);
      Forms.forms(RowV, A.Active, RowOf);
      Forms.forms(ColV, A.Active, ColOf);
      if (A.Kind == AccessKind::Store) {
        for (unsigned Th = 0; Th < A.Active.size(); ++Th) {
          if (!A.Active[Th])
            continue;
          unsigned Phys = PhysOf[Th];
          unsigned Log = Forms.point(RowOf[Th], ColOf[Th]);
          Holds[Phys] = Written{Log, I, Th, &X};
          auto &Places = PlacesOf[Log];
          auto At = std::lower_bound(Places.begin(), Places.end(), Phys, KeyLess);
          if (At == Places.end() || *At != Phys)
            Places.insert(At, Phys);
        }
        continue;
      }
      LoadVerdict &LV = Verdicts[A.E];
      if (LV.Compared == 0 && !LV.First && LV.Mismatched == 0)
        Order.push_back(A.E);
      for (unsigned Th = 0; Th < A.Active.size(); ++Th) {
        if (!A.Active[Th])
          continue;
        unsigned Phys = PhysOf[Th];
        unsigned Log = Forms.point(RowOf[Th], ColOf[Th]);
        auto P = PlacesOf.find(Log);
        if (P == PlacesOf.end())
          continue;
        // Where that element is now: addresses whose last writer stored it.
        const Written *Put = nullptr;
        bool Here = false;
        for (unsigned W : P->second) {
          auto H = Holds.find(W);
          if (H == Holds.end() || H->second.Logical != Log)
            continue;
          if (!comparable(*H->second.StoreIndex, X))
            continue;
          if (W == Phys)
            Here = true;
          else if (!Put)
            Put = &H->second;
        }
        if (!Here && !Put)
          continue;
        ++LV.Compared;
        if (Here)
          continue;
        ++LV.Mismatched;
        if (!LV.First) {
          Witness W;
          W.Load = I;
          W.Thread = Th;
          W.Store = Put->Store;
          W.StoreThread = Put->Thread;
          auto H = Holds.find(Phys);
          if (H != Holds.end()) {
            W.HasHolder = true;
            W.Holder = H->second.Store;
            W.HolderThread = H->second.Thread;
          }
          LV.First = W;
        }
      }
    }
    for (const Expr *E : Order) {
      const LoadVerdict &LV = Verdicts[E];
      if (LV.Mismatched && LV.First)
        report(Var, LV, Index);
    }
  }

  std::string name(const ValueDecl *V) {
    if (const auto *ND = dyn_cast_or_null<NamedDecl>(V))
      return ND->getNameAsString();
    return "shared memory";
  }

  /// "tile[1][0]" or "tile[33]" for a byte offset of \p Var.
  std::string place(const ValueDecl *Var, const SharedAccess &A, unsigned Th) {
    int64_t Off = A.Address.Offset.evaluate(Th);
    int64_t W = A.Width ? A.Width : 1;
    std::ostringstream OS;
    OS << name(Var);
    const auto *VT = K.Ctx.getAsConstantArrayType(Var->getType());
    const auto *Row =
        VT ? K.Ctx.getAsConstantArrayType(VT->getElementType()) : nullptr;
    if (Row && !Row->getElementType()->isArrayType()) {
      int64_t RowBytes =
          K.Ctx.getTypeSizeInChars(VT->getElementType()).getQuantity();
      if (RowBytes > 0) {
        OS << "[" << Off / RowBytes << "][" << (Off % RowBytes) / W << "]";
        return OS.str();
      }
    }
    OS << "[" << Off / W << "]";
    return OS.str();
  }

  std::string element(const SharedAccess &A, const Indexing &X, unsigned Th) {
    auto [RowV, ColV] = logicalElement(A, X);
    std::ostringstream OS;
    if (X.Linear)
      OS << ColV.evaluate(Th);
    else
      OS << "(" << RowV.evaluate(Th) << ", " << ColV.evaluate(Th) << ")";
    return OS.str();
  }

  unsigned lineOf(SourceLocation L) {
    return K.Ctx.getSourceManager().getExpansionLineNumber(L);
  }

  void report(const ValueDecl *Var, const LoadVerdict &LV,
              std::map<const Expr *, Indexing> &Index) {
    const Witness &W = *LV.First;
    const SharedAccess &L = T.Accesses[W.Load];
    const SharedAccess &S = T.Accesses[W.Store];
    const Indexing &LX = Index[L.E];
    std::string Name = name(Var);
    std::string Elem = element(L, LX, W.Thread);
    std::ostringstream Msg;
    Msg << "'" << Name << "' is read through a different layout than it was "
        << "written with: " << T.Geometry.describeThread(W.Thread) << " reads "
        << place(Var, L, W.Thread) << " as element " << Elem
        << ", but the store at line " << lineOf(S.Loc) << " put element "
        << Elem << " at " << place(Var, S, W.StoreThread);
    if (W.HasHolder) {
      const SharedAccess &H = T.Accesses[W.Holder];
      Msg << " and " << place(Var, L, W.Thread) << " holds element "
          << element(H, Index[H.E], W.HolderThread);
    }
    Msg << " (" << LV.Mismatched << " of " << LV.Compared
        << " reads get another element than they index)";

    Finding F;
    F.Check = CheckKind::LayoutMismatch;
    F.Loc = L.Loc;
    F.Range = L.E->getSourceRange();
    F.Message = Msg.str();
    F.Notes.push_back(
        {S.Loc, "element " + Elem + " is stored at " +
                    place(Var, S, W.StoreThread) + " here, through '" +
                    S.Tile.Text + "'; read '" + Name +
                    "' through the same index formula"});
    if (!L.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, L.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    F.Weight = LV.Mismatched;
    Sink.report(F);
  }
};

} // namespace

void checkLayoutMismatches(const KernelContext &K, FindingSink &Sink) {
  LayoutMismatchChecker(K, Sink).run();
  checkTmaTileReads(K, Sink);
}

} // namespace shmem
