//===- Explain.h - `shmem-lint explain` -------------------------*- C++ -*-===//
//
// Thinking before writing code:
//
//   shmem-lint explain --shape 32x32 --type float --index 'tile[lane][5]'
//                      [--block 32x8] [--store]
//     synthesises a kernel that declares `__shared__ float tile[32][32]`
//     and accesses it as given (with `lane`, `warp` and `tid` defined from
//     the linear thread id), runs it through clang and shmem-bank-conflict
//     with shmem-lint's own CUDA header, and prints the worst warp's
//     lane->bank table, the wavefronts and the degree, and the same after
//     padding the rows and after an XOR swizzle, with their shared-memory
//     cost.
//
//   shmem-lint explain --modulus 8 --step 4
//     the residue lab (lib/Model/ResidueLab.h): the orbit of 0 under adding
//     the step modulo the modulus, and its period; an analogy, said so.
//
// Exit status: 0, or 2 on bad input (with one clear message).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_EXPLAIN_H
#define SHMEM_LINT_DRIVER_EXPLAIN_H

#include "llvm/Support/raw_ostream.h"

namespace shmem {

/// \p Argv0 is the driver's argv[0] (to find its CUDA header); \p Args are
/// the arguments after `explain`.
int runExplain(const char *Argv0, int Argc, const char **Args,
               llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace shmem

#endif
