#!/usr/bin/env bash
# CPU time, peak memory and findings of the driver, and of clang-tidy with
# one cheap check, on one ggml CUDA file (issue #20): the flags are
# bench/corpus/run.sh's for ggml. Nothing is fetched: pass a ggml checkout.
#
#   bench/perf/ggml-file.sh [--build DIR] [--no-tidy] GGML_DIR [FILE] [OUT]
#
# FILE (relative to GGML_DIR) defaults to the heaviest flash-attention
# instance; OUT (default /tmp/ggml-file) gets findings.json and the
# /usr/bin/time -v output of each command.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../build
tidy=1
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$2; shift 2 ;;
  --no-tidy) tidy=0; shift ;;
  *) break ;;
  esac
done
[ $# -ge 1 ] || { sed -n 2,10p "$0"; exit 2; }
ggml=$(cd "$1" && pwd)
file=${2:-src/ggml-cuda/template-instances/fattn-mma-f16-instance-ncols1_1-ncols2_8.cu}
out=${3:-/tmp/ggml-file}
cuda=${CUDA_PATH:-/usr/local/cuda}
lint=$(cd "$build" && pwd)/bin/shmem-lint
mkdir -p "$out"
flags=(-Iinclude -Isrc -Isrc/ggml-cuda -std=c++17 -DGGML_USE_CUDA
       -DGGML_CUDA_PEER_MAX_BATCH_SIZE=128 -DGGML_CUDA_USE_GRAPHS
       -DGGML_SCHED_MAX_COPIES=4 -isystem "$cuda/include/cccl")
cd "$ggml" || exit 2
report() { # NAME TIMEFILE
  awk -v n="$1" -F': ' '/User time/ {u=$2} /System time/ {s=$2}
    /Maximum resident/ {m=$2}
    END {printf "%s: CPU %.1f s, peak RSS %.0f MB\n", n, u+s, m/1024}' "$2"
}
/usr/bin/time -v "$lint" --no-config --no-progress --exit-zero \
  --format=json --cuda-path="$cuda" -o "$out/findings.json" "$file" \
  -- "${flags[@]}" 2> "$out/driver.time"
report "shmem-lint" "$out/driver.time"
if [ "$tidy" = 1 ]; then
  # objc-forbidden-subclassing registers matchers for Objective-C only:
  # parse, AST and match finder with no check (docs/performance.md).
  /usr/bin/time -v clang-tidy-22 --config={} \
    --checks='-*,objc-forbidden-subclassing' "$file" -- -x cuda \
    --cuda-device-only --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version -w \
    --cuda-path="$cuda" "${flags[@]}" > /dev/null 2> "$out/tidy.time"
  report "clang-tidy, one cheap check" "$out/tidy.time"
fi
