//===- Findings.cpp - The driver's report as LSP diagnostics --------------===//

#include "Findings.h"
#include "Uri.h"

#include "OutputFormats.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <memory>

namespace shmem::lsp {
namespace {

/// The texts positions are converted against: the document's own, and
/// other files' as read from disk once.
class Texts {
public:
  Texts(llvm::StringRef Path, llvm::StringRef Text) : Path(Path) {
    Own = std::make_unique<LineTable>(Text);
  }

  /// Null when the file cannot be read.
  const LineTable *table(llvm::StringRef File) {
    if (File == Path)
      return Own.get();
    auto It = Others.find(File);
    if (It == Others.end()) {
      Entry E;
      if (auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                                 /*RequiresNullTerminator=*/false)) {
        E.Text = (*Buf)->getBuffer().str();
        E.Table = std::make_unique<LineTable>(E.Text);
      }
      It = Others.try_emplace(File, std::move(E)).first;
    }
    return It->second.Table.get();
  }

  Range at(llvm::StringRef File, unsigned Line, unsigned Column) {
    const LineTable *T = table(File);
    return T ? T->tokenAt(Line, Column) : Range{{Line ? Line - 1 : 0, 0},
                                                {Line ? Line - 1 : 0, 1}};
  }

private:
  struct Entry {
    std::string Text;
    std::unique_ptr<LineTable> Table;
  };
  std::string Path;
  std::unique_ptr<LineTable> Own;
  llvm::StringMap<Entry> Others;
};

llvm::StringRef str(const llvm::json::Object &O, llvm::StringRef Key) {
  std::optional<llvm::StringRef> S = O.getString(Key);
  return S ? *S : llvm::StringRef();
}

unsigned num(const llvm::json::Object &O, llvm::StringRef Key) {
  std::optional<int64_t> N = O.getInteger(Key);
  return N && *N > 0 ? unsigned(*N) : 0;
}

/// The `#include` line of the document that names \p Header, else line 0:
/// where a finding in a header is shown on the document that includes it.
Range includeOf(const LineTable &Doc, llvm::StringRef Header) {
  llvm::StringRef Name = llvm::sys::path::filename(Header);
  for (unsigned L = 0; L < Doc.lines(); ++L) {
    llvm::StringRef Line = Doc.line(L).ltrim();
    if (Line.consume_front("#") &&
        Line.ltrim().starts_with("include") && Line.contains(Name))
      return {{L, 0}, {L, unsigned(Doc.line(L).size())}};
  }
  return {{0, 0}, {0, 1}};
}

/// "replace 'TILE' with 'TILE + 1'": what a one-edit fix does, on one line.
std::string fixTitle(const std::vector<FileEdit> &Edits,
                     llvm::StringRef OldText) {
  auto Short = [](llvm::StringRef S) {
    std::string Out;
    for (char C : S.trim())
      Out += (C == '\n' || C == '\t') ? ' ' : C;
    if (Out.size() > 60)
      Out = Out.substr(0, 57) + "...";
    return Out;
  };
  if (Edits.size() != 1)
    return "shmem-lint: apply the fix (" + std::to_string(Edits.size()) +
           " edits)";
  const FileEdit &E = Edits.front();
  if (OldText.empty())
    return "shmem-lint: insert '" + Short(E.NewText) + "'";
  if (E.NewText.empty())
    return "shmem-lint: delete '" + Short(OldText) + "'";
  return "shmem-lint: replace '" + Short(OldText) + "' with '" +
         Short(E.NewText) + "'";
}

llvm::json::Object diagnosticFor(const DocumentFinding &F) {
  llvm::json::Object D{{"range", toJson(F.Where)},
                       {"severity", int(F.Level)},
                       {"source", "shmem-lint"},
                       {"code", F.Code},
                       {"message", F.Message}};
  return D;
}

} // namespace

