//===- LaneValue.h - Per-thread affine values -------------------*- C++ -*-===//
//
// The value an integer expression takes in every thread of a thread set (a
// warp, or a whole block), as an affine form over unknowns that are the same
// in every thread:
//
//     v[t] = C[t] + sum_k A_k[t] * s_k
//
// C and A_k are concrete per-thread values (Lanes: compact while they are
// uniform or linear in the thread's coordinates); s_k are uniform unknowns (kernel
// parameters, blockIdx, loop counters, loads from uniform addresses). This
// keeps `lane * ld` exact: the lane vector becomes the coefficient of `ld`.
// Operations the domain cannot hold give an unknown value with a reason, or,
// when every operand is uniform, are left for the caller to name as a fresh
// uniform unknown (see isUniform()).
//
// This header is part of the model layer: it includes no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_LANEVALUE_H
#define SHMEM_LINT_MODEL_LANEVALUE_H

#include "FlatMap.h"
#include "Lanes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shmem {

using SymbolId = uint32_t;

/// Concrete values for some unknowns; used when a non-affine operation forces
/// the analysis to enumerate.
using SymbolBinding = std::map<SymbolId, int64_t>;

class LaneValue {
public:
  enum class Kind {
    Affine,    ///< C + sum A_k s_k, exact.
    NonAffine, ///< Exact only once the listed unknowns are bound.
    Unknown,   ///< Depends on data or on something not modelled.
  };

  LaneValue() = default;

  static LaneValue constant(unsigned Threads, int64_t V);
  static LaneValue perThread(std::vector<int64_t> C);
  static LaneValue perThread(Lanes C);
  static LaneValue symbol(unsigned Threads, SymbolId S);
  static LaneValue unknown(unsigned Threads, std::string Reason);
  /// A value that becomes exact once every unknown in \p Needs is bound.
  static LaneValue nonAffine(unsigned Threads, std::vector<SymbolId> Needs);

  Kind kind() const { return K; }
  bool isAffine() const { return K == Kind::Affine; }
  bool isUnknown() const { return K == Kind::Unknown; }
  const std::string &reason() const;
  /// For an Unknown value, a modulus M > 1 with v[t] = constants()[t]
  /// (mod M) in every thread whatever the unknown data; 0 when nothing is
  /// known. `s[data * 64 + tid]` keeps `tid mod 64`: the data part only
  /// moves a thread along its own column, which the race analysis uses.
  /// Kept through products with a constant and sums with concrete values.
  int64_t residueModulus() const { return Mod; }
  const std::vector<SymbolId> &needs() const { return parts().Needs; }

  unsigned size() const { return C.size(); }
  const Lanes &constants() const { return C; }
  const FlatMap<SymbolId, Lanes> &coefficients() const { return parts().A; }
  bool hasSymbols() const { return P && !P->A.empty(); }

  /// Affine with no unknowns.
  bool isConcrete() const { return isAffine() && !hasSymbols(); }
  /// The same concrete value in every thread.
  std::optional<int64_t> asConstant() const;
  /// Affine and the same form in every thread of [Begin, End).
  bool isUniform(unsigned Begin, unsigned End) const;
  bool isUniform() const { return isUniform(0, size()); }
  /// Affine and every coefficient vector is the same in all threads: the
  /// unknowns only shift the value, so differences between threads are exact.
  bool hasUniformCoefficients(unsigned Begin, unsigned End) const;

  /// The value in thread \p T with the unknowns bound as in \p B (unbound
  /// unknowns count as 0). Only for affine values.
  int64_t evaluate(unsigned T, const SymbolBinding &B = {}) const;

  /// Restrict to the threads [Begin, End).
  LaneValue slice(unsigned Begin, unsigned End) const;

  bool operator==(const LaneValue &O) const;
  bool operator!=(const LaneValue &O) const { return !(*this == O); }

  // Arithmetic. Results stay affine when the domain can hold them.
  friend LaneValue operator+(const LaneValue &L, const LaneValue &R);
  friend LaneValue operator-(const LaneValue &L, const LaneValue &R);
  friend LaneValue operator*(const LaneValue &L, const LaneValue &R);
  LaneValue operator-() const;

