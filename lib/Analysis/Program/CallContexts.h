//===- CallContexts.h - Which calls the analyses follow ---------*- C++ -*-===//
//
// One rule for what a call reaches and whether it is followed, read by
// every analysis that joins a callee into its caller: the walker inlines
// the callee at the call site (Walker/Calls.cpp), uniformity analyses it
// with the caller's argument levels (Uniformity.cpp), barrier intervals
// join its CFG at the call (BarrierIntervals.cpp), and the reach scan
// (KernelReach.cpp) looks into it. A lambda's or a functor's `operator()`
// is followed like any `__device__` function: `at(lane, 0)` reaches the
// closure class's call operator, and its captures are the closure's.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_ANALYSIS_PROGRAM_CALLCONTEXTS_H
#define SHMEM_LINT_ANALYSIS_PROGRAM_CALLCONTEXTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

namespace shmem {

/// The function \p Call calls: its direct callee, or the function a
/// pointer the program cannot change holds (a `constexpr` or `const`
/// variable, or a member of one, that folds to a function). Null for a
/// pointer known only at run time.
const clang::FunctionDecl *calleeOf(const clang::CallExpr *Call);

/// The definition \p Call reaches, if the translation unit has one: the
/// callee's body (calleeOf(); a lambda's or functor's call operator for
/// `f(x)` on an object), whether or not the analyses follow it.
const clang::FunctionDecl *calleeDefinition(const clang::CallExpr *Call);

/// The definition the analyses follow at \p Call, or null: a callee whose
/// body the translation unit holds, written by the user (not implicit, not
/// in a system header), and not a kernel launched from device code (which
/// runs as another grid with its own shared memory). Overloaded operators
/// are followed as other functions are, `operator()` of lambdas and
/// function objects included.
const clang::FunctionDecl *followedCallee(const clang::CallExpr *Call,
                                          const clang::ASTContext &Ctx);

/// How many of \p Call's leading arguments are the object a member
/// operator runs on (`f` in `f(x)`, `a` in `a + b` for a member `+`): 1 or
/// 0. The parameters of the callee match the arguments after them.
unsigned objectArguments(const clang::CallExpr *Call);

/// The lambda whose call operator \p Def is, or null.
const clang::CXXRecordDecl *lambdaClassOf(const clang::FunctionDecl *Def);

} // namespace shmem

#endif
