//===- HtmlReport.h - shmem-lint's self-contained HTML report ---*- C++ -*-===//
//
// `shmem-lint --format=html -o report.html`: one page, no network, no
// external asset (inline CSS and SVG, no script). Every finding with its
// message, its source excerpt and its notes (each with its own excerpt):
//  - bank conflicts: the warp's lane->bank picture as an SVG (lanes on top,
//    banks below, a line from each lane to its bank; banks coloured by the
//    distinct words they serve, broadcast lanes marked), the wavefronts, and
//    the same picture after the padding (suggested, or one element as a
//    what-if) and after an XOR swizzle, each with its shared-memory cost;
//    the numbers in a table;
//  - races: the two accesses side by side with the witness threads;
//  - divergent barriers: the barrier and the condition;
// then a "Not analysed" section with each part of a kernel the analysis
// left out (ReportedGap): where, why, the kernel and its block shape.
// The output is deterministic (no dates), so tests can compare it.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_HTMLREPORT_H
#define SHMEM_LINT_DRIVER_HTMLREPORT_H

#include "OutputFormats.h"
#include "ReportedFinding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace shmem {

/// \p Gaps, the parts of kernels not analysed, get a section of their own
/// after the findings ("Not analysed") and a count in the header.
void writeHtmlReport(llvm::raw_ostream &OS,
                     llvm::ArrayRef<ReportedFinding> Findings,
                     const OutputContext &Ctx,
                     llvm::ArrayRef<ReportedGap> Gaps = {});

/// The SVG of one layout's lane->bank picture (public for tests).
std::string laneBankSvg(const LayoutPicture &L, llvm::StringRef Title);

/// &, <, >, " and ' as entities.
std::string escapeHtml(llvm::StringRef S);

} // namespace shmem

#endif
