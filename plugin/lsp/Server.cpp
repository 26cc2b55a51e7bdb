//===- Server.cpp - shmem-lint's language server --------------------------===//

#include "Server.h"
#include "AnalysisQueue.h"
#include "Findings.h"
#include "TextPositions.h"
#include "Transport.h"
#include "Uri.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#ifndef SHMEM_LINT_VERSION
#define SHMEM_LINT_VERSION "0.0.0"
#endif

namespace shmem::lsp {
namespace {

constexpr const char *Usage =
    "USAGE: shmem-lint lsp [--log=FILE] [--debounce=MS] [--timeout=S] [-j N]\n"
    "                      [DRIVER-OPTIONS...] [-- COMPILER-ARGS...]\n"
    "\n"
    "A language server (LSP over stdin/stdout) for editors: analyses each CUDA\n"
    "file on open, on save and after a pause in typing, and publishes the\n"
    "findings, their fix-its as quick fixes and lane->bank pictures on hover.\n"
    "\n"
    "  --log=FILE      append what the server does to FILE (default: errors\n"
    "                  only, on stderr)\n"
    "  --debounce=MS   analyse MS milliseconds after the last change (400)\n"
    "  --timeout=S     stop an analysis after S seconds (300)\n"
    "  -j N            analyse N documents at once (default: one per core)\n"
    "  DRIVER-OPTIONS  shmem-lint's options, given to every analysis, e.g.\n"
    "                  -p build --checks=shmem-* --cuda-path=none\n"
    "Without -p, each file's compile_commands.json is looked for in its\n"
    "folder and the folders above, and in their build/ folders.\n"
    "The client's initializationOptions may add \"arguments\" (more\n"
    "DRIVER-OPTIONS), \"compilationDatabasePath\" and \"debounceMs\".\n";

struct Config {
  std::vector<std::string> Options, CompilerArgs;
  std::chrono::milliseconds Debounce{400};
  std::chrono::seconds Timeout{300};
  unsigned Workers = 0;
  std::string LogFile;
  bool HasCompileDatabase = false;
};

bool namesCompileDatabase(llvm::StringRef A) {
  return A == "-p" || A.starts_with("-p=") ||
         (A.starts_with("-p") && A.size() > 2 && A[2] != '-');
}

/// Parses the server's own options; the rest go to every analysis. Returns
/// false with the reason on \p Err.
bool parseConfig(llvm::ArrayRef<const char *> Args, Config &C,
                 llvm::raw_ostream &Err, bool &Help) {
  auto Fail = [&](const llvm::Twine &Why) {
    Err << "shmem-lint lsp: error: " << Why << "\n";
    return false;
  };
  auto Number = [&](llvm::StringRef Flag, llvm::StringRef V, unsigned Least,
                    unsigned &N) {
    if (V.getAsInteger(10, N) || N < Least)
      return Fail("invalid " + Flag + " '" + V + "'; expected a number" +
                  (Least ? " of at least " + llvm::Twine(Least) : ""));
    return true;
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    unsigned N;
    if (A == "--") {
      C.CompilerArgs.assign(Args.begin() + I, Args.end());
      break;
    }
    if (A == "--help" || A == "-h") {
      Help = true;
    } else if (A.consume_front("--log=")) {
      C.LogFile = A.str();
    } else if (A.consume_front("--debounce=")) {
      if (!Number("--debounce", A, 0, N))
        return false;
      C.Debounce = std::chrono::milliseconds(N);
    } else if (A.consume_front("--timeout=")) {
      if (!Number("--timeout", A, 1, N))
        return false;
      C.Timeout = std::chrono::seconds(N);
    } else if (A == "-j" || A == "--jobs") {
      if (I + 1 == Args.size())
        return Fail(A + " needs a number");
      if (!Number(A, Args[++I], 1, C.Workers))
        return false;
    } else if (A.consume_front("--jobs=") || A.consume_front("-j")) {
      if (!Number("-j", A, 1, C.Workers))
        return false;
    } else if (A == "--format" || A.starts_with("--format=") || A == "-o" ||
               A.starts_with("--export-") || A.starts_with("--baseline") ||
               A.starts_with("--write-baseline") || A == "--stats") {
      return Fail("'" + A + "' chooses an output, which the server owns; "
                  "give it to `shmem-lint` instead");
    } else {
      if (namesCompileDatabase(A))
        C.HasCompileDatabase = true;
      C.Options.push_back(A.str());
    }
  }
  if (!C.Workers)
    C.Workers = std::max(1u, std::thread::hardware_concurrency());
  return true;
}

/// What the server writes about itself: to --log's file, else errors only
/// to stderr (which editors show in the server's output panel).
class Log {
public:
  Log(llvm::raw_ostream &Err, llvm::StringRef File) : Err(Err) {
    if (!File.empty()) {
      std::error_code EC;
      ToFile = std::make_unique<llvm::raw_fd_ostream>(
          File, EC, llvm::sys::fs::OF_Append | llvm::sys::fs::OF_Text);
      if (EC) {
        Err << "shmem-lint lsp: warning: cannot open the log '" << File
            << "': " << EC.message() << "; logging errors to stderr\n";
        ToFile.reset();
      }
    }
  }
  void info(const llvm::Twine &Line) { write(Line, false); }
  void error(const llvm::Twine &Line) { write(Line, true); }

private:
  void write(const llvm::Twine &Line, bool IsError) {
    std::lock_guard<std::mutex> G(Lock);
    if (ToFile) {
      *ToFile << (IsError ? "error: " : "") << Line << "\n";
      ToFile->flush();
    } else if (IsError) {
      Err << "shmem-lint lsp: " << Line << "\n";
      Err.flush();
    }
  }
  llvm::raw_ostream &Err;
  std::unique_ptr<llvm::raw_fd_ostream> ToFile;
  std::mutex Lock;
};

/// The findings of one analysed version of a document.
struct Shown {
  int64_t Version = 0;
  std::vector<DocumentFinding> Findings;
};

struct Document {
  std::string Path;
  std::string Text;
  int64_t Version = 0;
  /// What the client was last sent; hovers and code actions use it while
  /// its version is the document's.
  std::shared_ptr<const Shown> Published;
};

/// The findings of the texts analysed last, by everything that decides
/// them (URI, command, text): reopening a file, or undoing back to a text
/// already analysed, answers at once. A save always analyses again, since
/// a header or the compile database may have changed.
class ResultCache {
public:
  std::shared_ptr<const std::vector<DocumentFinding>>
  find(const std::string &Key) {
    for (auto It = Entries.begin(); It != Entries.end(); ++It)
      if (It->first == Key) {
        Entries.splice(Entries.begin(), Entries, It);
        return Entries.front().second;
      }
    return nullptr;
  }
  void add(std::string Key,
           std::shared_ptr<const std::vector<DocumentFinding>> F) {
    Entries.remove_if([&](const auto &E) { return E.first == Key; });
    Entries.emplace_front(std::move(Key), std::move(F));
    if (Entries.size() > Capacity)
      Entries.pop_back();
  }

private:
  static constexpr size_t Capacity = 16;
  std::list<std::pair<std::string,
                      std::shared_ptr<const std::vector<DocumentFinding>>>>
      Entries;
};

std::string cacheKey(const AnalysisRequest &R) {
  std::string K = R.Uri;
  for (const std::string &A : R.Options)
    (K += '\0') += A;
  K += '\1';
  for (const std::string &A : R.CompilerArgs)
    (K += '\0') += A;
  (K += '\1') += R.Text;
  return K;
}

class Server {
public:
  Server(llvm::StringRef Program, Config C, Transport &T, Log &L)
      : Program(Program), C(std::move(C)), T(T), L(L),
        Queue(Program.str(), this->C.Workers, this->C.Timeout,
              [this](const AnalysisRequest &R, const AnalysisRun &Run) {
                finished(R, Run);
              }) {}

