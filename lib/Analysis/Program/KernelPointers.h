//===- KernelPointers.h - Kernels launched through pointers -----*- C++ -*-===//
//
// A launch need not name its kernel: `auto *kernel = DB ? k<true> : k<false>;
// kernel<<<g, b>>>(...)` (pranjalssh/fast.cu), `kernel = &transposeNaive;`
// (cuda-samples' transpose), or a launch helper's parameter
// (`launch_kernel(k<...>, grid, block, smem, args...)`, gau-nernst's
// learn-cuda). Every scan that follows launches (block shapes, tensor maps)
// asks this one place which kernels a launch's callee may be: the kernels
// the translation unit stores into the pointer variable it reads, by
// initialisation, assignment or as a call's argument for a parameter,
// through `&`, casts, `?:` and other such variables.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_KERNELPOINTERS_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_KERNELPOINTERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace shmem {

/// The kernels \p E names (`f`, `&f`, `(void *)f`, `c ? f : g`); empty when
/// it names none.
llvm::SmallVector<const clang::FunctionDecl *, 2>
kernelsNamed(const clang::Expr *E);

class KernelPointers {
public:
  /// Call from a scan of the translation unit, for every variable,
  /// assignment and call: notes what function-pointer variables are given.
  void noteVar(const clang::VarDecl *V);
  void noteAssignment(const clang::BinaryOperator *B);
  void noteCall(const clang::CallExpr *Call);

  /// The function-pointer variable (or parameter) a launch's callee reads,
  /// if any.
  static const clang::VarDecl *pointerVariable(const clang::Expr *Callee);

  /// Once the whole unit is scanned: the kernels \p Ptr may hold.
  std::vector<const clang::FunctionDecl *>
  targets(const clang::VarDecl *Ptr) const;

  /// The kernels \p E may be: those it names, or those the pointer it
  /// reads may hold (a helper call's kernel argument).
  std::vector<const clang::FunctionDecl *>
  kernelsOf(const clang::Expr *E) const;

  /// The calls noted of \p Helper, a function with a function-pointer
  /// parameter (a launch helper): each is a launch of the kernel it passes.
  llvm::ArrayRef<const clang::CallExpr *>
  callsOf(const clang::FunctionDecl *Helper) const;

private:
  void kernelsOf(const clang::Expr *E, const clang::VarDecl *Self,
                 unsigned Depth,
                 std::vector<const clang::FunctionDecl *> &Out) const;
  /// What is stored into each function-pointer variable.
  llvm::DenseMap<const clang::VarDecl *, std::vector<const clang::Expr *>>
      Stored;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::CallExpr *>>
      Calls;
};

} // namespace shmem

#endif
