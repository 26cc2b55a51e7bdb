//===- HtmlReport.cpp - shmem-lint's self-contained HTML report -----------===//
//
// The page is three parts: a static summary (C++ below), the findings as
// compact JSON, and a script (ReportScript) that draws them. The JSON
// (`D` in the script), every index 0-based:
//
//   version   the tool's version
//   files     display paths (repo-relative)
//   checks    check names, sorted
//   kernels   [name, file, line]           (file -1: not known)
//   arrays    [name, file, line, column, kernel]   (line 0: no declaration
//             found)
//   strings   note messages (and --sass / --ncu-report notes), each once
//   lines     {file: {line: text}}: only the lines excerpts show
//   layouts   [layout, cost, laneBank[], laneWord[], broadcast "0110..",
//             wordsPerBank[], degree, phaseLanes, sharedBytes]: each
//             distinct layout picture once
//   pictures  [array, warp, widthBytes, store, original, padded, swizzled,
//             paddingSuggested, whatIfNote]: layouts by index, -1 none
//   explorers per picture, the layout explorer's data (explorerJson), or
//             null when it cannot model the array
//   findings  [check, file, line, column, message, kernel, array, degree,
//             picture, flags (1: warning as error), notes [[file, line,
//             column, string]], fixes [[file, line, column, length,
//             replacement]], detail, pair (the note shown beside the
//             finding, -1 none), and only under --sass or --ncu-report
//             evidence [[kind, string]]: what nvcc emitted (kind 0) and ncu
//             measured (kind 1) at the finding's line (FindingEvidence.h)]
//
//===----------------------------------------------------------------------===//

#include "HtmlReport.h"
#include "HtmlReportAssets.h"
#include "ExplorerPage.h"
#include "FindingEvidence.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
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

void appendJsonString(std::string &Out, llvm::StringRef In) {
  std::string Fixed;
  if (!llvm::json::isUTF8(In)) {
    Fixed = llvm::json::fixUTF8(In);
    In = Fixed;
  }
  static const char Hex[] = "0123456789abcdef";
  Out += '"';
  for (size_t I = 0; I < In.size(); ++I) {
    unsigned char C = In[I];
    switch (C) {
    case '"':
      Out += "\\\"";
      continue;
    case '\\':
      Out += "\\\\";
      continue;
    case '\n':
      Out += "\\n";
      continue;
    case '\t':
      Out += "\\t";
      continue;
    case '<':
    case '>':
    case '&':
      break;
    default:
      // U+2028 and U+2029 end a line in old script parsers.
      if (C == 0xE2 && I + 2 < In.size() && (unsigned char)In[I + 1] == 0x80 &&
          ((unsigned char)In[I + 2] == 0xA8 ||
           (unsigned char)In[I + 2] == 0xA9)) {
        Out += (unsigned char)In[I + 2] == 0xA8 ? "\\u2028" : "\\u2029";
        I += 2;
        continue;
      }
      if (C >= 0x20) {
        Out += char(C);
        continue;
      }
    }
    Out += "\\u00";
    Out += Hex[C >> 4];
    Out += Hex[C & 15];
  }
  Out += '"';
}

/// Appends \p Values to the report's data, separated by commas: numbers as
/// they are, strings as script-safe JSON strings.
void appendField(std::string &J, int64_t N) { J += std::to_string(N); }
void appendField(std::string &J, llvm::StringRef S) { appendJsonString(J, S); }
template <typename T, typename... Ts>
void appendFields(std::string &J, const T &First, const Ts &...Rest) {
  appendField(J, First);
  ((J += ',', appendField(J, Rest)), ...);
}

/// `[1,2,3]`.
template <typename T> void appendNumbers(std::string &J, const T &Values) {
  J += '[';
  for (size_t I = 0; I < Values.size(); ++I) {
    if (I)
      J += ',';
    appendField(J, int64_t(Values[I]));
  }
  J += ']';
}

} // namespace

std::string scriptJsonString(llvm::StringRef S) {
  std::string Out;
  appendJsonString(Out, S);
  return Out;
}

namespace {

//===----------------------------------------------------------------------===//
// Source lines
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

