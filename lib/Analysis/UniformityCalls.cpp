//===- UniformityCalls.cpp - The values of calls --------------------------===//
//
// CUDA's builtins and intrinsics, warp votes, shuffles and butterflies,
// cooperative groups, block reductions, callees the analysis does not
// see into, and those it analyses in the context of the call. See
// UniformityInternal.h for how the analysis is split.
//
//===----------------------------------------------------------------------===//

#include "UniformityInternal.h"
#include "Program/CallContexts.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace clang;

namespace shmem {

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool FunctionAnalyzer::fullMask(const Expr *Mask) {
  if (!Mask)
    return true;
  if (auto C = constantInt(Mask->IgnoreParenImpCasts()))
    return uint32_t(*C) == 0xffffffffu;
  if (auto C = constantInt(Mask))
    return uint32_t(*C) == 0xffffffffu;
  return false;
}

std::optional<UniformityValue>
FunctionAnalyzer::cooperativeGroups(const CallExpr *Call) {
  // The group the call is made on, as written: with the toolkit's headers
  // a tile's any() and shfl() are a base class's members, and its
  // thread_rank() and size() static members reached through the object.
  const CXXRecordDecl *RD = cuda::groupCalledOn(Call);
  if (!RD)
    return std::nullopt;
  StringRef Rec = RD->getName();
  std::string M = calleeName(Call);
  VarianceSource Rank{VarianceSource::ThreadRank, Call, nullptr};
  if (Rec == "thread_block" || Rec == "thread_group") {
    if (M == "thread_rank") {
      if (G && Rec == "thread_block")
        return exact(G->linearId(), Rank);
      return UniformityValue::varying(Level::Varying, Rank.K, Call);
    }
    if (M == "size" || M == "num_threads")
      return G && Rec == "thread_block" ? constant(G->threads()) : uniform();
    if (M == "group_index")
      return UniformityValue::varying(Level::BlockUniform,
                                      VarianceSource::BlockIndex, Call);
    if (M == "thread_index")
      return UniformityValue::varying(Level::Varying,
                                      VarianceSource::ThreadIndex, Call);
    if (M == "group_dim" || M == "dim_threads")
      return uniform();
    return std::nullopt;
  }
  if (Rec == "grid_group") {
    if (M == "thread_rank" || M == "thread_index")
      return UniformityValue::varying(Level::Varying, Rank.K, Call);
    if (M == "block_rank" || M == "block_index")
      return UniformityValue::varying(Level::BlockUniform,
                                      VarianceSource::BlockIndex, Call);
    if (M == "size" || M == "num_threads" || M == "num_blocks" ||
        M == "is_valid" || M == "dim_blocks")
      return uniform();
    return std::nullopt;
  }
  if (Rec == "coalesced_group") {
    if (M == "thread_rank" || M == "size" || M == "num_threads")
      return UniformityValue::varying(Level::Varying, Rank.K, Call);
    return std::nullopt;
  }
  if (Rec != "thread_block_tile")
    return std::nullopt;
  unsigned Size = tileSizeOf(RD);
  if (M == "thread_rank") {
    if (G && Size)
      return exact(LaneValue::apply(LaneValue::Op::Rem, G->linearId(),
                                    *constantVector(Size)),
                   Rank);
    return UniformityValue::varying(Level::Varying, Rank.K, Call);
  }
  if (M == "meta_group_rank") {
    if (G && Size)
      return exact(LaneValue::apply(LaneValue::Op::Div, G->linearId(),
                                    *constantVector(Size)),
                   Rank);
    return UniformityValue::varying(Level::Varying, Rank.K, Call);
  }
  if (M == "size" || M == "num_threads")
    return Size ? constant(Size) : uniform();
  if (M == "meta_group_size")
    return uniform();
  auto ArgValue = [&](unsigned I) {
    return I < Call->getNumArgs() ? get(Call->getArg(I)) : uniform();
  };
  if (M == "any" || M == "all" || M == "ballot" || M == "match_all")
    return groupCollective(Size, ArgValue(0), Call);
  if (M == "shfl" || M == "shfl_down" || M == "shfl_up" || M == "shfl_xor") {
    UniformityValue V = ArgValue(0);
    V.PerThread = nullptr;
    if (V.Level <= Level::WarpUniform)
      return V;
    return laneExchange(M == "shfl"       ? Exchange::Index
                        : M == "shfl_xor" ? Exchange::Xor
                                          : Exchange::Shift,
                        V, ArgValue(1), Size, Call);
  }
  return std::nullopt;
}

std::optional<UniformityValue>
FunctionAnalyzer::groupReduce(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || isa<CXXMethodDecl>(FD) || calleeName(Call) != "reduce" ||
      Call->getNumArgs() != 3)
    return std::nullopt;
  if (!cuda::inCooperativeGroups(Call))
    return std::nullopt;
  const CXXRecordDecl *RD =
      Call->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  unsigned Size = RD && RD->getDeclName().isIdentifier() &&
                          RD->getName() == "thread_block_tile"
                      ? tileSizeOf(RD)
                      : 0;
  return groupCollective(Size, get(Call->getArg(1)), Call);
}

