//===- CudaModel.cpp - The CUDA vocabulary, named once --------------------===//
//
// See CudaModel.h.
//
//===----------------------------------------------------------------------===//

#include "CudaModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace shmem {
namespace cuda {

std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (FD->getDeclName().isIdentifier())
      return FD->getName().str();
  return {};
}

const char *indexVarName(IndexVar V) {
  switch (V) {
  case IndexVar::ThreadIdx: return "threadIdx";
  case IndexVar::BlockDim: return "blockDim";
  case IndexVar::BlockIdx: return "blockIdx";
  case IndexVar::GridDim: return "gridDim";
  }
  return "";
}

std::string indexName(BuiltinIndex B) {
  return std::string(indexVarName(B.Var)) + "." + "xyz"[B.Axis];
}

/// \p Var ("threadIdx") and \p Field ("x") as a builtin index.
static std::optional<BuiltinIndex> indexOf(StringRef Var, StringRef Field) {
  std::optional<IndexVar> V =
      llvm::StringSwitch<std::optional<IndexVar>>(Var)
          .Case("threadIdx", IndexVar::ThreadIdx)
          .Case("blockDim", IndexVar::BlockDim)
          .Case("blockIdx", IndexVar::BlockIdx)
          .Case("gridDim", IndexVar::GridDim)
          .Default(std::nullopt);
  unsigned Axis = llvm::StringSwitch<unsigned>(Field)
                      .Case("x", 0)
                      .Case("y", 1)
                      .Case("z", 2)
                      .Default(3);
  if (!V || Axis == 3)
    return std::nullopt;
  return BuiltinIndex{*V, Axis};
}

std::optional<BuiltinIndex> builtinIndexOf(const Expr *E) {
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    // The property as written, else the getter call it stands for.
    if (auto B = builtinIndexOf(PO->getSyntacticForm()->IgnoreParens()))
      return B;
    const Expr *R = PO->getResultExpr();
    return R ? builtinIndexOf(R->IgnoreParenImpCasts()) : std::nullopt;
  }
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {
    // In a pseudo-object's syntactic form the base is an opaque value.
    const Expr *B = MP->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(B); OV && OV->getSourceExpr())
      B = OV->getSourceExpr()->IgnoreParenImpCasts();
    const auto *Base = dyn_cast<DeclRefExpr>(B);
    if (!Base || !Base->getDecl()->getDeclName().isIdentifier())
      return std::nullopt;
    return indexOf(Base->getDecl()->getName(),
                   MP->getPropertyDecl()->getName());
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return std::nullopt;
  std::string N = calleeName(Call);
  StringRef Name = N;
  // The getter behind the property.
  if (Name.consume_front("__fetch_builtin_")) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (!MD || !MD->getParent() || !MD->getParent()->getDeclName().isIdentifier())
      return std::nullopt;
    StringRef Rec = MD->getParent()->getName();
    if (!Rec.consume_front("__cuda_builtin_") || !Rec.consume_back("_t"))
      return std::nullopt;
    return indexOf(Rec, Name);
  }
  // The NVVM special registers.
  if (!Name.consume_front("__nvvm_read_ptx_sreg_"))
    return std::nullopt;
  static const struct {
    const char *Prefix, *Var;
  } Map[] = {{"tid_", "threadIdx"},
             {"ntid_", "blockDim"},
             {"ctaid_", "blockIdx"},
             {"nctaid_", "gridDim"}};
  for (const auto &M : Map)
    if (Name.consume_front(M.Prefix))
      return indexOf(M.Var, Name);
  return std::nullopt;
}

unsigned tileSizeOf(const CXXRecordDecl *RD) {
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
    if (Spec->getTemplateArgs().size() > 0 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
      return unsigned(Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue());
  return 0;
}

const CXXRecordDecl *groupClass(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getDeclName().isIdentifier() ||
      RD->getQualifiedNameAsString().find("cooperative_groups::") ==
          std::string::npos)
    return nullptr;
  return RD;
}

const Expr *calledObject(const CallExpr *Call) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (const auto *ME =
          dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    return ME->getBase();
  return nullptr;
}

/// The type of \p E as written, through a pointer: before any conversion
/// to a base class (a method a base class declares, as the toolkit's tiles
/// take any() and shfl() from __single_warp_thread_block_tile, is called on
/// the object converted to that base).
static QualType writtenType(const Expr *E) {
  QualType T = E->IgnoreParenImpCasts()->getType();
  return T->isPointerType() ? T->getPointeeType() : T;
}

