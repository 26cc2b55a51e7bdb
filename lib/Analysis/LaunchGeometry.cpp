//===- LaunchGeometry.cpp - Block shapes a kernel runs with ---------------===//

#include "LaunchGeometry.h"
#include "KernelTrace.h"

#include "ExprUtil.h"
#include "ShapeFacts.h"
#include "Program/CudaModel.h"
#include "Program/KernelPointers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace clang;

namespace shmem {

static std::optional<int64_t> constInt(const Expr *E, ASTContext &Ctx) {
  if (auto V = foldInteger(E, Ctx))
    return V;
  if (!E)
    return std::nullopt;
  // A local `const int`/`int` initialised with a constant.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->getInit() && V->getType().isConstQualified())
        return constInt(V->getInit(), Ctx);
  return std::nullopt;
}

/// Whether \p A and \p B read one variable.
static bool sameVariable(const Expr *A, const Expr *B) {
  const auto *DA = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *DB = dyn_cast<DeclRefExpr>(B->IgnoreParenImpCasts());
  return DA && DB && DA->getDecl() == DB->getDecl();
}

/// Whether \p E names \p V.
static bool names(const Expr *E, const VarDecl *V) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == V;
}

namespace {
/// How a function sets the parts of a local dim3 after its declaration:
/// `threads.x = NUMBER_THREADS;` (Rodinia's style).
class Dim3Assignments : public RecursiveASTVisitor<Dim3Assignments> {
public:
  Dim3Assignments(const VarDecl *V, ASTContext &Ctx) : V(V), Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// Per axis: the values assigned, none where one is not a constant.
  std::vector<std::optional<int64_t>> Values[3];
  /// Whether the variable is changed other than part by part.
  bool Whole = false;

  /// The axis \p E names when it is `V.x`, `V.y` or `V.z`.
  std::optional<unsigned> partOf(const Expr *E) const {
    const auto *M = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (!M || !names(M->getBase(), V) ||
        !M->getMemberDecl()->getDeclName().isIdentifier())
      return std::nullopt;
    StringRef N = M->getMemberDecl()->getName();
    if (N == "x" || N == "y" || N == "z")
      return unsigned(N[0] - 'x');
    return std::nullopt;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isAssignmentOp())
      return true;
    const Expr *L = B->getLHS()->IgnoreParenImpCasts();
    if (names(L, V)) {
      Whole = true;
      return true;
    }
    std::optional<unsigned> Axis = partOf(L);
    if (!Axis)
      return true;
    Values[*Axis].push_back(B->getOpcode() == BO_Assign
                                ? foldInteger(B->getRHS(), Ctx)
                                : std::nullopt);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() > 0 && names(C->getArg(0), V))
      Whole = true;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    // Its address taken: anything may set it.
    if (U->getOpcode() == UO_AddrOf && names(U->getSubExpr(), V))
      Whole = true;
    // `threads.x++`: a part changed by a value not read here.
    if (U->isIncrementDecrementOp())
      if (std::optional<unsigned> Axis = partOf(U->getSubExpr()))
        Values[*Axis].push_back(std::nullopt);
    return true;
  }

private:
  const VarDecl *V;
  ASTContext &Ctx;
};
} // namespace

/// \p Init, the shape \p V is declared with, as the assignments to its
/// parts leave it. The analysis does not follow the order of statements:
/// an axis is known when every value it is given is the same constant (a
/// default-constructed `dim3 threads;` then `threads.x = 512;` is 512).
static std::optional<PartialDim3>
withMemberAssignments(const VarDecl *V, std::optional<PartialDim3> Init,
                      ASTContext &Ctx) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return Init;
  Dim3Assignments A(V, Ctx);
  A.TraverseStmt(F->getBody());
  if (A.Whole)
    return std::nullopt;
  if (A.Values[0].empty() && A.Values[1].empty() && A.Values[2].empty())
    return Init;
  // A declaration without arguments gives nothing but defaults, which the
  // assignments replace.
  const auto *CE = dyn_cast<CXXConstructExpr>(skipTemporaries(V->getInit()));
  bool Defaulted = CE && llvm::all_of(CE->arguments(), [](const Expr *Arg) {
                     return isa<CXXDefaultArgExpr>(Arg);
                   });
  PartialDim3 P;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    std::vector<std::optional<int64_t>> Values = A.Values[Axis];
    if (Values.empty() || !Defaulted)
      Values.push_back(Defaulted ? std::optional<int64_t>(1)
                       : Init && Init->Part[Axis]
                           ? std::optional<int64_t>(*Init->Part[Axis])
                           : std::nullopt);
    bool Same = llvm::all_of(Values, [&](const std::optional<int64_t> &X) {
      return X && X == Values.front();
    });
    if (Same && *Values.front() > 0 &&
        *Values.front() <= int64_t(ThreadGeometry::MaxThreadsPerBlock))
      P.Part[Axis] = unsigned(*Values.front());
  }
  if (!P.Part[0] && !P.Part[1] && !P.Part[2])
    return std::nullopt;
  return P;
}