  /// Handles one message; false once the client has said `exit`.
  bool handle(const llvm::json::Value &Message);
  int exitStatus() const { return ShutDown ? 0 : 1; }

private:
  void request(llvm::StringRef Method, const llvm::json::Value &Id,
               const llvm::json::Object *Params);
  void notification(llvm::StringRef Method, const llvm::json::Object *Params);

  llvm::json::Value initialize(const llvm::json::Object *Params);
  void didOpen(const llvm::json::Object &Params);
  void didChange(const llvm::json::Object &Params);
  void didSave(const llvm::json::Object &Params);
  void didClose(const llvm::json::Object &Params);
  llvm::json::Value codeActions(const llvm::json::Object &Params);
  llvm::json::Value hover(const llvm::json::Object &Params);

  /// Asks for an analysis of the document as it is now.
  void analyse(const std::string &Uri, std::chrono::milliseconds Delay,
               bool UseCache);
  void finished(const AnalysisRequest &R, const AnalysisRun &Run);
  void publish(const std::string &Uri, Document &D,
               std::shared_ptr<const Shown> S);
  std::optional<std::string> compileDatabaseFor(llvm::StringRef Path) const;

  std::string Program;
  Config C;
  Transport &T;
  Log &L;
  bool Initialized = false, ShutDown = false;
  std::string Root;

