//===- ModelFuzzer.cpp - libFuzzer target for the model layer ------------===//
//
// Decodes the input into a block geometry, uniform unknowns bound to concrete
// values, an integer index expression over threadIdx/blockDim/laneId and the
// unknowns, an element width, a load or a store and an active-lane mask. The
// expression is evaluated twice:
//
//  * through the model, as the kernel walker does (LaneValue arithmetic,
//    LaneValue::apply, LaneValue::splitDivision, a fresh uniform unknown for
//    a non-affine result over uniform operands, truncation at casts);
//  * concretely, thread by thread, in 64-bit arithmetic.
//
// and the fuzzer aborts when
//
//  1. an affine model value, with the unknowns bound, differs from the
//     concrete value in some thread (LaneValue's claim: exact per-lane
//     values), or bind()/slice() disagree with evaluate(), or a value the
//     model calls uniform (in the block or in a warp) is not;
//  2. BankModel's wavefronts, ideal, bank conflicts, degree, active lanes or
//     lane banks for a warp differ from an independent brute-force oracle
//     below, written from docs/checks/shmem-bank-conflict.md and
//     test/calibration/README.md (it never calls BankModel).
//
// The model states two assumptions, and inputs that break them make no claim:
// unknowns are non-negative (splitDivision) and a value with unknowns does not
// overflow the type it is cast to (truncate). The fuzzer tracks both.
//
//===----------------------------------------------------------------------===//

#include "BankModel.h"
#include "LaneValue.h"
#include "ThreadGeometry.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace shmem;

