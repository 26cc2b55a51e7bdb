//===- Transport.cpp - JSON-RPC over stdio --------------------------------===//

#include "Transport.h"

#include "llvm/ADT/StringExtras.h"

namespace shmem::lsp {

std::optional<llvm::json::Value> Transport::read(std::string &Error) {
  // The header block: lines up to an empty one.
  std::optional<size_t> Length;
  bool SawHeader = false;
  char Line[1024];
  for (;;) {
    if (!std::fgets(Line, sizeof Line, In))
      return std::nullopt;
    llvm::StringRef L = llvm::StringRef(Line).rtrim("\r\n");
    if (L.empty()) {
      if (SawHeader)
        break;
      continue; // Blank lines between messages.
    }
    SawHeader = true;
    auto [Name, Value] = L.split(':');
    size_t N;
    if (Name.trim().equals_insensitive("Content-Length") &&
        !Value.trim().getAsInteger(10, N))
      Length = N;
  }
  if (!Length) {
    Error = "a message without Content-Length";
    return llvm::json::Value(nullptr);
  }
  std::string Body(*Length, '\0');
  if (std::fread(Body.data(), 1, *Length, In) != *Length)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Body);
  if (V)
    return std::move(*V);
  Error = "not JSON: " + llvm::toString(V.takeError());
  return llvm::json::Value(nullptr);
}

void Transport::send(const llvm::json::Value &Message) {
  std::string Body;
  llvm::raw_string_ostream(Body) << Message;
  std::lock_guard<std::mutex> G(SendLock);
  Out << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  Out.flush();
}

void Transport::notify(llvm::StringRef Method, llvm::json::Value Params) {
  send(llvm::json::Object{
      {"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

void Transport::reply(const llvm::json::Value &Id, llvm::json::Value Result) {
  send(llvm::json::Object{
      {"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Transport::replyError(const llvm::json::Value &Id, int Code,
                           llvm::StringRef Message) {
  send(llvm::json::Object{
      {"jsonrpc", "2.0"},
      {"id", Id},
      {"error", llvm::json::Object{{"code", Code}, {"message", Message}}}});
}

} // namespace shmem::lsp