std::optional<PartialDim3> evaluatePartialDim3(const Expr *E,
                                               ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = skipTemporaries(E);
  // One part: a value, or none when it is not a positive constant.
  auto Part = [&](const Expr *A) -> std::optional<unsigned> {
    auto V = constInt(A, Ctx);
    if (!V || *V <= 0 || *V > int64_t(ThreadGeometry::MaxThreadsPerBlock))
      return std::nullopt;
    return unsigned(*V);
  };
  PartialDim3 P;
  P.Part[1] = P.Part[2] = 1u;
  if (E->getType()->isIntegralOrEnumerationType()) {
    P.Part[0] = Part(E);
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    unsigned N = std::min(CE->getNumArgs(), 3u);
    if (N == 1 && !CE->getArg(0)->getType()->isIntegralOrEnumerationType())
      return evaluatePartialDim3(CE->getArg(0), Ctx); // copy construction
    for (unsigned I = 0; I < N; ++I)
      P.Part[I] = Part(CE->getArg(I)); // A default argument is its value.
    P.SameXY = N >= 2 && !P.Part[0] && !P.Part[1] &&
               sameVariable(CE->getArg(0), CE->getArg(1));
  } else if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (unsigned I = 0; I < std::min(IL->getNumInits(), 3u); ++I)
      P.Part[I] = Part(IL->getInit(I));
    P.SameXY = IL->getNumInits() >= 2 && !P.Part[0] && !P.Part[1] &&
               sameVariable(IL->getInit(0), IL->getInit(1));
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getInit())
      return std::nullopt;
    std::optional<PartialDim3> Init = evaluatePartialDim3(V->getInit(), Ctx);
    if (!V->hasLocalStorage())
      return Init;
    return withMemberAssignments(V, Init, Ctx);
  } else {
    return std::nullopt;
  }
  // A shape with no constant part (`<<<g, n>>>`) says nothing; nor does
  // the default 1 of a shape whose x is unknown. A square one does.
  bool Says = P.Part[0] || P.SameXY ||
              (E->getType()->isRecordType() &&
               ((P.Part[1] && *P.Part[1] > 1) || (P.Part[2] && *P.Part[2] > 1)));
  if (!Says)
    return std::nullopt;
  return P;
}

std::optional<Dim3> evaluateDim3(const Expr *E, ASTContext &Ctx) {
  std::optional<PartialDim3> P = evaluatePartialDim3(E, Ctx);
  if (!P || !P->complete())
    return std::nullopt;
  return Dim3{*P->Part[0], *P->Part[1], *P->Part[2]};
}

/// Where the grid comes in a launch's configuration call: first in the
/// host's (`__cudaPushCallConfiguration(grid, block, bytes, stream)`), third
/// in the device's (`cudaLaunchDevice(func, params, grid, block, bytes,
/// stream)`), which clang builds for a launch it also compiles for the
/// device: one in a lambda, implicitly __host__ __device__.
static unsigned configOffset(const CallExpr *Config) {
  return cuda::calleeName(Config) == "cudaLaunchDevice" ? 2 : 0;
}