  /// Line \p N (1-based) of \p File, or null.
  const std::string *line(llvm::StringRef File, unsigned N) {
    const std::vector<std::string> *L = lines(File);
    if (!L || N == 0 || N > L->size())
      return nullptr;
    return &(*L)[N - 1];
  }

private:
  FileReader Read;
  llvm::StringMap<std::optional<std::vector<std::string>>> Cache;
};

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
/// column; empty when the file cannot be read. The script draws the same
/// markup for the findings.
std::string excerpt(Sources &Src, const ReportedLocation &L, unsigned Around) {
  const std::vector<std::string> *Lines = Src.lines(L.File);
  if (!Lines || L.Line == 0 || L.Line > Lines->size())
    return "";
  unsigned First = L.Line > Around ? L.Line - Around : 1;
  unsigned Last = std::min<unsigned>(Lines->size(), L.Line + Around);
  unsigned Width = std::to_string(Last).size();
  std::ostringstream OS;
  OS << "<pre class=\"src\">";
  for (unsigned N = First; N <= Last; ++N) {
    std::string Num = std::to_string(N);
    std::string Pad(Width - Num.size(), ' ');
    llvm::StringRef Text = (*Lines)[N - 1];
    OS << "<span class=\"" << (N == L.Line ? "l hl" : "l")
       << "\"><span class=\"ln\">" << Pad << Num << "</span> "
       << escapeHtml(expandTabs(Text)) << "</span>";
    if (N == L.Line) {
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

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The identifier at 1-based byte column \p Column of \p Line, or "".
std::string identifierAt(llvm::StringRef Line, unsigned Column) {
  if (Column == 0 || Column > Line.size())
    return "";
  size_t B = Column - 1, E = B;
  while (E < Line.size() && isIdentChar(Line[E]))
    ++E;
  if (E == B || llvm::isDigit(Line[B]))
    return "";
  return Line.slice(B, E).str();
}

/// The 1-based byte column of \p Name as a whole word in \p Line after
/// `__shared__`, or 0.
unsigned sharedDeclColumn(llvm::StringRef Line, llvm::StringRef Name) {
  size_t At = Line.find("__shared__");
  if (At == llvm::StringRef::npos)
    return 0;
  for (size_t P = Line.find(Name, At + 10); P != llvm::StringRef::npos;
       P = Line.find(Name, P + 1)) {
    bool Before = P > 0 && isIdentChar(Line[P - 1]);
    bool After =
        P + Name.size() < Line.size() && isIdentChar(Line[P + Name.size()]);
    if (!Before && !After)
      return unsigned(P + 1);
  }
  return 0;
}

/// 'X' right after \p Prefix in \p Msg.
std::string quotedAfter(llvm::StringRef Msg, llvm::StringRef Prefix) {
  size_t At = Msg.find(Prefix);
  if (At == llvm::StringRef::npos)
    return "";
  llvm::StringRef Rest = Msg.drop_front(At + Prefix.size());
  size_t End = Rest.find('\'');
  if (End == llvm::StringRef::npos)
    return "";
  return Rest.take_front(End).str();
}

/// The shared array a finding is about, from its picture or its message;
/// "" when it names none (a barrier, a global-memory transfer).
std::string arrayOf(const ReportedFinding &F) {
  if (F.Picture && !F.Picture->Array.empty())
    return F.Picture->Array;
  if (F.Check == "shmem-uncoalesced-transfer" ||
      F.Check == "shmem-named-barrier")
    return "";
  llvm::StringRef M = F.Message;
  for (llvm::StringRef P : {"distinct words of '", "past the end of '"})
    if (std::string N = quotedAfter(M, P); !N.empty())
      return N;
  if (M.starts_with("'")) {
    size_t E = M.find('\'', 1);
    if (E != llvm::StringRef::npos && M.drop_front(E).starts_with("' is "))
      return M.slice(1, E).str();
  }
  static const std::regex Access(
      R"((?:reads|writes|updates) ([A-Za-z_][A-Za-z0-9_]*)\[)");
  std::smatch Match;
  std::string S = M.str();
  if (std::regex_search(S, Match, Access))
    return Match.str(1);
  return "";
}

/// The conflict degree: the picture's, else the message's "N-way"; 0 for
/// findings that have none.
unsigned degreeOf(const ReportedFinding &F) {
  if (F.Picture)
    return F.Picture->Original.Degree;
  llvm::StringRef M = F.Message;
  size_t Way = M.find("-way bank conflict");
  unsigned D = 0;
  if (Way != llvm::StringRef::npos && !M.take_front(Way).getAsInteger(10, D))
    return D;
  return 0;
}

/// The note shown side by side with the finding: a race's other access
/// (with its witness thread), a divergent barrier's condition.
int pairedNote(const ReportedFinding &F) {
  llvm::StringRef Prefix = F.Check == "shmem-race" ? "the conflicting "
                           : F.Check == "shmem-divergent-barrier"
                               ? "this condition "
                               : "";
  if (Prefix.empty())
    return -1;
  for (size_t I = 0; I < F.Notes.size(); ++I)
    if (llvm::StringRef(F.Notes[I].Message).starts_with(Prefix))
      return int(I);
  return -1;
}

//===----------------------------------------------------------------------===//
// The report's model: findings resolved to indices into shared tables
//===----------------------------------------------------------------------===//

struct KernelInfo {
  std::string Name;
  int File = -1;
  unsigned Line = 0;
};

struct ArrayInfo {
  std::string Name;
  int File = -1;
  unsigned Line = 0, Column = 0;
  int Kernel = -1;
};

struct Row {
  unsigned Check = 0;
  int File = -1, Kernel = -1, Array = -1, Picture = -1, Pair = -1;
  unsigned Degree = 0;
};

/// Index of each distinct key, in order of first use.
class Interner {
public:
  int add(const std::string &Key) {
    auto [It, New] = Index.try_emplace(Key, int(Keys.size()));
    if (New)
      Keys.push_back(Key);
    return It->second;
  }
  const std::vector<std::string> &keys() const { return Keys; }

private:
  std::map<std::string, int> Index;
  std::vector<std::string> Keys;
};

class Model {
public:
  Model(llvm::ArrayRef<ReportedFinding> Findings, const OutputContext &Ctx,
        Sources &Src)
      : Ctx(Ctx), Src(Src) {
    std::map<std::string, unsigned> CheckSet;
    for (const ReportedFinding &F : Findings)
      CheckSet[F.Check];
    for (auto &KV : CheckSet) {
      KV.second = Checks.size();
      Checks.push_back(KV.first);
    }
    for (const ReportedFinding &F : Findings)
      Rows.push_back(resolve(F, CheckSet[F.Check]));
  }

  const OutputContext &Ctx;
  Sources &Src;
  std::vector<std::string> Checks;
  std::vector<std::string> Files;
  std::vector<KernelInfo> Kernels;
  std::vector<ArrayInfo> Arrays;
  Interner Strings, Layouts, Pictures;
  /// Per picture: the layout explorer's data, or null when it cannot model
  /// the array.
  std::vector<std::string> Explorers;
  std::vector<Row> Rows;
  /// Per file: the lines excerpts show.
  std::vector<std::map<unsigned, std::string>> Lines;

  int file(llvm::StringRef Path) {
    if (Path.empty())
      return -1;
    std::string Display = repoRelativePath(Path, Ctx.RepoRoot);
    auto [It, New] = FileIndex.try_emplace(Display, int(Files.size()));
    if (New) {
      Files.push_back(Display);
      Lines.emplace_back();
    }
    return It->second;
  }

  /// Keeps the lines an excerpt of \p Around lines around \p L shows.
  void keepLines(const ReportedLocation &L, unsigned Around) {
    int Fi = file(L.File);
    const std::vector<std::string> *All = Src.lines(L.File);
    if (Fi < 0 || !All || L.Line == 0 || L.Line > All->size())
      return;
    unsigned First = L.Line > Around ? L.Line - Around : 1;
    unsigned Last = std::min<unsigned>(All->size(), L.Line + Around);
    for (unsigned N = First; N <= Last; ++N)
      Lines[Fi].try_emplace(N, (*All)[N - 1]);
  }

private:
  std::map<std::string, int> FileIndex;
  std::map<std::string, int> KernelIndex, ArrayIndex;
  llvm::StringMap<std::vector<unsigned>> SharedLines;

  int kernelOf(const ReportedFinding &F) {
    std::string Name;
    const ReportedLocation *At = nullptr;
    for (const ReportedNote &N : F.Notes) {
      llvm::StringRef M = N.Message;
      if (M.starts_with("in instantiation '")) {
        Name = quotedAfter(M, "in instantiation '");
        At = &N.Loc;
      } else if (M.starts_with("so kernel '")) {
        Name = quotedAfter(M, "so kernel '");
        At = &N.Loc;
      } else if (M.starts_with("analysed for a block of ") && !At) {
        At = &N.Loc;
      } else if (M.starts_with("in the call from kernel '") && Name.empty()) {
        Name = quotedAfter(M, "in the call from kernel '");
      }
    }
    if (Name.empty() && At)
      if (const std::string *L = Src.line(At->File, At->Line))
        Name = identifierAt(*L, At->Column);
    // No note names the kernel (some barrier findings): the __global__
    // function the finding is in, from the source.
    std::optional<ReportedLocation> Found;
    if (Name.empty() && !At && (Found = enclosingKernel(F.Loc, Name)))
      At = &*Found;
    if (Name.empty() && At)
      Name = "kernel at " + locationText(*At, Ctx.RepoRoot);
    if (Name.empty())
      return -1;
    KernelInfo K;
    K.Name = Name;
    if (At) {
      K.File = file(At->File);
      K.Line = At->Line;
    }
    std::string Key =
        Name + "\n" + std::to_string(K.File) + ":" + std::to_string(K.Line);
    auto [It, New] = KernelIndex.try_emplace(Key, int(Kernels.size()));
    if (New)
      Kernels.push_back(K);
    return It->second;
  }

  /// The __global__ function around \p L: the nearest line above it that
  /// says `__global__` and names a function (`name(`), unless a
  /// `__device__` function starts in between. Sets \p Name.
  std::optional<ReportedLocation> enclosingKernel(const ReportedLocation &L,
                                                  std::string &Name) {
    const std::vector<std::string> *All = Src.lines(L.File);
    if (!All || L.Line == 0 || L.Line > All->size())
      return std::nullopt;
    for (unsigned N = L.Line; N >= 1; --N) {
      llvm::StringRef Text = (*All)[N - 1];
      bool Global = Text.contains("__global__");
      if (!Global && !Text.contains("__device__"))
        continue;
      std::string Joined;
      size_t Paren = Text.find('(');
      if (Paren == llvm::StringRef::npos && Global && N < L.Line) {
        // `__global__ void` and the name on the next line.
        Joined = Text.str() + " " + (*All)[N];
        Text = Joined;
        Paren = Text.find('(');
      }
      if (Paren == llvm::StringRef::npos)
        continue; // a variable
      if (!Global)
        return std::nullopt;
      size_t E = Paren;
      while (E > 0 && Text[E - 1] == ' ')
        --E;
      size_t B = E;
      while (B > 0 && isIdentChar(Text[B - 1]))
        --B;
      if (B == E)
        return std::nullopt;
      Name = Text.slice(B, E).str();
      if (!Joined.empty() && B > (*All)[N - 1].size())
        return ReportedLocation{L.File, N + 1,
                                unsigned(B - (*All)[N - 1].size())};
      return ReportedLocation{L.File, N, unsigned(B + 1)};
    }
    return std::nullopt;
  }

  /// The declaration of \p Name for a finding at \p L: the padding note's
  /// location, else the nearest `__shared__` line naming it above \p L,
  /// else the first below.
  std::optional<ReportedLocation> declarationOf(const ReportedFinding &F,
                                                const std::string &Name) {
    for (const ReportedNote &N : F.Notes)
      if (llvm::StringRef(N.Message).starts_with("padding '" + Name + "' to"))
        return N.Loc;
    const std::vector<std::string> *All = Src.lines(F.Loc.File);
    if (!All || Name.empty())
      return std::nullopt;
    // The lines that say __shared__, found once per file.
    auto [It, New] = SharedLines.try_emplace(F.Loc.File);
    if (New)
      for (unsigned N = 1; N <= All->size(); ++N)
        if (llvm::StringRef((*All)[N - 1]).contains("__shared__"))
          It->second.push_back(N);
    const std::vector<unsigned> &Lines = It->second;
    auto Above = std::upper_bound(Lines.begin(), Lines.end(), F.Loc.Line);
    for (auto I = Above; I != Lines.begin();) {
      --I;
      if (unsigned C = sharedDeclColumn((*All)[*I - 1], Name))
        return ReportedLocation{F.Loc.File, *I, C};
    }
    for (auto I = Above; I != Lines.end(); ++I)
      if (unsigned C = sharedDeclColumn((*All)[*I - 1], Name))
        return ReportedLocation{F.Loc.File, *I, C};
    return std::nullopt;
  }

  int arrayIndex(const ReportedFinding &F, int Kernel) {
    std::string Name = arrayOf(F);
    if (Name.empty())
      return -1;
    ArrayInfo A;
    A.Name = Name;
    std::string Key;
    if (std::optional<ReportedLocation> D = declarationOf(F, Name)) {
      A.File = file(D->File);
      A.Line = D->Line;
      A.Column = D->Column;
      A.Kernel = Kernel;
      keepLines(*D, 0);
      Key = Name + "\n" + std::to_string(A.File) + ":" +
            std::to_string(A.Line) + ":" + std::to_string(A.Column);
    } else {
      // Not found: one group per name and kernel.
      A.File = file(F.Loc.File);
      A.Kernel = Kernel;
      Key =
          Name + "\n?" + std::to_string(A.File) + ":" + std::to_string(Kernel);
    }
    auto [It, New] = ArrayIndex.try_emplace(Key, int(Arrays.size()));
    if (New)
      Arrays.push_back(A);
    return It->second;
  }

  int layoutIndex(const LayoutPicture &L) {
    std::string J = "[";
    appendFields(J, L.Layout, describeLayoutCost(L));
    J += ",";
    appendNumbers(J, L.LaneBank);
    // An inactive lane's word means nothing: 0.
    std::vector<int64_t> Words(L.LaneWord.begin(), L.LaneWord.end());
    for (size_t I = 0; I < Words.size() && I < L.LaneBank.size(); ++I)
      if (L.LaneBank[I] < 0)
        Words[I] = 0;
    J += ",";
    appendNumbers(J, Words);
    J += ",\"";
    for (size_t I = 0; I < L.LaneBank.size(); ++I)
      J += I < L.Broadcast.size() && L.Broadcast[I] ? '1' : '0';
    J += "\",";
    appendNumbers(J, L.WordsPerBank);
    J += ",";
    appendFields(J, L.Degree, L.PhaseLanes, L.SharedBytes);
    J += "]";
    return Layouts.add(J);
  }

  int pictureIndex(const BankPicture &P) {
    // In this order: the layouts are numbered as they are first seen.
    int Original = layoutIndex(P.Original);
    int Padded = P.Padded ? layoutIndex(*P.Padded) : -1;
    int Swizzled = P.Swizzled ? layoutIndex(*P.Swizzled) : -1;
    std::string J = "[";
    appendFields(J, P.Array, P.Warp, P.WidthBytes, P.Store ? 1 : 0, Original,
                 Padded, Swizzled, P.PaddingSuggested ? 1 : 0, P.WhatIfNote);
    J += "]";
    int Id = Pictures.add(J);
    if (size_t(Id) == Explorers.size()) {
      // The layout explorer's input for this picture (ExplorerPage.h),
      // opened in the card by "explore this layout".
      std::optional<ExplorerInput> In = explorerInputForFinding(P, "");
      Explorers.push_back(In ? explorerJson(*In) : "null");
    }
    return Id;
  }

  Row resolve(const ReportedFinding &F, unsigned Check) {
    Row R;
    R.Check = Check;
    R.File = file(F.Loc.File);
    R.Kernel = kernelOf(F);
    R.Array = arrayIndex(F, R.Kernel);
    R.Degree = degreeOf(F);
    R.Pair = pairedNote(F);
    if (F.Picture)
      R.Picture = pictureIndex(*F.Picture);
    keepLines(F.Loc, R.Pair >= 0 ? 1 : 2);
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      keepLines(F.Notes[I].Loc, int(I) == R.Pair ? 1 : 0);
      Strings.add(F.Notes[I].Message);
    }
    for (const ReportedFix &X : F.Fixes)
      file(X.File);
    return R;
  }
};

//===----------------------------------------------------------------------===//
// The data
//===----------------------------------------------------------------------===//

void writeData(llvm::raw_ostream &OS, Model &M,
               llvm::ArrayRef<ReportedFinding> Findings) {
  std::string J;
  J += "{\"version\":";
  appendField(J, M.Ctx.ToolVersion);
  // Findings first: they may add files (fix-its in other files).
  std::string FJ;
  std::swap(J, FJ);
  J += ",\n\"findings\":[";
  for (size_t I = 0; I < Findings.size(); ++I) {
    const ReportedFinding &F = Findings[I];
    const Row &R = M.Rows[I];
    J += I ? ",\n[" : "\n[";
    appendFields(J, R.Check, R.File, F.Loc.Line, F.Loc.Column, F.Message,
                 R.Kernel, R.Array, R.Degree, R.Picture,
                 F.WarningAsError ? 1 : 0);
    J += ",[";
    for (size_t N = 0; N < F.Notes.size(); ++N) {
      const ReportedNote &Note = F.Notes[N];
      J += N ? ",[" : "[";
      int File = M.file(Note.Loc.File);
      appendFields(J, File, Note.Loc.Line, Note.Loc.Column,
                   M.Strings.add(Note.Message));
      J += "]";
    }
    J += "],[";
    for (size_t N = 0; N < F.Fixes.size(); ++N) {
      const ReportedFix &X = F.Fixes[N];
      J += N ? ",[" : "[";
      appendFields(J, M.file(X.File), X.Line, X.Column, X.Length,
                   X.Replacement);
      J += "]";
    }
    J += "],";
    // The text picture only where there is no drawn one.
    appendFields(J, F.Picture ? llvm::StringRef() : F.Detail, R.Pair);
    if (F.Compiled || F.Measured)
      J += ",[";
    if (F.Compiled)
      appendNumbers(J, std::vector<int64_t>{
                           0, M.Strings.add(compiledNote(*F.Compiled))});
    if (F.Measured) {
      J += F.Compiled ? "," : "";
      appendNumbers(J, std::vector<int64_t>{
                           1, M.Strings.add(measuredNote(*F.Measured))});
    }
    J += F.Compiled || F.Measured ? "]]" : "]";
  }
  J += "]}";
  std::swap(J, FJ);

  J += ",\n\"files\":[";
  for (size_t I = 0; I < M.Files.size(); ++I) {
    J += I ? "," : "";
    appendField(J, M.Files[I]);
  }
  J += "],\n\"checks\":[";
  for (size_t I = 0; I < M.Checks.size(); ++I) {
    J += I ? "," : "";
    appendField(J, M.Checks[I]);
  }
  J += "],\n\"kernels\":[";
  for (size_t I = 0; I < M.Kernels.size(); ++I) {
    const KernelInfo &K = M.Kernels[I];
    J += I ? ",\n[" : "\n[";
    appendFields(J, K.Name, K.File, K.Line);
    J += "]";
  }
  J += "],\n\"arrays\":[";
  for (size_t I = 0; I < M.Arrays.size(); ++I) {
    const ArrayInfo &A = M.Arrays[I];
    J += I ? ",\n[" : "\n[";
    appendFields(J, A.Name, A.File, A.Line, A.Column, A.Kernel);
    J += "]";
  }
  J += "],\n\"strings\":[";
  const std::vector<std::string> &S = M.Strings.keys();
  for (size_t I = 0; I < S.size(); ++I) {
    J += I ? ",\n" : "\n";
    appendField(J, S[I]);
  }
  J += "],\n\"lines\":{";
  bool FirstFile = true;
  for (size_t Fi = 0; Fi < M.Lines.size(); ++Fi) {
    if (M.Lines[Fi].empty())
      continue;
    J += FirstFile ? "\n\"" : ",\n\"";
    FirstFile = false;
    appendField(J, int64_t(Fi));
    J += "\":{";
    bool First = true;
    for (const auto &KV : M.Lines[Fi]) {
      J += First ? "\"" : ",\n\"";
      First = false;
      appendField(J, int64_t(KV.first));
      J += "\":";
      appendField(J, KV.second);
    }
    J += "}";
  }
  J += "},\n\"layouts\":[";
  const std::vector<std::string> &L = M.Layouts.keys();
  for (size_t I = 0; I < L.size(); ++I)
    J += (I ? ",\n" : "\n") + L[I];
  J += "],\n\"pictures\":[";
  const std::vector<std::string> &P = M.Pictures.keys();
  for (size_t I = 0; I < P.size(); ++I)
    J += (I ? ",\n" : "\n") + P[I];
  J += "],\n\"explorers\":[";
  for (size_t I = 0; I < M.Explorers.size(); ++I)
    J += (I ? ",\n" : "\n") + M.Explorers[I];
  J += "]";
  OS << J << FJ;
}

//===----------------------------------------------------------------------===//
// The static summary
//===----------------------------------------------------------------------===//

/// "shmem-bank-conflict" -> "bank-conflict", for narrow columns.
llvm::StringRef shortCheck(llvm::StringRef C) {
  C.consume_front("shmem-");
  return C;
}

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// Tables longer than this show their largest rows; the script shows all.
constexpr size_t SummaryRows = 50;

struct CountRow {
  std::string Key;                ///< data-value
  std::vector<std::string> Cells; ///< The name cells (HTML).
  size_t Total = 0;
  std::vector<size_t> PerCheck;
  size_t Order = 0;
};

void writeCountTable(llvm::raw_ostream &OS, llvm::StringRef Id,
                     llvm::StringRef Caption,
                     llvm::ArrayRef<std::string> NameHeads,
                     std::vector<CountRow> Rows, const Model &M,
                     llvm::StringRef Noun) {
  std::sort(Rows.begin(), Rows.end(), [](const CountRow &A, const CountRow &B) {
    if (A.Total != B.Total)
      return A.Total > B.Total;
    return A.Order < B.Order;
  });
  OS << "<table class=\"counts\" id=\"sum-" << Id << "\" data-filter=\"" << Id
     << "\"><caption>" << escapeHtml(Caption) << " <span class=\"mute\">("
     << Rows.size() << ")</span></caption><thead><tr>";
  for (const std::string &H : NameHeads)
    OS << "<th>" << H << "</th>";
  OS << "<th class=\"n\">findings</th>";
  if (M.Checks.size() > 1)
    for (const std::string &C : M.Checks)
      OS << "<th class=\"n\" title=\"" << escapeHtml(C) << "\">"
         << escapeHtml(shortCheck(C)) << "</th>";
  OS << "</tr></thead><tbody>";
  size_t Shown = std::min(Rows.size(), SummaryRows);
  for (size_t I = 0; I < Shown; ++I) {
    const CountRow &R = Rows[I];
    OS << "<tr data-value=\"" << R.Key << "\">";
    for (const std::string &C : R.Cells)
      OS << "<td>" << C << "</td>";
    OS << "<td class=\"n\">" << R.Total << "</td>";
    if (M.Checks.size() > 1)
      for (size_t N : R.PerCheck)
        OS << "<td class=\"n\">" << (N ? std::to_string(N) : "") << "</td>";
    OS << "</tr>";
  }
  OS << "</tbody>";
  if (Shown < Rows.size()) {
    size_t Rest = 0;
    for (size_t I = Shown; I < Rows.size(); ++I)
      Rest += Rows[I].Total;
    OS << "<tfoot><tr><td colspan=\""
       << NameHeads.size() + 1 + (M.Checks.size() > 1 ? M.Checks.size() : 0)
       << "\">&hellip; and "
       << plural(Rows.size() - Shown, Noun, Noun.str() + "s") << " more ("
       << plural(Rest, "finding", "findings")
       << ") <button type=\"button\" class=\"show-all\" data-table=\"" << Id
       << "\" hidden>show all " << Rows.size() << "</button></td></tr></tfoot>";
  }
  OS << "</table>\n";
}

void writeSummary(llvm::raw_ostream &OS, const Model &M,
                  llvm::ArrayRef<ReportedFinding> Findings) {
  const size_t NC = M.Checks.size();
  std::vector<CountRow> Files(M.Files.size()), Kernels(M.Kernels.size());
  std::vector<size_t> ByCheck(NC), Errors(NC);
  std::vector<std::set<int>> CheckFiles(NC), CheckKernels(NC);
  std::map<unsigned, size_t, std::greater<unsigned>> Degrees;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Row &R = M.Rows[I];
    ++ByCheck[R.Check];
    Errors[R.Check] += Findings[I].WarningAsError;
    CheckFiles[R.Check].insert(R.File);
    CheckKernels[R.Check].insert(R.Kernel);
    if (R.Degree > 1)
      ++Degrees[R.Degree];
    for (auto [Idx, Table] :
         {std::pair{R.File, &Files}, std::pair{R.Kernel, &Kernels}}) {
      if (Idx < 0)
        continue;
      CountRow &C = (*Table)[Idx];
      if (C.PerCheck.empty()) {
        C.PerCheck.resize(NC);
        C.Order = I;
      }
      ++C.Total;
      ++C.PerCheck[R.Check];
    }
  }
  std::map<std::string, std::string> Descriptions;
  for (const CheckDescription &D : knownChecks())
    Descriptions[D.Id] = D.ShortDescription;

  OS << "<section id=\"summary\"><h2>Summary</h2><div class=\"tables\">\n";
  // By check.
  bool AnyError = false;
  for (size_t E : Errors)
    AnyError |= E > 0;
  OS << "<table class=\"counts\" id=\"sum-check\" data-filter=\"check\">"
        "<caption>By check</caption><thead><tr><th>check</th>"
        "<th class=\"n\">findings</th>"
     << (AnyError ? "<th class=\"n\">errors</th>" : "")
     << "<th class=\"n\">files</th><th class=\"n\">kernels</th></tr></thead>"
        "<tbody>";
  for (size_t C = 0; C < NC; ++C) {
    CheckKernels[C].erase(-1);
    OS << "<tr data-value=\"" << C << "\"><td><span class=\"check\">"
       << escapeHtml(M.Checks[C]) << "</span>";
    auto D = Descriptions.find(M.Checks[C]);
    if (D != Descriptions.end() && !D->second.empty())
      OS << "<br><span class=\"mute\">" << escapeHtml(D->second) << "</span>";
    OS << "</td><td class=\"n\">" << ByCheck[C] << "</td>";
    if (AnyError)
      OS << "<td class=\"n\">" << (Errors[C] ? std::to_string(Errors[C]) : "")
         << "</td>";
    OS << "<td class=\"n\">" << CheckFiles[C].size() << "</td><td class=\"n\">"
       << CheckKernels[C].size() << "</td></tr>";
  }
  OS << "</tbody></table>\n";
  // Bank conflicts by degree.
  if (!Degrees.empty()) {
    OS << "<table class=\"counts\" id=\"sum-degree\" data-filter=\"degree\">"
          "<caption>Bank conflicts by degree</caption><thead><tr>"
          "<th>degree</th><th class=\"n\">findings</th></tr></thead><tbody>";
    for (const auto &KV : Degrees)
      OS << "<tr data-value=\"" << KV.first << "\"><td>" << KV.first
         << "-way</td><td class=\"n\">" << KV.second << "</td></tr>";
    // Why a stride conflicts, to step through (docs/explain.md).
    OS << "</tbody><tfoot><tr><td colspan=\"2\" class=\"lab\">Why a stride "
          "of S words reaches only 32 / gcd(32, S) banks, step by step: "
          "<code>shmem-lint explain --modulus 32 --step S --format=html</code> "
          "(the residue lab)</td></tr></tfoot></table>\n";
  }
  // By file and by kernel.
  std::vector<CountRow> FileRows, KernelRows;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (!Files[I].Total)
      continue;
    Files[I].Key = std::to_string(I);
    Files[I].Cells = {"<span class=\"path\">" + escapeHtml(M.Files[I]) +
                      "</span>"};
    FileRows.push_back(std::move(Files[I]));
  }
  for (size_t I = 0; I < Kernels.size(); ++I) {
    const KernelInfo &K = M.Kernels[I];
    Kernels[I].Key = std::to_string(I);
    std::string Where =
        K.File < 0 ? ""
                   : escapeHtml(M.Files[K.File]) + ":" + std::to_string(K.Line);
    Kernels[I].Cells = {"<code>" + escapeHtml(K.Name) + "</code>",
                        "<span class=\"path\">" + Where + "</span>"};
    KernelRows.push_back(std::move(Kernels[I]));
  }
  writeCountTable(OS, "file", "By file", {"file"}, std::move(FileRows), M,
                  "file");
  writeCountTable(OS, "kernel", "By kernel", {"kernel", "defined at"},
                  std::move(KernelRows), M, "kernel");
  OS << "</div></section>\n";
}

