#!/usr/bin/env bash
# shmem-lint speed benchmark, run by hand (see docs/performance.md).
#
#   bench/perf/run.sh [--build DIR] [--out DIR] [--runs N] [--rounds N]
#                     [--timeout S] [--only REGEX] [--no-heavy]
#
# For every generated translation unit (gen.py) it times
#   (1) clang   clang++-22 -fsyntax-only, device side, with the flags the
#               driver uses (-x cuda --cuda-device-only --cuda-gpu-arch=sm_80
#               -Wno-unknown-cuda-version -w and the CUDA header flags)
#   (2) tidy0   clang-tidy-22 with no active check (same flags)
#   (3) tidy    clang-tidy-22 --load=<shmem module> --checks=-*,shmem-*
#   (4) driver  shmem-lint (--cuda-path=none: its own CUDA header; the heavy
#               file and tu200tk: --cuda-path=$CUDA_HOME, the toolkit)
# First each command runs once under /usr/bin/time -v (peak RSS, a warm-up,
# and a check that it compiled); then the four run round-robin
# (interleave.py: A B C D D C B A ...) --runs times, and the median of
# user+system CPU time is kept. Commands over 10 s run 3 times.
# Once more with clang-tidy's --enable-check-profile for the time spent
# inside the shmem-* checks alone, and once with shmem-lint --verbose for
# the statistics. The benchmark TU (tu200; tu200tk is the same file with the
# toolkit's headers) and the heavy-header TU are timed
# with --rounds rounds (heavy: half as many) and two more variants: (3b)
# only shmem-bank-conflict, (2b) the module loaded but no shmem-* check.
# bench/perf/report.py turns the results into the markdown tables of
# docs/performance.md (written to OUT/report.md).
#
# A command that runs longer than --timeout seconds (wall clock, default 120)
# is killed and reported as such; in a scaling series the larger sizes are
# then skipped for that command.
#
# Defaults: --build <repo>/build, --out bench/perf/out (git-ignored),
# --runs 5, --rounds 11.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BUILD="$REPO/build"
OUT="$HERE/out"
RUNS=5
ROUNDS=11
TIMEOUT=120
ONLY=""
HEAVY=1
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"

while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD="$(cd "$2" && pwd)"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --no-heavy) HEAVY=0; shift ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

LINT="$BUILD/bin/shmem-lint"
CLANG="${CLANG:-clang++-22}"
TIDY="${TIDY:-clang-tidy-22}"
[ -x "$LINT" ] || { echo "run.sh: no $LINT (build first)" >&2; exit 2; }
command -v "$CLANG" >/dev/null || { echo "run.sh: no $CLANG" >&2; exit 2; }
command -v "$TIDY" >/dev/null || { echo "run.sh: no $TIDY" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run.sh: no /usr/bin/time (apt-get install -y time)" >&2; exit 2; }

PLUGIN="$("$LINT" --print-tidy-plugin)"
read -r -a OWN_FLAGS <<<"$("$LINT" --print-cuda-flags)"
# DEV_FLAGS, NOCHECK.
source "$HERE/flags.sh"

mkdir -p "$OUT/src" "$OUT/results" "$OUT/profile" "$OUT/logs"
OUT="$(cd "$OUT" && pwd)"
python3 "$HERE/gen.py" "$OUT/src"
# The benchmark TU once more, with the toolkit's headers as a user with CUDA
# installed gets them (the driver's default when /usr/local/cuda exists):
# what clang parses then dwarfs the kernels, so (2) is several times larger.
cp "$OUT/src/tu200.cu" "$OUT/src/tu200tk.cu"

# Machine and versions, for the report.
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nproc: $(nproc)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "mem: $(free -g | awk '/^Mem:/{print $2 " GiB"}')"
  echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "clang: $("$CLANG" --version | head -1)"
  echo "clang-tidy: $("$TIDY" --version | grep -i version | head -1 | sed 's/^ *//')"
  echo "shmem-lint: $("$LINT" --version 2>&1 | head -1) ($LINT)"
  echo "commit: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$REPO" diff --quiet HEAD -- lib plugin 2>/dev/null || echo ' + uncommitted changes to lib/ plugin/')"
  echo "cuda: $(ls -d "$CUDA_HOME"/dist-info/*cudart* 2>/dev/null | head -1 | xargs -r basename || true) at $CUDA_HOME"
  echo "runs: $RUNS, rounds: $ROUNDS${ONLY:+, only: $ONLY}"
} >"$OUT/machine.txt"

