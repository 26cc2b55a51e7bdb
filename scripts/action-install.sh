#!/usr/bin/env bash
# The action's install step (action.yml): nothing when shmem-lint is on the
# PATH; for a release tag (`uses: shmem-lint/shmem-lint@v0.1.0`, ACTION_REF
# v0.1.0), the release's package (scripts/install-release.sh: seconds, no
# build); else, or when that release has no package, a build from the
# action's own checkout (scripts/setup.sh --install: minutes).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if command -v shmem-lint >/dev/null; then
  echo "shmem-lint: using $(command -v shmem-lint) ($(shmem-lint --version | head -1))"
  exit 0
fi
ref=${ACTION_REF:-}
if [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  status=0
  "${SHMEM_LINT_INSTALL_RELEASE:-$here/install-release.sh}" "${ref#v}" || status=$?
  case "$status" in
    0) exit 0 ;;
    3) echo "::warning title=shmem-lint::release $ref has no package for this machine; building shmem-lint from source (minutes)" ;;
    *) echo "::error title=shmem-lint::installing release $ref failed (status $status)"; exit 1 ;;
  esac
else
  echo "shmem-lint: the action is used at '${ref:-an unknown ref}', not a release tag; building it from source (pin a release, @vX.Y.Z, to install in seconds)"
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO "${SHMEM_LINT_SETUP:-$here/setup.sh}" --install
