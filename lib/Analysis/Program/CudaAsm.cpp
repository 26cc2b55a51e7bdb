//===- CudaAsm.cpp - PTX in inline asm, read from its text ----------------===//
//
// The part of the CUDA vocabulary (CudaModel.h) that reads inline asm:
// barriers, ldmatrix/stmatrix, cp.async and its waits, bulk tensor copies,
// mbarrier waits and arrives, special-register moves, and asm that only
// computes. Each reads the asm string as nvcc would pass it to ptxas.
//
//===----------------------------------------------------------------------===//

#include "CudaModel.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace shmem {
namespace cuda {

/// An immediate (`64`) or an operand reference (`%1`) of an asm
/// instruction: a barrier's id or count, a cp.async's size, a wait_group's
/// count.
static void readAsmOperand(StringRef Text, std::optional<unsigned> &Imm,
                               std::optional<unsigned> &Operand) {
  Text = Text.trim();
  unsigned V = 0;
  if (Text.consume_front("%")) {
    if (!Text.getAsInteger(10, V))
      Operand = V;
  } else if (!Text.getAsInteger(0, V)) {
    Imm = V;
  }
}

/// Every barrier instruction of \p T, in order: `bar` or `barrier`, an
/// optional `.cta`, then `sync`, `arrive` or `red` and modifiers, at the
/// start of a token (so that `mbarrier.arrive` is none).
static SmallVector<AsmBarrier, 2> asmBarriersOf(StringRef T) {
  SmallVector<AsmBarrier, 2> Out;
  for (size_t At = T.find("bar"); At != StringRef::npos;
       At = T.find("bar", At + 1)) {
    if (At > 0 && (llvm::isAlnum(T[At - 1]) || T[At - 1] == '.' ||
                   T[At - 1] == '_' || T[At - 1] == '%'))
      continue;
    size_t TokenEnd = T.find_first_of(" \t\n;", At);
    StringRef Token = T.slice(At, TokenEnd);
    SmallVector<StringRef, 6> Parts;
    Token.split(Parts, '.');
    if (Parts.size() < 2 || (Parts[0] != "bar" && Parts[0] != "barrier"))
      continue;
    unsigned Op = Parts[1] == "cta" ? 2 : 1;
    if (Op >= Parts.size() ||
        (Parts[Op] != "sync" && Parts[Op] != "arrive" && Parts[Op] != "red"))
      continue;
    AsmBarrier B;
    B.Mnemonic = (Parts[0] + "." + Parts[Op]).str();
    B.Arrive = Parts[Op] == "arrive";
    // bar.* is barrier.*.aligned.
    B.Aligned = Parts[0] == "bar" || llvm::is_contained(Parts, "aligned");
    B.Reduces = Parts[Op] == "red";
    if (!B.Reduces) {
      size_t End = T.find_first_of(";\n", At);
      StringRef Operands =
          TokenEnd != StringRef::npos && TokenEnd < End
              ? T.slice(TokenEnd, End)
              : "";
      auto [IdText, CountText] = Operands.split(',');
      readAsmOperand(IdText, B.Id, B.IdOperand);
      if (Operands.contains(',')) {
        B.Counted = true;
        readAsmOperand(CountText, B.Count, B.CountOperand);
      }
    }
    Out.push_back(std::move(B));
  }
  return Out;
}

std::optional<AsmBarrier> asmBarrierOf(StringRef T) {
  for (AsmBarrier &B : asmBarriersOf(T))
    if (!B.Arrive)
      return std::move(B);
  return std::nullopt;
}

std::optional<AsmBarrier> asmCountedBarrierOf(StringRef T) {
  for (AsmBarrier &B : asmBarriersOf(T))
    if (B.Counted)
      return std::move(B);
  return std::nullopt;
}

std::optional<AsmBarrier> asmBarrierOf(const GCCAsmStmt *Asm) {
  return asmBarrierOf(Asm->getAsmString());
}

std::optional<AsmMatrixAccess> asmMatrixOf(StringRef T) {
  size_t At = std::min(T.find("ldmatrix."), T.find("stmatrix."));
  if (At == StringRef::npos)
    return std::nullopt;
  AsmMatrixAccess M;
  M.Store = T[At] == 's';
  size_t End = T.find_first_of(";\n", At);
  StringRef Ins = T.slice(At, End);
  size_t Sp = Ins.find_first_of(" \t");
  M.Mnemonic = Ins.take_front(Sp).str();
  StringRef Operands = Sp == StringRef::npos ? "" : Ins.drop_front(Sp);
  // The modifiers, in any order PTX allows.
  llvm::SmallVector<StringRef, 8> Mods;
  StringRef(M.Mnemonic).split(Mods, '.');
  bool Shape = false, B16 = false;
  bool Count = false;
  for (StringRef Mod : llvm::drop_begin(Mods)) {
    if (Mod == "m8n8")
      Shape = true;
    else if (Mod == "b16")
      B16 = true;
    else if (Mod == "trans")
      M.Trans = true;
    else if (Mod == "shared" || Mod == "shared::cta")
      M.SharedSpace = true;
    else if (Mod == "x1" || Mod == "x2" || Mod == "x4") {
      M.Matrices = Mod[1] - '0';
      Count = true;
    }
  }
  // Other shapes (m16n16 of b8 elements, m8n16 ...) have other row sizes.
  if (!Shape || !B16 || !Count)
    return std::nullopt;
  size_t Open = Operands.find("[%");
  if (Open == StringRef::npos)
    return std::nullopt;
  StringRef Addr = Operands.drop_front(Open + 2);
  Addr = Addr.take_until([](char C) { return C == ']'; });
  StringRef Num = Addr.take_while([](char C) { return C >= '0' && C <= '9'; });
  if (Num.empty() || Num.getAsInteger(10, M.AddressOperand))
    return std::nullopt;
  StringRef Rest = Addr.drop_front(Num.size()).trim();
  if (!Rest.empty()) {
    bool Neg = Rest.consume_front("-");
    if (!Neg && !Rest.consume_front("+"))
      return std::nullopt;
    if (Rest.trim().getAsInteger(0, M.Displacement))
      return std::nullopt;
    if (Neg)
      M.Displacement = -M.Displacement;
  }
  return M;
}

std::optional<std::pair<AsmMatrixAccess, const Expr *>>
asmMatrixOf(const GCCAsmStmt *Asm) {
  std::optional<AsmMatrixAccess> M = asmMatrixOf(Asm->getAsmString());
  if (!M)
    return std::nullopt;
  // The address is read, never written: an input operand.
  const Expr *Address = asmInputOperand(Asm, M->AddressOperand);
  if (!Address)
    return std::nullopt;
  return std::make_pair(*M, Address);
}

const Expr *asmInputOperand(const GCCAsmStmt *Asm, unsigned Operand) {
  unsigned Outs = Asm->getNumOutputs();
  if (Operand < Outs || Operand - Outs >= Asm->getNumInputs())
    return nullptr;
  return Asm->getInputExpr(Operand - Outs);
}

std::optional<AsyncCopy> asmAsyncCopyOf(StringRef T) {
  size_t At = T.find("cp.async.c");
  if (At == StringRef::npos)
    return std::nullopt;
  StringRef Ins = T.slice(At, T.find_first_of(";\n", At));
  size_t Sp = Ins.find_first_of(" \t");
  StringRef Mnemonic = Ins.take_front(Sp);
  // cp.async.ca / .cg, into shared from global; not the bulk forms.
  if (!(Mnemonic.starts_with("cp.async.ca.") ||
        Mnemonic.starts_with("cp.async.cg.")) ||
      !Mnemonic.contains(".shared") || !Mnemonic.contains(".global") ||
      Sp == StringRef::npos)
    return std::nullopt;
  // `[%0], [%1], 16` (and an optional source size after it).
  SmallVector<StringRef, 4> Operands;
  Ins.drop_front(Sp).split(Operands, ',');
  if (Operands.size() < 3)
    return std::nullopt;
  StringRef Dst = Operands[0].trim(), Src = Operands[1].trim();
  std::optional<unsigned> DstImm, DstOperand, SrcImm;
  if (!Dst.consume_front("[") || !Dst.consume_back("]"))
    return std::nullopt;
  readAsmOperand(Dst, DstImm, DstOperand);
  AsyncCopy C;
  if (Src.consume_front("[") && Src.consume_back("]"))
    readAsmOperand(Src, SrcImm, C.SrcOperand);
  C.BypassAt16 = Mnemonic.starts_with("cp.async.cg.");
  readAsmOperand(Operands[2], C.Bytes, C.SizeOperand);
  if (!DstOperand || (!C.Bytes && !C.SizeOperand))
    return std::nullopt;
  C.DstOperand = *DstOperand;
  return C;
}

/// The operands of one asm instruction, split at the commas outside
/// brackets and braces: `[%0], [%1, {%2, %3}], [%4]` is three.
static SmallVector<StringRef, 6> asmOperands(StringRef Ops) {
  SmallVector<StringRef, 6> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Ops.size(); ++I) {
    char C = Ops[I];
    if (C == '[' || C == '{')
      ++Depth;
    else if (C == ']' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Out.push_back(Ops.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Out.push_back(Ops.drop_front(Start).trim());
  return Out;
}

/// N of an address operand `[%N]` or `[%N, ...]` (displacements ignored).
static std::optional<unsigned> asmAddressOperand(StringRef Op) {
  if (!Op.consume_front("["))
    return std::nullopt;
  Op = Op.ltrim();
  if (!Op.consume_front("%"))
    return std::nullopt;
  StringRef Num = Op.take_while([](char C) { return C >= '0' && C <= '9'; });
  unsigned V = 0;
  if (Num.empty() || Num.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// The first instruction of \p T whose mnemonic starts with \p Prefix:
/// its mnemonic and its operands (split as asmOperands does).
static std::optional<std::pair<StringRef, SmallVector<StringRef, 6>>>
asmInstruction(StringRef T, StringRef Prefix) {
  size_t At = T.find(Prefix);
  if (At == StringRef::npos)
    return std::nullopt;
  StringRef Ins = T.slice(At, T.find(';', At));
  size_t Sp = Ins.find_first_of(" \t\n");
  if (Sp == StringRef::npos)
    return std::nullopt;
  return std::make_pair(Ins.take_front(Sp), asmOperands(Ins.drop_front(Sp)));
}

std::optional<BulkTensorCopy> asmBulkTensorCopyOf(StringRef T) {
  auto I = asmInstruction(T, "cp.async.bulk.tensor.");
  if (!I)
    return std::nullopt;
  StringRef Mnemonic = I->first;
  const SmallVector<StringRef, 6> &Ops = I->second;
  SmallVector<StringRef, 10> Mods;
  Mnemonic.split(Mods, '.');
  // cp . async . bulk . tensor . Nd . <dst space> . <src space> ...
  if (Mods.size() < 7 || !Mods[5].starts_with("shared") ||
      Mods[6] != "global" || Mods[4].size() != 2 || Mods[4][1] != 'd')
    return std::nullopt;
  BulkTensorCopy C;
  C.Dims = unsigned(Mods[4][0] - '0');
  if (C.Dims < 1 || C.Dims > 5)
    return std::nullopt;
  if (Ops.size() < 2)
    return std::nullopt;
  std::optional<unsigned> Dst = asmAddressOperand(Ops[0]);
  std::optional<unsigned> Map = asmAddressOperand(Ops[1]);
  if (!Dst || !Map)
    return std::nullopt;
  C.DstOperand = *Dst;
  C.MapOperand = *Map;
  if (Ops.size() > 2)
    C.BarrierOperand = asmAddressOperand(Ops[2]);
  return C;
}

std::optional<unsigned> asmMbarrierWaitOf(StringRef T) {
  for (StringRef Op : {"mbarrier.try_wait", "mbarrier.test_wait"})
    if (auto I = asmInstruction(T, Op)) {
      for (StringRef O : I->second)
        if (std::optional<unsigned> N = asmAddressOperand(O))
          return N;
      return std::nullopt;
    }
  return std::nullopt;
}

std::optional<unsigned> asmMbarrierArriveOf(StringRef T) {
  auto I = asmInstruction(T, "mbarrier.arrive");
  if (!I)
    return std::nullopt;
  // `mbarrier.arrive... state, [addr]`: the operand in brackets, after the
  // state (or `_`).
  for (StringRef O : I->second)
    if (std::optional<unsigned> N = asmAddressOperand(O))
      return N;
  return std::nullopt;
}

std::optional<std::string> asmSpecialRegisterMove(StringRef T) {
  auto I = asmInstruction(T, "mov.");
  if (!I || T.find(';') != T.rfind(';') || I->second.size() != 2 ||
      I->second[0].trim() != "%0")
    return std::nullopt;
  StringRef Src = I->second[1].trim();
  if (!Src.consume_front("%"))
    return std::nullopt;
  Src.consume_front("%");
  if (!specialRegisterSpan(Src))
    return std::nullopt;
  return Src.str();
}

bool asmComputesOnly(StringRef T) {
  // An operand is `%0` or `%[name]` (a modifier letter may come first:
  // `%c0`). `%%` is clang's spelling of a PTX `%`, and a `%` before a name
  // nvcc's: a special register or one the asm declares, either of which
  // may be per thread.
  for (size_t I = T.find('%'); I != StringRef::npos; I = T.find('%', I)) {
    StringRef Rest = T.drop_front(I + 1);
    if (Rest.starts_with("%"))
      return false;
    size_t Name = Rest.find_if_not([](char C) { return llvm::isAlpha(C); });
    if (Name == StringRef::npos || Name > 1 ||
        !(llvm::isDigit(Rest[Name]) || Rest[Name] == '['))
      return false;
    I += 1 + Name;
  }
  static const llvm::StringSet<> Pure = {
      "add",  "sub",  "mul",  "mad",   "mul24", "mad24", "sad",  "div",
      "rem",  "abs",  "neg",  "min",   "max",   "popc",  "clz",  "bfind",
      "fns",  "brev", "bfe",  "bfi",   "szext", "bmsk",  "dp4a", "dp2a",
      "and",  "or",   "xor",  "not",   "cnot",  "lop3",  "shf",  "shl",
      "shr",  "prmt", "setp", "set",   "selp",  "slct",  "cvt",  "mov",
      "fma",  "rcp",  "sqrt", "rsqrt", "sin",   "cos",   "lg2",  "ex2",
      "tanh", "copysign", "testp", "addc", "subc", "madc"};
  SmallVector<StringRef, 8> Statements;
  T.split(Statements, ';');
  bool Any = false;
  for (StringRef S : Statements) {
    // Comments, braces, register declarations and guards say nothing of
    // the instruction.
    S = S.take_until([](char C) { return C == '/'; });
    S = S.trim(" \t\n\r{}");
    if (S.empty() || S.starts_with(".reg"))
      continue;
    if (S.starts_with("@"))
      S = S.drop_until([](char C) { return C == ' ' || C == '\t'; }).ltrim();
    StringRef Op = S.take_until(
        [](char C) { return C == '.' || C == ' ' || C == '\t'; });
    if (!Pure.contains(Op))
      return false;
    Any = true;
  }
  return Any;
}

std::optional<AsyncWait> asmAsyncWaitOf(StringRef T) {
  AsyncWait W;
  if (T.contains("cp.async.wait_all")) {
    W.Commit = W.Wait = true;
    W.Pending = 0;
    return W;
  }
  StringRef Group = "cp.async.wait_group";
  size_t At = T.find(Group);
  if (At != StringRef::npos) {
    readAsmOperand(T.slice(At + Group.size(), T.find_first_of(";\n", At)),
                   W.Pending, W.PendingOperand);
    if (!W.Pending && !W.PendingOperand)
      return std::nullopt;
    W.Wait = true;
    return W;
  }
  if (T.contains("cp.async.commit_group")) {
    W.Commit = true;
    return W;
  }
  return std::nullopt;
}

} // namespace cuda
} // namespace shmem
