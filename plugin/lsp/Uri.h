//===- Uri.h - file:// URIs and paths --------------------------*- C++ -*-===//
//
// The language server names documents by URI and runs analyses on paths.
// Only file:// URIs name something shmem-lint can analyse; the others
// (untitled:, git:, ...) are answered with no diagnostics. The other way,
// a path's URI, is the driver's fileUri() (OutputFormats.h).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_LSP_URI_H
#define SHMEM_LINT_LSP_URI_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace shmem::lsp {

/// The absolute path a file:// URI names, percent-decoded; std::nullopt for
/// any other scheme or a malformed escape.
std::optional<std::string> pathFromUri(llvm::StringRef Uri);

} // namespace shmem::lsp

#endif
