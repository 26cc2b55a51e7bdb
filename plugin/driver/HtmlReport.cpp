//===- HtmlReport.cpp - shmem-lint's self-contained HTML report -----------===//

#include "HtmlReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace shmem {

std::string escapeHtml(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

namespace {

//===----------------------------------------------------------------------===//
// Source excerpts
//===----------------------------------------------------------------------===//

class Sources {
public:
  explicit Sources(FileReader Read)
      : Read(Read ? std::move(Read) : diskFileReader()) {}

  /// The lines of \p File, or null when it cannot be read.
  const std::vector<std::string> *lines(llvm::StringRef File) {
    if (File.empty())
      return nullptr;
    auto It = Cache.find(File);
    if (It == Cache.end()) {
      std::optional<std::vector<std::string>> Lines;
      if (std::optional<std::string> Text = Read(File)) {
        Lines.emplace();
        llvm::SmallVector<llvm::StringRef, 64> Parts;
        llvm::StringRef(*Text).split(Parts, '\n');
        for (llvm::StringRef P : Parts)
          Lines->push_back(P.rtrim('\r').str());
        if (!Lines->empty() && Lines->back().empty())
          Lines->pop_back();
      }
      It = Cache.try_emplace(File, std::move(Lines)).first;
    }
    return It->second ? &*It->second : nullptr;
  }

private:
  FileReader Read;
  llvm::StringMap<std::optional<std::vector<std::string>>> Cache;
};

std::string capitalized(std::string S) {
  if (!S.empty())
    S[0] = llvm::toUpper(S[0]);
  return S;
}

/// Tabs to spaces, so the caret lines up.
std::string expandTabs(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '\t')
      Out.append(8 - Out.size() % 8, ' ');
    else
      Out += C;
  }
  return Out;
}

/// Lines around \p L with the line of \p L marked and a caret under its
/// column; empty when the file cannot be read.
std::string excerpt(Sources &Src, const ReportedLocation &L, unsigned Around) {
  const std::vector<std::string> *Lines = Src.lines(L.File);
  if (!Lines || L.Line == 0 || L.Line > Lines->size())
    return "";
  unsigned First = L.Line > Around ? L.Line - Around : 1;
  unsigned Last = std::min<unsigned>(Lines->size(), L.Line + Around);
  unsigned Width = std::to_string(Last).size();
  std::ostringstream OS;
  // One block per line (no newline characters between them, so that the
  // marked line and the caret line space like the others).
  OS << "<pre class=\"src\">";
  for (unsigned N = First; N <= Last; ++N) {
    std::string Num = std::to_string(N);
    std::string Pad(Width - Num.size(), ' ');
    llvm::StringRef Text = (*Lines)[N - 1];
    OS << "<span class=\"" << (N == L.Line ? "l hl" : "l")
       << "\"><span class=\"ln\">" << Pad << Num << "</span> "
       << escapeHtml(expandTabs(Text)) << "</span>";
    if (N == L.Line) {
      // The caret: clang's columns are bytes; count the prefix's visible
      // width in code points.
      std::string Prefix =
          expandTabs(Text.take_front(L.Column ? L.Column - 1 : 0));
      unsigned Cols = 0;
      for (unsigned char C : Prefix)
        Cols += (C & 0xC0) != 0x80;
      OS << "<span class=\"l\"><span class=\"ln\">" << std::string(Width, ' ')
         << "</span> " << std::string(Cols, ' ')
         << "<span class=\"caret\">^</span></span>";
    }
  }
  OS << "</pre>";
  return OS.str();
}

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