  std::mutex Lock; ///< Documents and Cache: workers publish results.
  std::map<std::string, Document> Documents;
  ResultCache Cache;
  AnalysisQueue Queue; ///< Last: its workers use the members above.
};

llvm::StringRef str(const llvm::json::Object *O, llvm::StringRef Key) {
  std::optional<llvm::StringRef> S = O ? O->getString(Key) : std::nullopt;
  return S ? *S : llvm::StringRef();
}

const llvm::json::Object *obj(const llvm::json::Object *O,
                              llvm::StringRef Key) {
  return O ? O->getObject(Key) : nullptr;
}

bool Server::handle(const llvm::json::Value &Message) {
  const llvm::json::Object *M = Message.getAsObject();
  if (!M) {
    T.replyError(nullptr, InvalidRequest, "a message must be a JSON object");
    return true;
  }
  llvm::StringRef Method = str(M, "method");
  const llvm::json::Value *Id = M->get("id");
  const llvm::json::Object *Params = M->getObject("params");
  if (Method.empty()) {
    // A response to a request of ours: the server sends none that need one.
    if (!Id)
      T.replyError(nullptr, InvalidRequest, "a message without a method");
    return true;
  }
  if (Method == "exit")
    return false;
  if (Id)
    request(Method, *Id, Params);
  else
    notification(Method, Params);
  return true;
}

void Server::request(llvm::StringRef Method, const llvm::json::Value &Id,
                     const llvm::json::Object *Params) {
  if (Method == "initialize") {
    T.reply(Id, initialize(Params));
    return;
  }
  if (!Initialized) {
    T.replyError(Id, ServerNotInitialized, "initialize first");
    return;
  }
  if (Method == "shutdown") {
    ShutDown = true;
    T.reply(Id, nullptr);
  } else if (Method == "textDocument/codeAction") {
    T.reply(Id, Params ? codeActions(*Params) : llvm::json::Array());
  } else if (Method == "textDocument/hover") {
    T.reply(Id, Params ? hover(*Params) : nullptr);
  } else {
    T.replyError(Id, MethodNotFound, ("no method '" + Method + "'").str());
  }
}

void Server::notification(llvm::StringRef Method,
                          const llvm::json::Object *Params) {
  if (!Initialized || !Params)
    return;
  if (Method == "textDocument/didOpen")
    didOpen(*Params);
  else if (Method == "textDocument/didChange")
    didChange(*Params);
  else if (Method == "textDocument/didSave")
    didSave(*Params);
  else if (Method == "textDocument/didClose")
    didClose(*Params);
  // initialized, $/cancelRequest (requests are answered at once),
  // configuration and watched-file changes: nothing to do.
}

llvm::json::Value Server::initialize(const llvm::json::Object *Params) {
  Initialized = true;
  if (std::optional<std::string> P = pathFromUri(str(Params, "rootUri")))
    Root = *P;
  else if (!str(Params, "rootPath").empty())
    Root = str(Params, "rootPath").str();
  if (const llvm::json::Object *O = obj(Params, "initializationOptions")) {
    if (const llvm::json::Array *A = O->getArray("arguments"))
      for (const llvm::json::Value &V : *A)
        if (std::optional<llvm::StringRef> S = V.getAsString()) {
          if (namesCompileDatabase(*S))
            C.HasCompileDatabase = true;
          C.Options.push_back(S->str());
        }
    llvm::StringRef Db = str(O, "compilationDatabasePath");
    if (!Db.empty()) {
      llvm::SmallString<256> Abs(Db);
      if (!Root.empty())
        llvm::sys::path::make_absolute(Root, Abs);
      C.Options.push_back("-p");
      C.Options.push_back(Abs.str().str());
      C.HasCompileDatabase = true;
    }
    if (std::optional<int64_t> Ms = O->getInteger("debounceMs"); Ms && *Ms >= 0)
      C.Debounce = std::chrono::milliseconds(*Ms);
  }
  L.info("initialized; root '" + Root + "', " + llvm::Twine(C.Workers) +
         " workers");
  return llvm::json::Object{
      {"capabilities",
       llvm::json::Object{
           {"textDocumentSync",
            llvm::json::Object{{"openClose", true},
                               {"change", 1}, // Full text on each change.
                               {"save", llvm::json::Object{
                                            {"includeText", false}}}}},
           {"codeActionProvider",
            llvm::json::Object{
                {"codeActionKinds", llvm::json::Array{"quickfix"}}}},
           {"hoverProvider", true}}},
      {"serverInfo",
       llvm::json::Object{{"name", "shmem-lint"},
                          {"version", SHMEM_LINT_VERSION}}}};
}

void Server::didOpen(const llvm::json::Object &Params) {
  const llvm::json::Object *TD = Params.getObject("textDocument");
  std::string Uri = str(TD, "uri").str();
  std::optional<std::string> Path = pathFromUri(Uri);
  if (!Path) {
    L.info("not a file: '" + Uri + "'; not analysed");
    return;
  }
  {
    std::lock_guard<std::mutex> G(Lock);
    Document &D = Documents[Uri];
    D.Path = *Path;
    D.Text = str(TD, "text").str();
    D.Version = TD ? TD->getInteger("version").value_or(0) : 0;
    D.Published.reset();
  }
  analyse(Uri, std::chrono::milliseconds(0), /*UseCache=*/true);
}

void Server::didChange(const llvm::json::Object &Params) {
  const llvm::json::Object *TD = Params.getObject("textDocument");
  std::string Uri = str(TD, "uri").str();
  const llvm::json::Array *Changes = Params.getArray("contentChanges");
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Documents.find(Uri);
    if (It == Documents.end() || !Changes)
      return;
    Document &D = It->second;
    for (const llvm::json::Value &V : *Changes) {
      const llvm::json::Object *Ch = V.getAsObject();
      if (!Ch)
        continue;
      Range R;
      llvm::StringRef NewText = str(Ch, "text");
      if (!fromJson(Ch->get("range"), R)) {
        D.Text = NewText.str(); // The whole text, as the server asked.
        continue;
      }
      // A client that sends ranges anyway: apply them.
      LineTable Table(D.Text);
      size_t B = Table.offsetOf(R.Start), E = Table.offsetOf(R.End);
      if (E < B)
        std::swap(B, E);
      D.Text.replace(B, E - B, NewText.str());
    }
    D.Version = TD ? TD->getInteger("version").value_or(D.Version + 1)
                   : D.Version + 1;
  }
  analyse(Uri, C.Debounce, /*UseCache=*/true);
}

void Server::didSave(const llvm::json::Object &Params) {
  std::string Uri = str(Params.getObject("textDocument"), "uri").str();
  analyse(Uri, std::chrono::milliseconds(0), /*UseCache=*/false);
}

void Server::didClose(const llvm::json::Object &Params) {
  std::string Uri = str(Params.getObject("textDocument"), "uri").str();
  Queue.cancel(Uri);
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!Documents.erase(Uri))
      return;
  }
  T.notify("textDocument/publishDiagnostics",
           llvm::json::Object{{"uri", Uri},
                              {"diagnostics", llvm::json::Array()}});
}

