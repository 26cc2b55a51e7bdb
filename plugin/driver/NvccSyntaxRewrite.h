//===- NvccSyntaxRewrite.h - Syntax nvcc accepts, clang refuses -*- C++ -*-===//
//
// Two spellings nvcc's front end accepts and clang's parser refuses, each
// of which made a whole file go unanalysed:
//
// - launch chevrons with blanks inside, `k << < blocks, threads >> > (args);`
//   (Rodinia's particlefilter). nvcc reads `<< <` and `>> >` as `<<<` and
//   `>>>`; clang lexes `<<<` as one token only when the characters touch,
//   sees a shift followed by `<`, and says "expected expression".
// - inline-asm operands with no comma between them,
//   `::"r"(reg_val) "l"(arrived)` (cuda-samples'
//   conjugateGradientMultiDeviceCG). nvcc takes them as two operands (the
//   PTX it emits names both); clang says "expected ')'".
//
// The driver keeps clang's refusal quiet on the first parse, notes here the
// edits that write the code as nvcc reads it, and parses again. An edit
// only removes blanks inside one line or inserts one comma, so every other
// line is where it was (RewrittenFiles maps the columns of an edited line
// back). Neither spelling is C++ (`<` cannot start an operand; an asm
// operand is followed by `,`, `:` or `)`), so no well-formed code is
// touched; a closing `>> >`, which is C++ where it ends nested template
// arguments, is joined only after an opening chevron of the same statement
// or where clang refused it.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_NVCCSYNTAXREWRITE_H
#define SHMEM_LINT_DRIVER_NVCCSYNTAXREWRITE_H

#include "SharedObjectRewrite.h"

#include "clang/Basic/Diagnostic.h"

#include <map>
#include <string>
#include <vector>

namespace shmem {

/// Whether \p Info is clang's refusal of one of the spellings above. If so,
/// adds to \p Edits (by the file's absolute path, against \p Directory) the
/// edits that write it as nvcc reads it: for an opening chevron, its
/// closing one's too.
bool addNvccSyntaxEdits(const clang::Diagnostic &Info,
                        llvm::StringRef Directory,
                        std::map<std::string, std::vector<TextEdit>> &Edits);

} // namespace shmem

#endif // SHMEM_LINT_DRIVER_NVCCSYNTAXREWRITE_H
