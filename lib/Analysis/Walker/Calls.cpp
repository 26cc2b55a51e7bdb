//===- Walker/Calls.cpp - Calls and lambdas -------------------------------===//
//
// Calls: the callee entered (Program/CallContexts.h says which), its
// arguments bound to its parameters in the caller's context, the callee
// walked inline, and lambdas with their captures.
//
// See KernelWalker.h for the walker as a whole.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

namespace shmem {
namespace walker {

std::vector<Value>
KernelWalker::callArguments(llvm::ArrayRef<const Expr *> Args,
                            const FunctionDecl *Def,
                            std::vector<ObjectRef> &ArgObjects) {
  std::vector<Value> Out;
  Out.reserve(Args.size());
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *P =
        I < Def->getNumParams() ? Def->getParamDecl(I) : nullptr;
    if (P && P->getType()->isReferenceType())
      Out.push_back(Value::pointer(evalAddress(Args[I])));
    else
      Out.push_back(eval(Args[I]));
    ArgObjects.push_back(P && isRecordOrRef(P->getType()) ? knownObject(Args[I])
                                                          : nullptr);
  }
  return Out;
}

bool KernelWalker::mayWriteArgument(const FunctionDecl *F, unsigned I) {
  if (!F || I >= F->getNumParams())
    return true;
  QualType PT = F->getParamDecl(I)->getType();
  return PT->isReferenceType() && !PT->getPointeeType().isConstQualified();
}

Env KernelWalker::enterCallee(const FunctionDecl *Def, std::vector<Value> Args,
                              const std::vector<ObjectRef> &ArgObjects) {
  Env Caller = std::move(Vars);
  Vars.clear();
  for (unsigned I = 0; I < Args.size() && I < Def->getNumParams(); ++I)
    Vars[Def->getParamDecl(I)] = std::move(Args[I]);
  bindParamObjects(Def, ArgObjects);
  return Caller;
}

Value KernelWalker::evalCall(const CallExpr *Call) {
  if (auto It = PlainCalls.find(Call); It != PlainCalls.end()) {
    if (const FunctionDecl *Def = It->second.Def)
      return inlineCall(Call, Def);
    return evalOpaqueCall(Call, It->second);
  }
  std::string Name = calleeName(Call);
  if (auto B = cuda::builtinIndexOf(Call))
    return evalInt(builtinIndex(*B));
  if (auto S = laneRegister(Name))
    return evalInt(*S);
  if (auto V = cooperativeGroupsValue(Call))
    return evalInt(*V);

  // A shared-window address: unknown as an integer, but the pointer it
  // came from is kept for the inline asm that takes it (ldmatrix).
  if (cuda::isSharedAddressConversion(Name) && Call->getNumArgs() == 1) {
    Value P = eval(Call->getArg(0));
    Value Out = evalInt(unknown("shared address of a pointer"));
    if (P.IsPointer && P.Ptr->isShared())
      Out.SharedAddress = std::move(P.Ptr);
    return Out;
  }

  if (auto BC = cuda::barrierOf(Call)) {
    std::optional<BarrierKind> BK =
        BC->WarpLevel ? BarrierKind::Warp : BarrierKind::Block;
    for (const Expr *A : Call->arguments())
      eval(A);
    std::optional<uint32_t> Mask;
    if (BC->MaskArg) {
      if (Call->getNumArgs() <= *BC->MaskArg)
        Mask = 0xffffffffu;
      else if (auto C = foldInteger(Call->getArg(*BC->MaskArg), Ctx))
        Mask = uint32_t(*C);
    } else if (*BK == BarrierKind::Warp) {
      Mask = 0xffffffffu;
    }
    // A tile's sync() waits for the tile; a thread_group's, when it holds
    // one, too.
    std::optional<unsigned> Tile = syncedTile(Call);
    if (Tile) {
      BK = BarrierKind::Warp;
      Mask = 0xffffffffu;
    }
    if (BC->CompletesAsyncCopies) {
      // cg::wait(g): the thread's copies but the last batches complete,
      // then g synchronises.
      cuda::AsyncWait W;
      W.Wait = true;
      W.Pending = BC->AsyncPending;
      asyncWait(W, nullptr, Call->getExprLoc());
    }
    if (BC->CompletesBarrierCopies) {
      barrierCopiesDone(Call->getExprLoc());
      const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
      recordBarrierWait(Call->getExprLoc(),
                        M ? M->getImplicitObjectArgument() : nullptr,
                        /*IsObject=*/true);
    }
    recordBarrier(Call, *BK, Mask, Tile.value_or(0));
    // __syncthreads_count/_and/_or return the same value in every thread.
    return evalInt(opaqueUniformText(Call, 0, Call));
  }

  if (Name == "min" || Name == "max" || Name == "umin" || Name == "umax" ||
      Name == "__nv_min" || Name == "__nv_max") {
    if (Call->getNumArgs() == 2) {
      LaneValue A = eval(Call->getArg(0)).Int, B = eval(Call->getArg(1)).Int;
      LaneValue R = LaneValue::apply(Name.find("min") != std::string::npos
                                         ? LaneValue::Op::Min
                                         : LaneValue::Op::Max,
                                     A, B);
      return evalInt(nameIfUniform(Call, std::move(R), A, B));
    }
  }

  if (auto GC = cuda::groupCopyOf(Call)) {
    recordGroupCopy(Call, *GC);
    return evalInt(unknown("result of an async copy"));
  }
  if (auto AC = cuda::asyncCopyOf(Call)) {
    noteSharedPipeline(Call);
    Value Src;
    for (unsigned I = 1; I < Call->getNumArgs(); ++I) {
      if (I == AC->SrcOperand)
        Src = eval(Call->getArg(I));
      else if (I != AC->DstOperand)
        eval(Call->getArg(I));
    }
    std::optional<int64_t> Bytes;
    if (AC->SizeOperand && *AC->SizeOperand < Call->getNumArgs())
      Bytes = foldInteger(sizeObjectValue(Call->getArg(*AC->SizeOperand)), Ctx);
    recordAsyncCopy(Call, Call->getArg(AC->DstOperand), Src, Bytes, *AC);
    return evalInt(unknown("result of an async copy"));
  }
  if (auto BC = cuda::bulkTensorCopyOf(Call)) {
    auto Arg = [&](std::optional<unsigned> I) -> const Expr * {
      return I && *I < Call->getNumArgs() ? Call->getArg(*I) : nullptr;
    };
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (I != BC->DstOperand && I != BC->MapOperand && I != BC->BarrierOperand)
        eval(Call->getArg(I));
    recordBulkCopy(Call, Call->getExprLoc(), Arg(BC->DstOperand),
                   Arg(BC->MapOperand), Arg(BC->BarrierOperand), *BC);
    return evalInt(unknown("result of a bulk copy"));
  }
  if (cuda::isPartialBarrierWait(Call)) {
    for (const Expr *A : Call->arguments())
      eval(A);
    barrierCopiesDone(Call->getExprLoc());
    recordBarrierWait(Call->getExprLoc(),
                      cast<CXXMemberCallExpr>(Call)->getImplicitObjectArgument(),
                      /*IsObject=*/true);
    return evalInt(unknown("result of a barrier wait"));
  }
  if (auto R = cuda::mbarrierArriveOf(Call)) {
    for (const Expr *A : Call->arguments())
      if (A != R->Barrier)
        eval(A);
    recordBarrierArrive(Call->getExprLoc(), R->Barrier, R->IsObject);
    return evalInt(unknown("an mbarrier arrival token"));
  }
  if (auto W = cuda::mbarrierWaitOf(Call)) {
    recordBarrierWait(Call->getExprLoc(), Call->getArg(*W),
                      /*IsObject=*/false);
    return evalInt(unknown("result of an mbarrier wait"));
  }
  if (auto W = cuda::asyncWaitOf(Call)) {
    const Expr *Pending = W->PendingOperand &&
                                  *W->PendingOperand < Call->getNumArgs()
                              ? Call->getArg(*W->PendingOperand)
                              : nullptr;
    asyncWait(*W, Pending, Call->getExprLoc());
    return evalInt(unknown("result of an async-copy wait"));
  }

  if (StringRef(Name).starts_with("atomic") && Call->getNumArgs() >= 1) {
    Value P = eval(Call->getArg(0));
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      eval(Call->getArg(I));
    if (P.IsPointer && P.Ptr->isShared())
      recordAccess(Call, *P.Ptr, AccessKind::Atomic,
                   Call->getArg(0)->getType()->getPointeeType());
    return evalInt(unknown("result of an atomic"));
  }

  bool Collective = cuda::isMaskedCollective(Call);
  if (Collective)
    recordCollective(Call);
  if (Name == "__activemask" && Call->getNumArgs() == 0)
    return evalInt(ActiveApprox ? unknown("the active lanes")
                                : LaneValue::perThread(warpBits(Active)));
  if (Name == "__ballot_sync" && Call->getNumArgs() == 2) {
    LaneValue Mask = eval(Call->getArg(0)).Int;
    Value P = eval(Call->getArg(1));
    // With the active lanes and the predicate known in every lane, the
    // ballot is known: a mask computed this way (`m = __ballot_sync(~0u,
    // lane < 16)`) can then be checked against the lanes it is used in.
    if (!ActiveApprox && !P.IsPointer && P.Int.isConcrete()) {
      std::vector<char> Set(N, 0);
      for (unsigned I = 0; I < N; ++I)
        Set[I] = Active[I] && P.Int.constants()[I] != 0;
      std::vector<int64_t> Bits = warpBits(Set);
      if (auto M = Mask.asConstant())
        for (int64_t &B : Bits)
          B &= uint32_t(*M);
      return evalInt(LaneValue::perThread(std::move(Bits)));
    }
    Value Out = evalInt(unknown("result of a call to '__ballot_sync'"));
    if (!P.IsPointer)
      Out.From = P.From;
    return Out;
  }

  if (Name == "__shfl_sync" && Call->getNumArgs() >= 3) {
    eval(Call->getArg(0));
    Value V = eval(Call->getArg(1));
    Value Src = eval(Call->getArg(2));
    auto Lane = Src.Int.asConstant();
    // From a constant source lane every lane of a warp gets one value.
    if (Lane && V.Int.isConcrete()) {
      std::vector<int64_t> Out(N);
      for (unsigned I = 0; I < N; ++I) {
        unsigned From =
            (I / G.warpSize()) * G.warpSize() + unsigned(*Lane) % G.warpSize();
        Out[I] = From < N ? V.Int.constants()[From] : 0;
      }
      return evalInt(LaneValue::perThread(std::move(Out)));
    }
    if (V.Int.isUniform())
      return V;
    Value Out = evalInt(unknown("value shuffled between lanes"));
    Out.From = V.From;
    return Out;
  }

  // Cache-hinted loads and stores (__ldg(&in[i]), __stcs(&out[i], v)).
  if ((Name == "__ldg" || Name == "__ldca" || Name == "__ldcg" ||
       Name == "__ldcs" || Name == "__ldlu" || Name == "__ldcv") &&
      Call->getNumArgs() == 1) {
    Value P = eval(Call->getArg(0));
    QualType Ty = Call->getType();
    if (Ty->isPointerType())
      return Value::pointer(PointerValue());
    Value Out = evalInt(unknown("value loaded from memory"));
    if (P.IsPointer && P.Ptr->isGlobal())
      Out.From =
          originOf(recordGlobal(Call, *P.Ptr, AccessKind::Load, Ty), true);
    return Out;
  }
  if ((Name == "__stwb" || Name == "__stcg" || Name == "__stcs" ||
       Name == "__stwt") &&
      Call->getNumArgs() == 2) {
    Value P = eval(Call->getArg(0));
    Value V = eval(Call->getArg(1));
    if (P.IsPointer && P.Ptr->isGlobal())
      recordGlobal(Call, *P.Ptr, AccessKind::Store, Call->getArg(1)->getType(),
                   V.From);
    return evalInt(unknown("void"));
  }

  // Calls are followed by one rule (followedCallee()): `operator()` of a
  // lambda or functor too; not a kernel launched from device code, which
  // runs as another grid with its own shared memory. The arguments of a
  // call not followed are read here, as for an unknown callee.
  //
  // Every test above failed on the call alone (a collective is recorded
  // at each evaluation, a group's value read from the walk's state).
  bool Plain = !Collective && !cuda::groupCalledOn(Call);
  if (const FunctionDecl *Def = followedCallee(Call, Ctx)) {
    if (Plain)
      PlainCalls.try_emplace(Call, PlainCall{Def, LaneValue(), false, false});
    return inlineCall(Call, Def);
  }
  PlainCall Plan;
  Plan.Result =
      unknown("result of a call to '" +
              (Name.empty() ? std::string("function") : Name) + "'");
  // A pure math function of uniform arguments is uniform; we can't know
  // purity, so only name well-known ones.
  Plan.PureMath = Name == "__popc" || Name == "__clz" || Name == "__ffs" ||
                  Name == "abs" || Name == "__brev";
  Plan.Pipeline = cuda::isSharedPipelineCall(Call);
  if (Plain)
    PlainCalls.try_emplace(Call, Plan);
  return evalOpaqueCall(Call, std::move(Plan));
}

Value KernelWalker::evalOpaqueCall(const CallExpr *Call, PlainCall Plan) {
  // Unknown callee: evaluate the arguments for their accesses; a pointer
  // into shared memory handed to it is left alone (no claim).
  if (Plan.Pipeline)
    noteSharedPipeline(Call);
  const FunctionDecl *FD = calleeOf(Call);
  // The shared memory it is handed: its accesses there are not walked.
  llvm::SmallVector<const ValueDecl *, 2> Shared;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    eval(MC->getImplicitObjectArgument());
    if (const ValueDecl *D =
            sharedHandedOver(MC->getImplicitObjectArgument(), nullptr))
      Shared.push_back(D);
    // It may change the object it runs on.
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (!MD || !MD->isConst())
      forgetObject(MC->getImplicitObjectArgument());
  }
  bool AllUniform = true;
  Origins From; // A function of loaded data (fmaxf(x, 0.f)) carries it.
  // cg::reduce(tile, s[i], op) reads s[i] through a forwarding reference:
  // a load, and nothing written.
  bool ReadsOnly = cuda::isGroupValueCollective(Call);
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *A = Call->getArg(I);
    if (ReadsOnly && A->isGLValue() && A->getType()->isScalarType()) {
      Value V = evalLoad(A, A);
      if (V.IsPointer || !V.Int.isUniform())
        AllUniform = false;
      if (!V.IsPointer)
        addOrigins(From, V.From);
      continue;
    }
    // An object it may change: passed by non-const reference, or by
    // address.
    if (mayWriteArgument(FD, I))
      forgetObject(A);
    if (const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
        UO && UO->getOpcode() == UO_AddrOf)
      forgetObject(UO->getSubExpr());
    Value V = eval(A);
    if (const ValueDecl *D = sharedHandedOver(A, &V))
      Shared.push_back(D);
    if (V.IsPointer || !V.Int.isUniform())
      AllUniform = false;
    if (!V.IsPointer)
      addOrigins(From, V.From);
  }
  // A pipeline the block shares is said as such (noteSharedPipeline).
  if (!Plan.Pipeline)
    noteUnwalkedShared(Call, FD, Shared);
  if (AllUniform && Plan.PureMath)
    return evalInt(opaqueUniformText(Call, 0, Call));
  Value Out = evalInt(std::move(Plan.Result));
  Out.From = std::move(From);
  return Out;
}

