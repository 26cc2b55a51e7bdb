#!/usr/bin/env bash
# One reduced pattern of ggml's triage on the GPU machine:
#   bench/gpu/triage/run-case.sh CASE [OUTDIR]
# Builds CASE.cu for sm_90, lists its shared-memory instructions (SASS),
# runs every variant plainly, then each under the case's tool: racecheck
# (the hazards it reports) or ncu (shared wavefronts and instructions of
# the variant's one kernel). Writes OUTDIR/GPU-CASE.txt (GPU: h200, h100,
# as nvidia-smi names the card), committed here.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
CASE=${1:?usage: run-case.sh CASE [OUTDIR]}
OUT=${2:-.}
case "$CASE" in
mmf-one-warp) tool=racecheck variants="oneWarp synced" ;;
fattn-quantize) tool=racecheck variants="unguarded guarded" ;;
unrolled-barrier) tool=racecheck variants="skippedInLast skippedInFirst" ;;
fattn-banks)
  tool=ncu
  variants="tileStore tileStorePadded tileLoad tileLoadPadded vecStore
            vecStoreOne metaLoad metaLoadPadded metaStore metaStorePadded" ;;
mmq-nvfp4)
  tool=ncu
  variants="qsStore qsStoreInterleaved qsStoreRows80 dfStore
            dfStoreInterleaved" ;;
cp-async-rows)
  # The per-kernel l1tex counters miss LDGSTS.BYPASS (bench/gpu/ldgsts):
  # the SASS-patched one counts it. ldmatrix's wavefronts are in the l1tex
  # load counter, as bench/gpu/ldmatrix measures them (the SASS-patched
  # totals this case first asked for are n/a on ncu 2025.3).
  tool=ncu
  metrics=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum
  variants="copyPadded copyAligned copySwizzled ldsmPadded ldsmAligned
            ldsmSwizzled" ;;
*) echo "run-case.sh: unknown case '$CASE'" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null |
      grep -oiE 'h[0-9]{3}' | head -1 | tr 'H' 'h')
REPORT="$OUT/${GPU:-gpu}-$CASE.txt"
BIN=/tmp/triage-$CASE
METRICS=${metrics:-l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$NVCC" --version | tail -1
  "$NVCC" -arch=sm_90 -lineinfo -o "$BIN" "$HERE/$CASE.cu" || exit 1
  echo "== SASS shared-memory instructions per kernel"
  "$CUOBJDUMP" -sass "$BIN" | grep -E 'Function|[^A-Z](LDS|STS|LDSM|LDGSTS)[^A-Z]' |
    sed -E 's/^ *//; s/ *\/\*[0-9a-f]*\*\/ *//g; s/ +;/;/'
  echo "== plain run"
  "$BIN"
  for v in $variants; do
    if [ "$tool" = racecheck ]; then
      echo "== compute-sanitizer --tool racecheck --racecheck-report all $v"
      "$SANITIZER" --tool racecheck --racecheck-report all "$BIN" "$v" 2>&1 |
        grep -E "hazard|Race reported|RACECHECK SUMMARY|ERROR SUMMARY|: no error" |
        sort | uniq -c | head -20
    else
      # One kernel per variant: "variant metric value" per line.
      "$NCU" --metrics "$METRICS" --csv "$BIN" "$v" 2>/dev/null |
        awk -F'","' -v v="$v" 'NR > 1 && NF > 5 {
          gsub(/"/, "", $NF); print v, $(NF-2), $NF }'
    fi
  done
} > "$REPORT" 2>&1
cat "$REPORT"
