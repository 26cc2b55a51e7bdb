//===- Transport.h - JSON-RPC over stdio ------------------------*- C++ -*-===//
//
// LSP's base protocol: each message is a header block ("Content-Length: N",
// other fields ignored) and N bytes of JSON. Reading happens on the main
// thread only; replies and notifications come from the main thread and from
// analysis workers, so sending is serialised.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_LSP_TRANSPORT_H
#define SHMEM_LINT_LSP_TRANSPORT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

namespace shmem::lsp {

class Transport {
public:
  Transport(std::FILE *In, llvm::raw_ostream &Out) : In(In), Out(Out) {}

  /// The next message; std::nullopt at the end of the input. A message
  /// that cannot be read (no Content-Length, not JSON) comes back as null
  /// with the reason in \p Error: the caller answers a ParseError and
  /// reads on.
  std::optional<llvm::json::Value> read(std::string &Error);

  void send(const llvm::json::Value &Message);
  void notify(llvm::StringRef Method, llvm::json::Value Params);
  void reply(const llvm::json::Value &Id, llvm::json::Value Result);
  void replyError(const llvm::json::Value &Id, int Code,
                  llvm::StringRef Message);

private:
  std::FILE *In;
  llvm::raw_ostream &Out;
  std::mutex SendLock;
};

/// JSON-RPC and LSP error codes.
enum ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

} // namespace shmem::lsp

#endif
