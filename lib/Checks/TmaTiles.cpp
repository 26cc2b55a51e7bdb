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

std::vector<TmaTile> tmaTiles(const KernelContext &K) {
  std::vector<TmaTile> Out;
  const KernelTrace &T = K.Trace;
  for (unsigned CI = 0; CI < T.BulkCopies.size(); ++CI) {
    const BulkCopyEvent &C = T.BulkCopies[CI];
    const TensorMapFacts *Facts =
        C.Map && K.Maps ? K.Maps->factsFor(C.Map) : nullptr;
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
    const TensorMapFacts *F =
        C.Map && K.Maps ? K.Maps->factsFor(C.Map) : nullptr;
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
    const TensorMapFacts *F =
        C.Map && K.Maps ? K.Maps->factsFor(C.Map) : nullptr;
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

} // namespace shmem
