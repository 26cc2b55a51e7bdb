# The one place that knows which LLVM/Clang shmem-lint is built against.
set(SHMEM_LINT_LLVM_MAJOR 22)
set(SHMEM_LINT_APT_LINE
  "apt-get install -y clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev libgtest-dev cmake ninja-build")

find_package(LLVM ${SHMEM_LINT_LLVM_MAJOR} CONFIG QUIET
  HINTS /usr/lib/llvm-${SHMEM_LINT_LLVM_MAJOR}/lib/cmake/llvm)
find_package(Clang CONFIG QUIET
  HINTS /usr/lib/llvm-${SHMEM_LINT_LLVM_MAJOR}/lib/cmake/clang)

if(NOT LLVM_FOUND OR NOT Clang_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL SHMEM_LINT_LLVM_MAJOR)
  message(FATAL_ERROR
    "shmem-lint needs LLVM/Clang ${SHMEM_LINT_LLVM_MAJOR} development packages.\n"
    "Install them with:\n  ${SHMEM_LINT_APT_LINE}")
endif()

set(SHMEM_LINT_LLVM_BIN ${LLVM_TOOLS_BINARY_DIR})
find_program(SHMEM_LINT_CLANG NAMES clang++-${SHMEM_LINT_LLVM_MAJOR} clang++
  HINTS ${SHMEM_LINT_LLVM_BIN} NO_DEFAULT_PATH)
find_program(SHMEM_LINT_CLANG_TIDY NAMES clang-tidy-${SHMEM_LINT_LLVM_MAJOR} clang-tidy
  HINTS ${SHMEM_LINT_LLVM_BIN} NO_DEFAULT_PATH)
find_program(SHMEM_LINT_LIT NAMES lit HINTS ${SHMEM_LINT_LLVM_BIN} NO_DEFAULT_PATH)
find_program(SHMEM_LINT_FILECHECK NAMES FileCheck HINTS ${SHMEM_LINT_LLVM_BIN} NO_DEFAULT_PATH)
foreach(tool SHMEM_LINT_CLANG SHMEM_LINT_CLANG_TIDY SHMEM_LINT_LIT SHMEM_LINT_FILECHECK)
  if(NOT ${tool})
    message(FATAL_ERROR "${tool} not found in ${SHMEM_LINT_LLVM_BIN}.\n"
      "Install it with:\n  ${SHMEM_LINT_APT_LINE}")
  endif()
endforeach()
if(NOT EXISTS ${LLVM_INCLUDE_DIRS}/../include/clang-tidy/ClangTidyModule.h
   AND NOT EXISTS ${CLANG_INCLUDE_DIRS}/clang-tidy/ClangTidyModule.h)
  message(FATAL_ERROR "clang-tidy headers not found.\nInstall them with:\n  ${SHMEM_LINT_APT_LINE}")
endif()

# The resource directory holds clang's own CUDA wrapper headers
# (__clang_cuda_builtin_vars.h, ...). Our tools are not installed next to
# clang, so they are told where it is instead of guessing from argv[0].
execute_process(COMMAND ${SHMEM_LINT_CLANG} -print-resource-dir
  OUTPUT_VARIABLE SHMEM_LINT_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)

message(STATUS "shmem-lint: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
message(STATUS "shmem-lint: clang resource dir ${SHMEM_LINT_CLANG_RESOURCE_DIR}")

# Targets that include LLVM/Clang headers call this. The headers are marked
# SYSTEM so that our -Werror applies to our code only.
function(shmem_lint_use_llvm target)
  target_include_directories(${target} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  separate_arguments(_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_options(${target} PUBLIC ${_defs})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PUBLIC -fno-rtti)
  endif()
endfunction()
