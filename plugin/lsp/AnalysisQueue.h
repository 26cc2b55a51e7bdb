//===- AnalysisQueue.h - Analyses of documents, one process each -*- C++ -*-===//
//
// Each analysis is a `shmem-lint --format=json` child process, not a call
// into the analysis in this process: a crash in clang on a half-typed file
// ends that child, not the editor's server; the memory of a translation
// unit goes back to the system when the child exits, so the server stays
// flat over thousands of saves; and a stale analysis is cancelled by
// killing it, which an in-process parse cannot be.
//
// The queue keeps the newest request per document. A new request for a
// document cancels the one running for it, and waits until its delay has
// passed (the debounce after typing) and no older run of the document is
// still exiting. Workers run requests of different documents at once.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_LSP_ANALYSISQUEUE_H
#define SHMEM_LINT_LSP_ANALYSISQUEUE_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace shmem::lsp {

struct AnalysisRequest {
  std::string Uri;
  std::string Path; ///< Absolute.
  std::string Text; ///< What the editor holds, analysed under Path's name.
  int64_t Version = 0;
  /// The driver's arguments before the file (its options) and after it
  /// (`--` and compiler arguments, when given).
  std::vector<std::string> Options, CompilerArgs;
};

struct AnalysisRun {
  enum Outcome { Finished, Cancelled, TimedOut, NotStarted } How = NotStarted;
  int ExitCode = -1;
  std::string Stdout, Stderr;
  std::string Error; ///< Why it did not start or finish.
  std::chrono::milliseconds Took{0};
};

class AnalysisQueue {
public:
  using Done =
      std::function<void(const AnalysisRequest &, const AnalysisRun &)>;

  /// \p Program is the shmem-lint executable. \p OnDone runs on a worker
  /// thread, for every request that ran (cancelled ones included).
  AnalysisQueue(std::string Program, unsigned Workers,
                std::chrono::seconds Timeout, Done OnDone);
  /// Kills what runs and joins the workers.
  ~AnalysisQueue();

  void schedule(AnalysisRequest R, std::chrono::milliseconds Delay);
  /// Forgets the document's waiting request and kills its running one.
  void cancel(const std::string &Uri);

private:
  using Clock = std::chrono::steady_clock;
  struct Waiting {
    AnalysisRequest Request;
    Clock::time_point NotBefore;
  };

  void work();
  AnalysisRun run(const AnalysisRequest &R, const std::atomic<bool> &Cancel);

  std::string Program;
  std::chrono::seconds Timeout;
  Done OnDone;
  std::mutex Lock;
  std::condition_variable Wake;
  std::map<std::string, Waiting> Queue; ///< By URI: the newest request.
  /// By URI: the cancel flag of the run in progress.
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> Running;
  bool Stopping = false;
  std::vector<std::thread> Workers;
};

} // namespace shmem::lsp

#endif