/// The message with 'quoted' source text as code and the witness threads of
/// a race ("thread (0,1)", "thread 16") emphasised.
std::string richMessage(llvm::StringRef Msg) {
  static const std::regex Token(
      R"('[^'\s][^']*'|threads? \([0-9]+(?:, ?[0-9]+){0,2}\)|threads? [0-9]+(?![0-9]))");
  std::string S = Msg.str();
  std::ostringstream OS;
  auto Begin = std::sregex_iterator(S.begin(), S.end(), Token);
  size_t Pos = 0;
  for (auto It = Begin; It != std::sregex_iterator(); ++It) {
    const std::smatch &M = *It;
    size_t At = size_t(M.position(0));
    OS << escapeHtml(llvm::StringRef(S).slice(Pos, At));
    std::string T = M.str(0);
    if (T[0] == '\'')
      OS << "<code>" << escapeHtml(llvm::StringRef(T).drop_front().drop_back())
         << "</code>";
    else
      OS << "<b class=\"thread\">" << escapeHtml(T) << "</b>";
    Pos = At + T.size();
  }
  OS << escapeHtml(llvm::StringRef(S).drop_front(Pos));
  return OS.str();
}

std::string locationText(const ReportedLocation &L, llvm::StringRef Root) {
  if (L.File.empty())
    return "(no location)";
  std::string S = repoRelativePath(L.File, Root);
  if (L.Line) {
    S += ":" + std::to_string(L.Line);
    if (L.Column)
      S += ":" + std::to_string(L.Column);
  }
  return S;
}

//===----------------------------------------------------------------------===//
// Lane->bank pictures
//===----------------------------------------------------------------------===//

/// Fill of a bank serving \p Words distinct words (of at most \p Max).
std::string bankFill(unsigned Words, unsigned Max) {
  if (Words == 0)
    return "#ececec";
  if (Words == 1)
    return "#8fd17a";
  // From orange (2 words) to deep red (the worst).
  double T = Max > 2 ? double(Words - 2) / double(Max - 2) : 1.0;
  int Hue = int(32 - 32 * T);
  int Light = int(60 - 18 * T);
  return "hsl(" + std::to_string(Hue) + ",85%," + std::to_string(Light) + "%)";
}

std::string bytesText(int64_t Bytes, int64_t Base) {
  if (Bytes < 0)
    return "";
  std::string S = std::to_string(Bytes) + " bytes";
  if (Base >= 0 && Base != Bytes) {
    int64_t D = Bytes - Base;
    S += " (" + std::string(D > 0 ? "+" : "") + std::to_string(D) + ")";
  } else if (Base >= 0) {
    S += " (+0)";
  }
  return S;
}

} // namespace