std::optional<std::string>
Server::compileDatabaseFor(llvm::StringRef Path) const {
  // As clangd: the file's folder and those above it, each also with build/.
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(Path); !Dir.empty();
       Dir = llvm::sys::path::parent_path(Dir)) {
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> P(Dir);
      llvm::sys::path::append(P, Sub, "compile_commands.json");
      if (llvm::sys::fs::exists(P))
        return llvm::sys::path::parent_path(P).str();
    }
    if (Dir == llvm::sys::path::root_path(Dir))
      break;
  }
  return std::nullopt;
}

void Server::analyse(const std::string &Uri, std::chrono::milliseconds Delay,
                     bool UseCache) {
  AnalysisRequest R;
  R.Uri = Uri;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Documents.find(Uri);
    if (It == Documents.end())
      return;
    R.Path = It->second.Path;
    R.Text = It->second.Text;
    R.Version = It->second.Version;
  }
  R.Options = C.Options;
  R.CompilerArgs = C.CompilerArgs;
  if (!C.HasCompileDatabase)
    if (std::optional<std::string> Db = compileDatabaseFor(R.Path)) {
      R.Options.push_back("-p");
      R.Options.push_back(*Db);
    }
  if (UseCache) {
    std::lock_guard<std::mutex> G(Lock);
    if (auto Found = Cache.find(cacheKey(R))) {
      auto It = Documents.find(Uri);
      auto S = std::make_shared<Shown>();
      S->Version = R.Version;
      S->Findings = *Found;
      Queue.cancel(Uri); // An older text's run would publish over this.
      // Logged first: a client that reads the log once it has the answer
      // (test/lit/lsp/protocol.test) must find the line there.
      L.info("'" + R.Path + "' version " + llvm::Twine(R.Version) +
             ": from the cache");
      publish(Uri, It->second, std::move(S));
      return;
    }
  }
  Queue.schedule(std::move(R), Delay);
}