namespace {
class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  /// Declarations in system headers are not entered: no kernel there is
  /// analysed (see kernels()), and a system header cannot name a user's
  /// kernel to launch it. With the CUDA toolkit's headers this skips thousands of
  /// inline functions, most of the translation unit.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D)) {
      const SourceManager &SM = Ctx.getSourceManager();
      SourceLocation L = D->getLocation();
      if (L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L)))
        return true;
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  std::vector<const FunctionDecl *> Kernels;
  /// By the kernel's canonical declaration.
  llvm::DenseMap<const FunctionDecl *, KernelLaunches> Launched;

  std::vector<const FunctionTemplateDecl *> Uninstantiated;

  /// A kernel template with no instantiation has nothing to analyse: no
  /// types, no constants. It is kept to be said, not passed over in silence
  /// (a header-only .cuh analysed on its own). Only the main file's: a
  /// header's templates are instantiated, or not, by the files that launch
  /// them, and each of those would otherwise say it again.
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *FT) {
    const FunctionDecl *FD = FT->getTemplatedDecl();
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        FD->isInvalidDecl() || FT->getDeclContext()->isDependentContext())
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    if (!SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      return true;
    for (const FunctionDecl *Spec : FT->specializations())
      if (Spec->doesThisDeclarationHaveABody())
        return true;
    Uninstantiated.push_back(FT);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext() && !FD->isInvalidDecl())
      Kernels.push_back(FD);
    return true;
  }

  /// The launch's dynamic shared memory: its third argument when it is a
  /// constant (0 when absent), none when not known here.
  std::optional<int64_t> dynamicBytes(const CallExpr *Config) const {
    if (!Config)
      return std::nullopt;
    unsigned At = configOffset(Config) + 2;
    if (Config->getNumArgs() <= At)
      return 0;
    return foldInteger(Config->getArg(At), Ctx);
  }

  void addLaunch(const FunctionDecl *K, const Expr *BlockArg,
                 SourceLocation Loc,
                 std::optional<int64_t> DynamicBytes = std::nullopt) {
    if (!K)
      return;
    std::optional<PartialDim3> P = evaluatePartialDim3(BlockArg, Ctx);
    if (!P)
      return;
    unsigned Known = 1;
    for (const std::optional<unsigned> &Part : P->Part)
      Known *= Part ? *Part : 1;
    if (Known > ThreadGeometry::MaxThreadsPerBlock)
      return;
    // The file too when it is not the kernel's (a kernel in a header
    // launched from the .cu), or the line would be looked for in the wrong
    // file; and when the kernel is only declared here: the note is read
    // at its definition in another file of the project.
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation L = SM.getExpansionLoc(Loc);
    std::string Source =
        "launch at line " + std::to_string(SM.getExpansionLineNumber(L));
    SourceLocation KL = SM.getExpansionLoc(K->getLocation());
    if (L.isValid() && KL.isValid() &&
        (SM.getFileID(L) != SM.getFileID(KL) || !K->isDefined()))
      Source += " of " + SM.getFilename(L).str();
    KernelLaunches &Into = Launched[K->getCanonicalDecl()];
    if (!P->complete()) {
      addLaunchShape(Into.Partials, PartialLaunch{*P, Source, DynamicBytes});
      return;
    }
    BlockShape S;
    S.Block = Dim3{*P->Part[0], *P->Part[1], *P->Part[2]};
    S.DynamicSharedBytes = DynamicBytes;
    S.Source = Source;
    addLaunchShape(Into.Shapes, S);
  }

  /// The integer constants launch \p E passes \p K, merged into what the
  /// other launches passed.
  void noteArguments(const FunctionDecl *K, const CallExpr *E,
                     unsigned First = 0) {
    std::vector<std::optional<int64_t>> Now;
    for (unsigned I = 0; I < K->getNumParams(); ++I) {
      std::optional<int64_t> V;
      if (First + I < E->getNumArgs() &&
          K->getParamDecl(I)->getType()->isIntegralOrEnumerationType())
        V = constInt(E->getArg(First + I), Ctx);
      Now.push_back(V);
    }
    Launched[K->getCanonicalDecl()].addArguments(Now);
  }

  /// \p K is launched where its arguments are not seen.
  void argumentsUnseen(const FunctionDecl *K) {
    if (K)
      Launched[K->getCanonicalDecl()].ArgumentsUnseen = true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (const FunctionDecl *K = E->getDirectCallee())
      noteArguments(K, E);
    const CallExpr *Config = E->getConfig();
    if (!Config || Config->getNumArgs() < configOffset(Config) + 2)
      return true;
    const Expr *Block = Config->getArg(configOffset(Config) + 1);
    if (const FunctionDecl *K = E->getDirectCallee())
      addLaunch(K, Block, E->getBeginLoc(), dynamicBytes(Config));
    else if (const VarDecl *Ptr =
                 KernelPointers::pointerVariable(E->getCallee()))
      PointerLaunches.push_back({Ptr, Block, E->getBeginLoc()});
    return true;
  }

  // Launches through a function pointer: the shape goes to every kernel the
  // translation unit stores into the pointer.
  struct PointerLaunch {
    const VarDecl *Ptr;
    const Expr *BlockArg;
    SourceLocation Loc;
  };
  std::vector<PointerLaunch> PointerLaunches;
  KernelPointers Pointers;

  bool VisitBinaryOperator(BinaryOperator *B) {
    Pointers.noteAssignment(B);
    if (B->isAssignmentOp())
      noteConfigWrite(B->getLHS(), B->getRHS(), B->getOperatorLoc(),
                      B->getOpcode() == BO_Assign);
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
      noteConfigWrite(Op->getArg(0), Op->getArg(1), Op->getOperatorLoc(),
                      Op->getOperator() == OO_Equal);
    return true;
  }

  // Launches through a configuration object, `cudaLaunchKernelEx(&cfg,
  // kernel, args...)`: the block is what `cfg.blockDim` holds at the call,
  // the last assignment to it before the call or the object's initialiser.
  struct ConfigLaunch {
    const VarDecl *Config;
    const CallExpr *Call;
    cuda::RuntimeLaunch Form;
  };
  std::vector<ConfigLaunch> ConfigLaunches;
  /// A write to a field of a local configuration object: the field (null
  /// for the whole object or a part of a field), its value when the write
  /// assigns the whole field, and where.
  struct ConfigWrite {
    const FieldDecl *Field;
    const Expr *Value;
    SourceLocation Loc;
  };
  llvm::DenseMap<const VarDecl *, std::vector<ConfigWrite>> ConfigWrites;

  static bool isLaunchConfig(QualType T) {
    const auto *RD = T->getAsRecordDecl();
    return RD && RD->getIdentifier() &&
           (RD->getName() == "cudaLaunchConfig_st" ||
            RD->getName() == "cudaLaunchConfig_t");
  }

  /// \p LHS = \p RHS (\p Plain: `=`, not a compound assignment): noted
  /// when LHS is a local configuration object or one of its fields.
  void noteConfigWrite(const Expr *LHS, const Expr *RHS, SourceLocation Loc,
                       bool Plain) {
    const Expr *E = LHS->IgnoreParenImpCasts();
    const FieldDecl *Field = nullptr;
    bool Part = false; // `cfg.blockDim.x = 64`
    for (const auto *M = dyn_cast<MemberExpr>(E); M;
         M = dyn_cast<MemberExpr>(E)) {
      if (Field)
        Part = true;
      Field = dyn_cast<FieldDecl>(M->getMemberDecl());
      E = M->getBase()->IgnoreParenImpCasts();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || !isLaunchConfig(V->getType()))
      return;
    ConfigWrites[V].push_back(
        {Part ? nullptr : Field, Part || !Plain ? nullptr : RHS, Loc});
  }

  /// What \p Field of the local configuration \p V holds at \p Call, as
  /// written in the source; null when not known: a write to a part of the
  /// field or to the whole object, or the object passed elsewhere, makes
  /// it unknown. Writes inside a loop after the call are not seen.
  const Expr *configField(const VarDecl *V, StringRef Name,
                          const CallExpr *Call) const {
    const auto *RD = V->getType()->getAsRecordDecl();
    const FieldDecl *Field = nullptr;
    for (const FieldDecl *F : RD->fields())
      if (F->getName() == Name)
        Field = F;
    if (!Field)
      return nullptr;
    const SourceManager &SM = Ctx.getSourceManager();
    const Expr *Last = nullptr;
    SourceLocation LastLoc;
    auto It = ConfigWrites.find(V);
    if (It != ConfigWrites.end())
      for (const ConfigWrite &W : It->second) {
        if (W.Field && W.Field != Field)
          continue;
        if (!W.Field || !W.Value)
          return nullptr; // The whole object, or a part of the field.
        if (!SM.isBeforeInTranslationUnit(W.Loc, Call->getBeginLoc()))
          continue;
        if (!Last || SM.isBeforeInTranslationUnit(LastLoc, W.Loc))
          Last = W.Value, LastLoc = W.Loc;
      }
    if (Last)
      return Last;
    const Expr *Init = V->getInit() ? fieldValue(V->getInit(), Field) : nullptr;
    return Init && !isa<ImplicitValueInitExpr>(Init) ? Init : nullptr;
  }

  /// A local configuration object whose address is taken (other than for
  /// a launch) or that is bound to a non-const reference may be written
  /// where this scan does not look: noted as a write of the whole object.
  llvm::DenseSet<const UnaryOperator *> LaunchAddresses;
  void noteEscape(const Expr *E, SourceLocation Loc) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (V && V->hasLocalStorage() && isLaunchConfig(V->getType()))
      ConfigWrites[V].push_back({nullptr, nullptr, Loc});
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf && !LaunchAddresses.count(U))
      noteEscape(U->getSubExpr(), U->getOperatorLoc());
    return true;
  }
  void noteConfigEscapes(const CallExpr *E, const FunctionDecl *FD) {
    for (unsigned I = 0; I < E->getNumArgs() && I < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        noteEscape(E->getArg(I), E->getBeginLoc());
    }
  }

  void resolveConfigLaunches() {
    for (const ConfigLaunch &L : ConfigLaunches) {
      auto Kernels = kernelsNamed(L.Call->getArg(L.Form.KernelArg));
      const Expr *Block = configField(L.Config, "blockDim", L.Call);
      std::optional<int64_t> Bytes;
      if (const Expr *B = configField(L.Config, "dynamicSmemBytes", L.Call))
        Bytes = constInt(B, Ctx);
      for (const FunctionDecl *K : Kernels) {
        if (L.Form.FirstKernelArgument)
          noteArguments(K, L.Call, L.Form.FirstKernelArgument);
        else
          argumentsUnseen(K);
        if (Block)
          addLaunch(K, Block, L.Call->getBeginLoc(), Bytes);
      }
    }
  }

  bool VisitVarDecl(VarDecl *V) {
    Pointers.noteVar(V);
    return true;
  }

  /// Once the whole translation unit is seen: the launches through
  /// pointers, for each kernel assigned to them.
  void resolvePointerLaunches() {
    for (const PointerLaunch &L : PointerLaunches) {
      if (resolveHelperLaunch(L))
        continue;
      for (const FunctionDecl *K : Pointers.targets(L.Ptr)) {
        addLaunch(K, L.BlockArg, L.Loc);
        argumentsUnseen(K);
      }
    }
  }

  // A launch helper (`launch(kernel, blocks, threads, args...)`, whose
  // body does `kernel<<<blocks, threads>>>(args...)`): each call of the
  // helper is a launch of the kernel it passes, with the block it passes,
  // at the call. A block the helper computes gives no shape.
  static const ParmVarDecl *parameterOf(const Expr *E,
                                        const FunctionDecl *F) {
    E = E->IgnoreParenImpCasts();
    // `dim3(threads)`: the parameter, the other parts defaulted.
    if (const auto *C = dyn_cast<CXXConstructExpr>(E);
        C && C->getNumArgs() >= 1 &&
        std::all_of(C->arg_begin() + 1, C->arg_end(), [](const Expr *A) {
          return isa<CXXDefaultArgExpr>(A);
        }))
      E = C->getArg(0)->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    return P && P->getDeclContext() == F ? P : nullptr;
  }

  /// `params.block_dims` in a helper whose parameter `params` holds the
  /// launch's configuration (ggml's `ggml_cuda_kernel_launch(kernel,
  /// launch_params, args...)`): the parameter and the field.
  static std::pair<const ParmVarDecl *, const FieldDecl *>
  parameterFieldOf(const Expr *E, const FunctionDecl *F) {
    E = skipTemporaries(E);
    // The launch's copy of the field.
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
        Copy && Copy->getNumArgs() == 1)
      E = skipTemporaries(Copy->getArg(0));
    const auto *M = dyn_cast<MemberExpr>(E);
    const auto *Field = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
    const ParmVarDecl *P = Field ? parameterOf(M->getBase(), F) : nullptr;
    if (!P)
      return {nullptr, nullptr};
    return {P, Field};
  }

  /// What the caller's \p E (an object of the helper's configuration type)
  /// holds in \p Field: the argument its constructor copies into the field
  /// (`ggml_cuda_kernel_launch_params(grid, block, 0, stream)`, directly or
  /// through a local variable initialised so), or the aggregate's element.
  /// None when it is built or changed otherwise.
  static const Expr *fieldValue(const Expr *E, const FieldDecl *Field) {
    E = skipTemporaries(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
          V && V->hasLocalStorage() && V->getInit() &&
          V->getType().isConstQualified())
        E = skipTemporaries(V->getInit());
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return Field->getFieldIndex() < IL->getNumInits()
                 ? IL->getInit(Field->getFieldIndex())
                 : nullptr;
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE)
      return nullptr;
    // A copy of a temporary (before C++17's guaranteed elision).
    if (CE->getConstructor()->isCopyOrMoveConstructor() &&
        CE->getNumArgs() == 1)
      return fieldValue(CE->getArg(0), Field);
    for (const CXXCtorInitializer *I : CE->getConstructor()->inits()) {
      if (I->getMember() != Field)
        continue;
      const Expr *Init = skipTemporaries(I->getInit());
      // The field's copy constructor over the constructor's parameter.
      if (const auto *Copy = dyn_cast<CXXConstructExpr>(Init);
          Copy && Copy->getNumArgs() == 1)
        Init = skipTemporaries(Copy->getArg(0));
      const auto *DRE = dyn_cast<DeclRefExpr>(Init->IgnoreParenImpCasts());
      const auto *P =
          DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      if (!P || P->getDeclContext() != CE->getConstructor() ||
          P->getFunctionScopeIndex() >= CE->getNumArgs())
        return nullptr;
      return CE->getArg(P->getFunctionScopeIndex());
    }
    return nullptr;
  }

  bool resolveHelperLaunch(const PointerLaunch &L) {
    const auto *KernelParm = dyn_cast<ParmVarDecl>(L.Ptr);
    const auto *Helper =
        KernelParm ? dyn_cast<FunctionDecl>(KernelParm->getDeclContext())
                   : nullptr;
    if (!Helper || Helper->hasAttr<CUDAGlobalAttr>())
      return false;
    const ParmVarDecl *BlockParm = parameterOf(L.BlockArg, Helper);
    auto [ConfigParm, BlockField] = parameterFieldOf(L.BlockArg, Helper);
    unsigned KI = KernelParm->getFunctionScopeIndex();
    for (const CallExpr *C : Pointers.callsOf(Helper))
      if (KI < C->getNumArgs())
        for (const FunctionDecl *K : Pointers.kernelsOf(C->getArg(KI)))
          argumentsUnseen(K);
    if (!BlockParm && !ConfigParm)
      return true;
    unsigned BI = (BlockParm ? BlockParm : ConfigParm)->getFunctionScopeIndex();
    for (const CallExpr *C : Pointers.callsOf(Helper)) {
      if (KI >= C->getNumArgs() || BI >= C->getNumArgs())
        continue;
      const Expr *Block = BlockParm ? C->getArg(BI)
                                    : fieldValue(C->getArg(BI), BlockField);
      if (!Block)
        continue;
      for (const FunctionDecl *K : Pointers.kernelsOf(C->getArg(KI)))
        addLaunch(K, Block, C->getBeginLoc());
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    Pointers.noteCall(E);
    const FunctionDecl *FD = E->getDirectCallee();
    if (!FD || !FD->getDeclName().isIdentifier())
      return true;
    noteConfigEscapes(E, FD);
    std::optional<cuda::RuntimeLaunch> RL = cuda::runtimeLaunchOf(E);
    if (!RL)
      return true;
    if (RL->K == cuda::RuntimeLaunch::Config) {
      const auto *Addr =
          dyn_cast<UnaryOperator>(E->getArg(0)->IgnoreParenImpCasts());
      const auto *DRE =
          Addr && Addr->getOpcode() == UO_AddrOf
              ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParens())
              : nullptr;
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (V && V->hasLocalStorage() && isLaunchConfig(V->getType())) {
        ConfigLaunches.push_back({V, E, *RL});
        LaunchAddresses.insert(Addr);
      } else {
        for (const FunctionDecl *K : kernelsNamed(E->getArg(RL->KernelArg)))
          argumentsUnseen(K);
      }
      return true;
    }
    for (const FunctionDecl *K : kernelsNamed(E->getArg(RL->KernelArg))) {
      addLaunch(K, E->getArg(RL->BlockArg), E->getBeginLoc());
      argumentsUnseen(K);
    }
    return true;
  }