const CXXRecordDecl *groupCalledOn(const CallExpr *Call, const Expr **Obj) {
  const Expr *O = calledObject(Call);
  if (Obj)
    *Obj = O;
  return O ? groupClass(writtenType(O)) : nullptr;
}

bool inCooperativeGroups(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  for (const DeclContext *DC = F ? F->getDeclContext() : nullptr; DC;
       DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

bool isGroupValueCollective(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return false;
  StringRef N = FD->getName();
  if (const CXXRecordDecl *RD = groupCalledOn(Call))
    return (RD->getName() == "thread_block_tile" ||
            RD->getName() == "coalesced_group") &&
           (N == "shfl" || N == "shfl_up" || N == "shfl_down" ||
            N == "shfl_xor");
  return (N == "reduce" || N == "inclusive_scan" || N == "exclusive_scan") &&
         inCooperativeGroups(Call);
}

bool isLibrarySyncObject(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Q = RD->getQualifiedNameAsString();
  return StringRef(Q).starts_with("cuda::") ||
         StringRef(Q).starts_with("cooperative_groups::");
}

bool isHalfPrecisionClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() ||
      !RD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  StringRef N = RD->getName();
  return N == "__half" || N == "__half2" || N == "__nv_bfloat16" ||
         N == "__nv_bfloat162";
}

bool isVectorMaker(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      !F->getDeclName().isIdentifier())
    return false;
  StringRef N = F->getName();
  if (!N.consume_front("make_") || N.empty() || N.back() < '1' ||
      N.back() > '4')
    return false;
  N = N.drop_back();
  N.consume_front("u");
  return N == "char" || N == "short" || N == "int" || N == "long" ||
         N == "longlong" || N == "float" || N == "double";
}

bool isBlockReduction(StringRef Name) {
  return Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
         Name == "__syncthreads_or" || Name == "__nvvm_bar0_popc" ||
         Name == "__nvvm_bar0_and" || Name == "__nvvm_bar0_or";
}

/// The named block barriers: the CUDA functions and the NVVM builtins the
/// toolkit's headers implement them with.
static bool isBlockBarrierName(StringRef N) {
  return N == "__syncthreads" || isBlockReduction(N) ||
         N == "__barrier_sync" || N == "__nvvm_bar_sync" ||
         N == "__nvvm_bar0" || N == "__nvvm_barrier_sync";
}

static bool isWarpBarrierName(StringRef N) {
  return N == "__syncwarp" || N == "__nvvm_bar_warp_sync";
}

bool isBarrierName(StringRef Name) {
  return isBlockBarrierName(Name) || isWarpBarrierName(Name) ||
         Name.starts_with("__nvvm_bar");
}

/// Whether a group's sync() is a warp-level barrier (a tile's, a coalesced
/// group's) or a block-level one; none when \p Group is no group class.
static std::optional<bool> groupSyncIsWarpLevel(StringRef Group) {
  if (Group == "thread_block" || Group == "grid_group" ||
      Group == "thread_group")
    return false;
  if (Group == "thread_block_tile" || Group == "coalesced_group")
    return true;
  return std::nullopt;
}

/// The group \p Call syncs, as written: the object of `g.sync()` (a
/// member, or with the toolkit's headers a static member reached through
/// the object), else the argument of `cg::sync(g)`.
static const CXXRecordDecl *syncedGroup(const CallExpr *Call) {
  auto Named = [](QualType T) -> const CXXRecordDecl * {
    const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->getDeclName().isIdentifier() &&
                   groupSyncIsWarpLevel(RD->getName())
               ? RD
               : nullptr;
  };
  if (const Expr *O = calledObject(Call))
    if (const CXXRecordDecl *RD = Named(writtenType(O)))
      return RD;
  return Call->getNumArgs() == 1 ? Named(writtenType(Call->getArg(0)))
                                 : nullptr;
}

/// The scope of libcu++'s `cuda::barrier<Scope>` or `cuda::pipeline<Scope>`
/// when \p T (or what it refers or points to) is the class \p Class: the
/// enumerator's name ("thread_scope_block"); empty otherwise.
static std::string scopeOf(QualType T, StringRef Class) {
  QualType U = T.getNonReferenceType();
  if (U->isPointerType())
    U = U->getPointeeType();
  const auto *S =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(U->getAsCXXRecordDecl());
  if (!S || !S->getDeclName().isIdentifier() || S->getName() != Class ||
      S->getTemplateArgs().size() < 1)
    return "";
  const TemplateArgument &A = S->getTemplateArgs()[0];
  if (A.getKind() != TemplateArgument::Integral)
    return "";
  if (const EnumDecl *ED = A.getIntegralType()->getAsEnumDecl())
    for (const EnumConstantDecl *E : ED->enumerators())
      if (llvm::APSInt::isSameValue(E->getInitVal(), A.getAsIntegral()))
        return E->getName().str();
  return "";
}

