//===- UniformityInternal.h - What uniformity's files share -*- C++ -*-===//
//
// Private to the uniformity analysis (Uniformity.h is its interface): what
// its files share. The analysis is in these parts:
//
//   Uniformity.cpp          the value domain, the results' queries, and
//                           UniformityAnalysis, which memoises each function
//                           per calling context.
//   UniformityFixpoint.cpp  FunctionSkeleton, the analysis's own facts of a
//                           function beside its graph (built once per
//                           function; the branches, regions and joins come
//                           with the graph, Program/BranchRegions.h), the
//                           transfer of statements, block entry states, and
//                           the fixpoint on Program/Worklist.h.
//   UniformityTransfer.cpp  values of expressions: per-thread arithmetic,
//                           locations, reads and writes.
//   UniformityCalls.cpp     calls: CUDA builtins, warp collectives and
//                           butterflies, cooperative groups, and the callees
//                           analysed in the context of the call.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_UNIFORMITYINTERNAL_H
#define SHMEM_LINT_ANALYSIS_UNIFORMITYINTERNAL_H

#include "Butterfly.h"
#include "Program/BranchRegions.h"
#include "Program/CudaModel.h"
#include "Uniformity.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace shmem {

using cuda::calleeName;
using cuda::tileSizeOf;

/// What the analysis needs of a function beside its graph and the graph's
/// branch regions, which KernelCFG keeps for everyone: the tracked locals
/// each block and each branch's region may assign, the scopes states are
/// pruned to, and the loops of butterfly steps. Built once per function by
/// each UniformityAnalysis.
struct FunctionSkeleton {
  const clang::FunctionDecl *F = nullptr;
  /// The function's shared graph (ProgramCFGs) and, for brevity, its parts.
  const KernelCFG *Graph = nullptr;
  const clang::CFG *Cfg = nullptr;
  const clang::ParentMap *Parents = nullptr;
  /// Reachable blocks in reverse post-order, and each block's position.
  llvm::ArrayRef<const clang::CFGBlock *> RPO;
  llvm::ArrayRef<unsigned> RPOIndex;
  NodeMap<clang::Stmt, const clang::CFGBlock *> StmtBlock;
  /// The graph's branches (BranchRegions), and by block ID the branch the
  /// block ends in (or -1) and the branches it is a join of.
  llvm::ArrayRef<BranchInfo> Branches;
  llvm::ArrayRef<int> BranchOfBlock;
  llvm::ArrayRef<llvm::SmallVector<unsigned, 2>> JoinOf;
  /// By block ID: the local variables the block may assign.
  std::vector<llvm::SmallVector<const clang::VarDecl *, 4>> DefsOfBlock;
  /// The variables assigned in branch \p BI's region, in block order.
  /// Asked only of branches whose condition is not grid-uniform, so found
  /// then, once: over every branch of a large kernel (nested loops over
  /// thousands of blocks) it was the largest part of building this.
  llvm::ArrayRef<const clang::VarDecl *> branchDefs(unsigned BI) const;
  /// The blocks that assign a variable, by ascending ID.
  std::vector<unsigned> DefBlocks;
  using VarList = llvm::SmallVector<const clang::VarDecl *, 8>;
  mutable std::vector<std::optional<VarList>> BranchDefs;
  /// The statement whose end ends each local's scope: the compound
  /// statement that declares it, or the for, if, while or switch whose
  /// init or condition does. Parameters have none.
  NodeMap<clang::VarDecl, const clang::Stmt *> ScopeOf;
  /// By block ID: the scopes open at the block's first statement; blocks
  /// with none known (empty, synthetic) have PruneAt unset.
  std::vector<llvm::SmallPtrSet<const clang::Stmt *, 8>> OpenScopes;
  llvm::BitVector PruneAt;
  /// Loops of butterfly steps (Butterfly.h): on the edge that leaves the
  /// loop (From, its condition, to To), which runs only after every
  /// iteration, the lanes the steps exchanged agree on each variable.
  struct ButterflyExit {
    const clang::CFGBlock *From = nullptr, *To = nullptr;
    llvm::SmallVector<ButterflyLoop::Var, 2> Vars;
  };
  std::vector<ButterflyExit> Butterflies;

