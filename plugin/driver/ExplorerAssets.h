//===- ExplorerAssets.h - The layout explorer's script and styles -*- C++ -*-===//

#ifndef SHMEM_LINT_DRIVER_EXPLORERASSETS_H
#define SHMEM_LINT_DRIVER_EXPLORERASSETS_H

namespace shmem {

/// The model: bank rules, the index evaluator, layouts; no DOM.
extern const char *const ExplorerModelJs;
/// The controls and the drawing, over the model.
extern const char *const ExplorerUiJs;
/// The widget's styles, scoped under .shmem-explorer.
extern const char *const ExplorerCss;
/// The standalone page's own styles.
extern const char *const PageCss;

} // namespace shmem

#endif