private:
  ASTContext &Ctx;
};
} // namespace

LaunchGeometry::LaunchGeometry(ASTContext &Ctx, const AnalysisOptions &Opts,
                               KernelReach *Reach)
    : Ctx(Ctx), Opts(Opts), Reach(Reach) {
  Collector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.resolvePointerLaunches();
  C.resolveConfigLaunches();
  Kernels = std::move(C.Kernels);
  Launched = std::move(C.Launched);
  Uninstantiated = std::move(C.Uninstantiated);
}

std::vector<ArgumentConstant>
LaunchGeometry::constantArguments(const FunctionDecl *Kernel) const {
  auto It = Launched.find(Kernel->getCanonicalDecl());
  if (It == Launched.end() || !It->second.ArgumentsSeen ||
      It->second.ArgumentsUnseen)
    return {};
  const std::vector<std::optional<int64_t>> &Args = It->second.Arguments;
  std::vector<ArgumentConstant> Out;
  for (unsigned I = 0; I < Args.size() && I < Kernel->getNumParams(); ++I)
    if (Args[I])
      Out.push_back({Kernel->getParamDecl(I), *Args[I]});
  return Out;
}

std::string LaunchGeometry::nameOf(const FunctionDecl *Kernel) const {
  if (!Names)
    Names = std::make_unique<ASTNameGenerator>(Ctx);
  return Names->getName(Kernel);
}

