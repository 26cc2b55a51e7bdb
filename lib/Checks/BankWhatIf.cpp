//===- BankWhatIf.cpp - Lane->bank pictures and what-if layouts -----------===//

#include "BankWhatIf.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>
#include <set>

using namespace clang;

namespace shmem {

namespace {

/// `T a[R][C]` with T not an array: its shape and element type.
std::optional<Array2D> array2D(ASTContext &Ctx, const VarDecl *V,
                               QualType *Elem) {
  const auto *Outer = Ctx.getAsConstantArrayType(V->getType());
  if (!Outer)
    return std::nullopt;
  const auto *Inner = Ctx.getAsConstantArrayType(Outer->getElementType());
  if (!Inner || Ctx.getAsArrayType(Inner->getElementType()))
    return std::nullopt;
  QualType E = Inner->getElementType();
  if (E->isIncompleteType() || E->isDependentType())
    return std::nullopt;
  Array2D A;
  A.Rows = Outer->getSize().getZExtValue();
  A.Cols = Inner->getSize().getZExtValue();
  A.ElemBytes = Ctx.getTypeSizeInChars(E).getQuantity();
  if (A.Rows <= 0 || A.Cols <= 0 || A.ElemBytes <= 0)
    return std::nullopt;
  if (Elem)
    *Elem = E;
  return A;
}

std::string typeName(ASTContext &Ctx, QualType T) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.SuppressScope = false;
  return T.getUnqualifiedType().getAsString(P);
}

/// "float s[256]", "float s[4][8][8]"; the type alone for a scalar.
std::string declarationOf(ASTContext &Ctx, const VarDecl *V) {
  std::string Dims;
  QualType T = V->getType();
  while (const auto *CA = Ctx.getAsConstantArrayType(T)) {
    Dims += "[" + std::to_string(CA->getSize().getZExtValue()) + "]";
    T = CA->getElementType();
  }
  if (Ctx.getAsArrayType(T))
    return "";
  return typeName(Ctx, T) + " " + V->getNameAsString() + Dims;
}

} // namespace

namespace {
/// Finds the references to one variable that are not the array of an
/// element access `V[i][j]`.
class ElementUseFinder : public RecursiveASTVisitor<ElementUseFinder> {
public:
  explicit ElementUseFinder(const VarDecl *V) : V(V) {}
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    if (const auto *Inner =
            dyn_cast<ArraySubscriptExpr>(E->getBase()->IgnoreParenImpCasts()))
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Inner->getBase()->IgnoreParenImpCasts()))
        if (DRE->getDecl() == V)
          ElementBases.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == V)
      All.push_back(E);
    return true;
  }
  bool onlyElements() const {
    for (const DeclRefExpr *E : All)
      if (!ElementBases.count(E))
        return false;
    return true;
  }

private:
  const VarDecl *V;
  std::set<const DeclRefExpr *> ElementBases;
  std::vector<const DeclRefExpr *> All;
};
} // namespace

/// SHMEM_LINT_VERIFY_WHATIF: the patched trace must be the walked one, in
/// every address (a test runs the inputs of the lit tests so).
static void verifyPatchedTrace(const KernelTrace &Patched,
                               const KernelTrace &Walked) {
  bool Same = Patched.Accesses.size() == Walked.Accesses.size() &&
              Patched.GlobalAccesses.size() == Walked.GlobalAccesses.size();
  for (size_t I = 0; Same && I < Patched.Accesses.size(); ++I) {
    const SharedAccess &P = Patched.Accesses[I], &W = Walked.Accesses[I];
    Same = P.E == W.E && P.Kind == W.Kind && P.Address.Base == W.Address.Base &&
           P.Address.Offset == W.Address.Offset && P.Active == W.Active &&
           P.Tile.Pitch == W.Tile.Pitch;
  }
  for (size_t I = 0; Same && I < Patched.GlobalAccesses.size(); ++I)
    Same = Patched.GlobalAccesses[I].Offset == Walked.GlobalAccesses[I].Offset;
  if (!Same)
    llvm::report_fatal_error("shmem-lint: the padded what-if patched from the "
                             "trace differs from the walked one");
}

bool BankWhatIf::patchable(const VarDecl *V) {
  auto [It, New] = Patchable.try_emplace(V, false);
  if (!New)
    return It->second;
  // A __shared__ variable declared in the kernel is visible nowhere else;
  // one at namespace scope may be used by any function.
  std::optional<Array2D> Arr = array2D(K.Ctx, V, nullptr);
  if (!Arr || V->getDeclContext() != K.Kernel || !K.Kernel->getBody())
    return false;
  ElementUseFinder F(V);
  F.TraverseStmt(K.Kernel->getBody());
  if (!F.onlyElements())
    return false;
  // Nothing but V's element addresses can depend on its row length then
  // (no pointer into it escapes, no sizeof of a row); each traced address
  // must also be the one its indices give.
  unsigned N = K.Trace.Geometry.threads();
  LaneValue Pitch = LaneValue::constant(N, Arr->Cols);
  LaneValue Bytes = LaneValue::constant(N, Arr->ElemBytes);
  for (const SharedAccess &A : K.Trace.Accesses) {
    if (A.Address.Base != V)
      continue;
    const TileIndex &TI = A.Tile;
    if (!TI.Valid || !TI.TwoD || TI.Pitch != Arr->Cols ||
        TI.Row.size() != N || TI.Col.size() != N ||
        !A.Address.Offset.isAffine() ||
        A.Address.Offset != (TI.Row * Pitch + TI.Col) * Bytes)
      return false;
  }
  return It->second = true;
}

