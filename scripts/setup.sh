#!/usr/bin/env bash
# Installs what shmem-lint needs on a Debian 12 machine (as root, or with
# sudo) and builds it into ./build. Safe to run again.
#
#   scripts/setup.sh             install the toolchain, build into ./build
#   scripts/setup.sh --install   the same, then build the Debian package
#                                (build/shmem-lint_<version>_<arch>.deb) and
#                                install it: /usr/bin/shmem-lint
set -euo pipefail
cd "$(dirname "$0")/.."

INSTALL=0
for arg in "$@"; do
  case "$arg" in
    --install) INSTALL=1 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (expected --install)" >&2; exit 2 ;;
  esac
done

PACKAGES=(clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
          libclang-rt-22-dev libgtest-dev cmake ninja-build python3 python3-jsonschema
          python3-yaml pre-commit git chromium)
# cpack -G DEB derives the package's Depends with dpkg-shlibdeps.
if ((INSTALL)); then PACKAGES+=(dpkg-dev); fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

LAUNCHER=()
# Rebuilds after switching branches are much faster through ccache; use it
# when the developer has it, never require it.
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${LAUNCHER[@]}" >/dev/null
cmake --build build -j"$(nproc)"

if ((INSTALL)); then
  version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' build/CMakeCache.txt)
  deb="shmem-lint_${version}_$(dpkg --print-architecture).deb"
  rm -f "build/$deb"
  (cd build && cpack -G DEB >/dev/null)
  # --reinstall: a rebuilt package of the same version still replaces the
  # installed one. apt (not dpkg -i) so that missing Depends get installed.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --reinstall "./build/$deb" >/dev/null
  echo "setup.sh: installed build/$deb; $(command -v shmem-lint): $(shmem-lint --version)"
fi
