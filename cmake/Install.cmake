# Install rules and the Debian package (CPack).
#
#   cmake --install build --prefix DIR      # DIR/bin, DIR/lib/shmem-lint, DIR/share/shmem-lint
#   (cd build && cpack -G DEB)              # shmem-lint_<version>_<arch>.deb, prefix /usr
#
# The installed tree has the build tree's layout, because the driver finds
# its plugins and its CUDA header relative to its own executable
# (ToolLayout::find: <exe>/../lib/shmem-lint, <exe>/../share/shmem-lint/cuda).
# That is what makes the prefix relocatable: move or copy it as a whole and
# the driver still works; nothing in it names the prefix.

include(GNUInstallDirs)

# ToolLayout::find takes the prefix as the executable's grandparent and
# appends share/; another BINDIR or DATADIR would install a driver that
# cannot find its files, so refuse it here rather than at run time.
if(NOT CMAKE_INSTALL_BINDIR STREQUAL "bin" OR NOT CMAKE_INSTALL_DATADIR STREQUAL "share")
  message(FATAL_ERROR "shmem-lint: the driver looks for its files in "
    "<prefix>/lib/shmem-lint and <prefix>/share/shmem-lint, next to <prefix>/bin; "
    "CMAKE_INSTALL_BINDIR must be 'bin' and CMAKE_INSTALL_DATADIR 'share' "
    "(got '${CMAKE_INSTALL_BINDIR}' and '${CMAKE_INSTALL_DATADIR}')")
endif()
# The plugins are private to shmem-lint (loaded by path, never linked
# against), so they go to lib/shmem-lint, not to the multiarch
# CMAKE_INSTALL_LIBDIR (lib/x86_64-linux-gnu under /usr on Debian) where the
# driver would not look. Debian policy allows /usr/lib/<package> for that.
set(SHMEM_LINT_INSTALL_PLUGINDIR lib/shmem-lint)
set(SHMEM_LINT_INSTALL_SHAREDIR ${CMAKE_INSTALL_DATADIR}/shmem-lint)

install(TARGETS shmem-lint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ShmemLintTidyModule ShmemLintClangPlugin
  LIBRARY DESTINATION ${SHMEM_LINT_INSTALL_PLUGINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/shmem-lint/cuda/
  DESTINATION ${SHMEM_LINT_INSTALL_SHAREDIR}/cuda)
# include(ShmemLint) from an installed copy: it finds the driver on the
# PATH or at <prefix>/bin (see the HINTS in the file).
install(FILES ${CMAKE_SOURCE_DIR}/cmake/ShmemLint.cmake
  DESTINATION ${SHMEM_LINT_INSTALL_SHAREDIR}/cmake)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/integrations.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/checks
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
# shmem-lint(1), written from the built command's --help
# (scripts/make-manpage.py), so that it lists exactly the options it takes.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(SHMEM_LINT_MANPAGE ${CMAKE_BINARY_DIR}/share/man/man1/shmem-lint.1)
  add_custom_command(OUTPUT ${SHMEM_LINT_MANPAGE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/share/man/man1
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/make-manpage.py
      $<TARGET_FILE:shmem-lint> ${SHMEM_LINT_MANPAGE} ${PROJECT_VERSION}
    DEPENDS shmem-lint ${CMAKE_SOURCE_DIR}/scripts/make-manpage.py
    COMMENT "Writing shmem-lint.1 from shmem-lint --help" VERBATIM)
  add_custom_target(shmem-lint-manpage ALL DEPENDS ${SHMEM_LINT_MANPAGE})
  install(FILES ${SHMEM_LINT_MANPAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
# bash completion: options and checks read from the command at completion
# time (scripts/shmem-lint-completion.bash).
install(FILES ${CMAKE_SOURCE_DIR}/scripts/shmem-lint-completion.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME shmem-lint)

# --- Debian package -------------------------------------------------------
set(CPACK_PACKAGE_NAME shmem-lint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "static analyser for CUDA shared memory (bank conflicts, races, barriers)")
set(CPACK_PACKAGE_DESCRIPTION
  "shmem-lint finds shared-memory bank conflicts, races, divergent barriers, layout mismatches and uncoalesced transfers in CUDA code without a GPU. It ships a command (shmem-lint), a clang-tidy module and a clang compiler plugin, built for LLVM/Clang ${SHMEM_LINT_LLVM_MAJOR}.")
set(CPACK_PACKAGE_CONTACT "shmem-lint developers <dev@shmem-lint.invalid>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/shmem-lint/shmem-lint")
set(CPACK_GENERATOR DEB)
# <name>_<version>_<arch>.deb (DEB-DEFAULT; no Debian revision is set).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${CPACK_PACKAGE_HOMEPAGE_URL})
# A RelWithDebInfo build is mostly debug information; the package need not be.
set(CPACK_STRIP_FILES ON)
# The libraries the driver links (libclang-cpp22, libllvm22, libstdc++6, ...)
# come from dpkg-shlibdeps, with the versions their symbols need. The modules
# take their Clang symbols from the program that loads them, which no
# library dependency can express: the tidy module needs clang-tidy-22, the
# plugin clang-22; clang-22 also brings the resource directory whose CUDA
# wrapper headers the driver parses with (libclang-common-22-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "clang-${SHMEM_LINT_LLVM_MAJOR}, clang-tidy-${SHMEM_LINT_LLVM_MAJOR}")
include(CPack)
