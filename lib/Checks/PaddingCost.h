//===- PaddingCost.h - What padding a tile costs a kernel ------*- C++ -*-===//
//
// Part of shmem-bank-conflict. Padding a tile's rows removes a conflict at
// the price of shared memory, and shared memory decides how many blocks an
// SM runs at once (lib/Model/Occupancy.h) and whether the kernel builds at
// all (a block may declare at most 48 KB statically). This weighs a
// padding for the kernel and architecture analysed, so the advice can say
// when padding costs a block per SM and an XOR swizzle, which costs
// nothing, is the better fix.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_PADDINGCOST_H
#define SHMEM_LINT_CHECKS_PADDINGCOST_H

#include "Checks.h"
#include "FlatStride.h"
#include "Occupancy.h"

#include <optional>
#include <sstream>
#include <string>

namespace shmem {

struct PaddingCost {
  unsigned Arch = 80, Threads = 0;
  /// Static shared memory of the kernel's shared variables, before and
  /// after the padding; whether it also uses dynamic shared memory (not
  /// counted: the launch gives its size).
  uint64_t StaticBefore = 0, StaticAfter = 0;
  bool Dynamic = false;
  /// None for an architecture the model has no figures for.
  std::optional<SmLimits> Limits;
  Occupancy Before, After;

  /// The padding takes the static shared memory past the 48 KB a block
  /// may declare: nvcc rejects the kernel.
  bool pastStaticLimit() const {
    return StaticBefore <= SmLimits::MaxStaticPerBlock &&
           StaticAfter > SmLimits::MaxStaticPerBlock;
  }
  bool lowersOccupancy() const {
    return Limits && Before.BlocksPerSM > After.BlocksPerSM;
  }
  /// "on sm_80, 8 blocks of 256 threads per SM before and after (limited
  /// by threads per SM; registers, not known from the source, may limit it
  /// further)".
  std::string occupancy() const;
  /// " (that costs a block per SM on sm_90, 4 -> 3), or better, an XOR
  /// swizzle ...": after the padding advice, when it lowers occupancy.
  /// With \p Fix, the swizzle's own words follow (a fix-it).
  std::string preferSwizzle(const std::string &Array, bool Fix) const;
  /// The advice instead of a padding past the static limit, to \p New
  /// elements a row (with \p Fix, the swizzle's own words follow).
  std::string pastStaticLimitAdvice(const std::string &Array, int64_t New,
                                    bool Fix) const;
};

/// What padding one of \p K's shared arrays by \p AddedBytes costs.
PaddingCost paddingCost(const KernelContext &K, uint64_t AddedBytes);

/// The padding advice for a flattened array \p Var (row stride \p FS)
/// padded by \p Pad elements a row: its words after \p Msg, a fix-it on
/// the stride's definition when editing it is safe (else a note saying
/// what to change), and what it costs.
void adviseFlatPadding(const KernelContext &K, const FlatStride &FS,
                       Finding &F, std::ostringstream &Msg,
                       const clang::VarDecl *Var, int64_t Pad);

} // namespace shmem

#endif
