#!/usr/bin/env bash
# Global-transfer validation for shmem-uncoalesced-transfer. On the GPU machine:
#   bench/gpu/transfer/run.sh OUTDIR
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUTDIR=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUTDIR" && cd "$OUTDIR"
"$PYTHON" "$HERE/gen.py" . || exit 1
"$NVCC" -arch=sm_90 -O3 -lineinfo -o transfer transfer.cu || exit 1
"$CUOBJDUMP" -sass transfer > sass.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
timeout 300 "$NCU" --clock-control none --csv --metrics "$M" ./transfer > ncu.csv 2> ncu.err
echo "ncu rc=$?"
"$PYTHON" "$HERE/collect.py" expect.tsv sass.txt ncu.csv "${VERSIONS:-}" h200-global-transfers.tsv
