#!/usr/bin/env bash
# The browser tests (ctest `browser`): install puppeteer-core (no browser
# download: Debian's chromium is driven), then run every *.test.js here
# against the shmem-lint given as $1.
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../build/bin/shmem-lint}
export SHMEM_LINT=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export PUPPETEER_SKIP_DOWNLOAD=1
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "browser tests: no chromium at ${CHROMIUM:-/usr/bin/chromium}" >&2; exit 1; }
npm ci --no-audit --no-fund >/dev/null
npm test -- *.test.js
