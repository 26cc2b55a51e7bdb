//===- AsmEscapeRewrite.h - Inline-asm `%` names clang refuses -*- C++ -*-===//
//
// `asm("mov.u32 %0, %clusterid.x;" : "=r"(rank));` is how Hopper kernels
// (pranjalssh/fast.cu's clustered GEMMs) read PTX's special registers. nvcc
// substitutes the `%N` operands and passes every other `%` to ptxas as
// written; clang refuses the string ("invalid % escape in inline assembly
// string": `%c` is its constant modifier, which must be followed by an
// operand) and drops the statement, so the file was not analysed.
//
// The driver keeps clang's refusal quiet on the first parse, collects
// where it was refused, and parses again with each such `%` doubled, which
// clang reads as the one `%` nvcc passes on: the same instruction. The
// edit is one character inside the string on its own line, so every other
// location in the file is where it was (RewrittenFiles maps the columns of
// that line back).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_ASMESCAPEREWRITE_H
#define SHMEM_LINT_DRIVER_ASMESCAPEREWRITE_H

#include "SharedObjectRewrite.h"

#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace shmem {

/// clang's diagnostic for a `%` in an inline-asm string that names no
/// operand, which the driver maps to a remark on the first parse.
unsigned invalidAsmEscapeDiagnostic();

/// Adds to \p Edits (by the file's absolute path) the doubling of the `%`
/// behind each refusal at \p Escapes (raw-encoded locations of \p SM, as
/// clang reported them: at or after the `%`, in the string's line). False,
/// with \p Why, when one is not in a file's text (a string built by the
/// preprocessor).
bool findAsmEscapeEdits(const clang::SourceManager &SM,
                        llvm::StringRef Directory,
                        const std::set<clang::SourceLocation::UIntTy> &Escapes,
                        std::map<std::string, std::vector<TextEdit>> &Edits,
                        std::string &Why);

} // namespace shmem

#endif // SHMEM_LINT_DRIVER_ASMESCAPEREWRITE_H
