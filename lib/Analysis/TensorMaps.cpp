//===- TensorMaps.cpp - The TMA tensor maps kernels are launched with -----===//
//
// See TensorMaps.h.
//
//===----------------------------------------------------------------------===//

#include "TensorMaps.h"

#include "ExprUtil.h"

#include "Program/CudaModel.h"
#include "Program/KernelPointers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace shmem {
namespace {

/// The bytes of an element of CU_TENSOR_MAP_DATA_TYPE_* \p T (as cuda.h
/// numbers them); 0 for the packed types.
unsigned elementBytes(int64_t T) {
  static const unsigned Bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return T >= 0 && T < int64_t(std::size(Bytes)) ? Bytes[T] : 0;
}

/// \p E without the copies, moves and temporaries around what it copies.
const Expr *stripCopies(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParenCasts();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
      E = C->getArg(0);
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      break;
  }
  return E;
}

/// The variable \p E names, looking through `&`, copies and casts.
const VarDecl *namedVar(const Expr *E) {
  if (!E)
    return nullptr;
  E = stripCopies(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// cuTensorMapEncodeTiled or a pointer to it (cudaGetDriverEntryPoint's
/// `PFN_cuTensorMapEncodeTiled`, however named): twelve arguments, a
/// tensor map pointer first.
bool isEncodeTiled(const CallExpr *Call) {
  if (Call->getNumArgs() != 12)
    return false;
  QualType T = Call->getArg(0)->IgnoreParenImpCasts()->getType();
  return T->isPointerType() && cuda::isTensorMapType(T->getPointeeType());
}

TensorMapFacts factsOf(const CallExpr *Call, const ASTContext &Ctx) {
  TensorMapFacts F;
  F.Encode = Call->getExprLoc();
  TmaBoxLayout &L = F.Layout;
  std::optional<int64_t> Type = foldInteger(Call->getArg(1), Ctx);
  std::optional<int64_t> Rank = foldInteger(Call->getArg(2), Ctx);
  std::optional<int64_t> Swizzle = foldInteger(Call->getArg(9), Ctx);
  if (!Type || !elementBytes(*Type)) {
    F.Unknown = "the element type is not a constant";
    return F;
  }
  if (!Rank || *Rank < 1 || *Rank > 5) {
    F.Unknown = "the rank is not a constant";
    return F;
  }
  if (!Swizzle || *Swizzle < 0 || *Swizzle > 3) {
    F.Unknown = "the swizzle mode is not a constant";
    return F;
  }
  L.ElemBytes = elementBytes(*Type);
  L.Rank = unsigned(*Rank);
  L.Swizzle = TmaSwizzle(*Swizzle);
  // The box: a local array initialised with constants.
  const VarDecl *Box = namedVar(Call->getArg(6));
  const auto *Init =
      Box && Box->getInit()
          ? dyn_cast<InitListExpr>(Box->getInit()->IgnoreImplicit())
          : nullptr;
  if (!Init || Init->getNumInits() < L.Rank) {
    F.Unknown = "the box is not an array of constants";
    return F;
  }
  for (unsigned D = 0; D < L.Rank; ++D) {
    std::optional<int64_t> V = foldInteger(Init->getInit(D), Ctx);
    if (!V) {
      F.Unknown = "the box is not an array of constants";
      return F;
    }
    L.Box[D] = uint32_t(*V);
  }
  if (!L.valid())
    F.Unknown = "the copy engine refuses it (" + L.describe() + ")";
  return F;
}

bool sameFacts(const TensorMapFacts &A, const TensorMapFacts &B) {
  if (A.known() != B.known())
    return false;
  if (!A.known())
    return true;
  const TmaBoxLayout &X = A.Layout, &Y = B.Layout;
  return X.Swizzle == Y.Swizzle && X.ElemBytes == Y.ElemBytes &&
         X.Rank == Y.Rank && std::equal(X.Box, X.Box + 5, Y.Box);
}

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  explicit Scanner(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Fn;
    Fn = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Fn = Saved;
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    const FunctionDecl *Saved = Fn;
    Fn = MD;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Fn = Saved;
    return R;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (isEncodeTiled(Call)) {
      if (const VarDecl *V = namedVar(Call->getArg(0)))
        Encodes[V].push_back(factsOf(Call, Ctx));
      return true;
    }
    Pointers.noteCall(Call);
    // Calls that take a map's address (`makeMap(&map, ...)`): where a map
    // may be filled by a callee. And what a helper's map parameter is given
    // (a launch helper's `Args... args`).
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && !isa<CXXOperatorCallExpr>(Call))
      for (unsigned I = 0;
           I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
        const ParmVarDecl *P = Callee->getParamDecl(I);
        if (const VarDecl *V = namedVar(Call->getArg(I)))
          if (cuda::isTensorMapType(V->getType()) &&
              P->getType()->isPointerType())
            FilledBy[V].push_back(P);
        if (cuda::holdsTensorMap(P->getType()) &&
            !Callee->hasAttr<CUDAGlobalAttr>())
          Given[P].push_back(Call->getArg(I));
      }
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(Call)) {
      if (const FunctionDecl *Kernel = K->getDirectCallee())
        addLaunch(Kernel, Call, 0);
      else if (const VarDecl *Ptr =
                   KernelPointers::pointerVariable(K->getCallee()))
        PointerLaunches.push_back({Ptr, Call});
      return true;
    }
    // A launch whose kernel arguments are the call's own; those passed
    // through a `void **` are not followed.
    if (auto RL = cuda::runtimeLaunchOf(Call)) {
      if (RL->FirstKernelArgument)
        for (const FunctionDecl *Kernel :
             kernelsNamed(Call->getArg(RL->KernelArg)))
          addLaunch(Kernel, Call, RL->FirstKernelArgument);
      return true;
    }
    std::string Name = cuda::calleeName(Call);
    // A map copied into global or constant memory: `cudaMemcpy(dmap,
    // &map, ...)`, `cudaMemcpyToSymbol(cmap, &map, ...)`.
    if ((Name == "cudaMemcpy" || Name == "cudaMemcpyAsync" ||
         Name == "cudaMemcpyToSymbol" || Name == "cudaMemcpyToSymbolAsync") &&
        Call->getNumArgs() >= 2)
      if (const VarDecl *Dst = namedVar(Call->getArg(0)))
        if (cuda::holdsTensorMap(Dst->getType()))
          Given[Dst].push_back(Call->getArg(1));
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    Pointers.noteAssignment(B);
    if (B->getOpcode() == BO_Assign)
      noteAssignment(B->getLHS(), B->getRHS());
    return true;
  }

  /// A map is a class: `map = makeMap(...)` calls its operator=.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      noteAssignment(Op->getArg(0), Op->getArg(1));
    return true;
  }

  void noteAssignment(const Expr *LHS, const Expr *RHS) {
    if (const VarDecl *V = namedVar(LHS))
      if (cuda::holdsTensorMap(V->getType()))
        Given[V].push_back(RHS);
  }

  bool VisitVarDecl(VarDecl *V) {
    Pointers.noteVar(V);
    if (V->hasGlobalStorage() && !V->isLocalVarDecl() &&
        cuda::isTensorMapType(V->getType()) &&
        (V->hasAttr<CUDAConstantAttr>() || V->hasAttr<CUDADeviceAttr>()))
      Symbols.push_back(V);
    return true;
  }

  bool VisitReturnStmt(ReturnStmt *R) {
    if (Fn)
      if (const VarDecl *V = namedVar(R->getRetValue()))
        if (cuda::holdsTensorMap(V->getType()))
          Returned[Fn->getCanonicalDecl()].push_back(V);
    return true;
  }

  /// Resolves every launch; call once the whole unit is scanned.
  llvm::DenseMap<const ValueDecl *, std::optional<TensorMapFacts>> finish() {
    llvm::DenseMap<const ValueDecl *, std::optional<TensorMapFacts>> Out;
    for (const PointerLaunch &L : PointerLaunches)
      for (const FunctionDecl *Kernel : Pointers.targets(L.Ptr))
        addLaunch(Kernel, L.Call, 0);
    for (const Launch &L : Launches) {
      std::optional<TensorMapFacts> F = factsOfArg(L.Arg, 0);
      auto [It, New] = Out.try_emplace(L.Param, F);
      if (New)
        continue;
      // Launches that disagree, or one not followed: no one layout.
      if (!It->second || !F || !sameFacts(*It->second, *F))
        It->second.reset();
    }
    // A map the kernels name as a `__constant__`/`__device__` symbol.
    for (const VarDecl *V : Symbols)
      Out.try_emplace(V, factsOfVar(V, 0));
    return Out;
  }

