#!/usr/bin/env python3
"""Join the calibration run's raw outputs into the committed table.

Usage:
  collect.py --patterns patterns.tsv --sass sass.txt --ncu ncu.csv [--ncu more.csv ...]
             [--offsets offsets_observed.tsv] [--versions versions.txt]
             [--kernel-prefix k_] [--date YYYY-MM-DD] --out h200-shared-wavefronts.tsv

Per kernel: the shared-memory instructions seen in its SASS, the measured
l1tex shared wavefronts and executed shared instructions (ld or st, after
subtracting what the baseline kernel k_baseline shows), and wavefronts per
instruction. Python 3, standard library only.
"""

import argparse
import csv
import datetime
import re
import sys

CONFLICTS = {
    "ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}

METRICS = {
    "ld": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
           "smsp__sass_inst_executed_op_shared_ld.sum"),
    "st": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "smsp__sass_inst_executed_op_shared_st.sum"),
}

SASS_SHARED = re.compile(r"\b((?:LDS|STS)(?:\.[A-Z0-9_]+)*)\s")


def parse_sass(path, prefix):
    """kernel name -> list of shared load/store opcodes in its SASS."""
    out = {}
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"Function\s*:\s*(\S+)", line)
            if m:
                cur = m.group(1)
                out.setdefault(cur, [])
                continue
            if cur is None:
                continue
            # Skip the encoding comment: the opcode sits before the ';'.
            text = line.split(";")[0]
            text = re.sub(r"/\*[^*]*\*/", " ", text) + " "
            for m in SASS_SHARED.finditer(text):
                out[cur].append(m.group(1))
    return {k[len(prefix):] if k.startswith(prefix) else k: v
            for k, v in out.items()}


def parse_ncu(paths, prefix):
    """kernel name -> {metric: value}; a kernel launched more than once keeps
    its first launch."""
    res = {}
    for path in paths:
        with open(path, errors="replace") as f:
            lines = [l for l in f if l.startswith('"')]
        rows = list(csv.reader(lines))
        if not rows:
            continue
        head = rows[0]
        try:
            ki = head.index("Kernel Name")
            mi = head.index("Metric Name")
            vi = head.index("Metric Value")
            ii = head.index("ID")
        except ValueError:
            print(f"{path}: unexpected header {head}", file=sys.stderr)
            continue
        seen_id = {}
        for r in rows[1:]:
            if len(r) <= max(ki, mi, vi) or r[ki] == "Kernel Name":
                continue
            name = r[ki].split("(")[0].strip()
            if name.startswith(prefix):
                name = name[len(prefix):]
            key = (path, r[ii])
            if name in res and seen_id.get(name) != key:
                continue  # a later launch of a kernel already recorded
            seen_id[name] = key
            v = r[vi].replace(",", "").strip()
            try:
                val = float(v)
            except ValueError:
                val = None
            res.setdefault(name, {})[r[mi]] = val
    return res


def parse_versions(path):
    info = {"gpu": "?", "driver": "?", "cuda": "?", "ncu": "?"}
    if not path:
        return info
    text = open(path, errors="replace").read()
    m = re.search(r"Driver Version:\s*([\d.]+)", text)
    if m:
        info["driver"] = m.group(1)
    m = re.search(r"^\|\s+\d+\s+(NVIDIA[^|]*?)\s{2,}", text, re.M)
    if m:
        info["gpu"] = m.group(1).strip()
    m = re.search(r"name, driver_version.*\n(.*)", text)
    if m and info["gpu"] == "?":
        info["gpu"] = m.group(1).split(",")[0].strip()
    m = re.search(r"Cuda compilation tools, release ([\d.]+), (V[\d.]+)", text)
    if m:
        info["cuda"] = f"{m.group(1)} ({m.group(2)})"
    m = re.search(r"NVIDIA \(R\) Nsight Compute Command Line Profiler.*?Version\s+(\S+)",
                  text, re.S)
    if m:
        info["ncu"] = m.group(1)
    else:
        m = re.search(r"Version\s+(20\d\d\.\S+)", text)
        if m:
            info["ncu"] = m.group(1)
    return info


