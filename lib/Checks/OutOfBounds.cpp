//===- OutOfBounds.cpp - shmem-out-of-bounds ------------------------------===//
//
// A shared access past the extent of the variable it indexes: for the
// block shape the kernel runs with, some thread's bytes fall before the
// start of the array or after its end. compute-sanitizer's memcheck finds
// such an access at run time only when it leaves the block's shared window
// (one past one array usually lands in the next, silently); here every
// access the walk evaluated is checked against its own variable, with the
// thread, the element and the iteration.
//
// The claim needs exact facts: the threads that run the access (no
// approximate mask) and each one's byte offset (a concrete value, as in
// unrolled loops; an offset with an unknown, such as a loop's symbolic
// iteration or data, is not judged), under a shape the source states (a
// launch, an annotation, __launch_bounds__): an assumed shape makes
// thread-indexed tiles look too small. Dynamic shared memory (extern
// __shared__) has the extent its launches give, when every launch with the
// shape gives a constant size.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "ThreadSets.h"
#include "TmaTiles.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

#include <set>
#include <sstream>

using namespace clang;

namespace shmem {
namespace {

class OutOfBoundsChecker {
public:
  OutOfBoundsChecker(const KernelContext &K, FindingSink &Sink)
      : K(K), T(K.Trace), Sink(Sink) {}

  void run() {
    // A TMA copy's extent is the tensor map's, whatever the block shape.
    for (const TmaTile &Tile : tmaTiles(K))
      checkTma(Tile);
    if (T.GeometryAssumed)
      return;
    // One finding per access site: its first instance out of bounds.
    std::set<std::pair<const Expr *, std::vector<const CallExpr *>>> Done;
    for (const SharedAccess &A : T.Accesses) {
      if (Done.count({A.E, A.CallStack}))
        continue;
      if (check(A))
        Done.insert({A.E, A.CallStack});
    }
  }

private:
  const KernelContext &K;
  const KernelTrace &T;
  FindingSink &Sink;

  /// The variable's size in bytes, when the source gives one: its type's,
  /// or for dynamic shared memory the size the launches give.
  std::optional<int64_t> extent(const PointerValue &P) const {
    const auto *VD = dyn_cast_or_null<VarDecl>(P.Base);
    if (!VD)
      return std::nullopt;
    if (P.DynamicShared)
      return T.DynamicSharedBytes;
    QualType Ty = VD->getType();
    if (Ty->isIncompleteType() || Ty->isDependentType() ||
        Ty->isIncompleteArrayType())
      return std::nullopt;
    return K.Ctx.getTypeSizeInChars(Ty).getQuantity();
  }

  bool check(const SharedAccess &A) {
    if (A.ActiveApprox || !A.Matrix.empty() || !A.Address.isShared() ||
        !A.Address.Offset.isConcrete())
      return false;
    std::optional<int64_t> Size = extent(A.Address);
    if (!Size || *Size <= 0)
      return false;
    const Lanes &Off = A.Address.Offset.constants();
    unsigned N = T.Geometry.threads();
    std::vector<char> Outside(N, 0);
    int First = -1;
    for (unsigned Th = 0; Th < N && Th < A.Active.size(); ++Th)
      if (A.Active[Th] && (Off[Th] < 0 || Off[Th] + A.Width > *Size)) {
        Outside[Th] = 1;
        if (First < 0)
          First = int(Th);
      }
    if (First < 0)
      return false;
    report(A, unsigned(First), Off[First], *Size, Outside);
    return true;
  }

