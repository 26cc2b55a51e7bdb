//===- LaneValue.cpp - Per-thread affine values ---------------------------===//

#include "LaneValue.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <sstream>

namespace shmem {

const LaneValue::Parts LaneValue::NoParts;

// 64-bit arithmetic wraps (wrapAdd, wrapMul in Lanes.h), as the machine's
// does: a kernel's constants and products can overflow int64_t, and signed
// overflow must not be undefined behaviour in the analyser (found by
// test/fuzz/ModelFuzzer.cpp).

LaneValue LaneValue::constant(unsigned Threads, int64_t V) {
  LaneValue R;
  R.K = Kind::Affine;
  R.C = Lanes::splat(Threads, V);
  return R;
}

LaneValue LaneValue::perThread(std::vector<int64_t> Values) {
  return perThread(Lanes::values(std::move(Values)));
}

LaneValue LaneValue::perThread(Lanes Values) {
  LaneValue R;
  R.K = Kind::Affine;
  R.C = std::move(Values);
  return R;
}

LaneValue LaneValue::symbol(unsigned Threads, SymbolId S) {
  LaneValue R = constant(Threads, 0);
  R.coeffs()[S] = Lanes::splat(Threads, 1);
  return R;
}

LaneValue LaneValue::unknown(unsigned Threads, std::string Why) {
  PartsRef Held;
  Held.mut().Reason = std::move(Why);
  return unknownBecause(Threads, Held);
}

LaneValue LaneValue::unknownBecause(unsigned Threads, const PartsRef &Why) {
  // An Unknown value's parts hold its reason alone (it has no coefficients
  // and needs nothing), so they are shared as they are.
  assert((!Why || (Why->A.empty() && Why->Needs.empty())) &&
         "the parts of an unknown value hold only its reason");
  LaneValue R;
  R.K = Kind::Unknown;
  R.C = Lanes::splat(Threads, 0);
  R.P = Why;
  return R;
}

const std::string &LaneValue::reason() const { return parts().Reason; }

LaneValue LaneValue::nonAffine(unsigned Threads, std::vector<SymbolId> Syms) {
  LaneValue R;
  R.K = Kind::NonAffine;
  R.C = Lanes::splat(Threads, 0);
  std::sort(Syms.begin(), Syms.end());
  Syms.erase(std::unique(Syms.begin(), Syms.end()), Syms.end());
  if (!Syms.empty())
    R.P.mut().Needs = std::move(Syms);
  return R;
}

std::optional<int64_t> LaneValue::asConstant() const {
  if (!isConcrete())
    return std::nullopt;
  return C.splatValue();
}

bool LaneValue::isUniform(unsigned Begin, unsigned End) const {
  if (!isAffine())
    return false;
  if (Begin >= End)
    return true;
  return C.sameIn(Begin, End) && hasUniformCoefficients(Begin, End);
}

bool LaneValue::hasUniformCoefficients(unsigned Begin, unsigned End) const {
  if (!isAffine())
    return false;
  for (const auto &KV : coefficients())
    if (!KV.second.sameIn(Begin, End))
      return false;
  return true;
}

int64_t LaneValue::evaluate(unsigned T, const SymbolBinding &B) const {
  assert(isAffine() && T < C.size());
  int64_t V = C[T];
  for (const auto &KV : coefficients()) {
    auto It = B.find(KV.first);
    if (It != B.end())
      V = wrapAdd(V, wrapMul(KV.second[T], It->second));
  }
  return V;
}

LaneValue LaneValue::slice(unsigned Begin, unsigned End) const {
  LaneValue R = *this;
  R.C = C.slice(Begin, End);
  if (hasSymbols()) {
    for (auto &KV : R.coeffs())
      KV.second = KV.second.slice(Begin, End);
    R.normalize();
  }
  return R;
}

bool LaneValue::operator==(const LaneValue &O) const {
  if (K != O.K || Mod != O.Mod || !(C == O.C))
    return false;
  if (P.get() == O.P.get())
    return true;
  const Parts &L = parts(), &R = O.parts();
  return L.A == R.A && L.Needs == R.Needs && L.Reason == R.Reason;
}

void LaneValue::normalize() {
  if (!P)
    return;
  // Lanes stores an all-zero vector as a zero Splat.
  const auto &Co = P->A;
  if (std::none_of(Co.begin(), Co.end(),
                   [](const auto &KV) { return KV.second.isZero(); }))
    return;
  Parts &Mine = P.mut();
  for (auto It = Mine.A.begin(); It != Mine.A.end();) {
    if (It->second.isZero())
      It = Mine.A.erase(It);
    else
      ++It;
  }
  dropEmptyParts();
}

void LaneValue::dropEmptyParts() {
  if (P && P->A.empty() && P->Needs.empty() && P->Reason.empty())
    P.reset();
}

std::vector<SymbolId> LaneValue::symbols() const {
  const Parts &Mine = parts();
  std::vector<SymbolId> S(Mine.Needs);
  for (const auto &KV : Mine.A)
    S.push_back(KV.first);
  std::sort(S.begin(), S.end());
  S.erase(std::unique(S.begin(), S.end()), S.end());
  return S;
}

LaneValue LaneValue::combineFailure(const LaneValue &L, const LaneValue &R) {
  unsigned N = std::max(L.size(), R.size());
  if (L.isUnknown())
    return unknownBecause(N, L.P);
  if (R.isUnknown())
    return unknownBecause(N, R.P);
  std::vector<SymbolId> S = L.symbols();
  std::vector<SymbolId> SR = R.symbols();
  S.insert(S.end(), SR.begin(), SR.end());
  return nonAffine(N, std::move(S));
}

/// Moduli beyond this are dropped rather than risk overflowing residues.
constexpr int64_t MaxModulus = int64_t(1) << 40;

LaneValue LaneValue::unknownProduct(const LaneValue &L, const LaneValue &R) {
  // unknown * k: whatever the data, a multiple of k (of k * M when the
  // unknown was known modulo M).
  const LaneValue &U = L.isUnknown() ? L : R;
  const LaneValue &O = L.isUnknown() ? R : L;
  std::optional<int64_t> K = O.asConstant();
  if (!K || *K == 0 || *K <= -MaxModulus || *K >= MaxModulus)
    return combineFailure(L, R);
  int64_t AbsK = *K < 0 ? -*K : *K;
  int64_t Base = U.Mod ? U.Mod : 1;
  if (Base > MaxModulus / AbsK || Base * AbsK < 2)
    return combineFailure(L, R);
  LaneValue Out = unknownBecause(U.size(), U.P);
  Out.Mod = Base * AbsK;
  int64_t M = Out.Mod, Kv = *K;
  Out.C = U.C.map(
      [M, Kv](int64_t V) { return floorMod(floorMod(V, M) * Kv, M); });
  return Out;
}

LaneValue LaneValue::unknownSum(const LaneValue &L, const LaneValue &R,
                                int64_t F) {
  // unknown (mod M) + concrete c[t]: residues shift by c[t]. Two unknowns
  // known modulo M1 and M2: their sum is known modulo gcd(M1, M2). A sum
  // with unknowns of the walk (kernel parameters, loop counters) keeps
  // nothing: the residue would no longer be exact per thread.
  int64_t M = 0;
  if (L.isUnknown() && R.isUnknown())
    M = std::gcd(L.Mod, R.Mod);
  else if (L.isUnknown() && R.isConcrete())
    M = L.Mod;
  else if (R.isUnknown() && L.isConcrete())
    M = R.Mod;
  if (M < 2 || F < -1 || F > 1)
    return combineFailure(L, R);
  LaneValue Out =
      unknownBecause(std::max(L.size(), R.size()), L.isUnknown() ? L.P : R.P);
  Out.Mod = M;
  Out.C = Lanes::zip(L.C, R.C, [M, F](int64_t A, int64_t B) {
    return floorMod(floorMod(A, M) + F * floorMod(B, M), M);
  });
  return Out;
}

LaneValue LaneValue::addScaled(const LaneValue &L, const LaneValue &R,
                               int64_t F) {
  assert(L.size() == R.size() && "values over different thread sets");
  if (L.isUnknown() || R.isUnknown())
    return unknownSum(L, R, F);
  if (!L.isAffine() || !R.isAffine())
    return combineFailure(L, R);
  LaneValue Out = L;
  Out.C = Lanes::addScaled(L.C, R.C, F);
  // A concrete right side (most sums) leaves the left's coefficients as
  // they are, and shared.
  if (!R.hasSymbols())
    return Out;
  FlatMap<SymbolId, Lanes> &Co = Out.coeffs();
  for (const auto &KV : R.P->A) {
    auto It = Co.try_emplace(KV.first, Lanes::splat(Out.size(), 0)).first;
    It->second = Lanes::addScaled(It->second, KV.second, F);
  }
  Out.normalize();
  return Out;
}

LaneValue operator+(const LaneValue &L, const LaneValue &R) {
  return LaneValue::addScaled(L, R, 1);
}

LaneValue operator-(const LaneValue &L, const LaneValue &R) {
  return LaneValue::addScaled(L, R, -1);
}

LaneValue LaneValue::operator-() const {
  return addScaled(constant(size(), 0), *this, 1 - 2);
}

LaneValue operator*(const LaneValue &L, const LaneValue &R) {
  assert(L.size() == R.size() && "values over different thread sets");
  if (L.isUnknown() != R.isUnknown())
    return LaneValue::unknownProduct(L, R);
  if (!L.isAffine() || !R.isAffine())
    return LaneValue::combineFailure(L, R);
  // A product stays affine when one factor is concrete: its per-thread
  // values scale the other's constants and coefficients.
  if (L.hasSymbols() && R.hasSymbols())
    return LaneValue::combineFailure(L, R);
  const LaneValue &Conc = L.hasSymbols() ? R : L;
  const LaneValue &Other = L.hasSymbols() ? L : R;
  LaneValue Out = Other;
  Out.C = Lanes::mul(Other.C, Conc.C);
  if (!Out.hasSymbols())
    return Out;
  for (auto &KV : Out.coeffs())
    KV.second = Lanes::mul(KV.second, Conc.C);
  Out.normalize();
  return Out;
}

/// One thread's L op R; sets \p Failed (and returns 0) for a division by
/// zero or a shift out of range.
static inline int64_t applyOne(LaneValue::Op O, int64_t A, int64_t B,
                               bool Unsigned, bool &Failed) {
  using Op = LaneValue::Op;
  switch (O) {
  case Op::Div:
  case Op::Rem:
    if (B == 0) {
      Failed = true;
      return 0;
    }
    if (Unsigned)
      return O == Op::Div ? int64_t(uint64_t(A) / uint64_t(B))
                          : int64_t(uint64_t(A) % uint64_t(B));
    if (B == -1) // INT64_MIN / -1 overflows: negate, wrapping.
      return O == Op::Div ? wrapMul(A, -1) : 0;
    return O == Op::Div ? A / B : A % B;
  case Op::Shl:
  case Op::Shr:
    if (B < 0 || B >= 63) {
      Failed = true;
      return 0;
    }
    if (O == Op::Shl)
      return int64_t(uint64_t(A) << B);
    return Unsigned ? int64_t(uint64_t(A) >> B) : (A >> B);
  case Op::And: return A & B;
  case Op::Or:  return A | B;
  case Op::Xor: return A ^ B;
  case Op::Min: return std::min(A, B);
  case Op::Max: return std::max(A, B);
  case Op::LT:  return Unsigned ? uint64_t(A) < uint64_t(B) : A < B;
  case Op::LE:  return Unsigned ? uint64_t(A) <= uint64_t(B) : A <= B;
  case Op::GT:  return Unsigned ? uint64_t(A) > uint64_t(B) : A > B;
  case Op::GE:  return Unsigned ? uint64_t(A) >= uint64_t(B) : A >= B;
  case Op::EQ:  return A == B;
  case Op::NE:  return A != B;
  case Op::LAnd: return A && B;
  case Op::LOr:  return A || B;
  }
  return 0;
}

/// Lanes::zip with applyOne for the operation \p O.
template <LaneValue::Op O>
static Lanes zipOp(const Lanes &L, const Lanes &R, bool Unsigned,
                   bool &Failed) {
  return Lanes::zip(L, R, [&](int64_t A, int64_t B) {
    return applyOne(O, A, B, Unsigned, Failed);
  });
}

/// The operation chosen once, not per thread: with \p O a constant, each
/// instantiation's per-thread step is the operation alone (comparisons of
/// threadIdx with a bound, in unrolled loops, are most of them).
static Lanes zipOp(LaneValue::Op O, const Lanes &L, const Lanes &R,
                   bool Unsigned, bool &Failed) {
  using Op = LaneValue::Op;
  switch (O) {
#define SHMEM_ZIP_OP(Name)                                                     \
  case Op::Name:                                                               \
    return zipOp<Op::Name>(L, R, Unsigned, Failed);
    SHMEM_ZIP_OP(Div)
    SHMEM_ZIP_OP(Rem)
    SHMEM_ZIP_OP(Shl)
    SHMEM_ZIP_OP(Shr)
    SHMEM_ZIP_OP(And)
    SHMEM_ZIP_OP(Or)
    SHMEM_ZIP_OP(Xor)
    SHMEM_ZIP_OP(Min)
    SHMEM_ZIP_OP(Max)
    SHMEM_ZIP_OP(LT)
    SHMEM_ZIP_OP(LE)
    SHMEM_ZIP_OP(GT)
    SHMEM_ZIP_OP(GE)
    SHMEM_ZIP_OP(EQ)
    SHMEM_ZIP_OP(NE)
    SHMEM_ZIP_OP(LAnd)
    SHMEM_ZIP_OP(LOr)
#undef SHMEM_ZIP_OP
  }
  // An operation added to Op but not above: the same result, slower.
  return Lanes::zip(L, R, [&](int64_t A, int64_t B) {
    return applyOne(O, A, B, Unsigned, Failed);
  });
}

LaneValue LaneValue::apply(Op O, const LaneValue &L, const LaneValue &R,
                           bool Unsigned) {
  assert(L.size() == R.size() && "values over different thread sets");
  if (!L.isConcrete() || !R.isConcrete())
    return combineFailure(L, R);
  bool Failed = false;
  Lanes Out = zipOp(O, L.C, R.C, Unsigned, Failed);
  if (Failed)
    return unknown(L.size(), O == Op::Div || O == Op::Rem
                                 ? "division by zero"
                                 : "shift out of range");
  return perThread(std::move(Out));
}

LaneValue LaneValue::splitDivision(Op O, const LaneValue &L,
                                   const LaneValue &R,
                                   const LaneValue &Fallback) {
  auto M = R.asConstant();
  if (!M || *M <= 0 || !L.isAffine())
    return Fallback;
  // x >> m divides by 2^m, not by m: the coefficients must be multiples of
  // 2^m (found by test/fuzz/ModelFuzzer.cpp: `s >> 1` became 0).
  int64_t Divisor = *M;
  if (O == Op::Shr) {
    if (*M >= 63)
      return Fallback;
    Divisor = int64_t(1) << *M;
  }
  if (!L.C.all([](int64_t C) { return C >= 0; }))
    return Fallback;
  for (const auto &KV : L.coefficients())
    if (!KV.second.all(
            [Divisor](int64_t A) { return A % Divisor == 0 && A >= 0; }))
      return Fallback;
  // Symbols are assumed non-negative (indices, sizes and counters are).
  LaneValue Conc = perThread(L.C);
  LaneValue MV = constant(L.size(), *M);
  if (O == Op::Rem)
    return apply(O, Conc, MV);
  if (O != Op::Div && O != Op::Shr)
    return Fallback;
  LaneValue Out = apply(O, Conc, MV);
  for (const auto &KV : L.coefficients()) {
    Lanes Co = KV.second.map([Divisor](int64_t A) { return A / Divisor; });
    Out = Out + perThread(std::move(Co)) * symbol(L.size(), KV.first);
  }
  return Out;
}

LaneValue LaneValue::bitNot() const {
  if (!isConcrete())
    return combineFailure(*this, *this);
  // ~v = -1 - v keeps a Splat or Linear form.
  LaneValue Out = *this;
  Out.C = Lanes::addScaled(Lanes::splat(size(), -1), C, -1);
  return Out;
}

LaneValue LaneValue::logicalNot() const {
  if (!isConcrete())
    return combineFailure(*this, *this);
  LaneValue Out = *this;
  Out.C = C.map([](int64_t V) -> int64_t { return !V; });
  return Out;
}

LaneValue LaneValue::select(const LaneValue &Cond, const LaneValue &T,
                            const LaneValue &F) {
  if (!Cond.isConcrete()) {
    LaneValue X = combineFailure(Cond, T);
    return X.isUnknown() ? X : combineFailure(X, F);
  }
  if (!T.isAffine() || !F.isAffine())
    return combineFailure(T, F);
  // Each thread takes one side's whole form, so the result stays affine.
  LaneValue Out = constant(Cond.size(), 0);
  Out.C = Lanes::select(Cond.C, T.C, F.C);
  if (!T.hasSymbols() && !F.hasSymbols())
    return Out;
  Lanes Zero = Lanes::splat(Cond.size(), 0);
  const FlatMap<SymbolId, Lanes> &TA = T.coefficients(), &FA = F.coefficients();
  FlatMap<SymbolId, Lanes> &Co = Out.coeffs();
  for (const auto &KV : TA) {
    auto It = FA.find(KV.first);
    Co[KV.first] =
        Lanes::select(Cond.C, KV.second, It == FA.end() ? Zero : It->second);
  }
  for (const auto &KV : FA)
    if (!TA.count(KV.first))
      Co[KV.first] = Lanes::select(Cond.C, Zero, KV.second);
  Out.normalize();
  return Out;
}

LaneValue LaneValue::truncate(unsigned Bits, bool Signed) const & {
  return LaneValue(*this).truncate(Bits, Signed);
}

LaneValue LaneValue::truncate(unsigned Bits, bool Signed) && {
  // Wrapping to 2^Bits keeps residues modulo a divisor of 2^Bits only.
  if (isUnknown() && Mod && Bits < 63 && (int64_t(1) << Bits) % Mod != 0)
    return unknownBecause(size(), P);
  if (Bits >= 64 || !isAffine())
    return std::move(*this);
  // Unknowns are assumed not to overflow (indices are small); concrete
  // values wrap exactly as the target type would.
  if (hasSymbols())
    return std::move(*this);
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  // Most casts change nothing: values already in the type's range stay.
  int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
  int64_t Hi = Signed ? int64_t(Mask >> 1) : int64_t(Mask);
  if (C.within(Lo, Hi))
    return std::move(*this);
  C = C.map([Mask, Bits, Signed](int64_t V) {
    uint64_t U = uint64_t(V) & Mask;
    if (Signed && (U >> (Bits - 1)))
      return int64_t(U | ~Mask);
    return int64_t(U);
  });
  return std::move(*this);
}

LaneValue LaneValue::bind(const SymbolBinding &B) const {
  if (!isAffine() || !hasSymbols())
    return *this;
  LaneValue Out = *this;
  const auto &Co = coefficients();
  if (std::none_of(Co.begin(), Co.end(),
                   [&](const auto &KV) { return B.count(KV.first); }))
    return Out;
  FlatMap<SymbolId, Lanes> &Mine = Out.coeffs();
  for (auto It = Mine.begin(); It != Mine.end();) {
    auto BI = B.find(It->first);
    if (BI == B.end()) {
      ++It;
      continue;
    }
    Out.C = Lanes::addScaled(Out.C, It->second, BI->second);
    It = Mine.erase(It);
  }
  Out.dropEmptyParts();
  return Out;
}

std::string LaneValue::str() const {
  std::ostringstream OS;
  if (K == Kind::Unknown && Mod) {
    OS << "unknown(" << reason() << ") = [";
    for (unsigned I = 0; I < C.size(); ++I)
      OS << (I ? "," : "") << C[I];
    OS << "] mod " << Mod;
    return OS.str();
  }
  if (K == Kind::Unknown)
    return "unknown(" + reason() + ")";
  if (K == Kind::NonAffine) {
    OS << "nonaffine(";
    for (SymbolId S : needs())
      OS << " s" << S;
    OS << " )";
    return OS.str();
  }
  auto Vec = [&](const Lanes &L) {
    if (auto S = L.splatValue()) {
      OS << *S;
      return;
    }
    std::vector<int64_t> V = L.toVector();
    OS << "[";
    for (unsigned I = 0; I < V.size(); ++I)
      OS << (I ? "," : "") << V[I];
    OS << "]";
  };
  Vec(C);
  for (const auto &KV : coefficients()) {
    OS << " + ";
    Vec(KV.second);
    OS << "*s" << KV.first;
  }
  return OS.str();
}

} // namespace shmem
