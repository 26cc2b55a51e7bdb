//===- Uniformity.cpp - Which values the threads of a block agree on ------===//
//
// See Uniformity.h for the lattice and the treatment of control dependence.
// This file holds the value domain, the results' queries and the memo of
// functions per calling context; UniformityInternal.h lists the others.
//
//===----------------------------------------------------------------------===//

#include "UniformityInternal.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace clang;

namespace shmem {

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

StringRef levelName(UniformityLevel L) {
  switch (L) {
  case UniformityLevel::GridUniform:
    return "grid-uniform";
  case UniformityLevel::BlockUniform:
    return "block-uniform";
  case UniformityLevel::WarpUniform:
    return "warp-uniform";
  case UniformityLevel::Varying:
    return "varying";
  }
  return "varying";
}

static std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return {};
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid || Text.empty() || Text.size() > 48 || Text.contains('\n'))
    return {};
  return Text.str();
}

static unsigned lineOf(const Stmt *S, const ASTContext &Ctx) {
  return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
}

std::string describeSource(const VarianceSource &S, const ASTContext &Ctx) {
  std::string Text = sourceText(S.S, Ctx);
  auto Quoted = [&](StringRef Fallback) {
    return Text.empty() ? Fallback.str() : "'" + Text + "'";
  };
  std::string Var = S.Var ? "'" + S.Var->getNameAsString() + "'" : "a value";
  switch (S.K) {
  case VarianceSource::None:
    return "nothing thread-dependent";
  case VarianceSource::ThreadIndex:
  case VarianceSource::BlockIndex:
  case VarianceSource::ThreadRank:
    return Text.empty() ? "the thread index" : Text;
  case VarianceSource::Atomic: {
    std::string Name;
    if (const auto *Call = dyn_cast_or_null<CallExpr>(S.S))
      Name = calleeName(Call);
    return Name.empty() ? "the result of an atomic"
                        : "the result of '" + Name + "'";
  }
  case VarianceSource::VolatileLoad:
    return "the volatile load " + Quoted("of memory") +
           ", which threads may see at different times";
  case VarianceSource::ThreadDependentLoad:
    return "the value loaded by " + Quoted("a load") +
           " from a thread-dependent address";
  case VarianceSource::MemoryLoad:
    return "the value loaded by " + Quoted("a load") +
           ", which may differ between blocks";
  case VarianceSource::BlockCollective:
    return Quoted("a block-wide reduction") +
           ", which may differ between blocks";
  case VarianceSource::WarpCollective:
    return Quoted("a warp-wide vote or reduction") +
           ", which may differ between warps";
  case VarianceSource::LaneExchange:
    return "the shuffle " + Quoted("between lanes");
  case VarianceSource::Opaque:
    return Text.empty() ? "a value the analysis cannot see into"
                        : "'" + Text + "'";
  case VarianceSource::DivergentAssignment:
    return Var + ", which is assigned under the thread-dependent branch at "
                 "line " +
           std::to_string(S.S ? lineOf(S.S, Ctx) : 0);
  case VarianceSource::DivergentLoopExit:
    return Var + ", whose value after the loop at line " +
           std::to_string(S.S ? lineOf(S.S, Ctx) : 0) +
           " depends on the iteration each thread left it in";
  }
  return "a thread-dependent value";
}

static bool samePerThread(const std::shared_ptr<const LaneValue> &A,
                          const std::shared_ptr<const LaneValue> &B) {
  if (A == B)
    return true;
  if (!A || !B)
    return false;
  return *A == *B;
}

UniformityValue UniformityValue::join(const UniformityValue &A,
                                      const UniformityValue &B) {
  UniformityValue R = A.Level >= B.Level ? A : B;
  R.Level = std::max(A.Level, B.Level);
  if (A.Source.K == VarianceSource::None)
    R.Source = B.Source;
  else if (B.Source.K == VarianceSource::None || A.Level >= B.Level)
    R.Source = A.Source;
  R.PerThread = samePerThread(A.PerThread, B.PerThread) ? A.PerThread : nullptr;
  R.PointsToLocal =
      A.PointsToLocal == B.PointsToLocal ? A.PointsToLocal : nullptr;
  // A lane symmetry both sides have survives any combination of them.
  R.LaneXor = A.laneXor() & B.laneXor();
  R.WarpInvariant = A.warpInvariant() && B.warpInvariant();
  auto [SA, LA] = A.shifted();
  auto [SB, LB] = B.shifted();
  R.Shift = nullptr;
  R.ShiftLevel = UniformityLevel::GridUniform;
  if (SA && SB && *SA == *SB) {
    R.Shift = A.Shift ? A.Shift : A.PerThread;
    R.ShiftLevel = std::max(LA, LB);
  }
  return R;
}

