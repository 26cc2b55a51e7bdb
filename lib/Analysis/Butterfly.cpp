//===- Butterfly.cpp - Shuffle-xor reductions, recognised in the AST ------===//
//
// See Butterfly.h.
//
//===----------------------------------------------------------------------===//

#include "Butterfly.h"
#include "ExprUtil.h"

#include "KernelTrace.h"
#include "Program/CudaModel.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace shmem {

uint32_t closeLaneXor(uint32_t Mask, unsigned Offset) {
  Offset &= 31;
  uint32_t Out = Mask;
  for (unsigned D = 0; D < 32; ++D)
    if ((Mask >> D) & 1)
      Out |= uint32_t(1) << (D ^ Offset);
  return Out;
}

namespace {

/// The local variable \p E reads, if it is just that.
const VarDecl *localRead(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  return V && V->hasLocalStorage() && !V->getType()->isReferenceType()
             ? V
             : nullptr;
}

std::string nameOf(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (FD->getDeclName().isIdentifier())
      return FD->getName().str();
  return {};
}

/// `__shfl_xor_sync(0xffffffff, v, o[, w])`, `__shfl_xor(v, o[, w])` or
/// `tile.shfl_xor(v, o)`: every lane of the warp or tile takes part.
std::optional<ButterflyStep> xorShuffle(const Expr *E, const ASTContext &Ctx,
                                        unsigned Warp) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!Call)
    return std::nullopt;
  std::string Name = nameOf(Call);
  ButterflyStep S;
  unsigned First = 0;
  if (isa<CXXMemberCallExpr>(Call)) {
    // The tile as written (the toolkit declares shfl_xor in a base class).
    const CXXRecordDecl *RD = cuda::groupCalledOn(Call);
    if (Name != "shfl_xor" || !RD || RD->getName() != "thread_block_tile")
      return std::nullopt;
    S.Width = cuda::tileSizeOf(RD);
    if (!S.Width)
      return std::nullopt;
  } else if (std::optional<cuda::Collective> C = cuda::collectiveOf(Name);
             C && C->Op == cuda::CollectiveOp::ShuffleXor) {
    if (C->Sync) {
      if (Call->getNumArgs() < 3)
        return std::nullopt;
      auto Mask = foldInteger(Call->getArg(0), Ctx);
      if (!Mask || uint32_t(*Mask) != 0xffffffffu)
        return std::nullopt;
      First = 1;
    }
  } else {
    return std::nullopt;
  }
  if (Call->getNumArgs() < First + 2)
    return std::nullopt;
  S.Var = localRead(Call->getArg(First));
  S.Offset = Call->getArg(First + 1);
  if (!isa<CXXMemberCallExpr>(Call)) {
    S.Width = Warp;
    if (Call->getNumArgs() > First + 2 &&
        !isa<CXXDefaultArgExpr>(Call->getArg(First + 2))) {
      auto W = foldInteger(Call->getArg(First + 2), Ctx);
      if (!W)
        return std::nullopt;
      S.Width = *W;
    }
  }
  if (!S.Var || S.Width <= 0 || !llvm::isPowerOf2_64(uint64_t(S.Width)))
    return std::nullopt;
  return S;
}

/// The operand pair (\p Plain, \p Shuffled) is `x`, `shfl_xor(x, o)`.
std::optional<ButterflyStep> pairOf(const Expr *Plain, const Expr *Shuffled,
                                    const ASTContext &Ctx, unsigned Warp) {
  const VarDecl *V = localRead(Plain);
  if (!V)
    return std::nullopt;
  auto S = xorShuffle(Shuffled, Ctx, Warp);
  if (!S || S->Var != V)
    return std::nullopt;
  return S;
}

/// The lane offsets \p Offset contributes when it takes the values \p Values
/// in a shuffle exchanging within groups of \p Width lanes.
uint32_t offsetsMask(uint32_t Mask, llvm::ArrayRef<int64_t> Values,
                     int64_t Width) {
  for (int64_t O : Values)
    // An offset that leaves the group returns the lane's own value.
    if (O > 0 && O < Width && O < 32)
      Mask = closeLaneXor(Mask, unsigned(O));
  return Mask;
}

bool hasJump(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt,
          LabelStmt, CoreturnStmt, CXXTryStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false; // A lambda's body is its own function.
  return llvm::any_of(S->children(), hasJump);
}

