#!/usr/bin/env python3
"""Merge the tables of several random runs into the committed one.

Usage: merge.py OUT.tsv.xz TABLE.tsv[.xz]...     (Python 3, standard library)

Each TABLE is bench/gpu/crosscheck/collect.py's output for a run of
bench/gpu/random/run.sh. Kept per launch: the launch, its per-kernel totals
(`total`: shared load and store wavefronts, instructions and bank conflicts),
and its racecheck and synccheck verdicts; the file column becomes the
generated file's name (r<seed>.cu), which gen.py writes again from the seed.
Per-line `smem` rows (a run with ncu's source page) are dropped: the
kernels are compared through their totals, but for the LDGSTS rows of the
async-copy files: the per-kernel counters lump an LDGSTS's shared wavefronts
with a varying overhead (5 to 129 wavefronts a kernel on the pilot) and show
none for the 16-byte `.BYPASS` form, while the source page gives each
instruction's own (run.sh NCU_SOURCE=1 for those seeds). A seed measured by several tables
is taken from the last one that has it. The header keeps each run's tools
line, and a digest of the generated sources.
"""

import hashlib
import lzma
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def sources_digest(directory, names):
    """sha256 over the generated files, in the order given: compare.py checks
    that gen.py still writes the kernels that were measured."""
    h = hashlib.sha256()
    for n in names:
        with open(os.path.join(directory, n), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def seed_ranges(seeds):
    """[1, 2, 3, 1000, 1001] -> "1-3, 1000-1001"."""
    out, start = [], None
    for i, s in enumerate(seeds):
        if start is None:
            start = s
        if i + 1 == len(seeds) or seeds[i + 1] != s + 1:
            out.append(f"{start}-{s}" if s != start else str(s))
            start = None
    return ", ".join(out)


def open_text(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out, tables = argv[1], argv[2:]
    by_file, tools, hdr = {}, [], None
    for t in tables:
        rows = {}
        with open_text(t) as f:
            for ln in f:
                if ln.startswith("# GPU:"):
                    if ln not in tools:
                        tools.append(ln)
                    continue
                if ln.startswith("#"):
                    continue
                parts = ln.rstrip("\n").split("\t")
                if hdr is None and parts[0] == "record":
                    hdr = parts
                    continue
                if parts[0] == "record":
                    continue
                r = dict(zip(hdr, parts))
                if r["record"] == "smem" and not r["sass"].startswith("LDGSTS"):
                    continue
                r["file"] = os.path.basename(r["file"])
                rows.setdefault(r["file"], []).append(r)
        by_file.update(rows)
    def seed(name):
        return int(name[1:].split(".")[0])
    launches = sum(1 for rs in by_file.values() for r in rs if r["record"] == "launch")
    names = sorted(by_file, key=seed)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), work]
                       + [n[1:-3] for n in names], check=True)
        digest = sources_digest(work, names)
    with lzma.open(out, "wt", preset=9) as f:
        f.write("# bench/gpu/random: random kernels (gen.py, seeds "
                f"{seed_ranges(sorted(map(seed, by_file)))}, {len(by_file)} files, "
                f"{launches} launches), one block each, measured on an H200.\n")
        f.write("# Per launch: ncu per-kernel totals (record total), racecheck and synccheck "
                "verdicts; per line the LDGSTS instructions (record smem, ncu's source page); "
                "see bench/gpu/random/README.md.\n")
        for t in tools:
            f.write(t)
        f.write(f"# sources sha256 {digest}\n")
        f.write("\t".join(hdr) + "\n")
        for name in names:
            for r in by_file[name]:
                f.write("\t".join(r[h] for h in hdr) + "\n")
    print(f"{len(by_file)} files, {launches} launches -> {out}")


if __name__ == "__main__":
    main(sys.argv)
