#!/usr/bin/env bash
# Shared-memory wavefront calibration. Run on a machine with the GPU:
#   bench/gpu/calibration/run.sh OUTDIR [CHUNK]
# Writes to OUTDIR: calib.cu, patterns.tsv, sass.txt, offsets_observed.tsv,
# ncu-*.csv, versions.txt, timing.log and h200-shared-wavefronts.tsv.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
OUTDIR=${1:?usage: run.sh OUTDIR [CHUNK]}
CHUNK=${2:-120}
NCU_DEADLINE=${NCU_DEADLINE:-0}   # epoch seconds after which no new ncu chunk starts
mkdir -p "$OUTDIR"
cd "$OUTDIR"
log() { echo "[$(date +%T)] $*" | tee -a timing.log; }

log "generate"
"$PYTHON" "$HERE/gen.py" . || exit 1
log "compile"
"$NVCC" -arch=sm_90 -O3 -lineinfo -o calib calib.cu || exit 1
"$CUOBJDUMP" -sass calib > sass.txt
log "dump offsets"
./calib --dump > offsets_observed.tsv 2> dump.err || cat dump.err
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  "$NVCC" --version
  "$NCU" --version
  "$CUOBJDUMP" --version
  uname -a
} > versions.txt 2>&1

NK=$(grep -c '^  {"' calib.cu)
REQ=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
EXTRA=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
FALLBACK=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
METRICS=
for M in "$REQ,$EXTRA" "$REQ" "$FALLBACK"; do
  timeout 120 "$NCU" --clock-control none --metrics "$M" --csv --launch-skip 0 --launch-count 2 ./calib \
    > ncu-probe.csv 2> ncu-probe.err
  rc=$?
  if [ $rc -eq 0 ] && grep -q '"Metric Value"' ncu-probe.csv && ! grep -qi 'n/a\|error' ncu-probe.csv; then
    METRICS=$M; break
  fi
  log "metric set rejected (rc=$rc): $M"; head -5 ncu-probe.err ncu-probe.csv | tee -a timing.log
done
[ -n "$METRICS" ] || { log "no metric set works"; METRICS=$REQ; }
log "metrics: $METRICS"
i=0
while [ $i -lt "$NK" ]; do
  if [ "$NCU_DEADLINE" -gt 0 ] && [ "$(date +%s)" -ge "$NCU_DEADLINE" ]; then
    log "deadline: stop before launch $i of $NK"; break
  fi
  log "ncu launches $i..$((i + CHUNK - 1)) of $NK"
  left=600
  [ "$NCU_DEADLINE" -gt 0 ] && left=$(( NCU_DEADLINE - $(date +%s) + 30 ))
  timeout "$left" "$NCU" --clock-control none --metrics "$METRICS" --csv \
    --launch-skip "$i" --launch-count "$CHUNK" ./calib \
    > "ncu-$(printf %03d $i).csv" 2> "ncu-$(printf %03d $i).err"
  log "ncu rc=$?"
  i=$((i + CHUNK))
done
log "collect"
"$PYTHON" "$HERE/collect.py" --patterns patterns.tsv --sass sass.txt \
  $(for f in ncu-*.csv; do echo --ncu "$f"; done) --offsets offsets_observed.tsv \
  --versions versions.txt --out h200-shared-wavefronts.tsv 2> collect.err
tail -3 collect.err
log "done"
