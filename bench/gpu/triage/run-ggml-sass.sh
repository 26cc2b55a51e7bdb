#!/usr/bin/env bash
# What ptxas makes of ggml's own shared accesses, for the widths behind
# the bank findings of its whole-backend triage. On the GPU machine:
#   bench/gpu/triage/run-ggml-sass.sh PTXDIR [OUTDIR]
# PTXDIR holds PTX that nvcc made here from ggml's template instances
# (ggml is never committed; docs/evaluation.md gives the commands):
#   nvcc -arch=sm_90 -lineinfo -ptx --extended-lambda -std=c++17 -Iinclude
#        -Isrc -Isrc/ggml-cuda -DGGML_USE_CUDA -o NAME.ptx INSTANCE.cu
# For each, ptxas for sm_90 and nvdisasm with line information give the
# count of each shared-memory instruction per source line. Writes
# OUTDIR/h200-ggml-sass.txt, committed here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
PTXDIR=${1:?usage: run-ggml-sass.sh PTXDIR [OUTDIR]}
OUT=${2:-.}
mkdir -p "$OUT"
{
  "$PTXAS" --version | tail -1
  for p in "$PTXDIR"/*.ptx; do
    n=$(basename "$p" .ptx)
    echo "== $n: shared-memory instructions per source line (count, file:line, opcode)"
    "$PTXAS" -arch=sm_90 -lineinfo -o "/tmp/$n.cubin" "$p" || continue
    "$NVDISASM" -g -c "/tmp/$n.cubin" |
      awk '/\/\/## File/ {
             f = $0; sub(/.*File "/, "", f); sub(/",.*/, "", f)
             sub(/.*\//, "", f)
             # The line of the innermost code, not "inlined at" lines.
             match($0, /line [0-9]+/)
             at = f ":" substr($0, RSTART + 5, RLENGTH - 5) }
           /[^A-Z](LDS|STS|LDSM|LDGSTS)(\.[A-Z0-9.]+)?[ ;]/ {
             if (match($0, /(LDS|STS|LDSM|LDGSTS)(\.[A-Z0-9.]+)?/))
               print at, substr($0, RSTART, RLENGTH) }' |
      sort | uniq -c | sort -k2,2 -k3,3
  done
} > "$OUT/h200-ggml-sass.txt" 2>&1
cat "$OUT/h200-ggml-sass.txt"