std::unique_ptr<KernelTrace> BankWhatIf::patchedPadding(const VarDecl *V,
                                                        int64_t Pad) {
  if (!patchable(V))
    return nullptr;
  // Move each access to V by the padding of the rows before it.
  std::optional<Array2D> Arr = array2D(K.Ctx, V, nullptr);
  LaneValue PadBytes =
      LaneValue::constant(K.Trace.Geometry.threads(), Pad * Arr->ElemBytes);
  auto T = std::make_unique<KernelTrace>(K.Trace);
  for (SharedAccess &A : T->Accesses) {
    if (A.Address.Base != V)
      continue;
    A.Address.Offset = A.Address.Offset + A.Tile.Row * PadBytes;
    A.Tile.Pitch += Pad;
  }
  return T;
}

const KernelTrace &BankWhatIf::paddedTrace(const VarDecl *V, int64_t Pad) {
  auto &Slot = Padded[{V, Pad}];
  if (!Slot) {
    Slot = patchedPadding(V, Pad);
    if (!Slot || std::getenv("SHMEM_LINT_VERIFY_WHATIF")) {
      PaddingOverride O{V, Pad};
      auto Walked = std::make_unique<KernelTrace>(
          retraceKernel(K.Ctx, K.Trace, K.Opts, &O));
      if (Slot)
        verifyPatchedTrace(*Slot, *Walked);
      Slot = std::move(Walked);
    }
  }
  return *Slot;
}

const KernelTrace &BankWhatIf::flatPaddedTrace(const VarDecl *V,
                                               const FlatStride &S,
                                               int64_t Pad) {
  auto &Slot = Padded[{V, Pad}];
  if (!Slot) {
    PaddingOverride O(V, Pad);
    O.StrideRefs = S.Refs;
    O.StrideContexts = S.Contexts;
    O.Stride = S.Value;
    Slot = std::make_unique<KernelTrace>(
        retraceKernel(K.Ctx, K.Trace, K.Opts, &O));
  }
  return *Slot;
}

const SharedAccess *BankWhatIf::counterpart(const KernelTrace &T,
                                            const SharedAccess &A) {
  // Padding changes addresses only, so the walks agree access for access.
  const auto &Orig = K.Trace.Accesses;
  if (!Orig.empty() && &A >= Orig.data() && &A < Orig.data() + Orig.size()) {
    size_t I = size_t(&A - Orig.data());
    if (I < T.Accesses.size() && T.Accesses[I].E == A.E &&
        T.Accesses[I].Kind == A.Kind)
      return &T.Accesses[I];
  }
  for (const SharedAccess &B : T.Accesses)
    if (B.E == A.E && B.Kind == A.Kind &&
        B.LoopIterations == A.LoopIterations && B.CallStack == A.CallStack)
      return &B;
  return nullptr;
}