UniformityValue
FunctionAnalyzer::groupCollective(unsigned Size, const UniformityValue &Operand,
                                  const CallExpr *Call) {
  unsigned Warp = G ? G->warpSize() : 32;
  UniformityValue V = UniformityValue::varying(
      Size >= Warp ? Level::WarpUniform : Level::Varying,
      VarianceSource::WarpCollective, Call);
  if (Size > 1 && Size < Warp && Size < 32 && llvm::isPowerOf2_32(Size))
    V.LaneXor = (uint32_t(1) << Size) - 1; // Lanes l and l ^ d, d < Size.
  bool Tiles = Size && G &&
               (Size <= Warp ? Warp % Size == 0
                             : Size % Warp == 0 && G->threads() % Size == 0);
  V.WarpInvariant = Tiles && UA.completeWarps() && Operand.warpInvariant();
  V.normalize();
  return V;
}

UniformityValue FunctionAnalyzer::laneExchange(Exchange X,
                                               const UniformityValue &Var,
                                               const UniformityValue &Lane,
                                               int64_t Width,
                                               const CallExpr *Call) {
  UniformityValue V = UniformityValue::varying(
      Level::Varying, VarianceSource::LaneExchange, Call);
  if (Width <= 0 || !llvm::isPowerOf2_64(uint64_t(Width)))
    return V;
  // Lanes l and l ^ d are in one group when d < Width.
  uint32_t InGroup = Width >= 32 ? ~0u : (uint32_t(1) << Width) - 1;
  if (X == Exchange::Index)
    V.LaneXor = Lane.laneXor() & InGroup;
  else if (X == Exchange::Xor)
    V.LaneXor = Var.laneXor() & Lane.laneXor();
  V.WarpInvariant = UA.completeWarps() && Var.warpInvariant() &&
                    Lane.warpInvariant();
  V.normalize();
  return V;
}

void FunctionAnalyzer::butterfly(const Expr *E, UniformityValue &V) {
  // LaneXor holds the offsets of a warp of 32.
  if (V.Level <= Level::WarpUniform || (G && G->warpSize() != 32))
    return;
  auto S = matchButterflyStep(E, Ctx, G ? G->warpSize() : 32);
  if (!S)
    return;
  auto O = constantInt(S->Offset);
  if (!O || *O <= 0 || *O >= S->Width || *O >= 32)
    return;
  V.LaneXor = closeLaneXor(V.laneXor(), unsigned(*O));
  Level Before = V.Level;
  V.normalize();
  if (V.Level < Before)
    V.Source = {VarianceSource::WarpCollective, E, nullptr};
}

UniformityValue FunctionAnalyzer::specialRegister(cuda::RegisterSpan Span,
                                                  const Stmt *At) {
  switch (Span) {
  case cuda::RegisterSpan::Thread:
    return UniformityValue::varying(Level::Varying,
                                    VarianceSource::ThreadIndex, At);
  case cuda::RegisterSpan::Warp:
    return UniformityValue::varying(Level::WarpUniform,
                                    VarianceSource::ThreadIndex, At);
  case cuda::RegisterSpan::Block:
    return UniformityValue::varying(Level::BlockUniform,
                                    VarianceSource::BlockIndex, At);
  case cuda::RegisterSpan::Launch:
    return uniform();
  }
  return UniformityValue::varying(Level::Varying, VarianceSource::Opaque, At);
}

