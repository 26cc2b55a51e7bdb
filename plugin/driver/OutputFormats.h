//===- OutputFormats.h - Render the findings of one run ---------*- C++ -*-===//
//
// One run of the driver ends with a list of ReportedFinding. This file writes
// it as:
//   text    clang style, `file:line:col: warning: message [check]`, notes as
//           `file:line:col: note: ...`, the source line and a caret when the
//           file can be read, colours like clang's, Detail under --verbose;
//   sarif   SARIF 2.1.0 for GitHub code scanning: every known check as a
//           rule, repo-relative URIs against %SRCROOT%, notes as
//           relatedLocations, fixes, stable partialFingerprints;
//   github  GitHub Actions workflow commands (::warning file=..::message),
//           and a ::notice when there are more than GitHub annotates;
//   gitlab  GitLab Code Quality (a JSON array);
//   json    a plain JSON array with every field;
//   html    a self-contained page with lane->bank pictures (HtmlReport.h).
// and, separately, clang-tidy's --export-fixes YAML for the PR bots that read
// it.
//
// A finding whose check matches --warnings-as-errors (WarningAsError) is an
// error in each: text `error: ... [check,-warnings-as-errors]` as
// clang-tidy prints it, SARIF result level "error", `::error` for GitHub,
// GitLab severity "critical", JSON "level": "error" (findings have
// "level": "warning" otherwise, gaps "remark"), an "error" label in HTML,
// and Level: Error in --export-fixes. Gaps are never promoted.
//
// Fingerprints (SARIF partialFingerprints, GitLab fingerprint, JSON) hash the
// check, the repo-relative path, the message and the trimmed text of the
// finding's source line when the file can be read, but never the line
// number: a finding keeps its fingerprint when lines are added above it. Two
// findings with the same hash in one run get ":1", ":2", ... in file order.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_OUTPUTFORMATS_H
#define SHMEM_LINT_DRIVER_OUTPUTFORMATS_H

#include "ReportedFinding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

enum class OutputFormat { Text, Sarif, GitHub, GitLab, Json, Html };

/// "text", "sarif", "github", "gitlab", "json", "html" (any case). False for
/// anything else, leaving \p F alone.
bool parseOutputFormat(llvm::StringRef Name, OutputFormat &F);
/// The name parseOutputFormat() takes.
llvm::StringRef outputFormatName(OutputFormat F);
/// "text, sarif, github, gitlab, json, html", for --help and error messages.
llvm::StringRef outputFormatNames();

/// Reads a whole file; std::nullopt if it cannot. Used for source lines
/// (text snippets, fingerprints, UTF-16 columns) and byte offsets.
using FileReader =
    std::function<std::optional<std::string>(llvm::StringRef Path)>;

/// Reads from disk.
FileReader diskFileReader();

/// The file:// URI of an absolute path (SARIF's artifacts, the language
/// server's locations), escaping what RFC 3986 requires.
std::string fileUri(llvm::StringRef AbsPath);

/// The 1-based UTF-16 column (SARIF's and LSP's unit) of the 1-based byte
/// column \p Column (clang's) in \p Line; past the line's end, one per byte.
unsigned utf16Column(llvm::StringRef Line, unsigned Column);

struct OutputContext {
  std::string ToolVersion;
  /// Absolute; paths below it are written relative to it (with forward
  /// slashes) and SARIF URIs are relative to %SRCROOT% = this directory.
  std::string RepoRoot;
  bool Color = false;
  bool Verbose = false;
  /// Text: print the source line and a caret under each warning and note.
  bool ShowSource = true;
  std::string DocsBaseUrl =
      "https://github.com/shmem-lint/shmem-lint/blob/main/docs/checks/";
  /// Where source text comes from; unset means diskFileReader().
  FileReader ReadFile;
  /// The findings were compared with a baseline (--baseline): SARIF
  /// results say `"baselineState": "new"`.
  bool AgainstBaseline = false;
};

/// Per finding, the fingerprint every format writes for it (JSON's
/// "fingerprint", GitLab's), unique within \p Findings.
std::vector<std::string>
uniqueFingerprints(llvm::ArrayRef<ReportedFinding> Findings,
                   const OutputContext &Ctx);