/// Whether \p T is a `cuda::pipeline<cuda::thread_scope_thread>`: a
/// thread's own pipeline, whose commits and waits the walk follows.
static bool isCudaPipeline(QualType T) {
  return scopeOf(T, "pipeline") == "thread_scope_thread";
}

/// Whether \p T is a `cuda::barrier<cuda::thread_scope_block>`.
static bool isBlockCudaBarrier(QualType T) {
  return scopeOf(T, "barrier") == "thread_scope_block";
}

/// The variable a barrier object expression names: `bar`, `bars[i]`,
/// `&bars[i]`, `s.bar`.
static const VarDecl *barrierVar(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      E = U->getSubExpr();
    else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase();
    else if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(D->getDecl());
    else
      return nullptr;
  }
  return nullptr;
}

/// Whether \p S names the block's size: blockDim, or the size() /
/// num_threads() of a cooperative_groups::thread_block (the programming
/// guide's `init(&bar, block.size())`).
static bool mentionsBlockDim(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<BuiltinIndex> B = builtinIndexOf(E))
      return B->Var == IndexVar::BlockDim;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    std::string N = calleeName(C);
    const Expr *Obj = calledObject(C);
    const CXXRecordDecl *RD = Obj ? groupClass(Obj->getType()) : nullptr;
    if ((N == "size" || N == "num_threads") && RD &&
        RD->getName() == "thread_block")
      return true;
  }
  for (const Stmt *C : S->children())
    if (mentionsBlockDim(C))
      return true;
  return false;
}

/// Whether the cuda::barrier object(s) in \p V are initialised in the
/// function that declares them (`init(&v, count)`) and never with a count
/// that names blockDim: barriers of some threads, such as a pipeline's
/// full and empty barriers (`init(&full[i], consumers * 128 + 1)`), which
/// the producer and the consumers arrive at and wait on apart.
static bool isPartialCudaBarrier(const VarDecl *V) {
  const auto *F = V ? dyn_cast<FunctionDecl>(V->getDeclContext()) : nullptr;
  if (!F || !F->getBody())
    return false;
  bool Any = false, Block = false;
  auto Visit = [&](const Stmt *S, auto &Self) -> void {
    if (!S || Block)
      return;
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      // libcu++'s init takes a completion function too, defaulted.
      if (C->getNumArgs() >= 2 && calleeName(C) == "init" &&
          barrierVar(C->getArg(0)) == V) {
        Any = true;
        Block |= mentionsBlockDim(C->getArg(1));
      }
    }
    for (const Stmt *Ch : S->children())
      Self(Ch, Self);
  };
  Visit(F->getBody(), Visit);
  return Any && !Block;
}

bool isPartialBarrierWait(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  const auto *M = dyn_cast<CXXMemberCallExpr>(Call);
  return M && (Name == "arrive_and_wait" || (Name == "wait" && Call->getNumArgs() == 1)) &&
         isBlockCudaBarrier(M->getObjectType()) &&
         isPartialCudaBarrier(barrierVar(M->getImplicitObjectArgument()));
}