std::pair<const LaneValue *, UniformityLevel>
UniformityValue::shifted() const {
  if (Shift)
    return {Shift.get(), ShiftLevel};
  if (PerThread && Level > UniformityLevel::BlockUniform)
    return {PerThread.get(), UniformityLevel::GridUniform};
  return {nullptr, UniformityLevel::GridUniform};
}

bool UniformityValue::sameAs(const UniformityValue &O) const {
  return Level == O.Level && PointsToLocal == O.PointsToLocal &&
         laneXor() == O.laneXor() && warpInvariant() == O.warpInvariant() &&
         samePerThread(PerThread, O.PerThread) &&
         samePerThread(Shift, O.Shift) &&
         (!Shift || ShiftLevel == O.ShiftLevel);
}

void UniformityValue::normalize() {
  if (Level > UniformityLevel::WarpUniform && LaneXor == ~0u)
    Level = UniformityLevel::WarpUniform;
  // Lane l of warp w holds what lane 0 of warp w holds (warp-uniform), which
  // is what lane 0 of warp 0 holds (warp-invariant).
  if (Level == UniformityLevel::WarpUniform && WarpInvariant)
    Level = UniformityLevel::BlockUniform;
}

//===----------------------------------------------------------------------===//
// Queries and the memo
//===----------------------------------------------------------------------===//

const FunctionDecl *FunctionUniformity::function() const {
  return Skeleton->F;
}
const CFG &FunctionUniformity::cfg() const { return *Skeleton->Cfg; }
const ParentMap &FunctionUniformity::parents() const {
  return *Skeleton->Parents;
}

const UniformityValue *FunctionUniformity::value(const Expr *E) const {
  auto It = Values.find(E);
  if (It == Values.end()) {
    It = Values.find(E->IgnoreParens());
    if (It == Values.end())
      return nullptr;
  }
  return &It->second;
}

UniformityLevel FunctionUniformity::level(const Expr *E) const {
  const UniformityValue *V = value(E);
  return V ? V->Level : UniformityLevel::Varying;
}

