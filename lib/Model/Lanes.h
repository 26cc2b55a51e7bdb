//===- Lanes.h - One integer per thread, stored compactly -------*- C++ -*-===//
//
// The integers the threads of a block hold, one per thread, in the cheapest
// exact form:
//
//   Splat     the same value in every thread;
//   Linear    V + Sx*x + Sy*y + Sz*z over the thread's coordinates in a
//             block of Dx x Dy x * threads, thread t being
//             (t % Dx, t / Dx % Dy, t / (Dx*Dy));
//   Explicit  one stored value per thread.
//
// Index arithmetic is mostly sums and products of threadIdx with constants
// and loop counters (`tile[threadIdx.y + j][threadIdx.x]` is
// 33*y + x + 33*j), so in the Splat and Linear forms an operation costs O(1)
// where a vector of 256 or 1024 values cost O(threads) and an allocation.
// Anything else (`/`, `%`, comparisons, masks) is computed per thread, and
// the result is stored Splat or Linear again when it is one: `x % 32` in a
// block 32 threads wide is `x`.
//
// Explicit storage is shared and immutable, so copies are cheap. Arithmetic
// wraps modulo 2^64 like the machine's; the Linear form is exact under
// wrapping because the map from (V, S) to the values is a ring
// homomorphism.
//
// This header is part of the model layer: it includes no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_MODEL_LANES_H
#define SHMEM_LINT_MODEL_LANES_H

#include "IntMath.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace shmem {

class Lanes {
public:
  enum class Form : uint8_t { Splat, Linear, Explicit };

  Lanes() = default;
  /// \p V in each of \p N threads.
  static Lanes splat(unsigned N, int64_t V);
  /// V + Sx*x + Sy*y + Sz*z in a block of N threads, Dx x Dy x (N/(Dx*Dy)).
  static Lanes linear(unsigned N, unsigned Dx, unsigned Dy, int64_t V,
                      int64_t Sx, int64_t Sy, int64_t Sz);
  /// One value per thread. \p Dx and \p Dy (0: not known) let the result
  /// be stored Linear when it is.
  static Lanes values(std::vector<int64_t> V, unsigned Dx = 0,
                      unsigned Dy = 0);

  unsigned size() const { return N; }
  Form form() const { return F; }
  /// The block's x and y extents a Linear form is over (0: not known).
  unsigned shapeX() const { return Dx; }
  unsigned shapeY() const { return Dy; }
  int64_t operator[](unsigned T) const {
    switch (F) {
    case Form::Splat:
      return V;
    case Form::Explicit:
      return (*Data)[T];
    case Form::Linear:
      break;
    }
    return linearAt(T);
  }
  /// The value, when every thread holds the same one.
  std::optional<int64_t> splatValue() const;
  bool isZero() const { return F == Form::Splat && V == 0; }
  /// Every thread in [Begin, End) holds the same value.
  bool sameIn(unsigned Begin, unsigned End) const;
  /// Every thread's value is in [Lo, Hi]; O(1) unless Explicit.
  bool within(int64_t Lo, int64_t Hi) const;
  std::vector<int64_t> toVector() const;
  Lanes slice(unsigned Begin, unsigned End) const;

  /// Calls \p Fn(thread, value) for every thread in order; O(1) per thread
  /// in every form.
  template <typename Fn> void forEach(Fn &&Fn_) const {
    forEachWhile([&](unsigned T, int64_t X) {
      Fn_(T, X);
      return true;
    });
  }
  /// forEach until \p Fn returns false; false when it did.
  template <typename Fn> bool forEachWhile(Fn &&Fn_) const {
    switch (F) {
    case Form::Splat:
      for (unsigned T = 0; T < N; ++T)
        if (!Fn_(T, V))
          return false;
      return true;
    case Form::Explicit:
      for (unsigned T = 0; T < N; ++T)
        if (!Fn_(T, (*Data)[T]))
          return false;
      return true;
    case Form::Linear:
      break;
    }
    // Step through the coordinates instead of dividing per thread.
    unsigned X = 0, Y = 0;
    int64_t Row = V, Cur = V;
    for (unsigned T = 0; T < N; ++T) {
      if (!Fn_(T, Cur))
        return false;
      if (++X < Dx) {
        Cur = wrapAdd(Cur, Sx);
        continue;
      }
      X = 0;
      if (++Y < Dy) {
        Row = wrapAdd(Row, Sy);
      } else {
        Y = 0;
        Row = wrapAdd(wrapAdd(Row, wrapMul(Sy, -int64_t(Dy - 1))), Sz);
      }
      Cur = Row;
    }
    return true;
  }
  /// \p Pred holds for every thread's value.
  template <typename Pred> bool all(Pred &&P) const {
    if (F == Form::Splat)
      return N == 0 || P(V);
    return forEachWhile([&](unsigned, int64_t X) { return bool(P(X)); });
  }

  /// L + F * R, O(1) unless a side is Explicit or the shapes differ.
  static Lanes addScaled(const Lanes &L, const Lanes &R, int64_t Factor);
  /// L * R, O(1) when a side is a Splat.
  static Lanes mul(const Lanes &L, const Lanes &R);
  /// Fn(l, r) per thread; a Splat when both sides are.
  template <typename Fn>
  static Lanes zip(const Lanes &L, const Lanes &R, Fn &&Fn_) {
    if (L.F == Form::Splat && R.F == Form::Splat)
      return splat(L.N, Fn_(L.V, R.V));
    std::vector<int64_t> Out = L.toVector();
    R.forEach([&](unsigned T, int64_t X) { Out[T] = Fn_(Out[T], X); });
    unsigned Dx, Dy;
    shapeOf(L, R, Dx, Dy);
    return values(std::move(Out), Dx, Dy);
  }
  /// Fn(v) per thread; a Splat stays one.
  template <typename Fn> Lanes map(Fn &&Fn_) const {
    if (F == Form::Splat)
      return splat(N, Fn_(V));
    std::vector<int64_t> Out(N);
    forEach([&](unsigned T, int64_t X) { Out[T] = Fn_(X); });
    return values(std::move(Out), Dx, Dy);
  }
  /// Cond[t] ? T[t] : F[t].
  static Lanes select(const Lanes &Cond, const Lanes &T, const Lanes &F);

  friend bool operator==(const Lanes &L, const Lanes &R);
  friend bool operator!=(const Lanes &L, const Lanes &R) { return !(L == R); }

private:
  Form F = Form::Splat;
  unsigned N = 0;
  /// The block's shape; 0 when not known (then never Linear).
  unsigned Dx = 0, Dy = 0;
  int64_t V = 0, Sx = 0, Sy = 0, Sz = 0;
  std::shared_ptr<const std::vector<int64_t>> Data;

  int64_t linearAt(unsigned T) const;
  static void shapeOf(const Lanes &L, const Lanes &R, unsigned &Dx,
                      unsigned &Dy);
};

} // namespace shmem

#endif
