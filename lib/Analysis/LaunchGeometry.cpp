//===- LaunchGeometry.cpp - Block shapes a kernel runs with ---------------===//

#include "LaunchGeometry.h"

#include "ExprUtil.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <regex>

using namespace clang;

namespace shmem {

static std::optional<int64_t> constInt(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  // A local `const int`/`int` initialised with a constant.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->getInit() && V->getType().isConstQualified())
        return constInt(V->getInit(), Ctx);
  return std::nullopt;
}

std::optional<Dim3> evaluateDim3(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = skipTemporaries(E);
  if (E->getType()->isIntegralOrEnumerationType()) {
    auto V = constInt(E, Ctx);
    if (!V || *V <= 0)
      return std::nullopt;
    return Dim3{unsigned(*V), 1, 1};
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    unsigned Parts[3] = {1, 1, 1};
    unsigned N = std::min(CE->getNumArgs(), 3u);
    if (N == 1 && !CE->getArg(0)->getType()->isIntegralOrEnumerationType())
      return evaluateDim3(CE->getArg(0), Ctx); // copy construction
    for (unsigned I = 0; I < N; ++I) {
      if (isa<CXXDefaultArgExpr>(CE->getArg(I)))
        continue;
      auto V = constInt(CE->getArg(I), Ctx);
      if (!V || *V <= 0)
        return std::nullopt;
      Parts[I] = unsigned(*V);
    }
    return Dim3{Parts[0], Parts[1], Parts[2]};
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    unsigned Parts[3] = {1, 1, 1};
    for (unsigned I = 0; I < std::min(IL->getNumInits(), 3u); ++I) {
      auto V = constInt(IL->getInit(I), Ctx);
      if (!V || *V <= 0)
        return std::nullopt;
      Parts[I] = unsigned(*V);
    }
    return Dim3{Parts[0], Parts[1], Parts[2]};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->getInit())
        return evaluateDim3(V->getInit(), Ctx);
  return std::nullopt;
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
  llvm::DenseMap<const FunctionDecl *, std::vector<BlockShape>> Launches;

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext() && !FD->isInvalidDecl())
      Kernels.push_back(FD);
    return true;
  }

  void addLaunch(const FunctionDecl *K, const Expr *BlockArg,
                 SourceLocation Loc) {
    if (!K)
      return;
    auto D = evaluateDim3(BlockArg, Ctx);
    if (!D || D->count() > ThreadGeometry::MaxThreadsPerBlock)
      return;
    auto &V = Launches[K->getCanonicalDecl()];
    for (const BlockShape &S : V)
      if (S.Block == *D)
        return;
    BlockShape S;
    S.Block = *D;
    S.Source = "launch at line " +
               std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Loc));
    V.push_back(S);
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    const CallExpr *Config = E->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return true;
    if (const FunctionDecl *K = E->getDirectCallee())
      addLaunch(K, Config->getArg(1), E->getBeginLoc());
    else if (const VarDecl *Ptr = pointerVariable(E->getCallee()))
      PointerLaunches.push_back({Ptr, Config->getArg(1), E->getBeginLoc()});
    return true;
  }

  // Launches through a function pointer (`kernel = &transposeNaive; ...
  // kernel<<<grid, threads>>>(...)`, cuda-samples' transpose): the shape
  // goes to every kernel the translation unit assigns to the pointer.
  struct PointerLaunch {
    const VarDecl *Ptr;
    const Expr *BlockArg;
    SourceLocation Loc;
  };
  std::vector<PointerLaunch> PointerLaunches;
  llvm::DenseMap<const VarDecl *, std::vector<const FunctionDecl *>>
      PointerTargets;

  /// The local or global variable a callee expression reads, if it is a
  /// pointer to a function.
  static const VarDecl *pointerVariable(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      E = U->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->getType()->isFunctionPointerType())
      return nullptr;
    return V;
  }

  /// The kernel an expression names (`f`, `&f`, `(void *)f`), if any.
  static const FunctionDecl *kernelNamed(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *F = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
    return F && F->hasAttr<CUDAGlobalAttr>() ? F : nullptr;
  }

  void notePointerTarget(const VarDecl *Ptr, const Expr *Value) {
    if (const FunctionDecl *K = kernelNamed(Value))
      PointerTargets[Ptr].push_back(K);
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      if (const VarDecl *Ptr = pointerVariable(B->getLHS()))
        notePointerTarget(Ptr, B->getRHS());
    return true;
  }

  bool VisitVarDecl(VarDecl *V) {
    if (V->getType()->isFunctionPointerType() && V->getInit())
      notePointerTarget(V, V->getInit());
    return true;
  }

  /// Once the whole translation unit is seen: the launches through
  /// pointers, for each kernel assigned to them.
  void resolvePointerLaunches() {
    for (const PointerLaunch &L : PointerLaunches) {
      auto It = PointerTargets.find(L.Ptr);
      if (It == PointerTargets.end())
        continue;
      for (const FunctionDecl *K : It->second)
        addLaunch(K, L.BlockArg, L.Loc);
    }
  }

  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *FD = E->getDirectCallee();
    if (!FD || !FD->getDeclName().isIdentifier() || E->getNumArgs() < 3)
      return true;
    StringRef N = FD->getName();
    if (N != "cudaLaunchKernel" && N != "cudaLaunchCooperativeKernel")
      return true;
    addLaunch(kernelNamed(E->getArg(0)), E->getArg(2), E->getBeginLoc());
    return true;
  }

