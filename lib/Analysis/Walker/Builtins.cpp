//===- Walker/Builtins.cpp - CUDA builtins as values ----------------------===//
//
// The CUDA vocabulary as values: threadIdx, blockDim, blockIdx, gridDim and
// the NVVM special registers they lower to, and cooperative-groups objects
// (which group a variable holds, its size and thread rank).
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"


namespace shmem {
namespace walker {

LaneValue KernelWalker::builtinIndex(cuda::BuiltinIndex B) {
  switch (B.Var) {
  case cuda::IndexVar::ThreadIdx:
    return G.threadIdx(B.Axis);
  case cuda::IndexVar::BlockDim:
    return G.blockDim(B.Axis);
  case cuda::IndexVar::BlockIdx:
    return symbolValue(T.Symbols.get(&BuiltinSymbolKey, 10 + B.Axis,
                                     SymbolInfo::BlockIndex,
                                     cuda::indexName(B)));
  case cuda::IndexVar::GridDim:
    return symbolValue(T.Symbols.get(&BuiltinSymbolKey, 20 + B.Axis,
                                     SymbolInfo::GridSize,
                                     cuda::indexName(B)));
  }
  return unknown("builtin");
}

std::optional<LaneValue> KernelWalker::laneRegister(StringRef Name) {
  if (Name == "__nvvm_read_ptx_sreg_laneid")
    return G.laneId();
  if (Name == "__nvvm_read_ptx_sreg_warpsize")
    return constant(G.warpSize());
  return std::nullopt;
}

std::optional<unsigned> KernelWalker::groupOf(const Expr *E) {
  for (;;) {
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1)
      E = C->getArg(0);
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
      E = W->getSubExpr();
    else
      break;
  }
  // The static type says it for the block and for a static-size tile.
  if (const CXXRecordDecl *RD = cuda::groupClass(E->getType())) {
    StringRef R = RD->getName();
    if (R == "thread_block")
      return 0u;
    if (R == "thread_block_tile") {
      if (unsigned Size = cuda::tileSizeOf(RD))
        return Size;
      return std::nullopt;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto It = GroupHeld.find(V);
      if (It != GroupHeld.end())
        return It->second;
    }
    return std::nullopt;
  }
  // tiled_partition(parent, n): tiles of n consecutive threads of the
  // parent, n a power of two up to 32, so a tile's rank is the block rank
  // mod n whether the parent is the block or a larger tile.
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Call->getNumArgs() == 2 &&
      calleeName(Call) == "tiled_partition") {
    std::optional<unsigned> Parent = groupOf(Call->getArg(0));
    std::optional<int64_t> Size = uniformConstant(Call->getArg(1));
    if (Parent && Size && *Size >= 1 && *Size <= 32 &&
        (*Size & (*Size - 1)) == 0 && (*Parent == 0 || *Size <= *Parent))
      return unsigned(*Size);
  }
  return std::nullopt;
}

void KernelWalker::holdGroup(const VarDecl *V, std::optional<unsigned> Group) {
  if (Group)
    GroupHeld[V] = *Group;
  else
    GroupHeld.erase(V);
}

std::optional<LaneValue>
KernelWalker::cooperativeGroupsValue(const CallExpr *Call) {
  const Expr *Obj = nullptr;
  const CXXRecordDecl *RD = cuda::groupCalledOn(Call, &Obj);
  if (!RD)
    return std::nullopt;
  std::string R = RD->getName().str();
  std::string M = calleeName(Call);
  if (R == "thread_group") {
    // Type-erased: the group it holds decides.
    if (M != "thread_rank" && M != "size" && M != "num_threads")
      return std::nullopt;
    std::optional<unsigned> Held = groupOf(Obj);
    if (!Held)
      return unknown("the group a 'thread_group' holds is not known");
    if (*Held == 0)
      R = "thread_block";
    else
      return tileValue(M, *Held);
  }
  if (R == "thread_block") {
    if (M == "thread_rank")
      return G.linearId();
    if (M == "size" || M == "num_threads")
      return constant(G.threads());
  }
  if (R == "thread_block_tile") {
    unsigned Size = cuda::tileSizeOf(RD);
    if (Size == 0)
      return std::nullopt;
    return tileValue(M, Size);
  }
  return std::nullopt;
}

std::optional<unsigned> KernelWalker::syncedTile(const CallExpr *Call) {
  if (calleeName(Call) != "sync")
    return std::nullopt;
  const Expr *Obj = cuda::calledObject(Call);
  if (!Obj && Call->getNumArgs() == 1)
    Obj = Call->getArg(0);
  const CXXRecordDecl *RD = Obj ? cuda::groupClass(Obj->getType()) : nullptr;
  if (!RD ||
      (RD->getName() != "thread_group" && RD->getName() != "thread_block_tile"))
    return std::nullopt;
  std::optional<unsigned> Held = groupOf(Obj);
  if (Held && *Held > 0)
    return Held;
  return std::nullopt;
}

std::optional<LaneValue> KernelWalker::tileValue(StringRef M, unsigned Size) {
  if (M == "thread_rank")
    return LaneValue::apply(LaneValue::Op::Rem, G.linearId(), constant(Size));
  if (M == "meta_group_rank")
    return LaneValue::apply(LaneValue::Op::Div, G.linearId(), constant(Size));
  if (M == "size" || M == "num_threads")
    return constant(Size);
  return std::nullopt;
}

} // namespace walker
} // namespace shmem
