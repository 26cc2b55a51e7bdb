#!/usr/bin/env bash
# Whether the issue-22 patterns in shapes.cu are real, on the GPU machine:
#   bench/gpu/shape-facts/run.sh OUTDIR
# Writes OUTDIR/{versions.txt,racecheck-*.txt,memcheck-*.txt}: compute-
# sanitizer's racecheck on the race kernels and memcheck on the bounds ones,
# 4 blocks each (summarised in h200-shape-facts.txt here).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$SANITIZER" --version | head -2; } > versions.txt 2>&1
"$NVCC" -arch=sm_90 -O3 -lineinfo -std=c++17 -o shapes "$HERE/shapes.cu" || exit 1
for k in warRace warFixed exitRace exitFixed; do
  timeout 120 "$SANITIZER" --tool racecheck --racecheck-report all ./shapes $k 4 > racecheck-$k.txt 2>&1
done
for k in linearOob linearFits; do
  timeout 120 "$SANITIZER" --tool memcheck ./shapes $k 4 > memcheck-$k.txt 2>&1
done