void writeGaps(llvm::raw_ostream &OS, llvm::ArrayRef<ReportedGap> Gaps,
               Sources &Src, const OutputContext &Ctx) {
  // Said, not left out: findings may be missing where the analysis
  // stopped short.
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


} // namespace

void writeHtmlReport(llvm::raw_ostream &OS,
                     llvm::ArrayRef<ReportedFinding> Findings,
                     const OutputContext &Ctx,
                     llvm::ArrayRef<ReportedGap> Gaps) {
  Sources Src(Ctx.ReadFile);
  Model M(Findings, Ctx, Src);
  std::map<std::string, unsigned> ByCheck;
  std::set<int> Files;
  for (size_t I = 0; I < Findings.size(); ++I) {
    ++ByCheck[Findings[I].Check];
    Files.insert(M.Rows[I].File);
  }
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n<title>shmem-lint report</title>\n<style>"
     << ReportStyle
     << "</style>\n</head>\n<body>\n<header><h1>shmem-lint report</h1><p>";
  if (Findings.empty()) {
    OS << "No findings.";
  } else {
    OS << plural(Findings.size(), "finding", "findings") << " in "
       << plural(Files.size(), "file", "files") << ": ";
    bool First = true;
    for (const auto &KV : ByCheck) {
      OS << (First ? "" : ", ") << KV.second << " " << escapeHtml(KV.first);
      First = false;
    }
  }
  if (!Gaps.empty())
    OS << " <a href=\"#not-analysed\">" << plural(Gaps.size(), "part", "parts")
       << " of kernels not analysed</a>.";
  OS << "</p></header>\n<main>\n";
  if (Findings.empty() && !Gaps.empty())
    OS << "<p class=\"empty\">shmem-lint found nothing to report in what it "
          "analysed.</p>\n";
  else if (Findings.empty())
    OS << "<p class=\"empty\">shmem-lint found nothing to report.</p>\n";
  else {
    OS << "<noscript><p class=\"nojs\">JavaScript is off: this page shows "
          "the counts and what was not analysed. The findings themselves "
          "(messages, source excerpts, notes, fix-its and lane &rarr; bank "
          "pictures), the filters and the grouping are drawn by the page's "
          "script; <code>shmem-lint --format=text</code> prints the same "
          "findings.</p></noscript>\n";
    writeSummary(OS, M, Findings);
    OS << ReportControls;
  }
  if (!Gaps.empty())
    writeGaps(OS, Gaps, Src, Ctx);
  OS << "</main>\n<footer>shmem-lint " << escapeHtml(Ctx.ToolVersion)
     << " &middot; bank pictures: the worst warp of each access, from the bank "
        "model calibrated on an H200</footer>\n";
  if (!Findings.empty()) {
    OS << "<script type=\"application/json\" id=\"shmem-data\">";
    writeData(OS, M, Findings);
    OS << "</script>\n<script>" << ReportScript << "</script>\n";
    // The layout explorer, opened in a card by "explore this layout".
    if (llvm::any_of(M.Explorers, [](const std::string &E) {
          return E != "null";
        }))
      writeExplorerScript(OS);
  }
  OS << "</body>\n</html>\n";
}

} // namespace shmem