std::optional<UniformityValue>
FunctionAnalyzer::builtinCall(const CallExpr *Call, StringRef Name) {
  // threadIdx.x & co., spelled as their getters or NVVM registers.
  if (auto B = cuda::builtinIndexOf(Call))
    return builtinIndex(*B, Call);
  if (Name.consume_front("__nvvm_read_ptx_sreg_")) {
    if (Name == "laneid") {
      VarianceSource Src{VarianceSource::ThreadIndex, Call, nullptr};
      if (G)
        return exact(G->laneId(), Src);
      return UniformityValue::varying(Level::Varying, Src.K, Call);
    }
    if (Name == "warpsize")
      return constant(G ? G->warpSize() : 32);
    if (std::optional<cuda::RegisterSpan> Span =
            cuda::specialRegisterSpan(Name))
      return specialRegister(*Span, Call);
    return UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                    Call);
  }
  auto Arg = [&](unsigned I) -> const Expr * {
    return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
  };
  // Block-wide reductions: every thread of the block gets one result.
  if (cuda::isBlockReduction(Name))
    return UniformityValue::varying(Level::BlockUniform,
                                    VarianceSource::BlockCollective, Call);
  std::optional<cuda::Collective> Coll = cuda::collectiveOf(Name);
  // Warp votes: one result per warp when every lane takes part.
  if (Coll && Coll->sameInEveryLane()) {
    // The legacy forms act on the lanes that happen to be active.
    if (!Coll->Sync)
      return groupCollective(G ? G->warpSize() : 32, get(Arg(0)), Call);
    if (fullMask(Arg(0)))
      return groupCollective(G ? G->warpSize() : 32, get(Arg(1)), Call);
    return UniformityValue::varying(Level::Varying,
                                    VarianceSource::WarpCollective, Call);
  }
  if (cuda::isLaneMaskQuery(Name) ||
      (Coll && Coll->Op == cuda::CollectiveOp::MatchAny))
    return UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                    Call);
  // Shuffles: a broadcast from one lane of a full warp is warp-uniform; a
  // value already warp-uniform stays so under any permutation.
  if (Coll && Coll->isShuffle()) {
    bool Sync = Coll->Sync;
    unsigned First = Sync ? 1 : 0;
    UniformityValue V = get(Arg(First));
    V.PerThread = nullptr;
    if (V.Level <= Level::WarpUniform)
      return V;
    bool Full = !Sync || fullMask(Arg(0));
    const Expr *Width = Arg(First + 2);
    int64_t Lanes = G ? G->warpSize() : 32;
    if (Width && !isa<CXXDefaultArgExpr>(Width)) {
      auto W = constantInt(Width->IgnoreParenImpCasts());
      Lanes = W ? *W : 0;
    }
    return laneExchange(Coll->Op == cuda::CollectiveOp::Shuffle
                            ? Exchange::Index
                        : Coll->Op == cuda::CollectiveOp::ShuffleXor
                            ? Exchange::Xor
                            : Exchange::Shift,
                        V, get(Arg(First + 1)), Full ? Lanes : 0, Call);
  }
  if (Name.starts_with("atomic") || Name.starts_with("__nvvm_atom") ||
      Name.starts_with("__atomic") || Name.starts_with("__hip_atomic") ||
      Name.starts_with("__nv_atomic") || Name.starts_with("__cuda_atomic"))
    return UniformityValue::varying(Level::Varying, VarianceSource::Atomic,
                                    Call);
  if (Name == "clock" || Name == "clock64" || Name == "__clock" ||
      Name == "__globaltimer" || Name == "__nvvm_read_ptx_sreg_clock")
    return UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                    Call);
  // Loads through the read-only or cache-hinted paths.
  if (Name == "__ldg" || Name == "__ldcg" || Name == "__ldca" ||
      Name == "__ldcs" || Name == "__ldlu" || Name == "__ldcv") {
    Location L;
    L.Address = get(Arg(0));
    L.Address.PointsToLocal = nullptr;
    L.Address.PerThread = nullptr;
    L.ReadOnly = Name == "__ldg";
    return read(L, Call);
  }
  if ((Name == "min" || Name == "max" || Name == "umin" || Name == "umax") &&
      Call->getNumArgs() == 2) {
    UniformityValue A = get(Arg(0)), B = get(Arg(1));
    UniformityValue V = UniformityValue::join(A, B);
    V.PointsToLocal = nullptr;
    if (A.PerThread && B.PerThread &&
        Call->getType()->isIntegralOrEnumerationType())
      return convert(withPerThread(V, LaneValue::apply(
                                          Name.ends_with("min")
                                              ? LaneValue::Op::Min
                                              : LaneValue::Op::Max,
                                          *A.PerThread, *B.PerThread)),
                     Call->getType());
    V.PerThread = nullptr;
    return V;
  }
  return std::nullopt;
}