/// `cooperative_groups::wait(g)` (0) and `wait_prior<N>(g)` (N).
static std::optional<unsigned> groupCopyWaitOf(const CallExpr *Call,
                                               StringRef N) {
  if ((N != "wait" && N != "wait_prior") || Call->getNumArgs() != 1 ||
      isa<CXXMemberCallExpr>(Call) || !inCooperativeGroups(Call))
    return std::nullopt;
  if (N == "wait")
    return 0u;
  const FunctionDecl *F = Call->getDirectCallee();
  const TemplateArgumentList *Args =
      F ? F->getTemplateSpecializationArgs() : nullptr;
  if (!Args || Args->size() < 1 ||
      Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return unsigned(Args->get(0).getAsIntegral().getZExtValue());
}

std::optional<GroupCopy> groupCopyOf(const CallExpr *Call) {
  if (calleeName(Call) != "memcpy_async" || isa<CXXMemberCallExpr>(Call))
    return std::nullopt;
  GroupCopy C;
  unsigned Args = Call->getNumArgs();
  if (!inCooperativeGroups(Call)) {
    // libcu++'s group form: (group, dst, src, size, barrier or pipeline).
    if (Args != 5)
      return std::nullopt;
    if (!groupClass(Call->getArg(0)->getType()))
      return std::nullopt;
    AsyncCopy Sync;
    QualType S = Call->getArg(4)->getType();
    Sync.BarrierTied = isBlockCudaBarrier(S);
    Sync.UntrackedCompletion = !Sync.BarrierTied && !isCudaPipeline(S);
    C.Sync = Sync;
  } else if (Args == 5) {
    C.SrcOperand = 3;
    C.CountOperand = 4;
    C.ElementCount = true;
  } else if (Args != 4) {
    return std::nullopt;
  }
  if (!Call->getArg(C.DstOperand)->getType()->isPointerType())
    return std::nullopt;
  // cuda::aligned_size_t<A>: the copy may assume A-byte alignment.
  QualType Count =
      Call->getArg(C.CountOperand)->getType().getNonReferenceType();
  if (const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          Count->getAsCXXRecordDecl());
      TS && TS->getName() == "aligned_size_t" &&
      TS->getTemplateArgs().size() >= 1 &&
      TS->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
    C.AlignHint =
        unsigned(TS->getTemplateArgs()[0].getAsIntegral().getZExtValue());
  return C;
}

std::optional<BarrierCall> barrierOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  StringRef N = Name;
  BarrierCall B;
  std::optional<unsigned> GroupWait = groupCopyWaitOf(Call, N);
  if (isBlockBarrierName(N)) {
    B.Reduces = isBlockReduction(N);
  } else if (isWarpBarrierName(N)) {
    B.WarpLevel = true;
    B.Scope = SyncScope::Warp;
    B.MaskArg = 0;
  } else if ((N == "arrive_and_wait" || (N == "wait" && Call->getNumArgs() == 1)) &&
             isa<CXXMemberCallExpr>(Call) &&
             isBlockCudaBarrier(
                 cast<CXXMemberCallExpr>(Call)->getObjectType())) {
    if (isPartialBarrierWait(Call))
      return std::nullopt;
    B.CompletesBarrierCopies = true;
  } else if (N == "sync" || GroupWait) {
    // group.sync(): a member call, or with the toolkit's headers a static
    // member reached through the object (`cta.sync()`); else cg::sync(g),
    // or cg::wait(g), which syncs g after the thread's copies.
    if (GroupWait) {
      B.CompletesAsyncCopies = true;
      B.AsyncPending = *GroupWait;
    }
    const CXXRecordDecl *Group = syncedGroup(Call);
    if (!Group)
      return std::nullopt;
    B.WarpLevel = *groupSyncIsWarpLevel(Group->getName());
    B.Scope = B.WarpLevel ? SyncScope::Warp : SyncScope::Block;
    // The scope, from the group named by the call itself.
    StringRef R = Group->getName();
    if (R == "grid_group")
      B.Scope = SyncScope::Grid;
    else if (R == "thread_group")
      B.Scope = SyncScope::Group;
    else if (R == "coalesced_group")
      B.Scope = SyncScope::Coalesced;
    else if (R == "thread_block_tile") {
      B.TileSize = tileSizeOf(Group);
      B.Scope = B.TileSize ? SyncScope::Tile : SyncScope::Group;
    }
  } else {
    return std::nullopt;
  }
  return B;
}

std::optional<RuntimeLaunch> runtimeLaunchOf(const CallExpr *Call) {
  // Asked of every call of a file: the name without a copy.
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier())
    return std::nullopt;
  StringRef N = FD->getName();
  unsigned Args = Call->getNumArgs();
  if ((N == "cudaLaunchKernel" || N == "cudaLaunchCooperativeKernel") &&
      Args >= 3)
    return RuntimeLaunch{RuntimeLaunch::Direct, 0, 2, 0};
  if (N == "cudaLaunchKernelEx" && Args >= 2)
    return RuntimeLaunch{RuntimeLaunch::Config, 1, 0, 2};
  if (N == "cudaLaunchKernelExC" && Args >= 2)
    return RuntimeLaunch{RuntimeLaunch::Config, 1, 0, 0};
  return std::nullopt;
}

bool isSharedPipelineCall(const CallExpr *Call) {
  if (scopeOf(Call->getType(), "pipeline") == "thread_scope_block")
    return true; // cuda::make_pipeline(group, &state, role)
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
    if (scopeOf(M->getObjectType(), "pipeline") == "thread_scope_block")
      return true;
  for (const Expr *A : Call->arguments())
    if (scopeOf(A->getType(), "pipeline") == "thread_scope_block")
      return true;
  return false;
}

