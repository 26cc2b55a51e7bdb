#!/usr/bin/env bash
# fattn's Q quantization (fattn-quantize.cu) under compute-sanitizer's
# racecheck, on the GPU machine: bench/gpu/triage/run-fattn-quantize.sh
# [OUTDIR]. Writes OUTDIR/h200-fattn-quantize.txt (committed here).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:-.}
mkdir -p "$OUT"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$NVCC" --version | tail -1
  "$NVCC" -arch=sm_90 -lineinfo -o /tmp/fattn-quantize \
    "$HERE/fattn-quantize.cu" || exit 1
  echo "== plain run"
  /tmp/fattn-quantize
  for k in unguarded guarded; do
    echo "== compute-sanitizer --tool racecheck --racecheck-report all $k"
    "$SANITIZER" --tool racecheck --racecheck-report all /tmp/fattn-quantize \
      $k 2>&1 |
      grep -E "hazard|RACECHECK SUMMARY|: no error" | sort | uniq -c | head -12
  done
} > "$OUT/h200-fattn-quantize.txt" 2>&1
cat "$OUT/h200-fattn-quantize.txt"
