#!/usr/bin/env python3
"""Run one CUDA test input through all three front ends of shmem-lint and
check each output against the same inline expectations.

In the spirit of clang-tidy's check_clang_tidy.py: expectations live in the
input as `// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: ... [shmem-check]`,
and any warning, error or remark (a part of a kernel not analysed) not
expected fails the test (FileCheck's
-implicit-check-not). The three front ends are:

  tidy     clang-tidy --load=<module> --checks=-*,CHECK FILE -- <cuda flags>
  driver   shmem-lint --checks=CHECK FILE; with --tidy-config also once
           more with that YAML as its .clang-tidy (--config-file) instead
           of --driver-args, so the driver reads CheckOptions as clang-tidy
           does
  plugin   clang++ -fplugin=<plugin> for two GPU architectures plus the host
           pass; every finding must appear exactly once.

Usage: check_all_front_ends.py [tool paths] FILE CHECK [--prefix P]
       [--front-ends tidy,driver,plugin] [--tidy-config YAML]
       [--plugin-args a=b,c=d] [--driver-args "..."] [-- EXTRA CLANG ARGS]
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, **kw)
    return p.returncode, p.stdout


def filecheck(args, text, src, prefix, name):
    cmd = [args.filecheck, src, "--check-prefix=" + prefix,
           "--implicit-check-not={{warning|error|remark}}:",
           "--dump-input=fail"]
    p = subprocess.run(cmd, input=text, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        sys.stderr.write("--- %s output did not match the expectations:\n%s\n"
                         "--- FileCheck said:\n%s\n" % (name, text, p.stdout))
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    for tool in ("shmem-lint", "clang-tidy", "clangxx", "tidy-plugin",
                 "clang-plugin", "cuda-headers", "filecheck"):
        ap.add_argument("--" + tool, required=True)
    ap.add_argument("--prefix", default="CHECK-MESSAGES")
    ap.add_argument("--front-ends", default="tidy,driver,plugin")
    ap.add_argument("--tidy-config", default="")
    ap.add_argument("--plugin-args", default="")
    ap.add_argument("--driver-args", default="")
    ap.add_argument("file")
    ap.add_argument("check")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()

    cuda = ["-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version",
            "-isystem", args.cuda_headers, "-include", "shmem_lint_cuda.h"]
    extra = args.extra
    src = args.file
    ok = True
    fronts = args.front_ends.split(",")

    if "tidy" in fronts:
        cmd = [args.clang_tidy, "--load=" + args.tidy_plugin,
               "--checks=-*," + args.check, "--quiet"]
        if args.tidy_config:
            cmd.append("--config=" + args.tidy_config)
        cmd += [src, "--", "-x", "cuda", "--cuda-device-only",
                "--cuda-gpu-arch=sm_80"] + cuda + extra
        rc, out = run(cmd)
        # clang-tidy prints "N warnings generated." on stderr; drop it.
        out = "\n".join(l for l in out.splitlines()
                        if "warnings generated" not in l and
                        "warning generated" not in l)
        ok &= filecheck(args, out, src, args.prefix, "clang-tidy")

    if "driver" in fronts:
        cmd = [args.shmem_lint, "--cuda-path=none", "--checks=" + args.check,
               "--no-color"] + shlex.split(args.driver_args) + [src]
        if extra:
            cmd += ["--"] + extra
        rc, out = run(cmd)
        if rc not in (0, 1):
            sys.stderr.write("shmem-lint exited %d:\n%s\n" % (rc, out))
            ok = False
        ok &= filecheck(args, out, src, args.prefix, "shmem-lint")

    if "driver" in fronts and args.tidy_config:
        tmp = tempfile.mkdtemp(prefix="shmem-front-ends-")
        try:
            config = os.path.join(tmp, ".clang-tidy")
            with open(config, "w") as f:
                f.write(args.tidy_config + "\n")
            cmd = [args.shmem_lint, "--cuda-path=none",
                   "--checks=" + args.check, "--no-color",
                   "--config-file=" + config, src]
            if extra:
                cmd += ["--"] + extra
            rc, out = run(cmd)
        finally:
            shutil.rmtree(tmp)
        if rc not in (0, 1):
            sys.stderr.write("shmem-lint exited %d:\n%s\n" % (rc, out))
            ok = False
        ok &= filecheck(args, out, src, args.prefix, "shmem-lint .clang-tidy")

    if "plugin" in fronts:
        pargs = ["-fplugin-arg-shmem_lint-checks=" + args.check]
        for a in filter(None, args.plugin_args.split(",")):
            pargs.append("-fplugin-arg-shmem_lint-" + a)
        cmd = [args.clangxx, "-x", "cuda", "-fsyntax-only",
               "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90",
               "-fplugin=" + args.clang_plugin] + pargs + cuda + extra + [src]
        rc, out = run(cmd)
        ok &= filecheck(args, out, src, args.prefix, "clang plugin")
        # Exactly once per finding across the three compilation passes.
        warnings = [l for l in out.splitlines() if ": warning: " in l]
        if len(warnings) != len(set(warnings)):
            sys.stderr.write("clang plugin repeated a finding:\n%s\n" % out)
            ok = False

    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
