//===- SharedListing.cpp - Shared-memory instructions per source line -----===//

#include "SharedListing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace shmem {

llvm::StringRef sharedOpKindName(SharedOpKind K) {
  switch (K) {
  case SharedOpKind::Load:
    return "load";
  case SharedOpKind::Store:
    return "store";
  case SharedOpKind::Atomic:
    return "atomic";
  case SharedOpKind::AsyncCopy:
    return "async copy";
  case SharedOpKind::LoadMatrix:
    return "ldmatrix";
  case SharedOpKind::StoreMatrix:
    return "stmatrix";
  case SharedOpKind::BulkCopy:
    return "bulk copy";
  }
  return "load";
}

bool sharedOpMatches(SharedOpKind K, bool Store) {
  switch (K) {
  case SharedOpKind::Load:
  case SharedOpKind::LoadMatrix:
    return !Store;
  case SharedOpKind::Store:
  case SharedOpKind::StoreMatrix:
  case SharedOpKind::AsyncCopy: // Writes the shared side lane by lane.
    return Store;
  case SharedOpKind::Atomic:
    return true;
  case SharedOpKind::BulkCopy:
    return false;
  }
  return false;
}

llvm::StringRef SharedListing::formName() const {
  return TheForm == Form::Ptx ? "PTX" : "SASS";
}

void SharedListing::add(llvm::StringRef File, unsigned Line,
                        const SharedInstruction &I) {
  std::vector<SharedInstruction> &At = Lines[File.str()][Line];
  for (SharedInstruction &Seen : At)
    if (Seen.Name == I.Name) {
      Seen.Count += I.Count;
      return;
    }
  At.push_back(I);
}

const std::vector<SharedInstruction> *SharedListing::at(llvm::StringRef File,
                                                        unsigned Line) const {
  auto F = Lines.find(File.str());
  if (F == Lines.end())
    return nullptr;
  auto L = F->second.find(Line);
  return L == F->second.end() ? nullptr : &L->second;
}

std::vector<std::string> SharedListing::files() const {
  std::vector<std::string> Out;
  for (const auto &F : Lines)
    Out.push_back(F.first);
  return Out;
}

//===----------------------------------------------------------------------===//
// PTX
//===----------------------------------------------------------------------===//

namespace {

/// Bytes of a PTX scalar type (`f32`, `b128`, `f16x2`); 0 if \p T is none.
unsigned ptxTypeBytes(llvm::StringRef T) {
  unsigned Lanes = T.consume_back("x2") ? 2 : 1;
  if (!(T.consume_front("bf") || T.consume_front("b") || T.consume_front("u") ||
        T.consume_front("s") || T.consume_front("f")))
    return 0;
  unsigned Bits = 0;
  if (T.getAsInteger(10, Bits) || Bits % 8 || Bits == 0 || Bits > 128)
    return 0;
  return Bits / 8 * Lanes;
}

bool isSharedSpace(llvm::StringRef Part) {
  return Part == "shared" || Part.starts_with("shared::");
}

/// The cp.async copy size: the integer operand after the two addresses
/// (`[%r1], [%rd2], 16` or `..., 16, %r3` with a source size).
unsigned cpAsyncBytes(llvm::StringRef Operands) {
  size_t Close = Operands.find(']');
  if (Close != llvm::StringRef::npos)
    Close = Operands.find(']', Close + 1);
  if (Close == llvm::StringRef::npos)
    return 0;
  llvm::StringRef Rest = Operands.drop_front(Close + 1).ltrim(" \t,");
  Rest = Rest.take_until([](char C) { return C == ',' || C == ' '; }).trim();
  unsigned Bytes = 0;
  if (Rest.getAsInteger(10, Bytes))
    return 0;
  return Bytes;
}

} // namespace

