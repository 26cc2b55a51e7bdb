//===- Findings.h - The driver's report as LSP diagnostics -----*- C++ -*-===//
//
// The server runs `shmem-lint --format=json` on a document and turns each
// element of the report into what LSP shows: a diagnostic (with its notes
// as related information), the fix-its as text edits for a code action,
// and the lane->bank picture for a hover. Positions are converted against
// the text that was analysed, which is the only text they are right for.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_LSP_FINDINGS_H
#define SHMEM_LINT_LSP_FINDINGS_H

#include "TextPositions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace shmem::lsp {

/// LSP's DiagnosticSeverity.
enum class Severity { Error = 1, Warning = 2, Information = 3 };

struct FileEdit {
  std::string Uri;
  Range Where;
  std::string NewText;
};

/// One finding of one analysed version of a document.
struct DocumentFinding {
  Range Where;
  Severity Level = Severity::Warning;
  std::string Code; ///< The check, or the name of a gap or a failure.
  std::string Message;
  /// The lane->bank picture (bank conflicts), empty for other checks.
  std::string Detail;
  /// The diagnostic as published, notes included.
  llvm::json::Value Diagnostic = nullptr;
  /// The fix-its, applied together; empty when there is none.
  std::vector<FileEdit> Fix;
  std::string FixTitle;
};

/// The report's elements that concern the document \p Path, whose analysed
/// text is \p Text. A finding in another file (a kernel in an included
/// header) is shown at the `#include` of that file, its message naming the
/// place. Other files' positions are converted against their text on disk,
/// which is what the analysis read.
std::vector<DocumentFinding> readReport(const llvm::json::Value &Report,
                                        llvm::StringRef Path,
                                        llvm::StringRef Text);

/// The diagnostic for an analysis that did not complete: the first
/// `error:` line of its messages, at its place when that is in the
/// document, else at the top.
DocumentFinding failure(llvm::StringRef Why, llvm::StringRef Messages,
                        llvm::StringRef Path, llvm::StringRef Text);

/// A diagnostic about the analysis itself, at the top of the document.
DocumentFinding notice(Severity Level, std::string Message);

/// Hover text (markdown) for a finding.
std::string hoverText(const DocumentFinding &F);

/// The LSP CodeAction that applies a finding's fix-its.
llvm::json::Value codeAction(const DocumentFinding &F);

} // namespace shmem::lsp

#endif
