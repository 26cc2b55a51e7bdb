//===- OutputFormats.cpp - Render the findings of one run -----------------===//

#include "OutputFormats.h"
#include "FindingEvidence.h"
#include "HtmlReport.h"

#include "Analysis/Finding.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/YAMLTraits.h"

#include <map>

namespace shmem {

//===----------------------------------------------------------------------===//
// Format names
//===----------------------------------------------------------------------===//

namespace {
struct FormatName {
  OutputFormat Format;
  const char *Name;
};
const FormatName FormatNames[] = {
    {OutputFormat::Text, "text"},     {OutputFormat::Sarif, "sarif"},
    {OutputFormat::GitHub, "github"}, {OutputFormat::GitLab, "gitlab"},
    {OutputFormat::Json, "json"},     {OutputFormat::Html, "html"},
};
} // namespace

bool parseOutputFormat(llvm::StringRef Name, OutputFormat &F) {
  for (const FormatName &N : FormatNames)
    if (Name.equals_insensitive(N.Name)) {
      F = N.Format;
      return true;
    }
  return false;
}

llvm::StringRef outputFormatName(OutputFormat F) {
  for (const FormatName &N : FormatNames)
    if (N.Format == F)
      return N.Name;
  return "text";
}

llvm::StringRef outputFormatNames() {
  return "text, sarif, github, gitlab, json, html";
}

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

std::vector<CheckDescription> knownChecks() {
  std::vector<CheckDescription> Out;
#define SHMEM_CHECK(KIND, NAME, DOC, ONCE, RUN, SARIF_NAME, CORRECTNESS,       \
                    SUMMARY, FULL, HELP)                                       \
  Out.push_back({NAME, SARIF_NAME, SUMMARY, FULL, HELP, DOC, CORRECTNESS});
#include "Analysis/Checks.def"
  return Out;
}

//===----------------------------------------------------------------------===//
// Files and paths
//===----------------------------------------------------------------------===//

FileReader diskFileReader() {
  return [](llvm::StringRef Path) -> std::optional<std::string> {
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf)
      return std::nullopt;
    return (*Buf)->getBuffer().str();
  };
}

namespace {

/// Source files read once each, split into lines on demand.
class SourceCache {
public:
  explicit SourceCache(FileReader Read)
      : Read(Read ? std::move(Read) : diskFileReader()) {}

  const std::string *text(llvm::StringRef File) {
    if (File.empty())
      return nullptr;
    auto It = Files.find(File);
    if (It == Files.end())
      It = Files.try_emplace(File, load(File)).first;
    return It->second.Text ? &*It->second.Text : nullptr;
  }

  /// Line \p Line (1-based) without its line end.
  std::optional<llvm::StringRef> line(llvm::StringRef File, unsigned Line) {
    std::optional<unsigned> Start = lineStart(File, Line);
    if (!Start)
      return std::nullopt;
    llvm::StringRef Rest = llvm::StringRef(*text(File)).drop_front(*Start);
    Rest = Rest.take_until([](char C) { return C == '\n'; });
    Rest.consume_back("\r");
    return Rest;
  }

  std::optional<unsigned> lineStart(llvm::StringRef File, unsigned Line) {
    if (Line == 0 || !text(File))
      return std::nullopt;
    const std::vector<unsigned> &Starts = Files.find(File)->second.LineStarts;
    if (Line > Starts.size())
      return std::nullopt;
    return Starts[Line - 1];
  }

private:
  struct Entry {
    std::optional<std::string> Text;
    std::vector<unsigned> LineStarts;
  };
  Entry load(llvm::StringRef File) {
    Entry E;
    E.Text = Read(File);
    if (E.Text) {
      E.LineStarts.push_back(0);
      for (size_t I = 0; I < E.Text->size(); ++I)
        if ((*E.Text)[I] == '\n' && I + 1 < E.Text->size())
          E.LineStarts.push_back(I + 1);
    }
    return E;
  }

  FileReader Read;
  llvm::StringMap<Entry> Files;
};

std::string normalizePath(llvm::StringRef P) {
  llvm::SmallString<256> S(llvm::sys::path::convert_to_slash(P));
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true,
                               llvm::sys::path::Style::posix);
  return std::string(S);
}

bool isAbsoluteAnyStyle(llvm::StringRef P) {
  return llvm::sys::path::is_absolute(P, llvm::sys::path::Style::posix) ||
         llvm::sys::path::is_absolute(P, llvm::sys::path::Style::windows);
}

/// Percent-encodes a path for a URI: everything but unreserved characters and
/// '/' (and ':' when \p KeepColon, for a drive letter in a file: URI).
std::string encodeUriPath(llvm::StringRef P, bool KeepColon) {
  std::string Out;
  for (unsigned char C : P) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/' || (KeepColon && C == ':')) {
      Out += static_cast<char>(C);
    } else {
      Out += '%';
      Out += llvm::hexdigit(C >> 4);
      Out += llvm::hexdigit(C & 15);
    }
  }
  return Out;
}

} // namespace

std::string fileUri(llvm::StringRef AbsPath) {
  std::string P = normalizePath(AbsPath);
  if (!llvm::StringRef(P).starts_with("/"))
    P = "/" + P; // C:/x -> /C:/x
  return "file://" + encodeUriPath(P, /*KeepColon=*/true);
}

