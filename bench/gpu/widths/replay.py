#!/usr/bin/env python3
"""Replay test/calibration/widths-h200.tsv against shmem-lint: regenerate
the kernels with gen.py, analyse them once, and compare the predicted
wavefronts of each kernel's tested group with the measured ones.

Usage: replay.py SHMEM_LINT TABLE WORKDIR

Predicted wavefronts of a group: the wavefronts of its reported access
times the instructions nvcc emits for it (K, or K / N when the message says
it merges N accesses into one). Rows left out, and why:
  - C != 0 loads: ptxas serves a run that starts mid-piece by reading the
    whole aligned piece (not modelled; CompiledWidths.h says so);
  - C != 0 stores: pieces of different widths, one finding per line;
  - async rows other than 4- and 8-byte copies with a coalesced global side
    (cpa_4_*, cpa_8_*, cpc_*): see README.md. Their measured figure less the
    kernel's constant 5 LDGSTS wavefronts is compared.
Exits 1, listing them, when any compared row differs."""
import csv, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
lint, table, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
cu, man = os.path.join(work, "widths.cu"), os.path.join(work, "manifest.tsv")
subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), cu, man], check=True)
src = open(cu).read().replace("#include <cstdio>", "")
src = re.sub(r"int main\(\) \{.*", "", src, flags=re.S)
open(cu, "w").write(src)
lines = src.split("\n")

# The line of each kernel's tested group.
group_line, cur = {}, None
for n, l in enumerate(lines, 1):
    m = re.match(r"__global__ void (\w+)\(", l)
    if m:
        cur = m.group(1)
    elif cur and ("r[i] = a[" in l or ") a[tid *" in l or "__pipeline_memcpy_async" in l):
        group_line[cur] = n

p = subprocess.run([lint, "--format=json", "--min-degree=1", "--exit-zero", "--no-progress",
                    "--no-config", "--cuda-path=none", "--checks=shmem-bank-conflict", cu],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
if p.returncode != 0:
    sys.exit(f"shmem-lint failed ({p.returncode}):\n{p.stderr[-2000:]}")
by_line = {}
for f in json.loads(p.stdout):
    if f.get("check") == "shmem-bank-conflict":
        by_line[f["line"]] = f["message"]

BANK = re.compile(r"\((\d+) wavefronts instead of (\d+)\)")
MERGED = re.compile(r"merges this thread's (\d+) adjacent")
rows = [r for r in csv.DictReader((l for l in open(table) if not l.startswith("#")),
                                  delimiter="\t")]
compared, bad = 0, []
for r in rows:
    name, k, c, op = r["name"], int(r["K"]), int(r["C"]), r["op"]
    measured = int(r["wavefronts"])
    if op in ("load", "store"):
        if c != 0:
            continue
    elif not (name.startswith("cpa_4_") or name.startswith("cpa_8_") or name.startswith("cpc_")):
        continue
    else:
        measured -= 5
    msg = by_line.get(group_line.get(name))
    if msg is None:
        bad.append(f"{name}: no prediction at line {group_line.get(name)}")
        continue
    w = int(BANK.search(msg).group(1))
    m = MERGED.search(msg)
    per = int(m.group(1)) if m else 1
    if op in ("load", "store"):
        predicted = w * (k // per)
    else:
        predicted = w * k  # one copy per thread and iteration
    compared += 1
    if predicted != measured:
        bad.append(f"{name}: predicted {predicted}, measured {measured} ({msg})")
print(f"{compared} rows compared, {len(bad)} differ")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
