//===- LaunchGeometry.cpp - Block shapes a kernel runs with ---------------===//

#include "LaunchGeometry.h"
#include "KernelTrace.h"

#include "ExprUtil.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

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

  /// The launch's dynamic shared memory: its third argument when it is a
  /// constant (0 when absent), none when not known here.
  std::optional<int64_t> dynamicBytes(const CallExpr *Config) const {
    if (!Config)
      return std::nullopt;
    if (Config->getNumArgs() < 3)
      return 0;
    Expr::EvalResult R;
    const Expr *Arg = Config->getArg(2);
    if (Arg->isValueDependent() || !Arg->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }

  void addLaunch(const FunctionDecl *K, const Expr *BlockArg,
                 SourceLocation Loc, const CallExpr *Config = nullptr) {
    if (!K)
      return;
    auto D = evaluateDim3(BlockArg, Ctx);
    if (!D || D->count() > ThreadGeometry::MaxThreadsPerBlock)
      return;
    std::optional<int64_t> Dynamic = dynamicBytes(Config);
    auto &V = Launches[K->getCanonicalDecl()];
    for (BlockShape &S : V)
      if (S.Block == *D) {
        // Another launch with this shape: the largest size, or none.
        S.DynamicSharedBytes =
            S.DynamicSharedBytes && Dynamic
                ? std::optional<int64_t>(
                      std::max(*S.DynamicSharedBytes, *Dynamic))
                : std::nullopt;
        return;
      }
    BlockShape S;
    S.Block = *D;
    S.DynamicSharedBytes = Dynamic;
    // The file too when it is not the kernel's (a kernel in a header
    // launched from the .cu), or the line would be looked for in the wrong
    // file.
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation L = SM.getExpansionLoc(Loc);
    S.Source = "launch at line " + std::to_string(SM.getExpansionLineNumber(L));
    SourceLocation KL = SM.getExpansionLoc(K->getLocation());
    if (L.isValid() && KL.isValid() && SM.getFileID(L) != SM.getFileID(KL))
      S.Source += " of " + SM.getFilename(L).str();
    V.push_back(S);
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    const CallExpr *Config = E->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return true;
    if (const FunctionDecl *K = E->getDirectCallee())
      addLaunch(K, Config->getArg(1), E->getBeginLoc(), Config);
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

LaunchGeometry::LaunchGeometry(ASTContext &Ctx, const AnalysisOptions &Opts,
                               KernelReach *Reach)
    : Ctx(Ctx), Opts(Opts), Reach(Reach) {
  Collector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.resolvePointerLaunches();
  Kernels = std::move(C.Kernels);
  Launches = std::move(C.Launches);
}

ShapeComment parseShapeComment(llvm::StringRef Line) {
  ShapeComment C;
  size_t At = Line.find("shmem-lint:");
  if (At == StringRef::npos)
    return C;
  C.Offset = At;
  StringRef Rest = Line.drop_front(At + strlen("shmem-lint:")).ltrim();
  StringRef Key = Rest.take_while([](char Ch) {
    return isAsciiIdentifierContinue(Ch) || Ch == '-';
  });
  StringRef AfterKey = Rest.drop_front(Key.size()).ltrim();
  const std::string Expected =
      "expected 'shmem-lint: block=X[xY[xZ]]' with at most " +
      std::to_string(ThreadGeometry::MaxThreadsPerBlock) + " threads";
  auto Malformed = [&](const std::string &Why) {
    C.K = ShapeComment::Malformed;
    C.Problem = Why + "; " + Expected;
    return C;
  };
  // Prose that mentions the tool (`// shmem-lint: see docs`) is no
  // directive; a key with '=' after it is, and so is `block` alone.
  if (Key != "block") {
    if (Key.empty() || !AfterKey.starts_with("="))
      return C;
    // With one key there is room to be generous: a swap (`blcok`) is two
    // edits, more than nearestName allows a five-letter word, and every
    // name nearestName would offer is within two edits anyway.
    std::string Lower = Key.lower();
    std::string Why = "unknown key '" + Key.str() + "'";
    if (StringRef(Lower).edit_distance("block", true, 2) <= 2)
      Why += " (did you mean 'block'?)";
    else
      Why += " (the only key is 'block')";
    return Malformed(Why);
  }
  if (!AfterKey.consume_front("="))
    return Malformed("'block' needs a value");
  // What is read as the shape, exactly as before this was diagnosed: the
  // run of digits, separators and parentheses after '='.
  StringRef Run = AfterKey.take_while(
      [](char Ch) { return StringRef("0123456789xX,() ").contains(Ch); });
  if (std::optional<Dim3> D = Dim3::parse(Run.trim().str())) {
    C.K = ShapeComment::Shape;
    C.Block = *D;
    return C;
  }
  // Why not, from the word the user wrote.
  StringRef Word = AfterKey.ltrim();
  Word = Word.take_until([](char Ch) { return isWhitespace(Ch); });
  if (size_t End = Word.find("*/"); End != StringRef::npos)
    Word = Word.take_front(End);
  if (Word.empty())
    return Malformed("'block' needs a value");
  std::string Quoted = "'block=" + Word.str() + "'";
  llvm::SmallVector<StringRef, 4> Parts;
  Word.split(Parts, 'x');
  if (Parts.size() == 1)
    Parts.clear(), Word.split(Parts, ',');
  uint64_t Threads = 1;
  for (StringRef P : Parts) {
    P = P.trim().trim("()");
    uint64_t V;
    if (P.empty() || P.getAsInteger(10, V))
      return Malformed(Quoted + " is not a block shape");
    if (V == 0)
      return Malformed(Quoted + " has a dimension of 0");
    Threads = std::min<uint64_t>(Threads * V, uint64_t(1) << 40);
  }
  if (Parts.size() > 3)
    return Malformed(Quoted + " has more than three dimensions");
  if (Threads > ThreadGeometry::MaxThreadsPerBlock)
    return Malformed(Quoted + " has " +
                     (Threads >= uint64_t(1) << 40 ? std::string("too many")
                                                   : std::to_string(Threads)) +
                     " threads, more than a block can have");
  return Malformed(Quoted + " is not a block shape");
}

std::optional<Dim3>
LaunchGeometry::annotation(const FunctionDecl *Kernel,
                           std::vector<ShapeCommentProblem> *Problems) const {
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
    ShapeComment C = parseShapeComment(Line);
    if (C.K == ShapeComment::Shape)
      return C.Block;
    // A malformed comment is said, then passed over as before: one
    // further up may still state the shape.
    if (C.K == ShapeComment::Malformed && Problems) {
      unsigned LineStart = Line.data() - Buf.data();
      Problems->push_back(
          {SM.getComposedLoc(FID, LineStart + C.Offset), C.Problem});
    }
    Before = Prev;
  }
  return std::nullopt;
}

std::vector<ShapeCommentProblem>
LaunchGeometry::shapeCommentProblems(const FunctionDecl *Kernel) const {
  std::vector<ShapeCommentProblem> P;
  annotation(Kernel, &P);
  return P;
}

std::vector<BlockShape>
LaunchGeometry::shapesFor(const FunctionDecl *Kernel) const {
  if (auto A = annotation(Kernel))
    return {BlockShape{*A, "shmem-lint annotation", false, std::nullopt}};
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
      if (*V > 0 && *V <= int64_t(ThreadGeometry::MaxThreadsPerBlock)) {
        unsigned N = unsigned(*V), W = Opts.WarpSize;
        // The bound is a thread count, not a shape. A kernel that reads
        // threadIdx.y (or .z) was not written for N x 1 x 1, where those
        // are 0 in every thread and the code that uses them means
        // nothing: it is analysed in rows of one warp, the usual split
        // (ggml's flash attention, mmq and mmf launch dim3(warp_size,
        // nwarps) from a wrapper no launch-site rule can follow, and
        // N x 1 x 1 made their warps' rows collide).
        if (Reach && W && N > W && N % W == 0 &&
            Reach->readsThreadIdxYZ(Kernel))
          return {BlockShape{Dim3{W, N / W, 1},
                             "__launch_bounds__(" + std::to_string(N) +
                                 ") in rows of one warp: the kernel reads "
                                 "threadIdx.y or .z",
                             false, std::nullopt}};
        return {BlockShape{Dim3{N, 1, 1}, "__launch_bounds__", false,
                           std::nullopt}};
      }
  if (Opts.BlockDim)
    return {BlockShape{*Opts.BlockDim, "BlockDim option", false, std::nullopt}};
  return {BlockShape{Opts.DefaultBlockDim, "assumed", true, std::nullopt}};
}

} // namespace shmem
