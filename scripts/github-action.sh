#!/usr/bin/env bash
# The run step of the GitHub Action (action.yml): one shmem-lint run over
# the pull request's changed files (or everything), its report as SARIF for
# code scanning or as annotations in the log, and its exit status as the
# step's `status` output. The step itself exits 0 unless shmem-lint could
# not be run at all, so that the upload step still gets the report; the
# action's last step fails the job as `fail-on-findings` says.
#
# Reads the action's inputs from INPUT_* (action.yml sets them), the event
# from GITHUB_EVENT_NAME and GITHUB_BASE_REF, and writes GITHUB_OUTPUT.
# SHMEM_LINT overrides the command (tests).
set -u -o pipefail

lint=${SHMEM_LINT:-shmem-lint}
out=${GITHUB_OUTPUT:-/dev/null}
command -v "$lint" >/dev/null 2>&1 || {
  echo "::error title=shmem-lint::no shmem-lint on the PATH (install: true installs it from the action's checkout)"
  echo "status=2" >> "$out"
  exit 1
}

args=(--no-progress --no-color)
[ -n "${INPUT_COMPILE_COMMANDS:-}" ] && args+=(-p "$INPUT_COMPILE_COMMANDS")
[ -n "${INPUT_CHECKS:-}" ] && args+=("--checks=$INPUT_CHECKS")

# A pull request: only what it changes against its base branch. The base
# is fetched when the checkout (depth 1 by default) does not have it.
base=${GITHUB_BASE_REF:-}
if [ "${INPUT_CHANGED_ONLY:-true}" = true ] && [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -n "$base" ]; then
  git rev-parse --verify -q "origin/$base" >/dev/null ||
    git fetch --no-tags --depth=1 origin "$base:refs/remotes/origin/$base" ||
    echo "::warning title=shmem-lint::could not fetch the base branch '$base'; analysing every file"
  git rev-parse --verify -q "origin/$base" >/dev/null && args+=(--diff "origin/$base")
fi

read -r -a extra <<< "${INPUT_ARGS:-}"
read -r -a paths <<< "${INPUT_PATHS:-}"
# Without a compile database and without paths: the repository.
[ -z "${INPUT_COMPILE_COMMANDS:-}" ] && [ ${#paths[@]} -eq 0 ] && paths=(.)

sarif=
if [ "${INPUT_UPLOAD_SARIF:-true}" = true ]; then
  sarif=${INPUT_SARIF_FILE:-shmem-lint.sarif}
  args+=(--format=sarif -o "$sarif")
else
  args+=(--format=github)
fi

echo "shmem-lint ${args[*]} ${extra[*]} ${paths[*]}"
status=0
"$lint" "${args[@]}" "${extra[@]}" "${paths[@]}" || status=$?
echo "status=$status" >> "$out"
[ -n "$sarif" ] && [ -f "$sarif" ] && echo "sarif-file=$sarif" >> "$out"
exit 0
