//===- Walker/KernelWalker.cpp - Interpret a kernel over a block ----------===//
//
// The entry point of the walker (traceKernel, declared in KernelTrace.h)
// and the trace's symbol table.
//
//===----------------------------------------------------------------------===//

#include "KernelWalker.h"

using namespace clang;

namespace shmem {

SymbolId SymbolTable::get(const SymbolKey &Key, SymbolInfo::Kind K,
                          std::string Name, const Stmt *Scope) {
  auto [It, New] = Ids.try_emplace(Key, Infos.size());
  if (New) {
    SymbolInfo I;
    I.K = K;
    I.Name = std::move(Name);
    I.Key = Key.Key;
    I.Var = Key.Var;
    I.Sub = Key.Sub;
    I.Scope = Scope;
    Infos.push_back(std::move(I));
  }
  return It->second;
}

std::optional<BarrierKind> barrierKindOf(const CallExpr *Call) {
  if (auto B = cuda::barrierOf(Call))
    return B->WarpLevel ? BarrierKind::Warp : BarrierKind::Block;
  return std::nullopt;
}

KernelTrace traceKernel(ASTContext &Ctx, const FunctionDecl *Kernel,
                        const ThreadGeometry &G, const AnalysisOptions &Opts,
                        const PaddingOverride *Pad, const IterationPins *Pins,
                        const std::vector<ArgumentConstant> &Args,
                        ConstantFolds *Folds, BarrierContents *Contents) {
  KernelTrace T;
  T.Kernel = Kernel;
  T.Arguments = Args;
  T.Folds = Folds;
  T.Contents = Contents;
  T.Geometry = G;
  walker::KernelWalker W(Ctx, G, Opts, T, Pad, Pins);
  W.walkKernel(Kernel);
  return T;
}

KernelTrace retraceKernel(ASTContext &Ctx, const KernelTrace &Base,
                          const AnalysisOptions &Opts,
                          const PaddingOverride *Pad,
                          const IterationPins *Pins) {
  return traceKernel(Ctx, Base.Kernel, Base.Geometry, Opts, Pad, Pins,
                     Base.Arguments, Base.Folds, Base.Contents);
}

} // namespace shmem
