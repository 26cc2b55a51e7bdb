//===- Finding.cpp --------------------------------------------------------===//

#include "Finding.h"

namespace shmem {

FindingSink::~FindingSink() = default;

namespace {
struct CheckInfo {
  CheckKind Kind;
  const char *Name;
  const char *Summary;
  const char *Doc;
  OncePolicy Once;
};
const CheckInfo Checks[] = {
#define SHMEM_CHECK(KIND, NAME, DOC, ONCE, RUN, SARIF_NAME, CORRECTNESS,       \
                    SUMMARY, FULL, HELP)                                       \
  {CheckKind::KIND, NAME, SUMMARY, DOC, OncePolicy::ONCE},
#include "Checks.def"
};
static_assert(sizeof(Checks) / sizeof(Checks[0]) == NumCheckKinds);
} // namespace

llvm::StringRef checkName(CheckKind K) {
  return Checks[static_cast<unsigned>(K)].Name;
}

llvm::StringRef checkSummary(CheckKind K) {
  return Checks[static_cast<unsigned>(K)].Summary;
}

llvm::StringRef checkDocPage(CheckKind K) {
  return Checks[static_cast<unsigned>(K)].Doc;
}

OncePolicy checkOncePolicy(CheckKind K) {
  return Checks[static_cast<unsigned>(K)].Once;
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
