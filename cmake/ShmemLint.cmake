# ShmemLint.cmake - run shmem-lint on a target's CUDA sources from CMake.
#
# Works with nvcc as the CUDA compiler: the driver reads the target's
# commands from compile_commands.json and translates nvcc's flags.
#
#   list(APPEND CMAKE_MODULE_PATH /path/to/shmem-lint/cmake)
#   include(ShmemLint)
#   add_library(kernels STATIC kernels.cu)
#   shmem_lint(TARGET kernels)
#
#   cmake --build build --target shmem-lint-kernels   # one target
#   cmake --build build --target shmem-lint-all       # every shmem_lint()
#
# shmem_lint(TARGET <target>
#            [NAME <custom-target>]     default shmem-lint-<target>
#            [FORMAT text|sarif|github|gitlab|json] [OUTPUT <file>]
#            [ARGS <shmem-lint flags>...]
#            [ALL]                      run with every build
#            [EXIT_ZERO])               findings do not fail the build
#
# The custom target runs, in the target's source directory,
#   shmem-lint -p <top build dir> ${SHMEM_LINT_ARGS} <ARGS> <the target's .cu/.cuh>
# It does not build <target> first: the compile database is all it needs
# (add_dependencies(shmem-lint-<target> <target>) if sources are generated).
#
# Variables:
#   SHMEM_LINT_EXECUTABLE  the driver (found on the PATH, next to this file
#                          in a source checkout's build/bin, or in the bin/
#                          of the prefix this file is installed in)
#   SHMEM_LINT_ARGS        flags for every shmem_lint() target, e.g.
#                          --cuda-path=none or --block-dim=256
#
# compile_commands.json is written by the Makefile and Ninja generators only;
# shmem_lint() turns on EXPORT_COMPILE_COMMANDS for the target (CMake >= 3.20).

include_guard(GLOBAL)

find_program(SHMEM_LINT_EXECUTABLE
  NAMES shmem-lint
  HINTS "${CMAKE_CURRENT_LIST_DIR}/../build/bin"
        "${CMAKE_CURRENT_LIST_DIR}/../../../bin"  # <prefix>/share/shmem-lint/cmake
  DOC "The shmem-lint driver")
set(SHMEM_LINT_ARGS "" CACHE STRING
  "Flags passed to shmem-lint by every shmem_lint() target")

function(shmem_lint)
  cmake_parse_arguments(PARSE_ARGV 0 arg "ALL;EXIT_ZERO"
    "TARGET;NAME;FORMAT;OUTPUT" "ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "shmem_lint: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "shmem_lint: TARGET <target> is required")
  endif()
  if(NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR "shmem_lint: '${arg_TARGET}' is not a target")
  endif()
  if(NOT SHMEM_LINT_EXECUTABLE)
    message(FATAL_ERROR "shmem_lint: shmem-lint not found; put it on the PATH "
      "or set SHMEM_LINT_EXECUTABLE")
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.20)
    message(FATAL_ERROR "shmem_lint: needs CMake 3.20 or newer")
  endif()
  if(NOT CMAKE_GENERATOR MATCHES "Makefiles|Ninja")
    message(WARNING "shmem_lint: the ${CMAKE_GENERATOR} generator writes no "
      "compile_commands.json; use a Makefile or Ninja generator")
  endif()

  set(name "${arg_NAME}")
  if(NOT name)
    set(name "shmem-lint-${arg_TARGET}")
  endif()

  # The target's commands go into ${CMAKE_BINARY_DIR}/compile_commands.json.
  set_property(TARGET "${arg_TARGET}" PROPERTY EXPORT_COMPILE_COMMANDS ON)

  get_target_property(sources "${arg_TARGET}" SOURCES)
  list(FILTER sources INCLUDE REGEX "\\.(cu|cuh)$")
  if(NOT sources)
    message(WARNING "shmem_lint: '${arg_TARGET}' has no .cu or .cuh source yet")
  endif()

  set(command "${SHMEM_LINT_EXECUTABLE}" -p "${CMAKE_BINARY_DIR}")
  separate_arguments(global_args UNIX_COMMAND "${SHMEM_LINT_ARGS}")
  list(APPEND command ${global_args} ${arg_ARGS})
  if(arg_FORMAT)
    list(APPEND command "--format=${arg_FORMAT}")
  endif()
  if(arg_OUTPUT)
    get_filename_component(output "${arg_OUTPUT}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND command -o "${output}")
  endif()
  if(arg_EXIT_ZERO)
    list(APPEND command --exit-zero)
  endif()
  # Sources are taken when the build system is generated, so those added
  # with target_sources() after this call count too.
  list(APPEND command
    "$<FILTER:$<TARGET_PROPERTY:${arg_TARGET},SOURCES>,INCLUDE,\\.(cu|cuh)$>")

  set(all)
  if(arg_ALL)
    set(all ALL)
  endif()
  get_target_property(source_dir "${arg_TARGET}" SOURCE_DIR)
  add_custom_target("${name}" ${all}
    COMMAND ${command}
    WORKING_DIRECTORY "${source_dir}"
    COMMENT "shmem-lint: ${arg_TARGET}"
    COMMAND_EXPAND_LISTS
    VERBATIM
    USES_TERMINAL)

  if(NOT TARGET shmem-lint-all)
    add_custom_target(shmem-lint-all)
  endif()
  add_dependencies(shmem-lint-all "${name}")
endfunction()
