#!/usr/bin/env bash
# On the device machine: build named-barrier.cu for sm_90, show its barrier
# instructions in SASS, run every kernel plainly (4096 blocks x 50 launches,
# every value checked) and under compute-sanitizer's synccheck and racecheck
# (64 blocks x 1 launch), those that may hang last and under a timeout; then
# what ptxas says of an id past 15 and a count that is not whole warps.
# Output to ${OUT:-.}/h200.txt.
#
#   run.sh              every kernel (h200.txt)
#   run.sh --more       the kernels that wait for one generation at two
#                       instructions, aligned and not, and issue #25's race
#                       in a branch with and without its fix (h200-more.txt)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
out=${OUT:-.}/h200.txt
if [ "${1:-}" = --more ]; then
  out=${OUT:-.}/h200-more.txt
  bin=/tmp/named-barrier
  {
    "$NVCC" -arch=sm_90 -lineinfo -o $bin "$here/named-barrier.cu" || exit 1
    echo "== SASS of the two-instruction kernels"
    "$CUOBJDUMP" -sass -fun syncBothArms $bin | grep -E 'BAR' | sed 's/^ *//'
    "$CUOBJDUMP" -sass -fun syncBothArmsUnaligned $bin | grep -E 'BAR' | sed 's/^ *//'
    for k in syncBothArms syncBothArmsUnaligned loopBothWait \
             loopBothWaitUnaligned inBranch inBranchFixed; do
      echo "== $k"
      timeout -s KILL 60 $bin $k 2>&1 | tail -3
      echo "-- compute-sanitizer --tool synccheck"
      timeout -s KILL 60 "$SANITIZER" --tool synccheck $bin $k 64 1 2>&1 | head -12
      echo "-- compute-sanitizer --tool racecheck"
      timeout -s KILL 60 "$SANITIZER" --tool racecheck $bin $k 64 1 2>&1 | tail -3
    done
  } > "$out" 2>&1
  cat "$out"
  exit 0
fi
bin=/tmp/named-barrier
run() { timeout -s KILL "$1" "${@:2}" 2>&1 | tail -12; echo "(exit ${PIPESTATUS[0]})"; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$NVCC" --version | tail -1
  "$NVCC" -arch=sm_90 -lineinfo -o $bin "$here/named-barrier.cu" || exit 1
  echo "== SASS barriers per kernel"
  "$CUOBJDUMP" -sass $bin | grep -E 'Function|BAR' | sed 's/^ *//'
  for k in good countsOnlyProducers missingArrive missingArriveFixed \
           readBeforeSync tooMany ringWithoutEmpty ring loopNoTrailing \
           loopBothWait; do
    echo "== $k"
    run 60 $bin $k
    echo "-- compute-sanitizer --tool synccheck"
    run 120 "$SANITIZER" --tool synccheck $bin $k 64 1
    echo "-- compute-sanitizer --tool racecheck"
    run 120 "$SANITIZER" --tool racecheck --racecheck-report all $bin $k 64 1
  done
  for k in neverCompletes unequalUses countNotWarps idPast15; do
    echo "== $k (may hang; killed after 20 s)"
    run 20 $bin $k 64 1
    echo "-- compute-sanitizer --tool synccheck (killed after 30 s)"
    run 30 "$SANITIZER" --tool synccheck $bin $k 64 1
  done
  echo "== ptxas on immediates the check reports"
  for b in "bar.sync 16, 64;" "bar.sync 3, 48;" "bar.arrive 1, 0;"; do
    printf '__global__ void k() { asm volatile("%s"); }\n' "$b" > /tmp/imm.cu
    echo "-- $b"
    "$NVCC" -arch=sm_90 -c -o /tmp/imm.o /tmp/imm.cu 2>&1 | tail -3
    echo "(nvcc exit ${PIPESTATUS[0]})"
  done
} > "$out" 2>&1
cat "$out"
