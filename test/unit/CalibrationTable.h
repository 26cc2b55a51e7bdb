//===- CalibrationTable.h - Read the measured tables of test/calibration --===//
//
// The calibration tables are tab-separated, '#' comment lines first, then a
// header naming the columns. The unit tests that replay them share this
// reader; each keeps only the mapping from columns to its own row type.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_TEST_UNIT_CALIBRATIONTABLE_H
#define SHMEM_LINT_TEST_UNIT_CALIBRATIONTABLE_H

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#ifndef SHMEM_LINT_CALIBRATION_DIR
#error "define SHMEM_LINT_CALIBRATION_DIR to the test/calibration directory"
#endif

namespace shmem::calibration {

/// The compile definition SHMEM_LINT_CALIBRATION_DIR; the environment
/// variable of the same name overrides it at run time.
inline std::string calibrationDir() {
  if (const char *Env = std::getenv("SHMEM_LINT_CALIBRATION_DIR"))
    if (*Env)
      return Env;
  return SHMEM_LINT_CALIBRATION_DIR;
}

inline std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::string Cur;
  std::istringstream In(S);
  while (std::getline(In, Cur, Sep))
    Out.push_back(Cur);
  if (!S.empty() && S.back() == Sep)
    Out.push_back("");
  return Out;
}

/// An integer cell; -1 when empty, "NA" or not a number.
inline long number(const std::string &S) {
  if (S.empty() || S == "NA")
    return -1;
  char *End = nullptr;
  long V = std::strtol(S.c_str(), &End, 10);
  return (End && *End == '\0') ? V : -1;
}

/// A comma-separated list of byte offsets; "-" is a masked lane.
inline std::vector<std::optional<int64_t>> offsets(const std::string &S) {
  std::vector<std::optional<int64_t>> Out;
  for (const std::string &O : split(S, ','))
    Out.push_back(O == "-" ? std::nullopt
                           : std::optional<int64_t>(std::stoll(O)));
  return Out;
}

/// A data row's cells by column name ("" for a missing cell).
using CellGetter = std::function<std::string(const char *)>;

/// Calls \p Visit(line number, cells) for every data row of \p Path. On a
/// missing file, header or \p Required column, sets \p Error and returns
/// false (rows before the error have been visited).
inline bool forEachRow(const std::string &Path,
                       std::initializer_list<const char *> Required,
                       const std::function<void(unsigned, const CellGetter &)> &Visit,
                       std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot open " + Path;
    return false;
  }
  std::map<std::string, size_t> Col;
  std::string Line;
  unsigned LineNo = 0;
  while (std::getline(In, Line)) {
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (Line.empty() || Line[0] == '#')
      continue;
    std::vector<std::string> F = split(Line, '\t');
    if (Col.empty()) {
      for (size_t I = 0; I < F.size(); ++I)
        Col[F[I]] = I;
      for (const char *Need : Required)
        if (!Col.count(Need)) {
          Error = Path + ": header lacks column '" + Need + "'";
          return false;
        }
      continue;
    }
    Visit(LineNo, [&](const char *C) -> std::string {
      auto It = Col.find(C);
      return It != Col.end() && It->second < F.size() ? F[It->second] : "";
    });
  }
  if (Col.empty()) {
    Error = Path + ": no header line";
    return false;
  }
  return true;
}

} // namespace shmem::calibration

#endif
