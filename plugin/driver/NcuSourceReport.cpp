//===- NcuSourceReport.cpp - Nsight Compute's source page, per line -------===//

#include "NcuSourceReport.h"
#include "SharedListing.h"
#include "Subprocess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>

namespace shmem {

void NcuCounters::add(const NcuCounters &O) {
  Wavefronts += O.Wavefronts;
  auto Sum = [](std::optional<double> &A, const std::optional<double> &B) {
    if (B)
      A = A.value_or(0) + *B;
  };
  Sum(Ideal, O.Ideal);
  Sum(Executions, O.Executions);
  for (const std::string &Op : O.Opcodes)
    if (!llvm::is_contained(Opcodes, Op))
      Opcodes.push_back(Op);
}

const NcuCounters *NcuSourceReport::at(llvm::StringRef File, unsigned Line,
                                       NcuAccess A) const {
  auto F = Lines.find(File.str());
  if (F == Lines.end())
    return nullptr;
  auto L = F->second.find(Line);
  if (L == F->second.end())
    return nullptr;
  const NcuCounters &C = L->second[unsigned(A)];
  return C.Wavefronts > 0 || C.Executions ? &C : nullptr;
}

std::vector<std::string> NcuSourceReport::files() const {
  std::vector<std::string> Out;
  for (const auto &F : Lines)
    Out.push_back(F.first);
  return Out;
}

size_t NcuSourceReport::lines() const {
  size_t N = 0;
  for (const auto &F : Lines)
    N += F.second.size();
  return N;
}

void NcuSourceReport::add(llvm::StringRef File, unsigned Line, NcuAccess A,
                          const NcuCounters &C) {
  Lines[File.str()][Line][unsigned(A)].add(C);
}

namespace {

struct CsvRow {
  unsigned Number = 0; ///< 1-based line of the file the row starts on.
  std::vector<std::string> Cells;
};

/// RFC 4180 rows: quoted cells with "" for a quote, and line ends inside
/// quotes kept. A UTF-8 byte order mark and \r\n line ends are accepted.
std::vector<CsvRow> readCsv(llvm::StringRef Text) {
  Text.consume_front("\xEF\xBB\xBF");
  std::vector<CsvRow> Rows;
  CsvRow Row;
  std::string Cell;
  bool Quoted = false, CellStarted = false;
  unsigned Line = 1;
  Row.Number = 1;
  auto EndCell = [&] {
    Row.Cells.push_back(std::move(Cell));
    Cell.clear();
    CellStarted = false;
  };
  auto EndRow = [&] {
    if (CellStarted || !Row.Cells.empty())
      EndCell();
    if (!Row.Cells.empty())
      Rows.push_back(std::move(Row));
    Row = CsvRow();
    Row.Number = Line;
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (Quoted) {
      if (C == '"' && I + 1 < Text.size() && Text[I + 1] == '"') {
        Cell += '"';
        ++I;
      } else if (C == '"') {
        Quoted = false;
      } else {
        Line += C == '\n';
        Cell += C;
      }
      continue;
    }
    if (C == '"') {
      Quoted = CellStarted = true;
    } else if (C == ',') {
      EndCell();
    } else if (C == '\n') {
      ++Line;
      EndRow();
    } else if (C != '\r') {
      Cell += C;
      CellStarted = true;
    }
  }
  EndRow();
  return Rows;
}

/// A counter as ncu prints it: "1024", "5,238", "5 238" (a locale's
/// no-break space), "1.02 K". std::nullopt for no value ("", "-", "n/a");
/// false in \p Valid for text that is not a number.
std::optional<double> parseCount(llvm::StringRef S, bool &Valid) {
  Valid = true;
  S = S.trim();
  if (S.empty() || S == "-" || S.equals_insensitive("n/a"))
    return std::nullopt;
  double Scale = 1;
  if (S.consume_back("K") || S.consume_back("k"))
    Scale = 1e3;
  else if (S.consume_back("M"))
    Scale = 1e6;
  else if (S.consume_back("G"))
    Scale = 1e9;
  std::string Digits;
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned char C = S[I];
    if (C == ',' || C == ' ' || C == '\'')
      continue;
    // U+00A0 and U+202F, the no-break spaces locales group thousands with.
    if (C == 0xC2 && I + 1 < S.size() && (unsigned char)S[I + 1] == 0xA0) {
      ++I;
      continue;
    }
    if (C == 0xE2 && I + 2 < S.size() && (unsigned char)S[I + 1] == 0x80 &&
        (unsigned char)S[I + 2] == 0xAF) {
      I += 2;
      continue;
    }
    Digits += char(C);
  }
  double V = 0;
  if (Digits.empty() || llvm::StringRef(Digits).getAsDouble(V)) {
    Valid = false;
    return std::nullopt;
  }
  return V * Scale;
}

/// The column of a header labelled \p Label or named \p Metric (see
/// NcuSourceReport.h); -1 if none.
int column(const std::vector<std::string> &Header, llvm::StringRef Label,
           llvm::StringRef Metric) {
  for (size_t I = 0; I < Header.size(); ++I) {
    llvm::StringRef H = llvm::StringRef(Header[I]).trim();
    if (H == Label || H == Metric)
      return int(I);
  }
  return -1;
}

/// One section's header: where each column the reader needs is.
struct Columns {
  int Line = -1, Address = -1, Sass = -1;
  int Wavefronts = -1, Ideal = -1, Executed = -1;