private:
  ASTContext &Ctx;
};
} // namespace

LaunchGeometry::LaunchGeometry(ASTContext &Ctx, const AnalysisOptions &Opts)
    : Ctx(Ctx), Opts(Opts) {
  Collector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.resolvePointerLaunches();
  Kernels = std::move(C.Kernels);
  Launches = std::move(C.Launches);
}

std::optional<Dim3>
LaunchGeometry::annotation(const FunctionDecl *Kernel) const {
  // Look at the comment lines directly above the kernel (or its template
  // header) for `shmem-lint: block=...`.
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Pattern = Kernel->getTemplateInstantiationPattern();
  const Decl *D = Pattern ? Pattern : Kernel;
  if (const FunctionTemplateDecl *FT =
          (Pattern ? Pattern : Kernel)->getDescribedFunctionTemplate())
    D = FT;
  SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
  if (Loc.isInvalid())
    return std::nullopt;
  FileID FID = SM.getFileID(Loc);
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return std::nullopt;
  unsigned Offset = SM.getFileOffset(Loc);
  StringRef Before = Buf.substr(0, Offset);
  static const std::regex Re(R"(shmem-lint:\s*block\s*=\s*([0-9xX,() ]+))");
  // Walk back over comment and blank lines.
  for (unsigned Lines = 0; Lines < 12 && !Before.empty(); ++Lines) {
    size_t End = Before.rfind('\n');
    if (End == StringRef::npos)
      break;
    StringRef Prev = Before.substr(0, End);
    size_t Start = Prev.rfind('\n');
    StringRef Line = Start == StringRef::npos ? Prev : Prev.substr(Start + 1);
    StringRef Trim = Line.trim();
    bool Comment = Trim.starts_with("//") || Trim.starts_with("/*") ||
                   Trim.starts_with("*");
    if (!Comment && !Trim.empty())
      break;
    std::cmatch M;
    std::string L = Line.str();
    std::smatch SM2;
    if (std::regex_search(L, SM2, Re))
      if (auto Dm = Dim3::parse(StringRef(SM2[1].str()).trim().str()))
        return Dm;
    Before = Prev;
  }
  return std::nullopt;
}

std::vector<BlockShape>
LaunchGeometry::shapesFor(const FunctionDecl *Kernel) const {
  if (auto A = annotation(Kernel))
    return {BlockShape{*A, "shmem-lint annotation", false}};
  auto It = Launches.find(Kernel->getCanonicalDecl());
  if (It != Launches.end() && !It->second.empty()) {
    std::vector<BlockShape> V = It->second;
    std::sort(V.begin(), V.end(), [](const BlockShape &A, const BlockShape &B) {
      return A.Block < B.Block;
    });
    return V;
  }
  if (const auto *LB = Kernel->getAttr<CUDALaunchBoundsAttr>())
    if (auto V = constInt(LB->getMaxThreads(), Ctx))
      if (*V > 0 && *V <= int64_t(ThreadGeometry::MaxThreadsPerBlock))
        return {BlockShape{Dim3{unsigned(*V), 1, 1}, "__launch_bounds__", false}};
  if (Opts.BlockDim)
    return {BlockShape{*Opts.BlockDim, "BlockDim option", false}};
  return {BlockShape{Opts.DefaultBlockDim, "assumed", true}};
}

} // namespace shmem
