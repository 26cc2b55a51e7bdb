#!/usr/bin/env bash
# CI for the VS Code extension: install the locked dependencies, run the
# tests (the unit tests and the protocol test against the real server), and
# build the .vsix.
#
#   editors/vscode/ci-test.sh [SHMEM-LINT]
#
# SHMEM-LINT is the shmem-lint executable the protocol test starts as
# `SHMEM-LINT lsp` (default: build/bin/shmem-lint of this checkout). The
# protocol test must run here: a missing executable, or one without `lsp`,
# fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")"
bin=${1:-../../build/bin/shmem-lint}
[ -x "$bin" ] || { echo "ci-test.sh: no shmem-lint executable at '$bin'" >&2; exit 1; }
export SHMEM_LINT=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export SHMEM_LINT_REQUIRE_LSP=1
echo "ci-test.sh: node $(node --version), npm $(npm --version), $("$SHMEM_LINT" --version)"

npm ci --no-audit --no-fund
npm test
version=$(node -p 'require("./package.json").version')
vsix=shmem-lint-$version.vsix
rm -f "$vsix"
npm run package
[ -s "$vsix" ] || { echo "ci-test.sh: npm run package made no $vsix" >&2; exit 1; }
# The package holds the extension and its runtime dependencies, not the
# tests: unpack it and load its extension.js with node.
node test/vsix-load.js "$vsix"
echo "ci-test.sh: $vsix ($(wc -c <"$vsix") bytes) built and tested"