  static constexpr unsigned Unreachable = KernelCFG::Unreachable;
  bool reachable(const clang::CFGBlock *B) const {
    return RPOIndex[B->getBlockID()] != Unreachable;
  }
};

/// A local variable of the function being analysed that the dataflow
/// tracks: automatic storage, not shared memory.
bool isTrackedLocal(const clang::VarDecl *V, const clang::FunctionDecl *F);

/// What the analysis needs of \p F beside its graph: the locals each block
/// and each branch region assigns, the scopes, the butterfly loops.
std::unique_ptr<FunctionSkeleton> buildSkeleton(const clang::FunctionDecl *F,
                                                const KernelCFG &K,
                                                clang::ASTContext &Ctx,
                                                unsigned WarpSize);

/// The fixpoint for one function in one calling context, then a final
/// pass that records expression values. Its members are defined in
/// UniformityTransfer.cpp (values, locations, expressions),
/// UniformityCalls.cpp (builtins, collectives, callees) and
/// UniformityFixpoint.cpp (statements, block entry states, the fixpoint).
class FunctionAnalyzer {
public:
  FunctionAnalyzer(UniformityAnalysis &UA, const FunctionSkeleton &Sk,
                   FunctionUniformity &R, llvm::ArrayRef<ArgumentContext> Args,
                   const UniformityValue &This, unsigned Depth)
      : UA(UA), Ctx(UA.Ctx), G(UA.Geometry), Sk(Sk), R(R), F(Sk.F),
        Args(Args), This(This), Depth(Depth) {}

  void run();

private:
  /// Every block once more from its converged entry state, recording the
  /// values clients query.
  void finalPass();

  /// The state at a program point: a value per tracked local variable.
  struct State {
    bool Reached = false;
    NodeMap<clang::VarDecl, UniformityValue> Vars;
    UniformityValue Ret;
    /// Per local array: the element last stored at `a[i]` (i a local
    /// variable) when neither a nor i changed since, and its value: a read of
    /// `a[i]` then reads that, not the merge of the whole array
    /// (`sum[j] = warp_reduce_sum(sum[j]); buf[warp] = sum[j];`).
    NodeMap<clang::VarDecl, std::pair<const clang::VarDecl *, UniformityValue>>
        Elements;

    bool sameAs(const State &O) const {
      if (Reached != O.Reached || Vars.size() != O.Vars.size() ||
          Elements.size() != O.Elements.size() || !Ret.sameAs(O.Ret))
        return false;
      for (const auto &KV : Vars) {
        auto It = O.Vars.find(KV.first);
        if (It == O.Vars.end() || !It->second.sameAs(KV.second))
          return false;
      }
      for (const auto &KV : Elements) {
        auto It = O.Elements.find(KV.first);
        if (It == O.Elements.end() || It->second.first != KV.second.first ||
            !It->second.second.sameAs(KV.second.second))
          return false;
      }
      return true;
    }

    /// \p V changed: what was known of elements of it or indexed by it is
    /// not any more.
    void forgetElements(const clang::VarDecl *V) {
      Elements.erase(V);
      llvm::SmallVector<const clang::VarDecl *, 2> Stale;
      for (const auto &KV : Elements)
        if (KV.second.first == V)
          Stale.push_back(KV.first);
      for (const clang::VarDecl *A : Stale)
        Elements.erase(A);
    }