void Server::finished(const AnalysisRequest &R, const AnalysisRun &Run) {
  std::string Name =
      "'" + R.Path + "' version " + std::to_string(R.Version);
  if (Run.How == AnalysisRun::Cancelled) {
    L.info(Name + ": cancelled (a newer text or a close)");
    return;
  }
  auto S = std::make_shared<Shown>();
  S->Version = R.Version;
  bool Cacheable = false;
  if (Run.How == AnalysisRun::TimedOut) {
    S->Findings.push_back(notice(
        Severity::Information,
        "shmem-lint did not finish: the analysis took longer than " +
            std::to_string(C.Timeout.count()) +
            " s and was stopped (raise it with `shmem-lint lsp --timeout=S`)"));
    L.error(Name + ": timed out");
  } else if (Run.How == AnalysisRun::NotStarted) {
    S->Findings.push_back(
        failure("cannot run shmem-lint: " + Run.Error, "", R.Path, R.Text));
    L.error(Name + ": cannot run '" + Program + "': " + Run.Error);
  } else {
    llvm::Expected<llvm::json::Value> Report = llvm::json::parse(Run.Stdout);
    if (!Report) {
      llvm::consumeError(Report.takeError());
      Report = llvm::json::Value(llvm::json::Array());
    }
    S->Findings = readReport(*Report, R.Path, R.Text);
    // Exit 2: nothing analysed; 1 with --exit-zero: the file was not
    // analysed (or a finding is an error, which the report says).
    bool NotAnalysed =
        Run.ExitCode == 2 ||
        llvm::StringRef(Run.Stderr).contains("could not be analysed") ||
        Run.ExitCode < 0;
    if (NotAnalysed)
      S->Findings.push_back(failure(
          Run.ExitCode < 0 ? "shmem-lint stopped (exit status " +
                                 std::to_string(Run.ExitCode) + ")"
                           : "see the server's log",
          Run.Stderr, R.Path, R.Text));
    else
      Cacheable = true;
    if (!Run.Stderr.empty())
      (NotAnalysed ? L.error(Name + ":\n" + Run.Stderr)
                   : L.info(Name + ":\n" + Run.Stderr));
    L.info(Name + ": " + std::to_string(S->Findings.size()) +
           " diagnostics in " + std::to_string(Run.Took.count()) + " ms");
  }
  std::lock_guard<std::mutex> G(Lock);
  if (Cacheable)
    Cache.add(cacheKey(R),
              std::make_shared<const std::vector<DocumentFinding>>(
                  S->Findings));
  auto It = Documents.find(R.Uri);
  // A result for a text the editor no longer holds is not shown.
  if (It == Documents.end() || It->second.Version != R.Version)
    return;
  publish(R.Uri, It->second, std::move(S));
}