/// The uses of \p V in \p S other than reading its value: assignments,
/// increments, its address taken, a reference bound to it.
unsigned changes(const Stmt *S, const VarDecl *V) {
  if (!S)
    return 0;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S))
    if (ICE->getCastKind() == CK_LValueToRValue &&
        localRead(ICE->getSubExpr()) == V)
      return 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == V ? 1 : 0;
  unsigned N = 0;
  // A tile's shuffle reads its operand, also where the toolkit binds it to
  // a forwarding reference (`shfl_xor(TyElem &&elem, ...)`).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXRecordDecl *RD = cuda::groupCalledOn(MC);
    if (RD && RD->getName() == "thread_block_tile" && MC->getNumArgs() > 0 &&
        cuda::isGroupValueCollective(MC)) {
      N += changes(MC->getImplicitObjectArgument(), V);
      if (localRead(MC->getArg(0)) != V)
        N += changes(MC->getArg(0), V);
      for (unsigned I = 1; I < MC->getNumArgs(); ++I)
        N += changes(MC->getArg(I), V);
      return N;
    }
  }
  for (const Stmt *C : S->children())
    N += changes(C, V);
  return N;
}

/// The values the loop counter takes, when the loop's init, condition and
/// increment are constant in it.
std::optional<std::pair<const VarDecl *, std::vector<int64_t>>>
counterValues(const ForStmt *FS, const ASTContext &Ctx) {
  const VarDecl *C = nullptr;
  std::optional<int64_t> Init;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    C = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (C && C->getInit())
      Init = foldInteger(C->getInit(), Ctx);
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    C = dyn_cast_or_null<VarDecl>(
        isa<DeclRefExpr>(BO->getLHS()->IgnoreParens())
            ? cast<DeclRefExpr>(BO->getLHS()->IgnoreParens())->getDecl()
            : nullptr);
    Init = foldInteger(BO->getRHS(), Ctx);
  }
  if (!C || !Init || !C->hasLocalStorage() ||
      !C->getType()->isIntegralOrEnumerationType())
    return std::nullopt;

  // The condition: the counter against a constant.
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Cond->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  std::optional<int64_t> Bound;
  if (localRead(Cond->getLHS()) == C) {
    Bound = foldInteger(Cond->getRHS(), Ctx);
  } else if (localRead(Cond->getRHS()) == C) {
    Bound = foldInteger(Cond->getLHS(), Ctx);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Bound)
    return std::nullopt;
  auto Holds = [&](int64_t X) {
    switch (Op) {
    case BO_LT: return X < *Bound;
    case BO_LE: return X <= *Bound;
    case BO_GT: return X > *Bound;
    case BO_GE: return X >= *Bound;
    case BO_EQ: return X == *Bound;
    case BO_NE: return X != *Bound;
    default: return false;
    }
  };

  // The increment: the counter stepped by a constant.
  const Expr *Inc = FS->getInc() ? FS->getInc()->IgnoreParenImpCasts() : nullptr;
  BinaryOperatorKind StepOp = BO_Comma;
  std::optional<int64_t> Step;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (UO->isIncrementDecrementOp() && localRead(UO->getSubExpr()) == C) {
      StepOp = UO->isIncrementOp() ? BO_Add : BO_Sub;
      Step = 1;
    }
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if (localRead(CA->getLHS()) == C) {
      StepOp = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
      Step = foldInteger(CA->getRHS(), Ctx);
    }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
             BO && BO->getOpcode() == BO_Assign && localRead(BO->getLHS()) == C) {
    if (const auto *R =
            dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
        R && localRead(R->getLHS()) == C) {
      StepOp = R->getOpcode();
      Step = foldInteger(R->getRHS(), Ctx);
    }
  }
  if (!Step)
    return std::nullopt;
  auto Next = [&](int64_t X) -> std::optional<int64_t> {
    switch (StepOp) {
    case BO_Add: return X + *Step;
    case BO_Sub: return X - *Step;
    case BO_Mul: return X * *Step;
    case BO_Div: return *Step ? std::optional<int64_t>(X / *Step) : std::nullopt;
    case BO_Shr:
      return *Step >= 0 && *Step < 63 ? std::optional<int64_t>(X >> *Step)
                                      : std::nullopt;
    case BO_Shl:
      return *Step >= 0 && *Step < 32 ? std::optional<int64_t>(X << *Step)
                                      : std::nullopt;
    default: return std::nullopt;
    }
  };
  std::vector<int64_t> Values;
  constexpr unsigned MaxIterations = 64;
  constexpr int64_t Limit = int64_t(1) << 40;
  for (int64_t X = *Init; Holds(X);) {
    if (Values.size() >= MaxIterations || X > Limit || X < -Limit)
      return std::nullopt;
    Values.push_back(X);
    auto N = Next(X);
    if (!N)
      return std::nullopt;
    X = *N;
  }
  return std::make_pair(C, std::move(Values));
}