private:
  ASTContext &Ctx;
  const FunctionDecl *Fn = nullptr;
  llvm::DenseMap<const VarDecl *, std::vector<TensorMapFacts>> Encodes;
  llvm::DenseMap<const VarDecl *, std::vector<const ParmVarDecl *>> FilledBy;
  llvm::DenseMap<const FunctionDecl *, std::vector<const VarDecl *>> Returned;
  /// What is stored into a map variable after its declaration: assigned,
  /// or copied in by cudaMemcpy (a device pointer's map, a symbol's).
  llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> Given;
  std::vector<const VarDecl *> Symbols;
  struct Launch {
    const ValueDecl *Param;
    const Expr *Arg;
  };
  std::vector<Launch> Launches;
  struct PointerLaunch {
    const VarDecl *Ptr;
    const CallExpr *Call;
  };
  std::vector<PointerLaunch> PointerLaunches;
  KernelPointers Pointers;

  void addLaunch(const FunctionDecl *Kernel, const CallExpr *Call,
                 unsigned FirstArg) {
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
      const ParmVarDecl *P = Kernel->getParamDecl(I);
      if (FirstArg + I < Call->getNumArgs() &&
          cuda::holdsTensorMap(P->getType()))
        Launches.push_back({P, Call->getArg(FirstArg + I)});
    }
  }

  /// The one set of facts \p All agree on.
  static std::optional<TensorMapFacts>
  agreed(const std::vector<TensorMapFacts> &All) {
    if (All.empty())
      return std::nullopt;
    for (const TensorMapFacts &F : All)
      if (!sameFacts(F, All.front()))
        return std::nullopt;
    return All.front();
  }

  /// Deep enough for a launch argument assigned from a helper that copies
  /// a map filled by another helper (fast.cu's global `d_tma_map_A =
  /// allocate_and_create_tensor_map(...)`), shallow enough to stop cycles.
  static constexpr unsigned MaxDepth = 12;

  std::optional<TensorMapFacts> factsOfVar(const VarDecl *V, unsigned Depth) {
    if (Depth > MaxDepth)
      return std::nullopt;
    std::vector<TensorMapFacts> All;
    if (auto It = Encodes.find(V); It != Encodes.end())
      All = It->second;
    // Filled by a callee through a pointer.
    if (auto It = FilledBy.find(V); It != FilledBy.end())
      for (const ParmVarDecl *P : It->second)
        if (auto E = Encodes.find(P); E != Encodes.end())
          All.insert(All.end(), E->second.begin(), E->second.end());
    // Initialised by a helper that returns one (or a copy of another),
    // assigned, or copied in: each must be followed, and all agree.
    std::vector<const Expr *> Sources;
    if (givesMap(V->getInit()))
      Sources.push_back(V->getInit());
    if (auto It = Given.find(V); It != Given.end())
      for (const Expr *E : It->second)
        if (givesMap(E))
          Sources.push_back(E);
    for (const Expr *E : Sources) {
      std::optional<TensorMapFacts> F = factsOfArg(E, Depth + 1);
      if (!F)
        return std::nullopt;
      All.push_back(*F);
    }
    return agreed(All);
  }

  /// Whether storing \p E gives a variable a map (or a pointer to one), as
  /// opposed to clearing it: `{}`, a default construction, a null pointer.
  bool givesMap(const Expr *E) const {
    if (!E)
      return false;
    E = stripCopies(E);
    if (isa<InitListExpr, CXXConstructExpr, ImplicitValueInitExpr>(E))
      return false;
    return !E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
  }

  std::optional<TensorMapFacts> factsOfArg(const Expr *E, unsigned Depth) {
    if (!E || Depth > MaxDepth)
      return std::nullopt;
    E = stripCopies(E);
    if (const VarDecl *V = namedVar(E))
      return factsOfVar(V, Depth + 1);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F)
        return std::nullopt;
      auto It = Returned.find(F->getCanonicalDecl());
      if (It == Returned.end())
        return std::nullopt;
      std::vector<TensorMapFacts> All;
      for (const VarDecl *V : It->second) {
        std::optional<TensorMapFacts> One = factsOfVar(V, Depth + 1);
        if (!One)
          return std::nullopt;
        All.push_back(*One);
      }
      return agreed(All);
    }
    return std::nullopt;
  }
};

} // namespace

TensorMaps::TensorMaps(ASTContext &Ctx) {
  Scanner S(Ctx);
  S.TraverseDecl(Ctx.getTranslationUnitDecl());
  ByParam = S.finish();
}

const TensorMapFacts *TensorMaps::factsFor(const ValueDecl *Param) const {
  auto It = ByParam.find(Param);
  if (It == ByParam.end() || !It->second)
    return nullptr;
  return &*It->second;
}

} // namespace shmem