    void joinWith(const State &O) {
      if (!O.Reached)
        return;
      if (!Reached) {
        *this = O;
        return;
      }
      for (const auto &KV : O.Vars) {
        auto [It, New] = Vars.try_emplace(KV.first, KV.second);
        if (!New)
          It->second = UniformityValue::join(It->second, KV.second);
      }
      Ret = UniformityValue::join(Ret, O.Ret);
      // An element is known after the join when both sides know it alike.
      llvm::SmallVector<const clang::VarDecl *, 2> Differ;
      for (const auto &KV : Elements) {
        auto It = O.Elements.find(KV.first);
        if (It == O.Elements.end() || It->second.first != KV.second.first ||
            !It->second.second.sameAs(KV.second.second))
          Differ.push_back(KV.first);
      }
      for (const clang::VarDecl *A : Differ)
        Elements.erase(A);
    }
  };

  /// Where an lvalue lives.
  struct Location {
    enum Kind { Local, Memory, Temporary, Captured } K = Memory;
    /// For Local: the variable.
    const clang::VarDecl *Var = nullptr;
    /// For Local: the whole variable (a store replaces its value) rather than
    /// an element or field of it.
    bool Whole = false;
    /// For an element `a[i]` of a local array: i, when a local variable.
    const clang::VarDecl *Index = nullptr;
    /// For Memory: the address; for part of a Local: the index.
    UniformityValue Address;
    /// For Memory: read-only for the whole launch (__constant__, const
    /// globals), so loads from a uniform address are grid-uniform.
    bool ReadOnly = false;
    /// For Memory: global memory, one word per launch at one address (a
    /// __device__ variable, or through a pointer the kernel receives and
    /// never changes), unlike a __shared__ variable, which is one word per
    /// block: threads that load one word in one interval of grid barriers
    /// load one value unless a thread writes it there, a race. So a load
    /// at a grid-uniform address is grid-uniform.
    bool Global = false;
    /// For Temporary: the expression whose value the temporary holds.
    const clang::Expr *Init = nullptr;
  };

  UniformityAnalysis &UA;
  clang::ASTContext &Ctx;
  const ThreadGeometry *G;
  const FunctionSkeleton &Sk;
  FunctionUniformity &R;
  const clang::FunctionDecl *F;
  llvm::ArrayRef<ArgumentContext> Args;
  UniformityValue This;
  unsigned Depth;

  State Cur;
  std::vector<State> Out;
  /// By block ID, for a block whose two-way branch tests a value known in
  /// this context and the same in every thread: the one successor (0 when
  /// it holds, 1 when not) that runs; -1 for every other block. The edge
  /// to the other is not taken (see takenSuccessor()).
  std::vector<int8_t> OnlySuccessor;
  /// Parameters that stand for a caller's local variable (by reference).
  llvm::SmallPtrSet<const clang::VarDecl *, 4> StorageParams;
  /// References bound to a whole local variable: the variable.
  llvm::DenseMap<const clang::VarDecl *, const clang::VarDecl *> RefAlias;

  using Level = UniformityLevel;
  enum class Exchange { Index, Shift, Xor };

  //===--------------------------------------------------------------------===//
  // Small helpers
  //===--------------------------------------------------------------------===//

  UniformityValue uniform(Level L = Level::GridUniform) {
    return UniformityValue::uniform(L);
  }

  std::shared_ptr<const LaneValue> constantVector(int64_t C);

  UniformityValue constant(int64_t C) {
    UniformityValue V;
    V.PerThread = constantVector(C);
    return V;
  }

  /// A value known in every thread: its level follows from the values.
  UniformityValue exact(LaneValue L, VarianceSource Src);

  /// The level and symmetries of a value known in every thread follow from
  /// the values alone.
  void classify(UniformityValue &V, const LaneValue &L) {
    V.Level = UA.levelOf(L);
    V.LaneXor = 1;
    V.WarpInvariant = V.Level > Level::BlockUniform && UA.warpInvariant(L);
  }

  std::optional<int64_t> constantInt(const clang::Expr *E);

  /// \p V converted to type \p T: per-thread values wrap or become 0/1.
  UniformityValue convert(UniformityValue V, clang::QualType T);

