//===- ParseCuda.h - CUDA device code for the analysis unit tests -*- C++ -*-===//
//
// Parses a test's kernels as CUDA device code for sm_80 with no CUDA header
// at all: the attribute spellings and barrier declarations the analyses
// look for are declared here, so a test states only its kernels.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_TEST_UNIT_PARSECUDA_H
#define SHMEM_LINT_TEST_UNIT_PARSECUDA_H

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>

namespace shmem {
namespace test {

/// \p Code after __global__, __device__, __shared__ and __syncthreads(),
/// then \p Declarations (e.g. __syncwarp's, for tests that don't declare it
/// themselves). Line numbers count from the first line of \p Code, as line
/// 1. threadIdx.x is spelled as the builtin
/// __nvvm_read_ptx_sreg_tid_x(), which needs no declaration.
inline std::unique_ptr<clang::ASTUnit>
parseDeviceCode(const std::string &Code, const std::string &Declarations = "") {
  static const char *const Prelude = R"(
    #define __global__ __attribute__((global))
    #define __device__ __attribute__((device))
    #define __shared__ __attribute__((shared))
    __device__ void __syncthreads();
  )";
  // The first line of Code is line 1 of the file, whatever came before.
  return clang::tooling::buildASTFromCodeWithArgs(
      Prelude + Declarations + "\n#line 1\n" + Code,
      {"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80",
       "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version"},
      "test.cu");
}

/// The last kernel with a body in \p Ctx's translation unit, if any.
inline const clang::FunctionDecl *lastKernel(clang::ASTContext &Ctx) {
  const clang::FunctionDecl *K = nullptr;
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->hasAttr<clang::CUDAGlobalAttr>() && FD->hasBody())
        K = FD;
  return K;
}

/// The function named \p Name with a body in \p Ctx's translation unit
/// (a kernel or a helper), if any.
inline const clang::FunctionDecl *functionNamed(clang::ASTContext &Ctx,
                                                llvm::StringRef Name) {
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getDeclName().isIdentifier() && FD->getName() == Name &&
          FD->hasBody())
        return FD;
  return nullptr;
}

} // namespace test
} // namespace shmem

#endif
