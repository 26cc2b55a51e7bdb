#!/usr/bin/env bash
# The GPU half of the cross-check. On the GPU machine, from the repository root
# (Python 3, standard library only; the CUDA tools as in bench/gpu/env.sh):
#   bench/gpu/crosscheck/run.sh OUTDIR [BUDGET_SECONDS] [FILE.cu...]
# Generates the harnesses (gen.py) for FILEs (default: the lit inputs, the
# sanitizer programs and crosscheck/kernels/), builds each with
# `nvcc -arch=sm_90 -O3 -lineinfo`, runs every launch plainly (10 s limit: a
# launch that hangs or faults is measured no further), then per input file one
# ncu run over its good launches (per-kernel totals plus the SourceCounters
# section, whose per-instruction shared wavefronts the source page exports),
# then compute-sanitizer racecheck and synccheck per input file (per launch
# with SAN_PER_LAUNCH=1). PHASES="plain ncu san" (the default) picks phases;
# NCU_IDS limits ncu to some inputs. For many small launches
# (bench/gpu/random): PLAIN_PER_FILE=1, NCU_SOURCE=0, NCU_JOBS, SAN_PRINT_LIMIT
# (0: none), SAN_TIMEOUT, SAN_PER_LAUNCH_IDS, XC_BUFFER_BYTES (gen.py). Leaves
# OUTDIR/crosscheck-raw.tgz (every intermediate file) and OUTDIR/versions.txt;
# collect.py turns the raw files into test/calibration/crosscheck-h200.tsv.
set -u
export LC_ALL=C  # the same input order (and manifest) on every machine
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
. "$HERE/../env.sh"
OUTDIR=${1:?usage: run.sh OUTDIR [BUDGET_SECONDS] [FILE.cu...]}
BUDGET=${2:-420}
shift $(( $# >= 2 ? 2 : $# ))
START=$(date +%s)
W=${WORKDIR:-/tmp/shmem-lint-crosscheck}
rm -rf "$W"; mkdir -p "$W"/{bin,logs,ncu,sass,san} "$OUTDIR"
log() { echo "[$(date +%T) +$(( $(date +%s) - START ))s] $*" | tee -a "$W/timing.log"; }
left() { echo $(( START + BUDGET - $(date +%s) )); }

cd "$ROOT"
if [ $# -eq 0 ]; then
  set -- test/lit/bank-conflict/*.cu bench/gpu/crosscheck/kernels/*.cu test/lit/race/*.cu \
         test/lit/divergent-barrier/*.cu bench/gpu/sanitizer/*.cu
fi
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  "$NVCC" --version
  "$NCU" --version
  "$SANITIZER" --version
  uname -a
} > "$W/versions.txt" 2>&1
cp "$W/versions.txt" "$OUTDIR/"
log "tools: nvcc=$NVCC ncu=$NCU sanitizer=$SANITIZER"
"$PYTHON" "$HERE/gen.py" "$W" "$@" | tee -a "$W/timing.log"

# Build, and dump the SASS with line information.
build_one() {
  local id=$1
  "$NVCC" -arch=sm_90 -O3 -lineinfo -o "$W/bin/$id" "$W/src/$id.harness.cu" > "$W/logs/$id.build.log" 2>&1
  echo $? > "$W/logs/$id.build.rc"
  [ -x "$W/bin/$id" ] || return
  "$CUOBJDUMP" -sass "$W/bin/$id" > "$W/sass/$id.sass" 2>&1
  local d="$W/sass/$id.cubin.d"; mkdir -p "$d"
  (cd "$d" && "$CUOBJDUMP" -xelf all "$W/bin/$id" > /dev/null 2>&1
   for c in *.cubin; do [ -f "$c" ] && nvdisasm -g -c "$c" > "$W/sass/$id.$c.lines" 2>&1; done)
  rm -rf "$d"
}
export W NVCC CUOBJDUMP SANITIZER NCU
export -f build_one
# In the order of the manifest (the order of the FILEs): ncu stops first.
ids=$(awk -F'\t' 'NR > 1 && !seen[$1]++ { print $1 }' "$W/manifest.tsv")
log "build $(echo $ids | wc -w) harnesses"
echo $ids | tr ' ' '\n' | xargs -P 16 -I{} bash -c 'build_one {}'

PHASES=${PHASES:-plain ncu san}
has() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }
# Plain runs, one launch each, to find the launches that hang or fault.
plain_one() {
  local id=$1 launch=$2
  timeout -k 2 10 "$W/bin/$id" "$launch" > "$W/logs/$id.$launch.plain.log" 2>&1
  echo $? > "$W/logs/$id.$launch.plain.rc"
}
# PLAIN_PER_FILE=1 (many small launches, bench/gpu/random): one process per
# input file first; only the files whose process fails run per launch.
# Files whose ids match SAN_PER_LAUNCH_IDS (expected to hang or fault) go
# per launch at once.
plain_file() {
  local id=$1; shift
  local rc=1
  if ! [[ $id =~ ^(${SAN_PER_LAUNCH_IDS:-^})$ ]]; then
    timeout -k 2 60 "$W/bin/$id" "$@" > "$W/logs/$id.plain.log" 2>&1
    rc=$?
  fi
  for l in "$@"; do
    if [ $rc = 0 ]; then echo 0 > "$W/logs/$id.$l.plain.rc"; else plain_one "$id" "$l" & fi
  done
  wait
}
export -f plain_one plain_file
has plain && log "plain runs"
if has plain && [ "${PLAIN_PER_FILE:-0}" = 1 ]; then
  for id in $ids; do
    [ -x "$W/bin/$id" ] || continue
    launches=$(awk -F'\t' -v id="$id" 'NR > 1 && $1 == id && $8 == "launched" { print $3 }' "$W/manifest.tsv" | tr '\n' ' ' | sed 's/ *$//')
    [ -n "$launches" ] && echo "$id $launches"
  done | xargs -r -P 16 -L 1 bash -c 'plain_file "$@"' _
elif has plain; then
  awk -F'\t' 'NR > 1 && $8 == "launched" { print $1, $3 }' "$W/manifest.tsv" |
    while read -r id launch; do [ -x "$W/bin/$id" ] && echo "$id $launch"; done |
    xargs -r -P 16 -L 1 bash -c 'plain_one "$0" "$1"'
fi
# The launches of one id that ran cleanly; without the plain phase, those
# not listed in $BAD_LAUNCHES ("id launch" lines from an earlier run).
good() {
  awk -F'\t' -v id="$1" 'NR > 1 && $1 == id && $8 == "launched" { print $3 }' "$W/manifest.tsv" |
    while read -r l; do
      if has plain; then
        [ "$(cat "$W/logs/$1.$l.plain.rc" 2>/dev/null)" = 0 ] && echo "$l"
      elif ! grep -qx "$1 $l" "${BAD_LAUNCHES:-/dev/null}"; then
        echo "$l"
      fi
    done
}

# ncu: per input file, every good launch; SourceCounters gives per-SASS-
# instruction shared wavefronts (and ideal), the metrics the per-kernel totals.
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
# NCU_EXTRA_METRICS: more per-kernel metrics, comma-separated (bench/gpu/
# random's ldmatrix and async-copy files: the smsp__sass_* counters above
# read 0 for LDSM and leave LDGSTS out; collect.py names those it knows).
M="$M${NCU_EXTRA_METRICS:+,$NCU_EXTRA_METRICS}"
"$NCU" --list-sections > "$W/ncu/list-sections.txt" 2>&1
for f in $(dirname "$NCU")/sections/SourceCounters.section /opt/nvidia/nsight-compute/*/sections/SourceCounters.section; do
  [ -f "$f" ] && { cp "$f" "$W/ncu/"; break; }
done
# NCU_JOBS ncu processes at a time (default: one per GPU of the machine);
# input file k runs on GPU k mod the number of GPUs.
NGPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$NGPUS" -ge 1 ] 2>/dev/null || NGPUS=1
NCU_JOBS=${NCU_JOBS:-$NGPUS}
ncu_one() {
  local id=$1 gpu=$2
  local launches
  launches=$(good "$id" | tr '\n' ' ')
  [ -n "$launches" ] || return
  # NCU_SOURCE=0: the per-kernel metrics alone, with no SASS patching
  # (0.12 s a kernel instead of 0.4 on the H200; bench/gpu/random, whose
  # kernels have one load line and one store line each, needs no more).
  local source="--section SourceCounters --import-source yes"
  [ "${NCU_SOURCE:-1}" = 0 ] && source=
  CUDA_VISIBLE_DEVICES=$gpu timeout -k 5 ${NCU_TIMEOUT:-120} "$NCU" --clock-control none \
    $source --metrics "$M" -f -o "$W/ncu/$id" "$W/bin/$id" $launches > "$W/ncu/$id.log" 2>&1
  echo $? > "$W/ncu/$id.rc"
  [ -f "$W/ncu/$id.ncu-rep" ] || return
  "$NCU" -i "$W/ncu/$id.ncu-rep" --csv --page raw > "$W/ncu/$id.raw.csv" 2> "$W/ncu/$id.raw.err"
  [ -n "$source" ] || return 0
  "$NCU" -i "$W/ncu/$id.ncu-rep" --csv --page source --print-source sass > "$W/ncu/$id.src-sass.csv" 2> "$W/ncu/$id.src-sass.err" &
  "$NCU" -i "$W/ncu/$id.ncu-rep" --csv --page source --print-source cuda > "$W/ncu/$id.src-cuda.csv" 2> "$W/ncu/$id.src-cuda.err" &
  wait
}
log "ncu ($NCU_JOBS at a time on $NGPUS GPU(s))"
k=0
for id in ${NCU_IDS:-$ids}; do
  has ncu || break
  if [ "$(left)" -lt 100 ]; then log "ncu: out of time before $id"; break; fi
  ncu_one "$id" $(( k % NGPUS )) &
  k=$(( k + 1 ))
  while [ "$(jobs -rp | wc -l)" -ge "$NCU_JOBS" ]; do wait -n; done
done
wait
log "ncu done"

# Sanitizers, per input file over its good launches (about 30 s on 16 cores).
# A report's print limit (racecheck: 200 hazards) hides the launches after a
# racing one, and a synccheck error ends the process; SAN_PER_LAUNCH=1 runs
# one process per launch and tool instead, which decides every launch but
# takes a few minutes (it outran 110 s on an H200 machine).
san_file() {
  local id=$1 tool=$2; shift 2
  local args="--tool $tool"
  [ "$tool" = racecheck ] && args="$args --racecheck-report all"
  timeout -k 5 ${SAN_TIMEOUT:-60} "$SANITIZER" $args --print-limit ${SAN_PRINT_LIMIT:-200} "$W/bin/$id" "$@" > "$W/san/$id.$tool.log" 2>&1
  echo $? > "$W/san/$id.$tool.rc"
}
san_launch() {
  local id=$1 tool=$2 launch=$3
  timeout -k 5 60 "$SANITIZER" --tool "$tool" --print-limit 100 "$W/bin/$id" "$launch" \
    > "$W/san/$id.$launch.$tool.log" 2>&1
  echo $? > "$W/san/$id.$launch.$tool.rc"
}
export -f san_file san_launch
has san && log "sanitizers"
for id in $ids; do
  has san || break
  # SAN_PER_LAUNCH_IDS: a regular expression of the ids to run per launch.
  if [ "${SAN_PER_LAUNCH:-0}" = 1 ] || { [ -n "${SAN_PER_LAUNCH_IDS:-}" ] && [[ $id =~ ^(${SAN_PER_LAUNCH_IDS})$ ]]; }; then
    for l in $(good "$id"); do
      echo "san_launch $id racecheck $l"
      echo "san_launch $id synccheck $l"
    done
  else
    # No trailing blank: xargs -L would join the next line to this one.
    launches=$(good "$id" | tr '\n' ' ' | sed 's/ *$//')
    [ -n "$launches" ] || continue
    echo "san_file $id racecheck $launches"
    echo "san_file $id synccheck $launches"
  fi
done | xargs -r -P 16 -L 1 bash -c '"$@"' _
log "pack"
(cd "$W" && tar czf "$OUTDIR/crosscheck-raw.tgz" --exclude='*.ncu-rep' manifest.tsv versions.txt timing.log src logs ncu sass san)
(cd "$W" && tar czf "$OUTDIR/crosscheck-reports.tgz" ncu/*.ncu-rep 2>/dev/null)
ls -la "$OUTDIR"
log "done"
