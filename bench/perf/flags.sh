# Sourced by the benchmark scripts (bench/perf/*.sh, bench/corpus/run.sh):
# the commands they time must parse alike.

# What the driver passes clang besides the CUDA header flags
# (plugin/driver/DriverOptions.cpp, BaseArgs).
DEV_FLAGS=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -Wno-unknown-cuda-version -w)
# A check that is always present but never instantiated for CUDA (it only
# runs on Objective-C), so clang-tidy parses and runs its whole pipeline
# (AST consumers, match finder) with no check: `--checks=-*` alone is refused
# ("No checks enabled").
NOCHECK='-*,objc-forbidden-subclassing'