std::string laneBankSvg(const LayoutPicture &L, llvm::StringRef Title) {
  const unsigned Lanes = L.LaneBank.size();
  const unsigned Banks = L.WordsPerBank.size();
  const unsigned Cell = 14, Left = 36;
  const unsigned Columns = std::max(Lanes, Banks);
  const unsigned Width = Left + Columns * Cell + 6, Height = 146;
  const unsigned LaneY = 30, BankY = 100, BankH = 18;
  unsigned MaxWords = 0;
  for (unsigned W : L.WordsPerBank)
    MaxWords = std::max(MaxWords, W);
  auto LaneX = [&](unsigned I) { return Left + I * Cell + Cell / 2; };
  std::ostringstream OS;
  OS << "<svg class=\"lanebank\" "
        "role=\"img\" viewBox=\"0 0 "
     << Width << " " << Height << "\" width=\"" << Width << "\" height=\""
     << Height << "\"><title>" << escapeHtml(Title) << "</title>";
  OS << "<text class=\"axis\" x=\"2\" y=\"" << LaneY + 4 << "\">lane</text>";
  OS << "<text class=\"axis\" x=\"2\" y=\"" << BankY + 13 << "\">bank</text>";
  // Phase boundaries for 8- and 16-byte accesses.
  if (L.PhaseLanes && L.PhaseLanes < Lanes)
    for (unsigned P = L.PhaseLanes; P < Lanes; P += L.PhaseLanes)
      OS << "<line class=\"phase\" x1=\"" << Left + P * Cell
         << "\" y1=\"6\" x2=\"" << Left + P * Cell << "\" y2=\"" << LaneY + 12
         << "\"/>";
  // Lines first, so that the circles and boxes sit on top.
  for (unsigned I = 0; I < Lanes; ++I) {
    int B = L.LaneBank[I];
    if (B < 0 || unsigned(B) >= Banks)
      continue;
    bool Conflicted = L.WordsPerBank[B] > 1;
    bool Broadcast = I < L.Broadcast.size() && L.Broadcast[I];
    OS << "<line class=\"" << (Conflicted ? "edge bad" : "edge ok")
       << (Broadcast ? " bcast" : "") << "\" x1=\"" << LaneX(I) << "\" y1=\""
       << LaneY + 6 << "\" x2=\"" << LaneX(unsigned(B)) << "\" y2=\"" << BankY
       << "\"/>";
  }
  for (unsigned I = 0; I < Lanes; ++I) {
    int B = L.LaneBank[I];
    bool Broadcast = B >= 0 && I < L.Broadcast.size() && L.Broadcast[I];
    OS << "<text class=\"num\" x=\"" << LaneX(I) << "\" y=\"" << LaneY - 10
       << "\">" << I << "</text>";
    OS << "<circle class=\""
       << (B < 0       ? "lane off"
           : Broadcast ? "lane bcast"
                       : "lane")
       << "\" cx=\"" << LaneX(I) << "\" cy=\"" << LaneY
       << "\" r=\"5.5\"><title>lane " << I;
    if (B < 0)
      OS << ": inactive";
    else {
      OS << ": bank " << B << ", word " << L.LaneWord[I];
      if (Broadcast)
        OS << " (shared with another lane: broadcast)";
    }
    OS << "</title></circle>";
  }
  for (unsigned B = 0; B < Banks; ++B) {
    unsigned W = L.WordsPerBank[B];
    unsigned X = Left + B * Cell + 1;
    OS << "<rect class=\"bank\" x=\"" << X << "\" y=\"" << BankY
       << "\" width=\"" << Cell - 2 << "\" height=\"" << BankH << "\" fill=\""
       << bankFill(W, MaxWords) << "\"><title>bank " << B << ": " << W
       << (W == 1 ? " distinct word" : " distinct words") << "</title></rect>";
    if (W)
      OS << "<text class=\"words" << (W > 1 ? " hot" : "") << "\" x=\""
         << X + (Cell - 2) / 2 << "\" y=\"" << BankY + 13 << "\">" << W
         << "</text>";
    OS << "<text class=\"num\" x=\"" << X + (Cell - 2) / 2 << "\" y=\""
       << BankY + BankH + 11 << "\">" << B << "</text>";
  }
  OS << "<text class=\"legend\" x=\"" << Left << "\" y=\"" << Height - 3
     << "\">number in a bank: distinct words it serves; dashed: broadcast "
        "lane</text>";
  OS << "</svg>";
  return OS.str();
}

