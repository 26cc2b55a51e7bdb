//===- ShapeFacts.cpp - What a kernel's code says about its block shape ---===//

#include "ShapeFacts.h"
#include "ExprUtil.h"
#include "Program/CudaModel.h"
#include "ThreadGeometry.h"
#include "Walker/ModifiedVars.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace shmem {
namespace {

constexpr char AxisName[] = "xyz";

/// The axis of the index builtin \p Var that \p E reads, if it reads one.
std::optional<unsigned> axisOf(const Expr *E, cuda::IndexVar Var) {
  std::optional<cuda::BuiltinIndex> B =
      cuda::builtinIndexOf(E->IgnoreParenCasts());
  if (B && B->Var == Var)
    return B->Axis;
  return std::nullopt;
}

/// A call that does not come back: the assert handlers (which the CUDA
/// headers declare without `noreturn` in device code), the traps, and any
/// function declared `noreturn`.
bool isFailCall(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreParenCasts()) : nullptr;
  if (!Call)
    return false;
  if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->isNoReturn())
    return true;
  std::string N = cuda::calleeName(Call);
  return N == "__assert_fail" || N == "__assertfail" || N == "__assert_rtn" ||
         N == "_wassert" || N == "__trap" || N == "__builtin_trap";
}

/// The statement \p S ends with: itself, or the last of a block (nested
/// blocks included); null for an empty block.
const Stmt *finalStmt(const Stmt *S) {
  while (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    S = C->body_empty() ? nullptr : C->body_back();
  return S;
}

/// Whether \p S leaves the kernel or stops the thread: `return;`, a call
/// that does not come back, or a block that ends in one.
bool endsThread(const Stmt *S) {
  S = finalStmt(S);
  return S && (isa<ReturnStmt>(S) || isFailCall(S));
}

class FactReader {
public:
  FactReader(const FunctionDecl *Kernel, ASTContext &Ctx)
      : Kernel(Kernel), Ctx(Ctx) {}

  ShapeFacts run() {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
    if (!Body)
      return Facts;
    Modified.TraverseStmt(const_cast<CompoundStmt *>(Body));
    findThreadIndexVars(Body);
    for (const Stmt *S : Body->body())
      statedCondition(S);
    everyThread(Body);
    return Facts;
  }

private:
  const FunctionDecl *Kernel;
  ASTContext &Ctx;
  ShapeFacts Facts;
  walker::ModifiedVars Modified;
  /// Local variables that only ever hold threadIdx along an axis
  /// (`const int tx = threadIdx.x;`).
  llvm::DenseMap<const VarDecl *, unsigned> ThreadIndexVars;
  /// Set once a statement may take some threads elsewhere: what follows is
  /// not known to be reached by every thread.
  bool Stopped = false;

  unsigned line(SourceLocation L) const {
    return Ctx.getSourceManager().getExpansionLineNumber(L);
  }

  void exact(unsigned Axis, int64_t V, const std::string &Why) {
    AxisFacts &A = Facts.Axis[Axis];
    // A value no block can have, or one an earlier statement contradicts,
    // states nothing usable.
    if (V < 1 || V > int64_t(ThreadGeometry::MaxThreadsPerBlock) || A.Exact)
      return;
    A.Exact = unsigned(V);
    A.ExactWhy = Why;
  }

  void atMost(unsigned Axis, int64_t V, const std::string &Why,
              const std::string &Array = "") {
    AxisFacts &A = Facts.Axis[Axis];
    if (V < 1 || (A.AtMost && *A.AtMost <= V))
      return;
    A.AtMost = unsigned(std::min<int64_t>(V, ThreadGeometry::MaxThreadsPerBlock));
    A.AtMostWhy = Why;
    A.AtMostArray = Array;
  }

  /// Record what \p E says about blockDim when it is \p Holds.
  void condition(const Expr *E, bool Holds, const std::string &Why) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_LNot)
        condition(U->getSubExpr(), !Holds, Why);
      return;
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return;
    BinaryOperatorKind Op = B->getOpcode();
    if ((Op == BO_LAnd && Holds) || (Op == BO_LOr && !Holds)) {
      condition(B->getLHS(), Holds, Why);
      condition(B->getRHS(), Holds, Why);
      return;
    }
    if (!B->isComparisonOp())
      return;
    const Expr *L = B->getLHS(), *R = B->getRHS();
    std::optional<unsigned> Axis = axisOf(L, cuda::IndexVar::BlockDim);
    if (!Axis) {
      // `32 == blockDim.x`: read it the other way round.
      Axis = axisOf(R, cuda::IndexVar::BlockDim);
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    std::optional<int64_t> V = Axis ? foldInteger(R, Ctx) : std::nullopt;
    if (!V)
      return;
    if (!Holds)
      Op = BinaryOperator::negateComparisonOp(Op);
    if (Op == BO_EQ)
      exact(*Axis, *V, Why);
    else if (Op == BO_LT)
      atMost(*Axis, *V - 1, Why);
    else if (Op == BO_LE)
      atMost(*Axis, *V, Why);
  }

  /// The conditions a top-level statement states: an assert, an
  /// assumption, or an early out (`if (blockDim.x != 32) return;`).
  void statedCondition(const Stmt *S) {
    auto At = [&](const char *What, SourceLocation L) {
      return std::string("the ") + What + " at line " + std::to_string(line(L));
    };
    if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
      for (const Attr *A : AS->getAttrs())
        if (const auto *Assume = dyn_cast<CXXAssumeAttr>(A))
          condition(Assume->getAssumption(), true,
                    At("assumption", AS->getBeginLoc()));
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->isConsteval() || If->hasInitStorage() || If->hasVarStorage())
        return;
      // `if (c) fail;` and `if (c) ; else fail;`: the thread goes on only
      // where c is false, respectively true.
      if (endsThread(If->getThen()) && !If->getElse())
        condition(If->getCond(), false,
                  At(isa<ReturnStmt>(finalStmt(If->getThen())) ? "early return"
                                                                : "check",
                     If->getBeginLoc()));
      else if (If->getElse() && endsThread(If->getElse()) &&
               isa<NullStmt>(If->getThen()))
        condition(If->getCond(), true, At("assert", If->getBeginLoc()));
      return;
    }
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return;
    E = E->IgnoreParenCasts();
    if (const auto *SE = dyn_cast<StmtExpr>(E)) {
      // C's `assert`: `({ if (c) ; else __assert_fail(...); })`.
      for (const Stmt *Inner : SE->getSubStmt()->body())
        statedCondition(Inner);
      return;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      // C++'s `assert`: `static_cast<bool>(c) ? void(0) : __assert_fail(...)`.
      if (isFailCall(C->getFalseExpr()))
        condition(C->getCond(), true, At("assert", C->getBeginLoc()));
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (Call->getBuiltinCallee() == Builtin::BI__builtin_assume &&
          Call->getNumArgs() == 1)
        condition(Call->getArg(0), true,
                  At("__builtin_assume", Call->getBeginLoc()));
  }

  void findThreadIndexVars(const Stmt *S) {
    for (const Stmt *Child : S->children()) {
      if (!Child)
        continue;
      if (const auto *DS = dyn_cast<DeclStmt>(Child))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            if (V->hasLocalStorage() && !V->getType()->isReferenceType() &&
                V->getInit() && !Modified.Vars.count(V))
              if (auto Axis = axisOf(V->getInit(), cuda::IndexVar::ThreadIdx))
                ThreadIndexVars[V] = *Axis;
      if (!isa<LambdaExpr>(Child))
        findThreadIndexVars(Child);
    }
  }

  /// The axis of threadIdx that \p E is, read directly or through a
  /// variable that only holds it.
  std::optional<unsigned> threadAxis(const Expr *E) const {
    if (auto Axis = axisOf(E, cuda::IndexVar::ThreadIdx))
      return Axis;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        auto It = ThreadIndexVars.find(V);
        if (It != ThreadIndexVars.end())
          return It->second;
      }
    return std::nullopt;
  }

  /// Whether every thread of a block computes the same \p E: it reads only
  /// constants, the kernel's parameters it never modifies, blockDim,
  /// blockIdx, gridDim, and the variables \p Own (a loop's counters).
  bool plainlyUniform(const Expr *E,
                      const llvm::SmallPtrSetImpl<const VarDecl *> &Own) const {
    if (!E)
      return true;
    if (!E->isValueDependent())
      if (foldInteger(E, Ctx))
        return true;
    E = E->IgnoreParenCasts();
    if (auto B = cuda::builtinIndexOf(E))
      return B->Var != cuda::IndexVar::ThreadIdx;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (isa<EnumConstantDecl>(D))
        return true;
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        return false;
      if (Own.count(V))
        return true;
      if (isa<ParmVarDecl>(V))
        return V->getDeclContext() == Kernel && !Modified.Vars.count(V) &&
               !V->getType()->isReferenceType();
      if (V->getType().isConstQualified() && V->getInit() &&
          foldInteger(V->getInit(), Ctx))
        return true;
      // A local the kernel never changes after giving it a value every
      // thread computes alike (`int aBegin = wA * BLOCK_SIZE * blockIdx.y;`).
      return V->hasLocalStorage() && !V->getType()->isReferenceType() &&
             V->getInit() && !Modified.Vars.count(V) &&
             V->getParentFunctionOrMethod() == Kernel &&
             plainlyUniform(V->getInit(), Own);
    }
    if (isa<BinaryOperator>(E) || isa<UnaryOperator>(E) ||
        isa<ConditionalOperator>(E)) {
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf ||
                U->isIncrementDecrementOp()))
        return false;
      if (const auto *B = dyn_cast<BinaryOperator>(E);
          B && B->isAssignmentOp())
        return false;
      for (const Stmt *C : E->children())
        if (!plainlyUniform(cast<Expr>(C), Own))
          return false;
      return true;
    }
    return false;
  }

  /// Whether \p S holds a statement that may leave it early.
  static bool hasJump(const Stmt *S) {
    if (!S)
      return false;
    if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<BreakStmt>(S) ||
        isa<ContinueStmt>(S) || isa<CXXThrowExpr>(S) || isFailCall(S))
      return true;
    for (const Stmt *C : S->children())
      if (C && !isa<LambdaExpr>(C) && hasJump(C))
        return true;
    return false;
  }

  /// Passes over \p S, which some threads may skip or leave early: what
  /// follows it is reached by every thread only if it has no jump.
  void skip(const Stmt *S) { Stopped |= hasJump(S); }

  /// The statements every thread of the block reaches, in order: the
  /// array accesses in them bound the block.
  void everyThread(const Stmt *S) {
    if (!S || Stopped)
      return;
    static const llvm::SmallPtrSet<const VarDecl *, 1> None;
    if (const auto *C = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : C->body())
        everyThread(Child);
      return;
    }
    if (const auto *A = dyn_cast<AttributedStmt>(S))
      return everyThread(A->getSubStmt());
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          expression(V->getInit());
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      // A branch every thread takes alike: whichever it takes, every
      // thread is in it. An early out on blockDim is the stated shape's.
      if (!If->getConditionVariable() && !If->getInit() &&
          plainlyUniform(If->getCond(), None)) {
        expression(If->getCond());
        bool Before = Stopped;
        everyThread(If->getThen());
        everyThread(If->getElse());
        // A jump in a uniform branch takes all threads or none.
        Stopped = Before;
        return;
      }
      return skip(S);
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      // `for (int i = 0; i < 32; ++i)`: every thread runs the same
      // iterations when the counters start, end and step alike.
      llvm::SmallPtrSet<const VarDecl *, 2> Own;
      bool Uniform = !F->getConditionVariable();
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
        for (const Decl *D : DS->decls()) {
          const auto *V = dyn_cast<VarDecl>(D);
          if (!V || !plainlyUniform(V->getInit(), Own))
            Uniform = false;
          else
            Own.insert(V);
        }
      else if (F->getInit())
        Uniform = false;
      // The counters may change only in the increment.
      walker::ModifiedVars InBody;
      InBody.TraverseStmt(const_cast<Stmt *>(F->getBody()));
      for (const VarDecl *V : Own)
        if (InBody.Vars.count(V))
          Uniform = false;
      if (const auto *Inc = dyn_cast_or_null<Expr>(F->getInc())) {
        walker::ModifiedVars InInc;
        InInc.TraverseStmt(const_cast<Expr *>(Inc));
        for (const VarDecl *V : InInc.Vars)
          if (!Own.count(V))
            Uniform = false;
      }
      if (!Uniform || !plainlyUniform(F->getCond(), Own) || hasJump(F->getBody()))
        return skip(S);
      everyThread(F->getBody());
      return;
    }
    if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<LabelStmt>(S) ||
        isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
      Stopped = true;
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S))
      return expression(E);
    // Loops and switches with tests not read here: some threads may skip
    // their bodies.
    skip(S);
  }

  /// The parts of \p E every thread evaluates.
  void expression(const Expr *E) {
    if (!E || Stopped)
      return;
    if (isa<LambdaExpr>(E) || isa<UnaryExprOrTypeTraitExpr>(E))
      return;
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
      return expression(C->getCond());
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isLogicalOp())
      return expression(B->getLHS());
    if (const auto *SE = dyn_cast<StmtExpr>(E))
      return everyThread(SE->getSubStmt());
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      subscript(A);
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        expression(CE);
  }

  void subscript(const ArraySubscriptExpr *A) {
    std::optional<unsigned> Axis = threadAxis(A->getIdx());
    if (!Axis)
      return;
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    const ConstantArrayType *T = Ctx.getAsConstantArrayType(Base->getType());
    if (!T || T->getSize().isZero() || T->getSize().getActiveBits() > 16)
      return;
    // Name the array: the variable under the subscripts and members.
    const Expr *Root = Base;
    while (true) {
      if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Root))
        Root = Sub->getBase()->IgnoreParenImpCasts();
      else if (const auto *M = dyn_cast<MemberExpr>(Root))
        Root = M->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    std::string Name = "an array";
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Root))
      Name = "'" + DRE->getDecl()->getNameAsString() + "'";
    atMost(*Axis, int64_t(T->getSize().getZExtValue()),
           Name + " has " + std::to_string(T->getSize().getZExtValue()) +
               " elements where every thread indexes it by threadIdx." +
               AxisName[*Axis] + " (line " +
               std::to_string(line(A->getExprLoc())) + ")",
           Name);
  }
};

} // namespace

ShapeFacts shapeFactsOf(const FunctionDecl *Kernel, ASTContext &Ctx) {
  return FactReader(Kernel, Ctx).run();
}

} // namespace shmem
