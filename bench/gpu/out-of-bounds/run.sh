#!/usr/bin/env bash
# On the device machine: build oob.cu for sm_90 and run each kernel of
# test/lit/out-of-bounds/basic.cu plainly and under compute-sanitizer's
# memcheck (with shared-memory checks). Output to ${OUT:-.}/h200.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
out=${OUT:-.}/h200.txt
bin=/tmp/oob
{
  "$NVCC" -arch=sm_90 -lineinfo -o $bin "$here/oob.cu" || exit 1
  for k in loopTooLong tileTooSmall neighbour unsignedWrap vectorTail \
           guarded loopInBounds shapeAssumed dynamicShared runTimeLoop \
           dynamicTooSmall dynamicEnough dynamicRunTime; do
    echo "== $k"
    timeout 60 $bin $k 2>&1 | tail -1
    echo "-- memcheck"
    timeout 120 "$SANITIZER" --tool memcheck $bin $k 2>&1 |
      grep -E 'Invalid|Address|ERROR SUMMARY' | sort | uniq -c | head -6
  done
} > "$out" 2>&1
cat "$out"