unsigned utf16Column(llvm::StringRef Line, unsigned Column) {
  if (Column == 0)
    return 0;
  llvm::StringRef Prefix = Line.take_front(Column - 1);
  unsigned Units = 0;
  for (unsigned char C : Prefix) {
    if ((C & 0xC0) == 0x80)
      continue; // Continuation byte.
    Units += (C >= 0xF0) ? 2 : 1;
  }
  // A column past the end of the line (clang points at the newline).
  return Units + (Column - 1 - Prefix.size()) + 1;
}

namespace {

std::string sha256Hex(llvm::StringRef Data) {
  std::array<uint8_t, 32> H =
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(Data));
  return llvm::toHex(H, /*LowerCase=*/true).substr(0, 32);
}

std::string fingerprintWith(const ReportedFinding &F, llvm::StringRef RepoRoot,
                            SourceCache &Sources) {
  std::string Data = F.Check;
  Data += '\0';
  Data += repoRelativePath(F.Loc.File, RepoRoot);
  Data += '\0';
  Data += F.Message;
  Data += '\0';
  if (std::optional<llvm::StringRef> L = Sources.line(F.Loc.File, F.Loc.Line))
    Data += L->trim().str();
  return sha256Hex(Data);
}

/// What every format needs to know about the findings of one run.
class Prepared {
public:
  Prepared(llvm::ArrayRef<ReportedFinding> Findings, const OutputContext &Ctx)
      : Ctx(Ctx), Sources(Ctx.ReadFile), Checks(knownChecks()) {
    std::map<std::string, unsigned> Seen;
    for (const ReportedFinding &F : Findings) {
      std::string Base = fingerprintWith(F, Ctx.RepoRoot, Sources);
      unsigned N = ++Seen[Base];
      Fingerprints.push_back({Base, N});
      ruleIndex(F.Check); // Adds rules for checks not known in advance.
    }
  }

  const OutputContext &Ctx;
  SourceCache Sources;
  std::vector<CheckDescription> Checks;
  /// Per finding: the hash and its occurrence number (1, 2, ...).
  std::vector<std::pair<std::string, unsigned>> Fingerprints;

  unsigned ruleIndex(llvm::StringRef Check) {
    for (unsigned I = 0; I < Checks.size(); ++I)
      if (Checks[I].Id == Check)
        return I;
    CheckDescription D;
    D.Id = Check.str();
    D.Name = Check.str();
    D.ShortDescription = D.FullDescription = D.HelpMarkdown = Check.str();
    Checks.push_back(std::move(D));
    return Checks.size() - 1;
  }

  /// One string per finding, unique within the run.
  std::string uniqueFingerprint(size_t I) const {
    const auto &[Base, N] = Fingerprints[I];
    return N == 1 ? Base : sha256Hex(Base + ":" + std::to_string(N));
  }

  std::string relative(llvm::StringRef File) const {
    return repoRelativePath(File, Ctx.RepoRoot);
  }

  bool insideRepo(llvm::StringRef File) const {
    if (!isAbsoluteAnyStyle(File))
      return true;
    return !Ctx.RepoRoot.empty() && !isAbsoluteAnyStyle(relative(File));
  }

  unsigned column(const ReportedLocation &L) {
    if (std::optional<llvm::StringRef> Line = Sources.line(L.File, L.Line))
      return utf16Column(*Line, L.Column);
    return L.Column;
  }
};

} // namespace

std::string repoRelativePath(llvm::StringRef File, llvm::StringRef RepoRoot) {
  std::string F = normalizePath(File);
  if (RepoRoot.empty() || !isAbsoluteAnyStyle(F))
    return F;
  std::string Root = normalizePath(RepoRoot);
  while (Root.size() > 1 && Root.back() == '/')
    Root.pop_back();
  llvm::StringRef Rest(F);
  if (Rest.consume_front(Root) && (Rest.consume_front("/") || Root == "/"))
    return Rest.str();
  return F;
}

std::vector<std::string>
uniqueFingerprints(llvm::ArrayRef<ReportedFinding> Findings,
                   const OutputContext &Ctx) {
  Prepared P(Findings, Ctx);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Findings.size(); ++I)
    Out.push_back(P.uniqueFingerprint(I));
  return Out;
}

std::string uniqueFromPartialFingerprint(llvm::StringRef Partial) {
  auto [Base, N] = Partial.rsplit(':');
  return N == "1" ? Base.str() : sha256Hex(Partial.str());
}