UniformityValue FunctionAnalyzer::call(const CallExpr *Call, bool Effects) {
  std::string NameStr = calleeName(Call);
  StringRef Name = NameStr;
  if (auto V = builtinCall(Call, Name)) {
    butterfly(Call, *V);
    return *V;
  }
  if (auto V = cooperativeGroups(Call))
    return *V;
  if (auto V = groupReduce(Call))
    return *V;
  if (cuda::isBarrierName(Name))
    return uniform();

  const FunctionDecl *Callee = calleeOf(Call);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
  bool OperatorMethod = OC && isa_and_nonnull<CXXMethodDecl>(Callee);
  unsigned Shift = OperatorMethod ? 1 : 0;

  // Assignment operators of classes, trivial or not, assign.
  if (OperatorMethod && OC->isAssignmentOp() && OC->getNumArgs() == 2 &&
      OC->getOperator() == OO_Equal) {
    UniformityValue V = get(OC->getArg(1));
    V.PerThread = nullptr;
    if (Effects)
      write(location(OC->getArg(0)), V);
    return V;
  }

  // The calls the walker inlines (followedCallee()): not a device-side
  // kernel launch, which starts another grid.
  if (const FunctionDecl *Def = followedCallee(Call, Ctx))
    return inlineCall(Call, Def, Shift, Effects);

  // A callee the analysis does not see into: as uniform as what it is
  // given; whatever it may write through pointers to locals becomes as
  // uniform as all of that.
  UniformityValue V;
  if (!Callee)
    V = get(Call->getCallee());
  if (MC)
    V = UniformityValue::join(V, get(MC->getImplicitObjectArgument()));
  for (const Expr *A : Call->arguments())
    V = UniformityValue::join(V, get(A));
  V.PerThread = nullptr;
  V.PointsToLocal = nullptr;
  if (Effects)
    writeThroughArguments(Call, Callee, Shift, V);
  if (!Callee)
    V = UniformityValue::join(
        V, UniformityValue::varying(Level::Varying, VarianceSource::Opaque,
                                    Call));
  butterfly(Call, V); // fmaxf(m, __shfl_xor_sync(~0u, m, 16))
  return V;
}

void FunctionAnalyzer::writeThroughArguments(const CallExpr *Call,
                                             const FunctionDecl *Callee,
                                             unsigned Shift,
                                             const UniformityValue &V) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && !MD->isConst())
      mayWrite(MC->getImplicitObjectArgument(), V);
  if (Shift == 1 && Call->getNumArgs() > 0)
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
        MD && !MD->isConst())
      mayWrite(Call->getArg(0), V);
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    const Expr *A = Call->getArg(I);
    UniformityValue P = get(A);
    if (P.PointsToLocal) {
      Location L;
      L.K = Location::Local;
      L.Var = P.PointsToLocal;
      write(L, V);
      continue;
    }
    unsigned Param = I - Shift;
    if (Callee && Param < Callee->getNumParams()) {
      QualType T = Callee->getParamDecl(Param)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        mayWrite(A, V);
    }
  }
}

UniformityValue FunctionAnalyzer::inlineCall(const CallExpr *Call,
                                             const FunctionDecl *Def,
                                             unsigned Shift, bool Effects) {
  std::vector<ArgumentContext> CallArgs;
  std::vector<const Expr *> ByRef; // Caller lvalues to write back.
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const Expr *A = I + Shift < Call->getNumArgs() ? Call->getArg(I + Shift)
                                                   : P->getDefaultArg();
    ArgumentContext AC;
    if (!A) {
      CallArgs.push_back(AC);
      ByRef.push_back(nullptr);
      continue;
    }
    if (P->getType()->isReferenceType()) {
      Location L = location(A);
      if (L.K == Location::Local && L.Whole) {
        AC.Value = stateValue(L.Var);
        AC.ByReferenceToLocal = true;
        ByRef.push_back(A);
      } else {
        AC.Value = L.K == Location::Temporary ? get(L.Init) : L.Address;
        ByRef.push_back(nullptr);
      }
    } else {
      AC.Value = convert(get(A), P->getType());
      ByRef.push_back(nullptr);
    }
    AC.Value.PointsToLocal = nullptr;
    CallArgs.push_back(std::move(AC));
  }
  UniformityValue Object;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = get(MC->getImplicitObjectArgument());
  else if (Shift == 1)
    Object = get(Call->getArg(0));
  Object.PerThread = nullptr;
  Object.PointsToLocal = nullptr;

  const FunctionUniformity *Sub =
      UA.analyzeFunction(Def, CallArgs, Object, Depth + 1);
  R.Callees[Call] = Sub;
  if (!Sub) {
    // Too deep or recursive: nothing is known of the result.
    UniformityValue V = UniformityValue::varying(
        Level::Varying, VarianceSource::Opaque, Call);
    if (Effects)
      writeThroughArguments(Call, Def, Shift, V);
    return V;
  }
  if (Effects) {
    for (unsigned I = 0; I < ByRef.size(); ++I)
      if (ByRef[I] && I < Sub->ParamsAtExit.size())
        write(location(ByRef[I]), Sub->ParamsAtExit[I]);
    // Pointers to locals: whatever the callee stores anywhere.
    for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
      UniformityValue P = get(Call->getArg(I));
      if (P.PointsToLocal) {
        Location L;
        L.K = Location::Local;
        L.Var = P.PointsToLocal;
        write(L, Sub->Stored);
      }
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const CXXMethodDecl *MD = MC->getMethodDecl(); MD && !MD->isConst())
        mayWrite(MC->getImplicitObjectArgument(), Sub->Stored);
    R.Stored = UniformityValue::join(R.Stored, Sub->Stored);
  }
  UniformityValue V = Sub->Ret;
  V.PointsToLocal = nullptr;
  return convert(V, Call->getType());
}

} // namespace shmem
