//===- Finding.h - What the analyses report, and to whom --------*- C++ -*-===//
//
// Analyses never talk to a front end. They hand each finding to a
// FindingSink; the clang-tidy module, the compiler plugin and the driver each
// implement one (in the spirit of clang's ThreadSafetyHandler).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_FINDING_H
#define SHMEM_LINT_ANALYSIS_FINDING_H

#include "BankPicture.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
}

namespace shmem {

/// Every check shmem-lint has (Checks.def). The name is the same in every
/// front end.
enum class CheckKind {
#define SHMEM_CHECK(KIND, ...) KIND,
#include "Checks.def"
};
constexpr unsigned NumCheckKinds = 0
#define SHMEM_CHECK(...) +1
#include "Checks.def"
    ;

/// "shmem-bank-conflict", ...
llvm::StringRef checkName(CheckKind K);
/// The check of that name, if any.
bool checkFromName(llvm::StringRef Name, CheckKind &K);
/// One-line description of the check (for --list-checks, SARIF rules).
llvm::StringRef checkSummary(CheckKind K);
/// "docs/checks/shmem-bank-conflict.md", relative to the repository root.
llvm::StringRef checkDocPage(CheckKind K);

/// Which finding a location keeps when a check finds it several times (per
/// template instantiation, block shape, call site, or file that includes
/// the same header). Either way it is reported once, and the first found
/// stays on ties.
enum class OncePolicy {
  /// The highest Finding::Weight (the worst conflict, the least coalesced
  /// request).
  Worst,
  /// The first found: a later one says nothing more, so a check may skip
  /// the work at a location already reported.
  First,
};
OncePolicy checkOncePolicy(CheckKind K);

struct FindingNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct Finding {
  CheckKind Check = CheckKind::BankConflict;
  clang::SourceLocation Loc;
  clang::SourceRange Range;
  /// Lowercase, clang style, no trailing period.
  std::string Message;
  std::vector<FindingNote> Notes;
  /// Attached to the warning; only offered where safe.
  std::vector<clang::FixItHint> Fixes;
  /// Multi-line extra detail for verbose output (e.g. the lane->bank map).
  std::string Detail;
  /// shmem-bank-conflict: the warp's lane->bank picture as written and
  /// under the what-if layouts (padded, XOR swizzle), for renderers.
  std::optional<BankPicture> Picture;
  /// How bad the finding is, to keep the worst when one location is found
  /// several times (per template instantiation, block shape or call site).
  unsigned Weight = 0;
};

/// A part of a kernel the core did not analyse: a search that stopped at
/// its budget, a call the walk did not follow. Findings may be missing
/// there, and the project's rule is that what was not analysed is said in
/// every output, so gaps travel beside findings through the same
/// FindingSink. They are not findings: no front end counts one as a
/// warning (see docs/design.md, "Gaps").
struct AnalysisGap {
  /// The check whose analysis stopped short; none when every check's did
  /// (the walk itself).
  std::optional<CheckKind> Check;
  /// The first thing not analysed.
  clang::SourceLocation Loc;
  /// Lowercase, clang style: what was not analysed, and why ("race pairs
  /// after the first 17 not analysed", "probe budget reached"). The
  /// message is both, joined by ": "; report once keys on the reason.
  std::string What, Why;
  /// __device__ calls through which Loc was reached, outermost first (as
  /// SharedAccess::CallStack); empty when Loc is in the kernel's body.
  std::vector<const clang::CallExpr *> CallStack;
  /// Filled by KernelContext::reportGap: the kernel ("transpose<float,
  /// 32>"), the block shape it was analysed for ("32x8"), and notes at the
  /// call, instantiation and kernel that say so.
  std::string Kernel, Block;
  std::vector<FindingNote> Notes;
  /// The gap is a kernel template this file never instantiates (at Loc):
  /// a front end that sees another file of the project instantiate it
  /// drops it (ProjectLaunches.h).
  bool NeverInstantiated = false;

  std::string message() const { return What + ": " + Why; }
};

/// "Report once", the one rule every front end applies through runChecks
/// (per translation unit, keyed by check and location) and the driver again
/// across files (keyed by check and file position): one finding of type
/// \p T (which has a Weight) per key, the first found unless the check's
/// OncePolicy is Worst and a later one weighs more; kept in the order the
/// keys were first found.
template <typename KeyT, typename T> class KeptOnce {
public:
  void add(const KeyT &Key, T F, OncePolicy P) {
    auto [It, New] = Index.try_emplace(Key, Kept.size());
    if (New)
      Kept.push_back(std::move(F));
    else if (P == OncePolicy::Worst && F.Weight > Kept[It->second].Weight)
      Kept[It->second] = std::move(F);
  }
  /// The First policy for records that have no Weight (AnalysisGap).
  void addFirst(const KeyT &Key, T F) {
    if (Index.try_emplace(Key, Kept.size()).second)
      Kept.push_back(std::move(F));
  }
  /// Whether a finding under \p Key would be dropped whatever it weighs.
  bool settled(const KeyT &Key, OncePolicy P) const {
    return P == OncePolicy::First && Index.count(Key);
  }
  std::vector<T> &kept() { return Kept; }

private:
  std::map<KeyT, size_t> Index;
  std::vector<T> Kept;
};

class FindingSink {
public:
  virtual ~FindingSink();
  virtual void report(const Finding &F) = 0;
  /// A part of a kernel not analysed. Not a finding; every front end says
  /// it in its own way (a remark, a SARIF notification), none drops it.
  virtual void reportGap(const AnalysisGap &G) = 0;
};

} // namespace shmem

#endif