# Files parsed with the toolkit's headers rather than shmem-lint's own.
uses_toolkit() { [[ "$1" == heavy* || "$1" == tu200tk ]]; }

# The commands for one file. The heavy file uses the toolkit's headers as the
# driver does with --cuda-path=DIR (CUDA 12.8+/13 keep CUB and Thrust under
# include/cccl, which clang does not add by itself).
commands() {
  local f="$1" name="$2"
  local -a flags lintargs
  if uses_toolkit "$name"; then
    flags=("--cuda-path=$CUDA_HOME" -isystem "$CUDA_HOME/include/cccl")
    lintargs=("--cuda-path=$CUDA_HOME" "$f")
  else
    flags=("${OWN_FLAGS[@]}")
    lintargs=(--cuda-path=none "$f")
  fi
  CMD_clang="$CLANG ${DEV_FLAGS[*]} -fsyntax-only ${flags[*]} $f"
  CMD_tidy0="$TIDY --config={} --checks='$NOCHECK' $f -- ${DEV_FLAGS[*]} ${flags[*]}"
  CMD_tidy="$TIDY --config={} --load=$PLUGIN --checks='-*,shmem-*' $f -- ${DEV_FLAGS[*]} ${flags[*]}"
  CMD_driver="$LINT --no-config --no-progress ${lintargs[*]}"
  # Variants for the benchmark TU and the heavy file.
  CMD_tidybank="$TIDY --config={} --load=$PLUGIN --checks='-*,shmem-bank-conflict' $f -- ${DEV_FLAGS[*]} ${flags[*]}"
  CMD_tidyload="$TIDY --config={} --load=$PLUGIN --checks='$NOCHECK' $f -- ${DEV_FLAGS[*]} ${flags[*]}"
  # For the check-profile run only.
  CMD_prof="$TIDY --config={} --load=$PLUGIN --checks='-*,shmem-*' --enable-check-profile --store-check-profile=$OUT/profile/$name $f -- ${DEV_FLAGS[*]} ${flags[*]}"
}

# One run under GNU time -v: peak RSS, a warm-up, and a check that the
# command compiled the file. Sets OK=1 when the command may be timed.
probe_one() {
  local name="$1" tool="$2" cmd="$3"
  local log="$OUT/logs/$name.$tool"
  OK=0
  rm -f "$OUT/results/$name.$tool".{timeout,skipped,crashed}
  # A smaller file of the same series timed out: don't try this one.
  local series="${name%%[0-9]*}"
  if [ -n "${TIMED_OUT[$series.$tool]:-}" ]; then
    echo "${TIMED_OUT[$series.$tool]}" >"$OUT/results/$name.$tool.skipped"
    echo "   $tool: skipped (${TIMED_OUT[$series.$tool]} timed out)"
    return
  fi
  local rc=0
  /usr/bin/time -v -o "$log.time" timeout "$TIMEOUT" bash -c "$cmd" >"$log.out" 2>"$log.err" || rc=$?
  if [ "$rc" = 124 ] || grep -q 'exit status 124' "$log.time"; then
    echo "$TIMEOUT" >"$OUT/results/$name.$tool.timeout"
    [[ "$name" =~ ^(kernels|accesses|barriers)[0-9]+$ ]] && TIMED_OUT[$series.$tool]="$name"
    echo "   $tool: timed out after $TIMEOUT s"
    return
  fi
  if [ "$rc" -gt 128 ] || grep -q 'Command terminated by signal' "$log.time"; then
    echo "run.sh: '$cmd' crashed, see $log.err" >&2
    echo crashed >"$OUT/results/$name.$tool.crashed"
    return
  fi
  if grep -q 'error:' "$log.err" "$log.out"; then
    echo "run.sh: '$cmd' reported errors, see $log.err" >&2
    grep -m3 'error:' "$log.err" "$log.out" >&2 || true
    exit 1
  fi
  # Long commands are timed 3 times at most.
  if awk -F: '/Elapsed \(wall clock\)/ {n = split($0, a, ":"); s = a[n]; m = a[n-1] + 0; exit !(m * 60 + s > 10)}' "$log.time"; then
    LONG=1
  fi
  OK=1
}