std::optional<AsyncCopy> asyncCopyOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  unsigned Args = Call->getNumArgs();
  bool Primitive = Name == "__pipeline_memcpy_async" && Args >= 3;
  bool Cuda = Name == "memcpy_async" && Args == 4 &&
              Call->getArg(0)->getType()->isPointerType();
  if (!Primitive && !Cuda)
    return std::nullopt;
  AsyncCopy C;
  C.DstOperand = 0;
  C.SrcOperand = 1;
  C.SizeOperand = 2;
  C.BypassAt16 = true;
  if (Cuda) {
    QualType Sync = Call->getArg(3)->getType();
    C.BarrierTied = isBlockCudaBarrier(Sync);
    C.UntrackedCompletion = !C.BarrierTied && !isCudaPipeline(Sync);
  }
  return C;
}

std::optional<BulkTensorCopy> bulkTensorCopyOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  StringRef N(Name);
  unsigned Args = Call->getNumArgs();
  BulkTensorCopy C;
  if (N.consume_front("cp_async_bulk_tensor_") &&
      N.consume_back("d_global_to_shared") && N.size() == 1 && N[0] >= '1' &&
      N[0] <= '5') {
    C.Dims = unsigned(N[0] - '0');
    if (Args != C.Dims + 3)
      return std::nullopt;
    C.DstOperand = 0;
    C.MapOperand = 1;
    C.BarrierOperand = Args - 1;
    C.CudaBarrier = true;
    return C;
  }
  // cuda::ptx: (dst space, src space, dst, map, coords, bar[, ...]); the
  // store direction has no barrier and a shared source last.
  if (Name == "cp_async_bulk_tensor" && Args >= 6 &&
      Call->getArg(2)->getType()->isPointerType() &&
      isTensorMapType(Call->getArg(3)->getType()->getPointeeType())) {
    C.Dims = 0;
    C.DstOperand = 2;
    C.MapOperand = 3;
    C.BarrierOperand = 5;
    return C;
  }
  return std::nullopt;
}

std::optional<unsigned> mbarrierWaitOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  StringRef N = Name;
  if (!(N.starts_with("mbarrier_try_wait") ||
        N.starts_with("mbarrier_test_wait")) ||
      Call->getNumArgs() < 2)
    return std::nullopt;
  // cuda::ptx's forms take the barrier first, or a scope tag and then it.
  for (unsigned I = 0; I < 2; ++I)
    if (Call->getArg(I)->getType()->isPointerType())
      return I;
  return std::nullopt;
}

std::optional<RegisterSpan> specialRegisterSpan(StringRef Name) {
  for (StringRef C : {".x", ".y", ".z", ".w", "_x", "_y", "_z", "_w"})
    if (Name.consume_back(C))
      break;
  if (Name == "tid" || Name == "laneid" || Name.starts_with("lanemask_") ||
      Name.starts_with("clock") || Name.starts_with("globaltimer") ||
      (Name.starts_with("pm") && Name.size() > 2 && isDigit(Name[2])))
    return RegisterSpan::Thread;
  if (Name == "warpid")
    return RegisterSpan::Warp;
  if (Name == "ctaid" || Name == "clusterid" || Name == "cluster_ctaid" ||
      Name == "cluster_ctarank" || Name == "smid" || Name == "nwarpid")
    return RegisterSpan::Block;
  if (Name == "ntid" || Name == "nctaid" || Name == "nclusterid" ||
      Name == "cluster_nctaid" || Name == "cluster_nctarank" ||
      Name == "is_explicit_cluster" || Name == "nsmid" || Name == "gridid" ||
      Name == "total_smem_size" || Name == "dynamic_smem_size" ||
      Name == "aggr_smem_size" || Name.starts_with("envreg") ||
      Name.starts_with("reserved_smem_offset"))
    return RegisterSpan::Launch;
  return std::nullopt;
}

