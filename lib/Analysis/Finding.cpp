//===- Finding.cpp --------------------------------------------------------===//

#include "Finding.h"

namespace shmem {

FindingSink::~FindingSink() = default;

namespace {
struct CheckInfo {
  CheckKind Kind;
  const char *Name;
  const char *Summary;
};
const CheckInfo Checks[] = {
    {CheckKind::BankConflict, "shmem-bank-conflict",
     "shared-memory access whose lanes need more wavefronts than ideal"},
    {CheckKind::DivergentBarrier, "shmem-divergent-barrier",
     "barrier that not every thread of the block (or warp mask) reaches"},
    {CheckKind::Race, "shmem-race",
     "two threads touch one shared word, one writing, with no barrier "
     "between them"},
    {CheckKind::UncoalescedTransfer, "shmem-uncoalesced-transfer",
     "global access feeding or draining shared memory touches more sectors "
     "than needed"},
    {CheckKind::LayoutMismatch, "shmem-layout-mismatch",
     "producer and consumer of a shared tile index it differently"},
};
} // namespace

llvm::StringRef checkName(CheckKind K) {
  return Checks[static_cast<unsigned>(K)].Name;
}

llvm::StringRef checkSummary(CheckKind K) {
  return Checks[static_cast<unsigned>(K)].Summary;
}

bool checkFromName(llvm::StringRef Name, CheckKind &K) {
  for (const CheckInfo &I : Checks)
    if (Name == I.Name) {
      K = I.Kind;
      return true;
    }
  return false;
}

} // namespace shmem