  static Columns of(const std::vector<std::string> &H) {
    Columns C;
    C.Line = column(H, "Line No", "Line No");
    C.Address = column(H, "Address", "Address");
    // With cuda,sass "Source" is there twice: the source text, then the
    // SASS text after Address.
    for (size_t I = 0; I < H.size(); ++I)
      if (llvm::StringRef(H[I]).trim() == "Source" && int(I) > C.Address &&
          C.Address >= 0) {
        C.Sass = int(I);
        break;
      }
    C.Wavefronts =
        column(H, "L1 Wavefronts Shared", "memory_l1_wavefronts_shared");
    C.Ideal = column(H, "L1 Wavefronts Shared Ideal",
                     "memory_l1_wavefronts_shared_ideal");
    C.Executed = column(H, "Instructions Executed", "inst_executed");
    return C;
  }
};

std::string exportHint() {
  return "export the source page with 'ncu --import REPORT.ncu-rep --page "
         "source --csv --print-source cuda,sass --print-units base' of a "
         "report profiled with --section SourceCounters";
}

/// Reads the rows of one CSV into a report: see NcuSourceReport.h.
class Reader {
public:
  Reader(llvm::StringRef Name, NcuSourceReport &Out) : Name(Name), Out(Out) {}

  bool read(llvm::StringRef Text, std::string &Error) {
    for (const CsvRow &R : readCsv(Text)) {
      if (!row(R, Error))
        return false;
    }
    flush();
    if (!SawHeader) {
      Error = "'" + Name +
              "' is not Nsight Compute's source page as CSV (no "
              "header row starting with \"Line No\"); " +
              exportHint();
      return false;
    }
    if (!SawLineHeader) {
      Error = "'" + Name +
              "' is the source page's SASS view, which has no "
              "source lines; " +
              exportHint();
      return false;
    }
    if (!SawWavefronts) {
      Error = "'" + Name +
              "' has no \"L1 Wavefronts Shared\" column: the "
              "report was profiled without the SourceCounters section; " +
              exportHint();
      return false;
    }
    return true;
  }

private:
  bool row(const CsvRow &R, std::string &Error) {
    const std::vector<std::string> &Cells = R.Cells;
    if (llvm::all_of(Cells, [](const std::string &C) {
          return llvm::StringRef(C).trim().empty();
        }))
      return true;
    llvm::StringRef First = llvm::StringRef(Cells[0]).trim();
    if (First == "File Path" || First == "File Name" ||
        First == "Function Name" || First == "Kernel Name") {
      flush();
      if (First.starts_with("File"))
        File = Cells.size() > 1 ? Cells[1] : "";
      Cols.reset();
      return true;
    }
    if (First == "Line No" || First == "Address") {
      flush();
      Cols = Columns::of(Cells);
      SawHeader = true;
      SawLineHeader |= Cols->Line >= 0;
      SawWavefronts |= Cols->Line >= 0 && Cols->Wavefronts >= 0;
      return true;
    }
    // ncu's own messages (==PROF==, ==WARNING==) when its stderr came
    // along, and the rows of views this reader cannot place.
    if (!Cols || Cols->Line < 0 || Cols->Wavefronts < 0)
      return true;
    auto Cell = [&](int I) {
      return I >= 0 && size_t(I) < Cells.size()
                 ? llvm::StringRef(Cells[I]).trim()
                 : llvm::StringRef();
    };
    llvm::StringRef LineNo = Cell(Cols->Line), Addr = Cell(Cols->Address);
    if (Addr == "...") // A stretch of the listing ncu folded away.
      return true;
    NcuCounters C;
    if (!counters(R, *Cols, C, Error))
      return false;
    if (!LineNo.empty() && (Addr.empty() || Addr == "-")) {
      flush();
      if (LineNo.getAsInteger(10, Line) || Line == 0) {
        Error = "row " + std::to_string(R.Number) + " of '" + Name +
                "': line number '" + LineNo.str() + "' is not a number";
        return false;
      }
      LineTotal = C;
      return true;
    }
    // ncu 2025.3 lists a line's instructions twice, the second time after
    // a "..." row; the source row's counters are those of one copy.
    if (Addr.empty() || Line == 0 || !Addresses.insert(Addr.str()).second)
      return true;
    // A SASS row: split by what the instruction does.
    llvm::StringRef Text = Cell(Cols->Sass);
    if (Text.starts_with("@"))
      Text = Text.drop_until([](char Ch) { return Ch == ' '; }).ltrim();
    llvm::StringRef Opcode =
        Text.take_until([](char Ch) { return Ch == ' ' || Ch == ';'; });
    std::optional<SharedInstruction> I = classifySassOpcode(Opcode);
    if (!I && C.Wavefronts <= 0)
      return true; // Not a shared-memory instruction.
    NcuAccess A = NcuAccess::LoadsAndStores;
    if (I && I->Kind != SharedOpKind::Atomic &&
        I->Kind != SharedOpKind::BulkCopy)
      A = sharedOpMatches(I->Kind, /*Store=*/true) ? NcuAccess::Store
                                                   : NcuAccess::Load;
    C.Opcodes = {Opcode.str()};
    Pending[unsigned(A)].add(C);
    SawInstructions = true;
    return true;
  }