def fmt(x):
    if x is None:
        return "NA"
    return str(int(x)) if float(x).is_integer() else f"{x:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patterns", required=True)
    ap.add_argument("--sass", required=True)
    ap.add_argument("--ncu", action="append", required=True)
    ap.add_argument("--offsets")
    ap.add_argument("--versions")
    ap.add_argument("--kernel-prefix", default="k_")
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    pats = []
    with open(a.patterns) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, op, width, block, offs, *_ = line.rstrip("\n").split("\t")
            pats.append((name, op, int(width), int(block), offs))
    sass = parse_sass(a.sass, a.kernel_prefix)
    ncu = parse_ncu(a.ncu, a.kernel_prefix)
    observed = {}
    if a.offsets:
        with open(a.offsets) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2:
                    observed[parts[0]] = parts[1]
    ver = parse_versions(a.versions)

    base = ncu.get("baseline", {})
    problems = []
    rows = []
    for name, op, width, block, offs in pats:
        wf_m, in_m = METRICS[op]
        m = ncu.get(name)
        ops = sass.get(name)
        sass_txt = "+".join(ops) if ops else ("none" if ops is not None else "?")
        if ops is not None and len(ops) != 1:
            problems.append(f"{name}: SASS has {len(ops)} shared ops: {sass_txt}")
        if observed and observed.get(name) != offs:
            problems.append(f"{name}: device offsets {observed.get(name)} != table")
        wf = inst = conf = None
        if m is not None and m.get(CONFLICTS[op]) is not None:
            conf = m[CONFLICTS[op]] - (base.get(CONFLICTS[op]) or 0)
        if m is not None and m.get(wf_m) is not None and m.get(in_m) is not None:
            wf = m[wf_m] - (base.get(wf_m) or 0)
            inst = m[in_m] - (base.get(in_m) or 0)
            other = METRICS["st" if op == "ld" else "ld"]
            for om in other:
                if m.get(om) and m[om] - (base.get(om) or 0):
                    problems.append(f"{name}: unexpected {om}={m[om]}")
        else:
            problems.append(f"{name}: no ncu data")
        per = (wf / inst) if (wf is not None and inst) else None
        rows.append((name, op, width, block, offs, sass_txt, wf, inst, per, conf))

    with open(a.out, "w") as f:
        f.write("# Shared-memory wavefronts per warp-wide access, measured with Nsight Compute.\n")
        f.write(f"# GPU: {ver['gpu']}; driver {ver['driver']}; CUDA {ver['cuda']}; "
                f"ncu {ver['ncu']}; measured {a.date}\n")
        f.write("# Generated by bench/gpu/calibration (gen.py, run.sh, collect.py); "
                "see test/calibration/README.md.\n")
        f.write("# One warp (one block) per kernel, one shared access instruction per thread.\n")
        f.write("# offsets: byte offset per lane 0..31 from a 128-byte-aligned base, '-' = lane inactive or absent.\n")
        f.write("# wavefronts/instructions: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum and\n")
        f.write("#   smsp__sass_inst_executed_op_shared_{ld,st}.sum, minus the baseline kernel's (which has no shared access).\n")
        f.write("# bank_conflicts: l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum (NA if not collected).\n")
        f.write("name\top\twidth_bytes\tblock\toffsets\tsass\twavefronts\tinstructions\twavefronts_per_inst\tbank_conflicts\n")
        for name, op, width, block, offs, s, wf, inst, per, conf in rows:
            f.write(f"{name}\t{op}\t{width}\t{block}\t{offs}\t{s}\t{fmt(wf)}\t{fmt(inst)}\t{fmt(per)}\t{fmt(conf)}\n")
    for p in problems:
        print("WARNING:", p, file=sys.stderr)
    print(f"{len(rows)} rows -> {a.out}; {len(problems)} warnings; "
          f"baseline {base}", file=sys.stderr)


if __name__ == "__main__":
    main()
