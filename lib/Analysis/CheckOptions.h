//===- CheckOptions.h - The checks' options, as a table ---------*- C++ -*-===//
//
// CheckOptions.def expanded into a table that the front ends walk: each
// reads or writes an option through its entry, so none names one. Values
// are text in every front end (a flag, a plugin argument, a YAML scalar);
// each type has one parser here.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_CHECKOPTIONS_H
#define SHMEM_LINT_ANALYSIS_CHECKOPTIONS_H

#include "AnalysisOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace shmem {

enum class CheckOptionType { Bool, Unsigned };

/// One entry of CheckOptions.def.
struct CheckOption {
  CheckKind Check;
  llvm::StringRef Name; ///< clang-tidy: shmem-<check>.Name
  llvm::StringRef Key;  ///< --Key=VALUE, -fplugin-arg-shmem_lint-Key=VALUE
  CheckOptionType Type;
  llvm::StringRef Help;
  /// The field, by type; the other is null.
  bool AnalysisOptions::*BoolMember;
  unsigned AnalysisOptions::*UnsignedMember;
  /// For a number, the least value set() accepts (CheckOptions.def's MIN).
  unsigned Min;

  /// Sets the field of \p O from \p Value; false, and \p O unchanged, when
  /// \p Value is not one of the type's.
  bool set(AnalysisOptions &O, llvm::StringRef Value) const;
  /// The field's value as the front ends write it: 0|1 or a number.
  std::string text(const AnalysisOptions &O) const;
  void copy(const AnalysisOptions &From, AnalysisOptions &To) const;
  bool same(const AnalysisOptions &A, const AnalysisOptions &B) const;
  /// Whether \p Value is a number below Min: refused by set(), and worth
  /// saying why ("expected a number of at least 1"), unlike a value that
  /// is not of the type at all.
  bool belowMinimum(llvm::StringRef Value) const;
  /// What the value should be, for messages: "true or false", "a number",
  /// "a number of at least 2".
  std::string expected() const;
  /// The value's form in usage text: "0|1", "N".
  llvm::StringRef metavar() const;
};

/// Every entry of CheckOptions.def, in its order.
llvm::ArrayRef<CheckOption> checkOptions();

/// A boolean as clang-tidy reads one: a YAML boolean (true, false, on, off,
/// yes, no, ...), else an integer (non-zero is true).
std::optional<bool> parseBoolOption(llvm::StringRef V);
/// A non-negative decimal number.
std::optional<unsigned> parseUnsignedOption(llvm::StringRef V);

/// The one warp size every front end accepts, and why another is refused
/// (a clause for "...; ..." messages). The option stays so that a
/// .clang-tidy that states 32 keeps working.
constexpr unsigned CudaWarpSize = 32;
extern const char *const WarpSizeReason;

} // namespace shmem

#endif
