#!/usr/bin/env bash
# TMA tiles with swizzle modes on the GPU machine:
#   bench/gpu/tma/run.sh OUTDIR
# Writes OUTDIR/{versions.txt,build.txt,<test>.txt,tma-layout.tsv,
# racecheck-<test>.txt,ncu-<test>.txt,ncu-<test>-sass.csv,
# ncu-<test>.ncu-rep,sass.txt,sass-lines.txt}: each test's own output (one
# process per test, so a faulting one cannot spoil the next), the layout
# probe's table, compute-sanitizer's racecheck on the read kernels (4
# blocks), and ncu's per-instruction shared-load wavefronts for the two
# bank kernels (README.md says what each holds).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../env.sh"
NVDISASM=${NVDISASM:-$(find_tool nvdisasm)}
OUT=${1:?usage: run.sh OUTDIR}
mkdir -p "$OUT"
cd "$OUT"
OUT=$(pwd)
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  "$NVCC" --version | tail -2
  "$SANITIZER" --version | head -2
  "$NCU" --version | tail -1; } > versions.txt 2>&1
# The stubs directory lets -lcuda link where no driver is installed; the
# binary still loads the driver's libcuda.so.1 at run time.
"$NVCC" -arch=sm_90a -O3 -lineinfo -std=c++17 -o tma "$HERE/tma.cu" \
  -L/usr/local/cuda/lib64/stubs -lcuda > build.txt 2>&1 || { cat build.txt; exit 1; }

# tma-layout.tsv is written by `layout` into the current directory, OUTDIR.
for t in layout misaligned readPlain readSwizzled noWait waitThenSync bankPlain bankSwizzled \
         readWrongMask readElementXor readGlobalMap placement \
         pipelineReleased pipelineNoRelease; do
  timeout 120 ./tma $t > $t.txt 2>&1
  echo "rc=$?" >> $t.txt
done

for t in noWait readSwizzled waitThenSync pipelineNoRelease; do
  timeout 120 "$SANITIZER" --tool racecheck --racecheck-report all ./tma $t 4 > racecheck-$t.txt 2>&1
done

# SASS with source lines, to map the source page's instructions to lines.
"$CUOBJDUMP" -sass tma | grep -oE 'Function : \S+|\b(LDS|STS|SYNCS|UTMALDG|UBLKCP|BAR|FENCE)(\.[A-Z0-9_:]+)*' > sass.txt 2>&1
d=$(mktemp -d)
(cd "$d" && "$CUOBJDUMP" -xelf all "$OUT/tma" > /dev/null 2>&1
 for c in *.cubin; do [ -f "$c" ] && "$NVDISASM" -g -c "$c"; done) > sass-lines.txt 2>&1
rm -rf "$d"

# Per-kernel totals (--print-details all) and, from the SourceCounters
# section, per-SASS-instruction `L1 Wavefronts Shared` (and ideal) on the
# source page; the .ncu-rep keeps everything for a later `ncu -i`.
M=smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
for t in bankPlain bankSwizzled; do
  timeout 120 "$NCU" --clock-control none --section SourceCounters --metrics "$M" \
    --import-source yes -f -o ncu-$t ./tma $t > ncu-$t.log 2>&1
  [ -f ncu-$t.ncu-rep ] || { cp ncu-$t.log ncu-$t.txt; continue; }
  "$NCU" -i ncu-$t.ncu-rep --print-details all > ncu-$t.txt 2>&1
  "$NCU" -i ncu-$t.ncu-rep --csv --page source --print-source sass > ncu-$t-sass.csv 2>&1
  "$NCU" -i ncu-$t.ncu-rep --csv --page source --print-source cuda,sass > ncu-$t-cuda-sass.csv 2>&1
done
ls -l