namespace {

[[noreturn]] void fail(const std::string &Msg) {
  std::fprintf(stderr, "model fuzzer: MISMATCH: %s\n", Msg.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// Wrapping 64-bit arithmetic: what the concrete side computes. The model
// claims exactness over 64-bit integers.
int64_t refAdd(int64_t A, int64_t B) { return int64_t(uint64_t(A) + uint64_t(B)); }
int64_t refSub(int64_t A, int64_t B) { return int64_t(uint64_t(A) - uint64_t(B)); }
int64_t refMul(int64_t A, int64_t B) { return int64_t(uint64_t(A) * uint64_t(B)); }

/// One sub-expression: the model's value and the concrete per-thread values.
struct Node {
  LaneValue Model;
  std::vector<int64_t> Ref;
  /// False when the concrete value is undefined in some thread (division by
  /// zero, shift out of range) or an assumption of the model is broken.
  bool Exact = true;
  std::string Text;
};

class Builder {
public:
  Builder(FuzzedDataProvider &FDP, const ThreadGeometry &G) : FDP(FDP), G(G) {}

  SymbolBinding Binding;
  SymbolId NextSymbol = 1;

  Node expr(unsigned Depth) {
    if (Depth == 0 || FDP.remaining_bytes() == 0)
      return leaf();
    uint8_t Kind = FDP.ConsumeIntegral<uint8_t>();
    if (Kind < 64)
      return leaf();
    switch (Kind % 12) {
    case 0: case 1: case 2: case 3: case 4:
      return binary(Depth);
    case 5:
      return unary(Depth);
    case 6:
      return select(Depth);
    case 7:
      return cast(Depth);
    default:
      return binary(Depth);
    }
  }

  Node leaf() {
    unsigned N = G.threads();
    uint8_t Kind = FDP.ConsumeIntegral<uint8_t>() % 12;
    Node R;
    switch (Kind) {
    case 0: case 1: case 2: {
      R.Model = G.threadIdx(Kind);
      R.Text = std::string("threadIdx.") + "xyz"[Kind];
      break;
    }
    case 3: case 4: {
      unsigned Axis = Kind - 3;
      R.Model = G.blockDim(Axis);
      R.Text = std::string("blockDim.") + "xy"[Axis];
      break;
    }
    case 5:
      R.Model = G.laneId();
      R.Text = "laneId";
      break;
    case 6:
      R.Model = G.warpId();
      R.Text = "warpId";
      break;
    case 7: case 8: {
      // A uniform unknown (kernel parameter, blockIdx, loop counter), bound
      // to a non-negative value as the model assumes.
      SymbolId S = NextSymbol++;
      int64_t V = FDP.ConsumeBool() ? FDP.ConsumeIntegralInRange<int64_t>(0, 64)
                                    : FDP.ConsumeIntegralInRange<int64_t>(0, 1 << 20);
      Binding[S] = V;
      R.Model = LaneValue::symbol(N, S);
      R.Text = "s" + std::to_string(S) + "{" + std::to_string(V) + "}";
      break;
    }
    default: {
      int64_t V;
      switch (FDP.ConsumeIntegral<uint8_t>() % 4) {
      case 0: V = FDP.ConsumeIntegral<int64_t>(); break;
      case 1: V = FDP.ConsumeIntegralInRange<int64_t>(-4, 4); break;
      default: V = FDP.ConsumeIntegralInRange<int64_t>(0, 130); break;
      }
      R.Model = LaneValue::constant(N, V);
      R.Text = std::to_string(V);
      break;
    }
    }
    R.Ref.resize(N);
    for (unsigned T = 0; T < N; ++T)
      R.Ref[T] = R.Model.evaluate(T, Binding);
    // Leaves are checked against the geometry independently of the model.
    for (unsigned T = 0; T < N; ++T) {
      int64_t Want;
      const Dim3 &B = G.block();
      switch (Kind) {
      case 0: Want = T % B.X; break;
      case 1: Want = (T / B.X) % B.Y; break;
      case 2: Want = T / (B.X * B.Y); break;
      case 3: Want = B.X; break;
      case 4: Want = B.Y; break;
      case 5: Want = T % 32; break;
      case 6: Want = T / 32; break;
      case 7: case 8: Want = Binding[NextSymbol - 1]; break;
      default: Want = R.Model.constants()[0]; break;
      }
      if (Want != R.Ref[T])
        fail(R.Text + " in thread " + std::to_string(T) + ": geometry gives " +
             std::to_string(R.Ref[T]) + ", expected " + std::to_string(Want));
    }
    return R;
  }

  /// The kernel walker's nameIfUniform(): a non-affine result over uniform
  /// operands becomes a fresh uniform unknown. The fuzzer binds it to the
  /// concrete value, which must then be the same in every thread.
  void nameIfUniform(Node &R, std::initializer_list<const Node *> Operands) {
    if (R.Model.kind() != LaneValue::Kind::NonAffine)
      return;
    for (const Node *O : Operands)
      if (!O->Model.isUniform())
        return;
    SymbolId S = NextSymbol++;
    R.Model = LaneValue::symbol(G.threads(), S);
    if (!R.Exact) {
      Binding[S] = 0;
      return;
    }
    for (int64_t V : R.Ref)
      if (V != R.Ref[0])
        fail("uniform operands gave a non-uniform result: " + R.Text);
    Binding[S] = R.Ref[0];
    // A negative named value breaks the model's "unknowns are non-negative".
    if (R.Ref[0] < 0)
      NegativeSymbols.insert(S);
  }

  Node binary(unsigned Depth) {
    Node L = expr(Depth - 1);
    Node R = expr(Depth - 1);
    uint8_t K = FDP.ConsumeIntegral<uint8_t>() % 17;
    bool Unsigned = FDP.ConsumeBool();
    static const char *const Names[] = {"+",  "-",  "*",  "/",  "%",  "<<",
                                        ">>", "&",  "|",  "^",  "min", "max",
                                        "<",  "<=", "==", "&&", "||"};
    Node Out;
    Out.Text = "(" + L.Text + " " + Names[K] + (Unsigned ? "u " : " ") +
               R.Text + ")";
    Out.Exact = L.Exact && R.Exact;
    unsigned N = G.threads();
    Out.Ref.resize(N);
    LaneValue::Op Op = LaneValue::Op::Div;
    bool IsApply = true;
    switch (K) {
    case 0: Out.Model = L.Model + R.Model; IsApply = false; break;
    case 1: Out.Model = L.Model - R.Model; IsApply = false; break;
    case 2: Out.Model = L.Model * R.Model; IsApply = false; break;
    case 3: Op = LaneValue::Op::Div; break;
    case 4: Op = LaneValue::Op::Rem; break;
    case 5: Op = LaneValue::Op::Shl; break;
    case 6: Op = LaneValue::Op::Shr; break;
    case 7: Op = LaneValue::Op::And; break;
    case 8: Op = LaneValue::Op::Or; break;
    case 9: Op = LaneValue::Op::Xor; break;
    case 10: Op = LaneValue::Op::Min; break;
    case 11: Op = LaneValue::Op::Max; break;
    case 12: Op = LaneValue::Op::LT; break;
    case 13: Op = LaneValue::Op::LE; break;
    case 14: Op = LaneValue::Op::EQ; break;
    case 15: Op = LaneValue::Op::LAnd; break;
    default: Op = LaneValue::Op::LOr; break;
    }
    if (IsApply) {
      Out.Model = LaneValue::apply(Op, L.Model, R.Model, Unsigned);
      if (Out.Model.kind() == LaneValue::Kind::NonAffine) {
        Out.Model = LaneValue::splitDivision(Op, L.Model, R.Model, Out.Model);
        // splitDivision assumes the unknowns are non-negative and the
        // dividend does not overflow: `(c * s) >> k` is `(c >> k) * s`
        // only while c * s fits in 64 bits.
        if (Out.Model.kind() == LaneValue::Kind::Affine) {
          for (SymbolId S : L.Model.symbols())
            if (NegativeSymbols.count(S))
              Out.Exact = false;
          if (overflows(L.Model))
            Out.Exact = false;
        }
      }
    }
    for (unsigned T = 0; T < N; ++T) {
      int64_t A = L.Ref[T], B = R.Ref[T];
      uint64_t UA = uint64_t(A), UB = uint64_t(B);
      int64_t V = 0;
      switch (K) {
      case 0: V = refAdd(A, B); break;
      case 1: V = refSub(A, B); break;
      case 2: V = refMul(A, B); break;
      case 3: case 4:
        if (B == 0) {
          Out.Exact = false;
          break;
        }
        if (Unsigned)
          V = int64_t(K == 3 ? UA / UB : UA % UB);
        else if (B == -1) // INT64_MIN / -1 wraps.
          V = K == 3 ? refSub(0, A) : 0;
        else
          V = K == 3 ? A / B : A % B;
        break;
      case 5:
        if (B < 0 || B >= 63) {
          Out.Exact = false;
          break;
        }
        V = int64_t(UA << B);
        break;
      case 6:
        if (B < 0 || B >= 63) {
          Out.Exact = false;
          break;
        }
        V = Unsigned ? int64_t(UA >> B) : (A < 0 ? ~(~A >> B) : A >> B);
        break;
      case 7: V = A & B; break;
      case 8: V = A | B; break;
      case 9: V = A ^ B; break;
      case 10: V = A < B ? A : B; break;
      case 11: V = A < B ? B : A; break;
      case 12: V = Unsigned ? UA < UB : A < B; break;
      case 13: V = Unsigned ? UA <= UB : A <= B; break;
      case 14: V = A == B; break;
      case 15: V = (A != 0) && (B != 0); break;
      default: V = (A != 0) || (B != 0); break;
      }
      Out.Ref[T] = V;
    }
    nameIfUniform(Out, {&L, &R});
    return Out;
  }

  Node unary(unsigned Depth) {
    Node S = expr(Depth - 1);
    uint8_t K = FDP.ConsumeIntegral<uint8_t>() % 3;
    Node Out;
    Out.Exact = S.Exact;
    Out.Ref.resize(S.Ref.size());
    switch (K) {
    case 0:
      Out.Model = -S.Model;
      Out.Text = "-" + S.Text;
      for (size_t T = 0; T < S.Ref.size(); ++T)
        Out.Ref[T] = refSub(0, S.Ref[T]);
      break;
    case 1:
      Out.Model = S.Model.bitNot();
      Out.Text = "~" + S.Text;
      for (size_t T = 0; T < S.Ref.size(); ++T)
        Out.Ref[T] = ~S.Ref[T];
      break;
    default:
      Out.Model = S.Model.logicalNot();
      Out.Text = "!" + S.Text;
      for (size_t T = 0; T < S.Ref.size(); ++T)
        Out.Ref[T] = !S.Ref[T];
      // The walker names only a logical not.
      nameIfUniform(Out, {&S});
      break;
    }
    return Out;
  }

  Node select(unsigned Depth) {
    Node C = expr(Depth - 1);
    Node A = expr(Depth - 1);
    Node B = expr(Depth - 1);
    Node Out;
    Out.Text = "(" + C.Text + " ? " + A.Text + " : " + B.Text + ")";
    Out.Model = LaneValue::select(C.Model, A.Model, B.Model);
    Out.Ref.resize(C.Ref.size());
    // Only the side a thread takes must be defined in that thread.
    Out.Exact = C.Exact && A.Exact && B.Exact;
    for (size_t T = 0; T < C.Ref.size(); ++T)
      Out.Ref[T] = C.Ref[T] ? A.Ref[T] : B.Ref[T];
    nameIfUniform(Out, {&C, &A, &B});
    return Out;
  }

  Node cast(unsigned Depth) {
    Node S = expr(Depth - 1);
    static const unsigned Widths[] = {8, 16, 32, 64};
    unsigned Bits = Widths[FDP.ConsumeIntegral<uint8_t>() % 4];
    bool Signed = FDP.ConsumeBool();
    Node Out;
    Out.Text = std::string("(") + (Signed ? "int" : "uint") +
               std::to_string(Bits) + ")" + S.Text;
    Out.Model = S.Model.truncate(Bits, Signed);
    Out.Exact = S.Exact;
    Out.Ref.resize(S.Ref.size());
    for (size_t T = 0; T < S.Ref.size(); ++T) {
      int64_t V = S.Ref[T];
      if (Bits < 64) {
        uint64_t Mask = (uint64_t(1) << Bits) - 1;
        uint64_t U = uint64_t(V) & Mask;
        int64_t W = (Signed && (U >> (Bits - 1))) ? int64_t(U | ~Mask)
                                                  : int64_t(U);
        // truncate() assumes a value with unknowns fits the type.
        if (W != V && S.Model.hasSymbols())
          Out.Exact = false;
        V = W;
      }
      Out.Ref[T] = V;
    }
    return Out;
  }

  std::set<SymbolId> NegativeSymbols;

  /// Whether the affine \p V, evaluated without wrapping under Binding,
  /// leaves the 64-bit range in some thread.
  bool overflows(const LaneValue &V) const {
    for (unsigned T = 0; T < V.size(); ++T) {
      __int128 Sum = V.constants()[T];
      for (const auto &KV : V.coefficients()) {
        auto It = Binding.find(KV.first);
        __int128 S = It == Binding.end() ? 0 : It->second;
        Sum += __int128(KV.second[T]) * S;
      }
      if (Sum > INT64_MAX || Sum < INT64_MIN)
        return true;
    }
    return false;
  }

private:
  FuzzedDataProvider &FDP;
  const ThreadGeometry &G;
};

/// Claim 1: exact per-lane values.
void checkValue(const Node &N, const ThreadGeometry &G,
                const SymbolBinding &B) {
  if (!N.Exact)
    return;
  const LaneValue &V = N.Model;
  if (V.size() != G.threads())
    fail(N.Text + ": value over " + std::to_string(V.size()) +
         " threads, block has " + std::to_string(G.threads()));
  if (!V.isAffine())
    return;
  for (unsigned T = 0; T < G.threads(); ++T)
    if (V.evaluate(T, B) != N.Ref[T])
      fail(N.Text + " in thread " + std::to_string(T) + ": model " +
           V.str() + " gives " + std::to_string(V.evaluate(T, B)) +
           ", concrete " + std::to_string(N.Ref[T]));
  LaneValue Bound = V.bind(B);
  if (!Bound.isConcrete() || Bound.constants().toVector() != N.Ref)
    fail(N.Text + ": bind() differs from the concrete values");
  if (V.isUniform())
    for (int64_t X : N.Ref)
      if (X != N.Ref[0])
        fail(N.Text + ": called uniform but differs between threads");
  for (unsigned W = 0; W < G.warps(); ++W) {
    unsigned Begin = G.warpBegin(W), End = G.warpEnd(W);
    LaneValue S = V.slice(Begin, End);
    for (unsigned T = Begin; T < End; ++T)
      if (S.evaluate(T - Begin, B) != N.Ref[T])
        fail(N.Text + ": slice of warp " + std::to_string(W) +
             " differs in thread " + std::to_string(T));
    if (V.isUniform(Begin, End))
      for (unsigned T = Begin; T < End; ++T)
        if (N.Ref[T] != N.Ref[Begin])
          fail(N.Text + ": called uniform in warp " + std::to_string(W) +
               " but differs in thread " + std::to_string(T));
  }
}

//===----------------------------------------------------------------------===//
// The oracle: shared-memory wavefronts by brute force, from the documented
// hardware rules (docs/checks/shmem-bank-conflict.md):
//  - 32 banks of 4 bytes; the word at byte address a is floor(a / 4), its
//    bank the word mod 32 (non-negative);
//  - lanes are served in fixed phases of consecutive lanes: 32 for 1, 2 and
//    4 bytes, 16 for 8 bytes, 8 for 16 bytes;
//  - an 8- or 16-byte load whose aligned lane pairs (2k, 2k+1) never hold
//    two active lanes at different addresses is served in phases twice as
//    wide; stores never fold;
//  - a phase with an active lane costs the largest number of distinct words
//    any one bank must deliver to its lanes (each lane touches every word
//    its bytes fall in); a phase with none costs nothing;
//  - ideal = phases with an active lane (at least 1); ncu's bank conflicts
//    = wavefronts - phases; degree = wavefronts / ideal rounded up, at
//    least 1.
//===----------------------------------------------------------------------===//

struct OracleResult {
  unsigned Wavefronts = 0, Ideal = 0, Conflicts = 0, Degree = 0, Active = 0;
  std::vector<int> LaneBank;
};

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && (A < 0) != (B < 0)) ? Q - 1 : Q;
}

OracleResult oracle(const std::vector<std::optional<int64_t>> &Addr,
                    unsigned Width, bool IsLoad) {
  OracleResult O;
  const unsigned Lanes = Addr.size();
  unsigned Phase = Width <= 4 ? 32 : Width == 8 ? 16 : 8;
  if (IsLoad && Width > 4) {
    bool Fold = true;
    for (unsigned K = 0; 2 * K + 1 < Lanes; ++K)
      if (Addr[2 * K] && Addr[2 * K + 1] && *Addr[2 * K] != *Addr[2 * K + 1])
        Fold = false;
    if (Fold)
      Phase *= 2;
  }
  O.LaneBank.assign(Lanes, -1);
  unsigned Phases = 0;
  for (unsigned P = 0; P * Phase < Lanes; ++P) {
    // Bank -> distinct words in this phase, by brute force over every byte.
    std::set<int64_t> Words[32];
    bool Any = false;
    for (unsigned L = P * Phase; L < std::min(Lanes, (P + 1) * Phase); ++L) {
      if (!Addr[L])
        continue;
      Any = true;
      ++O.Active;
      for (unsigned Byte = 0; Byte < Width; ++Byte) {
        int64_t Word = floorDiv(*Addr[L] + Byte, 4);
        int Bank = int(((Word % 32) + 32) % 32);
        Words[Bank].insert(Word);
        if (Byte == 0)
          O.LaneBank[L] = Bank;
      }
    }
    if (!Any)
      continue;
    ++Phases;
    size_t Cost = 0;
    for (const auto &W : Words)
      Cost = std::max(Cost, W.size());
    O.Wavefronts += Cost;
  }
  O.Ideal = std::max(1u, Phases);
  O.Conflicts = O.Wavefronts - Phases;
  O.Degree = std::max(1u, (O.Wavefronts + O.Ideal - 1) / O.Ideal);
  return O;
}

/// Claim 2: BankModel agrees with the oracle, on the addresses the model's
/// value gives (as the bank-conflict check computes them) and, when the model
/// has no affine value, on the concrete addresses alone.
void checkBanks(const Node &Off, const std::vector<char> &Active,
                const ThreadGeometry &G, const SymbolBinding &B,
                unsigned Width, AccessOp Op) {
  if (!Off.Exact)
    return;
  // Shared memory is at most a few hundred KiB; far larger offsets only come
  // from inputs that overflow and are no claim of the model's.
  constexpr int64_t Limit = int64_t(1) << 40;
  BankModel Model;
  for (unsigned W = 0; W < G.warps(); ++W) {
    unsigned Begin = G.warpBegin(W), End = G.warpEnd(W);
    std::vector<std::optional<int64_t>> Addr(End - Begin);
    for (unsigned L = Begin; L < End; ++L) {
      if (!Active[L])
        continue;
      int64_t A = Off.Model.isAffine() ? Off.Model.evaluate(L, B) : Off.Ref[L];
      if (A != Off.Ref[L])
        fail(Off.Text + ": address differs from the concrete one");
      if (A > Limit || A < -Limit)
        return;
      Addr[L - Begin] = A;
    }
    BankResult R = Model.analyze(Addr, Width, Op);
    OracleResult O = oracle(Addr, Width, Op == AccessOp::Load);
    auto Mismatch = [&](const char *What, unsigned Got, unsigned Want) {
      std::string Lanes;
      for (unsigned L = 0; L < Addr.size(); ++L)
        Lanes += " " + (Addr[L] ? std::to_string(*Addr[L]) : std::string("-"));
      fail(std::string(What) + " of warp " + std::to_string(W) + ": model " +
           std::to_string(Got) + ", oracle " + std::to_string(Want) +
           "; width " + std::to_string(Width) +
           (Op == AccessOp::Load ? " load" : " store") + ", offset " +
           Off.Text + ", addresses" + Lanes);
    };
    if (R.Wavefronts != O.Wavefronts)
      Mismatch("wavefronts", R.Wavefronts, O.Wavefronts);
    if (R.IdealWavefronts != O.Ideal)
      Mismatch("ideal wavefronts", R.IdealWavefronts, O.Ideal);
    if (R.BankConflicts != O.Conflicts)
      Mismatch("bank conflicts", R.BankConflicts, O.Conflicts);
    if (R.degree() != O.Degree)
      Mismatch("degree", R.degree(), O.Degree);
    if (R.ActiveLanes != O.Active)
      Mismatch("active lanes", R.ActiveLanes, O.Active);
    if (R.conflicted() != (O.Wavefronts > O.Ideal))
      Mismatch("conflicted", R.conflicted(), O.Wavefronts > O.Ideal);
    for (unsigned L = 0; L < Addr.size(); ++L)
      if (R.LaneBank[L] != O.LaneBank[L])
        Mismatch("bank of a lane", unsigned(R.LaneBank[L]),
                 unsigned(O.LaneBank[L]));
    // The worst bank's words are distinct, in that bank, and as many as the
    // worst phase costs.
    if (R.Wavefronts) {
      std::set<int64_t> Words(R.Worst.Words.begin(), R.Worst.Words.end());
      if (Words.size() != R.Worst.Words.size())
        Mismatch("distinct words of the worst bank", Words.size(),
                 R.Worst.Words.size());
      for (int64_t Word : Words)
        if (unsigned(((Word % 32) + 32) % 32) != R.Worst.Bank)
          Mismatch("bank of a worst word", unsigned(((Word % 32) + 32) % 32),
                   R.Worst.Bank);
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider FDP(Data, Size);
  // Block shape: mostly one to eight warps, sometimes up to 1024 threads.
  Dim3 Block;
  Block.X = FDP.ConsumeIntegralInRange<unsigned>(1, 256);
  Block.Y = FDP.ConsumeIntegralInRange<unsigned>(1, 8);
  Block.Z = FDP.ConsumeIntegralInRange<unsigned>(1, 4);
  if (Block.count() > ThreadGeometry::MaxThreadsPerBlock)
    return 0;
  ThreadGeometry G(Block);
  static const unsigned Widths[] = {1, 2, 4, 8, 16};
  unsigned Width = Widths[FDP.ConsumeIntegral<uint8_t>() % 5];
  AccessOp Op = FDP.ConsumeBool() ? AccessOp::Load : AccessOp::Store;
  uint8_t MaskKind = FDP.ConsumeIntegral<uint8_t>() % 4;
  uint32_t MaskBits = FDP.ConsumeIntegral<uint32_t>();
  int64_t BaseBytes = FDP.ConsumeIntegralInRange<int64_t>(0, 1 << 16);
  // Width-aligned bases are what arrays have; keep some unaligned ones too.
  if (FDP.ConsumeBool())
    BaseBytes -= BaseBytes % Width;

  Builder Build(FDP, G);
  Node Cond = Build.expr(3);
  Node Index = Build.expr(6);
  // SHMEM_LINT_FUZZ_PRINT=1: show what an input decodes to.
  static const bool Print = std::getenv("SHMEM_LINT_FUZZ_PRINT");
  if (Print)
    std::fprintf(stderr, "block %s, %u-byte %s, mask kind %u, index %s -> %s\n",
                 Block.str().c_str(), Width,
                 Op == AccessOp::Load ? "load" : "store", MaskKind,
                 Index.Text.c_str(), Index.Model.str().substr(0, 200).c_str());
  checkValue(Cond, G, Build.Binding);
  checkValue(Index, G, Build.Binding);

  std::vector<char> Active(G.threads(), 1);
  for (unsigned T = 0; T < G.threads(); ++T) {
    switch (MaskKind) {
    case 0: break;
    case 1: Active[T] = (MaskBits >> (T % 32)) & 1; break;
    case 2: Active[T] = T < MaskBits % (G.threads() + 1); break;
    default: Active[T] = !Cond.Exact || Cond.Ref[T] != 0; break;
    }
  }

  // The byte offset as the walker forms it: base + index * sizeof(element).
  Node Off;
  Off.Text = std::to_string(BaseBytes) + " + " + Index.Text + " * " +
             std::to_string(Width);
  Off.Model = LaneValue::constant(G.threads(), BaseBytes) +
              Index.Model * LaneValue::constant(G.threads(), Width);
  Off.Exact = Index.Exact;
  Off.Ref.resize(G.threads());
  for (unsigned T = 0; T < G.threads(); ++T)
    Off.Ref[T] = refAdd(BaseBytes, refMul(Index.Ref[T], Width));
  checkValue(Off, G, Build.Binding);
  checkBanks(Off, Active, G, Build.Binding, Width, Op);
  return 0;
}
