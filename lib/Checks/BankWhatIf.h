//===- BankWhatIf.h - Lane->bank pictures and what-if layouts ---*- C++ -*-===//
//
// Builds the BankPicture a shmem-bank-conflict finding carries: the worst
// warp's lanes under the layout as written, under the rows padded (the
// padding the check suggests, else one element; the kernel is walked again
// with that layout, exactly as the check evaluates its fix-it) and under an
// XOR swizzle of the column with the row (the lanes' element coordinates
// remapped). Every picture goes through the BankModel.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_BANKWHATIF_H
#define SHMEM_LINT_CHECKS_BANKWHATIF_H

#include "Checks.h"
#include "FlatStride.h"

#include "BankModel.h"
#include "BankPicture.h"

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace shmem {

class BankWhatIf {
public:
  explicit BankWhatIf(const KernelContext &K) : K(K), Model(32, 4) {}

  /// The picture of warp \p Warp of access \p A (an element of
  /// K.Trace.Accesses). \p Addr holds each lane's byte offset as the check
  /// computed it with the unknowns bound by \p Bind; \p SuggestedPad is the
  /// padding the check offers, if any. \p Flat is the row stride of a
  /// flattened (1-D) array indexed `a[r * C + c]`: its what-ifs treat it as
  /// rows of C elements (padding the stride, swizzling within rows).
  BankPicture picture(const SharedAccess &A, unsigned Warp,
                      const std::vector<std::optional<int64_t>> &Addr,
                      const SymbolBinding &Bind,
                      std::optional<int64_t> SuggestedPad,
                      const FlatStride *Flat = nullptr);

  /// K.Trace as it would be with the rows of the 2-D array \p V padded by
  /// \p Pad elements (cached). When every use of \p V is an element access
  /// `V[i][j]` whose traced address is (i * columns + j) * element size,
  /// padding only adds i * Pad elements to those addresses, and the trace is
  /// patched; otherwise the kernel is walked again with the layout changed.
  const KernelTrace &paddedTrace(const clang::VarDecl *V, int64_t Pad);

  /// K.Trace as it would be with the row stride \p S of the flattened
  /// array \p V made S.Value + \p Pad (the kernel walked again; cached).
  const KernelTrace &flatPaddedTrace(const clang::VarDecl *V,
                                     const FlatStride &S, int64_t Pad);

private:
  /// The patched trace of paddedTrace(), if \p V qualifies.
  std::unique_ptr<KernelTrace> patchedPadding(const clang::VarDecl *V,
                                              int64_t Pad);
  /// Whether \p V's padded traces can be patched: a 2-D array of the
  /// kernel, every reference to it the array of an element access
  /// `V[i][j]`, and every traced address the one its indices give (cached
  /// per array; the same for every padding).
  bool patchable(const clang::VarDecl *V);
  /// The access of \p T that is \p A of the original trace.
  const SharedAccess *counterpart(const KernelTrace &T, const SharedAccess &A);

  const KernelContext &K;
  BankModel Model;
  std::map<std::pair<const clang::VarDecl *, int64_t>,
           std::unique_ptr<KernelTrace>>
      Padded;
  std::map<const clang::VarDecl *, bool> Patchable;
};

} // namespace shmem

#endif
