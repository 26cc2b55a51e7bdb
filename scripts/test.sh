#!/usr/bin/env bash
# Sets up shmem-lint and runs every test (unit tests and lit tests) via ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cd build
ctest --output-on-failure -j"$(nproc)"
