//===- ShmemTidyModule.cpp - shmem-* checks for clang-tidy ----------------===//
//
// Load with `clang-tidy --load=$(shmem-lint --print-tidy-plugin)`.
//
//===----------------------------------------------------------------------===//

#include "ShmemCheckBase.h"

#include "clang-tidy/ClangTidyModule.h"

namespace shmem {
namespace tidy {

/// Reports shared-memory accesses whose lanes conflict on banks.
/// See docs/checks/shmem-bank-conflict.md
class BankConflictCheck : public ShmemCheckBase {
public:
  BankConflictCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *C)
      : ShmemCheckBase(Name, C, CheckKind::BankConflict) {}
};

/// Reports barriers that not every thread of the block (or warp mask)
/// reaches. See docs/checks/shmem-divergent-barrier.md
class DivergentBarrierCheck : public ShmemCheckBase {
public:
  DivergentBarrierCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *C)
      : ShmemCheckBase(Name, C, CheckKind::DivergentBarrier) {}
};

/// Reports shared-memory races between threads of a block.
/// See docs/checks/shmem-race.md
class RaceCheck : public ShmemCheckBase {
public:
  RaceCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *C)
      : ShmemCheckBase(Name, C, CheckKind::Race) {}
};

/// Reports global loads and stores that feed or drain shared memory and
/// touch more 32-byte sectors per warp request than their bytes need.
/// See docs/checks/shmem-uncoalesced-transfer.md
class UncoalescedTransferCheck : public ShmemCheckBase {
public:
  UncoalescedTransferCheck(llvm::StringRef Name,
                           clang::tidy::ClangTidyContext *C)
      : ShmemCheckBase(Name, C, CheckKind::UncoalescedTransfer) {}
};

/// Reports shared tiles read through a different index layout than they
/// were written with. See docs/checks/shmem-layout-mismatch.md
class LayoutMismatchCheck : public ShmemCheckBase {
public:
  LayoutMismatchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *C)
      : ShmemCheckBase(Name, C, CheckKind::LayoutMismatch) {}
};

class ShmemTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &F) override {
    F.registerCheck<BankConflictCheck>(checkName(CheckKind::BankConflict));
    F.registerCheck<DivergentBarrierCheck>(
        checkName(CheckKind::DivergentBarrier));
    F.registerCheck<RaceCheck>(checkName(CheckKind::Race));
    F.registerCheck<UncoalescedTransferCheck>(
        checkName(CheckKind::UncoalescedTransfer));
    F.registerCheck<LayoutMismatchCheck>(checkName(CheckKind::LayoutMismatch));
  }
};

} // namespace tidy
} // namespace shmem

static clang::tidy::ClangTidyModuleRegistry::Add<shmem::tidy::ShmemTidyModule>
    X("shmem-module", "Adds shmem-lint's shared-memory checks.");