std::optional<MbarrierArrive> mbarrierArriveOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  StringRef N = Name;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (N == "arrive" && isBlockCudaBarrier(M->getObjectType()))
      return MbarrierArrive{M->getImplicitObjectArgument(), true};
    return std::nullopt;
  }
  if (N == "barrier_arrive_tx" && Call->getNumArgs() >= 1 &&
      isBlockCudaBarrier(Call->getArg(0)->getType().getNonReferenceType()))
    return MbarrierArrive{Call->getArg(0), true};
  if (!N.starts_with("mbarrier_arrive"))
    return std::nullopt;
  // cuda::ptx's forms take semantics and scope tags first.
  for (unsigned I = 0; I < Call->getNumArgs() && I < 3; ++I)
    if (Call->getArg(I)->getType()->isPointerType())
      return MbarrierArrive{Call->getArg(I), false};
  return std::nullopt;
}

bool isTensorMapType(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsRecordDecl();
  if (!RD)
    return false;
  StringRef Name = RD->getName();
  return Name == "CUtensorMap_st" || Name == "CUtensorMap";
}

bool holdsTensorMap(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  return isTensorMapType(T) ||
         (T->isPointerType() && isTensorMapType(T->getPointeeType()));
}

std::optional<AsyncWait> asyncWaitOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  AsyncWait W;
  if (Name == "__pipeline_commit") {
    W.Commit = true;
    return W;
  }
  if (Name == "__pipeline_wait_prior" && Call->getNumArgs() == 1) {
    W.Wait = true;
    W.PendingOperand = 0;
    return W;
  }
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (!isCudaPipeline(M->getObjectType()))
      return std::nullopt;
    if (Name == "producer_commit") {
      W.Commit = true;
      return W;
    }
    if (Name == "consumer_wait" || Name == "consumer_wait_for" ||
        Name == "consumer_wait_until") {
      W.Wait = W.Oldest = true;
      return W;
    }
    return std::nullopt;
  }
  // cuda::pipeline_consumer_wait_prior<N>(pipe).
  if (Name == "pipeline_consumer_wait_prior" && Call->getNumArgs() == 1 &&
      isCudaPipeline(Call->getArg(0)->getType())) {
    const FunctionDecl *F = Call->getDirectCallee();
    const TemplateArgumentList *TA =
        F ? F->getTemplateSpecializationArgs() : nullptr;
    if (!TA || TA->size() < 1 ||
        TA->get(0).getKind() != TemplateArgument::Integral)
      return std::nullopt;
    W.Wait = true;
    W.Pending = unsigned(TA->get(0).getAsIntegral().getZExtValue());
    return W;
  }
  return std::nullopt;
}

bool isSharedAddressConversion(StringRef Name) {
  return Name == "__cvta_generic_to_shared" ||
         Name == "__nvvm_cvta_generic_to_shared" ||
         Name == "__nv_cvta_generic_to_shared_impl";
}

std::optional<Collective> collectiveOf(StringRef Name) {
  StringRef Base = Name;
  bool Sync = Base.consume_back("_sync");
  using Op = CollectiveOp;
  std::optional<Op> K = llvm::StringSwitch<std::optional<Op>>(Base)
                            .Case("__shfl", Op::Shuffle)
                            .Case("__shfl_up", Op::ShuffleUp)
                            .Case("__shfl_down", Op::ShuffleDown)
                            .Case("__shfl_xor", Op::ShuffleXor)
                            .Case("__ballot", Op::Ballot)
                            .Case("__all", Op::All)
                            .Case("__any", Op::Any)
                            .Default(std::nullopt);
  if (K)
    return Collective{*K, Sync};
  // These exist only with a mask.
  if (!Sync)
    return std::nullopt;
  K = llvm::StringSwitch<std::optional<Op>>(Base)
          .Case("__uni", Op::Uni)
          .Case("__match_any", Op::MatchAny)
          .Case("__match_all", Op::MatchAll)
          .Cases({"__reduce_add", "__reduce_min", "__reduce_max",
                  "__reduce_and", "__reduce_or", "__reduce_xor"},
                 Op::Reduce)
          .Default(std::nullopt);
  if (K)
    return Collective{*K, true};
  return std::nullopt;
}

std::optional<Collective> collectiveOf(const CallExpr *Call) {
  std::string Name = calleeName(Call);
  if (Name.empty())
    return std::nullopt;
  return collectiveOf(Name);
}

bool isMaskedCollective(const CallExpr *Call) {
  auto C = collectiveOf(Call);
  return C && C->Sync && Call->getNumArgs() > 0;
}

bool isLaneMaskQuery(StringRef Name) {
  return Name == "__activemask" || Name == "__lanemask_lt" ||
         Name == "__lanemask_le" || Name == "__lanemask_gt" ||
         Name == "__lanemask_ge" || Name == "__lanemask_eq";
}

} // namespace cuda
} // namespace shmem
