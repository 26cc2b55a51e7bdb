//===- Server.h - shmem-lint's language server ------------------*- C++ -*-===//
//
//   shmem-lint lsp [--log=FILE] [--debounce=MS] [--timeout=S] [-j N]
//                  [DRIVER-OPTIONS...] [-- COMPILER-ARGS...]
//
// A Language Server Protocol server over stdio that editors run beside
// clangd for CUDA files: it analyses a document when it is opened or saved,
// and after a pause in typing; publishes the findings as diagnostics (notes
// as related locations, parts not analysed as information); offers the
// fix-its as quick fixes; and shows the lane->bank picture on hover. See
// docs/integrations.md, "Editors".
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_LSP_SERVER_H
#define SHMEM_LINT_LSP_SERVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace shmem::lsp {

/// Runs the server on \p In / \p Out until the client says `exit` or the
/// input ends. \p Program is the shmem-lint executable each analysis runs.
/// Returns the exit status: 0 after `shutdown` then `exit`, 1 otherwise, 2
/// for a bad command line (said on \p Err).
int runServer(llvm::StringRef Program, llvm::ArrayRef<const char *> Args,
              std::FILE *In, llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace shmem::lsp

#endif
