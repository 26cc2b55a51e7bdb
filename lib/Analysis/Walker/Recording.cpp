//===- Walker/Recording.cpp - What a walk records -------------------------===//
//
// What a walk records into the trace: shared and global accesses with the
// dataflow links between them, barriers and warp collectives with the walk's
// position, and the outcomes of branches and loops.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace shmem {
namespace walker {

void KernelWalker::noteBranch(const Stmt *S, const LaneValue &Cond) {
  if (!Recording || !S)
    return;
  bool Uniform = Cond.isAffine();
  // The same form in every thread, let alone every active one.
  bool AllSplat = Cond.constants().form() == Lanes::Form::Splat;
  for (const auto &KV : Cond.coefficients())
    AllSplat = AllSplat && KV.second.form() == Lanes::Form::Splat;
  // Each vector the same in the active threads; walked in order, as
  // indexing a Linear vector per thread divides.
  auto SameInActive = [&](const Lanes &L) {
    bool Seen = false;
    int64_t First = 0;
    return L.forEachWhile([&](unsigned I, int64_t X) {
      if (!Active[I])
        return true;
      if (!Seen) {
        Seen = true;
        First = X;
        return true;
      }
      return X == First;
    });
  };
  if (Uniform && !AllSplat) {
    Uniform = SameInActive(Cond.constants());
    for (const auto &KV : Cond.coefficients())
      Uniform = Uniform && SameInActive(KV.second);
  }
  auto [It, New] = T.UniformBranch.try_emplace(S, Uniform);
  if (!New)
    It->second = It->second && Uniform;
  if (!isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    noteOutcomes(S, Cond);
}

void KernelWalker::noteOutcomes(const Stmt *S, const LaneValue &Cond) {
  KernelTrace::BranchOutcomes &O = T.Branches[{S, StackIds.back()}];
  // An approximate mask may hold threads that are not there, or miss some
  // that are (those that may have returned in a loop are all dropped after
  // it). A condition with one value in every thread still takes one side
  // only, whichever threads arrive: that side is then noted as taken, with
  // or without active threads, and the facts stay exact. Not so after a
  // goto, nor where the walk evaluates branches otherwise than they run.
  std::optional<int64_t> Splat = uniformTest(Cond);
  if (InexactBranches || (ActiveApprox && !Splat))
    O.Exact = false;
  // Per iteration of the unrolled loop right around the branch, which
  // must be the same loop at every visit.
  int K = LoopIterations.empty() ? -1 : LoopIterations.back();
  if (O.PerIteration &&
      (K < 0 || K >= 64 || (O.IterLoop && O.IterLoop != Loops.back())))
    O.PerIteration = false;
  uint64_t Bit = O.PerIteration ? uint64_t(1) << K : 0;
  if (O.TakenTrue && O.TakenFalse &&
      (!O.PerIteration || (O.IterTrue & O.IterFalse & Bit)))
    return;
  bool True = false, False = false;
  if (!Cond.isConcrete()) {
    True = False = anyActive();
  } else if (std::optional<int64_t> V = Cond.constants().splatValue()) {
    if (anyActive() || (ActiveApprox && Splat))
      (*V ? True : False) = true;
  } else {
    Cond.constants().forEachWhile([&](unsigned I, int64_t X) {
      if (Active[I])
        (X ? True : False) = true;
      return !(True && False);
    });
  }
  O.TakenTrue |= True;
  O.TakenFalse |= False;
  if (!O.PerIteration)
    return;
  O.IterLoop = Loops.back();
  O.IterTrue |= True ? Bit : 0;
  O.IterFalse |= False ? Bit : 0;
}

void KernelWalker::noteSkippedSide(const Stmt *Branch, const Stmt *Side,
                                   const LaneValue &Cond, bool Sense) {
  const auto *If = dyn_cast<IfStmt>(Branch);
  bool Constexpr = If && If->isConstexpr();
  if (!Recording || (!Side && !Constexpr) || Uncertain || InexactBranches ||
      GotoWalked)
    return;
  // Only where the walk knows no thread runs the side: the mask says so,
  // or the condition has one value in every thread, whichever arrive.
  std::optional<int64_t> Splat = uniformTest(Cond);
  if (Splat ? bool(*Splat) == Sense : anyActive() || ActiveApprox)
    return;
  const BarrierContent &C =
      Constexpr ? Contents.ofConstexprSide(
                      If, Sense, Inlining.empty() ? T.Kernel : Inlining.back())
                : Contents.ofStatement(Side);
  const std::vector<const Stmt *> &Path =
      !C.BlockPath.empty() ? C.BlockPath : C.WarpPath;
  if (!Path.empty())
    T.SkippedBarriers.push_back({Path.front(), Branch, Seq++});
}

void KernelWalker::noteLoop(const Stmt *L, const LoopVisit &V) {
  if (!Recording || !V.Reached)
    return;
  KernelTrace::LoopOutcomes &O = T.LoopFacts[L][CallStack];
  O.Exact = O.Exact && V.Exact && !InexactBranches;
  O.FirstTestHolds = O.FirstTestHolds && V.FirstTestHolds;
  if (V.Trips == -1 || (V.Trips >= 0 && O.Trips != -2 && O.Trips != V.Trips))
    O.Trips = -1;
  else if (V.Trips >= 0)
    O.Trips = V.Trips;
}

std::optional<unsigned> KernelWalker::accessWidth(QualType Ty) const {
  if (Ty.isNull() || Ty->isIncompleteType() || Ty->isDependentType())
    return std::nullopt;
  uint64_t Width = Ctx.getTypeSizeInChars(Ty).getQuantity();
  if (Width != 1 && Width != 2 && Width != 4 && Width != 8 && Width != 16)
    return std::nullopt;
  return unsigned(Width);
}

std::optional<unsigned>
KernelWalker::recordAccess(const Expr *E, const PointerValue &P, AccessKind K,
                           QualType Ty, std::optional<LaneValue> Stored,
                           const Origins &From) {
  if (!Recording || !P.isShared() || !anyActive())
    return std::nullopt;
  std::optional<unsigned> Width = accessWidth(Ty);
  if (!Width)
    return std::nullopt;
  SharedAccess A;
  A.E = E;
  A.Loc = E->getExprLoc();
  A.Address = P;
  A.Kind = K;
  A.Width = *Width;
  A.Type = Ty;
  A.Active = Active;
  A.ActiveApprox = ActiveApprox;
  A.Stretch = Stretch;
  A.AfterExit = AnyExited;
  A.Stored = std::move(Stored);
  A.Volatile = Ty.isVolatileQualified();
  A.CallStack = CallStack;
  A.Loops = Loops;
  A.LoopIterations = LoopIterations;
  A.Seq = Seq++;
  if (K != AccessKind::Atomic && wantTileIndex())
    A.Tile = tileIndex(E, P);
  ++IndexGeneration;
  unsigned Index = T.Accesses.size();
  T.Accesses.push_back(std::move(A));
  if (K == AccessKind::Store)
    link(From, Index, /*IntoShared=*/true);
  return Index;
}

void KernelWalker::recordMatrix(const cuda::AsmMatrixAccess &M,
                                const Expr *Operand) {
  Value V = eval(Operand);
  // With .shared the operand is a shared-window address (from
  // __cvta_generic_to_shared); without, a generic pointer.
  std::optional<PointerValue> P;
  if (V.SharedAddress)
    P = std::move(V.SharedAddress);
  else if (V.IsPointer && V.Ptr->isShared() && !M.SharedSpace)
    P = std::move(V.Ptr);
  if (!P || !Recording)
    return;
  if (M.Displacement)
    P->Offset = P->Offset + LaneValue::constant(N, M.Displacement);
  // Only lanes 0 .. 8N-1 of each warp give a row address; the others'
  // operands are ignored by the hardware.
  std::vector<char> Saved = Active;
  for (unsigned I = 0; I < N; ++I)
    if (I % G.warpSize() >= M.activeLanes())
      Active[I] = 0;
  QualType Row = Ctx.getVectorType(Ctx.UnsignedIntTy, 4, VectorKind::Generic);
  AccessKind K = M.Store ? AccessKind::Store : AccessKind::Load;
  if (std::optional<unsigned> I = recordAccess(Operand, *P, K, Row))
    T.Accesses[*I].Matrix = M.Mnemonic;
  Active = std::move(Saved);
}

void KernelWalker::recordAsyncCopy(const Expr *Site, const Expr *Dst,
                                   const Value &Src,
                                   std::optional<int64_t> Bytes,
                                   const cuda::AsyncCopy &How) {
  Value V = eval(Dst);
  std::optional<PointerValue> P;
  if (V.SharedAddress)
    P = std::move(V.SharedAddress);
  else if (V.IsPointer && V.Ptr->isShared())
    P = std::move(V.Ptr);
  if (!P || !Bytes)
    return;
  recordAsyncStore(Site, *P, Src, *Bytes, How);
}

void KernelWalker::recordAsyncStore(const Expr *Site, const PointerValue &Dst,
                                    const Value &Src, int64_t Bytes,
                                    const cuda::AsyncCopy &How) {
  QualType Ty = Bytes == 4    ? Ctx.UnsignedIntTy
                : Bytes == 8  ? Ctx.UnsignedLongLongTy
                : Bytes == 16 ? Ctx.UnsignedInt128Ty
                              : QualType();
  if (Ty.isNull())
    return;
  if (std::optional<unsigned> I =
          recordAccess(Site, Dst, AccessKind::Store, Ty)) {
    SharedAccess &A = T.Accesses[*I];
    A.Async = true;
    A.AsyncUntracked = How.UntrackedCompletion;
    A.AsyncBypass = How.BypassAt16 && Bytes == 16;
    if (Src.IsPointer && Src.Ptr->isGlobal())
      A.AsyncSource = Src.Ptr->Offset;
    if (How.BarrierTied)
      AsyncBarrierPending.push_back(*I);
    else if (!How.UntrackedCompletion)
      AsyncPending.push_back(*I);
  }
}

/// The largest power of two up to 16 that divides \p V in every thread,
/// whatever its unknowns (their coefficients count, not their values).
static int64_t provableAlignment(const LaneValue &V) {
  if (!V.isAffine())
    return 1;
  int64_t A = 16;
  auto Narrow = [&A](unsigned, int64_t X) {
    while (A > 1 && X % A != 0)
      A /= 2;
    return A > 1;
  };
  V.constants().forEachWhile(Narrow);
  for (const auto &KV : V.coefficients())
    KV.second.forEachWhile(Narrow);
  return A;
}

void KernelWalker::recordGroupCopy(const CallExpr *Call,
                                   const cuda::GroupCopy &C) {
  Value Dst = eval(Call->getArg(C.DstOperand));
  Value Src = eval(Call->getArg(C.SrcOperand));
  // A count the walk knows: a constant, or `sizeof(int) * block.size()`.
  auto CountOf = [&](const Expr *E) -> std::optional<int64_t> {
    E = sizeObjectValue(E);
    if (std::optional<int64_t> K = foldInteger(E, Ctx))
      return K;
    return eval(E).Int.asConstant();
  };
  std::optional<int64_t> Count = CountOf(Call->getArg(C.CountOperand));
  if (C.ElementCount && Count) {
    // min(dstCount, srcCount) elements of the pointee.
    std::optional<int64_t> DstCount = CountOf(Call->getArg(C.CountOperand - 2));
    QualType Elem = Call->getArg(C.DstOperand)->getType()->getPointeeType();
    if (!DstCount || Elem->isIncompleteType() || Elem->isDependentType())
      return;
    Count = std::min(*Count, *DstCount) *
            int64_t(Ctx.getTypeSizeInChars(Elem).getQuantity());
  }
  std::optional<unsigned> Group = groupOf(Call->getArg(C.GroupOperand));
  if (!Dst.IsPointer || !Dst.Ptr->isShared() || !Count || *Count <= 0 ||
      !Group)
    return;
  // The piece: the alignment promised, else the one both pointers and the
  // count are known to have (the toolkit picks it at run time; below 4
  // bytes it copies synchronously, which is not modelled).
  int64_t Piece = C.AlignHint ? std::min<int64_t>(C.AlignHint, 16) : 16;
  if (!C.AlignHint) {
    Piece = std::min(Piece, provableAlignment(Dst.Ptr->Offset));
    if (Src.IsPointer)
      Piece = std::min(Piece, provableAlignment(Src.Ptr->Offset));
    while (Piece > 1 && *Count % Piece != 0)
      Piece /= 2;
  }
  if (Piece < 4)
    return;
  int64_t Pieces = *Count / Piece;
  int64_t Size = *Group == 0 ? int64_t(G.threads()) : int64_t(*Group);
  int64_t Rounds = (Pieces + Size - 1) / Size;
  if (Rounds > MaxGroupCopyRounds)
    return;
  LaneValue Rank = *Group == 0 ? G.linearId()
                               : LaneValue::apply(LaneValue::Op::Rem,
                                                  G.linearId(), constant(Size));
  // One cp.async a piece (.cg for 16 bytes), completed as the sync object
  // of libcu++'s form says, else by the batch the toolkit commits.
  cuda::AsyncCopy How = C.Sync.value_or(cuda::AsyncCopy());
  How.BypassAt16 = true;
  std::vector<char> Saved = Active;
  for (int64_t K = 0; K < Rounds; ++K) {
    LaneValue Index = Rank + constant(K * Size);
    LaneValue Has =
        LaneValue::apply(LaneValue::Op::LT, Index, constant(Pieces));
    for (unsigned I = 0; I < N; ++I)
      Active[I] = Saved[I] && Has.constants()[I] != 0;
    LaneValue Bytes = Index * constant(Piece);
    PointerValue D = *Dst.Ptr;
    D.Offset = D.Offset + Bytes;
    Value S = Src;
    if (S.IsPointer)
      S.Ptr->Offset = S.Ptr->Offset + Bytes;
    recordAsyncStore(Call, D, S, Piece, How);
  }
  Active = std::move(Saved);
  if (C.Sync)
    return;
  // The toolkit commits the batch.
  cuda::AsyncWait Commit;
  Commit.Commit = true;
  asyncWait(Commit, nullptr, Call->getExprLoc());
}

std::optional<PointerValue> KernelWalker::sharedPointerOf(const Expr *E) {
  Value V = eval(E);
  if (V.SharedAddress)
    return std::move(V.SharedAddress);
  if (V.IsPointer && V.Ptr->isShared())
    return std::move(V.Ptr);
  return std::nullopt;
}

const ValueDecl *KernelWalker::tensorMapOf(const Expr *E) {
  // The operand is often converted to an integer for the asm
  // (`"l"(reinterpret_cast<uint64_t>(&map))`), which the walk's values do
  // not carry: look for the variable it names.
  const ValueDecl *Found = nullptr;
  auto Visit = [&](const Expr *X, auto &Self) -> void {
    if (Found || !X)
      return;
    X = X->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return;
      // A helper's pointer (`const void *map`) that holds the address of
      // the kernel's map (or the kernel's pointer to one).
      if (auto It = Vars.find(V);
          It != Vars.end() && It->second.IsPointer &&
          It->second.Ptr->isGlobal()) {
        const auto *Base = dyn_cast<VarDecl>(It->second.Ptr->GlobalBase);
        if (Base && isKernelTensorMap(Base))
          Found = Base;
        return;
      }
      if (isKernelTensorMap(V)) {
        Found = V;
        return;
      }
      // A local the helper converts the map's address into
      // (`uint64_t p = reinterpret_cast<uint64_t>(map)`, fast.cu's
      // load_async): what it was initialised with.
      if (V->isLocalVarDecl() && !V->getType()->isPointerType())
        Self(V->getInit(), Self);
      return;
    }
    for (const Stmt *C : X->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        Self(CE, Self);
  };
  Visit(E, Visit);
  return Found;
}

bool KernelWalker::isKernelTensorMap(const VarDecl *V) const {
  if (isa<ParmVarDecl>(V))
    return V->getDeclContext() == T.Kernel &&
           cuda::holdsTensorMap(V->getType());
  return !V->isLocalVarDecl() && cuda::isTensorMapType(V->getType()) &&
         (V->hasAttr<CUDAConstantAttr>() || V->hasAttr<CUDADeviceAttr>());
}

void KernelWalker::recordBulkCopy(const Stmt *S, SourceLocation Loc,
                                  const Expr *Dst, const Expr *Map,
                                  const Expr *Bar,
                                  const cuda::BulkTensorCopy &How) {
  std::optional<PointerValue> P = sharedPointerOf(Dst);
  const ValueDecl *M = Map ? tensorMapOf(Map) : nullptr;
  std::optional<PointerValue> B;
  if (Bar)
    B = How.CudaBarrier ? std::optional<PointerValue>(evalAddress(Bar))
                        : sharedPointerOf(Bar);
  if (B && !B->isShared())
    B.reset();
  if (!Recording || !anyActive())
    return;
  BulkCopyEvent C;
  C.S = S;
  C.Loc = Loc;
  C.Dst = std::move(P);
  C.Map = M;
  C.Barrier = std::move(B);
  C.CudaBarrier = How.CudaBarrier;
  C.Active = Active;
  C.ActiveApprox = ActiveApprox;
  C.CallStack = CallStack;
  C.LoopIterations = LoopIterations;
  C.Seq = Seq++;
  T.BulkCopies.push_back(std::move(C));
}

std::optional<BarrierWaitEvent>
KernelWalker::mbarrierEvent(SourceLocation Loc, const Expr *Bar,
                            bool IsObject) {
  std::optional<PointerValue> B;
  if (Bar)
    B = IsObject ? std::optional<PointerValue>(evalAddress(Bar))
                 : sharedPointerOf(Bar);
  if (B && !B->isShared())
    B.reset();
  if (!Recording || !anyActive())
    return std::nullopt;
  BarrierWaitEvent W;
  W.Loc = Loc;
  W.Barrier = std::move(B);
  W.Active = Active;
  W.ActiveApprox = ActiveApprox;
  W.CallStack = CallStack;
  W.Seq = Seq++;
  return W;
}

void KernelWalker::recordBarrierWait(SourceLocation Loc, const Expr *Bar,
                                     bool IsObject) {
  if (std::optional<BarrierWaitEvent> W = mbarrierEvent(Loc, Bar, IsObject))
    T.BarrierWaits.push_back(std::move(*W));
}

void KernelWalker::recordBarrierArrive(SourceLocation Loc, const Expr *Bar,
                                       bool IsObject) {
  if (std::optional<BarrierWaitEvent> A = mbarrierEvent(Loc, Bar, IsObject))
    T.BarrierArrives.push_back(std::move(*A));
}

void KernelWalker::noteSharedPipeline(const CallExpr *Call) {
  if (Recording && T.SharedPipeline.isInvalid() &&
      cuda::isSharedPipelineCall(Call))
    T.SharedPipeline = Call->getExprLoc();
}

const ValueDecl *KernelWalker::sharedHandedOver(const Expr *A,
                                                const Value *V) const {
  const ValueDecl *D = nullptr;
  if (V && V->IsPointer && V->Ptr && V->Ptr->isShared())
    D = V->Ptr->Base;
  // An object or element bound to a reference (`temp.reduce`, `s[i]`): the
  // variable it is part of. A value passed by copy was read here.
  for (const Expr *E = A->isGLValue() ? A : nullptr; !D && E;) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasAttr<CUDASharedAttr>())
        D = VD;
      break;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      E = ME->getBase();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
        ASE &&
        ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      E = ASE->getBase();
      continue;
    }
    break;
  }
  if (!D)
    return nullptr;
  // The driver declares `__shared__ cuda::barrier bar` as raw storage and
  // a reference to it: the variable or the argument may be the object.
  if (cuda::isLibrarySyncObject(D->getType()) ||
      cuda::isLibrarySyncObject(A->getType()))
    return nullptr;
  return D;
}

