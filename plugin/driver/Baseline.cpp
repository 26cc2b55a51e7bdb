//===- Baseline.cpp - Findings a previous run already reported ------------===//

#include "Baseline.h"

#include "OutputFormats.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace shmem {

std::optional<std::set<std::string>> readBaseline(llvm::StringRef Path,
                                                  std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Error = "cannot read baseline '" + Path.str() +
            "': " + Buffer.getError().message();
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> V =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!V) {
    Error = "baseline '" + Path.str() + "' is not JSON: " +
            llvm::toString(V.takeError());
    return std::nullopt;
  }
  std::set<std::string> Fingerprints;
  // shmem-lint's JSON: an array of findings (and gaps, which are not).
  if (const llvm::json::Array *A = V->getAsArray()) {
    for (const llvm::json::Value &E : *A)
      if (const llvm::json::Object *O = E.getAsObject()) {
        std::optional<llvm::StringRef> Kind = O->getString("kind");
        if (Kind && *Kind != "finding")
          continue;
        if (std::optional<llvm::StringRef> F = O->getString("fingerprint"))
          Fingerprints.insert(F->str());
      }
    return Fingerprints;
  }
  // SARIF: every run's results, by shmem-lint's partial fingerprint.
  if (const llvm::json::Object *Log = V->getAsObject())
    if (const llvm::json::Array *Runs = Log->getArray("runs")) {
      for (const llvm::json::Value &Run : *Runs)
        if (const llvm::json::Object *R = Run.getAsObject())
          if (const llvm::json::Array *Results = R->getArray("results"))
            for (const llvm::json::Value &Res : *Results)
              if (const llvm::json::Object *O = Res.getAsObject())
                if (const llvm::json::Object *P =
                        O->getObject("partialFingerprints"))
                  if (std::optional<llvm::StringRef> F =
                          P->getString("shmemLintFingerprint/v1"))
                    Fingerprints.insert(uniqueFromPartialFingerprint(*F));
      return Fingerprints;
    }
  Error = "baseline '" + Path.str() +
          "' is neither shmem-lint's JSON report nor a SARIF log";
  return std::nullopt;
}

} // namespace shmem
