//===- KernelReach.cpp - What a kernel's code can reach -------------------===//
//
// KernelReach::reachesSharedOrBarrier(): a scan of the AST, no evaluation.
// It must over-approximate the walk (Walker/), which records a
// shared access only through a `__shared__` variable it reaches by name, a
// barrier or warp collective only at a call CudaModel names
// (cuda::barrierOf, cuda::collectiveOf) or in inline assembly, and follows
// only calls to functions whose bodies it sees (followedCallee(), lambdas'
// and functors' operator() included). The scan follows every function named
// anywhere in the code it visits, whether the walk would inline it or not
// (calleeDefinition()), lambda bodies where they are written, and the
// default arguments and member initializers the walk evaluates.
//
// KernelReach::readsThreadIdxYZ(): the same scan, for a read of threadIdx.y
// or threadIdx.z (the property, its getter or the NVVM register) in the
// user's code, or a group's thread_index(): the block shape a kernel is
// analysed with depends on it (LaunchGeometry). Reads in system headers
// (the toolkit's cooperative groups linearising the thread index) do not
// count.
//
//===----------------------------------------------------------------------===//

#include "KernelTrace.h"
#include "Program/CallContexts.h"
#include "Program/CudaModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace shmem {

namespace {

/// Whether \p E reads threadIdx.y or .z, however it is spelled.
bool readsThreadIdxYZ(const Expr *E) {
  std::optional<cuda::BuiltinIndex> B = cuda::builtinIndexOf(E);
  return B && B->Var == cuda::IndexVar::ThreadIdx && B->Axis > 0;
}

/// Scans one function's body (and a constructor's member initializers)
/// without entering the functions it names: those are listed. Notes a
/// shared variable, barrier or inline assembly (Direct) and a read of
/// threadIdx.y or .z.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool Direct = false;
  bool ThreadYZ = false;
  std::vector<const FunctionDecl *> Named;

  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) {
    ThreadYZ |= readsThreadIdxYZ(E);
    return true;
  }

  void run(const FunctionDecl *F) {
    TraverseStmt(F->getBody());
    if (const auto *C = dyn_cast<CXXConstructorDecl>(F))
      for (const CXXCtorInitializer *I : C->inits())
        if (!Direct && I->getInit())
          TraverseStmt(I->getInit());
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) { return referenced(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) {
    return referenced(E->getMemberDecl());
  }
  bool VisitCallExpr(CallExpr *C) {
    ThreadYZ |= readsThreadIdxYZ(C);
    // A group's thread_index() is threadIdx itself, read in the toolkit's
    // code, which does not count (see summary()): its .y and .z are the
    // caller's to read.
    if (const auto *FD = C->getDirectCallee();
        FD && FD->getDeclName().isIdentifier() &&
        FD->getName() == "thread_index" && cuda::groupCalledOn(C))
      ThreadYZ = true;
    // A collective is synchronisation the barrier check looks at, even in a
    // kernel with no shared memory.
    found(cuda::barrierOf(C).has_value() || cuda::collectiveOf(C).has_value());
    // What the call reaches (a lambda's or functor's operator() too),
    // followed or not: the scan over-approximates the walk.
    if (const FunctionDecl *Def = calleeDefinition(C))
      Named.push_back(Def);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    name(E->getConstructor());
    return true;
  }
  bool VisitAsmStmt(AsmStmt *) {
    found(true);
    return true;
  }
  // Not children in the AST, but the walk evaluates them.
  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    return TraverseStmt(E->getExpr());
  }
  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    return TraverseStmt(E->getExpr());
  }

private:
  /// A shared variable is noted; a function is listed.
  bool referenced(const ValueDecl *D) {
    if (const auto *V = dyn_cast<VarDecl>(D))
      found(V->hasAttr<CUDASharedAttr>());
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      name(F);
    return true;
  }
  bool found(bool Yes) {
    Direct = Direct || Yes;
    return Direct;
  }
  void name(const FunctionDecl *F) {
    const FunctionDecl *Def = nullptr;
    if (F && F->hasBody(Def) && Def)
      Named.push_back(Def);
  }
};

} // namespace

const KernelReach::Summary &KernelReach::summary(const FunctionDecl *Def) {
  auto [It, New] = Summaries.try_emplace(Def);
  if (New) {
    BodyScan S;
    S.run(Def);
    It->second.Direct = S.Direct;
    // The toolkit's code is written for every block shape: cooperative
    // groups' thread_rank() linearises threadIdx.x, .y and .z whatever the
    // kernel's shape, so its reads say nothing of the kernel's.
    const SourceManager &SM = Def->getASTContext().getSourceManager();
    It->second.ThreadYZ =
        S.ThreadYZ &&
        !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation()));
    It->second.Named = std::move(S.Named);
  }
  return It->second;
}

bool KernelReach::anyReached(const FunctionDecl *Def,
                             bool Summary::*Holds) {
  // Depth-first over the functions named, each body scanned once per
  // translation unit.
  llvm::SmallPtrSet<const FunctionDecl *, 32> Seen{Def};
  llvm::SmallVector<const FunctionDecl *, 32> Work{Def};
  while (!Work.empty()) {
    const Summary &S = summary(Work.pop_back_val());
    if (S.*Holds)
      return true;
    for (const FunctionDecl *F : S.Named)
      if (Seen.insert(F).second)
        Work.push_back(F);
  }
  return false;
}

bool KernelReach::readsThreadIdxYZ(const FunctionDecl *Kernel) {
  const FunctionDecl *Def = nullptr;
  if (!Kernel || !Kernel->hasBody(Def) || !Def)
    return false;
  return anyReached(Def, &Summary::ThreadYZ);
}

bool KernelReach::reachesSharedOrBarrier(const FunctionDecl *Kernel) {
  const FunctionDecl *Def = nullptr;
  if (!Kernel || !Kernel->hasBody(Def) || !Def)
    return false;
  // Most kernels that use shared memory declare it among the body's first
  // statements: saying yes there is cheaper than scanning up to the first
  // use, and errs on the safe side (the walk runs).
  if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody()))
    for (const Stmt *S : Body->body())
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (D->hasAttr<CUDASharedAttr>())
            return true;
  return anyReached(Def, &Summary::Direct);
}

} // namespace shmem