std::vector<DocumentFinding> readReport(const llvm::json::Value &Report,
                                        llvm::StringRef Path,
                                        llvm::StringRef Text) {
  std::vector<DocumentFinding> Out;
  const llvm::json::Array *Elements = Report.getAsArray();
  if (!Elements)
    return Out;
  Texts Files(Path, Text);
  const LineTable &Doc = *Files.table(Path);
  const std::string DocsBase = OutputContext().DocsBaseUrl;
  for (const llvm::json::Value &V : *Elements) {
    const llvm::json::Object *E = V.getAsObject();
    if (!E)
      continue;
    bool IsGap = str(*E, "kind") == "gap";
    DocumentFinding F;
    llvm::StringRef File = str(*E, "file");
    unsigned Line = num(*E, "line"), Column = num(*E, "column");
    if (IsGap) {
      F.Level = Severity::Information;
      F.Code = AnalysisGapId;
      llvm::StringRef For = str(*E, "for_check");
      F.Message = "not fully analysed: " + str(*E, "message").str() +
                  (For.empty() ? "" : " (" + For.str() + ")");
    } else {
      F.Level = str(*E, "level") == "error" ? Severity::Error
                                            : Severity::Warning;
      F.Code = str(*E, "check").str();
      F.Message = str(*E, "message").str();
      F.Detail = str(*E, "detail").str();
    }
    llvm::json::Array Related;
    if (File == Path) {
      F.Where = Doc.tokenAt(Line, Column);
    } else {
      // Shown where the document includes the header; the place itself
      // comes first among the related locations.
      F.Where = includeOf(Doc, File);
      F.Message = "in " + llvm::sys::path::filename(File).str() + ":" +
                  std::to_string(Line) + ": " + F.Message;
      Related.push_back(llvm::json::Object{
          {"location",
           llvm::json::Object{{"uri", fileUri(File)},
                              {"range", toJson(Files.at(File, Line, Column))}}},
          {"message", IsGap ? "not fully analysed here" : "the finding"}});
    }
    if (const llvm::json::Array *Notes = E->getArray("notes"))
      for (const llvm::json::Value &NV : *Notes)
        if (const llvm::json::Object *N = NV.getAsObject())
          Related.push_back(llvm::json::Object{
              {"location",
               llvm::json::Object{
                   {"uri", fileUri(str(*N, "file"))},
                   {"range", toJson(Files.at(str(*N, "file"), num(*N, "line"),
                                             num(*N, "column")))}}},
              {"message", str(*N, "message").str()}});
    std::string OldText;
    if (const llvm::json::Array *Fixes = E->getArray("fixes")) {
      for (const llvm::json::Value &XV : *Fixes) {
        const llvm::json::Object *X = XV.getAsObject();
        if (!X)
          continue;
        llvm::StringRef XFile = str(*X, "file");
        const LineTable *T = Files.table(XFile);
        std::optional<int64_t> Offset = X->getInteger("offset"),
                               Length = X->getInteger("length");
        if (!T || !Offset || !Length || *Offset < 0 || *Length < 0) {
          F.Fix.clear(); // A fix is applied whole or not at all.
          break;
        }
        size_t Begin = size_t(*Offset), End = Begin + size_t(*Length);
        F.Fix.push_back({fileUri(XFile),
                         {T->position(Begin), T->position(End)},
                         str(*X, "replacement").str()});
        if (F.Fix.size() == 1 && XFile == Path)
          OldText = Text.slice(Begin, End).str();
      }
      if (!F.Fix.empty())
        F.FixTitle = fixTitle(F.Fix, OldText);
    }
    llvm::json::Object D = diagnosticFor(F);
    if (!IsGap && !F.Code.empty())
      D["codeDescription"] =
          llvm::json::Object{{"href", DocsBase + F.Code + ".md"}};
    if (!Related.empty())
      D["relatedInformation"] = std::move(Related);
    D["data"] = llvm::json::Object{{"fixes", int64_t(F.Fix.size())}};
    F.Diagnostic = std::move(D);
    Out.push_back(std::move(F));
  }
  return Out;
}

DocumentFinding failure(llvm::StringRef Why, llvm::StringRef Messages,
                        llvm::StringRef Path, llvm::StringRef Text) {
  LineTable Doc(Text);
  DocumentFinding F;
  F.Level = Severity::Error;
  F.Code = "shmem-lint";
  F.Where = {{0, 0}, {0, 1}};
  // clang's first error, "FILE:LINE:COL: error: TEXT"; else shmem-lint's.
  std::string First;
  llvm::SmallVector<llvm::StringRef> Lines;
  Messages.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    size_t At = L.find(": error: ");
    if (At == llvm::StringRef::npos)
      continue;
    First = L.substr(At + 9).str();
    llvm::StringRef Place = L.take_front(At);
    // FILE:LINE:COL, where FILE may itself hold colons.
    auto [Rest, Col] = Place.rsplit(':');
    auto [File, Line] = Rest.rsplit(':');
    unsigned LineN = 0, ColN = 0;
    if (File == Path && !Line.getAsInteger(10, LineN) &&
        !Col.getAsInteger(10, ColN))
      F.Where = Doc.tokenAt(LineN, ColN);
    break;
  }
  F.Message = "shmem-lint could not analyse this file: " +
              (First.empty() ? Why.str() : First);
  llvm::json::Object D = diagnosticFor(F);
  F.Diagnostic = std::move(D);
  return F;
}

DocumentFinding notice(Severity Level, std::string Message) {
  DocumentFinding F;
  F.Level = Level;
  F.Code = "shmem-lint";
  F.Where = {{0, 0}, {0, 1}};
  F.Message = std::move(Message);
  F.Diagnostic = diagnosticFor(F);
  return F;
}

std::string hoverText(const DocumentFinding &F) {
  std::string S = "**" + F.Code + "**: " + F.Message;
  if (!F.Detail.empty())
    S += "\n\n```text\n" + llvm::StringRef(F.Detail).rtrim().str() + "\n```";
  if (!F.FixTitle.empty())
    S += "\n\nQuick fix: " +
         llvm::StringRef(F.FixTitle).drop_front(strlen("shmem-lint: ")).str();
  return S;
}

llvm::json::Value codeAction(const DocumentFinding &F) {
  llvm::json::Object Changes;
  for (const FileEdit &E : F.Fix) {
    llvm::json::Value *Edits = Changes.get(E.Uri);
    if (!Edits)
      Edits = &(Changes[E.Uri] = llvm::json::Array());
    Edits->getAsArray()->push_back(llvm::json::Object{
        {"range", toJson(E.Where)}, {"newText", E.NewText}});
  }
  return llvm::json::Object{
      {"title", F.FixTitle},
      {"kind", "quickfix"},
      {"diagnostics", llvm::json::Array{F.Diagnostic}},
      {"isPreferred", true},
      {"edit", llvm::json::Object{{"changes", std::move(Changes)}}}};
}

} // namespace shmem::lsp