  /// Every thread's value of the concrete \p L is in [Lo, Hi].
  static bool allIn(const LaneValue &L, int64_t Lo, int64_t Hi) {
    if (!L.isConcrete())
      return false;
    return L.constants().within(Lo, Hi);
  }

  /// withPerThread(V, *V.PerThread), sharing the vector: what a conversion
  /// that changes no value gives.
  UniformityValue withSameValues(UniformityValue V);

  /// \p V with a new per-thread value (or none when \p L is not concrete);
  /// the level follows the values when they are known.
  UniformityValue withPerThread(UniformityValue V, LaneValue L);

  UniformityValue stateValue(const clang::VarDecl *V) {
    auto It = Cur.Vars.find(V);
    return It == Cur.Vars.end() ? uniform() : It->second;
  }

  //===--------------------------------------------------------------------===//
  // Locations: reads and writes
  //===--------------------------------------------------------------------===//

  Location deref(const UniformityValue &P);

  /// Whether \p Base is a pointer parameter of the kernel being analysed
  /// that its body never changes: it points into global memory (a kernel
  /// argument cannot point into a block's shared memory).
  bool isKernelPointerArgument(const clang::Expr *Base);
  /// What the kernel's body may change (walker::ModifiedVars), once asked.
  std::optional<std::set<const clang::VarDecl *>> KernelModified;

  static bool isReadOnlyGlobal(const clang::VarDecl *V) {
    return V->hasAttr<clang::CUDAConstantAttr>() ||
           V->getType().isConstQualified();
  }

  Location location(const clang::Expr *E);

  UniformityValue read(const Location &L, const clang::Expr *LV);

  void write(const Location &L, UniformityValue V);

  /// A store that may or may not happen (through a pointer an unknown
  /// callee received): the variable keeps its old value or gets \p V.
  void mayWrite(const clang::Expr *LV, const UniformityValue &V);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// The value of a subexpression: recorded when the CFG listed it,
  /// computed (without side effects) when it did not.
  UniformityValue get(const clang::Expr *E) {
    if (!E)
      return uniform();
    auto It = R.Values.find(E);
    if (It != R.Values.end())
      return It->second;
    return compute(E, /*Effects=*/false);
  }

  UniformityValue joinChildren(const clang::Stmt *S);

  UniformityValue compute(const clang::Expr *E, bool Effects);

  UniformityValue castValue(const clang::CastExpr *CE);

  /// threadIdx.x and friends (cuda::builtinIndexOf says which, however it
  /// is spelled), read at \p At.
  UniformityValue builtinIndex(cuda::BuiltinIndex B, const clang::Expr *At);
  /// A PTX special register's value, read at \p At (asm or NVVM builtin).
  UniformityValue specialRegister(cuda::RegisterSpan Span,
                                  const clang::Stmt *At);

  UniformityValue declRef(const clang::DeclRefExpr *DRE);

  UniformityValue unary(const clang::UnaryOperator *UO, bool Effects);

  static std::optional<LaneValue::Op> laneOp(clang::BinaryOperatorKind K);
  /// Sets \p V's Shift (UniformityValue::Shift) for \p L op \p Rv: kept by
  /// adding or subtracting a value without one; a difference or comparison
  /// of two values with one Shift is as uniform as their other parts.
  static void shiftedArith(clang::BinaryOperatorKind K,
                           const UniformityValue &L, const UniformityValue &Rv,
                           UniformityValue &V);

  /// L op R, exactly per thread when both sides are known per thread.
  UniformityValue arith(clang::BinaryOperatorKind K, const UniformityValue &L,
                        const UniformityValue &Rv, clang::QualType OperandTy,
                        clang::QualType ResultTy);

  UniformityValue binary(const clang::BinaryOperator *BO, bool Effects);

  //===--------------------------------------------------------------------===//
  // Calls
  //===--------------------------------------------------------------------===//

