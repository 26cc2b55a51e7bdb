//===- Uri.cpp - file:// URIs and paths -----------------------------------===//

#include "Uri.h"

#include "llvm/ADT/StringExtras.h"

namespace shmem::lsp {

std::optional<std::string> pathFromUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  // file://host/path: only the local host is a file here.
  if (Uri.consume_front("localhost")) {
  } else if (!Uri.starts_with("/")) {
    return std::nullopt;
  }
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    char C = Uri[I];
    if (C != '%') {
      Path += C;
      continue;
    }
    if (I + 2 >= Uri.size() || !llvm::isHexDigit(Uri[I + 1]) ||
        !llvm::isHexDigit(Uri[I + 2]))
      return std::nullopt;
    Path += char(llvm::hexFromNibbles(Uri[I + 1], Uri[I + 2]));
    I += 2;
  }
  return Path;
}

} // namespace shmem::lsp
