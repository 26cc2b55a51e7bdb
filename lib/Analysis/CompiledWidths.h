//===- CompiledWidths.h - Shared accesses as nvcc emits them ----*- C++ -*-===//
//
// The trace has one access per source-level load or store. nvcc does not
// keep them so: a thread's adjacent element accesses of one array, one
// after the other (an unrolled `r[i] = s[base + i]`, CUB's
// `temp[tid * 4 + i] = items[i]`), become one 64- or 128-bit instruction
// when the first address is aligned to that width. The wider access is
// served in half- or quarter-warp phases, so its bank degree is not that of
// the 4-byte accesses it replaces: a source-level 2-way conflict can be
// conflict-free, a 4-way one 2-way.
//
// The rule below is the one measured on the H200 with CUDA 13
// (bench/gpu/widths, test/calibration/widths-h200.tsv, 216 kernels; the
// lit test bank-conflict/widths-calibration.test replays every row that
// the rule covers):
//  - a run of accesses that follow each other in the walk with no barrier
//    and no other shared access between them, of one array, one kind (load
//    or store), one element width, executed by the same threads (the
//    same active mask; where the walk knows the mask only approximately,
//    after data-dependent exits, the same stretch of straight-line code,
//    SharedAccess::Stretch), in one function or in two calls of one helper from one function (ggml's
//    `ggml_cuda_memcpy_1(dst + i, ...)`, `(dst + i + 1, ...)`: one STS.128
//    on the H200, bench/gpu/triage/h200-ggml-sass.txt), each address the
//    previous one plus the element width in every thread, a step nvcc can
//    see in the index expressions (IndexSteps.h, through the calls'
//    arguments);
//  - split from its start into the widest pieces of 4, 8 or 16 bytes whose
//    start is aligned to the piece in every thread (the unknowns' factors
//    too);
//  - of 4- and 8-byte elements in any shared array (ptxas merges them
//    whatever alignment the PTX declares); of 2-byte elements in arrays
//    declared 16-byte aligned or `extern __shared__` (NVVM merges them
//    before ptxas), and for stores in any array up to 8 bytes (ptxas
//    merges those).
// Not modelled: a load whose run starts mid-piece, which ptxas may serve by
// reading the whole aligned piece (a 128-bit load for elements 1..3).
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_COMPILEDWIDTHS_H
#define SHMEM_LINT_ANALYSIS_COMPILEDWIDTHS_H

#include "KernelTrace.h"

#include <string>
#include <vector>

namespace shmem {

/// What one trace access becomes in the emitted code.
struct CompiledAccess {
  /// The access (index into KernelTrace::Accesses) whose address starts the
  /// instruction this access is part of; itself when not merged.
  unsigned Leader = 0;
  /// Bytes the instruction moves per thread (the access's own width when
  /// not merged).
  unsigned Width = 4;
  /// Source-level accesses merged into the instruction (1: not merged).
  unsigned Count = 1;
  bool merged() const { return Count > 1; }
  /// For an access in a run that nvcc could merge but for the alignment of
  /// its first address, where one shift of every thread's start would
  /// align it (`tid * 2 + 1 + i`; not a sliding window `tid + i`): the
  /// run's length, and the widest piece an aligned start would give; 0
  /// otherwise.
  unsigned RunLength = 0;
  unsigned AlignedPiece = 0;
  /// For an access in a run that nvcc would merge but cannot see is one:
  /// the run's length, the widest piece it would give, and the operator
  /// of the index that hides the step ("%"; "" for another expression).
  unsigned HiddenRunLength = 0;
  unsigned HiddenPiece = 0;
  std::string HiddenBy;
};

/// What nvcc makes of \p C, a \p Load or store of \p Array, for a message:
/// "nvcc merges this thread's 4 adjacent loads of 'As' into one 128-bit
/// load here", what would merge a run only misalignment keeps apart, or
/// nothing.
std::string describe(const CompiledAccess &C, bool Load,
                     const std::string &Array);

/// One entry per access of \p T, in the same order.
std::vector<CompiledAccess> compiledWidths(const KernelTrace &T,
                                           const clang::ASTContext &Ctx);

} // namespace shmem

#endif
