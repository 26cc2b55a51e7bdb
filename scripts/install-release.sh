#!/usr/bin/env bash
# Installs a released shmem-lint: downloads the release's Debian package and
# its SHA256SUMS, checks the package against them, and installs it with apt
# (which brings clang-22 and clang-tidy-22, from the machine's apt sources).
# No build: a CI step takes seconds instead of a compile of the whole tool.
#
#   scripts/install-release.sh VERSION            install release vVERSION
#   scripts/install-release.sh VERSION --download-only DIR
#                                                 download and check only
#
# SHMEM_LINT_RELEASES overrides where releases are fetched from (default:
# https://github.com/shmem-lint/shmem-lint/releases/download, then
# /v<VERSION>/). Exit status: 0 installed (or downloaded and checked), 3 no
# such release or no package for this architecture (the caller may build
# from source instead), 1 the download does not match SHA256SUMS or apt
# failed (nothing unchecked is installed), 2 usage.
set -euo pipefail

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
version="" only=""
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --download-only) [ $# -ge 2 ] || { echo "install-release.sh: --download-only needs a directory" >&2; exit 2; }
                     only=$2; shift ;;
    -*) echo "install-release.sh: unknown option '$1'" >&2; exit 2 ;;
    *) [ -z "$version" ] || { echo "install-release.sh: one version only" >&2; exit 2; }
       version=${1#v} ;;
  esac
  shift
done
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  { echo "install-release.sh: expected a version such as 0.1.0, not '${version}'" >&2; exit 2; }

arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
deb="shmem-lint_${version}_${arch}.deb"
base="${SHMEM_LINT_RELEASES:-https://github.com/shmem-lint/shmem-lint/releases/download}/v${version}"
dir=${only:-$(mktemp -d)}
mkdir -p "$dir"

fetch() { # URL FILE; 3 when the server has no such file
  local code
  code=$(curl -sSL --retry 3 -o "$2" -w '%{http_code}' "$1") || { echo "install-release.sh: cannot download $1" >&2; return 3; }
  [ "$code" = 200 ] || { echo "install-release.sh: $1: HTTP $code (no release v${version} for ${arch}?)" >&2; return 3; }
}
fetch "$base/SHA256SUMS" "$dir/SHA256SUMS" || exit 3
grep -q " \*\?${deb}\$" "$dir/SHA256SUMS" ||
  { echo "install-release.sh: release v${version} has no ${deb}" >&2; exit 3; }
fetch "$base/$deb" "$dir/$deb" || exit 3
(cd "$dir" && grep " \*\?${deb}\$" SHA256SUMS | sha256sum --check --status) ||
  { echo "install-release.sh: ${deb} does not match the release's SHA256SUMS; not installed" >&2; exit 1; }
echo "install-release.sh: ${deb} checked against SHA256SUMS"
[ -z "$only" ] || { echo "$dir/$deb"; exit 0; }

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$dir/$deb" >/dev/null ||
  { echo "install-release.sh: apt-get could not install ${deb} (are clang-22 and clang-tidy-22 in the apt sources? see docs/integrations.md)" >&2; exit 1; }
echo "install-release.sh: installed ${deb}: $(shmem-lint --version | head -1)"
