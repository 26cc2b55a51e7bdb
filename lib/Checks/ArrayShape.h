//===- ArrayShape.h - A 2-D shared array's declared shape -------*- C++ -*-===//
//
// Part of shmem-bank-conflict: what the padding and swizzle fix-its read of
// a `T a[R][C]` declaration, its shape and the expression that spells C.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_ARRAYSHAPE_H
#define SHMEM_LINT_CHECKS_ARRAYSHAPE_H

#include "BankPicture.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>

namespace shmem {

/// The shape of \p V when it is a `T a[R][C]` of scalars (not 3-D, not of
/// structs).
std::optional<Array2D> arrayShape(clang::ASTContext &Ctx,
                                  const clang::VarDecl *V);

/// The expression of C in \p V's declaration `T a[R][C]` (the padding
/// fix-it replaces it); null when the declaration is not 2-D.
const clang::Expr *innerSizeExpr(clang::ASTContext &Ctx,
                                 const clang::VarDecl *V);

} // namespace shmem

#endif
