#!/usr/bin/env python3
"""Time several commands round-robin (A B C D A B C D ...), so that a change
in the machine's load during the measurement hits every command alike, and
report per command the median CPU time (user + system of the process and its
children), the median wall time and the peak RSS.

    interleave.py --rounds N --out FILE.json NAME=COMMAND...

Used by run.sh for every file docs/performance.md quotes. CPU time comes
from wait4()'s rusage, as GNU time's does.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, shell=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    return {"cpu": ru.ru_utime + ru.ru_stime, "user": ru.ru_utime,
            "sys": ru.ru_stime, "wall": wall, "rss_kib": ru.ru_maxrss,
            "status": os.waitstatus_to_exitcode(status)}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--out", required=True)
    p.add_argument("--no-warmup", action="store_true",
                   help="no uncounted first round (the caller warmed up)")
    p.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    a = p.parse_args(argv)
    cmds = []
    for c in a.commands:
        name, _, cmd = c.partition("=")
        cmds.append((name, cmd))
    samples = {name: [] for name, _ in cmds}
    if not a.no_warmup:
        for name, cmd in cmds:  # warm-up round, not counted
            run_once(cmd)
    for r in range(a.rounds):
        order = cmds if r % 2 == 0 else list(reversed(cmds))
        for name, cmd in order:
            samples[name].append(run_once(cmd))
    out = {"rounds": a.rounds, "results": {}}
    for name, cmd in cmds:
        s = samples[name]
        out["results"][name] = {
            "command": cmd,
            "cpu_median": statistics.median(x["cpu"] for x in s),
            "cpu_min": min(x["cpu"] for x in s),
            "cpu_max": max(x["cpu"] for x in s),
            "wall_median": statistics.median(x["wall"] for x in s),
            "rss_mib": max(x["rss_kib"] for x in s) / 1024,
            "exit_codes": sorted({x["status"] for x in s}),
            "samples": s,
        }
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