std::string findingFingerprint(const ReportedFinding &F,
                               const OutputContext &Ctx) {
  SourceCache Sources(Ctx.ReadFile);
  return fingerprintWith(F, Ctx.RepoRoot, Sources);
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

namespace {

// clang's colours (clang/lib/Frontend/TextDiagnostic.cpp).
constexpr const char *Bold = "\033[1m";
constexpr const char *Reset = "\033[0m";
constexpr const char *WarningColor = "\033[0;1;35m";
constexpr const char *ErrorColor = "\033[0;1;31m";
constexpr const char *NoteColor = "\033[0;1;36m";
constexpr const char *RemarkColor = "\033[0;1;34m";
constexpr const char *CaretColor = "\033[0;1;32m";

void writeLocation(llvm::raw_ostream &OS, const ReportedLocation &L) {
  if (L.File.empty()) {
    OS << "shmem-lint: ";
    return;
  }
  OS << L.File;
  if (L.Line) {
    OS << ':' << L.Line;
    if (L.Column)
      OS << ':' << L.Column;
  }
  OS << ": ";
}

/// The source line and a caret, with clang's line-number gutter, and the
/// fix-its on that line as clang shows them: the replaced bytes marked
/// with `~` and the replacement written under them.
///     4 |   __shared__ float tile[32][32];
///       |                    ^        ~~
///       |                             33
/// A zero \p L.Column prints the line and its fix-its without a caret.
void writeSnippet(llvm::raw_ostream &OS, const ReportedLocation &L,
                  Prepared &P, llvm::ArrayRef<const ReportedFix *> Fixes = {}) {
  std::optional<llvm::StringRef> Line = P.Sources.line(L.File, L.Line);
  if (!Line || (L.Column == 0 && Fixes.empty()))
    return;
  unsigned Width = std::max<unsigned>(4, std::to_string(L.Line + 16).size());
  std::string Number = std::to_string(L.Line);
  OS.indent(Width - Number.size() + 1) << Number << " | " << *Line << '\n';
  // One display column per character (UTF-8 continuation bytes take
  // none), tabs kept so that the marks line up under them.
  auto PadTo = [&](unsigned Column) {
    std::string Pad;
    for (unsigned char C : Line->take_front(Column ? Column - 1 : 0)) {
      if ((C & 0xC0) == 0x80)
        continue;
      Pad += C == '\t' ? '\t' : ' ';
    }
    return Pad;
  };
  std::string Marks = L.Column ? PadTo(L.Column) + '^' : std::string();
  std::string Replacements;
  for (const ReportedFix *X : Fixes) {
    std::string Pad = PadTo(X->Column);
    if (Marks.size() < Pad.size())
      Marks.resize(Pad.size(), ' ');
    for (unsigned I = 0; I < X->Length; ++I) {
      size_t At = Pad.size() + I;
      if (At >= Marks.size())
        Marks.resize(At + 1, ' ');
      if (Marks[At] != '^')
        Marks[At] = '~';
    }
    if (Replacements.size() < Pad.size())
      Replacements.resize(Pad.size(), ' ');
    Replacements.replace(Pad.size(), std::string::npos, X->Replacement);
  }
  // The marks in clang's caret colour, the padding before them plain.
  auto Marked = [&](llvm::StringRef Text) {
    size_t Lead = Text.find_first_not_of(" \t");
    OS.indent(Width + 2) << "| " << Text.take_front(Lead);
    if (P.Ctx.Color)
      OS << CaretColor << Text.drop_front(Lead) << Reset;
    else
      OS << Text.drop_front(Lead);
    OS << '\n';
  };
  Marked(Marks);
  if (!Replacements.empty())
    Marked(Replacements);
}

void writeText(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings,
               llvm::ArrayRef<ReportedGap> Gaps, Prepared &P) {
  const bool Color = P.Ctx.Color;
  // A gap is a remark, as clang says what it did not do (-Rpass-missed):
  // not a warning, so that nothing counting warnings counts it.
  bool IsRemark = false;
  // The fix-its of the finding being written not yet shown: each goes
  // under the first of its messages whose line holds it.
  std::vector<const ReportedFix *> Unshown;
  auto FixesOn = [&](const ReportedLocation &L) {
    std::vector<const ReportedFix *> On;
    for (const ReportedFix *&X : Unshown)
      if (X && X->File == L.File && X->Line == L.Line) {
        On.push_back(X);
        X = nullptr;
      }
    return On;
  };
  // A warning promoted by --warnings-as-errors: clang-tidy's `error:` and
  // `[check,-warnings-as-errors]`.
  bool IsError = false;
  auto Head = [&](const ReportedLocation &L, bool IsNote,
                  llvm::StringRef Message, llvm::StringRef Check,
                  bool Snippet = true) {
    if (Color)
      OS << Bold;
    writeLocation(OS, L);
    if (Color)
      OS << Reset
         << (IsNote     ? NoteColor
             : IsRemark ? RemarkColor
             : IsError  ? ErrorColor
                        : WarningColor);
    OS << (IsNote     ? "note: "
           : IsRemark ? "remark: "
           : IsError  ? "error: "
                      : "warning: ");
    if (Color)
      OS << Reset;
    if (Color && !IsNote)
      OS << Bold;
    OS << Message;
    if (!Check.empty())
      OS << " [" << Check << (IsError && !IsNote ? ",-warnings-as-errors" : "")
         << ']';
    if (Color)
      OS << Reset;
    OS << '\n';
    if (P.Ctx.ShowSource && Snippet)
      writeSnippet(OS, L, P, FixesOn(L));
  };
  for (const ReportedFinding &F : Findings) {
    Unshown.clear();
    for (const ReportedFix &X : F.Fixes)
      Unshown.push_back(&X);
    IsError = F.WarningAsError;
    Head(F.Loc, /*IsNote=*/false, F.Message, F.Check);
    if (P.Ctx.Verbose && !F.Detail.empty()) {
      llvm::StringRef Detail = llvm::StringRef(F.Detail).rtrim('\n');
      for (llvm::StringRef Line : llvm::split(Detail, '\n'))
        OS << "    " << Line.rtrim('\r') << '\n';
    }
    for (const ReportedNote &N : F.Notes)
      Head(N.Loc, /*IsNote=*/true, N.Message, "");
    // --sass and --ncu-report speak of the finding's own line, shown above.
    for (const std::string &E : evidenceNotes(F))
      Head(F.Loc, /*IsNote=*/true, E, "", /*Snippet=*/false);
    // A fix-it on a line no message of the finding is on: its own lines.
    if (P.Ctx.ShowSource)
      for (const ReportedFix *X : Unshown)
        if (X)
          writeSnippet(OS, {X->File, X->Line, 0}, P, {X});
    Unshown.clear();
    if (P.Ctx.Verbose)
      for (const ReportedFix &X : F.Fixes) {
        ReportedLocation L{X.File, X.Line, X.Column};
        std::string Msg = "fix-it: replace " + std::to_string(X.Length) +
                          " byte" + (X.Length == 1 ? "" : "s") + " with \"" +
                          llvm::StringRef(X.Replacement).str() + "\"";
        Head(L, /*IsNote=*/true, Msg, "");
      }
  }
  IsRemark = true;
  IsError = false;
  for (const ReportedGap &G : Gaps) {
    Head(G.Loc, /*IsNote=*/false, G.message(), G.Check);
    for (const ReportedNote &N : G.Notes)
      Head(N.Loc, /*IsNote=*/true, N.Message, "");
  }
}

//===----------------------------------------------------------------------===//
// --sass and --ncu-report
//===----------------------------------------------------------------------===//

/// A finding's Compiled and Measured (FindingEvidence.h) as JSON attributes
/// "compiled" and "measured", each with its "note" as text says it: the JSON
/// format's finding objects and SARIF results' properties.
void writeEvidenceJson(llvm::json::OStream &J, const ReportedFinding &F) {
  if (F.Compiled) {
    const CompiledEvidence &C = *F.Compiled;
    J.attributeObject("compiled", [&] {
      J.attribute("listing", llvm::StringRef(C.Listing).lower());
      J.attribute("arch", C.Arch);
      J.attribute("access", C.Store ? "store" : "load");
      J.attributeArray("instructions", [&] {
        for (const SharedInstruction &I : C.Instructions)
          J.object([&] {
            J.attribute("name", I.Name);
            J.attribute("kind", sharedOpKindName(I.Kind));
            J.attribute("width_bytes", I.WidthBytes);
            J.attribute("count", I.Count);
          });
      });
      if (C.AssumedWidth)
        J.attribute("assumed_width_bytes", C.AssumedWidth);
      J.attribute("width_differs", C.WidthDiffers);
      J.attribute("ptxas_may_merge", C.PtxasMayMerge);
      if (C.Recosted)
        J.attributeObject("recosted", [&] {
          J.attribute("width_bytes", C.EmittedWidth);
          J.attribute("wavefronts", C.Recosted->Wavefronts);
          J.attribute("ideal_wavefronts", C.Recosted->IdealWavefronts);
          J.attribute("degree", C.Recosted->Degree);
        });
      J.attribute("note", compiledNote(C));
    });
  }
  if (F.Measured) {
    const MeasuredEvidence &M = *F.Measured;
    J.attributeObject("measured", [&] {
      J.attribute("report", M.Report);
      J.attribute("access", M.Store ? "store" : "load");
      J.attribute("found", M.Found);
      if (M.Found) {
        J.attribute("loads_and_stores", M.LoadsAndStores);
        J.attribute("wavefronts", M.Wavefronts);
        if (M.Ideal)
          J.attribute("ideal_wavefronts", *M.Ideal);
        if (M.Executions)
          J.attribute("executions", *M.Executions);
        J.attributeArray("opcodes", [&] {
          for (const std::string &O : M.Opcodes)
            J.value(O);
        });
      }
      if (M.PredictedIdeal) {
        J.attribute("predicted_wavefronts", M.PredictedWavefronts);
        J.attribute("predicted_ideal_wavefronts", M.PredictedIdeal);
      }
      if (std::optional<bool> A = M.agrees())
        J.attribute("agrees", *A);
      J.attribute("note", measuredNote(M));
    });
  }
}

//===----------------------------------------------------------------------===//
// SARIF
//===----------------------------------------------------------------------===//

constexpr const char *SarifSchemaUri =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
    "sarif-schema-2.1.0.json";
constexpr const char *InformationUri =
    "https://github.com/shmem-lint/shmem-lint";
constexpr const char *SrcRoot = "%SRCROOT%";

void writeArtifactLocation(llvm::json::OStream &J, llvm::StringRef File,
                           Prepared &P) {
  J.attributeObject("artifactLocation", [&] {
    if (P.insideRepo(File)) {
      J.attribute("uri", encodeUriPath(P.relative(File), /*KeepColon=*/false));
      J.attribute("uriBaseId", SrcRoot);
    } else {
      J.attribute("uri", fileUri(File));
    }
  });
}

void writePhysicalLocation(llvm::json::OStream &J, const ReportedLocation &L,
                           Prepared &P) {
  J.attributeObject("physicalLocation", [&] {
    writeArtifactLocation(J, L.File, P);
    if (L.Line)
      J.attributeObject("region", [&] {
        J.attribute("startLine", L.Line);
        if (L.Column)
          J.attribute("startColumn", P.column(L));
      });
  });
}

void writeRule(llvm::json::OStream &J, const CheckDescription &D,
               const OutputContext &Ctx) {
  // The page under DocsBaseUrl (docs/checks/); a check not in the registry
  // (clang-diagnostic-error) gets one named after it.
  std::string Page = D.DocPage.empty()
                         ? D.Id + ".md"
                         : llvm::sys::path::filename(D.DocPage).str();
  J.object([&] {
    J.attribute("id", D.Id);
    J.attribute("name", D.Name);
    J.attributeObject("shortDescription",
                      [&] { J.attribute("text", D.ShortDescription); });
    J.attributeObject("fullDescription",
                      [&] { J.attribute("text", D.FullDescription); });
    J.attributeObject("help", [&] {
      J.attribute("text",
                  D.FullDescription + "\n\nSee " + Ctx.DocsBaseUrl + Page);
      J.attribute("markdown", D.FullDescription + "\n\n" + D.HelpMarkdown);
    });
    J.attribute("helpUri", Ctx.DocsBaseUrl + Page);
    J.attributeObject("defaultConfiguration",
                      [&] { J.attribute("level", "warning"); });
    J.attributeObject("properties", [&] {
      J.attributeArray("tags", [&] {
        J.value("cuda");
        J.value("shared-memory");
        J.value(D.Correctness ? "correctness" : "performance");
      });
      J.attribute("problem.severity",
                  D.Correctness ? "warning" : "recommendation");
    });
  });
}

void writeSarif(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings,
                llvm::ArrayRef<ReportedGap> Gaps, Prepared &P) {
  const OutputContext &Ctx = P.Ctx;
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("$schema", SarifSchemaUri);
    J.attribute("version", "2.1.0");
    J.attributeArray("runs", [&] {
      J.object([&] {
        J.attributeObject("tool", [&] {
          J.attributeObject("driver", [&] {
            J.attribute("name", "shmem-lint");
            if (!Ctx.ToolVersion.empty())
              J.attribute("version", Ctx.ToolVersion);
            J.attribute("informationUri", InformationUri);
            J.attributeArray("rules", [&] {
              for (const CheckDescription &D : P.Checks)
                writeRule(J, D, Ctx);
            });
            // What toolExecutionNotifications refer to (SARIF 2.1.0
            // 3.19.23, reportingDescriptor for notifications).
            J.attributeArray("notifications", [&] {
              J.object([&] {
                J.attribute("id", AnalysisGapId);
                J.attribute("name", "AnalysisGap");
                J.attributeObject("shortDescription", [&] {
                  J.attribute("text", "part of a kernel not analysed; "
                                      "findings may be missing there");
                });
                J.attributeObject("defaultConfiguration",
                                  [&] { J.attribute("level", "warning"); });
              });
            });
          });
        });
        // The run itself succeeded; what it left out of the kernels is a
        // notification each, not a result (3.20.21: no finding, no alert).
        J.attributeArray("invocations", [&] {
          J.object([&] {
            J.attribute("executionSuccessful", true);
            if (Gaps.empty())
              return;
            J.attributeArray("toolExecutionNotifications", [&] {
              for (const ReportedGap &G : Gaps)
                J.object([&] {
                  J.attribute("level", "warning");
                  J.attributeObject("message", [&] {
                    J.attribute("text", G.message() + G.where());
                  });
                  J.attributeArray("locations", [&] {
                    J.object([&] { writePhysicalLocation(J, G.Loc, P); });
                  });
                  J.attributeObject("descriptor", [&] {
                    J.attribute("id", AnalysisGapId);
                    J.attribute("index", 0);
                  });
                  if (!G.Check.empty())
                    J.attributeObject("associatedRule", [&] {
                      J.attribute("id", G.Check);
                      J.attribute("index", P.ruleIndex(G.Check));
                    });
                  J.attributeObject("properties", [&] {
                    J.attribute("kernel", G.Kernel);
                    J.attribute("block", G.Block);
                    J.attribute("reason", G.Why);
                  });
                });
            });
          });
        });
        if (!Ctx.RepoRoot.empty())
          J.attributeObject("originalUriBaseIds", [&] {
            J.attributeObject(SrcRoot, [&] {
              std::string Root = fileUri(Ctx.RepoRoot);
              if (!llvm::StringRef(Root).ends_with("/"))
                Root += '/';
              J.attribute("uri", Root);
            });
          });
        J.attribute("columnKind", "utf16CodeUnits");
        J.attributeArray("results", [&] {
          for (size_t I = 0; I < Findings.size(); ++I) {
            const ReportedFinding &F = Findings[I];
            J.object([&] {
              J.attribute("ruleId", F.Check);
              J.attribute("ruleIndex", P.ruleIndex(F.Check));
              J.attribute("level", F.WarningAsError ? "error" : "warning");
              if (P.Ctx.AgainstBaseline)
                J.attribute("baselineState", "new");
              J.attributeObject("message", [&] {
                std::string Text = F.Message;
                if (Ctx.Verbose && !F.Detail.empty())
                  Text += "\n" + F.Detail;
                J.attribute("text", Text);
              });
              J.attributeArray("locations", [&] {
                J.object([&] { writePhysicalLocation(J, F.Loc, P); });
              });
              if (!F.Notes.empty())
                J.attributeArray("relatedLocations", [&] {
                  for (size_t N = 0; N < F.Notes.size(); ++N)
                    J.object([&] {
                      J.attribute("id", static_cast<int64_t>(N));
                      writePhysicalLocation(J, F.Notes[N].Loc, P);
                      J.attributeObject("message", [&] {
                        J.attribute("text", F.Notes[N].Message);
                      });
                    });
                });
              J.attributeObject("partialFingerprints", [&] {
                const auto &[Base, N] = P.Fingerprints[I];
                J.attribute("shmemLintFingerprint/v1",
                            Base + ":" + std::to_string(N));
              });
              if (!F.Fixes.empty())
                J.attributeArray("fixes", [&] {
                  J.object([&] {
                    J.attributeObject("description", [&] {
                      J.attribute("text", "apply shmem-lint's fix-it");
                    });
                    // One artifactChange per file, in order of appearance.
                    std::vector<std::string> Files;
                    for (const ReportedFix &X : F.Fixes)
                      if (!llvm::is_contained(Files, X.File))
                        Files.push_back(X.File);
                    J.attributeArray("artifactChanges", [&] {
                      for (const std::string &File : Files)
                        J.object([&] {
                          writeArtifactLocation(J, File, P);
                          J.attributeArray("replacements", [&] {
                            for (const ReportedFix &X : F.Fixes) {
                              if (X.File != File)
                                continue;
                              J.object([&] {
                                J.attributeObject("deletedRegion", [&] {
                                  J.attribute("byteOffset", X.Offset);
                                  J.attribute("byteLength", X.Length);
                                });
                                J.attributeObject("insertedContent", [&] {
                                  J.attribute("text", X.Replacement);
                                });
                              });
                            }
                          });
                        });
                    });
                  });
                });
              if (!F.Detail.empty() || F.Compiled || F.Measured)
                J.attributeObject("properties", [&] {
                  if (!F.Detail.empty())
                    J.attribute("detail", F.Detail);
                  writeEvidenceJson(J, F);
                });
            });
          }
        });
      });
    });
  });
  OS << '\n';
}

