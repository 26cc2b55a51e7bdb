#!/usr/bin/env bash
# Global-load coalescing calibration. On the GPU machine:
#   bench/gpu/coalescing/run.sh OUTDIR
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUTDIR=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUTDIR" && cd "$OUTDIR"
"$PYTHON" "$HERE/gen.py" . || exit 1
"$NVCC" -arch=sm_90 -O3 -lineinfo -o coalesce coalesce.cu || exit 1
"$CUOBJDUMP" -sass coalesce > sass.txt
timeout 300 "$NCU" --clock-control none --csv \
  --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_ld.sum \
  ./coalesce > ncu.csv 2> ncu.err
echo "ncu rc=$?"
"$PYTHON" "$HERE/collect.py" patterns.tsv sass.txt ncu.csv "${VERSIONS:-}" h200-global-sectors.tsv
