#!/usr/bin/env bash
# LDGSTS (cp.async) shared wavefronts on the GPU machine:
#   bench/gpu/ldgsts/run.sh OUTDIR
# Writes OUTDIR/patterns.tsv, sass.txt, metrics.txt (the LDGSTS metrics this
# ncu has), ncu.csv (per-launch metrics), src-*.csv (the source page of the
# first launches, to check the per-launch metrics against), versions.txt and
# ldgsts-h200.tsv (collect.py; committed as test/calibration/ldgsts-h200.tsv).
# One warp per launch, about 400 launches, about two minutes on an H200.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
"$PYTHON" "$HERE/gen.py" . || exit 1
cp "$HERE/ldgsts.cu" .
"$NVCC" -arch=sm_90 -O3 -lineinfo -o ldg ldgsts.cu || exit 1
"$CUOBJDUMP" -sass ldg | grep -oE 'Function : \S+|\bLDGSTS(\.[A-Z0-9_]+)*' > sass.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$NCU" --version | tail -1; } > versions.txt 2>&1
./ldg > plain.txt 2>&1; echo "plain rc=$?"
# The per-instruction (SASS-patched) shared wavefronts: the per-kernel
# l1tex counters lump LDGSTS with an overhead and miss the .BYPASS form.
"$NCU" --query-metrics --chip gh100 > all-metrics.txt 2>&1
M=
for m in smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared \
         smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_ideal \
         smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts \
         smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts \
         smsp__sass_inst_executed_op_ldgsts smsp__inst_executed_op_ldgsts \
         l1tex__data_pipe_lsu_wavefronts_mem_shared; do
  grep -q "^$m\b" all-metrics.txt && M="$M${M:+,}$m.sum"
done
echo "$M" | tr ',' '\n' > metrics.txt
timeout 300 "$NCU" --clock-control none --csv --metrics "$M" ./ldg > ncu.csv 2> ncu.err
echo "ncu rc=$?"
# The source page of the first 40 launches: its per-instruction wavefronts
# must equal the per-launch metrics (collect.py checks).
timeout 200 "$NCU" --clock-control none --section SourceCounters -c 40 -f -o src ./ldg > /dev/null 2>&1
timeout 100 "$NCU" -i src.ncu-rep --csv --page source --print-source sass > src-sass.csv 2> src.err
"$PYTHON" "$HERE/collect.py" patterns.tsv ncu.csv src-sass.csv sass.txt versions.txt > ldgsts-h200.tsv
echo "rows: $(grep -v '^#' ldgsts-h200.tsv | tail -n +2 | wc -l)"