void KernelWalker::noteUnwalkedShared(
    const Expr *At, const FunctionDecl *Callee,
    llvm::ArrayRef<const ValueDecl *> Shared) {
  if (!Recording || Shared.empty())
    return;
  std::string Names;
  llvm::SmallPtrSet<const ValueDecl *, 4> Seen;
  for (const ValueDecl *D : Shared)
    if (Seen.insert(D).second)
      Names += (Names.empty() ? "'" : ", '") + D->getNameAsString() + "'";
  // A constructor keeps the storage for the object's methods (CUB's
  // BlockReduce): the class is what accesses it.
  std::string Name;
  if (!Callee) {
    Name = "a function pointer";
  } else if (const auto *CD = dyn_cast<CXXConstructorDecl>(Callee)) {
    Name = CD->getParent()->getNameAsString();
  } else {
    Name = Callee->getNameAsString(); // "load_matrix_sync", "operator="
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee))
      Name = MD->getParent()->getNameAsString() + "::" + Name;
  }
  AnalysisGap G;
  G.Loc = At->getExprLoc();
  G.What = "accesses to shared " + Names + " by " +
           (Callee ? "'" + Name + "'" : Name) + " not analysed";
  const FunctionDecl *Def = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Callee)
    G.Why = "the walk does not follow calls through function pointers";
  else if (!Callee->hasBody(Def) || !Def)
    G.Why = "its code is not in this translation unit";
  else if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    G.Why = "its code is in a system header, which the walk does not enter; "
            "races and bank conflicts there are not checked";
  else
    G.Why = "the walk does not follow the call";
  G.CallStack = CallStack;
  T.Gaps.push_back(std::move(G));
}

