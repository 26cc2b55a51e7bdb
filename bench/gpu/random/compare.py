#!/usr/bin/env python3
"""shmem-lint against the H200 on the random kernels, with no GPU.

Usage (from the repository root):
  compare.py [--shmem-lint PATH] [--table test/calibration/random-h200.tsv.xz]
             [--work DIR] [--expect bench/gpu/random/disagreements.txt]
             [--min-compared N] [--files r1.cu,...] [--verbose] [--write-expect]

Writes the measured seeds' kernels again (gen.py: the same seed, the same
bytes), turns each launch's ncu totals into per-line rows -- every generated
kernel has exactly one shared store line and one shared load line, so the
kernel's store totals are that line's and its load totals the other's (ideal
wavefronts = wavefronts - bank conflicts, which equals ncu's per-instruction
ideal on all 781 lines of the run that also had the source page) -- and runs
bench/gpu/crosscheck/compare.py over them: bank conflicts per line, races and
divergent barriers per launch.

Every disagreement must be listed in --expect with the reason it is known
(a line "<category> <file>:<launch>[ line N]  # why"); the exit status is 1
when one is not listed, when a listed one now agrees (the list must shrink
with the fixes), or when fewer than --min-compared rows were compared.
--files compares only those generated files (and the listed disagreements
in them). The table records a digest of the generated sources; a gen.py that
no longer writes the measured kernels is an error, not a disagreement.
--write-expect prints the present disagreements in that form.
"""

import argparse
import lzma
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import merge  # noqa: E402  (the sources digest)

STORE_RE = re.compile(r"^\s*s\[[^;]*\]\s*=[^=]|__pipeline_memcpy_async\(|\bcp\.async\.c[ag]\b")
LOAD_RE = re.compile(r"\bs\[")


