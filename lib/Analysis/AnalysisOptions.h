//===- AnalysisOptions.h - Options shared by every front end ----*- C++ -*-===//
//
// Front ends fill this from their configuration (CheckOptions, plugin args,
// flags, .clang-tidy); the analyses read nothing else. A check's own option
// is a field here (the default) and an entry in CheckOptions.def.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_ANALYSISOPTIONS_H
#define SHMEM_LINT_ANALYSIS_ANALYSISOPTIONS_H

#include "Finding.h"
#include "ThreadGeometry.h"

#include <bitset>
#include <optional>

namespace shmem {

struct AnalysisOptions {
  /// Lanes in a warp.
  unsigned WarpSize = 32;
  /// Block shape to assume when the source says nothing (annotation comment,
  /// launch site, __launch_bounds__).
  std::optional<Dim3> BlockDim;
  /// Shape assumed when nothing at all is known; said in the message.
  Dim3 DefaultBlockDim{256, 1, 1};
  /// shmem-bank-conflict: report accesses of at least this degree.
  unsigned MinDegree = 2;
  /// shmem-bank-conflict: report conflicts that depend on an unknown value
  /// ("32-way when ld is a multiple of 32").
  bool ReportConditional = true;
  /// shmem-race: report benign races (all threads store one value).
  bool ReportBenign = false;
  /// shmem-divergent-barrier: report a block barrier that threads miss only
  /// because they returned from the kernel earlier (the CUDA C++ guide's
  /// reading). Off by default: since PTX ISA 6 a bar.sync waits only for
  /// the threads that have not exited.
  bool StrictExits = false;
  /// shmem-race: report possible races at data-dependent addresses that
  /// carry no evidence (a data-dependent read or write next to another
  /// access of the array). Without it only those with evidence are: a
  /// read-modify-write of one data-dependent element, or an index the data
  /// cannot make distinct (the same in every thread of a warp or block).
  bool ReportDataDependent = false;
  /// The GPU architecture (80 for sm_80) that figures depending on it
  /// (occupancy) are for, where the translation unit does not say: a
  /// device compilation's target says it; a host pass (the clang plugin
  /// reports there) does not, and takes this, the plugin's arch=; 0: sm_80,
  /// the driver's default. See analysedArch().
  unsigned GpuArch = 0;
  /// Depth to which __device__ callees are analysed in the caller's context.
  unsigned InlineDepth = 12;
  /// The step cap of shmem-divergent-barrier's uniformity fixpoint, per
  /// function and context
  /// (UniformityAnalysis::setStepCap; 0: its default, which a correct
  /// transfer never reaches). No front end sets it: tests lower it to see
  /// that reaching the cap is said (an AnalysisGap), not silent.
  unsigned UniformityStepCap = 0;
  /// Let a loop's probe walk record, and keep it as the loop's walk when it
  /// finds nothing to change (walker/Speculation.h). No front end sets it:
  /// tests turn it off to see that the trace is the same without.
  bool RecordingProbes = true;
  /// Build the lane->bank pictures bank findings carry (Finding::Picture
  /// and Detail: the padded and swizzled what-ifs). The driver's HTML,
  /// SARIF, JSON and --verbose outputs show them; clang-tidy and the
  /// compiler plugin print messages and notes only and turn this off.
  bool Pictures = true;
  /// The facts a walk records beyond accesses, barriers and collectives.
  /// Not a front-end option: runChecks sets it from the enabled checks
  /// (the checks that read a fact ask for it), so the walker itself names
  /// no check. Everything by default, for analyses run without runChecks.
  struct TraceFacts {
    /// TileIndex of element accesses to 2-D shared arrays: row, column
    /// and pitch (the bank check's padding what-if, the layout check).
    bool TileRows = true;
    /// Also flattened tiles, the operands of a swizzled column and the
    /// index's source text (the layout check).
    bool TileFormulas = true;
  } Facts;

  std::bitset<NumCheckKinds> Enabled;
  bool enabled(CheckKind K) const {
    return Enabled.test(static_cast<unsigned>(K));
  }
  void enable(CheckKind K, bool On = true) {
    Enabled.set(static_cast<unsigned>(K), On);
  }
};

} // namespace shmem

#endif
