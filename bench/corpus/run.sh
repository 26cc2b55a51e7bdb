#!/usr/bin/env bash
# Runs shmem-lint over a corpus of public CUDA code kept outside this
# repository and prints the figures docs/evaluation.md records: files
# analysed and not (with clang's first error for each), kernels, shared
# accesses, crashes and findings by check.
#
#   bench/corpus/run.sh NAME DIR [OUTDIR]
#
# NAME picks the files and compiler flags of one project:
#   cuda-samples  github.com/NVIDIA/cuda-samples
#   ggml          github.com/ggml-org/ggml (src/ggml-cuda, as in llama.cpp)
#   rodinia       github.com/yuhc/gpu-rodinia (cuda/)
#   cub           a TU of ours instantiating CUB's block primitives
#                 (bench/corpus/cub_blocks.cu); DIR is ignored
# OUTDIR (default /tmp/shmem-corpus-NAME) receives findings.json, the
# driver's stderr and the file list.
#
# Environment: SHMEM_LINT (default build/bin/shmem-lint), JOBS (default 2),
# CUDA (default /usr/local/cuda), GGML_ALL=1 (ggml: every .cu file),
# TIME_ROUNDS=N: also time clang-tidy with no check, with
# shmem-bank-conflict and with shmem-* on every file, round-robin, N rounds
# (bench/perf/interleave.py), and print the summed medians: what the checks
# cost on real code (docs/performance.md).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=${1:?usage: run.sh NAME DIR [OUTDIR]}
dir=${2:?usage: run.sh NAME DIR [OUTDIR]}
out=${3:-/tmp/shmem-corpus-$name}
lint=${SHMEM_LINT:-$root/build/bin/shmem-lint}
jobs=${JOBS:-2}
cuda=${CUDA:-/usr/local/cuda}
mkdir -p "$out"
out=$(cd "$out" && pwd)
lint=$(cd "$(dirname "$lint")" && pwd)/$(basename "$lint")

case "$name" in
cuda-samples)
  # Every .cu that declares shared memory; the samples' helpers in Common/.
  cd "$dir" && grep -rl __shared__ --include='*.cu' . | sort > "$out/files.txt"
  flags=(-ICommon -std=c++17 -isystem "$cuda/include/cccl") ;;
ggml)
  # The .cu files of the CUDA backend that declare shared memory, with the
  # definitions ggml's CMake build passes by default. GGML_ALL=1 takes
  # every .cu instead, the 120 template instances (flash attention, mmq,
  # mmf) included: 186 files, 11-13 minutes on two cores (docs/evaluation.md).
  cd "$dir" && {
    if [ "${GGML_ALL:-0}" = 1 ]; then
      find src/ggml-cuda -name '*.cu'
    else
      grep -l __shared__ $(find src/ggml-cuda -name '*.cu' -not -path '*/template-instances/*')
    fi
  } | sort > "$out/files.txt"
  flags=(-Iinclude -Isrc -Isrc/ggml-cuda -std=c++17 -DGGML_USE_CUDA
         -DGGML_CUDA_PEER_MAX_BATCH_SIZE=128 -DGGML_CUDA_USE_GRAPHS
         -DGGML_SCHED_MAX_COPIES=4 -isystem "$cuda/include/cccl") ;;
rodinia)
  # Every .cu but those another .cu #includes: most benchmarks include
  # their kernel file into the main one, which defines its types and macros
  # and launches it with its block shape.
  cd "$dir" && find cuda -name '*.cu' | sort > "$out/all.txt"
  while read -r f; do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^">]*\.cu\)[">].*/\1/p' "$f" |
      while read -r inc; do
        [ -f "$(dirname "$f")/$inc" ] && realpath -m --relative-to=. "$(dirname "$f")/$inc"
      done
  done < "$out/all.txt" | sort -u > "$out/included.txt"
  grep -vxFf "$out/included.txt" "$out/all.txt" > "$out/files.txt"
  # What CUDA 12 and 13 removed from the host API the benchmarks use:
  # cudaThreadSynchronize() and cudaThreadExit() were aliases of the
  # cudaDevice ones; the cudaDeviceProp fields are only printed or tested by
  # host code, so any int field does for parsing.
  flags=(-std=c++14 -Icommon -Icuda/lud/common -Icuda/mummergpu/src
         -DcudaThreadSynchronize=cudaDeviceSynchronize
         -DcudaThreadExit=cudaDeviceReset
         -DdeviceOverlap=asyncEngineCount -DclockRate=multiProcessorCount
         -DcomputeMode=major -isystem "$cuda/include/cccl") ;;
cub)
  # CUB's headers as user code (-I, and without CCCL's system_header
  # pragma): findings inside them are reported, not dropped.
  cd "$here" && echo cub_blocks.cu > "$out/files.txt"
  flags=(-std=c++17 -I"$cuda/include/cccl" -D_CCCL_NO_SYSTEM_HEADER) ;;
*) echo "run.sh: unknown corpus '$name'" >&2; exit 2 ;;
esac

mapfile -t files < "$out/files.txt"
echo "$("$lint" --version | head -1); corpus $name in $PWD"
echo "command: cd $PWD && shmem-lint --stats --exit-zero --no-progress -j$jobs --format=json FILES -- ${flags[*]}"

