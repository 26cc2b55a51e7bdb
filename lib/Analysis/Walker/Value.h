//===- Walker/Value.h - Per-thread values of a walk ------------*- C++ -*-===//
//
// The walker's value domain: a per-thread integer or pointer (LaneValue,
// PointerValue of lib/Model) with the loads whose data it carries, the
// variables' values, and the keys of the unknowns no AST node names.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_WALKER_VALUE_H
#define SHMEM_LINT_ANALYSIS_WALKER_VALUE_H

#include "Analysis/KernelTrace.h"

#include "clang/AST/Decl.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

namespace shmem {
namespace walker {

/// The key of the unknowns no AST node stands for (blockIdx, gridDim,
/// products of unknowns). SymbolInfo::Key must be the same in every walk of
/// a kernel: checks match the unknowns of two traces by it (what-if
/// layouts, pinned walks).
inline const char BuiltinSymbolKey = 0;
/// Products of two unknowns, keyed by the pair of their ids.
inline const char ProductSymbolKey = 0;
/// Sub-indices of the unknowns that stand for one variable's value at a
/// statement (SymbolKey::Var set): after a join, and at a loop's step, top
/// of an iteration and exit. Other unknowns keyed by a statement use 0, 1.
inline constexpr uint64_t JoinSub = 100, LoopStepSub = 101, LoopTopSub = 102,
                   LoopExitSub = 103;

/// Where a value was loaded from: a shared access (index into
/// KernelTrace::Accesses) or, with GlobalBit set, a global one (index into
/// KernelTrace::GlobalAccesses).
using OriginId = uint32_t;
inline constexpr OriginId GlobalBit = 0x80000000u;
using Origins = std::vector<OriginId>; // Sorted, unique.

inline void addOrigins(Origins &To, const Origins &From) {
  if (From.empty())
    return;
  // An accumulator (`acc += s[i]`) gains one new load at a time, numbered
  // after everything it already carries: append instead of merging the
  // whole list again, which made a long accumulation quadratic.
  if (To.empty() || From.front() > To.back()) {
    To.insert(To.end(), From.begin(), From.end());
    return;
  }
  Origins Out;
  std::set_union(To.begin(), To.end(), From.begin(), From.end(),
                 std::back_inserter(Out));
  To = std::move(Out);
}

/// An integer or a pointer, as the walker computes it. From lists the
/// loads whose data the value carries (copied, converted or combined
/// arithmetically), so that a store of it links producer and consumer.
/// Ptr is set exactly when IsPointer is: most values are integers, and an
/// empty PointerValue's offset (a LaneValue) cost as much to make, copy and
/// destroy as the integer itself.
struct Value {
  LaneValue Int;
  std::optional<PointerValue> Ptr;
  bool IsPointer = false;
  /// A local declared without an initialiser and not assigned since. Its
  /// value is indeterminate, and reading it is undefined, so a thread that
  /// has not assigned it may be taken to hold what others assigned: an
  /// assignment under a partial mask sets it in every thread, and a join
  /// takes the other side (`int c; if (p) c = 0; else c = 8;`).
  bool Uninitialised = false;
  Origins From;
  /// For an integer made by __cvta_generic_to_shared (and kept through
  /// integer conversions): the shared pointer whose address it is, so that
  /// an inline-asm ldmatrix operand can be read as an access.
  std::optional<PointerValue> SharedAddress;

  Value() = default;
  /// Built in place: a default value and a move-assignment of its integer
  /// cost twice the work, and every evaluation makes one.
  explicit Value(LaneValue V) : Int(std::move(V)) {}

  static Value integer(LaneValue V) { return Value(std::move(V)); }
  static Value pointer(PointerValue P) {
    Value R;
    R.Ptr = std::move(P);
    R.IsPointer = true;
    return R;
  }
};

using Env = std::map<const VarDecl *, Value>;

} // namespace walker
} // namespace shmem

#endif