UniformityLevel FunctionUniformity::addressLevel(const Expr *E) const {
  E = E->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return std::max(level(ASE->getBase()), level(ASE->getIdx()));
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? level(ME->getBase()) : addressLevel(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return level(UO->getSubExpr());
  if (isa<DeclRefExpr>(E))
    return UniformityLevel::GridUniform; // The variable itself.
  return UniformityLevel::Varying;
}

llvm::ArrayRef<BranchInfo> FunctionUniformity::branches() const {
  if (!Skeleton)
    return {};
  return Skeleton->Branches;
}

const UniformityValue &
FunctionUniformity::conditionValue(const BranchInfo &B) const {
  return BranchValues[&B - Skeleton->Branches.data()];
}

llvm::ArrayRef<const CFGBlock *> FunctionUniformity::blocks() const {
  if (!Skeleton)
    return {};
  return Skeleton->RPO;
}

const CFGBlock *FunctionUniformity::blockOf(const Stmt *S) const {
  if (!Skeleton)
    return nullptr;
  auto It = Skeleton->StmtBlock.find(S);
  return It == Skeleton->StmtBlock.end() ? nullptr : It->second;
}

llvm::SmallVector<const BranchInfo *, 4>
FunctionUniformity::controllingBranches(const Stmt *S,
                                        UniformityLevel Min) const {
  llvm::SmallVector<const BranchInfo *, 4> Out;
  const CFGBlock *B = blockOf(S);
  if (!B)
    return Out;
  for (unsigned I = 0; I < Skeleton->Branches.size(); ++I) {
    const BranchInfo &Br = Skeleton->Branches[I];
    if (BranchValues[I].Level >= Min && Br.Region.test(B->getBlockID()))
      Out.push_back(&Br);
  }
  // Innermost first; ties in program order (branches are in RPO).
  llvm::sort(Out, [](const BranchInfo *A, const BranchInfo *B) {
    unsigned CA = A->Region.count(), CB = B->Region.count();
    return CA != CB ? CA < CB : A < B;
  });
  return Out;
}

const FunctionUniformity *
FunctionUniformity::callee(const CallExpr *Call) const {
  auto It = Callees.find(Call);
  return It == Callees.end() ? nullptr : It->second;
}

UniformityAnalysis::UniformityAnalysis(ASTContext &Ctx,
                                       const ThreadGeometry *Geometry,
                                       unsigned InlineDepth,
                                       ProgramCFGs *Graphs)
    : Ctx(Ctx), Geometry(Geometry), InlineDepth(InlineDepth),
      OwnGraphs(Graphs ? nullptr : std::make_unique<ProgramCFGs>(Ctx)),
      Graphs(Graphs ? *Graphs : *OwnGraphs) {}

UniformityAnalysis::~UniformityAnalysis() = default;

UniformityLevel UniformityAnalysis::levelOf(const LaneValue &V) const {
  if (!V.isConcrete())
    return UniformityLevel::Varying;
  if (V.isUniform())
    return UniformityLevel::GridUniform;
  if (!Geometry || V.size() != Geometry->threads())
    return UniformityLevel::Varying;
  for (unsigned W = 0; W < Geometry->warps(); ++W)
    if (!V.isUniform(Geometry->warpBegin(W), Geometry->warpEnd(W)))
      return UniformityLevel::Varying;
  return UniformityLevel::WarpUniform;
}

bool UniformityAnalysis::warpInvariant(const LaneValue &V) const {
  if (!V.isConcrete() || !Geometry || V.size() != Geometry->threads())
    return false;
  unsigned WS = Geometry->warpSize();
  std::vector<int64_t> First(WS);
  return V.constants().forEachWhile([&](unsigned T, int64_t X) {
    if (T < WS) {
      First[T] = X;
      return true;
    }
    return X == First[T % WS];
  });
}

bool UniformityAnalysis::completeWarps() const {
  return Geometry && Geometry->threads() % Geometry->warpSize() == 0;
}

const FunctionSkeleton *UniformityAnalysis::skeleton(const FunctionDecl *F) {
  auto [It, New] = Skeletons.try_emplace(F);
  if (New)
    if (const KernelCFG *K = Graphs.get(F))
      It->second = buildSkeleton(F, *K, Ctx,
                                 Geometry ? Geometry->warpSize() : 32);
  return It->second.get();
}

const FunctionUniformity &
UniformityAnalysis::analyzeKernel(const FunctionDecl *Kernel) {
  std::vector<ArgumentContext> Args(Kernel->getNumParams());
  const FunctionUniformity *R =
      analyzeFunction(Kernel, Args, UniformityValue(), 0);
  if (R)
    return *R;
  // No CFG: an empty result whose queries are all conservative.
  auto &Slot = Memos[Kernel];
  Slot.push_back(Memo{Args, UniformityValue(),
                      std::make_unique<FunctionUniformity>()});
  return *Slot.back().Result;
}

const FunctionUniformity *
UniformityAnalysis::analyzeFunction(const FunctionDecl *F,
                                    llvm::ArrayRef<ArgumentContext> Args,
                                    const UniformityValue &This,
                                    unsigned Depth) {
  if (!F || Depth > InlineDepth ||
      std::find(InProgress.begin(), InProgress.end(), F) != InProgress.end())
    return nullptr;
  auto &List = Memos[F];
  for (const Memo &M : List) {
    if (!M.This.sameAs(This) || M.Args.size() != Args.size())
      continue;
    bool Same = true;
    for (unsigned I = 0; I < Args.size() && Same; ++I)
      Same = M.Args[I].sameAs(Args[I]);
    if (Same)
      return M.Result.get();
  }
  const FunctionSkeleton *Sk = skeleton(F);
  if (!Sk)
    return nullptr;
  auto Result = std::make_unique<FunctionUniformity>();
  Result->Skeleton = Sk;
  InProgress.push_back(F);
  FunctionAnalyzer(*this, *Sk, *Result, Args, This, Depth).run();
  InProgress.pop_back();
  // The analysis of F may have analysed other functions and grown the memo.
  auto &Slot = Memos[F];
  Slot.push_back(Memo{std::vector<ArgumentContext>(Args.begin(), Args.end()),
                      This, std::move(Result)});
  return Slot.back().Result.get();
}

} // namespace shmem