//===----------------------------------------------------------------------===//
// GitHub, GitLab, JSON
//===----------------------------------------------------------------------===//

/// A gap's fingerprint, as a finding's (no line number) under the gap's
/// own name, so that it never equals a finding's.
std::string gapFingerprint(const ReportedGap &G, Prepared &P) {
  ReportedFinding F;
  F.Check = std::string(AnalysisGapId) + "/" + G.Check;
  F.Loc = G.Loc;
  F.Message = G.message();
  return fingerprintWith(F, P.Ctx.RepoRoot, P.Sources);
}

void writeGitHub(llvm::raw_ostream &OS,
                 llvm::ArrayRef<ReportedFinding> Findings,
                 llvm::ArrayRef<ReportedGap> Gaps, Prepared &P) {
  size_t Errors = 0;
  for (const ReportedFinding &F : Findings) {
    Errors += F.WarningAsError;
    OS << (F.WarningAsError ? "::error" : "::warning")
       << " file=" << escapeGitHubProperty(P.relative(F.Loc.File));
    if (F.Loc.Line) {
      OS << ",line=" << F.Loc.Line;
      if (F.Loc.Column)
        OS << ",col=" << F.Loc.Column;
    }
    OS << ",title=" << escapeGitHubProperty(F.Check) << "::";
    std::string Message = F.Message;
    for (const ReportedNote &N : F.Notes) {
      Message += "\nnote: " + P.relative(N.Loc.File);
      if (N.Loc.Line)
        Message += ":" + std::to_string(N.Loc.Line);
      if (N.Loc.Line && N.Loc.Column)
        Message += ":" + std::to_string(N.Loc.Column);
      Message += ": " + N.Message;
    }
    for (const std::string &E : evidenceNotes(F))
      Message += "\nnote: " + E;
    if (P.Ctx.Verbose && !F.Detail.empty())
      Message += "\n" + F.Detail;
    OS << escapeGitHubData(Message) << '\n';
  }
  // GitHub turns at most 10 warnings and 10 errors of a step (50 of a job)
  // into annotations; say so rather than let the rest go unnoticed.
  // Notices have a limit of their own.
  if (Errors > GitHubAnnotationsPerStep ||
      Findings.size() - Errors > GitHubAnnotationsPerStep)
    OS << "::notice title=shmem-lint::"
       << escapeGitHubData(
              std::to_string(Findings.size()) +
              " findings; GitHub annotates only the first " +
              std::to_string(GitHubAnnotationsPerStep) +
              " warnings of a step. Every finding is in this step's log; "
              "upload --format=sarif to code scanning to see them all on "
              "the pull request.")
       << '\n';
  // Parts of kernels not analysed: notices, which GitHub shows apart from
  // the warnings (and does not count against their limit).
  for (const ReportedGap &G : Gaps) {
    OS << "::notice file=" << escapeGitHubProperty(P.relative(G.Loc.File));
    if (G.Loc.Line) {
      OS << ",line=" << G.Loc.Line;
      if (G.Loc.Column)
        OS << ",col=" << G.Loc.Column;
    }
    OS << ",title="
       << escapeGitHubProperty("shmem-lint: not fully analysed" +
                               (G.Check.empty() ? "" : " (" + G.Check + ")"))
       << "::"
       << escapeGitHubData(G.message() + G.where())
       << '\n';
  }
}

