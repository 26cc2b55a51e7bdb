//===- FlatStride.h - The row stride of a flattened shared array -*- C++ -*-===//
//
// A 1-D shared array indexed as a 2-D one (`s[r * LD + c]`) is padded by
// changing its row stride, not its declaration. The padding is safe only
// when every index of the array goes through the same stride (so a new
// stride keeps element identity: (r, c) still names one element) and the
// stride means nothing else; this finds the stride, checks both, and makes
// the edits. The bank check decides, with a what-if walk, whether a padded
// stride helps.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_CHECKS_FLATSTRIDE_H
#define SHMEM_LINT_CHECKS_FLATSTRIDE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"

#include <set>
#include <string>
#include <vector>

namespace shmem {

struct FlatStride {
  enum Kind {
    None,          ///< Not every index has a row stride, or they differ.
    Named,         ///< A constexpr/const variable or an enumerator.
    Macro,         ///< An object-like macro whose body is one literal.
    TemplateParam, ///< A non-type template parameter.
    Unnamed,       ///< A literal or an unnamed constant expression.
  };
  Kind K = None;
  std::string Name; ///< "LD", or the literal's text.
  int64_t Value = 0;
  /// The expressions spelling the stride in the array's indices, and the
  /// index subexpressions around them (see PaddingOverride).
  std::set<const clang::Expr *> Refs, Contexts;
  /// Why the stride's definition cannot simply be edited (empty when it
  /// can), and where the obstacle is.
  std::string NoFix;
  clang::SourceLocation NoFixLoc;
  /// Where the stride is defined (Named, Macro, TemplateParam).
  clang::SourceLocation DefLoc;
  /// Elements of the array and the bytes of one.
  int64_t Elems = 0, ElemBytes = 0;

  bool found() const { return K != None; }
  /// The edits that make the stride Value + Pad (and the array's size follow
  /// it); empty when NoFix is set.
  std::vector<clang::FixItHint> Fixes(int64_t Pad) const;

  // Edit sites, filled by findFlatStride when NoFix is empty.
  clang::CharSourceRange StrideEdit;
  std::string StrideText; ///< The stride's definition as written.
  bool StrideIsLiteral = false;
  clang::CharSourceRange SizeEdit; ///< Invalid: the size follows the stride.
  int64_t SizeEditFactor = 0;      ///< New size literal = factor * stride.
};

/// The row stride of the 1-D shared array \p Array, given the lvalue
/// expressions of its traced accesses.
FlatStride findFlatStride(clang::ASTContext &Ctx, const clang::VarDecl *Array,
                          const std::vector<const clang::Expr *> &Accesses);

} // namespace shmem

#endif
