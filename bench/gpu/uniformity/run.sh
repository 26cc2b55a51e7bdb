#!/usr/bin/env bash
# Whether the barriers of uniformity.cu are reached by every thread, on the
# GPU machine:
#   bench/gpu/uniformity/run.sh OUTDIR
# Writes OUTDIR/{versions.txt,synccheck-*.txt,native.txt}: compute-
# sanitizer's synccheck on each kernel, 8 blocks of 64 threads, and the
# kernels the rules must still report run without it, one block, under a
# 20-second timeout (a divergent barrier may hang; summarised in
# h200-uniformity.txt here).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$SANITIZER" --version | head -2; } > versions.txt 2>&1
"$NVCC" -arch=sm_90 -O3 -lineinfo -std=c++17 -o uniformity \
  "$HERE/uniformity.cu" || exit 1
for k in shifted viaAsm gridLoop; do
  timeout 120 "$SANITIZER" --tool synccheck ./uniformity $k \
    > synccheck-$k.txt 2>&1
done
for k in otherShift laneAsm; do
  timeout 60 "$SANITIZER" --tool synccheck ./uniformity $k 1 \
    > synccheck-$k.txt 2>&1
  echo "synccheck $k: exit $?" >> synccheck-$k.txt
done
for k in shifted viaAsm otherShift laneAsm; do
  timeout 20 ./uniformity $k 1
  echo "$k: exit $?"
done > native.txt 2>&1