  /// The mask argument of a *_sync primitive names the whole warp.
  bool fullMask(const clang::Expr *Mask);

  /// Cooperative groups' queries, by class and method name.
  std::optional<UniformityValue> cooperativeGroups(const clang::CallExpr *Call);

  /// `cg::reduce(tile, v, op)`: one result per tile.
  std::optional<UniformityValue> groupReduce(const clang::CallExpr *Call);

  /// A collective over groups of \p Size consecutive lanes (a warp, a tile;
  /// 0: not known) in which every lane takes part: one result per group,
  /// and the same result in every group when \p Operand is warp-invariant,
  /// since each group then combines the same values.
  UniformityValue groupCollective(unsigned Size, const UniformityValue &Operand,
                                  const clang::CallExpr *Call);

  /// Lane l gets \p Var from the lane \p Lane selects, among groups of
  /// \p Width lanes that all take part (0: some may not). Lanes that agree
  /// on the selector agree on the result (an index; for xor, those that
  /// also agree on the value); in whole warps, a warp-invariant value and
  /// selector give a warp-invariant result.
  UniformityValue laneExchange(Exchange X, const UniformityValue &Var,
                               const UniformityValue &Lane, int64_t Width,
                               const clang::CallExpr *Call);

  /// A butterfly step (Butterfly.h) with a constant offset: lanes l and
  /// l ^ offset now agree too.
  void butterfly(const clang::Expr *E, UniformityValue &V);

  /// CUDA's builtins and intrinsics, by name.
  std::optional<UniformityValue> builtinCall(const clang::CallExpr *Call,
                                             llvm::StringRef Name);

  UniformityValue call(const clang::CallExpr *Call, bool Effects);

  /// Locals an unknown callee may write: `&x`, local arrays, non-const
  /// references, the object of a non-const method.
  void writeThroughArguments(const clang::CallExpr *Call,
                             const clang::FunctionDecl *Callee, unsigned Shift,
                             const UniformityValue &V);

  UniformityValue inlineCall(const clang::CallExpr *Call,
                             const clang::FunctionDecl *Def, unsigned Shift,
                             bool Effects);

  //===--------------------------------------------------------------------===//
  // Statements and blocks
  //===--------------------------------------------------------------------===//

  void declare(const clang::VarDecl *V);

  void visit(const clang::Stmt *S);

  /// The state on entry to \p B: its predecessors' states merged, then the
  /// variables assigned under divergent branches that join here raised,
  /// less the locals whose scope has ended (see pruneOutOfScope).
  State entryState(const clang::CFGBlock *B);

  /// Locals whose scope \p B is not in cannot be read there or after it
  /// until their declaration runs again: drop them. Without this every
  /// state carries every local declared so far, and a long kernel of
  /// scoped blocks costs O(blocks x locals).
  void pruneOutOfScope(const clang::CFGBlock *B, State &In);

  State joinedEntryState(const clang::CFGBlock *B);

  void transfer(const clang::CFGBlock *B) {
    for (const clang::CFGElement &E : *B)
      if (auto CS = E.getAs<clang::CFGStmt>())
        visit(CS->getStmt());
  }

  UniformityValue branchCondition(const BranchInfo &Br) {
    UniformityValue V = get(Br.Condition);
    V.PointsToLocal = nullptr;
    return V;
  }
  /// The successor that \p B's branch, testing \p C, takes in every
  /// thread, or -1.
  static int8_t takenSuccessor(const clang::CFGBlock *B,
                               const UniformityValue &C);
  /// Records \p Taken as \p B's OnlySuccessor after its transfer in the
  /// fixpoint (the final pass starts from the same states); whether it
  /// changed.
  bool noteTakenSuccessor(const clang::CFGBlock *B, int8_t Taken);
  bool edgeTaken(const clang::CFGBlock *From, const clang::CFGBlock *To) const;
};

} // namespace shmem

#endif