  /// A TMA copy writes the whole box in the layout its tensor map gives,
  /// rows of at least the swizzle span (measured: an 8-row box of 64-byte
  /// rows with SWIZZLE_128B touches 1024 bytes), from its destination on.
  void checkTma(const TmaTile &Tile) {
    const TmaBoxLayout *L = Tile.layout();
    const auto *VD = dyn_cast_or_null<VarDecl>(Tile.Var);
    if (!L || !VD || !Tile.DstByte)
      return;
    const BulkCopyEvent &C = T.BulkCopies[Tile.Copy];
    std::optional<int64_t> Size = extent(*C.Dst);
    int64_t Dst = *Tile.DstByte, Foot = int64_t(L->footprint());
    if (!Size || *Size <= 0 || (Dst >= 0 && Dst + Foot <= *Size))
      return;
    std::string Name = VD->getNameAsString();
    std::ostringstream Msg;
    Msg << tmaCopyName(K, Tile) << " writes " << Foot << " bytes into '"
        << Name << "' from byte " << Dst << " (" << L->rows() << " rows of "
        << L->pitch() << " bytes";
    if (L->pitch() > uint64_t(L->cols()) * L->ElemBytes)
      Msg << "; a box row of " << L->cols() * L->ElemBytes
          << " bytes still takes the whole " << swizzleSpan(L->Swizzle)
          << "-byte span of " << swizzleName(L->Swizzle);
    Msg << "), " << Dst + Foot - *Size << " bytes past the end of '" << Name
        << "'";
    if (C.Dst->DynamicShared)
      Msg << " (the " << *Size
          << " bytes of dynamic shared memory the launch gives)";
    else
      Msg << " (" << *Size << " bytes, '"
          << VD->getType().getAsString(K.Ctx.getPrintingPolicy()) << "')";
    Finding F;
    F.Check = CheckKind::OutOfBounds;
    F.Loc = kernelSite(C.Loc, C.CallStack);
    F.Message = Msg.str();
    F.Notes.push_back({VD->getLocation(), "'" + Name + "' is declared here"});
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    Sink.report(F);
  }

  void report(const SharedAccess &A, unsigned Th, int64_t Off, int64_t Size,
              const std::vector<char> &Outside) {
    const SourceManager &SM = K.Ctx.getSourceManager();
    const auto *VD = cast<VarDecl>(A.Address.Base);
    std::string Name = VD->getNameAsString();
    std::ostringstream Msg;
    Msg << T.Geometry.describeThread(Th) << " " << accessVerb(A) << " "
        << sharedElementName(K.Ctx, A, Off) << " (line "
        << SM.getExpansionLineNumber(A.Loc) << unrolledIterationValues(T, A)
        << "), ";
    if (Off < 0)
      Msg << -Off << " bytes before the start of '" << Name << "'";
    else if (Off >= Size)
      Msg << Off - Size << " bytes past the end of '" << Name << "'";
    else
      Msg << "whose last " << Off + A.Width - Size << " of " << A.Width
          << " bytes are past the end of '" << Name << "'";
    unsigned Count = std::count(Outside.begin(), Outside.end(), 1);
    if (A.Address.DynamicShared)
      Msg << " (the " << Size
          << " bytes of dynamic shared memory the launch gives)";
    else
      Msg << " (" << Size << " bytes, '"
          << VD->getType().getAsString(K.Ctx.getPrintingPolicy()) << "')";
    Msg << "; " << Count << " of the threads that run it "
        << (Count == 1 ? "accesses" : "access")
        << " outside it: " << divergent::describeThreads(Outside, T.Geometry);
    Finding F;
    F.Check = CheckKind::OutOfBounds;
    F.Loc = A.Loc;
    F.Range = A.E->getSourceRange();
    F.Message = Msg.str();
    F.Notes.push_back({VD->getLocation(), "'" + Name + "' is declared here"});
    if (!A.CallStack.empty())
      F.Notes.push_back(kernelCallNote(K, A.CallStack.front()->getExprLoc()));
    addInstantiationNote(K, F.Notes);
    F.Notes.push_back(blockShapeNote(K));
    F.Weight = Count;
    Sink.report(F);
  }
};

} // namespace

void checkOutOfBounds(const KernelContext &K, FindingSink &Sink) {
  OutOfBoundsChecker(K, Sink).run();
}

} // namespace shmem
