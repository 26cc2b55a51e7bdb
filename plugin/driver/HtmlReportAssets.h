//===- HtmlReportAssets.h - The HTML report's styles and script -*- C++ -*-===//

#ifndef SHMEM_LINT_DRIVER_HTMLREPORTASSETS_H
#define SHMEM_LINT_DRIVER_HTMLREPORTASSETS_H

namespace shmem {

/// The page's styles.
extern const char *const ReportStyle;
/// The filter, grouping and paging controls (hidden until the script runs).
extern const char *const ReportControls;
/// Draws the findings from the page's JSON, filters and groups them.
extern const char *const ReportScript;

} // namespace shmem

#endif
