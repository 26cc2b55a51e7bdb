//===- ExplorerPage.h - The layout explorer as a page ------------*- C++ -*-===//
//
//   shmem-lint explain --shape RxC --type T --index EXPR --format=html
//
// The lane->bank picture of one access as something to change: row
// length, padding, element type, swizzle and block shape, with the
// wavefronts and the shared-memory cost computed in the page by the same
// bank rules as lib/Model (BankModel.h).
//
// The page first shows each access exactly as shmem-bank-conflict computed
// it (its message, the terminal picture of renderBankPictureText and a
// summary), then the explorer. The explorer is a widget any page can embed:
//
//   writeExplorerWidget(OS, Input, "finding-3-explorer");  // per finding
//   ...
//   writeExplorerScript(OS);                                // once per page
//
// writeExplorerWidget writes an empty container,
//
//   <div class="shmem-explorer" id="ID" data-shmem-explorer="JSON"></div>
//
// (JSON: explorerJson(), HTML-escaped), and the script fills in every such
// container when the page has loaded. Its controls and outputs have ids
// prefixed by the container's id: ID-rowlen, ID-pad, ID-type, ID-swizzle,
// ID-swz-n, ID-swz-mask, ID-swz-shift, ID-bx, ID-by, ID-warp, ID-access,
// ID-reset; ID-cost, ID-wavefronts, ID-ideal, ID-degree, ID-conflicts,
// ID-broadcasts, ID-phases, ID-bytes, ID-layout, ID-shown-warp, ID-worst,
// ID-agree, ID-notes, ID-svg, ID-analysis-svg. After each change the
// container's data-wavefronts, data-ideal, data-degree, data-bytes,
// data-phases, data-phase-lanes, data-broadcasts, data-lane-banks and
// data-agrees attributes hold the numbers shown (for tests).
//
// Everything is inline: no request leaves the page, and the same input
// gives the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_EXPLORERPAGE_H
#define SHMEM_LINT_DRIVER_EXPLORERPAGE_H

#include "BankPicture.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shmem {

/// One access of the synthesised kernel, as the check saw it.
struct ExplorerAccess {
  std::string Text;      ///< Its source text, e.g. "tile[lane][5]".
  bool Reported = false; ///< shmem-bank-conflict reports it by default.
  std::string Message;   ///< The check's message when Reported.
  const BankPicture *Picture = nullptr;
};

struct ExplorerInput {
  std::string Type;           ///< The element type, e.g. "float".
  std::vector<uint64_t> Dims; ///< The array's dimensions.
  std::string Index;          ///< The --index expression.
  bool Store = false;
  unsigned BlockX = 32, BlockY = 1, BlockZ = 1;
  /// False when the block shape is not known (then the page cannot change
  /// it, and models only the lanes of the warp in the picture).
  bool BlockKnown = true;
  std::vector<ExplorerAccess> Accesses;
};

/// Writes the self-contained page for \p In: the analysis, then the
/// explorer.
void writeExplorerPage(llvm::raw_ostream &Out, const ExplorerInput &In);

/// The explorer's <style> and <script>, once per page, after or before the
/// containers (the script waits for the document to load). Its model part
/// lies between the comments "shmem-lint explorer model: begin" and
/// "... end" (a global ShmemExplorerModel, no DOM), which the tests
/// evaluate outside the browser.
void writeExplorerScript(llvm::raw_ostream &Out);

/// One explorer's container for \p In, with the id \p Id (letters, digits,
/// '-' and '_'; other characters are replaced with '-').
void writeExplorerWidget(llvm::raw_ostream &Out, const ExplorerInput &In,
                         llvm::StringRef Id);

/// The data the explorer reads: the input and, per access, the check's
/// pictures (as written, padded, swizzled) with every number of
/// LayoutPicture.
std::string explorerJson(const ExplorerInput &In);

/// For a report: the input for one shmem-bank-conflict finding from its
/// picture and message. The element type and the dimensions are read from
/// the picture's declaration ("float tile[32][33]"); nullopt when it is not
/// a 1-D or 2-D array of known size. Without \p AccessText or the block the
/// explorer models the lanes of the warp shown, at their element
/// coordinates, and keeps the block as it was. \p P must outlive the
/// result.
std::optional<ExplorerInput>
explorerInputForFinding(const BankPicture &P, llvm::StringRef Message,
                        llvm::StringRef AccessText = "");

} // namespace shmem

#endif
