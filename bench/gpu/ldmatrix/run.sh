#!/usr/bin/env bash
# ldmatrix/stmatrix wavefronts on the GPU machine:
#   bench/gpu/ldmatrix/run.sh OUTDIR
# Writes OUTDIR/ncu.csv, sass.txt, versions.txt and ldmatrix-h200.tsv (the
# table committed as test/calibration/ldmatrix-h200.tsv). One warp per
# kernel, 144 kernels, about 10 seconds on an H200.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
"$NVCC" -arch=sm_90 -O3 -o ldm "$HERE/ldmatrix.cu" || exit 1
"$CUOBJDUMP" -sass ldm | grep -oE 'Function : \S+|LDSM\S*|STSM\S*|LDS\S*|STS\S*' > sass.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$NCU" --version | tail -1; } > versions.txt 2>&1
# The smsp__sass_* wavefront and instruction counters read 0 for LDSM/STSM;
# the l1tex ones count them (see collect.py).
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum
timeout 200 "$NCU" --clock-control none --csv --metrics "$M" ./ldm > ncu.csv 2> ncu.err
echo "ncu rc=$?"
"$PYTHON" "$HERE/collect.py" ncu.csv sass.txt versions.txt > ldmatrix-h200.tsv
echo "rows: $(grep -v '^#' ldmatrix-h200.tsv | tail -n +2 | wc -l)"