namespace {

void writeLayoutFigure(llvm::raw_ostream &OS, const LayoutPicture &L,
                       const LayoutPicture *Base, llvm::StringRef Kind,
                       llvm::StringRef Heading) {
  OS << "<figure class=\"layout " << Kind << "\">";
  OS << "<figcaption><span class=\"what\">" << escapeHtml(Heading) << "</span>";
  if (!L.Layout.empty())
    OS << " <code>" << escapeHtml(L.Layout) << "</code>";
  OS << "<br><span class=\"cost " << (L.Degree > 1 ? "bad" : "ok") << "\">"
     << escapeHtml(describeLayoutCost(L)) << "</span>";
  std::string Bytes = bytesText(L.SharedBytes, Base ? Base->SharedBytes : -1);
  if (!Bytes.empty())
    OS << "<br><span class=\"bytes\">shared memory: " << escapeHtml(Bytes)
       << "</span>";
  OS << "</figcaption>";
  OS << laneBankSvg(L, Heading.str() + ": " + describeLayoutCost(L));
  OS << "</figure>\n";
}

void writeLaneTable(llvm::raw_ostream &OS, const BankPicture &P) {
  std::vector<std::pair<const LayoutPicture *, std::string>> Cols = {
      {&P.Original, "as written"}};
  if (P.Padded)
    Cols.push_back({&*P.Padded, "padded"});
  if (P.Swizzled)
    Cols.push_back({&*P.Swizzled, "XOR swizzle"});
  OS << "<details class=\"lanes\"><summary>lane &rarr; bank table (warp "
     << P.Warp << ")</summary><table><thead><tr><th>lane</th>";
  for (auto &C : Cols)
    OS << "<th>" << escapeHtml(C.second) << " bank</th><th>word</th>";
  OS << "</tr></thead><tbody>";
  for (size_t I = 0; I < P.Original.LaneBank.size(); ++I) {
    OS << "<tr><td>" << I << "</td>";
    for (auto &C : Cols) {
      const LayoutPicture &L = *C.first;
      if (I >= L.LaneBank.size() || L.LaneBank[I] < 0) {
        OS << "<td class=\"off\">&ndash;</td><td class=\"off\">&ndash;</td>";
        continue;
      }
      bool Hot = L.WordsPerBank[L.LaneBank[I]] > 1;
      bool Bc = I < L.Broadcast.size() && L.Broadcast[I];
      OS << "<td" << (Hot ? " class=\"hot\"" : "") << ">" << L.LaneBank[I]
         << "</td><td>" << L.LaneWord[I] << (Bc ? " (broadcast)" : "")
         << "</td>";
    }
    OS << "</tr>";
  }
  OS << "</tbody></table></details>\n";
}

void writeBankPicture(llvm::raw_ostream &OS, const BankPicture &P) {
  OS << "<div class=\"picture\"><p class=\"pic-head\">Warp " << P.Warp << ", "
     << P.WidthBytes << "-byte " << (P.Store ? "store" : "load") << " of <code>"
     << escapeHtml(P.Array) << "</code>: " << P.Original.activeLanes()
     << " active lanes";
  if (P.WidthBytes > 4)
    OS << "; each lane touches " << (P.WidthBytes + 3) / 4
       << " banks (the first is drawn); served in phases of "
       << P.Original.PhaseLanes << " lanes";
  OS << ".</p><div class=\"layouts\">\n";
  writeLayoutFigure(OS, P.Original, nullptr, "original", "As written");
  if (P.Padded)
    writeLayoutFigure(OS, *P.Padded, &P.Original, "padded",
                      P.PaddingSuggested ? "After the suggested padding"
                                         : "Padded (what-if, not suggested)");
  if (P.Swizzled)
    writeLayoutFigure(OS, *P.Swizzled, &P.Original, "swizzled",
                      "XOR swizzle (what-if)");
  OS << "</div>";
  if (P.Swizzled)
    OS << "<p class=\"aside\">A swizzle must index every access to <code>"
       << escapeHtml(P.Array)
       << "</code> the same way, where it is written and where it is read.";
  if (P.Padded && !P.PaddingSuggested)
    OS << (P.Swizzled ? " " : "<p class=\"aside\">")
       << "The padding shown is not suggested: it does not make every access "
          "to the array conflict-free or no worse.";
  if (P.Swizzled || (P.Padded && !P.PaddingSuggested))
    OS << "</p>";
  if (!P.WhatIfNote.empty())
    OS << "<p class=\"aside\">" << escapeHtml(capitalized(P.WhatIfNote))
       << ".</p>";
  writeLaneTable(OS, P);
  OS << "</div>\n";
}

const char *const Style = R"css(
:root{--bad:#c0392b;--ok:#1e8449;--ink:#1d2433;--mute:#5b6474;--line:#d9dde5}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;color:#c9cfdb}
main{padding:12px 24px 40px;max-width:1400px}
nav ol{margin:6px 0 0;padding-left:20px}
nav a{color:#2a5db0;text-decoration:none}
.finding{background:#fff;border:1px solid var(--line);border-left:5px solid #e0a800;border-radius:6px;margin:14px 0;padding:10px 16px}
.finding.shmem-race,.finding.shmem-divergent-barrier{border-left-color:var(--bad)}
.finding h2{font-size:15px;margin:0 0 4px;font-weight:600}
.check{display:inline-block;font-size:12px;padding:1px 8px;border-radius:10px;background:#fdf2cc;color:#6b5200;margin-right:8px}
.shmem-race .check,.shmem-divergent-barrier .check{background:#f9dcd8;color:#7b1d12}
.level-error{display:inline-block;font-size:12px;padding:1px 8px;border-radius:10px;background:#b3261e;color:#fff;margin-right:8px}
.loc{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px;color:var(--mute)}
.message{margin:4px 0 8px;font-size:14.5px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:12.5px}
code{background:#eef1f6;padding:0 3px;border-radius:3px}
pre.src{background:#fbfbfc;border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:4px 0 8px;overflow-x:auto;line-height:1.35}
pre.src .ln{color:#9aa2b1}
pre.src .l{display:block;min-height:1.35em}
pre.src .hl{background:#fff3bf}
pre.src .caret{color:var(--bad);font-weight:bold}
b.thread{color:#7b1d12;background:#fbe7e4;padding:0 3px;border-radius:3px;font-weight:600}
.notes{list-style:none;padding:0;margin:6px 0}
.notes li{margin:6px 0}
.notes .kind{font-weight:600;color:var(--mute)}
.pair{display:flex;flex-wrap:wrap;gap:12px}
.pair>div{flex:1 1 420px;min-width:0}
.pair h3{font-size:13px;margin:4px 0;color:var(--mute)}
.picture{margin:6px 0 4px}
.pic-head{margin:4px 0;color:var(--mute)}
.layouts{display:flex;flex-wrap:wrap;gap:10px}
figure.layout{flex:0 1 510px;min-width:0;margin:0;border:1px solid var(--line);border-radius:6px;padding:6px 8px;background:#fff}
figure.layout.original{border-top:4px solid #7d8799}
figure.layout.padded{border-top:4px solid var(--ok)}
figure.layout.swizzled{border-top:4px solid #2a5db0}
figcaption{font-size:13px;margin-bottom:2px}
figcaption .what{font-weight:600}
.cost.bad{color:var(--bad);font-weight:600}
.cost.ok{color:var(--ok);font-weight:600}
.bytes{color:var(--mute)}
svg.lanebank{display:block;max-width:100%;height:auto}
svg .axis{font-size:10px;fill:var(--mute)}
svg .num{font-size:7.5px;fill:#7a8292;text-anchor:middle}
svg .legend{font-size:9px;fill:var(--mute)}
svg .words{font-size:9px;text-anchor:middle;fill:#1d2433}
svg .words.hot{fill:#fff;font-weight:bold}
svg .edge{stroke-width:1.1}
svg .edge.bad{stroke:var(--bad);stroke-opacity:.55}
svg .edge.ok{stroke:var(--ok);stroke-opacity:.6}
svg .edge.bcast{stroke-dasharray:3 2}
svg .lane{fill:#1d2433}
svg .lane.bcast{fill:#2a5db0}
svg .lane.off{fill:#fff;stroke:#b8bec9}
svg .bank{stroke:#fff}
svg .phase{stroke:#9aa2b1;stroke-dasharray:2 2}
.aside{color:var(--mute);font-size:13px;margin:6px 0}
details.lanes{margin:6px 0}
details.lanes table{border-collapse:collapse;font-size:12px;margin-top:4px}
details.lanes th,details.lanes td{border:1px solid var(--line);padding:1px 6px;text-align:right}
details.lanes td.hot{color:var(--bad);font-weight:600}
details.lanes td.off{color:#b8bec9}
pre.detail{background:#fbfbfc;border:1px solid var(--line);padding:6px 8px}
.fix{font-size:13px}
.empty{font-size:15px;color:var(--ok)}
.gaps{background:#fff;border:1px solid var(--line);border-left:5px solid #7d8799;border-radius:6px;margin:14px 0;padding:10px 16px}
.gaps h2{font-size:15px;margin:0 0 4px}
.gap h3{font-size:14px;margin:10px 0 2px;font-weight:600}
footer{color:var(--mute);font-size:12px;padding:0 24px 20px}
)css";

/// The note shown side by side with the finding: a race's other access
/// (with its witness thread), a divergent barrier's condition.
const ReportedNote *pairedNote(const ReportedFinding &F) {
  llvm::StringRef Prefix = F.Check == "shmem-race" ? "the conflicting "
                           : F.Check == "shmem-divergent-barrier"
                               ? "this condition "
                               : "";
  if (Prefix.empty())
    return nullptr;
  for (const ReportedNote &N : F.Notes)
    if (llvm::StringRef(N.Message).starts_with(Prefix))
      return &N;
  return nullptr;
}

} // namespace

void writeHtmlReport(llvm::raw_ostream &OS,
                     llvm::ArrayRef<ReportedFinding> Findings,
                     const OutputContext &Ctx,
                     llvm::ArrayRef<ReportedGap> Gaps) {
  Sources Src(Ctx.ReadFile);
  std::map<std::string, unsigned> ByCheck;
  std::map<std::string, unsigned> Files;
  for (const ReportedFinding &F : Findings) {
    ++ByCheck[F.Check];
    ++Files[repoRelativePath(F.Loc.File, Ctx.RepoRoot)];
  }
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n<title>shmem-lint report</title>\n<style>"
     << Style
     << "</style>\n</head>\n<body>\n<header><h1>shmem-lint report</h1><p>";
  if (Findings.empty()) {
    OS << "No findings.";
  } else {
    OS << Findings.size() << (Findings.size() == 1 ? " finding" : " findings")
       << " in " << Files.size() << (Files.size() == 1 ? " file" : " files")
       << ": ";
    bool First = true;
    for (const auto &KV : ByCheck) {
      OS << (First ? "" : ", ") << KV.second << " " << escapeHtml(KV.first);
      First = false;
    }
  }
  if (!Gaps.empty())
    OS << " <a href=\"#not-analysed\">" << Gaps.size()
       << (Gaps.size() == 1 ? " part" : " parts")
       << " of kernels not analysed</a>.";
  OS << "</p></header>\n<main>\n";
  if (Findings.empty() && !Gaps.empty())
    OS << "<p class=\"empty\">shmem-lint found nothing to report in what it "
          "analysed.</p>\n";
  else if (Findings.empty())
    OS << "<p class=\"empty\">shmem-lint found nothing to report.</p>\n";
  else {
    OS << "<nav><ol>";
    for (size_t I = 0; I < Findings.size(); ++I) {
      const ReportedFinding &F = Findings[I];
      std::string Short =
          F.Message.size() > 110 ? F.Message.substr(0, 107) + "..." : F.Message;
      OS << "<li><a href=\"#finding-" << I + 1 << "\"><span class=\"loc\">"
         << escapeHtml(locationText(F.Loc, Ctx.RepoRoot)) << "</span> "
         << escapeHtml(Short) << "</a></li>";
    }
    OS << "</ol></nav>\n";
  }

  for (size_t I = 0; I < Findings.size(); ++I) {
    const ReportedFinding &F = Findings[I];
    // A warning promoted by --warnings-as-errors says so before its check.
    OS << "<section class=\"finding " << escapeHtml(F.Check)
       << (F.WarningAsError ? " error" : "") << "\" id=\"finding-" << I + 1
       << "\">\n<h2>"
       << (F.WarningAsError ? "<span class=\"level-error\">error</span>" : "")
       << "<span class=\"check\">" << escapeHtml(F.Check)
       << "</span><span class=\"loc\">"
       << escapeHtml(locationText(F.Loc, Ctx.RepoRoot)) << "</span></h2>\n";
    OS << "<p class=\"message\">" << richMessage(F.Message) << "</p>\n";

    // A race's two accesses, or a barrier and its condition, side by side;
    // otherwise the finding's excerpt.
    const ReportedNote *Witness = pairedNote(F);
    if (Witness) {
      OS << "<div class=\"pair\"><div><h3>"
         << (F.Check == "shmem-race" ? "this access" : "the barrier")
         << " <span class=\"loc\">"
         << escapeHtml(locationText(F.Loc, Ctx.RepoRoot)) << "</span></h3>"
         << excerpt(Src, F.Loc, 1) << "</div><div><h3>"
         << richMessage(Witness->Message) << " <span class=\"loc\">"
         << escapeHtml(locationText(Witness->Loc, Ctx.RepoRoot))
         << "</span></h3>" << excerpt(Src, Witness->Loc, 1) << "</div></div>\n";
    } else {
      OS << excerpt(Src, F.Loc, 2) << "\n";
    }

    if (F.Picture)
      writeBankPicture(OS, *F.Picture);
    else if (!F.Detail.empty())
      OS << "<pre class=\"detail\">" << escapeHtml(F.Detail) << "</pre>\n";

    bool AnyNote = false;
    for (const ReportedNote &N : F.Notes) {
      if (&N == Witness)
        continue;
      if (!AnyNote)
        OS << "<ul class=\"notes\">\n";
      AnyNote = true;
      OS << "<li><span class=\"kind\">note</span> <span class=\"loc\">"
         << escapeHtml(locationText(N.Loc, Ctx.RepoRoot)) << "</span> "
         << richMessage(N.Message) << excerpt(Src, N.Loc, 0) << "</li>\n";
    }
    if (AnyNote)
      OS << "</ul>\n";
    for (const ReportedFix &X : F.Fixes)
      OS << "<p class=\"fix\"><span class=\"kind\">fix-it</span> "
         << "<span class=\"loc\">"
         << escapeHtml(repoRelativePath(X.File, Ctx.RepoRoot)) << ":" << X.Line
         << ":" << X.Column << "</span>: replace " << X.Length
         << (X.Length == 1 ? " byte" : " bytes") << " with <code>"
         << escapeHtml(X.Replacement) << "</code></p>\n";
    OS << "</section>\n";
  }
  // Said, not left out: findings may be missing where the analysis
  // stopped short.
  if (!Gaps.empty()) {
    OS << "<section class=\"gaps\" id=\"not-analysed\">\n<h2>Not "
          "analysed</h2>\n<p class=\"aside\">Findings may be missing here: "
          "the analysis stopped short of these parts of the kernels.</p>\n";
    for (const ReportedGap &G : Gaps) {
      OS << "<div class=\"gap\"><h3>";
      if (!G.Check.empty())
        OS << "<span class=\"check\">" << escapeHtml(G.Check) << "</span>";
      OS << "<span class=\"loc\">"
         << escapeHtml(locationText(G.Loc, Ctx.RepoRoot)) << "</span></h3>\n"
         << "<p class=\"message\">" << escapeHtml(G.message()) << "</p>\n"
         << excerpt(Src, G.Loc, 1) << "\n<ul class=\"notes\">\n";
      for (const ReportedNote &N : G.Notes)
        OS << "<li><span class=\"kind\">note</span> <span class=\"loc\">"
           << escapeHtml(locationText(N.Loc, Ctx.RepoRoot)) << "</span> "
           << escapeHtml(N.Message) << "</li>\n";
      OS << "</ul></div>\n";
    }
    OS << "</section>\n";
  }
  OS << "</main>\n<footer>shmem-lint " << escapeHtml(Ctx.ToolVersion)
     << " &middot; bank pictures: the worst warp of each access, from the bank "
        "model calibrated on an H200</footer>\n</body>\n</html>\n";
}

} // namespace shmem