void Server::publish(const std::string &Uri, Document &D,
                     std::shared_ptr<const Shown> S) {
  llvm::json::Array Diagnostics;
  for (const DocumentFinding &F : S->Findings)
    Diagnostics.push_back(F.Diagnostic);
  D.Published = S;
  T.notify("textDocument/publishDiagnostics",
           llvm::json::Object{{"uri", Uri},
                              {"version", S->Version},
                              {"diagnostics", std::move(Diagnostics)}});
}

/// The document's published findings, when they are for its current text.
template <typename Fn>
llvm::json::Value withFindings(std::mutex &Lock,
                               std::map<std::string, Document> &Documents,
                               const llvm::json::Object &Params,
                               llvm::json::Value None, Fn Use) {
  std::string Uri = str(Params.getObject("textDocument"), "uri").str();
  std::lock_guard<std::mutex> G(Lock);
  auto It = Documents.find(Uri);
  if (It == Documents.end() || !It->second.Published ||
      It->second.Published->Version != It->second.Version)
    return None;
  return Use(*It->second.Published);
}

llvm::json::Value Server::codeActions(const llvm::json::Object &Params) {
  Range Asked;
  bool HasRange = fromJson(Params.get("range"), Asked);
  return withFindings(
      Lock, Documents, Params, llvm::json::Array(), [&](const Shown &S) {
        llvm::json::Array Actions;
        for (const DocumentFinding &F : S.Findings)
          if (!F.Fix.empty() && (!HasRange || F.Where.touches(Asked)))
            Actions.push_back(codeAction(F));
        return llvm::json::Value(std::move(Actions));
      });
}

llvm::json::Value Server::hover(const llvm::json::Object &Params) {
  Position At;
  if (!fromJson(Params.get("position"), At))
    return nullptr;
  return withFindings(
      Lock, Documents, Params, nullptr, [&](const Shown &S) {
        // On a finding's token, that finding; else the first on the line.
        const DocumentFinding *Best = nullptr;
        for (const DocumentFinding &F : S.Findings) {
          if (F.Where.contains(At)) {
            Best = &F;
            break;
          }
          if (!Best && F.Where.Start.Line == At.Line)
            Best = &F;
        }
        if (!Best)
          return llvm::json::Value(nullptr);
        return llvm::json::Value(llvm::json::Object{
            {"contents",
             llvm::json::Object{{"kind", "markdown"},
                                {"value", hoverText(*Best)}}},
            {"range", toJson(Best->Where)}});
      });
}

} // namespace

int runServer(llvm::StringRef Program, llvm::ArrayRef<const char *> Args,
              std::FILE *In, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  Config C;
  bool Help = false;
  if (!parseConfig(Args, C, Err, Help))
    return 2;
  if (Help) {
    Out << Usage;
    return 0;
  }
  Log L(Err, C.LogFile);
  Transport T(In, Out);
  // Last-declared members are destroyed first: the queue's workers stop
  // before the transport and log they use go away.
  auto S = std::make_unique<Server>(Program, std::move(C), T, L);
  for (;;) {
    std::string Error;
    std::optional<llvm::json::Value> M = T.read(Error);
    if (M && !Error.empty()) {
      L.error("bad message: " + Error);
      T.replyError(nullptr, ParseError, Error);
      continue;
    }
    if (!M) {
      L.info("the input ended without `exit`");
      return 1;
    }
    if (!S->handle(*M))
      break;
  }
  return S->exitStatus();
}

} // namespace shmem::lsp
