//===- ResidueLabPage.h - The residue lab as a page --------------*- C++ -*-===//
//
//   shmem-lint explain --modulus M --step S --format=html
//
// The residue lab (lib/Model/ResidueLab.h) as something to step through:
// Reset, modulus and step inputs, a predicted period, Step; the page says
// whether the prediction was right once the walk returns to 0, and that it
// is an analogy.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_RESIDUELABPAGE_H
#define SHMEM_LINT_DRIVER_RESIDUELABPAGE_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace shmem {

/// Writes the self-contained page, starting at \p Modulus and \p Step.
void writeResidueLabPage(llvm::raw_ostream &Out, uint64_t Modulus,
                         int64_t Step);

} // namespace shmem

#endif
