//===- SharedObjectRewrite.h - __shared__ objects clang refuses -*- C++ -*-===//
//
// `__shared__ cuda::barrier<cuda::thread_scope_block> bar;` and
// `__shared__ cuda::pipeline_shared_state<...> state;` are how CUDA's own
// samples declare the block's synchronisation objects. nvcc accepts them:
// it skips the constructor and warns (static_var_with_dynamic_init, which
// the samples suppress), and the kernel initialises the object with
// `init(&bar, n)`. clang refuses them ("initialization is not supported for
// __shared__ variables") because the class's constructor is not empty, and
// marks the declaration invalid, so every use of the object fails too and
// the whole file went unanalysed.
//
// The driver keeps clang's refusal quiet on the first parse, finds the
// refused declarations here, and parses again with each one rewritten, on
// its own line, to what nvcc makes of it: raw shared storage of the
// object's size and alignment, and a reference of the object's type to it:
//
//   __shared__ T bar;
//   __shared__ unsigned char shmem_lint_storage_bar[sizeof(T)]
//       __attribute__((aligned(alignof(T)))); T &bar = *reinterpret_cast<T
//       *>(shmem_lint_storage_bar);
//
// (all on the declaration's line, so every other location in the file is
// where it was). Every use of `bar` then type-checks as written.
//
//===----------------------------------------------------------------------===//

#ifndef SHMEM_LINT_DRIVER_SHAREDOBJECTREWRITE_H
#define SHMEM_LINT_DRIVER_SHAREDOBJECTREWRITE_H

#include "ReportedFinding.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace shmem {

/// clang's diagnostic for an initialised __shared__ variable, which the
/// driver maps to a remark on the first parse and reads here.
unsigned refusedSharedInitDiagnostic();

/// The prefix of the storage array's name. Findings never name it: the
/// object is only reached through the toolkit's (unwalked) code.
inline constexpr llvm::StringLiteral StoragePrefix = "shmem_lint_storage_";

/// A file's name as the rewritten files know it: absolute against
/// \p Directory, dots removed, links kept (the name clang opens, not the
/// real path).
std::string rewriteFileKey(llvm::StringRef File, llvm::StringRef Directory);

/// One replacement in a file's text: [Offset, Offset + Length) becomes Text.
struct TextEdit {
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

/// The edits that rewrite the __shared__ objects clang refused at \p Refused
/// (the names' locations, raw-encoded) in \p Ctx's translation unit, by
/// the file's absolute path. Found in the template, not the instantiation
/// clang refused them in (whose body it drops). False, with \p Why (the
/// first one's position and the reason), when one cannot be rewritten:
/// written through a macro, at namespace scope (a reference there would
/// need dynamic initialisation in device code again), or declared with
/// others or as an array.
bool findSharedObjectEdits(clang::ASTContext &Ctx, llvm::StringRef Directory,
                           const std::set<clang::SourceLocation::UIntTy> &Refused,
                           std::map<std::string, std::vector<TextEdit>> &Edits,
                           std::string &Why);

/// The files of one parse with the edits applied, and the way back from a
/// position in them to the user's text: findings are reported against the
/// files the user has. The edits never span lines, so only the columns of
/// a rewritten line, and byte offsets after the first edit, differ.
class RewrittenFiles {
public:
  /// Reads each file of \p Edits (by absolute path) from \p Base; the
  /// files findings name are relative to \p Directory. False, with \p Why,
  /// when one cannot be read.
  bool build(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base,
             std::map<std::string, std::vector<TextEdit>> Edits,
             llvm::StringRef Directory, std::string &Why);
  /// \p Base with the rewritten files over it.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files() const {
    return Files;
  }
  /// Moves the findings and gaps of a parse of these files to where they
  /// are in the user's files, and drops a fix-it that would change
  /// rewritten text.
  void toOriginal(std::vector<ReportedFinding> &Findings,
                  std::vector<ReportedGap> &Gaps) const;

private:
  struct File {
    std::string Original;
    std::vector<TextEdit> Edits; ///< By offset.
  };
  /// The rewritten file \p Name (as findings name it), if it is one.
  const File *rewritten(llvm::StringRef Name) const;
  /// The column in the user's file of a position on \p Line at \p Column
  /// of the rewritten \p F; inside rewritten text, the start of the edit.
  static unsigned originalColumn(const File &F, unsigned Line,
                                 unsigned Column);

  std::map<std::string, File> Rewritten;
  std::string Directory;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files;
};

} // namespace shmem

#endif // SHMEM_LINT_DRIVER_SHAREDOBJECTREWRITE_H
