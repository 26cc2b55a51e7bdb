#!/usr/bin/env bash
# CUB's BlockExchange<int, 128, 4> on the GPU: which shared instructions nvcc
# makes of its per-thread items, and the wavefronts they cost
# (docs/evaluation.md, "What the CUB run shows"). Needs nvcc, cuobjdump and
# ncu; writes sass.txt and ncu.txt to OUT.
#
#   bench/gpu/cub-exchange/run.sh OUT
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:?usage: run.sh OUT}"
mkdir -p "$OUT"
nvcc -O3 -arch=sm_90 -std=c++17 -o "$OUT/xch" "$HERE/xch.cu"
cuobjdump -sass "$OUT/xch" | grep -E "Function|STS|LDS" > "$OUT/sass.txt"
ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum \
  "$OUT/xch" > "$OUT/ncu.txt" 2>&1
cat "$OUT/sass.txt"
grep -E "\(int \*\)|shared" "$OUT/ncu.txt"