std::optional<SharedInstruction>
classifyPtxInstruction(llvm::StringRef Opcode, llvm::StringRef Operands) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty())
    return std::nullopt;
  llvm::StringRef Head = Parts.front();
  bool Shared = llvm::any_of(Parts, isSharedSpace);
  SharedInstruction I;
  I.Name = Opcode.str();
  if (Head == "ldmatrix" || Head == "stmatrix") {
    // The state space may be left out; the operand is then a generic
    // pointer into shared memory, which is the only memory these read.
    I.Kind = Head == "ldmatrix" ? SharedOpKind::LoadMatrix
                                : SharedOpKind::StoreMatrix;
    I.WidthBytes = 16;
    return I;
  }
  if (!Shared)
    return std::nullopt;
  if (Head == "cp") {
    // cp.async.bulk..., cp.reduce.async.bulk...: the warp's one copy.
    if (llvm::is_contained(Parts, "bulk")) {
      I.Kind = SharedOpKind::BulkCopy;
      return I;
    }
    if (Parts[1] == "async") {
      I.Kind = SharedOpKind::AsyncCopy;
      I.WidthBytes = cpAsyncBytes(Operands);
      return I;
    }
    return std::nullopt;
  }
  if (Head != "ld" && Head != "st" && Head != "atom" && Head != "red")
    return std::nullopt;
  I.Kind = Head == "ld"   ? SharedOpKind::Load
           : Head == "st" ? SharedOpKind::Store
                          : SharedOpKind::Atomic;
  unsigned Vector = 1, Elem = 0;
  for (llvm::StringRef P : llvm::drop_begin(Parts)) {
    if (P == "v2" || P == "v4" || P == "v8")
      Vector = P[1] - '0';
    else if (unsigned B = ptxTypeBytes(P))
      Elem = B; // The type comes last; a later one wins.
  }
  I.WidthBytes = Vector * Elem;
  return I;
}

SharedListing parsePtxListing(llvm::StringRef Text) {
  struct Pending {
    unsigned File, Line;
    SharedInstruction I;
  };
  std::vector<Pending> Found;
  std::map<unsigned, std::string> Files;
  unsigned File = 0, Line = 0;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef L = Raw.trim();
    // The .file directives come last in nvcc's output; their paths may hold
    // "//", so they are read before comments are cut.
    if (L.consume_front(".file")) {
      L = L.ltrim();
      unsigned N = 0;
      llvm::StringRef Num = L.take_while(llvm::isDigit);
      size_t Q = L.find('"');
      size_t E = Q == llvm::StringRef::npos ? Q : L.find('"', Q + 1);
      if (!Num.getAsInteger(10, N) && E != llvm::StringRef::npos)
        Files[N] = L.slice(Q + 1, E).str();
      continue;
    }
    L = L.take_front(L.find("//")).trim();
    if (L.consume_front(".loc")) {
      // `.loc 1 14 5` or `.loc 1 14 5, function_name $L__info_string0,
      // inlined_at 1 19 3`: the first triple is where the code is.
      llvm::SmallVector<llvm::StringRef, 8> Words;
      llvm::SplitString(L, Words, " \t,");
      if (Words.size() < 2 || Words[0].getAsInteger(10, File) ||
          Words[1].getAsInteger(10, Line))
        File = Line = 0;
      continue;
    }
    if (L.starts_with(".entry") || L.starts_with(".func") ||
        L.contains(" .entry ") || L.contains(" .func ")) {
      File = Line = 0; // A new function: no line until its first .loc.
      continue;
    }
    if (L.empty() || L.starts_with(".") || L.ends_with(":"))
      continue;
    // Inline asm may put several instructions on a line, and scopes them in
    // braces.
    for (llvm::StringRef Ins : llvm::split(L, ';')) {
      Ins = Ins.trim().ltrim("{}").trim();
      if (Ins.starts_with("@"))
        Ins = Ins.drop_until([](char C) { return C == ' ' || C == '\t'; })
                  .ltrim();
      if (Ins.empty() || Ins.starts_with("."))
        continue;
      size_t Space = Ins.find_first_of(" \t");
      llvm::StringRef Opcode = Ins.take_front(Space);
      llvm::StringRef Operands =
          Space == llvm::StringRef::npos ? "" : Ins.drop_front(Space);
      if (Line == 0)
        continue;
      if (std::optional<SharedInstruction> I =
              classifyPtxInstruction(Opcode, Operands))
        Found.push_back({File, Line, std::move(*I)});
    }
  }
  SharedListing Out(SharedListing::Form::Ptx);
  for (const Pending &P : Found) {
    auto F = Files.find(P.File);
    if (F != Files.end())
      Out.add(F->second, P.Line, P.I);
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// SASS
//===----------------------------------------------------------------------===//

std::optional<SharedInstruction> classifySassOpcode(llvm::StringRef Opcode) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty())
    return std::nullopt;
  llvm::StringRef Base = Parts.front();
  auto Has = [&](llvm::StringRef M) {
    return llvm::is_contained(llvm::drop_begin(Parts), M);
  };
  // The width modifiers of LDS/STS/LDGSTS; none means 32 bits.
  auto Width = [&] {
    if (Has("U8") || Has("S8"))
      return 1u;
    if (Has("U16") || Has("S16"))
      return 2u;
    if (Has("64"))
      return 8u;
    if (Has("128"))
      return 16u;
    return 4u;
  };
  SharedInstruction I;
  I.Name = Opcode.str();
  if (Base == "LDS" || Base == "STS") {
    I.Kind = Base == "LDS" ? SharedOpKind::Load : SharedOpKind::Store;
    I.WidthBytes = Width();
  } else if (Base == "LDSM" || Base == "STSM") {
    I.Kind =
        Base == "LDSM" ? SharedOpKind::LoadMatrix : SharedOpKind::StoreMatrix;
    I.WidthBytes = 16;
  } else if (Base == "ATOMS") {
    I.Kind = SharedOpKind::Atomic;
    I.WidthBytes = Has("64") ? 8 : 4;
  } else if (Base == "LDGSTS") {
    I.Kind = SharedOpKind::AsyncCopy;
    I.WidthBytes = Width();
  } else if (Base == "UBLKCP" || Base == "UTMALDG" || Base == "UTMASTG" ||
             Base == "UBLKRED" || Base == "UTMAREDG") {
    I.Kind = SharedOpKind::BulkCopy;
  } else {
    return std::nullopt;
  }
  return I;
}