void KernelWalker::asyncCopiesDone(const std::vector<unsigned> &Copies,
                                   SourceLocation Loc) {
  for (unsigned I : Copies)
    if (I < T.Accesses.size() && !T.Accesses[I].AsyncDoneSeq) {
      T.Accesses[I].AsyncDoneSeq = Seq;
      T.Accesses[I].AsyncDoneLoc = Loc;
    }
}

void KernelWalker::barrierCopiesDone(SourceLocation Loc) {
  if (!AsyncBarrierPending.empty())
    ++Effects.AsyncOps;
  asyncCopiesDone(AsyncBarrierPending, Loc);
  AsyncBarrierPending.clear();
}

void KernelWalker::asyncWait(const cuda::AsyncWait &W, const Expr *PendingArg,
                             SourceLocation Loc) {
  if (W.Commit || W.Wait)
    ++Effects.AsyncOps;
  // An empty commit makes an empty group too: pipelines commit one per
  // stage so that wait_group counts stages.
  if (W.Commit) {
    AsyncGroups.push_back(std::move(AsyncPending));
    AsyncPending.clear();
  }
  if (!W.Wait)
    return;
  std::optional<int64_t> Left = W.Pending;
  if (!Left && PendingArg)
    Left = foldInteger(PendingArg, Ctx);
  // A count the walk does not know completes everything: a copy taken as
  // complete too early can hide a race, never invent one.
  size_t Keep = Left && *Left > 0 ? size_t(*Left) : 0;
  if (W.Oldest)
    Keep = AsyncGroups.empty() ? 0 : AsyncGroups.size() - 1;
  while (AsyncGroups.size() > Keep) {
    asyncCopiesDone(AsyncGroups.front(), Loc);
    AsyncGroups.pop_front();
  }
}

