#!/usr/bin/env bash
# On the device machine: build ggml-patterns.cu for sm_90, show its barriers
# in SASS, run it plainly and under compute-sanitizer's synccheck and
# racecheck. Output to ${OUT:-.}/h200.txt.
set -u
cd "$(dirname "$0")"
out=${OUT:-.}/h200.txt
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  nvcc -arch=sm_90 -lineinfo -o /tmp/ggml-patterns ggml-patterns.cu || exit 1
  echo "== SASS barriers per kernel"
  cuobjdump -sass /tmp/ggml-patterns | grep -E 'Function|BAR|WARPSYNC' | sed 's/^ *//'
  echo "== plain run"
  /tmp/ggml-patterns
  for tool in synccheck racecheck; do
    echo "== compute-sanitizer --tool $tool"
    compute-sanitizer --tool "$tool" /tmp/ggml-patterns 2>&1 | tail -25
  done
} > "$out" 2>&1
cat "$out"