  enum class Op { Div, Rem, Shl, Shr, And, Or, Xor, Min, Max, LT, LE, GT, GE, EQ, NE, LAnd, LOr };
  /// Operations exact only on concrete operands. With unknowns, the result is
  /// NonAffine (needing the unknowns involved), or Unknown if an operand is.
  /// \p Unsigned selects unsigned division, remainder and shifts.
  static LaneValue apply(Op O, const LaneValue &L, const LaneValue &R,
                         bool Unsigned = false);
  /// (C + sum a_k s_k) / m, % m and >> m when every a_k is a multiple of
  /// the divisor (m, or 2^m for >>) and C is non-negative: the unknowns,
  /// assumed non-negative, pass through the division unchanged. Returns
  /// \p Fallback (what apply() gave) when the split does not apply. Used by
  /// the kernel walker for `/`, `%` and `>>`.
  static LaneValue splitDivision(Op O, const LaneValue &L, const LaneValue &R,
                                 const LaneValue &Fallback);
  LaneValue bitNot() const;
  LaneValue logicalNot() const;
  static LaneValue select(const LaneValue &Cond, const LaneValue &T,
                          const LaneValue &F);
  /// Wrap to the given bit width (casts to narrower integer types).
  LaneValue truncate(unsigned Bits, bool Signed) const &;
  /// The same, reusing this value's storage (most casts change nothing).
  LaneValue truncate(unsigned Bits, bool Signed) &&;

  /// Substitute concrete values for bound unknowns.
  LaneValue bind(const SymbolBinding &B) const;

  /// Every unknown this value mentions (coefficients or needs).
  std::vector<SymbolId> symbols() const;

  std::string str() const;

private:
  /// What most values lack: symbol coefficients, the unknowns a NonAffine
  /// value needs and an Unknown's reason. Values are copied, moved and
  /// destroyed far more often than made (eleven million temporaries on one
  /// ggml flash-attention file), so these parts sit behind one pointer,
  /// shared by copies and copied before a change: a value without them is
  /// its lanes and a null pointer. The count is not atomic: a value belongs
  /// to the analysis of one translation unit, on one thread.
  struct Parts {
    unsigned Refs = 1;
    FlatMap<SymbolId, Lanes> A;
    std::vector<SymbolId> Needs;
    std::string Reason;
  };
  class PartsRef {
  public:
    PartsRef() = default;
    PartsRef(const PartsRef &O) : Ptr(O.Ptr) {
      if (Ptr)
        ++Ptr->Refs;
    }
    PartsRef(PartsRef &&O) noexcept : Ptr(O.Ptr) { O.Ptr = nullptr; }
    PartsRef &operator=(const PartsRef &O) {
      PartsRef Copy(O);
      std::swap(Ptr, Copy.Ptr);
      return *this;
    }
    PartsRef &operator=(PartsRef &&O) noexcept {
      std::swap(Ptr, O.Ptr);
      return *this;
    }
    ~PartsRef() {
      if (Ptr && --Ptr->Refs == 0)
        delete Ptr;
    }
    explicit operator bool() const { return Ptr; }
    const Parts *operator->() const { return Ptr; }
    const Parts *get() const { return Ptr; }
    /// The parts to change: made, or copied when another value shares them.
    Parts &mut() {
      if (!Ptr)
        Ptr = new Parts();
      else if (Ptr->Refs > 1) {
        --Ptr->Refs;
        Ptr = new Parts{1, Ptr->A, Ptr->Needs, Ptr->Reason};
      }
      return *Ptr;
    }
    void reset() { *this = PartsRef(); }

  private:
    Parts *Ptr = nullptr;
  };
  /// The parts of a value without any.
  static const Parts NoParts;

  Kind K = Kind::Unknown;
  int64_t Mod = 0; ///< See residueModulus().
  Lanes C;
  PartsRef P;

  const Parts &parts() const { return P ? *P.get() : NoParts; }
  /// The coefficients to change.
  FlatMap<SymbolId, Lanes> &coeffs() { return P.mut().A; }
  void normalize();
  /// Parts left with nothing in them go: a value without any holds a null
  /// pointer, however it was made.
  void dropEmptyParts();
  /// unknown() with a reason another value already holds.
  static LaneValue unknownBecause(unsigned Threads, const PartsRef &Why);
  static LaneValue combineFailure(const LaneValue &L, const LaneValue &R);
  static LaneValue addScaled(const LaneValue &L, const LaneValue &R,
                             int64_t Factor);
  /// The residues an Unknown operand keeps through L * R and L + F * R.
  static LaneValue unknownProduct(const LaneValue &L, const LaneValue &R);
  static LaneValue unknownSum(const LaneValue &L, const LaneValue &R,
                              int64_t Factor);
};

} // namespace shmem

#endif
