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

#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// Every check shmem-lint has. The name is the same in every front end.
enum class CheckKind {
  BankConflict,
  DivergentBarrier,
  Race,
  UncoalescedTransfer,
  LayoutMismatch,
};
constexpr unsigned NumCheckKinds = 5;

/// "shmem-bank-conflict", ...
llvm::StringRef checkName(CheckKind K);
/// The check of that name, if any.
bool checkFromName(llvm::StringRef Name, CheckKind &K);
/// One-line description of the check (for --list-checks, SARIF rules).
llvm::StringRef checkSummary(CheckKind K);

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

class FindingSink {
public:
  virtual ~FindingSink();
  virtual void report(const Finding &F) = 0;
};

} // namespace shmem

#endif