void KernelWalker::link(const Origins &From, unsigned StoreIndex,
                        bool IntoShared) {
  for (OriginId O : From) {
    bool FromGlobal = O & GlobalBit;
    unsigned I = O & ~GlobalBit;
    if (IntoShared && FromGlobal && I < T.GlobalAccesses.size()) {
      T.GlobalAccesses[I].Shared.push_back(StoreIndex);
      T.Accesses[StoreIndex].Global.push_back(I);
    } else if (!IntoShared && !FromGlobal && I < T.Accesses.size()) {
      T.Accesses[I].Global.push_back(StoreIndex);
      T.GlobalAccesses[StoreIndex].Shared.push_back(I);
    }
  }
}

std::optional<unsigned> KernelWalker::recordGlobal(const Expr *E,
                                                   const PointerValue &P,
                                                   AccessKind K, QualType Ty,
                                                   const Origins &From) {
  if (!Recording || !P.isGlobal() || !anyActive())
    return std::nullopt;
  std::optional<unsigned> Width = accessWidth(Ty);
  if (!Width)
    return std::nullopt;
  GlobalAccess A;
  A.E = E;
  A.Loc = E->getExprLoc();
  A.Base = P.GlobalBase;
  A.Offset = P.Offset;
  A.Kind = K;
  A.Width = *Width;
  A.Type = Ty;
  A.Active = Active;
  A.ActiveApprox = ActiveApprox;
  A.CallStack = CallStack;
  A.Loops = Loops;
  A.LoopIterations = LoopIterations;
  A.Seq = Seq++;
  unsigned Index = T.GlobalAccesses.size();
  T.GlobalAccesses.push_back(std::move(A));
  if (K == AccessKind::Store)
    link(From, Index, /*IntoShared=*/false);
  return Index;
}

