#!/usr/bin/env bash
# The mmf one-warp epilogue (mmf-one-warp.cu) under compute-sanitizer's
# racecheck, on the GPU machine: bench/gpu/triage/run-mmf.sh [OUTDIR].
# Writes OUTDIR/h200-mmf.txt (committed here as h200-mmf.txt).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:-.}
mkdir -p "$OUT"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$NVCC" --version | tail -1
  "$NVCC" -arch=sm_90 -lineinfo -o /tmp/mmf-one-warp "$HERE/mmf-one-warp.cu" ||
    exit 1
  echo "== plain run"
  /tmp/mmf-one-warp
  for k in oneWarp synced; do
    echo "== compute-sanitizer --tool racecheck --racecheck-report all $k"
    "$SANITIZER" --tool racecheck --racecheck-report all /tmp/mmf-one-warp $k 2>&1 |
      grep -E "hazard|Race reported|RACECHECK SUMMARY|ERROR SUMMARY|: no error" |
      sort | uniq -c | head -20
  done
} > "$OUT/h200-mmf.txt" 2>&1
cat "$OUT/h200-mmf.txt"
