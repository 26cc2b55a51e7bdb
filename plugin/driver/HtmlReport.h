//===- HtmlReport.h - shmem-lint's self-contained HTML report ---*- C++ -*-===//
//
// `shmem-lint --format=html -o report.html`: one page, nothing fetched (inline
// CSS and script), the same bytes for the same input (no date), that scales
// to many thousands of findings:
//
//  - a static summary, readable without JavaScript: the counts by check, by
//    file, by kernel and (bank conflicts) by degree, and a "Not analysed"
//    section with each part of a kernel the analysis left out (ReportedGap);
//  - the findings as compact JSON embedded once
//    (`<script type="application/json" id="shmem-data">`), which the page's
//    script turns into cards, a page of them at a time: the message, the
//    source excerpt, the notes with their excerpts, the fix-its as text,
//    a race's two accesses side by side, a divergent barrier and its
//    condition, and for bank conflicts the lane->bank pictures as written,
//    padded and swizzled with their costs and a lane table;
//  - the pictures are drawn in the page (SVG) from per-pattern data: each
//    distinct layout picture is in the data once and findings refer to it,
//    so a thousand findings of one access pattern cost one picture;
//  - filters (check, file, kernel, minimum conflict degree, text) and
//    grouping (by file, check, kernel, or shared array: the findings of one
//    array under its declaration line).
//
// The kernel of a finding is read from its notes (the instantiation note,
// else the block-shape note at the kernel's name); the shared array from
// the bank picture or the message, its declaration from the padding note
// or, failing that, the nearest `__shared__` declaration of that name above
// the finding in its file.
//
// Hook for the layout explorer: each bank-conflict card has a
// `button.explore` whose `data-explorer` attribute is JSON
//   {"finding": N, "array": "tile", "type": "float", "shape": "32x32",
//    "index": "tile[threadIdx.x][threadIdx.y]", "block": "32x8",
//    "store": false, "warp": 0, "width": 4}
// (fields the page cannot tell are left out). Clicking it dispatches the
// cancelable event `shmem-lint:explore` on `document` with that object as
// `detail`; unless a listener calls preventDefault(), the card shows the
// equivalent `shmem-lint explain ... --format=html` command.
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
/// after the summary ("Not analysed") and a count in the header.
void writeHtmlReport(llvm::raw_ostream &OS,
                     llvm::ArrayRef<ReportedFinding> Findings,
                     const OutputContext &Ctx,
                     llvm::ArrayRef<ReportedGap> Gaps = {});

/// &, <, >, " and ' as entities.
std::string escapeHtml(llvm::StringRef S);

/// \p S as a JSON string literal that is safe inside a <script> element
/// (<, >, & and U+2028/9 escaped; invalid UTF-8 replaced).
std::string scriptJsonString(llvm::StringRef S);

} // namespace shmem

#endif