void writeGitLab(llvm::raw_ostream &OS,
                 llvm::ArrayRef<ReportedFinding> Findings,
                 llvm::ArrayRef<ReportedGap> Gaps, Prepared &P) {
  llvm::json::OStream J(OS, 2);
  J.array([&] {
    for (size_t I = 0; I < Findings.size(); ++I) {
      const ReportedFinding &F = Findings[I];
      const CheckDescription &D = P.Checks[P.ruleIndex(F.Check)];
      J.object([&] {
        J.attribute("description", F.Message);
        J.attribute("check_name", F.Check);
        J.attribute("fingerprint", P.uniqueFingerprint(I));
        // A finding the project made an error outranks every warning.
        J.attribute("severity", F.WarningAsError ? "critical"
                                : D.Correctness  ? "major"
                                                 : "minor");
        J.attributeObject("location", [&] {
          J.attribute("path", P.relative(F.Loc.File));
          J.attributeObject(
              "lines", [&] { J.attribute("begin", std::max(F.Loc.Line, 1u)); });
        });
      });
    }
    // Code Quality has issues only: a part of a kernel not analysed is one
    // of the lowest severity, under a name no check has.
    for (const ReportedGap &G : Gaps)
      J.object([&] {
        std::string Text = (G.Check.empty() ? "" : G.Check + " ") +
                           "not fully analysed: " + G.message() + G.where();
        J.attribute("description", Text);
        J.attribute("check_name", AnalysisGapId);
        J.attribute("fingerprint", gapFingerprint(G, P));
        J.attribute("severity", "info");
        J.attributeObject("location", [&] {
          J.attribute("path", P.relative(G.Loc.File));
          J.attributeObject(
              "lines", [&] { J.attribute("begin", std::max(G.Loc.Line, 1u)); });
        });
      });
  });
  OS << '\n';
}