/// SARIF's partialFingerprints value ("HASH:N") as uniqueFingerprints()
/// writes the same finding.
std::string uniqueFromPartialFingerprint(llvm::StringRef Partial);

/// \p Gaps, the parts of kernels the analysis left out, are said in every
/// format, after the findings and never as one:
///   text    `file:line:col: remark: message [check]` and its notes;
///   sarif   runs[].invocations[].toolExecutionNotifications, level
///           "warning", descriptor shmem-lint-analysis-gap, the check as
///           associatedRule (executionSuccessful stays true);
///   github  a ::notice annotation each;
///   gitlab  an issue of severity "info", check_name
///           shmem-lint-analysis-gap (Code Quality has no other channel);
///   json    elements of the same array with "kind": "gap" (findings have
///           "kind": "finding") and "for_check" instead of "check";
///   html    a "Not analysed" section.
void writeFindings(llvm::raw_ostream &OS, OutputFormat Format,
                   llvm::ArrayRef<ReportedFinding> Findings,
                   const OutputContext &Ctx,
                   llvm::ArrayRef<ReportedGap> Gaps = {});

/// The name gaps go by where a format needs one (SARIF notification
/// descriptor, GitLab check_name): no check of that name exists.
constexpr const char *AnalysisGapId = "shmem-lint-analysis-gap";

/// Byte offset in a file of a 1-based line and column (clang's columns are
/// byte columns); std::nullopt if unknown.
using OffsetResolver = std::function<std::optional<unsigned>(
    llvm::StringRef File, unsigned Line, unsigned Column)>;

/// An OffsetResolver that reads each file once through \p Read (disk when
/// unset) and counts lines, accepting \n and \r\n line ends.
OffsetResolver fileOffsetResolver(FileReader Read = nullptr);

/// clang-tidy's --export-fixes YAML: MainSourceFile, then one Diagnostics
/// entry per finding (DiagnosticName, DiagnosticMessage {Message, FilePath,
/// FileOffset, Replacements}, Notes, Level: Warning (Error for a warning
/// promoted by --warnings-as-errors, as clang-tidy writes), BuildDirectory).
/// ReportedLocation has no byte offset, so FileOffset comes from \p Offsets
/// (by default fileOffsetResolver(), which reads the file); where it is
/// unknown it is 0, as clang-tidy writes for a diagnostic without a location.
/// \p Gaps follow as entries of Level: Remark, as clang-tidy exports its
/// remarks, named after their check (or AnalysisGapId).
void writeExportFixesYaml(llvm::raw_ostream &OS, llvm::StringRef MainSourceFile,
                          llvm::ArrayRef<ReportedFinding> Findings,
                          llvm::StringRef BuildDirectory = "",
                          OffsetResolver Offsets = nullptr,
                          llvm::ArrayRef<ReportedGap> Gaps = {});

//===----------------------------------------------------------------------===//
// Pieces, public for tests and for the driver's --list-checks
//===----------------------------------------------------------------------===//

/// What SARIF and --list-checks say about a check.
struct CheckDescription {
  std::string Id;               ///< "shmem-bank-conflict"
  std::string Name;             ///< "SharedMemoryBankConflict"
  std::string ShortDescription; ///< One line, from lib/Analysis.
  std::string FullDescription;
  std::string HelpMarkdown;
  /// "docs/checks/shmem-bank-conflict.md"; empty for a check not in the
  /// registry.
  std::string DocPage;
  bool Correctness = false; ///< A bug, not a slowdown (GitLab "major").
};

/// Every check shmem-lint has, in CheckKind order (Analysis/Checks.def).
std::vector<CheckDescription> knownChecks();

/// \p File relative to \p RepoRoot with forward slashes if it is inside it;
/// otherwise \p File normalized (dots removed, forward slashes).
std::string repoRelativePath(llvm::StringRef File, llvm::StringRef RepoRoot);

/// The fingerprint described above, without the ":N" suffix.
std::string findingFingerprint(const ReportedFinding &F,
                               const OutputContext &Ctx);

/// Warnings GitHub turns into annotations in one workflow step.
constexpr size_t GitHubAnnotationsPerStep = 10;

/// GitHub workflow command escaping: the message, and property values.
std::string escapeGitHubData(llvm::StringRef S);
std::string escapeGitHubProperty(llvm::StringRef S);

} // namespace shmem

#endif