Origins KernelWalker::originOf(std::optional<unsigned> Index, bool Global) {
  if (!Index)
    return {};
  return {OriginId(*Index) | (Global ? GlobalBit : 0u)};
}

std::vector<int64_t>
KernelWalker::warpBits(const std::vector<char> &Set) const {
  std::vector<int64_t> Out(N, 0);
  for (unsigned Wp = 0; Wp < G.warps(); ++Wp) {
    uint32_t Bits = 0;
    for (unsigned T = G.warpBegin(Wp); T < G.warpEnd(Wp); ++T)
      if (Set[T] && T - G.warpBegin(Wp) < 32)
        Bits |= 1u << (T - G.warpBegin(Wp));
    for (unsigned T = G.warpBegin(Wp); T < G.warpEnd(Wp); ++T)
      Out[T] = Bits;
  }
  return Out;
}

void KernelWalker::recordCollective(const CallExpr *Call) {
  if (!Recording)
    return;
  BarrierEvent B;
  B.E = Call;
  B.Loc = Call->getExprLoc();
  B.Kind = BarrierKind::Warp;
  LaneValue M = quietInt(Call->getArg(0));
  if (auto C = M.asConstant()) {
    B.WarpMask = uint32_t(*C);
  } else if (M.isConcrete()) {
    // One mask in every thread that executes the call.
    std::optional<int64_t> Common;
    bool Same = true;
    for (unsigned I = 0; I < N && Same; ++I)
      if (Active[I]) {
        if (Common && *Common != M.constants()[I])
          Same = false;
        Common = M.constants()[I];
      }
    if (Common && Same)
      B.WarpMask = uint32_t(*Common);
  }
  stamp(B);
  B.Seq = Seq;
  T.Collectives.push_back(std::move(B));
}