void writeJsonLocation(llvm::json::OStream &J, const ReportedLocation &L,
                       Prepared &P) {
  J.attribute("file", L.File);
  J.attribute("path", P.relative(L.File));
  J.attribute("line", L.Line);
  J.attribute("column", L.Column);
}

void writeJson(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedFinding> Findings,
               llvm::ArrayRef<ReportedGap> Gaps, Prepared &P) {
  llvm::json::OStream J(OS, 2);
  J.array([&] {
    for (size_t I = 0; I < Findings.size(); ++I) {
      const ReportedFinding &F = Findings[I];
      J.object([&] {
        J.attribute("kind", "finding");
        J.attribute("check", F.Check);
        // "error" for a warning promoted by --warnings-as-errors.
        J.attribute("level", F.WarningAsError ? "error" : "warning");
        writeJsonLocation(J, F.Loc, P);
        J.attribute("message", F.Message);
        J.attributeArray("notes", [&] {
          for (const ReportedNote &N : F.Notes)
            J.object([&] {
              writeJsonLocation(J, N.Loc, P);
              J.attribute("message", N.Message);
            });
        });
        J.attributeArray("fixes", [&] {
          for (const ReportedFix &X : F.Fixes)
            J.object([&] {
              J.attribute("file", X.File);
              J.attribute("path", P.relative(X.File));
              J.attribute("offset", X.Offset);
              J.attribute("length", X.Length);
              J.attribute("line", X.Line);
              J.attribute("column", X.Column);
              J.attribute("replacement", X.Replacement);
            });
        });
        J.attribute("detail", F.Detail);
        writeEvidenceJson(J, F);
        J.attribute("fingerprint", P.uniqueFingerprint(I));
      });
    }
    // After the findings, and with no "check" key: a script that reads
    // findings by their check does not take a gap for one.
    for (const ReportedGap &G : Gaps)
      J.object([&] {
        J.attribute("kind", "gap");
        J.attribute("for_check", G.Check);
        J.attribute("level", "remark"); // Never promoted.
        writeJsonLocation(J, G.Loc, P);
        J.attribute("message", G.message());
        J.attribute("what", G.What);
        J.attribute("reason", G.Why);
        J.attribute("kernel", G.Kernel);
        J.attribute("block", G.Block);
        J.attributeArray("notes", [&] {
          for (const ReportedNote &N : G.Notes)
            J.object([&] {
              writeJsonLocation(J, N.Loc, P);
              J.attribute("message", N.Message);
            });
        });
        J.attribute("fingerprint", gapFingerprint(G, P));
      });
  });
  OS << '\n';
}

} // namespace