Value KernelWalker::inlineCall(const CallExpr *Call, const FunctionDecl *Def) {
  // Arguments are evaluated in the caller.
  unsigned Offset = objectArguments(Call);
  // A lambda's body reads its captures, not the closure object: `this`
  // in it is the enclosing method's.
  const CXXRecordDecl *Lambda = lambdaClassOf(Def);
  std::vector<ObjectRef> ArgObjects;
  std::vector<Value> Args = callArguments(
      llvm::ArrayRef(Call->getArgs() + Offset, Call->getNumArgs() - Offset),
      Def, ArgObjects);
  // The object a member function runs on: where it is, and what its
  // kept fields hold.
  bool Method = false;
  ThisFrame This;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    const auto *ME =
        dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParenImpCasts());
    if (ME && ME->isArrow()) {
      Value P = eval(Obj);
      if (P.IsPointer)
        This.Ptr = std::move(*P.Ptr);
    } else {
      This.Ptr = evalAddress(Obj);
    }
    Method = true;
    This.Obj = knownObject(Obj);
  } else if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
             MD && MD->isInstance() && Offset == 1 && !Lambda) {
    Method = true;
    This.Ptr = evalAddress(Call->getArg(0));
    This.Obj = knownObject(Call->getArg(0));
  }
  // The groups group parameters receive, found in the caller.
  std::vector<std::pair<const ParmVarDecl *, std::optional<unsigned>>> Groups;
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
    if (I - Offset < Def->getNumParams())
      if (const ParmVarDecl *P = Def->getParamDecl(I - Offset);
          cuda::groupClass(P->getType()))
        Groups.push_back({P, groupOf(Call->getArg(I))});
  if (!mayEnter(Def)) {
    // Said, not dropped: the accesses and barriers of the callee are not
    // in the trace, and its result is unknown.
    if (Recording) {
      bool Recursive = Inlining.size() < Opts.InlineDepth;
      AnalysisGap G;
      G.Loc = Call->getExprLoc();
      G.What = "call to '" + Def->getNameAsString() + "' not followed";
      G.Why = Recursive ? "it calls itself through the calls walked to "
                          "reach it"
                        : "inlining depth of " +
                              std::to_string(Opts.InlineDepth) + " reached";
      G.CallStack = CallStack;
      T.Gaps.push_back(std::move(G));
    }
    return evalInt(unknown("call too deep to follow"));
  }

  if (Lambda && Offset == 1)
    eval(Call->getArg(0)); // The closure object, for its effects.
  Env Saved = enterCallee(Def, std::move(Args), ArgObjects);
  std::vector<std::pair<const VarDecl *, Env *>> ByRef;
  if (Lambda)
    ByRef = bindCaptures(Lambda, Saved);
  CallerEnvs.push_back(&Saved);
  for (const auto &[P, Group] : Groups)
    holdGroup(P, Group);
  Inlining.push_back(Def);
  CallStack.push_back(Call);
  // The trace numbers the stack the first time the walk enters it.
  auto [Id, NewStack] = StackIdOf.try_emplace({StackIds.back(), Call}, 0);
  if (NewStack)
    Id->second = T.addContext(CallStack);
  StackIds.push_back(Id->second);
  if (Method)
    ThisStack.push_back(std::move(This));
  Frames.push_back(FrameState{std::vector<char>(N, 0), std::nullopt, true});
  std::vector<char> EntryActive = Active;
  bool EntryApprox = ActiveApprox;
  StretchJoin Join(*this);
  walkStmt(Def->getBody());
  FrameState F = std::move(Frames.back());
  Frames.pop_back();
  if (Method)
    ThisStack.pop_back();
  CallStack.pop_back();
  StackIds.pop_back();
  Inlining.pop_back();
  CallerEnvs.pop_back();
  if (Lambda)
    unbindCaptures(Lambda, ByRef);
  // Threads that returned rejoin the caller: every thread that called,
  // as exactly as before the call (a return under a data-dependent `if`
  // inside does not make the caller's mask approximate).
  Active = EntryActive;
  ActiveApprox = EntryApprox;
  Vars = std::move(Saved);
  if (F.RetVal && F.RetConsistent)
    return *F.RetVal;
  if (Def->getReturnType()->isPointerType())
    return Value::pointer(PointerValue());
  return evalInt(unknown("result of '" + Def->getNameAsString() + "'"));
}