declare -A TIMED_OUT=()
FILES=()
for f in $(ls "$OUT"/src/*.cu | sort -V); do
  name="$(basename "$f" .cu)"
  [ -n "$ONLY" ] && ! [[ "$name" =~ $ONLY ]] && continue
  if uses_toolkit "$name"; then
    [ "$HEAVY" = 1 ] && [ -f "$CUDA_HOME/include/cuda_runtime.h" ] &&
      [ -d "$CUDA_HOME/include/cccl/cub" ] || { echo "skip $name (no toolkit with CCCL at $CUDA_HOME)"; continue; }
  fi
  FILES+=("$f")
done

for f in "${FILES[@]}"; do
  name="$(basename "$f" .cu)"
  commands "$f" "$name"
  echo "== $name ($(wc -l <"$f") lines)"
  tools=(clang tidy0 tidy driver)
  [[ "$name" == tu200 || "$name" == tu200tk || "$name" == heavy ]] && tools=(clang tidy0 tidyload tidybank tidy driver)
  LONG=0
  timed=()
  for tool in "${tools[@]}"; do
    var="CMD_$tool"
    echo "   $tool: ${!var}" | cut -c1-200
    probe_one "$name" "$tool" "${!var}"
    [ "$OK" = 1 ] && timed+=("$tool=${!var}")
  done
  rounds="$RUNS"
  [[ "$name" == tu200 || "$name" == tu200tk ]] && rounds="$ROUNDS"
  [[ "$name" == heavy ]] && rounds=$(( (ROUNDS + 1) / 2 ))
  [ "$LONG" = 1 ] && [ "$rounds" -gt 3 ] && [[ "$name" != heavy ]] && rounds=3
  rm -f "$OUT/results/$name.interleaved.json"
  if [ "${#timed[@]}" -gt 0 ]; then
    echo "   round-robin, $rounds rounds"
    python3 "$HERE/interleave.py" --rounds "$rounds" --no-warmup \
      --out "$OUT/results/$name.interleaved.json" "${timed[@]}"
  fi
  # Time inside the shmem-* checks alone (clang-tidy's own per-check timer).
  rm -rf "$OUT/profile/$name"
  [[ " ${timed[*]} " == *" tidy="* ]] &&
    { timeout "$TIMEOUT" bash -c "$CMD_prof" >/dev/null 2>&1 || true; }
  # Findings and analysis statistics, for the report.
  rm -f "$OUT/logs/$name.verbose.out" "$OUT/logs/$name.verbose.err"
  [[ " ${timed[*]} " == *" driver="* ]] &&
    { timeout "$TIMEOUT" bash -c "$CMD_driver --verbose" >"$OUT/logs/$name.verbose.out" 2>"$OUT/logs/$name.verbose.err" || true; }
done

echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"
cp "$OUT/machine.txt" "$OUT/logs/machine.$(date -u +%Y%m%dT%H%M%SZ).txt"
python3 "$HERE/report.py" "$OUT" >"$OUT/report.md"
echo "wrote $OUT/report.md"
