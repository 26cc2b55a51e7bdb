#!/usr/bin/env bash
# ggml's whole CUDA backend, as a CI job would lint it (issue #20): every
# .cu of src/ggml-cuda, template instances included, with JOBS processes
# at a time, three ways: clang-tidy with no check, the shmem-lint driver,
# and clang-tidy with the shmem-* checks (the tidy module). Prints the
# wall time, the CPU time (user + system of every process) and the largest
# process's peak memory of each, and the ratios to clang-tidy with no
# check.
#
#   bench/perf/ggml-backend.sh [--build DIR] [GGML_DIR] [OUT]
#
# GGML_DIR defaults to a shallow clone of github.com/ggml-org/ggml made in
# OUT (fetched at run time, never committed); OUT (default
# /tmp/ggml-backend) also gets each command's /usr/bin/time -v output.
# Environment: JOBS (default 2), CUDA_PATH (default /usr/local/cuda),
# LIMIT=N: the first N files only (a quick look; the figures are not the
# backend's).
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../build
if [ "${1:-}" = --build ]; then
  build=$2
  shift 2
fi
out=${2:-/tmp/ggml-backend}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ggml=${1:-}
if [ -z "$ggml" ]; then
  ggml=$out/ggml
  [ -d "$ggml/src/ggml-cuda" ] ||
    git clone -q --depth 1 https://github.com/ggml-org/ggml "$ggml" ||
    { echo "ggml-backend.sh: cannot fetch ggml; pass a checkout" >&2; exit 2; }
fi
ggml=$(cd "$ggml" && pwd)
[ -d "$ggml/src/ggml-cuda" ] ||
  { echo "ggml-backend.sh: no src/ggml-cuda in $ggml" >&2; exit 2; }
jobs=${JOBS:-2}
cuda=${CUDA_PATH:-/usr/local/cuda}
lint=$(cd "$build" && pwd)/bin/shmem-lint
[ -x "$lint" ] || { echo "ggml-backend.sh: no $lint; build first" >&2; exit 2; }
plugin=$("$lint" --print-tidy-plugin)
tidy=${TIDY:-clang-tidy-22}
source "$here/flags.sh" # DEV_FLAGS, NOCHECK
flags=(-Iinclude -Isrc -Isrc/ggml-cuda -std=c++17 -DGGML_USE_CUDA
       -DGGML_CUDA_PEER_MAX_BATCH_SIZE=128 -DGGML_CUDA_USE_GRAPHS
       -DGGML_SCHED_MAX_COPIES=4 -isystem "$cuda/include/cccl")
cd "$ggml" || exit 2
find src/ggml-cuda -name '*.cu' | sort | head -n "${LIMIT:-100000}" \
  > "$out/files.txt"
echo "ggml $(git rev-parse --short HEAD 2>/dev/null || echo '?'):" \
  "$(wc -l < "$out/files.txt") files, $jobs at a time"

# One clang-tidy per file, JOBS at a time, the whole run under one
# /usr/bin/time: its user and system times include the children's.
tidy_all() { # NAME CHECKS [--load=PLUGIN]
  local name=$1 checks=$2
  shift 2
  # (-I takes a name of its own: `{}` would replace --config={} too.)
  /usr/bin/time -v -o "$out/$name.time" \
    xargs -a "$out/files.txt" -P "$jobs" -I@FILE@ \
    "$tidy" --config={} "$@" "--checks=$checks" @FILE@ -- \
    "${DEV_FLAGS[@]}" "--cuda-path=$cuda" "${flags[@]}" \
    > "$out/$name.out" 2>&1 ||
    { echo "ggml-backend.sh: clang-tidy failed ($name): $out/$name.out" >&2
      exit 1; }
}
tidy_all tidy0 "$NOCHECK"
tidy_all tidy-shmem '-*,shmem-*' "--load=$plugin"
/usr/bin/time -v -o "$out/driver.time" \
  "$lint" --no-config --no-progress --exit-zero -j "$jobs" --format=json \
  --cuda-path="$cuda" -o "$out/findings.json" $(cat "$out/files.txt") \
  -- "${flags[@]}" > "$out/driver.out" 2>&1

python3 - "$out" <<'EOF'
import re, sys
out = sys.argv[1]


def read(name):
    t = open(f"{out}/{name}.time").read()
    num = lambda key: float(re.search(key + r": ([0-9.]+)", t).group(1))
    clock = re.search(r"wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t)
    h, m, s = (["0", "0"] + clock.group(1).split(":"))[-3:]
    wall = int(h) * 3600 + int(m) * 60 + float(s)
    cpu = num(r"User time \(seconds\)") + num(r"System time \(seconds\)")
    return wall, cpu, num(r"Maximum resident set size \(kbytes\)") / 1024


base = read("tidy0")
print("| command | wall s | CPU s | largest process MB | wall | CPU |")
print("| --- | --- | --- | --- | --- | --- |")
for name, label in (("tidy0", "clang-tidy, no check"),
                    ("tidy-shmem", "clang-tidy, shmem-*"),
                    ("driver", "shmem-lint driver")):
    w, c, m = read(name)
    print(f"| {label} | {w:.0f} | {c:.0f} | {m:.0f} "
          f"| {w / base[0]:.2f}x | {c / base[1]:.2f}x |")
EOF