void KernelWalker::recordAsmBarrier(const GCCAsmStmt *A) {
  if (!Recording)
    return;
  const std::string Text = A->getAsmString();
  std::optional<cuda::AsmBarrier> C = cuda::asmCountedBarrierOf(Text);
  CountedBarrierEvent E;
  if (C) {
    E.Asm = A;
    E.Mnemonic = C->Mnemonic;
    E.Arrive = C->Arrive;
    E.Aligned = C->Aligned;
    E.Id = asmBarrierOperand(A, C->Id, C->IdOperand);
    E.Count = asmBarrierOperand(A, C->Count, C->CountOperand);
    E.At.Loc = A->getAsmLoc();
    stamp(E.At);
  }
  int Index = -1;
  if (cuda::asmBarrierOf(Text)) {
    BarrierEvent B;
    B.Loc = A->getAsmLoc();
    B.Kind = BarrierKind::Block;
    stamp(B);
    B.Named = C && !C->Arrive && !gathersBlock(B, E.Count);
    B.Seq = Seq++;
    Index = int(T.Barriers.size());
    T.Barriers.push_back(std::move(B));
  }
  if (!C)
    return;
  // A sync shares its barrier event's number; an arrive takes its own, so
  // that the accesses before and after it are told apart.
  E.At.Seq = C->Arrive ? Seq++ : Seq - 1;
  E.Barrier = C->Arrive ? -1 : Index;
  T.CountedBarriers.push_back(std::move(E));
}

