//===- CheckOptions.cpp ---------------------------------------------------===//

#include "CheckOptions.h"

#include "llvm/Support/YAMLParser.h"

#include <type_traits>

namespace shmem {

// TYPE says what the field is; a mismatch would make the front ends parse
// one type and store another.
#define SHMEM_CHECK_OPTION(CHECK, NAME, KEY, TYPE, MEMBER, MIN, HELP)          \
  static_assert(std::is_same_v<decltype(AnalysisOptions::MEMBER), TYPE>,      \
                "CheckOptions.def: the type of " NAME " is not that of "      \
                "AnalysisOptions::" #MEMBER);
#include "CheckOptions.def"

namespace {
constexpr CheckOption entry(CheckKind K, llvm::StringRef Name,
                            llvm::StringRef Key, bool AnalysisOptions::*M,
                            unsigned, llvm::StringRef Help) {
  return {K, Name, Key, CheckOptionType::Bool, Help, M, nullptr, 0};
}
constexpr CheckOption entry(CheckKind K, llvm::StringRef Name,
                            llvm::StringRef Key, unsigned AnalysisOptions::*M,
                            unsigned Min, llvm::StringRef Help) {
  return {K, Name, Key, CheckOptionType::Unsigned, Help, nullptr, M, Min};
}

const CheckOption Options[] = {
#define SHMEM_CHECK_OPTION(CHECK, NAME, KEY, TYPE, MEMBER, MIN, HELP)          \
  entry(CheckKind::CHECK, NAME, KEY, &AnalysisOptions::MEMBER, MIN, HELP),
#include "CheckOptions.def"
};
} // namespace

llvm::ArrayRef<CheckOption> checkOptions() { return Options; }

std::optional<bool> parseBoolOption(llvm::StringRef V) {
  V = V.trim();
  if (std::optional<bool> B = llvm::yaml::parseBool(V))
    return B;
  long long N;
  if (!V.getAsInteger(10, N))
    return N != 0;
  return std::nullopt;
}

std::optional<unsigned> parseUnsignedOption(llvm::StringRef V) {
  unsigned N;
  if (V.trim().getAsInteger(10, N))
    return std::nullopt;
  return N;
}

bool CheckOption::set(AnalysisOptions &O, llvm::StringRef Value) const {
  switch (Type) {
  case CheckOptionType::Bool:
    if (std::optional<bool> B = parseBoolOption(Value)) {
      O.*BoolMember = *B;
      return true;
    }
    return false;
  case CheckOptionType::Unsigned:
    if (std::optional<unsigned> N = parseUnsignedOption(Value);
        N && *N >= Min) {
      O.*UnsignedMember = *N;
      return true;
    }
    return false;
  }
  return false;
}

std::string CheckOption::text(const AnalysisOptions &O) const {
  if (Type == CheckOptionType::Bool)
    return O.*BoolMember ? "1" : "0";
  return std::to_string(O.*UnsignedMember);
}

void CheckOption::copy(const AnalysisOptions &From, AnalysisOptions &To) const {
  if (Type == CheckOptionType::Bool)
    To.*BoolMember = From.*BoolMember;
  else
    To.*UnsignedMember = From.*UnsignedMember;
}

bool CheckOption::same(const AnalysisOptions &A,
                       const AnalysisOptions &B) const {
  if (Type == CheckOptionType::Bool)
    return A.*BoolMember == B.*BoolMember;
  return A.*UnsignedMember == B.*UnsignedMember;
}

bool CheckOption::belowMinimum(llvm::StringRef Value) const {
  std::optional<unsigned> N = parseUnsignedOption(Value);
  return Type == CheckOptionType::Unsigned && N && *N < Min;
}

std::string CheckOption::expected() const {
  if (Type == CheckOptionType::Bool)
    return "true or false";
  return Min ? "a number of at least " + std::to_string(Min) : "a number";
}

const char *const WarpSizeReason =
    "every CUDA GPU runs warps of 32 lanes, which the bank and coalescing "
    "models assume";

llvm::StringRef CheckOption::metavar() const {
  return Type == CheckOptionType::Bool ? "0|1" : "N";
}

} // namespace shmem
