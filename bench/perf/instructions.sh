#!/usr/bin/env bash
# Instructions executed (valgrind --tool=callgrind, "Collected") by
# clang-tidy with no check, with shmem-bank-conflict only and with shmem-*,
# and by the driver, on one file. Unlike CPU time this count does not move
# with the machine's load, so small changes show; it weighs every
# instruction alike, so it overstates the share of simple integer loops
# (the analysis) against clang's front end: use it to compare builds, the
# CPU-time tables of run.sh to compare with clang.
#
#   bench/perf/instructions.sh [--build DIR] [--toolkit DIR] [--two] FILE
#                              [CALLGRIND_OUT_DIR] [-- FLAGS...]
#
# --toolkit DIR parses FILE with that CUDA toolkit's headers (as run.sh does
# for tu200tk and the heavy file) instead of shmem-lint's own header.
# --two counts only clang-tidy with no check and the driver (the ratio the
# speed issue asks for; each count is a full run under valgrind, minutes on
# a ggml file). FLAGS after `--` are the file's own (include paths,
# defines), given to every command, as bench/corpus/run.sh gives ggml's:
#
#   bench/perf/instructions.sh --toolkit /usr/local/cuda --two \
#     src/ggml-cuda/template-instances/mmq-instance-q4_0.cu /tmp/cg -- \
#     -Iinclude -Isrc -Isrc/ggml-cuda -std=c++17 -DGGML_USE_CUDA ...
#
# run from the ggml checkout.
#
# Valgrind 3.19 cannot read the DWARF 5 debug information clang 22 writes,
# so the shmem-lint binaries are copied without it (symbols stay).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/../../build"
TOOLKIT=""
TWO=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$2"; shift 2 ;;
    --toolkit) TOOLKIT="$2"; shift 2 ;;
    --two) TWO=1; shift ;;
    *) break ;;
  esac
done
F="${1:?usage: instructions.sh [--build DIR] [--toolkit DIR] [--two] FILE [OUT_DIR] [-- FLAGS...]}"
shift
OUT="$(mktemp -d)"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  OUT="$1"
  shift
fi
EXTRA=()
if [ $# -gt 0 ] && [ "$1" = "--" ]; then
  shift
  EXTRA=("$@")
fi
command -v valgrind >/dev/null || { echo "instructions.sh: no valgrind (apt-get install -y valgrind)" >&2; exit 2; }
TIDY="${TIDY:-clang-tidy-22}"
COPY="$(mktemp -d)"
trap 'rm -rf "$COPY"' EXIT
cp -a "$BUILD/bin" "$BUILD/lib" "$BUILD/share" "$COPY/"
objcopy --strip-debug "$COPY/bin/shmem-lint"
objcopy --strip-debug "$COPY/lib/shmem-lint/shmem-lint-tidy.so"
LINT="$COPY/bin/shmem-lint"
read -r -a CUDA_FLAGS <<<"$("$LINT" --print-cuda-flags)"
LINT_CUDA=(--cuda-path=none)
if [ -n "$TOOLKIT" ]; then
  CUDA_FLAGS=("--cuda-path=$TOOLKIT" -isystem "$TOOLKIT/include/cccl")
  LINT_CUDA=("--cuda-path=$TOOLKIT")
fi
PLUGIN="$("$LINT" --print-tidy-plugin)"
source "$HERE/flags.sh" # DEV_FLAGS, NOCHECK
mkdir -p "$OUT"
count() { # NAME COMMAND...
  local name=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.callgrind" "$@" \
    >/dev/null 2>"$OUT/$name.log" || true
  local n
  n=$(grep -o 'Collected : [0-9]*' "$OUT/$name.log" | awk '{print $3}')
  [ -n "$n" ] || { echo "instructions.sh: $name failed, see $OUT/$name.log" >&2; exit 1; }
  echo "$name $n"
}
count tidy-no-check "$TIDY" --config={} "--checks=$NOCHECK" "$F" -- "${DEV_FLAGS[@]}" "${CUDA_FLAGS[@]}" "${EXTRA[@]}"
if [ "$TWO" = 0 ]; then
  count tidy-bank-conflict "$TIDY" --config={} --load="$PLUGIN" '--checks=-*,shmem-bank-conflict' "$F" -- "${DEV_FLAGS[@]}" "${CUDA_FLAGS[@]}" "${EXTRA[@]}"
  count tidy-shmem "$TIDY" --config={} --load="$PLUGIN" '--checks=-*,shmem-*' "$F" -- "${DEV_FLAGS[@]}" "${CUDA_FLAGS[@]}" "${EXTRA[@]}"
fi
if [ ${#EXTRA[@]} -gt 0 ]; then
  count driver "$LINT" --no-config --no-progress "${LINT_CUDA[@]}" "$F" -- "${EXTRA[@]}"
else
  count driver "$LINT" --no-config --no-progress "${LINT_CUDA[@]}" "$F"
fi
echo "callgrind files: $OUT (callgrind_annotate --inclusive=yes FILE)"