std::string escapeGitHubData(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string escapeGitHubProperty(llvm::StringRef S) {
  std::string Out;
  for (char C : escapeGitHubData(S)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

void writeFindings(llvm::raw_ostream &OS, OutputFormat Format,
                   llvm::ArrayRef<ReportedFinding> Findings,
                   const OutputContext &Ctx, llvm::ArrayRef<ReportedGap> Gaps) {
  Prepared P(Findings, Ctx);
  switch (Format) {
  case OutputFormat::Text:
    writeText(OS, Findings, Gaps, P);
    return;
  case OutputFormat::Sarif:
    writeSarif(OS, Findings, Gaps, P);
    return;
  case OutputFormat::GitHub:
    writeGitHub(OS, Findings, Gaps, P);
    return;
  case OutputFormat::GitLab:
    writeGitLab(OS, Findings, Gaps, P);
    return;
  case OutputFormat::Json:
    writeJson(OS, Findings, Gaps, P);
    return;
  case OutputFormat::Html:
    writeHtmlReport(OS, Findings, Ctx, Gaps);
    return;
  }
}

//===----------------------------------------------------------------------===//
// clang-tidy --export-fixes
//===----------------------------------------------------------------------===//

OffsetResolver fileOffsetResolver(FileReader Read) {
  auto Sources = std::make_shared<SourceCache>(std::move(Read));
  return [Sources](llvm::StringRef File, unsigned Line,
                   unsigned Column) -> std::optional<unsigned> {
    std::optional<unsigned> Start = Sources->lineStart(File, Line);
    if (!Start || Column == 0)
      return std::nullopt;
    return *Start + Column - 1;
  };
}

namespace {
struct YamlReplacement {
  std::string FilePath;
  unsigned Offset = 0, Length = 0;
  std::string ReplacementText;
};
struct YamlMessage {
  std::string Message;
  std::string FilePath;
  unsigned FileOffset = 0;
  std::vector<YamlReplacement> Replacements;
};
struct YamlDiagnostic {
  std::string DiagnosticName;
  YamlMessage DiagnosticMessage;
  std::vector<YamlMessage> Notes;
  std::string Level = "Warning";
  std::string BuildDirectory;
};
struct YamlDocument {
  std::string MainSourceFile;
  std::vector<YamlDiagnostic> Diagnostics;
};
} // namespace
} // namespace shmem

LLVM_YAML_IS_SEQUENCE_VECTOR(shmem::YamlReplacement)
LLVM_YAML_IS_SEQUENCE_VECTOR(shmem::YamlMessage)
LLVM_YAML_IS_SEQUENCE_VECTOR(shmem::YamlDiagnostic)

namespace llvm {
namespace yaml {
// The same keys, order and optionality as clang/Tooling/DiagnosticsYaml.h.
template <> struct MappingTraits<shmem::YamlReplacement> {
  static void mapping(IO &Io, shmem::YamlReplacement &R) {
    Io.mapRequired("FilePath", R.FilePath);
    Io.mapRequired("Offset", R.Offset);
    Io.mapRequired("Length", R.Length);
    Io.mapRequired("ReplacementText", R.ReplacementText);
  }
};
template <> struct MappingTraits<shmem::YamlMessage> {
  static void mapping(IO &Io, shmem::YamlMessage &M) {
    Io.mapRequired("Message", M.Message);
    Io.mapOptional("FilePath", M.FilePath);
    Io.mapOptional("FileOffset", M.FileOffset);
    Io.mapRequired("Replacements", M.Replacements);
  }
};
template <> struct MappingTraits<shmem::YamlDiagnostic> {
  static void mapping(IO &Io, shmem::YamlDiagnostic &D) {
    Io.mapRequired("DiagnosticName", D.DiagnosticName);
    Io.mapRequired("DiagnosticMessage", D.DiagnosticMessage);
    Io.mapOptional("Notes", D.Notes);
    Io.mapOptional("Level", D.Level);
    Io.mapOptional("BuildDirectory", D.BuildDirectory);
  }
};
template <> struct MappingTraits<shmem::YamlDocument> {
  static void mapping(IO &Io, shmem::YamlDocument &Doc) {
    Io.mapRequired("MainSourceFile", Doc.MainSourceFile);
    Io.mapRequired("Diagnostics", Doc.Diagnostics);
  }
};
} // namespace yaml
} // namespace llvm

namespace shmem {

void writeExportFixesYaml(llvm::raw_ostream &OS, llvm::StringRef MainSourceFile,
                          llvm::ArrayRef<ReportedFinding> Findings,
                          llvm::StringRef BuildDirectory,
                          OffsetResolver Offsets,
                          llvm::ArrayRef<ReportedGap> Gaps) {
  if (!Offsets)
    Offsets = fileOffsetResolver();
  auto Message = [&](llvm::StringRef Text, const ReportedLocation &L) {
    YamlMessage M;
    M.Message = Text.str();
    M.FilePath = L.File;
    M.FileOffset = Offsets(L.File, L.Line, L.Column).value_or(0);
    return M;
  };
  YamlDocument Doc;
  Doc.MainSourceFile = MainSourceFile.str();
  for (const ReportedFinding &F : Findings) {
    YamlDiagnostic D;
    D.DiagnosticName = F.Check;
    D.DiagnosticMessage = Message(F.Message, F.Loc);
    // As clang-tidy 22 exports a warning it promoted.
    if (F.WarningAsError)
      D.Level = "Error";
    for (const ReportedFix &X : F.Fixes)
      D.DiagnosticMessage.Replacements.push_back(
          {X.File, X.Offset, X.Length, X.Replacement});
    for (const ReportedNote &N : F.Notes)
      D.Notes.push_back(Message(N.Message, N.Loc));
    D.BuildDirectory = BuildDirectory.str();
    Doc.Diagnostics.push_back(std::move(D));
  }
  for (const ReportedGap &G : Gaps) {
    YamlDiagnostic D;
    D.DiagnosticName = G.Check.empty() ? AnalysisGapId : G.Check;
    D.DiagnosticMessage = Message(G.message(), G.Loc);
    for (const ReportedNote &N : G.Notes)
      D.Notes.push_back(Message(N.Message, N.Loc));
    D.Level = "Remark";
    D.BuildDirectory = BuildDirectory.str();
    Doc.Diagnostics.push_back(std::move(D));
  }
  llvm::yaml::Output Out(OS);
  Out << Doc;
}

} // namespace shmem
