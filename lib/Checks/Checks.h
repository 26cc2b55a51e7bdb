//===- Checks.h - Run shmem-lint's checks over a translation unit -*- C++ -*-===//
//
// The one entry point every front end calls. It finds the kernels (template
// instantiations included), works out the block shapes each is launched
// with, walks each kernel once per shape, and hands the trace to every
// enabled check. Checks report through the FindingSink only.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_CHECKS_H
#define SHMEM_LINT_CHECKS_CHECKS_H

#include "Analysis/AnalysisOptions.h"
#include "Analysis/Finding.h"
#include "Analysis/KernelTrace.h"
#include "Analysis/ProjectLaunches.h"
#include "Analysis/Program/KernelCFG.h"
#include "CoalescingModel.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>

namespace shmem {

/// How one global access (all its warps) is served.
struct TransferVerdict {
  bool Valid = false;
  /// Some warp needs UncoalescedRatio times its ideal sectors for some
  /// value of the unknowns; Conditional when not for every value.
  bool Uncoalesced = false;
  bool Conditional = false;
  /// " when 'pitch' ≥ 2": the values of the lane-dependent unknowns for
  /// which the access is uncoalesced (empty when unconditional).
  std::string Condition;
  /// The worst warp, at the assignment shown (the large values of the
  /// unknowns when conditional).
  CoalescingResult Result;
  unsigned Warp = 0;
  std::vector<std::optional<int64_t>> Addr;
  /// Values of the lane-dependent unknowns behind Result.
  SymbolBinding Binding;
  /// "successive lanes are 'pitch' elements apart" or "... 128 bytes
  /// apart", when the warp has one stride.
  std::string Stride;
  /// No verdict because the lane-dependent unknowns take this many value
  /// combinations, more than the enumeration's bound (0: not so).
  uint64_t Capped = 0;
};

class OncePerLocation;
class TensorMaps;

/// Everything a check may look at for one kernel and one block shape.
struct KernelContext {
  clang::ASTContext &Ctx;
  const AnalysisOptions &Opts;
  const clang::FunctionDecl *Kernel;
  /// "transpose<float, 32>" for instantiations, else the kernel's name.
  std::string DisplayName;
  const KernelTrace &Trace;
  /// The CFGs of the translation unit's functions, shared by every kernel,
  /// block shape and check.
  ProgramCFGs &Graphs;
  /// analyzeTransfer's verdicts on Trace by global access index: several
  /// checks (and the padding what-if, once per candidate padding) ask for
  /// the same ones, and each enumerates every warp and unknown value.
  mutable std::map<unsigned, TransferVerdict> TransferCache = {};
  /// The tensor maps the host passes to kernels (TMA), when the kernel
  /// makes a bulk tensor copy; null otherwise.
  const TensorMaps *Maps = nullptr;
  /// What runChecks has kept so far in this translation unit.
  const OncePerLocation *Reported = nullptr;

  /// The GPU architecture the kernel is analysed for (80 for sm_80): the
  /// device compilation's target, else AnalysisOptions::GpuArch, else 80.
  unsigned arch() const;

  /// Whether a finding of \p Check at \p Loc would be dropped as already
  /// reported (the check's OncePolicy is First and one is kept there), so
  /// that the check can skip the work of making it.
  bool alreadyReported(CheckKind Check, clang::SourceLocation Loc) const;

