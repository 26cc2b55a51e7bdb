//===- CompiledWidths.cpp - Shared accesses as nvcc emits them ------------===//
//
// See CompiledWidths.h for the rule and where it was measured.
//
//===----------------------------------------------------------------------===//

#include "CompiledWidths.h"

#include "IndexSteps.h"

#include "clang/AST/ASTContext.h"

#include <algorithm>

namespace shmem {

namespace {

/// Whether the byte offset \p Off is a multiple of \p P in every thread,
/// whatever its unknowns are.
bool alignedTo(const LaneValue &Off, int64_t P) {
  if (!Off.isAffine())
    return false;
  auto Multiple = [P](int64_t X) { return X % P == 0; };
  if (!Off.constants().all(Multiple))
    return false;
  for (const auto &KV : Off.coefficients())
    if (!KV.second.all(Multiple))
      return false;
  return true;
}

/// Whether nvcc has \p A and \p B in one copy of the code: in iterations
/// of a loop that an unroll pragma limits, only those of one unrolled
/// chunk are.
bool sameUnrolledCopy(const SharedAccess &A, const SharedAccess &B,
                      const KernelTrace &T) {
  if (A.Loops != B.Loops)
    return false;
  for (unsigned P = 0; P < A.Loops.size(); ++P) {
    int IA = A.LoopIterations[P], IB = B.LoopIterations[P];
    if (IA == IB)
      continue;
    auto It = T.CompilerUnroll.find(A.Loops[P]);
    if (It == T.CompilerUnroll.end())
      continue;
    if (IA < 0 || IB < 0 || IA / int(It->second) != IB / int(It->second))
      return false;
  }
  return true;
}

/// Whether moving every thread's offset \p Off by one constant could make
/// it a multiple of \p P in every thread: the threads agree modulo P. A
/// sliding window (thread t reads from element t on) never aligns, so no
/// advice is given for it.
bool shiftAligns(const LaneValue &Off, int64_t P) {
  if (!Off.isAffine())
    return false;
  for (const auto &KV : Off.coefficients())
    if (!KV.second.all([P](int64_t X) { return X % P == 0; }))
      return false;
  int64_t First = Off.constants()[0];
  return Off.constants().all(
      [&](int64_t X) { return ((X - First) % P + P) % P == 0; });
}

/// Whether two accesses' call stacks are one, or differ in their last
/// call only (two calls of one helper from one function, which nvcc inlines
/// into straight-line code).
bool siblingCalls(const std::vector<const clang::CallExpr *> &A,
                  const std::vector<const clang::CallExpr *> &B) {
  if (A.size() != B.size())
    return false;
  if (A.empty() || A == B)
    return true;
  return std::equal(A.begin(), A.end() - 1, B.begin()) &&
         A.back()->getDirectCallee() == B.back()->getDirectCallee();
}

/// Whether \p B can continue a run that \p A ends: see the header. With
/// \p Hidden, a step nvcc cannot see sets it and ends the run.
bool continues(const SharedAccess &A, const SharedAccess &B,
               const KernelTrace &T, const BarrierPositions &Barriers,
               IndexSteps &Steps, bool *Hidden = nullptr) {
  if (B.Kind != A.Kind || B.Width != A.Width ||
      B.Address.Base != A.Address.Base ||
      B.Address.DynamicShared != A.Address.DynamicShared ||
      B.ActiveApprox != A.ActiveApprox ||
      (A.ActiveApprox && A.Stretch != B.Stretch) || B.Volatile || A.Volatile ||
      !B.Matrix.empty() || !A.Matrix.empty() || B.Async || A.Async ||
      B.Active != A.Active || !siblingCalls(A.CallStack, B.CallStack) ||
      !sameUnrolledCopy(A, B, T))
    return false;
  if (Barriers.between(A.Seq, B.Seq))
    return false;
  LaneValue Step = B.Address.Offset - A.Address.Offset;
  std::optional<int64_t> C = Step.asConstant();
  if (!C || *C != int64_t(A.Width))
    return false;
  if (Steps.stepVisible(A, B))
    return true;
  if (Hidden)
    *Hidden = true;
  return false;
}

/// Whether nvcc merges accesses of \p A's kind and element width into
/// pieces of \p Piece bytes in A's array (see the header).
bool mergeable(const SharedAccess &A, unsigned Piece,
               const clang::ASTContext &Ctx) {
  if (A.Kind == AccessKind::Atomic || A.Width >= Piece)
    return false;
  if (A.Width >= 4)
    return true;
  if (A.Width != 2)
    return false;
  if (A.Address.DynamicShared)
    return true;
  // The alignment the source declares (`__align__(16)`, `alignas`) or the
  // element type's: not getDeclAlign, which adds the host ABI's bump for
  // large arrays that nvcc's device code does not have.
  const auto *V = llvm::dyn_cast_or_null<clang::VarDecl>(A.Address.Base);
  if (!V)
    return A.Kind == AccessKind::Store && Piece <= 8;
  int64_t Align = std::max<int64_t>(
      V->getMaxAlignment() / Ctx.getCharWidth(),
      Ctx.getTypeAlignInChars(V->getType()).getQuantity());
  // What the array's alignment does not let NVVM merge, ptxas merges for
  // stores, up to 8 bytes (8 halves become two STS.64).
  return Align >= int64_t(Piece) ||
         (A.Kind == AccessKind::Store && Piece <= 8);
}

/// The widest piece (16, 8 or 4 bytes) nvcc would merge a run of \p Len
/// accesses starting with \p A into, of those whose start \p Fits says
/// suits the piece (alignedTo: merged; shiftAligns: after a shift); 0 for
/// none.
template <typename FitsFn>
unsigned widestPiece(const SharedAccess &A, unsigned Len,
                     const clang::ASTContext &Ctx, FitsFn Fits) {
  for (unsigned Piece : {16u, 8u, 4u}) {
    unsigned N = Piece / A.Width;
    if (N >= 2 && N <= Len && mergeable(A, Piece, Ctx) &&
        Fits(A.Address.Offset, Piece))
      return Piece;
  }
  return 0;
}

/// From \p Begin, the run of accesses that would follow each other but for
/// steps nvcc cannot see: when its start is aligned to a piece nvcc would
/// merge, each of its accesses gets the advice.
void noteHiddenRun(const std::vector<SharedAccess> &As, unsigned Begin,
                   const KernelTrace &T, const BarrierPositions &Barriers,
                   IndexSteps &Steps, const clang::ASTContext &Ctx,
                   std::vector<CompiledAccess> &Out) {
  if (Out[Begin].HiddenPiece) // Inside a run already noted.
    return;
  unsigned End = Begin + 1;
  std::string By;
  for (bool Hidden = false;
       End < As.size() &&
       (continues(As[End - 1], As[End], T, Barriers, Steps, &Hidden) ||
        Hidden);
       ++End, Hidden = false)
    if (Hidden && By.empty())
      By = Steps.hiddenBy();
  unsigned Piece = widestPiece(As[Begin], End - Begin, Ctx, alignedTo);
  if (End - Begin < 2 || !Piece)
    return;
  for (unsigned J = Begin; J < End; ++J) {
    Out[J].HiddenRunLength = End - Begin;
    Out[J].HiddenPiece = Piece;
    Out[J].HiddenBy = By;
  }
}

} // namespace

std::string describe(const CompiledAccess &C, bool Load,
                     const std::string &Array) {
  const char *Kind = Load ? "load" : "store";
  if (C.HiddenPiece)
    return "nvcc keeps this thread's " + std::to_string(C.HiddenRunLength) +
           " adjacent " + Kind + "s of '" + Array + "' apart because " +
           (C.HiddenBy.empty() ? std::string("the index")
                               : "the '" + C.HiddenBy + "' in the index") +
           " hides that they are adjacent: an index whose loop variable " +
           "is only added and multiplied would make them " +
           (C.HiddenRunLength == C.HiddenPiece / C.Width
                ? std::string("one ") + std::to_string(C.HiddenPiece * 8) +
                      "-bit " + Kind
                : std::to_string(C.HiddenPiece * 8) + "-bit " + Kind + "s");
  if (C.AlignedPiece)
    return "nvcc keeps this thread's " + std::to_string(C.RunLength) +
           " adjacent " + Kind + "s of '" + Array + "' apart because the "
           "first is not " + std::to_string(C.AlignedPiece) +
           "-byte aligned in every thread: starting each thread's run at a "
           "multiple of " + std::to_string(C.AlignedPiece) + " bytes would "
           "make them " + std::to_string(C.AlignedPiece * 8) + "-bit " +
           Kind + "s";
  if (!C.merged())
    return "";
  return "nvcc merges this thread's " + std::to_string(C.Count) +
         " adjacent " + Kind + "s of '" + Array + "' into one " +
         std::to_string(C.Width * 8) + "-bit " + Kind + " here";
}

std::vector<CompiledAccess> compiledWidths(const KernelTrace &T,
                                           const clang::ASTContext &Ctx) {
  const std::vector<SharedAccess> &As = T.Accesses;
  std::vector<CompiledAccess> Out(As.size());
  for (unsigned I = 0; I < As.size(); ++I)
    Out[I].Leader = I, Out[I].Width = As[I].Width, Out[I].Count = 1;
  BarrierPositions Barriers(T, /*Counted=*/true);
  IndexSteps Steps(Ctx);

  for (unsigned Begin = 0; Begin < As.size();) {
    unsigned End = Begin + 1;
    bool Hidden = false;
    while (End < As.size() &&
           continues(As[End - 1], As[End], T, Barriers, Steps, &Hidden))
      ++End;
    // A run nvcc would merge but for an index that hides the step: the
    // advice says what would (the accesses stay as they are).
    if (End == Begin + 1 && Hidden)
      noteHiddenRun(As, Begin, T, Barriers, Steps, Ctx, Out);
    // Split [Begin, End) into the widest aligned pieces, from its start.
    for (unsigned I = Begin; I < End;) {
      unsigned Piece = widestPiece(As[I], End - I, Ctx, alignedTo);
      unsigned N = Piece ? Piece / As[I].Width : 1;
      for (unsigned J = I; Piece && J < I + N; ++J)
        Out[J].Leader = I, Out[J].Width = Piece, Out[J].Count = N;
      I += N;
    }
    // A run nothing of which merged: what an aligned start would give.
    bool AnyMerged = false;
    for (unsigned J = Begin; J < End; ++J)
      AnyMerged = AnyMerged || Out[J].merged();
    if (!AnyMerged && End - Begin >= 2)
      if (unsigned Piece =
              widestPiece(As[Begin], End - Begin, Ctx, shiftAligns))
        for (unsigned J = Begin; J < End; ++J) {
          Out[J].RunLength = End - Begin;
          Out[J].AlignedPiece = Piece;
        }
    Begin = End;
  }
  return Out;
}

} // namespace shmem
