//===- ExplorerPage.cpp - The layout explorer as a page -------------------===//
//
// The C++ side writes the analysis (static HTML) and the data; the page's
// script (ExplorerModelJs, ExplorerUiJs in ExplorerAssets.cpp) does the
// exploring. The
// model script is lib/Model's BankModel rules written again in JavaScript:
// test/browser/explorer-model.test.js replays the H200 calibration tables
// through it and compares it with the check's pictures over a grid of
// `explain` cases; test/browser/explorer.test.js drives the page in
// Chromium.
//
//===----------------------------------------------------------------------===//

#include "ExplorerPage.h"
#include "ExplorerAssets.h"
#include "HtmlReport.h"

#include "llvm/ADT/StringExtras.h"

#include <sstream>
#include <type_traits>

namespace shmem {

namespace {

template <typename T> std::string jsonArray(const std::vector<T> &V) {
  std::string Out = "[";
  for (size_t I = 0; I < V.size(); ++I) {
    if (I)
      Out += ",";
    if constexpr (std::is_same_v<T, char>)
      Out += V[I] ? "true" : "false";
    else
      Out += std::to_string(V[I]);
  }
  return Out + "]";
}

std::string jsonLayout(const LayoutPicture &L) {
  std::ostringstream OS;
  OS << "{\"label\":" << scriptJsonString(L.Label)
     << ",\"layout\":" << scriptJsonString(L.Layout)
     << ",\"laneBank\":" << jsonArray(L.LaneBank) << ",\"laneWord\":[";
  // LaneWord is meaningless for an inactive lane: 0 there.
  for (size_t I = 0; I < L.LaneWord.size(); ++I)
    OS << (I ? "," : "")
       << ((I < L.LaneBank.size() && L.LaneBank[I] >= 0) ? L.LaneWord[I] : 0);
  OS << "],\"broadcast\":" << jsonArray(L.Broadcast)
     << ",\"wordsPerBank\":" << jsonArray(L.WordsPerBank)
     << ",\"wavefronts\":" << L.Wavefronts << ",\"ideal\":" << L.IdealWavefronts
     << ",\"degree\":" << L.Degree << ",\"phaseLanes\":" << L.PhaseLanes
     << ",\"phases\":" << L.Phases << ",\"sharedBytes\":" << L.SharedBytes
     << "}";
  return OS.str();
}

/// Bytes of one element of \p In's array: from the picture when it knows
/// the array's size, else by the type's name.
int64_t elementBytes(const ExplorerInput &In) {
  uint64_t Elems = 1;
  for (uint64_t D : In.Dims)
    Elems *= D;
  for (const ExplorerAccess &A : In.Accesses)
    if (A.Picture && A.Picture->Original.SharedBytes > 0 && Elems &&
        uint64_t(A.Picture->Original.SharedBytes) % Elems == 0)
      return A.Picture->Original.SharedBytes / int64_t(Elems);
  llvm::StringRef T = llvm::StringRef(In.Type).trim();
  if (T.ends_with("4") &&
      (T.starts_with("float") || T.starts_with("int") || T.starts_with("uint")))
    return 16;
  if (T == "double2" || T == "longlong2")
    return 16;
  if (T == "double" || T.ends_with("2") || T == "long long" ||
      T == "unsigned long long")
    return 8;
  if (T == "short" || T == "unsigned short" || T == "__half" || T == "half" ||
      T == "__nv_bfloat16")
    return 2;
  if (T == "char" || T == "signed char" || T == "unsigned char" || T == "bool")
    return 1;
  return 4;
}

/// The swizzle's n (units per row) of the analysis' swizzled picture, for
/// its rows of P.RowElems elements.
int64_t swizzleN(const BankPicture &P, const ExplorerInput &In,
                 int64_t ElemBytes) {
  if (!P.Swizzled || P.RowElems <= 0 || In.Dims.empty())
    return 0;
  int64_t Elems = 1;
  for (uint64_t D : In.Dims)
    Elems *= int64_t(D);
  Array2D A{(Elems + P.RowElems - 1) / P.RowElems, P.RowElems, ElemBytes};
  std::optional<int64_t> Unit = swizzleUnitBytes(A, P.WidthBytes);
  return Unit ? A.Cols * A.ElemBytes / *Unit : 0;
}

std::string sanitizeId(llvm::StringRef Id) {
  std::string Out;
  for (char C : Id)
    Out += (llvm::isAlnum(C) || C == '-' || C == '_') ? C : '-';
  if (Out.empty() || !llvm::isAlpha(Out[0]))
    Out = "x" + Out;
  return Out;
}

/// "(tile[lane][5])" -> "tile[lane][5]": explain's kernel wraps the index
/// in parentheses, and the finding's source range has them.
std::string accessText(llvm::StringRef S) {
  S = S.trim();
  while (S.size() >= 2 && S.front() == '(' && S.back() == ')') {
    // Only when the first parenthesis closes at the end.
    int Depth = 0;
    size_t Close = 0;
    for (size_t I = 0; I < S.size(); ++I) {
      Depth += S[I] == '(' ? 1 : S[I] == ')' ? -1 : 0;
      if (Depth == 0) {
        Close = I;
        break;
      }
    }
    if (Close != S.size() - 1)
      break;
    S = S.drop_front().drop_back().trim();
  }
  return S.str();
}

std::string declarationText(const ExplorerInput &In) {
  std::string S = In.Type + " tile";
  for (uint64_t D : In.Dims)
    S += "[" + std::to_string(D) + "]";
  return S;
}

std::string blockText(const ExplorerInput &In) {
  std::string S = std::to_string(In.BlockX);
  if (In.BlockY > 1 || In.BlockZ > 1)
    S += "x" + std::to_string(In.BlockY);
  if (In.BlockZ > 1)
    S += "x" + std::to_string(In.BlockZ);
  return S;
}

void writeSummary(llvm::raw_ostream &Out, const BankPicture &P, size_t Index) {
  struct Row {
    const char *Name;
    const LayoutPicture *L;
  };
  std::vector<Row> Rows = {{"as written", &P.Original}};
  if (P.Padded)
    Rows.push_back(
        {P.PaddingSuggested ? "padded (the suggested fix)" : "padded (what-if)",
         &*P.Padded});
  if (P.Swizzled)
    Rows.push_back({"XOR swizzle (what-if)", &*P.Swizzled});
  Out << "<table class=\"summary\" id=\"analysis-" << Index
      << "-summary\"><thead><tr><th>layout</th><th></th><th>wavefronts</th>"
         "<th>ideal</th><th>conflict</th><th>shared memory</th></tr></thead>"
         "<tbody>";
  static const char *const Keys[] = {"original", "padded", "swizzled"};
  for (size_t I = 0; I < Rows.size(); ++I) {
    const LayoutPicture &L = *Rows[I].L;
    const char *Key = Rows[I].L == &P.Original  ? Keys[0]
                      : Rows[I].L == &*P.Padded ? Keys[1]
                                                : Keys[2];
    Out << "<tr id=\"analysis-" << Index << "-" << Key
        << "\" data-wavefronts=\"" << L.Wavefronts << "\" data-ideal=\""
        << L.IdealWavefronts << "\" data-degree=\"" << L.Degree
        << "\" data-bytes=\"" << L.SharedBytes << "\"><td>" << Rows[I].Name
        << "</td><td><code>" << escapeHtml(L.Layout) << "</code></td><td>"
        << L.Wavefronts << "</td><td>" << L.IdealWavefronts << "</td><td>"
        << (L.Degree > 1 ? std::to_string(L.Degree) + "-way" : "none")
        << "</td><td>"
        << (L.SharedBytes < 0 ? std::string("?")
                              : std::to_string(L.SharedBytes) + " bytes")
        << "</td></tr>";
  }
  Out << "</tbody></table>\n";
}

} // namespace

std::string explorerJson(const ExplorerInput &In) {
  int64_t E = elementBytes(In);
  std::ostringstream OS;
  OS << "{\"type\":" << scriptJsonString(In.Type)
     << ",\"dims\":" << jsonArray(In.Dims) << ",\"elemBytes\":" << E
     << ",\"index\":" << scriptJsonString(In.Index)
     << ",\"store\":" << (In.Store ? "true" : "false") << ",\"block\":["
     << In.BlockX << "," << In.BlockY << "," << In.BlockZ
     << "],\"blockKnown\":" << (In.BlockKnown ? "true" : "false")
     << ",\"accesses\":[";
  bool First = true;
  for (const ExplorerAccess &A : In.Accesses) {
    if (!A.Picture)
      continue;
    const BankPicture &P = *A.Picture;
    OS << (First ? "" : ",") << "{\"text\":" << scriptJsonString(accessText(A.Text))
       << ",\"reported\":" << (A.Reported ? "true" : "false")
       << ",\"message\":" << scriptJsonString(A.Message)
       << ",\"array\":" << scriptJsonString(P.Array) << ",\"warp\":" << P.Warp
       << ",\"width\":" << P.WidthBytes
       << ",\"store\":" << (P.Store ? "true" : "false")
       << ",\"original\":" << jsonLayout(P.Original)
       << ",\"padded\":" << (P.Padded ? jsonLayout(*P.Padded) : "null")
       << ",\"rowElems\":" << P.RowElems
       << ",\"paddedBy\":" << (P.Padded ? P.PadElems : 0)
       << ",\"paddingSuggested\":" << (P.PaddingSuggested ? "true" : "false")
       << ",\"swizzled\":" << (P.Swizzled ? jsonLayout(*P.Swizzled) : "null")
       << ",\"swizzleN\":" << swizzleN(P, In, E)
       << ",\"whatIfNote\":" << scriptJsonString(P.WhatIfNote) << "}";
    First = false;
  }
  OS << "]}";
  return OS.str();
}

void writeExplorerScript(llvm::raw_ostream &Out) {
  Out << "<style>" << ExplorerCss << "</style>\n<script>\n"
      << ExplorerModelJs << ExplorerUiJs << "</script>\n";
}

void writeExplorerWidget(llvm::raw_ostream &Out, const ExplorerInput &In,
                         llvm::StringRef Id) {
  Out << "<div class=\"shmem-explorer\" id=\"" << sanitizeId(Id)
      << "\" data-shmem-explorer=\"" << escapeHtml(explorerJson(In))
      << "\"><noscript><p>The layout explorer needs JavaScript.</p>"
         "</noscript></div>\n";
}

std::optional<ExplorerInput>
explorerInputForFinding(const BankPicture &P, llvm::StringRef Message,
                        llvm::StringRef AccessText) {
  // "float tile[32][33]": the type, then the name, then the dimensions.
  // A flattened array's is "float s[1024], rows of 32" (P.RowElems).
  llvm::StringRef Decl =
      llvm::StringRef(P.Original.Layout).split(", rows of ").first.trim();
  size_t Bracket = Decl.find('[');
  if (Bracket == llvm::StringRef::npos || P.Original.SharedBytes <= 0)
    return std::nullopt;
  llvm::StringRef Head = Decl.take_front(Bracket).rtrim();
  size_t Space = Head.rfind(' ');
  if (Space == llvm::StringRef::npos)
    return std::nullopt;
  ExplorerInput In;
  In.Type = Head.take_front(Space).trim().str();
  llvm::StringRef Rest = Decl.drop_front(Bracket);
  while (Rest.consume_front("[")) {
    size_t Close = Rest.find(']');
    uint64_t D;
    if (Close == llvm::StringRef::npos ||
        Rest.take_front(Close).getAsInteger(10, D) || D == 0)
      return std::nullopt;
    In.Dims.push_back(D);
    Rest = Rest.drop_front(Close + 1);
  }
  if (!Rest.empty() || In.Dims.empty() || In.Dims.size() > 2 || In.Type.empty())
    return std::nullopt;
  In.Index = AccessText.str();
  In.Store = P.Store;
  // The warp shown is the only one modelled.
  In.BlockKnown = false;
  In.BlockX = 32;
  In.BlockY = In.BlockZ = 1;
  In.Accesses.push_back({AccessText.str(), true, Message.str(), &P});
  return In;
}

void writeExplorerPage(llvm::raw_ostream &Out, const ExplorerInput &In) {
  std::string Decl = declarationText(In);
  std::string Access = In.Store ? In.Index + " = ..." : "x = " + In.Index;
  unsigned Threads = In.BlockX * In.BlockY * In.BlockZ;
  unsigned Warps = (Threads + 31) / 32;
  Out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, "
         "initial-scale=1\">\n<title>shmem-lint layout explorer: "
      << escapeHtml(In.Index) << "</title>\n<style>" << PageCss << "</style>\n";
  writeExplorerScript(Out);
  Out << "</head>\n<body>\n<header><h1>shmem-lint layout explorer</h1>"
      << "<p><code>" << escapeHtml(Access) << "</code> &middot; <code>__shared__ "
      << escapeHtml(Decl) << "</code> &middot; block " << blockText(In) << " ("
      << Warps << (Warps == 1 ? " warp" : " warps")
      << "); lane = tid % 32, warp = tid / 32</p></header>\n<main>\n";

  Out << "<h2>What the analysis found</h2>\n"
         "<p class=\"src\">shmem-bank-conflict on the kernel <code>explain"
         "</code> wrote for this access, with shmem-lint's bank model: every "
         "number in this part comes from the analysis.</p>\n";
  size_t Index = 0;
  for (const ExplorerAccess &A : In.Accesses) {
    if (!A.Picture)
      continue;
    const BankPicture &P = *A.Picture;
    Out << "<section class=\"access" << (A.Reported ? " reported" : "")
        << "\" id=\"analysis-" << Index << "\" data-wavefronts=\""
        << P.Original.Wavefronts << "\" data-ideal=\""
        << P.Original.IdealWavefronts << "\" data-degree=\""
        << P.Original.Degree << "\" data-bytes=\"" << P.Original.SharedBytes
        << "\">\n<h3>";
    if (In.Accesses.size() > 1)
      Out << "Access " << Index + 1 << " of " << In.Accesses.size() << ": ";
    Out << "<code>" << escapeHtml(accessText(A.Text.empty() ? In.Index : A.Text))
        << "</code></h3>\n<p class=\"message\">";
    if (A.Reported)
      Out << "<b>shmem-bank-conflict:</b> " << escapeHtml(A.Message);
    else
      Out << "No bank conflict: " << escapeHtml(describeLayoutCost(P.Original))
          << " (the ideal for this " << P.WidthBytes << "-byte "
          << (P.Store ? "store" : "load") << ").";
    Out << "</p>\n";
    writeSummary(Out, P, Index);
    Out << "<details" << (Index == 0 ? " open" : "")
        << "><summary>The lane &rarr; bank picture as the terminal shows "
           "it</summary><pre id=\"analysis-"
        << Index << "-text\">" << escapeHtml(renderBankPictureText(P))
        << "</pre></details>\n</section>\n";
    ++Index;
  }

  Out << "<h2>Explore the layout</h2>\n"
         "<p class=\"src\">Change the row length, the padding, the element "
         "type, the swizzle and the block: the page lays each lane's element "
         "out again and computes the picture, the wavefronts and the shared "
         "memory itself, by the same bank rules. It starts at the layout as "
         "analysed.</p>\n";
  writeExplorerWidget(Out, In, "explorer");
  Out << "</main>\n<footer>Written by <code>shmem-lint explain "
         "--format=html</code>. Computed by the analysis: the first part and "
         "the explorer's left picture. Computed in the page: everything the "
         "explorer's controls change. Nothing is fetched from the "
         "network.</footer>\n</body>\n</html>\n";
}

} // namespace shmem