/// Where \p L is, as a report names it: "file:line:col" of its file
/// position (the driver's DriverSink reads a location the same way).
static std::string placeOf(SourceLocation L, const SourceManager &SM) {
  if (L.isInvalid())
    return "";
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(L));
  if (P.isInvalid())
    return "";
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

void LaunchGeometry::describe(TranslationUnitLaunches &Out) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &[Canon, L] : Launched)
    if (Canon->isExternallyVisible())
      Out.Launched[nameOf(Canon)].merge(L);
  for (const FunctionDecl *K : Kernels) {
    if (const FunctionTemplateDecl *FT = K->getPrimaryTemplate())
      Out.InstantiatedTemplates.insert(placeOf(FT->getLocation(), SM));
    if (!K->isExternallyVisible())
      continue;
    std::string Name = nameOf(K);
    // The pattern's place for an instantiation: one header template is
    // defined at one place in every file that instantiates it.
    Out.Defined[Name] = placeOf(K->getLocation(), SM);
    if (!Reach || Reach->reachesSharedOrBarrier(K))
      Out.Analysed.insert(Name);
  }
}

void LaunchGeometry::takeLaunchesFrom(const ProjectLaunches &Elsewhere) {
  for (const FunctionDecl *K : Kernels) {
    if (!K->isExternallyVisible())
      continue;
    auto It = Elsewhere.find(nameOf(K));
    if (It != Elsewhere.end())
      Launched[K->getCanonicalDecl()].merge(It->second);
  }
}

