//===- Lanes.cpp - One integer per thread, stored compactly ---------------===//

#include "Lanes.h"

#include <cassert>

namespace shmem {

Lanes Lanes::splat(unsigned N, int64_t V) {
  Lanes L;
  L.N = N;
  L.V = V;
  return L;
}

Lanes Lanes::linear(unsigned N, unsigned Dx, unsigned Dy, int64_t V,
                    int64_t Sx, int64_t Sy, int64_t Sz) {
  assert(Dx && Dy && "a linear form needs the block's shape");
  // A coordinate that takes one value in the block contributes a constant:
  // drop its stride, so that equal values have equal fields.
  uint64_t Plane = uint64_t(Dx) * Dy;
  if (Dx == 1 || N <= 1)
    Sx = 0;
  if (Dy == 1 || N <= Dx)
    Sy = 0;
  if (N <= Plane)
    Sz = 0;
  Lanes L = splat(N, V);
  if (Sx == 0 && Sy == 0 && Sz == 0)
    return L;
  L.F = Form::Linear;
  L.Dx = Dx;
  L.Dy = Dy;
  L.Sx = Sx;
  L.Sy = Sy;
  L.Sz = Sz;
  return L;
}

Lanes Lanes::values(std::vector<int64_t> Vals, unsigned Dx, unsigned Dy) {
  unsigned N = unsigned(Vals.size());
  unsigned I = 1;
  while (I < N && Vals[I] == Vals[0])
    ++I;
  if (I >= N)
    return splat(N, N ? Vals[0] : 0);
  if (Dx && Dy) {
    // Linear when the strides read off threads (1,0,0), (0,1,0) and (0,0,1)
    // predict every value; a mismatch usually shows within a warp.
    int64_t V0 = Vals[0];
    int64_t Sx = Dx > 1 ? wrapSub(Vals[1], V0) : 0;
    int64_t Sy = Dy > 1 && N > Dx ? wrapSub(Vals[Dx], V0) : 0;
    uint64_t Plane = uint64_t(Dx) * Dy;
    int64_t Sz = N > Plane ? wrapSub(Vals[Plane], V0) : 0;
    Lanes L = linear(N, Dx, Dy, V0, Sx, Sy, Sz);
    if (L.forEachWhile([&](unsigned T, int64_t X) { return X == Vals[T]; }))
      return L;
  }
  Lanes L;
  L.F = Form::Explicit;
  L.N = N;
  L.Dx = Dx;
  L.Dy = Dy;
  L.Data = std::make_shared<const std::vector<int64_t>>(std::move(Vals));
  return L;
}

int64_t Lanes::linearAt(unsigned T) const {
  int64_t X = T % Dx, Y = (T / Dx) % Dy, Z = T / (uint64_t(Dx) * Dy);
  return wrapAdd(wrapAdd(V, wrapMul(Sx, X)),
                 wrapAdd(wrapMul(Sy, Y), wrapMul(Sz, Z)));
}

std::optional<int64_t> Lanes::splatValue() const {
  if (F == Form::Splat && N)
    return V;
  return std::nullopt;
}

bool Lanes::sameIn(unsigned Begin, unsigned End) const {
  if (F == Form::Splat || Begin + 1 >= End)
    return true;
  int64_t First = (*this)[Begin];
  if (F == Form::Explicit) {
    for (unsigned T = Begin + 1; T < End; ++T)
      if ((*Data)[T] != First)
        return false;
    return true;
  }
  for (unsigned T = Begin + 1; T < End; ++T)
    if (linearAt(T) != First)
      return false;
  return true;
}

bool Lanes::within(int64_t Lo, int64_t Hi) const {
  switch (F) {
  case Form::Splat:
    return N == 0 || (V >= Lo && V <= Hi);
  case Form::Explicit:
    for (int64_t X : *Data)
      if (X < Lo || X > Hi)
        return false;
    return true;
  case Form::Linear:
    break;
  }
  // The extremes sit at the block's corners. Computed without wrapping: if
  // they are in range, no thread's value wrapped either.
  uint64_t Plane = uint64_t(Dx) * Dy;
  __int128 Ext[3] = {Dx - 1, N > Dx ? Dy - 1 : 0,
                     __int128((N + Plane - 1) / Plane) - 1};
  int64_t S[3] = {Sx, Sy, Sz};
  __int128 Min = V, Max = V;
  for (int I = 0; I < 3; ++I) {
    __int128 Span = __int128(S[I]) * Ext[I];
    (Span < 0 ? Min : Max) += Span;
  }
  return Min >= Lo && Max <= Hi;
}

std::vector<int64_t> Lanes::toVector() const {
  if (F == Form::Explicit)
    return *Data;
  if (F == Form::Splat)
    return std::vector<int64_t>(N, V);
  // Appended rather than zeroed and then overwritten.
  std::vector<int64_t> Out;
  Out.reserve(N);
  forEach([&](unsigned, int64_t X) { Out.push_back(X); });
  return Out;
}

Lanes Lanes::slice(unsigned Begin, unsigned End) const {
  if (F == Form::Splat)
    return splat(End - Begin, V);
  std::vector<int64_t> Out(End - Begin);
  for (unsigned T = Begin; T < End; ++T)
    Out[T - Begin] = (*this)[T];
  // A slice is not a block: its threads do not start at coordinate 0.
  return values(std::move(Out));
}

void Lanes::shapeOf(const Lanes &L, const Lanes &R, unsigned &Dx,
                    unsigned &Dy) {
  if (L.Dx) {
    Dx = L.Dx;
    Dy = L.Dy;
  } else {
    Dx = R.Dx;
    Dy = R.Dy;
  }
}

/// Both sides are Splat or Linear over one shape.
static bool sameShape(const Lanes &L, const Lanes &R) {
  return L.form() != Lanes::Form::Explicit &&
         R.form() != Lanes::Form::Explicit;
}

Lanes Lanes::addScaled(const Lanes &L, const Lanes &R, int64_t Fac) {
  assert(L.N == R.N && "values over different thread sets");
  if (sameShape(L, R) &&
      (L.F == Form::Splat || R.F == Form::Splat ||
       (L.Dx == R.Dx && L.Dy == R.Dy))) {
    const Lanes &S = L.F == Form::Linear ? L : R;
    if (S.F == Form::Splat)
      return splat(L.N, wrapAdd(L.V, wrapMul(Fac, R.V)));
    return linear(L.N, S.Dx, S.Dy, wrapAdd(L.V, wrapMul(Fac, R.V)),
                  wrapAdd(L.Sx, wrapMul(Fac, R.Sx)),
                  wrapAdd(L.Sy, wrapMul(Fac, R.Sy)),
                  wrapAdd(L.Sz, wrapMul(Fac, R.Sz)));
  }
  return zip(L, R, [Fac](int64_t A, int64_t B) {
    return wrapAdd(A, wrapMul(Fac, B));
  });
}

Lanes Lanes::mul(const Lanes &L, const Lanes &R) {
  assert(L.N == R.N && "values over different thread sets");
  if (L.F == Form::Splat || R.F == Form::Splat) {
    const Lanes &K = L.F == Form::Splat ? L : R;
    const Lanes &O = L.F == Form::Splat ? R : L;
    if (O.F == Form::Splat)
      return splat(L.N, wrapMul(K.V, O.V));
    if (K.V == 0)
      return splat(L.N, 0);
    if (O.F == Form::Linear)
      return linear(L.N, O.Dx, O.Dy, wrapMul(K.V, O.V), wrapMul(K.V, O.Sx),
                    wrapMul(K.V, O.Sy), wrapMul(K.V, O.Sz));
  }
  return zip(L, R, [](int64_t A, int64_t B) { return wrapMul(A, B); });
}

Lanes Lanes::select(const Lanes &Cond, const Lanes &T, const Lanes &F) {
  if (auto C = Cond.splatValue())
    return *C ? T : F;
  if (T == F)
    return T;
  std::vector<int64_t> Out = F.toVector();
  T.forEach([&](unsigned I, int64_t X) {
    if (Cond[I])
      Out[I] = X;
  });
  unsigned Dx, Dy;
  shapeOf(T, F, Dx, Dy);
  if (!Dx) {
    Dx = Cond.Dx;
    Dy = Cond.Dy;
  }
  return values(std::move(Out), Dx, Dy);
}

bool operator==(const Lanes &L, const Lanes &R) {
  if (L.N != R.N)
    return false;
  if (L.F == Lanes::Form::Splat && R.F == Lanes::Form::Splat)
    return L.V == R.V;
  if (L.F == Lanes::Form::Linear && R.F == Lanes::Form::Linear &&
      L.Dx == R.Dx && L.Dy == R.Dy)
    return L.V == R.V && L.Sx == R.Sx && L.Sy == R.Sy && L.Sz == R.Sz;
  if (L.F == Lanes::Form::Explicit && R.F == Lanes::Form::Explicit &&
      L.Data == R.Data)
    return true;
  // Different forms can still hold equal values (a vector built without
  // the block's shape); compare them thread by thread.
  for (unsigned T = 0; T < L.N; ++T)
    if (L[T] != R[T])
      return false;
  return true;
}

} // namespace shmem
