//===- AnalysisQueue.cpp - Analyses of documents, one process each --------===//

#include "AnalysisQueue.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <optional>
#ifndef _WIN32
#include <sys/types.h>
#endif

namespace shmem::lsp {

AnalysisQueue::AnalysisQueue(std::string Program, unsigned N,
                             std::chrono::seconds Timeout, Done OnDone)
    : Program(std::move(Program)), Timeout(Timeout),
      OnDone(std::move(OnDone)) {
  for (unsigned I = 0; I < std::max(N, 1u); ++I)
    Workers.emplace_back([this] { work(); });
}

AnalysisQueue::~AnalysisQueue() {
  {
    std::lock_guard<std::mutex> G(Lock);
    Stopping = true;
    Queue.clear();
    for (auto &[Uri, Cancel] : Running)
      *Cancel = true;
  }
  Wake.notify_all();
  for (std::thread &T : Workers)
    T.join();
}

void AnalysisQueue::schedule(AnalysisRequest R,
                             std::chrono::milliseconds Delay) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Running.find(R.Uri);
    if (It != Running.end())
      *It->second = true; // Its text is stale now.
    std::string Uri = R.Uri;
    Queue[Uri] = {std::move(R), Clock::now() + Delay};
  }
  Wake.notify_all();
}

void AnalysisQueue::cancel(const std::string &Uri) {
  std::lock_guard<std::mutex> G(Lock);
  Queue.erase(Uri);
  auto It = Running.find(Uri);
  if (It != Running.end())
    *It->second = true;
}

void AnalysisQueue::work() {
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    if (Stopping)
      return;
    // The request due first among the documents not running now.
    auto Next = Queue.end();
    for (auto It = Queue.begin(); It != Queue.end(); ++It)
      if (!Running.count(It->first) &&
          (Next == Queue.end() || It->second.NotBefore < Next->second.NotBefore))
        Next = It;
    if (Next == Queue.end()) {
      Wake.wait(G);
      continue;
    }
    if (Next->second.NotBefore > Clock::now()) {
      Wake.wait_until(G, Next->second.NotBefore);
      continue;
    }
    AnalysisRequest R = std::move(Next->second.Request);
    Queue.erase(Next);
    auto Cancel = std::make_shared<std::atomic<bool>>(false);
    Running[R.Uri] = Cancel;
    G.unlock();
    AnalysisRun Result = run(R, *Cancel);
    OnDone(R, Result);
    G.lock();
    Running.erase(R.Uri);
    // A request for this document may have waited for this run to end.
    Wake.notify_all();
  }
}

namespace {

/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> Path;
  bool make(llvm::StringRef Prefix, llvm::StringRef Suffix) {
    int FD;
    if (llvm::sys::fs::createTemporaryFile(Prefix, Suffix, FD, Path))
      return false;
    llvm::sys::fs::closeFile(FD);
    return true;
  }
  bool write(llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return false;
    OS << Text;
    return !OS.has_error();
  }
  std::string read() const {
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    return Buf ? (*Buf)->getBuffer().str() : std::string();
  }
  ~TempFile() {
    if (!Path.empty())
      llvm::sys::fs::remove(Path);
  }
};

} // namespace

AnalysisRun AnalysisQueue::run(const AnalysisRequest &R,
                               const std::atomic<bool> &Cancel) {
  AnalysisRun Out;
  auto Start = Clock::now();
  // The editor's text, laid over the file under its own name with a clang
  // VFS overlay: includes relative to the file, its .clang-tidy and its
  // compile command all stay the file's.
  TempFile Text, Overlay, Stdout, Stderr;
  if (!Text.make("shmem-lint-lsp", "cu") || !Text.write(R.Text) ||
      !Overlay.make("shmem-lint-lsp", "yaml") ||
      !Stdout.make("shmem-lint-lsp", "json") ||
      !Stderr.make("shmem-lint-lsp", "txt")) {
    Out.Error = "cannot write temporary files";
    return Out;
  }
  llvm::json::Value Yaml = llvm::json::Object{
      {"version", 0},
      {"use-external-names", false},
      {"roots", llvm::json::Array{llvm::json::Object{
                    {"name", R.Path},
                    {"type", "file"},
                    {"external-contents", Text.Path.str()}}}}};
  std::string YamlText;
  llvm::raw_string_ostream(YamlText) << Yaml; // JSON is YAML.
  if (!Overlay.write(YamlText)) {
    Out.Error = "cannot write temporary files";
    return Out;
  }
  std::vector<std::string> Args = {Program, "--format=json", "--no-progress",
                                    "--no-color", "--exit-zero", "-j1"};
  Args.insert(Args.end(), R.Options.begin(), R.Options.end());
  Args.push_back("--vfsoverlay=" + Overlay.Path.str().str());
  Args.push_back(R.Path);
  Args.insert(Args.end(), R.CompilerArgs.begin(), R.CompilerArgs.end());
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), Stdout.Path.str(), Stderr.Path.str()};
  bool Failed = false;
  llvm::sys::ProcessInfo PI = llvm::sys::ExecuteNoWait(
      Program, ArgRefs, std::nullopt, Redirects, 0, &Out.Error, &Failed);
  if (Failed || PI.Pid == llvm::sys::ProcessInfo::InvalidPid) {
    if (Out.Error.empty())
      Out.Error = "cannot run '" + Program + "'";
    return Out;
  }
  // Poll, so that a cancel or the timeout can kill the child before it is
  // reaped (a kill after the wait could hit a reused process id).
  for (;;) {
    llvm::sys::ProcessInfo W =
        llvm::sys::Wait(PI, /*SecondsToWait=*/0, &Out.Error,
                        /*ProcStat=*/nullptr, /*Polling=*/true);
    if (W.Pid == PI.Pid) {
      Out.How = AnalysisRun::Finished;
      Out.ExitCode = W.ReturnCode;
      break;
    }
    if (W.Pid != 0) { // waitpid failed: nothing left to wait for.
      Out.How = AnalysisRun::NotStarted;
      break;
    }
    bool Late = Clock::now() - Start > Timeout;
    if (Cancel || Late) {
#ifndef _WIN32
      ::kill(PI.Pid, SIGKILL);
      llvm::sys::Wait(PI, std::nullopt);
#else
      llvm::sys::Wait(PI, 1); // Kills it after a second.
#endif
      Out.How = Cancel ? AnalysisRun::Cancelled : AnalysisRun::TimedOut;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  Out.Took = std::chrono::duration_cast<std::chrono::milliseconds>(
      Clock::now() - Start);
  if (Out.How == AnalysisRun::Finished) {
    Out.Stdout = Stdout.read();
    Out.Stderr = Stderr.read();
  }
  return Out;
}

} // namespace shmem::lsp
