#!/usr/bin/env bash
# Installs what shmem-lint needs on a Debian 12 machine (as root, or with
# sudo) and builds it into ./build. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
          libclang-rt-22-dev libgtest-dev cmake ninja-build python3 python3-jsonschema
          python3-yaml pre-commit git chromium)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

LAUNCHER=()
# Rebuilds after switching branches are much faster through ccache; use it
# when the developer has it, never require it.
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${LAUNCHER[@]}" >/dev/null
cmake --build build -j"$(nproc)"
