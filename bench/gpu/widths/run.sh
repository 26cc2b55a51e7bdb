#!/usr/bin/env bash
# What nvcc emits for a thread's adjacent shared accesses, what LDGSTS
# stores cost, and what reading a cp.async destination early does, on the
# GPU machine:   bench/gpu/widths/run.sh OUTDIR
# Writes OUTDIR/{widths.cu,manifest.tsv,sass.txt,ncu.csv,ptx-shared.txt,
# asyncrace.txt,racecheck-*.txt,source-*.csv,versions.txt} and the table
# widths-h200.tsv (committed as test/calibration/widths-h200.tsv).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
"$PYTHON" "$HERE/gen.py" widths.cu manifest.tsv
"$NVCC" -arch=sm_90 -O3 -lineinfo -o w widths.cu || exit 1
"$NVCC" -arch=sm_90 -O3 -lineinfo --ptx -o widths.ptx widths.cu
"$CUOBJDUMP" -sass w | grep -oE 'Function : \S+|\b(LDS|STS|LDGSTS|LDSM|STSM)(\.[A-Z0-9_]+)*' > sass.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$NCU" --version | tail -1; } > versions.txt 2>&1
"$NCU" --query-metrics 2>/dev/null | grep -iE 'ldgsts|shared' > metrics-available.txt
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
timeout 400 "$NCU" --clock-control none --csv --metrics "$M" ./w > ncu.csv 2> ncu.err
echo "ncu rc=$?"
# A source-page CSV (SourceCounters) for --ncu-report's tests.
timeout 60 "$NCU" --clock-control none --section SourceCounters -k regex:'mw84|cpt_32' -o src -f ./w > /dev/null 2>&1
for p in cuda sass cuda,sass; do
  timeout 60 "$NCU" --import src.ncu-rep --page source --csv --print-source=$p > "source-${p/,/-}.csv" 2> "source-${p/,/-}.err"
done
timeout 60 "$NCU" --import src.ncu-rep --page details --csv > details.csv 2>&1
# Reads of async-copy destinations.
"$NVCC" -arch=sm_90 -O3 -lineinfo -o ar "$HERE/asyncrace.cu" || exit 1
./ar 4096 50 > asyncrace.txt 2>&1
for k in ownNoWait ownWaited barrierBeforeWait waitThenBarrier waitNoBarrier twoStagesEarly twoStagesWaited pipelineEarly pipelineWaited pipelineSecondStageEarly; do
  timeout 120 "$SANITIZER" --tool racecheck --racecheck-report all ./ar 16 1 $k > racecheck-$k.txt 2>&1
done
# Loops without #pragma unroll: does nvcc unroll and merge them?
"$NVCC" -arch=sm_90 -O3 -lineinfo -o loops "$HERE/loops.cu" || exit 1
"$CUOBJDUMP" -sass loops | grep -oE 'Function : \S+|\bLDS(\.[A-Z0-9_]+)*' > loops-sass.txt
timeout 120 "$NCU" --clock-control none --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum ./loops > loops-ncu.csv 2>&1
"$PYTHON" "$HERE/collect.py" manifest.tsv ncu.csv sass.txt versions.txt > widths-h200.tsv
echo "rows: $(grep -v '^#' widths-h200.tsv | tail -n +2 | wc -l)"
