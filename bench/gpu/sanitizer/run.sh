#!/usr/bin/env bash
# Run every bench/gpu/sanitizer/*.cu under compute-sanitizer racecheck and
# synccheck (also racecheck at --racecheck-detect-level info, and synccheck
# on a -G debug build), each with a
# time limit. On the GPU machine:
#   bench/gpu/sanitizer/run.sh OUTDIR
# Writes OUTDIR/logs/<file>.<tool>.log, .rc, and OUTDIR/sanitizer-h200.tsv.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUTDIR=${1:?usage: run.sh OUTDIR}
LIMIT=${SANITIZER_TIMEOUT:-60}
JOBS=${JOBS:-8}
mkdir -p "$OUTDIR/bin" "$OUTDIR/logs"
export HERE OUTDIR LIMIT NVCC SANITIZER

build_one() {
  local f=$1 n
  n=$(basename "$f" .cu)
  "$NVCC" -arch=sm_90 -O3 -lineinfo -o "$OUTDIR/bin/$n" "$f" > "$OUTDIR/logs/$n.build.log" 2>&1
  echo $? > "$OUTDIR/logs/$n.build.rc"
  "$NVCC" -arch=sm_90 -G -o "$OUTDIR/bin/$n.G" "$f" > "$OUTDIR/logs/$n.buildG.log" 2>&1
}
run_one() {
  local n=$1 tool=$2 args
  case $tool in
    racecheck) args="--tool racecheck" ;;
    racecheck-info) args="--tool racecheck --racecheck-detect-level info" ;;
    synccheck|synccheck-G) args="--tool synccheck" ;;
    plain) args="" ;;
  esac
  local exe="$OUTDIR/bin/$n"
  [ "$tool" = synccheck-G ] && exe="$OUTDIR/bin/$n.G"
  local t0=$(date +%s%N)
  if [ "$tool" = plain ]; then
    timeout -k 5 "$LIMIT" "$OUTDIR/bin/$n" > "$OUTDIR/logs/$n.$tool.log" 2>&1
  else
    timeout -k 5 "$LIMIT" "$SANITIZER" $args "$exe" > "$OUTDIR/logs/$n.$tool.log" 2>&1
  fi
  local rc=$?
  echo "$rc $(( ($(date +%s%N) - t0) / 1000000 ))" > "$OUTDIR/logs/$n.$tool.rc"
}
export -f build_one run_one

"$SANITIZER" --help > "$OUTDIR/logs/compute-sanitizer-help.txt" 2>&1
ls "$HERE"/*.cu | xargs -P 16 -I{} bash -c 'build_one {}'
for f in "$HERE"/*.cu; do
  n=$(basename "$f" .cu)
  for tool in plain racecheck synccheck racecheck-info synccheck-G; do echo "$n $tool"; done
done | xargs -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1"'
"$(command -v python3)" "$HERE/collect.py" "$HERE" "$OUTDIR/logs" "$OUTDIR/sanitizer-h200.tsv" "${VERSIONS:-}"