def kernel_lines(path):
    """{kernel name: (store line, load line)} of a generated file."""
    out, name, store, load = {}, None, None, None
    with open(path) as f:
        for no, ln in enumerate(f, 1):
            m = re.match(r"__global__ void (\w+)\(", ln)
            if m:
                name, store, load = m.group(1), [], []
                continue
            if name is None:
                continue
            if ln.startswith("}"):
                if len(store) != 1 or len(load) != 1:
                    sys.exit(f"{path}: kernel {name} has {len(store)} store and "
                             f"{len(load)} load lines; the comparison needs one of each")
                out[name] = (store[0], load[0])
                name = None
            elif "__shared__" in ln:
                continue
            elif STORE_RE.search(ln):
                store.append(no)
            elif LOAD_RE.search(ln):
                load.append(no)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shmem-lint", default="build/bin/shmem-lint")
    ap.add_argument("--table", default="test/calibration/random-h200.tsv.xz")
    ap.add_argument("--work", default=None, help="where to write the kernels (default: a temporary directory)")
    ap.add_argument("--expect", default=os.path.join(HERE, "disagreements.txt"))
    ap.add_argument("--min-compared", type=int, default=0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--write-expect", action="store_true")
    ap.add_argument("--files", default=None, help="comma-separated generated file names")
    args = ap.parse_args()

    with lzma.open(args.table, "rt") as f:
        lines = f.read().splitlines()
    hdr = next(l.split("\t") for l in lines if l.startswith("record\t"))
    rows = [dict(zip(hdr, l.split("\t"))) for l in lines
            if not l.startswith("#") and not l.startswith("record\t")]
    files = sorted({r["file"] for r in rows}, key=lambda n: int(n[1:-3]))
    work = args.work or tempfile.mkdtemp(prefix="shmem-lint-random-")
    subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), work]
                   + [f[1:-3] for f in files], check=True)
    digest = next((l.split()[-1] for l in lines if l.startswith("# sources sha256 ")), None)
    if digest != merge.sources_digest(work, files):
        sys.exit("gen.py no longer writes the kernels the table was measured on "
                 "(sources digest differs): measure them again (README.md)")
    if args.files:
        keep = set(args.files.split(","))
        rows = [r for r in rows if r["file"] in keep]
        files = [f for f in files if f in keep]
    where = {}
    for f in files:
        for k, sl in kernel_lines(os.path.join(work, f)).items():
            where[(f, k)] = sl

    # An async copy's LDGSTS rows, summed per launch: from the source page,
    # whose lines may be cuda_pipeline_helpers.h's (the primitives inline
    # the PTX there); each kernel has one async-copy line, its store line.
    copies = {}
    for r in rows:
        if r["record"] == "smem" and r["sass"].startswith("LDGSTS"):
            e = copies.setdefault((r["file"], r["launch"]), [set(), 0, 0, 0])
            e[0].add(r["sass"])
            for k, col in ((1, "executed"), (2, "wavefronts"), (3, "ideal")):
                e[k] += int(r[col])
    copies = {k: (",".join(sorted(v[0])), v[1], v[2], v[3]) for k, v in copies.items()}
    rows = [r for r in rows if r["record"] != "smem"]

    # The table in bench/gpu/crosscheck's form, with per-line rows.
    table = os.path.join(work, "table.tsv")
    with open(table, "w") as out:
        out.write("\t".join(hdr) + "\n")
        for r in rows:
            out.write("\t".join(r[h] for h in hdr) + "\n")
            if r["record"] != "total":
                continue
            t = {k: int(v) for k, v in (kv.split("=") for kv in r["detail"].split())}
            store, load = where[(r["file"], r["kernel"])]
            for op, line, sass in (("st", store, "STS"), ("ld", load, "LDS")):
                wf, ex, ideal = t[op + "_wavefronts"], t[op + "_inst"], None
                if op == "st" and (r["file"], r["launch"]) in copies:
                    sass, ex, wf, ideal = copies[(r["file"], r["launch"])]
                elif op == "ld" and t.get("ldsm_inst"):
                    # ldmatrix: the smsp__sass_* instruction counter reads 0
                    # for LDSM; the l1tex wavefronts and conflicts count it.
                    sass, ex = "LDSM", t["ldsm_inst"]
                if ex == 0 and wf == 0:
                    continue  # not executed: no instruction row, as on the source page
                if ideal is None:
                    ideal = wf - t[op + "_conflicts"]
                s = dict(r, record="smem", line=str(line), sass=sass, executed=str(ex),
                         wavefronts=str(wf), ideal=str(ideal), detail="")
                out.write("\t".join(s[h] for h in hdr) + "\n")

    p = subprocess.run([sys.executable, os.path.join(HERE, "..", "crosscheck", "compare.py"),
                        "--shmem-lint", args.shmem_lint, "--table", table, "--inputs", work]
                       + (["--verbose"] if args.verbose else []),
                       stdout=subprocess.PIPE, universal_newlines=True)
    report = p.stdout.replace(work + "/", "")
    if p.returncode != 0:
        print(report)
        sys.exit(f"crosscheck/compare.py failed ({p.returncode})")
    found = {}
    for ln in report.splitlines():
        m = re.match(r"! (bank|race|barrier)\s+(\S+) \[[^\]]*\](?: line (\d+))?", ln)
        if m:
            found[f"{m.group(1)} {m.group(2)}" + (f" line {m.group(3)}" if m.group(3) else "")] = ln
    if args.write_expect:
        for k in sorted(found):
            print(k + "  # " + found[k].split(": ", 1)[1][:160])
        return 0
    print(report)
    expect = {}
    if os.path.exists(args.expect):
        for ln in open(args.expect):
            key = ln.split("#")[0].strip()
            if key and key.split()[1].split(":")[0] in files:
                expect[key] = ln.strip()
    bad = []
    for k in sorted(set(found) - set(expect)):
        bad.append(f"new disagreement, not in {os.path.relpath(args.expect)}: {k}")
    for k in sorted(set(expect) - set(found)):
        bad.append(f"listed disagreement now agrees (take it off the list): {k}")
    m = re.search(r"^overall\s+(\d+)", report, re.M)
    compared = int(m.group(1)) if m else 0
    if compared < args.min_compared:
        bad.append(f"only {compared} rows compared, fewer than {args.min_compared}")
    print(f"disagreements: {len(found)} ({len(expect)} listed as known)")
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