bool KernelWalker::gathersBlock(const BarrierEvent &B,
                                const std::optional<LaneValue> &Count) const {
  // Every thread that has not exited reaches it, and the count is theirs.
  if (B.ActiveApprox || !Count)
    return false;
  std::optional<int64_t> C = Count->asConstant();
  if (!C)
    return false;
  int64_t Reaching = 0;
  for (unsigned I = 0; I < N; ++I) {
    bool Gone = !B.Exited.empty() && B.Exited[I];
    if (!B.Active[I] && !Gone)
      return false;
    Reaching += B.Active[I] && !Gone;
  }
  return *C == Reaching;
}

std::optional<LaneValue>
KernelWalker::asmBarrierOperand(const GCCAsmStmt *A,
                                std::optional<unsigned> Imm,
                                std::optional<unsigned> Op) {
  if (Imm)
    return LaneValue::constant(N, *Imm);
  const Expr *E = Op ? cuda::asmInputOperand(A, *Op) : nullptr;
  if (!E)
    return std::nullopt;
  return quietInt(E);
}

void KernelWalker::stamp(BarrierEvent &B) const {
  B.Active = Active;
  B.ActiveApprox = ActiveApprox;
  if (AnyExited)
    B.Exited = Exited;
  B.CallStack = CallStack;
  B.Loops = Loops;
  B.LoopIterations = LoopIterations;
}

void KernelWalker::recordBarrier(const Expr *E, BarrierKind K,
                                 std::optional<uint32_t> Mask,
                                 unsigned TileSize) {
  if (!Recording)
    return;
  BarrierEvent B;
  B.E = E;
  B.Loc = E->getExprLoc();
  B.Kind = K;
  B.WarpMask = Mask;
  B.TileSize = TileSize;
  stamp(B);
  B.Seq = Seq++;
  T.Barriers.push_back(std::move(B));
}

} // namespace walker
} // namespace shmem