bool commutative(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add: case BO_Mul: case BO_And: case BO_Or: case BO_Xor:
  case BO_LAnd: case BO_LOr:
    return true;
  default:
    return false;
  }
}

} // namespace

std::optional<ButterflyStep> matchButterflyStep(const Expr *E,
                                                const ASTContext &Ctx,
                                                unsigned WarpSize) {
  E = E->IgnoreParens();
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    if (!commutative(BinaryOperator::getOpForCompoundAssignment(CA->getOpcode())))
      return std::nullopt;
    return pairOf(CA->getLHS(), CA->getRHS(), Ctx, WarpSize);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!commutative(BO->getOpcode()))
      return std::nullopt;
    // `shfl(x) && x` shuffles in every lane; `x && shfl(x)` only where x
    // holds, which is not a butterfly (and undefined with a full mask).
    if (auto S = pairOf(BO->getRHS(), BO->getLHS(), Ctx, WarpSize))
      return S;
    if (BO->isLogicalOp())
      return std::nullopt;
    return pairOf(BO->getLHS(), BO->getRHS(), Ctx, WarpSize);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    static const char *const Commutative[] = {"min",  "max",   "umin",
                                              "umax", "fminf", "fmaxf",
                                              "fmin", "fmax"};
    std::string Name = nameOf(Call);
    if (Call->getNumArgs() != 2 || isa<CXXMemberCallExpr>(Call) ||
        !llvm::is_contained(Commutative, Name))
      return std::nullopt;
    if (auto S = pairOf(Call->getArg(0), Call->getArg(1), Ctx, WarpSize))
      return S;
    return pairOf(Call->getArg(1), Call->getArg(0), Ctx, WarpSize);
  }
  return std::nullopt;
}

std::optional<ButterflyLoop> matchButterflyLoop(const ForStmt *FS,
                                                const ASTContext &Ctx,
                                                unsigned WarpSize) {
  const Stmt *Body = FS->getBody();
  if (!Body || hasJump(Body))
    return std::nullopt;
  auto Counter = counterValues(FS, Ctx);
  if (!Counter || changes(Body, Counter->first))
    return std::nullopt;
  const VarDecl *C = Counter->first;
  const std::vector<int64_t> &Values = Counter->second;

  ButterflyLoop L;
  auto Add = [&](const ButterflyStep &S, const Expr *E) {
    auto It = llvm::find_if(L.Vars, [&](const ButterflyLoop::Var &V) {
      return V.V == S.Var;
    });
    if (It == L.Vars.end()) {
      L.Vars.push_back({S.Var, 1u, 0, E});
      It = L.Vars.end() - 1;
    }
    ++It->Steps;
    if (localRead(S.Offset) == C)
      It->LaneXor = offsetsMask(It->LaneXor, Values, S.Width);
    else if (auto O = foldInteger(S.Offset, Ctx))
      It->LaneXor = offsetsMask(It->LaneXor, *O, S.Width);
  };
  llvm::SmallVector<const Stmt *, 4> Top;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Top.append(CS->body_begin(), CS->body_end());
  else
    Top.push_back(Body);
  for (const Stmt *St : Top) {
    const auto *E = dyn_cast<Expr>(St);
    if (!E)
      continue;
    if (const auto *FE = dyn_cast<FullExpr>(E))
      E = FE->getSubExpr();
    E = E->IgnoreParens();
    if (isa<CompoundAssignOperator>(E)) {
      if (auto S = matchButterflyStep(E, Ctx, WarpSize))
        Add(*S, E);
      continue;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || BO->getOpcode() != BO_Assign)
      continue;
    const VarDecl *X = localRead(BO->getLHS());
    if (!X)
      continue;
    const Expr *Step = BO->getRHS()->IgnoreParenImpCasts();
    if (auto S = matchButterflyStep(Step, Ctx, WarpSize); S && S->Var == X)
      Add(*S, Step);
  }
  // Each step assigns its variable once; anything else that may change it
  // (another assignment, `&x`, a reference) and it is not a butterfly.
  llvm::erase_if(L.Vars, [&](const ButterflyLoop::Var &V) {
    return changes(Body, V.V) != V.Steps || V.LaneXor == 1;
  });
  if (L.Vars.empty())
    return std::nullopt;
  return L;
}

} // namespace shmem
