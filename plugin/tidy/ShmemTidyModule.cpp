//===- ShmemTidyModule.cpp - shmem-* checks for clang-tidy ----------------===//
//
// Load with `clang-tidy --load=$(shmem-lint --print-tidy-plugin)`.
//
// One class per entry of Analysis/Checks.def, <Kind>Check, registered under
// the check's name. Each is documented by its registry entry (a summary
// ending with its docs link) and carries that link as DocPage.
//
//===----------------------------------------------------------------------===//

#include "ShmemCheckBase.h"

#include "clang-tidy/ClangTidyModule.h"

namespace shmem {
namespace tidy {

#define SHMEM_CHECK(KIND, NAME, DOC, ...)                                      \
  class KIND##Check : public ShmemCheckBase {                                  \
  public:                                                                      \
    static constexpr const char *DocPage = DOC;                                \
    KIND##Check(llvm::StringRef Name, clang::tidy::ClangTidyContext *C,        \
                std::shared_ptr<SharedRun> Shared)                             \
        : ShmemCheckBase(Name, C, CheckKind::KIND, std::move(Shared)) {}       \
  };
#include "Analysis/Checks.def"

class ShmemTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &F) override {
    // The checks these factories make share one analysis per translation
    // unit.
    auto Shared = std::make_shared<SharedRun>();
#define SHMEM_CHECK(KIND, ...)                                                 \
  F.registerCheckFactory(                                                      \
      checkName(CheckKind::KIND),                                              \
      [Shared](llvm::StringRef Name, clang::tidy::ClangTidyContext *C) {       \
        return std::make_unique<KIND##Check>(Name, C, Shared);                 \
      });
#include "Analysis/Checks.def"
  }
};

} // namespace tidy
} // namespace shmem

static clang::tidy::ClangTidyModuleRegistry::Add<shmem::tidy::ShmemTidyModule>
    X("shmem-module", "Adds shmem-lint's shared-memory checks.");
