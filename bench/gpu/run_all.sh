#!/usr/bin/env bash
# Everything the GPU machine does in one go (one `run` call):
#   bench/gpu/run_all.sh OUTDIR [BUDGET_SECONDS]
# Shared-memory calibration (ncu), global coalescing (ncu), then the sanitizer
# suite; raw outputs are packed into OUTDIR/*.tgz, the tables copied to OUTDIR.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/bench/gpu/env.sh"
OUTDIR=${1:?usage: run_all.sh OUTDIR [BUDGET_SECONDS]}
BUDGET=${2:-560}
START=$(date +%s)
W=${WORKDIR:-/tmp/shmem-lint-gpu}
rm -rf "$W"; mkdir -p "$W" "$OUTDIR"
log() { echo "[$(date +%T) +$(( $(date +%s) - START ))s] $*" | tee -a "$OUTDIR/timing.log"; }

log "tools: nvcc=$NVCC ncu=$NCU cuobjdump=$CUOBJDUMP sanitizer=$SANITIZER python=$PYTHON"
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  "$NVCC" --version
  "$NCU" --version
  "$SANITIZER" --version
  "$CUOBJDUMP" --version
  uname -a
} > "$W/versions.txt" 2>&1
cp "$W/versions.txt" "$OUTDIR/versions.txt"
export VERSIONS="$W/versions.txt"

log "calibration"
NCU_DEADLINE=$(( START + BUDGET * 55 / 100 )) CHUNK=${CHUNK:-70} \
  bash "$ROOT/bench/gpu/calibration/run.sh" "$W/calibration" "${CHUNK:-70}" 2>&1 | tail -n 40
cp "$W/calibration/timing.log" "$OUTDIR/calibration-timing.log" 2>/dev/null
cp "$W/calibration/h200-shared-wavefronts.tsv" "$OUTDIR/" 2>/dev/null
log "coalescing"
bash "$ROOT/bench/gpu/coalescing/run.sh" "$W/coalescing" 2>&1 | tail -n 10
cp "$W/coalescing/h200-global-sectors.tsv" "$OUTDIR/" 2>/dev/null
left=$(( START + BUDGET - $(date +%s) ))
lim=$(( left / 4 )); [ $lim -gt 60 ] && lim=60; [ $lim -lt 10 ] && lim=10
log "sanitizer (limit ${lim}s per run)"
SANITIZER_TIMEOUT=$lim JOBS=12 bash "$ROOT/bench/gpu/sanitizer/run.sh" "$W/sanitizer" 2>&1 | tail -n 10
cp "$W/sanitizer/sanitizer-h200.tsv" "$OUTDIR/" 2>/dev/null
log "pack"
(cd "$W" && tar czf "$OUTDIR/raw.tgz" --exclude=calib --exclude=coalesce --exclude=bin \
   versions.txt calibration coalescing sanitizer)
ls -la "$OUTDIR"
log "done"
