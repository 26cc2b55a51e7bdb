#!/usr/bin/env bash
# The pre-commit hook `shmem-lint-from-source` (.pre-commit-hooks.yaml): for
# machines with LLVM/Clang 22 (scripts/setup.sh installs it) but no
# installed shmem-lint. The first run builds shmem-lint from the hook's
# checkout (pre-commit's clone at the pinned rev) into the user's cache,
# keyed by that commit; every run then executes the cached build with the
# hook's arguments and files.
set -u -o pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$here" rev-parse HEAD 2>/dev/null || echo local)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/shmem-lint/$rev
if [ ! -x "$cache/bin/shmem-lint" ]; then
  echo "shmem-lint: building from $here into $cache (the first run only)" >&2
  if ! command -v cmake >/dev/null 2>&1; then
    echo "shmem-lint: cannot build: no cmake; install LLVM/Clang 22 and cmake (scripts/setup.sh), or use the 'shmem-lint' hook with an installed shmem-lint" >&2
    exit 2
  fi
  mkdir -p "$cache" || exit 2
  log=$cache/build.log
  generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  if ! { cmake -S "$here" -B "$cache/build" "${generator[@]}" \
           -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
         cmake --build "$cache/build" &&
         cmake --install "$cache/build" --prefix "$cache"; } >"$log" 2>&1; then
    echo "shmem-lint: the build failed (log: $log); install LLVM/Clang 22 (scripts/setup.sh), or use the 'shmem-lint' hook with an installed shmem-lint" >&2
    exit 2
  fi
fi
exec "$cache/bin/shmem-lint" "$@"
