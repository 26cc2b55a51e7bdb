#!/usr/bin/env python3
"""Summarise the sanitizer logs into sanitizer-h200.tsv.

Usage: collect.py SRCDIR LOGDIR OUT.tsv     (Python 3, standard library only)
"""

import glob
import os
import re
import sys


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def rc_of(logdir, n, tool):
    t = read(os.path.join(logdir, f"{n}.{tool}.rc"))
    if t is None:
        return None, None
    parts = t.split()
    rc = int(parts[0]) if parts else None
    secs = float(parts[1]) / 1000.0 if len(parts) > 1 else None
    return rc, secs


def verdict(logdir, n, tool):
    log = read(os.path.join(logdir, f"{n}.{tool}.log"))
    rc, secs = rc_of(logdir, n, tool)
    if log is None:
        return "not-run"
    if rc in (124, 137):
        return f"TIMEOUT({secs:.0f}s)" if secs else "TIMEOUT"
    if "racecheck" in tool:
        m = re.search(r"RACECHECK SUMMARY:\s*(\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", log)
        if m:
            h, e, w = map(int, m.groups())
            kinds = sorted(set(re.findall(r"(Read-after-Write|Write-after-Read|Write-after-Write)", log)))
            extra = f" [{'/'.join(kinds)}]" if kinds else ""
            return f"{h} hazards ({e} errors, {w} warnings){extra}"
    m = re.search(r"ERROR SUMMARY:\s*(\d+) errors?", log)
    if m:
        kinds = sorted(set(re.findall(r"(Barrier error[^\n]*?|Invalid arguments[^\n]*?)(?:\.|\n)", log)))
        extra = f" [{'; '.join(k.strip() for k in kinds)[:160]}]" if kinds else ""
        return f"{m.group(1)} errors{extra}"
    first = [l for l in log.splitlines() if l.strip()][:1]
    return f"rc={rc} {first[0][:120] if first else ''}".strip()


def main():
    src, logdir, out = sys.argv[1:4]
    versions = read(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else ""
    rows = []
    for path in sorted(glob.glob(os.path.join(src, "*.cu"))):
        n = os.path.basename(path)[:-3]
        text = read(path) or ""
        m = re.search(r"^// EXPECT:\s*(\S+)", text, re.M)
        expect = m.group(1) if m else "?"
        desc = ""
        lines = text.splitlines()
        if len(lines) > 1 and lines[1].startswith("//"):
            desc = lines[1][2:].strip()
        brc = (read(os.path.join(logdir, f"{n}.build.rc")) or "?").strip()
        plain = read(os.path.join(logdir, f"{n}.plain.log")) or ""
        prc, psecs = rc_of(logdir, n, "plain")
        notes = []
        if brc != "0":
            notes.append(f"build rc={brc}")
        pl = " ".join(l.strip() for l in plain.splitlines() if l.strip())[:100]
        notes.append(f"plain run rc={prc}" + (f" '{pl}'" if pl else ""))
        notes.append("racecheck(info): " + verdict(logdir, n, "racecheck-info"))
        notes.append("synccheck(-G build): " + verdict(logdir, n, "synccheck-G"))
        notes.append(desc)
        rows.append((n + ".cu", expect, verdict(logdir, n, "racecheck"),
                     verdict(logdir, n, "synccheck"), "; ".join(notes)))
    with open(out, "w") as f:
        gpu = re.search(r"^\|\s+\d+\s+(NVIDIA[^|]*?)\s{2,}", versions, re.M)
        drv = re.search(r"Driver Version:\s*([\d.]+)", versions)
        cuda = re.search(r"Cuda compilation tools, release ([\d.]+), (V[\d.]+)", versions)
        san = re.search(r"Compute Sanitizer.*?Version\s+(\S+)", versions, re.S)
        date = re.search(r"^date (\S+)", versions, re.M)
        f.write("# compute-sanitizer racecheck / synccheck verdicts for bench/gpu/sanitizer/*.cu\n")
        f.write(f"# GPU: {gpu.group(1).strip() if gpu else '?'}; driver {drv.group(1) if drv else '?'}; "
                f"CUDA {cuda.group(1) + ' (' + cuda.group(2) + ')' if cuda else '?'}; "
                f"compute-sanitizer {san.group(1) if san else '?'}; run {date.group(1) if date else '?'}\n")
        f.write("# Built with nvcc -arch=sm_90 -O3 -lineinfo; each tool run with a time limit (TIMEOUT = killed).\n")
        def flagged(text):
            m = re.match(r"(\d+) (hazards|errors)", text)
            return bool(m and int(m.group(1)) > 0) or text.startswith("TIMEOUT")
        by = {}
        for r in rows:
            by.setdefault(r[1], []).append(r)
        parts = []
        for exp in sorted(by):
            rs = by[exp]
            parts.append(f"{exp}: racecheck flagged {sum(flagged(r[2]) for r in rs)}/{len(rs)}, "
                         f"synccheck flagged {sum(flagged(r[3]) for r in rs)}/{len(rs)}")
        hung = sum("TIMEOUT" in "".join(r[2:]) for r in rows)
        f.write("# Summary: " + "; ".join(parts) + f"; runs that hit the time limit: {hung}\n")
        f.write("file\texpected\tracecheck\tsynccheck\tnotes\n")
        for r in rows:
            f.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    print(f"{len(rows)} rows -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
