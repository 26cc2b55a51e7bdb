#!/usr/bin/env bash
# Block cuda::barrier orderings on the GPU machine:
#   bench/gpu/awbarrier/run.sh OUTDIR
# Writes OUTDIR/{awbarrier.txt,racecheck-*.txt,sass.txt,versions.txt}: wrong
# values per kernel over 4096 blocks x 50 launches, compute-sanitizer's
# racecheck on 16 blocks, and the shared and barrier instructions nvcc
# emits (summarised in h200-awbarrier.txt here; README.md says what
# shmem-lint reports).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$SANITIZER" --version | head -2; } > versions.txt 2>&1
"$NVCC" -arch=sm_90 -O3 -lineinfo -std=c++17 -o awb "$HERE/awbarrier.cu" || exit 1
./awb 4096 50 > awbarrier.txt 2>&1
for k in tiled early waited noTrailing trailing split splitEarly; do
  timeout 120 "$SANITIZER" --tool racecheck --racecheck-report all ./awb 16 1 $k > racecheck-$k.txt 2>&1
done
"$CUOBJDUMP" -sass awb | grep -oE 'Function : \S+|\b(LDS|STS|LDGSTS|SYNCS|BAR|LDSM)(\.[A-Z0-9_]+)*' > sass.txt