  bool counters(const CsvRow &R, const Columns &Cs, NcuCounters &C,
                std::string &Error) {
    auto Read = [&](int Col, llvm::StringRef Label) -> std::optional<double> {
      if (Col < 0 || size_t(Col) >= R.Cells.size())
        return std::nullopt;
      bool Valid = true;
      std::optional<double> V = parseCount(R.Cells[Col], Valid);
      if (!Valid && Error.empty())
        Error = "row " + std::to_string(R.Number) + " of '" + Name + "': '" +
                llvm::StringRef(R.Cells[Col]).trim().str() + "' in column \"" +
                Label.str() + "\" is not a number";
      return V;
    };
    C.Wavefronts = Read(Cs.Wavefronts, "L1 Wavefronts Shared").value_or(0);
    C.Ideal = Read(Cs.Ideal, "L1 Wavefronts Shared Ideal");
    C.Executions = Read(Cs.Executed, "Instructions Executed");
    return Error.empty();
  }

  /// Ends the source line being read: its SASS rows, else its own row.
  void flush() {
    if (Line != 0) {
      if (SawInstructions) {
        for (unsigned A = 0; A < 3; ++A)
          if (Pending[A].Wavefronts > 0 || Pending[A].Executions)
            Out.add(File, Line, NcuAccess(A), Pending[A]);
      } else if (LineTotal.Wavefronts > 0) {
        // Without SASS rows the executions are every instruction's.
        LineTotal.Executions.reset();
        Out.add(File, Line, NcuAccess::LoadsAndStores, LineTotal);
      }
    }
    Line = 0;
    LineTotal = NcuCounters();
    Pending = {};
    Addresses.clear();
    SawInstructions = false;
  }

  std::string Name;
  NcuSourceReport &Out;
  std::string File;
  std::optional<Columns> Cols;
  unsigned Line = 0;
  NcuCounters LineTotal;
  std::array<NcuCounters, 3> Pending;
  /// The SASS rows of the line read so far, by address.
  std::set<std::string> Addresses;
  bool SawInstructions = false;
  bool SawHeader = false, SawLineHeader = false, SawWavefronts = false;
};

} // namespace

std::optional<NcuSourceReport> parseNcuSourceCsv(llvm::StringRef Text,
                                                 llvm::StringRef Name,
                                                 std::string &Error) {
  NcuSourceReport Out;
  Reader R(Name, Out);
  Error.clear();
  if (!R.read(Text, Error))
    return std::nullopt;
  return Out;
}

std::vector<std::string> ncuExportArgs(llvm::StringRef Report) {
  return {"--import",       Report.str(), "--page",        "source", "--csv",
          "--print-source", "cuda,sass",  "--print-units", "base"};
}

std::optional<NcuSourceReport> loadNcuReport(llvm::StringRef Path,
                                             std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Error = "cannot read '" + Path.str() + "': " + Buffer.getError().message();
    return std::nullopt;
  }
  llvm::StringRef Text = (*Buffer)->getBuffer();
  bool IsReport = Path.ends_with(".ncu-rep") || Path.ends_with(".ncu-repz") ||
                  Text.take_front(4096).contains('\0');
  if (!IsReport)
    return parseNcuSourceCsv(Text, Path, Error);
  std::string Command = "ncu";
  for (const std::string &A : ncuExportArgs(Path))
    Command += " " + A;
  llvm::ErrorOr<std::string> Ncu = llvm::sys::findProgramByName("ncu");
  if (!Ncu) {
    Error = "'" + Path.str() +
            "' is an Nsight Compute report and ncu is not "
            "on the PATH to read it; where ncu is, run '" +
            Command + " > source.csv' and pass source.csv";
    return std::nullopt;
  }
  ProgramRun Run = runProgram(*Ncu, ncuExportArgs(Path));
  if (!Run.succeeded()) {
    Error = "ncu could not export the source page of '" + Path.str() + "' (" +
            Command + "): " + Run.failure();
    return std::nullopt;
  }
  return parseNcuSourceCsv(Run.Stdout, Path, Error);
}

} // namespace shmem