  /// Reports \p G, a part of this kernel not analysed, to \p Sink with
  /// the kernel, the block shape and the notes that say them (the call
  /// from the kernel when G.CallStack is set, the instantiation, the
  /// shape) filled in. runChecks keeps one per location and reason.
  void reportGap(FindingSink &Sink, AnalysisGap G) const;
  /// The same, to runChecks' sink: for code that has the context but no
  /// sink (an analysis a check calls, such as ExitedThreadData or the
  /// uniformity a check builds). Kept as FindingSink's are.
  FindingSink *GapSink = nullptr;
  void reportGap(AnalysisGap G) const {
    if (GapSink)
      reportGap(*GapSink, std::move(G));
  }
};

/// Statistics a front end may print (--verbose, benchmarks).
struct RunStats {
  unsigned Kernels = 0;
  unsigned Shapes = 0;
  unsigned SharedAccesses = 0;
  unsigned Barriers = 0;
};

/// The notes every finding ends with, worded once for all checks:
/// "in the call from kernel 'k'" at the call through which the access was
/// reached (\p Call, the outermost one)...
FindingNote kernelCallNote(const KernelContext &K, clang::SourceLocation Call);
/// ... "in instantiation 'k<32>'" at the kernel when it is an instantiation
/// of a template, whose body every instantiation shares (not for an
/// explicit specialization: its body is its own, the location says it)...
void addInstantiationNote(const KernelContext &K,
                          std::vector<FindingNote> &Notes);
/// ... and "analysed for a block of 32x8 threads (launch at k.cu:40)" at
/// the kernel, with \p Detail after the parenthesis and, when the shape
/// was assumed, how to state it.
FindingNote blockShapeNote(const KernelContext &K, llvm::StringRef Detail = "");

/// `tile[3][5]` for byte offset \p Off into the shared variable \p A
/// accesses, as the messages of shmem-race and shmem-divergent-barrier name
/// an element (in Race.cpp).
std::string sharedElementName(const clang::ASTContext &Ctx,
                              const SharedAccess &A, int64_t Off);
/// ", s = 64": the counters of \p T's unrolled loops around \p A.
std::string unrolledIterationValues(const KernelTrace &T,
                                    const SharedAccess &A);
/// "reads", "writes" or "atomically updates": what \p A does, as the
/// messages that name a thread's access say it (in Race.cpp).
const char *accessVerb(const SharedAccess &A);

/// A front end that analyses the files of a project together (the driver):
/// what it hands runChecks and what it gets back (ProjectLaunches.h).
struct ProjectExchange {
  /// The launches other files make of this file's kernels: they are
  /// analysed with those shapes and arguments too.
  const ProjectLaunches *Elsewhere = nullptr;
  /// Filled with what this file launches, defines and instantiates.
  TranslationUnitLaunches *Here = nullptr;
};

/// Run every check enabled in \p Opts over the translation unit, as a file
/// of the project \p Project describes when given.
RunStats runChecks(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
                   FindingSink &Sink, const ProjectExchange &Project = {});

// The checks, one per entry of Analysis/Checks.def. Each lives in
// lib/Checks/<Kind>.cpp.
#define SHMEM_CHECK(KIND, NAME, DOC, ONCE, RUN, ...)                           \
  void RUN(const KernelContext &K, FindingSink &Sink);
#include "Analysis/Checks.def"

//===----------------------------------------------------------------------===//
// Global-side coalescing, shared by shmem-uncoalesced-transfer and the
// bank check's trade-off advice (implemented in TransferVerdict.cpp and
// TransposeAdvice.cpp).
//===----------------------------------------------------------------------===//

/// A warp request touching at least this many times the sectors its bytes
/// need is reported (50% or less of the fetched bytes used). Misalignment
/// alone costs at most one sector per contiguous run and stays below it.
constexpr unsigned UncoalescedRatio = 2;


/// Evaluates \p A over the warps of \p T's block. Unknowns whose
/// coefficient is the same in every lane of a warp shift its request as a
/// whole and are taken as sector-aligned; lane-dependent ones (a row pitch
/// times a lane-dependent row) are enumerated.
TransferVerdict analyzeTransfer(const GlobalAccess &A, const KernelTrace &T);
/// analyzeTransfer of K.Trace's global access \p GIndex, computed once.
const TransferVerdict &analyzeTransfer(const KernelContext &K,
                                       unsigned GIndex);

/// The instances of one global access (unrolled iterations of one
/// expression, in one call context) with the shared access each feeds or
/// drains; parallel vectors of indices into the trace.
struct TransferGroup {
  std::vector<unsigned> Global, Shared;
};
TransferGroup transferGroup(const KernelTrace &T, unsigned GIndex,
                            unsigned SIndex);

/// What re-assigning the work of a TransferGroup to the block's threads
/// costs on both sides: the elements (global address, tile address) stay
/// paired, sorted by global address (ByGlobal) or by tile address, and are
/// handed out instance by instance, warp by warp. Worst warp before and
/// after. Each cost is computed when first asked for: the callers reject
/// most groups on one of them, and the bank side is the dearest.
class Reassignment {
public:
  /// Unknowns are bound as in \p Binding, others with a thread-dependent
  /// coefficient to a large value. \p Padded, when given, is a trace of the
  /// same kernel with the tile padded (same access indices) and provides the
  /// tile addresses.
  Reassignment(const KernelTrace &T, const TransferGroup &Grp, bool ByGlobal,
               const SymbolBinding &Binding,
               const KernelTrace *Padded = nullptr);