Value KernelWalker::evalLambda(const LambdaExpr *LE) {
  Env &Copies = ClosureCopies[LE->getLambdaClass()];
  Copies.clear();
  ClosureBorn[LE->getLambdaClass()] = Epoch;
  auto Init = LE->capture_init_begin();
  for (const LambdaCapture &C : LE->captures()) {
    const Expr *E = Init == LE->capture_init_end() ? nullptr : *Init++;
    if (!E)
      continue;
    const auto *V =
        C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar()) : nullptr;
    if (!V || C.getCaptureKind() != LCK_ByCopy ||
        V->getType()->isReferenceType()) {
      eval(E); // `this`, or a reference: nothing to keep.
      continue;
    }
    Value X = eval(E);
    if (!X.IsPointer)
      X.Int = toType(std::move(X.Int), V->getType());
    Copies[V] = std::move(X);
  }
  return evalInt(unknown("a lambda"));
}

std::vector<std::pair<const VarDecl *, Env *>>
KernelWalker::bindCaptures(const CXXRecordDecl *Lambda, Env &Caller) {
  std::vector<std::pair<const VarDecl *, Env *>> ByRef;
  auto Copies = ClosureCopies.find(Lambda);
  for (const LambdaCapture &C : Lambda->captures()) {
    const auto *V =
        C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar()) : nullptr;
    if (!V)
      continue;
    if (C.getCaptureKind() == LCK_ByCopy) {
      if (Copies != ClosureCopies.end())
        if (auto It = Copies->second.find(V); It != Copies->second.end())
          Vars[V] = It->second;
      continue; // Else unknown: the walk did not see the lambda made.
    }
    Env *Home = Caller.count(V) ? &Caller : nullptr;
    for (auto It = CallerEnvs.rbegin(); !Home && It != CallerEnvs.rend(); ++It)
      if ((*It)->count(V))
        Home = *It;
    if (!Home)
      continue;
    Vars[V] = (*Home)[V];
    ByRef.push_back({V, Home});
  }
  return ByRef;
}

void KernelWalker::unbindCaptures(
    const CXXRecordDecl *Lambda,
    const std::vector<std::pair<const VarDecl *, Env *>> &ByRef) {
  for (const auto &[V, Home] : ByRef)
    if (auto It = Vars.find(V); It != Vars.end()) {
      // The calling frame's variables are CallerEnvs.size()'s (popped).
      auto Frame = std::find(CallerEnvs.begin(), CallerEnvs.end(), Home);
      Effects.CallerEnv =
          std::min(Effects.CallerEnv, unsigned(Frame - CallerEnvs.begin()));
      (*Home)[V] = It->second;
    }
  auto Copies = ClosureCopies.find(Lambda);
  if (Copies != ClosureCopies.end())
    for (auto &[V, Kept] : Copies->second)
      if (auto It = Vars.find(V); It != Vars.end()) {
        Effects.ClosureBorn =
            std::min(Effects.ClosureBorn, ClosureBorn.lookup(Lambda));
        Kept = It->second;
      }
}

} // namespace walker
} // namespace shmem