namespace {
/// A shape made from the parts known for certain (a launch's constants, the
/// kernel's stated extents) and guesses for the rest that respect the
/// kernel's bounds.
struct Completion {
  Dim3 Block;
  /// What was taken from the code and what was guessed, for the note:
  /// "blockDim.y == 8 by the assert at line 4", "y = 8 assumed".
  std::string Why;
  /// Whether an axis the kernel reads was guessed.
  bool Guessed = false;
};

/// Completes \p Known with \p Facts. \p Threads is the thread count the
/// guesses aim at, \p XGuess the x a guess takes before the bounds, and
/// \p ReadsYZ whether the kernel reads threadIdx.y or .z (if not, a
/// guessed y or z is 1: rows that cannot tell themselves apart would only
/// repeat one another); a bounded x is whole warps of \p Warp lanes.
Completion complete(const PartialDim3 &Known, const ShapeFacts &Facts,
                    unsigned Threads, std::optional<unsigned> XGuess,
                    bool ReadsYZ, unsigned Warp) {
  static const char Axis[] = "xyz";
  Completion C;
  unsigned Part[3] = {1, 1, 1};
  bool Unknown[3] = {false, false, false};
  unsigned Fixed = 1;
  std::vector<std::string> Why;
  for (unsigned A = 0; A < 3; ++A) {
    if (Known.Part[A]) {
      Part[A] = *Known.Part[A];
    } else if (Facts.Axis[A].Exact) {
      Part[A] = *Facts.Axis[A].Exact;
      std::string Fact =
          std::string("blockDim.") + Axis[A] + " == " + std::to_string(Part[A]);
      // One statement that states two extents is named once.
      if (A > 0 && Facts.Axis[A - 1].Exact && !Known.Part[A - 1] &&
          Facts.Axis[A - 1].ExactWhy == Facts.Axis[A].ExactWhy) {
        std::string &Last = Why.back();
        Last.insert(Last.find(" by "), " and " + Fact);
      } else {
        Why.push_back(Fact + " by " + Facts.Axis[A].ExactWhy);
      }
    } else {
      Unknown[A] = true;
      continue;
    }
    Fixed *= Part[A];
  }
  unsigned Left = std::max(1u, Threads / std::max(1u, Fixed));
  if (Known.SameXY && Unknown[0] && Unknown[1]) {
    // dim3(s, s): one tile per block where the kernel's arrays bound both
    // sides (matrixMul's As[BLOCK_SIZE][BLOCK_SIZE] read as As[ty][tx]),
    // else a square of the threads left.
    const AxisFacts &FX = Facts.Axis[0], &FY = Facts.Axis[1];
    unsigned S = 1;
    std::string Bound;
    if (FX.AtMost && FY.AtMost &&
        std::min(*FX.AtMost, *FY.AtMost) *
                std::min(*FX.AtMost, *FY.AtMost) <=
            ThreadGeometry::MaxThreadsPerBlock) {
      S = std::min(*FX.AtMost, *FY.AtMost);
      const AxisFacts &F = *FX.AtMost <= *FY.AtMost ? FX : FY;
      Bound = F.AtMostArray.empty()
                  ? ", the most " + F.AtMostWhy + " allows"
                  : ", the most " + F.AtMostArray + " allows: " + F.AtMostWhy;
    } else {
      while ((S + 1) * (S + 1) <= Left)
        ++S;
      for (const AxisFacts *F : {&FX, &FY})
        if (F->AtMost)
          S = std::min(S, *F->AtMost);
    }
    Part[0] = Part[1] = S;
    Unknown[0] = Unknown[1] = false;
    Left = std::max(1u, Left / (S * S));
    C.Guessed = true;
    Why.push_back("x = y = " + std::to_string(S) +
                  " assumed (the launch gives both as one value)" + Bound);
  }
  for (unsigned A = 0; A < 3; ++A) {
    if (!Unknown[A])
      continue;
    // z is guessed as 1 as the default shape always has: a block in
    // layers is rare, and a guess of y is the one the note spells out.
    if (A == 2 || (A == 1 && !ReadsYZ)) {
      Part[A] = 1;
      continue;
    }
    unsigned V = A == 0 && XGuess ? std::min(*XGuess, Left) : Left;
    const AxisFacts &F = Facts.Axis[A];
    std::string Bound;
    if (F.AtMost && *F.AtMost < V) {
      // Whole warps along x: a tile of 129 indexed by threadIdx.x holds a
      // neighbour or sentinel past the block's 128.
      V = *F.AtMost;
      if (A == 0 && Warp && V > Warp)
        V -= V % Warp;
      Bound = std::string(": blockDim.") + Axis[A] + " is at most " +
              std::to_string(*F.AtMost) + " since " + F.AtMostWhy;
      if (V != *F.AtMost)
        Bound += ", and a block is taken to be whole warps";
    }
    Part[A] = std::max(1u, V);
    Left = std::max(1u, Left / Part[A]);
    C.Guessed = true;
    Why.push_back(std::string(1, Axis[A]) + " = " + std::to_string(Part[A]) +
                  " assumed" + Bound);
  }
  C.Block = Dim3{Part[0], Part[1], Part[2]};
  for (size_t I = 0; I < Why.size(); ++I)
    C.Why += (I ? "; " : "") + Why[I];
  return C;
}
} // namespace