run() { # FILE... : one driver run; findings to findings.json, stderr kept
  "$lint" --stats --exit-zero --no-progress -j"$jobs" --format=json \
    -o "$out/findings.json" "$@" -- "${flags[@]}" 2> "$out/stderr.txt"
}
run "${files[@]}"
rc=$?
crashes=0
if [ "$rc" -ge 128 ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; }; then
  # The driver died: find the files it dies on, one at a time, and run
  # again without them so that the figures cover the rest.
  : > "$out/crashes.txt"
  for f in "${files[@]}"; do
    "$lint" --exit-zero --no-progress "$f" -- "${flags[@]}" >/dev/null 2>&1
    r=$?
    if [ "$r" -ge 128 ] || { [ "$r" -ne 0 ] && [ "$r" -ne 1 ] && [ "$r" -ne 2 ]; }; then
      echo "$f (exit $r)" >> "$out/crashes.txt"
    fi
  done
  crashes=$(wc -l < "$out/crashes.txt")
  mapfile -t files < <(grep -vxFf <(sed 's/ (exit [0-9]*)$//' "$out/crashes.txt") "$out/files.txt")
  run "${files[@]}"
fi

stat() { sed -n "s/^shmem-lint: stats: $1: //p" "$out/stderr.txt" | head -1; }
echo
echo "| $name | count |"
echo "| --- | --- |"
[ -f "$out/included.txt" ] &&
  echo "| .cu files #included by another (analysed through it) | $(wc -l < "$out/included.txt") |"
echo "| files | $(wc -l < "$out/files.txt") |"
echo "| analysed | $(stat 'files analysed') |"
echo "| not parsed by clang | $(stat 'files not analysed') |"
echo "| crashes | $crashes |"
echo "| kernels (instantiations counted once each) | $(stat kernels) |"
echo "| block shapes analysed | $(stat 'block shapes') |"
echo "| shared accesses analysed | $(stat 'shared accesses') |"
echo "| barriers | $(stat barriers) |"
echo "| parts of kernels not analysed (gaps: a search budget reached, an ordering not followed) | $(stat 'parts not analysed') |"
# One line per check, as --stats prints them (every check in the registry).
sed -n 's/^shmem-lint: stats: findings: \(shmem-[a-z-]*\): \(.*\)$/| findings: \1 | \2 |/p' \
  "$out/stderr.txt"
if [ "$crashes" -gt 0 ]; then
  echo; echo "Crashes:"; sed 's/^/- /' "$out/crashes.txt"
fi
# Why each file was not parsed: clang's first error in it (the driver
# prints a file's messages together, in file order).
if [ "$(stat 'files not analysed')" != 0 ]; then
  echo; echo "Not parsed (first error):"
  awk '/ error: / && !/^shmem-lint:/ && !first { first = $0 }
       /shmem-lint: error: .* could not be analysed/ {
         print "- " first; first = "" }' "$out/stderr.txt"
fi

if [ -n "${TIME_ROUNDS:-}" ]; then
  # The device-side flags the driver passes clang, and the toolkit's headers.
  source "$root/bench/perf/flags.sh" # DEV_FLAGS, NOCHECK
  dev=("${DEV_FLAGS[@]}" "--cuda-path=$cuda")
  plugin=$("$lint" --print-tidy-plugin)
  tidy=${TIDY:-clang-tidy-22}
  mkdir -p "$out/time"
  rm -f "$out"/time/*.json
  q() { printf '%q ' "$@"; }
  i=0
  for f in "${files[@]}"; do
    i=$((i + 1))
    python3 "$root/bench/perf/interleave.py" --rounds "$TIME_ROUNDS" \
      --out "$out/time/$i.json" \
      "tidy0=$(q "$tidy" --config={} "--checks=$NOCHECK" "$f" -- "${dev[@]}" "${flags[@]}")" \
      "bank=$(q "$tidy" --config={} "--load=$plugin" '--checks=-*,shmem-bank-conflict' "$f" -- "${dev[@]}" "${flags[@]}")" \
      "all=$(q "$tidy" --config={} "--load=$plugin" '--checks=-*,shmem-*' "$f" -- "${dev[@]}" "${flags[@]}")"
  done
  python3 - "$out/time" <<'EOF'
import glob, json, os, statistics, sys
every = [json.load(open(p))["results"] for p in glob.glob(os.path.join(sys.argv[1], "*.json"))]
# A file clang does not parse makes clang-tidy fail early: not timed.
runs = [r for r in every if all(c["exit_codes"] == [0] for c in r.values())]
tot = {k: sum(r[k]["cpu_median"] for r in runs) for k in ("tidy0", "bank", "all")}
over = lambda k: [(r[k]["cpu_median"] / r["tidy0"]["cpu_median"] - 1) * 100 for r in runs]
print()
if len(runs) < len(every):
    print(f"{len(every) - len(runs)} of {len(every)} files left out: clang-tidy failed on them (not parsed)")
print(f"| clang-tidy on {len(runs)} files (median CPU s, summed) | CPU s | over no check | per file: median, min, max |")
print("|---|---|---|---|")
print(f"| no check | {tot['tidy0']:.2f} | | |")
for k, name in (("bank", "shmem-bank-conflict"), ("all", "shmem-*")):
    o = over(k)
    print(f"| {name} | {tot[k]:.2f} | {(tot[k] / tot['tidy0'] - 1) * 100:+.1f}% "
          f"| {statistics.median(o):+.1f}%, {min(o):+.1f}%, {max(o):+.1f}% |")
EOF
fi
