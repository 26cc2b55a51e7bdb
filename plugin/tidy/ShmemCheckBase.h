//===- ShmemCheckBase.h - Common part of the clang-tidy checks --*- C++ -*-===//
//
// Each shmem-* clang-tidy check is a thin adapter: it reads its
// CheckOptions into AnalysisOptions, runs the core on the translation unit
// with only itself enabled, and turns findings into clang-tidy diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_TIDY_SHMEMCHECKBASE_H
#define SHMEM_LINT_TIDY_SHMEMCHECKBASE_H

#include "Analysis/AnalysisOptions.h"

#include "clang-tidy/ClangTidyCheck.h"

#include <memory>
#include <vector>

namespace shmem {
namespace tidy {

/// One analysis per translation unit for every enabled shmem-* check: the
/// first check to run walks each kernel once for all of them; the others
/// only report their findings. The module's factories give one to all the
/// checks they make, so it lives as long as they do, with no global state.
struct SharedRun {
  bool Valid = false;
  AnalysisOptions Opts; // Enabled = the kinds computed
  std::vector<Finding> Findings;
  /// What the analysis left out; each check reports those of its own
  /// analysis, and the first enabled check those of every check.
  std::vector<AnalysisGap> Gaps;
};

class ShmemCheckBase : public clang::tidy::ClangTidyCheck {
public:
  ShmemCheckBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
                 CheckKind Kind, std::shared_ptr<SharedRun> Shared);
  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CUDA;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onEndOfTranslationUnit() override;

protected:
  CheckKind Kind;
  AnalysisOptions Options_;
  std::string BlockDimText;
  clang::tidy::ClangTidyContext *TidyContext;
  std::shared_ptr<SharedRun> Shared;
};

} // namespace tidy
} // namespace shmem

#endif
