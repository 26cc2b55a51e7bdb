#!/usr/bin/env bash
# On the device machine: build fixes.cu for sm_90, check that the swizzle
# fix-it keeps every value, measure the shared-memory wavefronts of both
# kernels with ncu, and run racecheck; then the barrier fix-its of
# barriers.cu before and after, values checked, under racecheck and
# synccheck. Output to ${OUT:-.}/h200.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
out=${OUT:-.}/h200.txt
bin=/tmp/fixes
{
  "$NVCC" -arch=sm_90 -lineinfo -o $bin "$here/fixes.cu" || exit 1
  $bin
  M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
  timeout 120 "$NCU" --clock-control none --csv --metrics "$M" $bin 2>&1 | grep -E '^"' | cut -d, -f5,13- 
  echo "-- compute-sanitizer --tool racecheck"
  timeout 60 "$SANITIZER" --tool racecheck $bin 2>&1 | tail -3
  echo "== barrier fix-its (barriers.cu), before and after"
  "$NVCC" -arch=sm_90 -lineinfo -o /tmp/barriers "$here/barriers.cu" || exit 1
  for k in exchange tiles trailing halfWarp oneWarp divergent; do
    for v in Before After; do
      timeout 60 /tmp/barriers $k$v
      echo "-- racecheck $k$v"
      timeout 60 "$SANITIZER" --tool racecheck --racecheck-report all \
        /tmp/barriers $k$v 16 1 2>&1 | tail -2
      echo "-- synccheck $k$v"
      timeout 60 "$SANITIZER" --tool synccheck /tmp/barriers $k$v 16 1 2>&1 |
        grep -E 'Barrier error|ERROR SUMMARY: [0-9]+ errors?$' | sort | uniq -c
    done
  done
} > "$out" 2>&1
cat "$out"
