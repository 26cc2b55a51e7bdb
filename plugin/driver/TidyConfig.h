//===- TidyConfig.h - shmem-* settings from .clang-tidy files ---*- C++ -*-===//
//
// A project configures clang-tidy and the shmem-lint driver once: the driver
// reads the `Checks:` and `WarningsAsErrors:` globs and the `shmem-*`
// `CheckOptions` of the
// .clang-tidy that clang-tidy would use for a file (the nearest one in the
// file's directory or above; `InheritParentConfig: true` merges the next one
// up). Command-line flags override what the files say.
//
// Accepted shapes, as clang-tidy 22 accepts them:
//   Checks: '-*,shmem-*'            Checks: >          Checks: [ -*, shmem-* ]
//                                     -*,
//                                     shmem-*
//   CheckOptions:                   CheckOptions:
//     - key: shmem-race.BlockDim      shmem-race.BlockDim: 32x8
//       value: 32x8
//
// `WarningsAsErrors:` takes the same shapes as `Checks:`. Other keys
// (HeaderFilterRegex, ...) are ignored. Options
// of other checks are ignored; a shmem-* option that does not exist is
// reported, as a misspelt key would otherwise silently do nothing.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_TIDYCONFIG_H
#define SHMEM_LINT_DRIVER_TIDYCONFIG_H

#include "Analysis/AnalysisOptions.h"
#include "Analysis/CheckSelection.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <bitset>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shmem {

/// What shmem-lint reads from one .clang-tidy file.
struct TidyConfigFile {
  /// The `Checks:` globs, split at commas and new lines, in order.
  std::optional<std::vector<std::string>> Checks;
  /// The `WarningsAsErrors:` globs, split the same way.
  std::optional<std::vector<std::string>> WarningsAsErrors;
  /// Every `CheckOptions` entry, in file order.
  std::vector<std::pair<std::string, std::string>> CheckOptions;
  bool InheritParentConfig = false;
};

/// Parses the text of a .clang-tidy file. Returns false with \p Error set when
/// it is not YAML or its `Checks:`/`CheckOptions:` have an unexpected shape.
bool parseTidyConfig(llvm::StringRef Text, TidyConfigFile &Out,
                     std::string &Error);

/// The globs of a clang-tidy check list: split at ',' and new lines, each
/// trimmed, empty ones dropped.
std::vector<std::string> splitCheckGlobs(llvm::StringRef Checks);

/// The configuration in force for one file: the files it came from merged,
/// outermost first.
struct TidyConfig {
  /// The .clang-tidy files read, outermost first; empty when none applies.
  std::vector<std::string> Files;
  /// Concatenated `Checks:` globs, outermost first (later globs win).
  std::vector<std::string> CheckGlobs;
  bool HasChecks = false;
  /// Concatenated `WarningsAsErrors:` globs, outermost first, as clang-tidy
  /// merges them; empty when no file says any (nothing is promoted).
  std::vector<std::string> WarningsAsErrorsGlobs;
  /// `CheckOptions`, inner files overriding outer ones.
  std::map<std::string, std::string> Options;
  /// Files that could not be read or parsed: "F: why".
  std::vector<std::string> Errors;
};

/// Finds and reads the .clang-tidy files for source files, caching each
/// directory's answer. Not thread-safe: the driver uses it while it plans the
/// run, before any worker starts.
class TidyConfigFinder {
public:
  /// Reads a file; std::nullopt when it does not exist or cannot be read.
  using Reader =
      std::function<std::optional<std::string>(llvm::StringRef Path)>;
  /// \p Read defaults to reading from disk.
  explicit TidyConfigFinder(Reader Read = nullptr);

  /// The configuration for the source file \p AbsFile (an absolute path).
  const TidyConfig &forFile(llvm::StringRef AbsFile);
  /// The configuration of one explicitly named file (--config-file), with its
  /// parents when it says InheritParentConfig.
  const TidyConfig &forConfigFile(llvm::StringRef Path);

private:
  const TidyConfig &forDirectory(llvm::StringRef Dir);
  std::unique_ptr<TidyConfig> load(llvm::StringRef ConfigPath,
                                   const std::string &Text);

  Reader Read;
  std::map<std::string, std::unique_ptr<TidyConfig>> Cache;
};

/// Per-check analysis options and which checks run.
struct CheckSettings {
  std::array<AnalysisOptions, NumCheckKinds> PerCheck;
  std::bitset<NumCheckKinds> Enabled;
};

/// Applies the `shmem-<check>.<Option>` entries of \p Options (as
/// ShmemCheckBase reads them: WarpSize and BlockDim for every check, and
/// each check's own options of lib/Analysis/CheckOptions.def) to
/// \p PerCheck. Bad values and unknown shmem-* options are left out, each
/// with a message in \p Warnings; other checks' options are ignored.
void applyCheckOptions(const std::map<std::string, std::string> &Options,
                       std::array<AnalysisOptions, NumCheckKinds> &PerCheck,
                       std::vector<std::string> &Warnings);

/// The runChecks() calls that cover the enabled checks: one per distinct
/// warp size and block shape among them (the settings the kernel walk
/// depends on); check-specific options come from the check they belong to.
std::vector<AnalysisOptions> planAnalysisRuns(const CheckSettings &S);

} // namespace shmem

#endif
