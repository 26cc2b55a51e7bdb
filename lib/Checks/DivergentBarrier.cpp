//===- DivergentBarrier.cpp - shmem-divergent-barrier ---------------------===//
// Being written (issue 4): reports nothing yet.
#include "Checks.h"
namespace shmem {
void checkDivergentBarriers(const KernelContext &, FindingSink &) {}
} // namespace shmem
