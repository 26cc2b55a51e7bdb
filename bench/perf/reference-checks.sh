#!/usr/bin/env bash
# What clang-tidy's own checks cost on a file, next to shmem-bank-conflict:
# the yardstick for "at most 10% over clang-tidy with no checks" (issue #3).
#
#   bench/perf/reference-checks.sh [--build DIR] [--toolkit DIR]
#                                  [--rounds N] FILE [OUT.json]
#
# Times, round-robin (interleave.py), the median CPU time (user + system) of
#   tidy0     clang-tidy with no check (--checks=-*,objc-forbidden-subclassing,
#             which registers nothing for CUDA)
#   env33     cert-env33-c: one matcher (calls to system()), no finding here.
#             Any enabled check makes clang-tidy run its match finder over
#             the whole AST; this is that floor.
#   braces    readability-braces-around-statements, a common style check
#   bugprone  bugprone-*, a check group many projects enable
#   bank      shmem-bank-conflict
# with the flags run.sh uses: shmem-lint's own CUDA header, or the toolkit's
# with --toolkit. Prints each command's median and its share over tidy0.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$HERE/../../build"
TOOLKIT=""
ROUNDS=9
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$2"; shift 2 ;;
    --toolkit) TOOLKIT="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
F="${1:?usage: reference-checks.sh [--build DIR] [--toolkit DIR] [--rounds N] FILE [OUT.json]}"
OUT="${2:-$(mktemp --suffix=.json)}"
LINT="$BUILD/bin/shmem-lint"
[ -x "$LINT" ] || { echo "reference-checks.sh: no $LINT (build first)" >&2; exit 2; }
TIDY="${TIDY:-clang-tidy-22}"
PLUGIN="$("$LINT" --print-tidy-plugin)"
if [ -n "$TOOLKIT" ]; then
  CUDA_FLAGS="--cuda-path=$TOOLKIT -isystem $TOOLKIT/include/cccl"
else
  CUDA_FLAGS="$("$LINT" --print-cuda-flags)"
fi
source "$HERE/flags.sh" # DEV_FLAGS, NOCHECK
DEV="${DEV_FLAGS[*]} $CUDA_FLAGS"
T="$TIDY --config={}"
python3 "$HERE/interleave.py" --rounds "$ROUNDS" --out "$OUT" \
  "tidy0=$T '--checks=$NOCHECK' '$F' -- $DEV" \
  "env33=$T '--checks=-*,cert-env33-c' '$F' -- $DEV" \
  "braces=$T '--checks=-*,readability-braces-around-statements' '$F' -- $DEV" \
  "bugprone=$T '--checks=-*,bugprone-*' '$F' -- $DEV" \
  "bank=$T --load=$PLUGIN '--checks=-*,shmem-bank-conflict' '$F' -- $DEV"
python3 - "$OUT" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
base = d["tidy0"]["cpu_median"]
print("| command | CPU s (median) | min-max | over tidy0 |")
print("|---|---|---|---|")
for name, r in d.items():
    print(f"| {name} | {r['cpu_median']:.3f} | {r['cpu_min']:.3f}-{r['cpu_max']:.3f} "
          f"| {(r['cpu_median'] / base - 1) * 100:+.0f}% |")
EOF