std::vector<BlockShape>
LaunchGeometry::shapesFor(const FunctionDecl *Kernel) const {
  if (auto A = annotation(Kernel))
    return {BlockShape{*A, "shmem-lint annotation", false, std::nullopt}};
  const FunctionDecl *Canon = Kernel->getCanonicalDecl();
  bool ReadsYZ = Reach && Reach->readsThreadIdxYZ(Kernel);
  unsigned W = Opts.WarpSize;
  // Read once, and only for a kernel whose shape is not all stated.
  std::optional<ShapeFacts> Facts;
  auto facts = [&]() -> const ShapeFacts & {
    if (!Facts)
      Facts = shapeFactsOf(Kernel, Ctx);
    return *Facts;
  };
  auto LB = [&]() -> std::optional<unsigned> {
    if (const auto *A = Kernel->getAttr<CUDALaunchBoundsAttr>())
      if (auto V = constInt(A->getMaxThreads(), Ctx))
        if (*V > 0 && *V <= int64_t(ThreadGeometry::MaxThreadsPerBlock))
          return unsigned(*V);
    return std::nullopt;
  }();

  std::vector<BlockShape> V;
  const KernelLaunches *L = nullptr;
  if (auto It = Launched.find(Canon); It != Launched.end())
    L = &It->second, V = L->Shapes;
  if (L)
    for (const PartialLaunch &P : L->Partials) {
      // The unknown parts are guessed for the kernel's bound, else the
      // default thread count.
      Completion C = complete(P.Block, facts(),
                              LB ? *LB : Opts.DefaultBlockDim.count(),
                              std::nullopt, ReadsYZ, W);
      if (C.Block.count() > ThreadGeometry::MaxThreadsPerBlock)
        continue;
      BlockShape S;
      S.Block = C.Block;
      S.Source = P.Source + (C.Why.empty() ? "" : "; " + C.Why);
      S.Assumed = C.Guessed;
      S.DynamicSharedBytes = P.DynamicSharedBytes;
      addLaunchShape(V, S);
    }
  if (!V.empty()) {
    std::sort(V.begin(), V.end(), [](const BlockShape &A, const BlockShape &B) {
      return A.Block < B.Block;
    });
    return V;
  }
  if (LB) {
    unsigned N = *LB;
    // The bound is a thread count, not a shape. A kernel that reads
    // threadIdx.y (or .z) was not written for N x 1 x 1, where those are 0
    // in every thread and the code that uses them means nothing: it is
    // analysed in rows of one warp, the usual split (ggml's flash
    // attention, mmq and mmf launch dim3(warp_size, nwarps) from a wrapper
    // no launch-site rule can follow, and N x 1 x 1 made their warps' rows
    // collide).
    bool Rows = ReadsYZ && W && N > W && N % W == 0;
    std::string Source = "__launch_bounds__";
    if (Rows)
      Source = "__launch_bounds__(" + std::to_string(N) +
               ") in rows of one warp: the kernel reads threadIdx.y or .z";
    const Dim3 Split = Rows ? Dim3{W, N / W, 1} : Dim3{N, 1, 1};
    // The kernel's facts, where they change the split.
    if (facts().any()) {
      Completion C = complete(PartialDim3(), facts(), N,
                              Rows ? std::optional<unsigned>(W) : std::nullopt,
                              ReadsYZ, W);
      if (C.Block != Split &&
          C.Block.count() <= ThreadGeometry::MaxThreadsPerBlock)
        return {BlockShape{C.Block,
                           "__launch_bounds__(" + std::to_string(N) + "); " +
                               C.Why,
                           false, std::nullopt}};
    }
    return {BlockShape{Split, Source, false, std::nullopt}};
  }
  if (Opts.BlockDim)
    return {BlockShape{*Opts.BlockDim, "BlockDim option", false, std::nullopt}};
  if (facts().any()) {
    const Dim3 &D = Opts.DefaultBlockDim;
    Completion C = complete(PartialDim3(), facts(), D.count(), D.X, ReadsYZ, W);
    if ((C.Block != D || !C.Guessed) &&
        C.Block.count() <= ThreadGeometry::MaxThreadsPerBlock)
      return {BlockShape{C.Block, C.Why, C.Guessed, std::nullopt}};
  }
  return {BlockShape{Opts.DefaultBlockDim, "assumed", true, std::nullopt}};
}

} // namespace shmem
