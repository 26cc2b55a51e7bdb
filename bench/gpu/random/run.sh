#!/usr/bin/env bash
# The GPU half of the random cross-check. On the GPU machine, from the
# repository root:
#   bench/gpu/random/run.sh OUTDIR BUDGET_SECONDS SEEDS...
# SEEDS as gen.py takes them ("1-100"). Writes the kernels of those seeds
# (gen.py), then measures them with the cross-check's runner
# (bench/gpu/crosscheck/run.sh: build, plain runs, ncu SourceCounters,
# racecheck, synccheck) tuned for many small launches: 1 MiB buffers, one
# plain process per file, the sync files' sanitizer runs one launch at a time
# (a synccheck error ends its process), no print limit on racecheck's
# hazards (a racing kernel must not hide the verdicts of those after it), and
# ncu's per-kernel totals only (NCU_SOURCE=0: each kernel has one store line
# and one load line), four ncu processes at a time. Leaves
# OUTDIR/crosscheck-raw.tgz and OUTDIR/table.tsv.xz (bench/gpu/crosscheck/
# collect.py's table); merge.py turns the tables into the committed one.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUTDIR=${1:?usage: run.sh OUTDIR BUDGET_SECONDS SEEDS...}
BUDGET=${2:?budget}
shift 2
SRC=${RANDOM_SRC:-/tmp/shmem-lint-random}
rm -rf "$SRC"; mkdir -p "$SRC"
python3 "$HERE/gen.py" "$SRC" "$@"
cd "$HERE/../../.."
W=${WORKDIR:-/tmp/shmem-lint-random-work}
XC_BUFFER_BYTES=$((1 << 20)) PLAIN_PER_FILE=1 NCU_SOURCE=${NCU_SOURCE:-0} NCU_JOBS=${NCU_JOBS:-4} SAN_PRINT_LIMIT=0 SAN_TIMEOUT=300 \
  SAN_PER_LAUNCH_IDS='.*-r[1-9]?[0-9]?0' NCU_TIMEOUT=500 \
  WORKDIR=$W bash bench/gpu/crosscheck/run.sh "$OUTDIR" "$BUDGET" $(ls "$SRC"/r*.cu | sort -V)
python3 bench/gpu/crosscheck/collect.py "$OUTDIR/table.tsv" "$W" && xz -9f "$OUTDIR/table.tsv"
rm -f "$OUTDIR/crosscheck-reports.tgz"