BankPicture BankWhatIf::picture(const SharedAccess &A, unsigned Warp,
                                const std::vector<std::optional<int64_t>> &Addr,
                                const SymbolBinding &Bind,
                                std::optional<int64_t> SuggestedPad,
                                const FlatStride *Flat) {
  ASTContext &Ctx = K.Ctx;
  AccessOp Op = A.Kind == AccessKind::Load ? AccessOp::Load : AccessOp::Store;
  BankPicture P;
  const auto *ND = dyn_cast_or_null<NamedDecl>(A.Address.Base);
  P.Array = ND ? ND->getNameAsString() : "shared memory";
  P.Warp = Warp;
  P.WidthBytes = A.Width;
  P.Store = A.Kind != AccessKind::Load;
  P.Original = makeLayoutPicture(Model, Addr, A.Width, Op);
  P.Original.Label = "as written";

  const auto *Var = dyn_cast_or_null<VarDecl>(A.Address.Base);
  QualType Elem;
  std::optional<Array2D> Arr;
  if (Var && !A.Address.DynamicShared)
    Arr = array2D(Ctx, Var, &Elem);
  // A flattened array `T a[N]` indexed `a[r * C + c]`: rows of C elements,
  // the last one perhaps partial.
  const bool Flattened = !Arr && Var && !A.Address.DynamicShared && Flat &&
                         Flat->found() && Flat->Value > 0 &&
                         Flat->ElemBytes > 0 && Flat->Elems > 0;
  if (Flattened) {
    Arr = Array2D{(Flat->Elems + Flat->Value - 1) / Flat->Value, Flat->Value,
                  Flat->ElemBytes};
    if (const auto *AT = Ctx.getAsArrayType(Var->getType()))
      Elem = AT->getElementType();
  }
  if (Var && !A.Address.DynamicShared && !Var->getType()->isIncompleteType() &&
      !Var->getType()->isDependentType())
    P.Original.SharedBytes =
        Ctx.getTypeSizeInChars(Var->getType()).getQuantity();
  if (!Arr) {
    P.WhatIfNote = A.Address.DynamicShared
                       ? "no padded or swizzled what-if for an extern "
                         "__shared__ buffer"
                       : "padded and swizzled what-ifs are shown for 2-D "
                         "arrays, T a[rows][columns], and 1-D arrays indexed "
                         "a[row * stride + column]";
    if (Var && !A.Address.DynamicShared)
      P.Original.Layout = declarationOf(Ctx, Var);
    return P;
  }
  std::string ElemName = typeName(Ctx, Elem);
  // "float s[1024], rows of 32: s[r * 32 + c]" for a flattened array.
  auto FlatLayout = [&](int64_t Stride) {
    return ElemName + " " + P.Array + "[" +
           std::to_string(Arr->Rows * Stride) + "], rows of " +
           std::to_string(Stride) + ": " + P.Array + "[r * " +
           std::to_string(Stride) + " + c]";
  };
  P.Original.Layout = Flattened ? declarationOf(Ctx, Var) + ", rows of " +
                                      std::to_string(Arr->Cols)
                                : arrayDeclaration(ElemName, P.Array, *Arr);

  // Padded: walk the kernel again with the rows longer, as the check does.
  int64_t Pad = SuggestedPad.value_or(1);
  P.PaddingSuggested = SuggestedPad.has_value();
  P.RowElems = Arr->Cols;
  const KernelTrace &T =
      Flattened ? flatPaddedTrace(Var, *Flat, Pad) : paddedTrace(Var, Pad);
  if (const SharedAccess *B = counterpart(T, A);
      B && B->Address.Offset.isAffine() && Warp < T.Geometry.warps()) {
    // The unknowns of two walks match by what they were made from.
    SymbolBinding Bind2;
    for (const auto &KV : Bind) {
      const SymbolInfo &SI = K.Trace.Symbols.info(KV.first);
      // An unknown the other walk never made does not enter its addresses.
      if (std::optional<SymbolId> S = T.Symbols.find(SI.key()))
        Bind2[*S] = KV.second;
    }
    unsigned Begin = T.Geometry.warpBegin(Warp), End = T.Geometry.warpEnd(Warp);
    std::vector<std::optional<int64_t>> PadAddr(End - Begin);
    for (unsigned L = Begin; L < End; ++L)
      if (B->Active[L])
        PadAddr[L - Begin] = B->Address.Offset.evaluate(L, Bind2);
    Array2D PA = *Arr;
    PA.Cols += Pad;
    LayoutPicture LP = makeLayoutPicture(Model, PadAddr, B->Width, Op);
    LP.Label = "padded";
    LP.Layout = Flattened ? FlatLayout(PA.Cols)
                          : arrayDeclaration(ElemName, P.Array, PA);
    LP.SharedBytes = PA.bytes();
    P.Padded = std::move(LP);
    P.PadElems = Pad;
  }

  // XOR swizzle: element (r, c) stored at (r, c ^ (r % n)).
  if (std::optional<int64_t> Unit = swizzleUnitBytes(*Arr, A.Width)) {
    int64_t PerRow = Arr->Cols * Arr->ElemBytes / *Unit;
    std::vector<std::optional<int64_t>> SwAddr(Addr.size());
    for (size_t L = 0; L < Addr.size(); ++L)
      if (Addr[L])
        SwAddr[L] = swizzledOffset(*Arr, *Unit, *Addr[L]);
    LayoutPicture LS = makeLayoutPicture(Model, SwAddr, A.Width, Op);
    LS.Label = "XOR swizzle";
    std::string Row = Arr->Rows <= PerRow
                          ? std::string("r")
                          : "(r % " + std::to_string(PerRow) + ")";
    LS.Layout = Flattened ? P.Array + "[r * " + std::to_string(Arr->Cols) +
                                " + (c ^ " + Row + ")]"
                          : P.Array + "[r][c ^ " + Row + "]";
    if (*Unit > Arr->ElemBytes)
      LS.Layout += " on " + std::to_string(*Unit) + "-byte groups of columns";
    LS.SharedBytes = Arr->bytes();
    P.Swizzled = std::move(LS);
  } else {
    P.WhatIfNote = "no XOR swizzle what-if: a row of '" + P.Array +
                   "' does not hold a power-of-two number of the units "
                   "accessed";
  }
  return P;
}

} // namespace shmem
