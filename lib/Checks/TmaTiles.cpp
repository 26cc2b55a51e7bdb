//===- TmaTiles.cpp - TMA copies joined with their tensor maps ------------===//
//
// See TmaTiles.h.
//
//===----------------------------------------------------------------------===//

#include "TmaTiles.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace shmem {

/// The host's facts for \p C's tensor map, when the map is followed.
static const TensorMapFacts *mapFacts(const KernelContext &K,
                                      const BulkCopyEvent &C) {
  return C.Map && K.Maps ? K.Maps->factsFor(C.Map) : nullptr;
}

std::vector<TmaTile> tmaTiles(const KernelContext &K) {
  std::vector<TmaTile> Out;
  const KernelTrace &T = K.Trace;
  for (unsigned CI = 0; CI < T.BulkCopies.size(); ++CI) {
    const BulkCopyEvent &C = T.BulkCopies[CI];
    const TensorMapFacts *Facts = mapFacts(K, C);
    std::optional<int64_t> Last;
    bool Any = false;
    for (unsigned Th = 0; Th < C.Active.size(); ++Th) {
      if (!C.Active[Th])
        continue;
      TmaTile Tile;
      Tile.Copy = CI;
      Tile.Thread = Th;
      Tile.Facts = Facts;
      if (C.Dst) {
        Tile.Var = C.Dst->Base;
        Tile.DstByte = plainOffset(*C.Dst, Th);
      }
      // Threads that issue the same copy (a branch the walk could not
      // narrow to one thread) add nothing.
      if (Any && Tile.DstByte == Last)
        continue;
      Any = true;
      Last = Tile.DstByte;
      Out.push_back(Tile);
    }
  }
  return Out;
}

std::vector<std::optional<uint64_t>> tmaFootprints(const KernelContext &K) {
  std::vector<std::optional<uint64_t>> Out(K.Trace.BulkCopies.size());
  for (unsigned CI = 0; CI < Out.size(); ++CI) {
    const BulkCopyEvent &C = K.Trace.BulkCopies[CI];
    const TensorMapFacts *F = mapFacts(K, C);
    if (F && F->known())
      Out[CI] = F->Layout.footprint();
  }
  return Out;
}

std::string tmaCopyName(const KernelContext &K, const TmaTile &T) {
  const SourceManager &SM = K.Ctx.getSourceManager();
  const BulkCopyEvent &C = K.Trace.BulkCopies[T.Copy];
  std::string S = "the TMA copy at line " +
                  std::to_string(SM.getExpansionLineNumber(
                      kernelSite(C.Loc, C.CallStack)));
  if (const TmaBoxLayout *L = T.layout())
    S += " (" + L->describe() + ")";
  return S;
}

void reportUnknownTmaLayouts(const KernelContext &K, CheckKind Check,
                             FindingSink &Sink) {
  for (const BulkCopyEvent &C : K.Trace.BulkCopies) {
    const TensorMapFacts *F = mapFacts(K, C);
    if (F && F->known() && C.Dst)
      continue;
    AnalysisGap G;
    G.Check = Check;
    G.Loc = kernelSite(C.Loc, C.CallStack);
    G.What = "the bytes of this TMA copy not analysed";
    if (!C.Dst)
      G.Why = "its destination is not known to be a shared array";
    else if (!C.Map)
      G.Why = "its tensor map is not a parameter of the kernel";
    else if (!F)
      G.Why = "no launch in this file passes '" +
              cast<NamedDecl>(C.Map)->getNameAsString() +
              "' a tensor map made by cuTensorMapEncodeTiled here";
    else
      G.Why = "at the cuTensorMapEncodeTiled call, " + F->Unknown;
    K.reportGap(Sink, std::move(G));
  }
}

std::optional<TmaTile> tmaTileOf(const KernelContext &K,
                                 const ValueDecl *Var) {
  if (!Var || K.Trace.BulkCopies.empty())
    return std::nullopt;
  for (const TmaTile &T : tmaTiles(K))
    if (T.Var == Var)
      return T;
  return std::nullopt;
}

std::string tmaBankAdvice(const KernelContext &K, const TmaTile &Tile,
                        const std::string &Name, bool Swizzled) {
  const TmaBoxLayout *L = Tile.layout();
  std::string Copy = tmaCopyName(K, Tile);
  if (!L)
    return "'" + Name + "' is filled by " + Copy + ", whose tensor map "
           "sets its layout: padding the array does not move the rows the "
           "copy writes; encode the map with a swizzle mode and read "
           "through it";
  if (L->Swizzle != TmaSwizzle::None && Swizzled)
    return "'" + Name + "' is laid out by " + Copy + ", which moves each "
           "16-byte chunk within its row only: lanes whose rows share a "
           "chunk position still share its banks, and padding the array "
           "does not move the rows the copy writes; spread the lanes over "
           "a row's chunks instead of down a column";
  if (L->Swizzle != TmaSwizzle::None)
    return "'" + Name + "' is laid out by " + Copy + ": padding the "
           "array does not move the rows the copy writes; read it "
           "through the swizzle, which spreads a column over the 16-byte "
           "chunks of " + std::to_string(swizzleSpan(L->Swizzle)) +
           " bytes";
  uint64_t Row = uint64_t(L->cols()) * L->ElemBytes;
  if (Row > 128)
    return "'" + Name + "' is filled by " + Copy + ", which never pads "
           "rows: load boxes at most 128 bytes wide with "
           "CU_TENSOR_MAP_SWIZZLE_128B and read through the swizzle";
  const char *Mode = Row <= 32   ? "CU_TENSOR_MAP_SWIZZLE_32B"
                     : Row <= 64 ? "CU_TENSOR_MAP_SWIZZLE_64B"
                                 : "CU_TENSOR_MAP_SWIZZLE_128B";
  return "'" + Name + "' is filled by " + Copy + ", which never pads "
         "rows: encode the tensor map with " + Mode + " and read '" +
         Name + "' through the swizzle (the 16-byte chunk index XOR the "
         "row's 128-byte line)";
}

} // namespace shmem