  /// False when the group cannot be re-assigned (an offset not affine, a
  /// what-if trace that differs, fewer than two threads); the costs below
  /// are then not to be asked for.
  bool valid() const { return Valid; }
  /// The global side's worst warp (highest sectors / ideal among those with
  /// two active lanes or more; counts only, no SectorList), as assigned now
  /// and re-assigned.
  const CoalescingResult &globalBefore();
  const CoalescingResult &globalAfter();
  /// The tile side's worst conflict degree re-assigned (1: conflict-free).
  unsigned sharedAfter();

private:
  const ThreadGeometry &Geo;
  bool Valid = false, ByGlobal;
  unsigned NInst = 0, Threads = 0, GWidth = 0, SWidth = 0;
  AccessOp SOp = AccessOp::Load;
  /// Per thread: its place among the active threads, or -1.
  std::vector<int> Slot;
  /// Both addresses of each work item: instance K's I-th active thread at
  /// index K * Threads + I.
  std::vector<int64_t> GAddr, SAddr;
  /// The items in re-assigned order; built on first use.
  std::vector<uint32_t> Moved;
  std::optional<CoalescingResult> Before, After;
  std::optional<unsigned> SharedAfter;

  void price(bool Reassigned, CoalescingResult *Global, unsigned *Shared);
};

/// "transpose through 'tile'" advice for an uncoalesced global access
/// (index \p GIndex) linked to the shared access \p SIndex: when giving
/// consecutive lanes consecutive elements makes it coalesced, what that
/// costs on the shared side and which padding of the tile removes it. Empty
/// when re-assigning does not help or no barrier allows it.
std::string transposeAdvice(const KernelContext &K, unsigned GIndex,
                            unsigned SIndex, const TransferVerdict &V);

/// Whether transposeAdvice can give advice for the pair, short of the
/// global access's verdict: the access moves elements one to one with the
/// shared access, a barrier lets the threads that move them change, and
/// re-assigning them makes an uncoalesced request coalesced. Much cheaper
/// than analyzeTransfer, which callers then need only where this holds.
bool transposeApplies(const KernelContext &K, unsigned GIndex,
                      unsigned SIndex);

/// For the bank check: notes at the coalesced global accesses linked to the
/// conflicted shared access \p SIndex that re-assigning lanes to make the
/// shared access conflict-free would make uncoalesced.
std::vector<FindingNote> globalSideNotes(const KernelContext &K,
                                         unsigned SIndex);

/// Whether every global access linked to \p Var is no less coalesced in
/// \p After (a what-if trace, same access order) than in \p Before.
/// \p Before is K.Trace.
bool globalSideNoWorse(const KernelContext &K, const KernelTrace &After,
                       const clang::ValueDecl *Var);

} // namespace shmem

#endif
