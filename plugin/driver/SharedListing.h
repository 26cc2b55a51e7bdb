//===- SharedListing.h - Shared accesses per source line -------*- C++ -*-===//
//
// What the compiler made of each shared-memory access, read from its output
// for --sass (docs/sass.md). The analysis predicts from the source, where an
// unrolled `temp[tid * 4 + i] = ...` is four 4-byte stores; nvcc may merge
// them into one 16-byte `st.shared.v4.f32`, and the wavefronts depend on the
// width. Two listings say which instructions a source line became:
//
//  * PTX, `nvcc --ptx -lineinfo` (nvcc alone suffices): `.file N "path"`
//    directives and `.loc N LINE COL` lines, each instruction belonging to
//    the last `.loc` before it (a `.loc` of an inlined call names the
//    callee's line first, which is the line wanted). Shared accesses are
//    `ld/st.shared[::cta|::cluster][.vN].TYPE`, `atom/red.shared...`,
//    `cp.async.{ca,cg}.shared.global [d], [s], SIZE`, `ldmatrix`,
//    `stmatrix` and `cp.async.bulk...` / `cp.reduce.async.bulk...`.
//    Accesses through generic pointers (`ld.f32`) are not known to be shared
//    and are left out.
//  * SASS with source lines, `nvdisasm -g` (also `-gi`, and cuobjdump's
//    instruction format): `//## File "path", line N` comments before the
//    instructions, innermost frame first; `LDS[.U8|.S16|.64|.128]`,
//    `STS...`, `LDSM`, `STSM`, `ATOMS`, `LDGSTS` and the bulk copies
//    (`UBLKCP`, `UTMALDG`, `UTMASTG`, `UBLKRED`).
//
// Both readers give the same SharedListing: per file (as the listing names
// it) and line, the distinct instructions met there in order, each with its
// kind, the bytes one lane moves, and how many times it occurs.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_SHAREDLISTING_H
#define SHMEM_LINT_DRIVER_SHAREDLISTING_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

enum class SharedOpKind {
  Load,
  Store,
  Atomic,      ///< atom/red.shared, ATOMS: reads and writes.
  AsyncCopy,   ///< cp.async (LDGSTS): global -> shared, per lane.
  LoadMatrix,  ///< ldmatrix (LDSM): lanes give 16-byte row addresses.
  StoreMatrix, ///< stmatrix (STSM).
  BulkCopy,    ///< cp.async.bulk / TMA: one copy for the warp, no lanes.
};

/// "load", "store", "atomic", "async copy", "ldmatrix", "stmatrix",
/// "bulk copy".
llvm::StringRef sharedOpKindName(SharedOpKind K);

/// Whether an instruction of kind \p K reads (\p Store false) or writes
/// (\p Store true) shared memory lane by lane, as the bank-conflict check's
/// loads and stores do. Bulk copies do neither.
bool sharedOpMatches(SharedOpKind K, bool Store);

struct SharedInstruction {
  /// The opcode as the listing spells it, without predicate and operands:
  /// "st.shared.v4.f32", "LDS.128", "ldmatrix.sync.aligned.m8n8.x4.shared.b16".
  std::string Name;
  SharedOpKind Kind = SharedOpKind::Load;
  /// Bytes one lane moves (vector count times element size; a matrix row
  /// for ldmatrix/stmatrix; the copy size for cp.async). 0 when unknown or
  /// not per lane (bulk copies).
  unsigned WidthBytes = 0;
  /// Times it occurs at the line (an unrolled loop of unmerged accesses).
  unsigned Count = 1;
};

/// The shared-memory instructions of one compiled file, per source line.
class SharedListing {
public:
  enum class Form { Ptx, Sass };
  explicit SharedListing(Form F) : TheForm(F) {}

  Form form() const { return TheForm; }
  /// "PTX" or "SASS".
  llvm::StringRef formName() const;

  /// Adds one occurrence of \p I at \p Line of \p File.
  void add(llvm::StringRef File, unsigned Line, const SharedInstruction &I);
  /// The instructions at \p Line of \p File (named as the listing names it),
  /// or null when there are none.
  const std::vector<SharedInstruction> *at(llvm::StringRef File,
                                           unsigned Line) const;
  /// The files that have shared-memory instructions, as the listing names
  /// them.
  std::vector<std::string> files() const;
  bool empty() const { return Lines.empty(); }

private:
  Form TheForm;
  std::map<std::string, std::map<unsigned, std::vector<SharedInstruction>>>
      Lines;
};

/// Reads nvcc's PTX (see above). Instructions before any `.loc`, or whose
/// `.loc` names a file no `.file` directive declares, are left out.
SharedListing parsePtxListing(llvm::StringRef Text);

/// Reads SASS with `//## File` line comments (see above). Instructions before
/// any line comment of their function are left out.
SharedListing parseSassListing(llvm::StringRef Text);

/// One PTX instruction: its opcode (`st.shared.v4.f32`, without predicate)
/// and operands (for cp.async's size); std::nullopt unless it accesses
/// shared memory.
std::optional<SharedInstruction>
classifyPtxInstruction(llvm::StringRef Opcode, llvm::StringRef Operands);

/// One SASS opcode with its modifiers (`LDS.128`, without predicate);
/// std::nullopt unless it accesses shared memory. Also for ncu's SASS view.
std::optional<SharedInstruction> classifySassOpcode(llvm::StringRef Opcode);

} // namespace shmem

#endif