SharedListing parseSassListing(llvm::StringRef Text) {
  SharedListing Out(SharedListing::Form::Sass);
  std::string File;
  unsigned Line = 0;
  bool InLineComments = false;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef L = Raw.trim();
    if (L.consume_front("//##")) {
      // `//## File "k.cu", line 12 inlined at "k.cu", line 30`, then the
      // outer frames on lines of their own: the first is the innermost.
      bool First = !InLineComments;
      InLineComments = true;
      if (!First)
        continue;
      L = L.ltrim();
      if (!L.consume_front("File"))
        continue;
      size_t Q = L.find('"');
      size_t E = Q == llvm::StringRef::npos ? Q : L.find('"', Q + 1);
      if (E == llvm::StringRef::npos)
        continue;
      llvm::StringRef Path = L.slice(Q + 1, E);
      llvm::StringRef Rest = L.drop_front(E + 1).ltrim(" ,");
      unsigned N = 0;
      if (!Rest.consume_front("line") ||
          Rest.ltrim().take_while(llvm::isDigit).getAsInteger(10, N))
        continue;
      // ptxas's own line table for PTX given with -G: not a source line.
      if (Path == ".nv_debug_ptx_txt")
        continue;
      File = Path.str();
      Line = N;
      continue;
    }
    InLineComments = false;
    // A new function: `//----- .text._Z1kPf -----` or its `.text._Z1kPf:`.
    if ((L.starts_with("//") && L.contains(".text.")) ||
        (L.starts_with(".text.") && L.ends_with(":"))) {
      File.clear();
      Line = 0;
      continue;
    }
    // `/*0040*/  @!P0 LDS.128 R4, [R0] ;  /* 0x... */`
    if (!L.consume_front("/*"))
      continue;
    size_t Close = L.find("*/");
    if (Close == llvm::StringRef::npos ||
        !llvm::all_of(L.take_front(Close), llvm::isHexDigit))
      continue;
    L = L.drop_front(Close + 2).ltrim();
    if (L.starts_with("@"))
      L = L.drop_until([](char C) { return C == ' ' || C == '\t'; }).ltrim();
    llvm::StringRef Opcode =
        L.take_until([](char C) { return C == ' ' || C == '\t' || C == ';'; });
    if (Line == 0 || Opcode.empty())
      continue;
    if (std::optional<SharedInstruction> I = classifySassOpcode(Opcode))
      Out.add(File, Line, *I);
  }
  return Out;
}

} // namespace shmem
