#!/usr/bin/env python3
"""Render bench/perf/run.sh results as the markdown tables of
docs/performance.md.

    report.py OUT_DIR > report.md

Times are CPU seconds (user + system) unless marked "wall": on a shared
2-core machine the wall clock measures the neighbours as much as the command,
while CPU time of a single-threaded process barely moves with load. Wall
medians are shown beside them.
"""

import glob
import json
import os
import re
import statistics
import sys

TOOLS = ["clang", "tidy0", "tidy", "driver"]
SERIES = [
    ("kernels", "kernels per TU", "kernel", "kernels"),
    ("accesses", "shared accesses in one kernel", "access", "accesses"),
    ("barriers", "barriers in one kernel", "barrier", "barriers"),
]


def load_timing(out, name, tool):
    """(cpu_median, wall_median, runs, cpu_min, cpu_max) for one command,
    from the round-robin run (interleave.py)."""
    path = os.path.join(out, "results", f"{name}.interleaved.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        res = json.load(f)["results"]
    if tool not in res:
        return None
    r = res[tool]
    return (r["cpu_median"], r["wall_median"], len(r["samples"]),
            r["cpu_min"], r["cpu_max"])


def load_status(out, name, tool):
    """'timeout T', 'skipped', 'crashed' or None."""
    base = os.path.join(out, "results", f"{name}.{tool}")
    if os.path.exists(base + ".timeout"):
        return "> " + open(base + ".timeout").read().strip() + " s wall"
    if os.path.exists(base + ".crashed"):
        return "crashed"
    if os.path.exists(base + ".skipped"):
        return "not run"
    return None


def load_cpu_at_kill(out, name, tool):
    """CPU seconds a command used before the timeout killed it."""
    path = os.path.join(out, "logs", f"{name}.{tool}.time")
    if not os.path.exists(path):
        return None
    t = open(path).read()
    u = re.search(r"User time \(seconds\): ([0-9.]+)", t)
    s = re.search(r"System time \(seconds\): ([0-9.]+)", t)
    return float(u.group(1)) + float(s.group(1)) if u and s else None


def load_rss(out, name, tool):
    """Peak RSS in MiB from GNU time -v."""
    path = os.path.join(out, "logs", f"{name}.{tool}.time")
    if not os.path.exists(path):
        return None
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(path).read())
    return int(m.group(1)) / 1024 if m else None


def load_profile(out, name):
    """CPU seconds inside the shmem-* checks (clang-tidy's check profile),
    per check and in total."""
    per = {}
    for p in glob.glob(os.path.join(out, "profile", name, "*.json")):
        with open(p) as f:
            prof = json.load(f).get("profile", {})
        for k, v in prof.items():
            m = re.match(r"time\.clang-tidy\.(.+)\.(user|sys)$", k)
            if m:
                per[m.group(1)] = per.get(m.group(1), 0.0) + v
    if not per:
        return None
    return sum(v for k, v in per.items() if k.startswith("shmem-")), per


def load_stats(out, name):
    path = os.path.join(out, "logs", f"{name}.verbose.err")
    if not os.path.exists(path):
        return {}
    text = open(path).read()
    st = {}
    for key, pat in [("kernels", r"(\d+) kernel\(s\)"),
                     ("accesses", r"(\d+) shared access\(es\)"),
                     ("barriers", r"(\d+) barrier\(s\)"),
                     ("findings", r"(\d+) finding\(s\)")]:
        m = re.search(pat, text)
        if m:
            st[key] = int(m.group(1))
    return st


def lines_of(out, name):
    p = os.path.join(out, "src", f"{name}.cu")
    return sum(1 for _ in open(p)) if os.path.exists(p) else 0


def fmt_s(x):
    if x is None:
        return "–"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def fmt_r(a, b):
    if a is None or b is None or b == 0:
        return "–"
    return f"{a / b:.2f}×"


def fmt_pct(a, b):
    if a is None or b is None or b == 0:
        return "–"
    return f"{100.0 * a / b:+.1f}%"


def fmt_mib(x):
    return "–" if x is None else f"{x:.0f}"


def collect(out, name):
    row = {"name": name, "lines": lines_of(out, name)}
    for t in TOOLS:
        row[t] = load_timing(out, name, t)
        row[t + "_status"] = load_status(out, name, t)
        if row[t + "_status"] and row[t + "_status"].startswith(">"):
            c = load_cpu_at_kill(out, name, t)
            if c is not None:
                row[t + "_status"] = f"> {c:.0f} (killed)"
        row[t + "_rss"] = None if row[t + "_status"] else load_rss(out, name, t)
    prof = load_profile(out, name)
    row["checks"] = prof[0] if prof else None
    row["checks_per"] = prof[1] if prof else {}
    row["stats"] = load_stats(out, name)
    return row


def cell(row, t):
    if row[t]:
        return fmt_s(row[t][0])
    return row.get(t + "_status") or "–"


def cpu(row, t):
    return row[t][0] if row[t] else None


def wall(row, t):
    return row[t][1] if row[t] else None


def main_table(rows):
    o = []
    o.append("| file | lines | (1) clang | (2) tidy, no check | (3) tidy shmem-* | (4) shmem-lint "
             "| shmem-* checks alone | (3)/(1) | (3)/(2) | (3) over (2) | (4)/(1) | (4)/(2) |")
    o.append("|" + "---|" * 12)
    for r in rows:
        o.append(
            f"| `{r['name']}.cu` | {r['lines']} | {cell(r, 'clang')} | {cell(r, 'tidy0')} "
            f"| {cell(r, 'tidy')} | {cell(r, 'driver')} | {fmt_s(r['checks'])} "
            f"| {fmt_r(cpu(r, 'tidy'), cpu(r, 'clang'))} | {fmt_r(cpu(r, 'tidy'), cpu(r, 'tidy0'))} "
            f"| {fmt_pct((cpu(r, 'tidy') or 0) - (cpu(r, 'tidy0') or 0), cpu(r, 'tidy0'))} "
            f"| {fmt_r(cpu(r, 'driver'), cpu(r, 'clang'))} | {fmt_r(cpu(r, 'driver'), cpu(r, 'tidy0'))} |")
    o.append("")
    o.append("Wall-clock medians (s) and peak RSS (MiB) of the same commands:")
    o.append("")
    o.append("| file | (1) wall | (2) wall | (3) wall | (4) wall | (1) RSS | (2) RSS | (3) RSS | (4) RSS |")
    o.append("|" + "---|" * 9)
    for r in rows:
        o.append(f"| `{r['name']}.cu` | " +
                 " | ".join(fmt_s(wall(r, t)) for t in TOOLS) + " | " +
                 " | ".join(fmt_mib(r[t + '_rss']) for t in TOOLS) + " |")
    return "\n".join(o)


def series_table(rows, unit, plural):
    o = []
    o.append(f"| {plural} | lines | (1) clang | (2) tidy0 | (3) tidy | (4) driver | checks alone "
             f"| bank / barrier / race | checks per {unit} (ms) | (4)−(1) per {unit} (ms) | (3)/(2) "
             f"| (1) RSS MiB | (4) RSS MiB | findings |")
    o.append("|" + "---|" * 14)
    for n, r in rows:
        chk = r["checks"]
        d41 = None
        if cpu(r, "driver") is not None and cpu(r, "clang") is not None:
            d41 = cpu(r, "driver") - cpu(r, "clang")
        o.append(
            f"| {n} | {r['lines']} | {cell(r, 'clang')} | {cell(r, 'tidy0')} "
            f"| {cell(r, 'tidy')} | {cell(r, 'driver')} | {fmt_s(chk)} "
            f"| {split(r)} "
            f"| {'–' if chk is None else f'{1000 * chk / n:.3f}'} "
            f"| {'–' if d41 is None else f'{1000 * d41 / n:.3f}'} "
            f"| {fmt_r(cpu(r, 'tidy'), cpu(r, 'tidy0'))} | {fmt_mib(r['clang_rss'])} | {fmt_mib(r['driver_rss'])} "
            f"| {r['stats'].get('findings', '–')} |")
    # Growth exponent between successive sizes: time ~ n^k.
    import math

    def exponents(get, floor):
        ks = []
        for (n0, r0), (n1, r1) in zip(rows, rows[1:]):
            a, b = get(r0), get(r1)
            if a and b and a > floor and b > floor:
                ks.append(f"{n0}→{n1}: {math.log(b / a) / math.log(n1 / n0):.2f}")
        return ks

    def fit(get):
        """Least-squares line t = a + b n over the sizes with a value, and
        the worst relative deviation of a point from it (sizes whose time
        is above 20 ms only: below that the noise dominates)."""
        pts = [(n, get(r)) for n, r in rows if get(r) is not None]
        if len(pts) < 3:
            return None
        mx = sum(n for n, _ in pts) / len(pts)
        my = sum(t for _, t in pts) / len(pts)
        sxx = sum((n - mx) ** 2 for n, _ in pts)
        b = sum((n - mx) * (t - my) for n, t in pts) / sxx
        a = my - b * mx
        dev = [abs(t - (a + b * n)) / t for n, t in pts if t > 0.02]
        return a, b, (max(dev) if dev else 0.0)

    for label, get in [
            ("the shmem-* checks alone (clang-tidy's check profile)", lambda r: r["checks"]),
            ("(3)−(2), what loading and running the checks adds to clang-tidy",
             lambda r: (cpu(r, "tidy") - cpu(r, "tidy0"))
             if cpu(r, "tidy") is not None and cpu(r, "tidy0") is not None else None),
            ("(4)−(1), what the driver adds to clang -fsyntax-only",
             lambda r: (cpu(r, "driver") - cpu(r, "clang"))
             if cpu(r, "driver") is not None and cpu(r, "clang") is not None else None)]:
        f = fit(get)
        if f:
            o.append("")
            o.append(f"Least-squares line of {label}: {1000 * f[1]:.3f} ms per {unit} "
                     f"{'+' if f[0] >= 0 else '−'} {abs(1000 * f[0]):.0f} ms (the largest "
                     f"sizes dominate it; the per-{unit} columns show the trend).")

    ks = exponents(lambda r: r["checks"], 0.01)
    if ks:
        o.append("")
        o.append("Growth exponent of the checks' time, clang-tidy profile (1.00 = linear): "
                 + ", ".join(ks) + ".")
    ks = exponents(lambda r: (cpu(r, "driver") - cpu(r, "clang"))
                   if cpu(r, "driver") is not None and cpu(r, "clang") is not None else None, 0.05)
    if ks:
        o.append("")
        o.append("Growth exponent of the driver's analysis time, (4)−(1): " + ", ".join(ks) + ".")
    return "\n".join(o)


def split(r):
    per = r["checks_per"]
    if not per:
        return "–"
    return " / ".join(f"{per.get(k, 0.0):.3f}" for k in
                      ["shmem-bank-conflict", "shmem-divergent-barrier", "shmem-race"])


def interleaved_table(out, name):
    path = os.path.join(out, "results", f"{name}.interleaved.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        d = json.load(f)
    res = d["results"]
    labels = [("clang", "(1) clang -fsyntax-only"),
              ("tidy0", "(2) clang-tidy, no check"),
              ("tidyload", "(2b) clang-tidy, shmem module loaded, no check"),
              ("tidybank", "(3b) clang-tidy, shmem-bank-conflict only"),
              ("tidy", "(3) clang-tidy, shmem-*"),
              ("driver", "(4) shmem-lint")]
    base1 = res["clang"]["cpu_median"]
    base2 = res["tidy0"]["cpu_median"]
    o = [f"`{name}.cu`, {d['rounds']} interleaved rounds (median CPU s, min–max, "
         f"ratios of medians):", "",
         "| command | CPU s | min–max | ÷ (1) | ÷ (2) | over (2) | wall s | peak RSS MiB |",
         "|---|---|---|---|---|---|---|---|"]
    for key, label in labels:
        if key not in res:
            continue
        r = res[key]
        c = r["cpu_median"]
        o.append(f"| {label} | {c:.3f} | {r['cpu_min']:.3f}–{r['cpu_max']:.3f} "
                 f"| {c / base1:.2f}× | {c / base2:.2f}× | {100 * (c - base2) / base2:+.0f}% "
                 f"| {r['wall_median']:.3f} | {r['rss_mib']:.0f} |")
    return "\n".join(o)


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
    names = sorted({os.path.basename(p).split(".")[0]
                    for p in glob.glob(os.path.join(out, "logs", "*.time"))})
    rows = {n: collect(out, n) for n in names}
    print("## Machine\n")
    print("```")
    print(open(os.path.join(out, "machine.txt")).read().rstrip())
    print("```\n")
    main_names = [n for n in ["tu200", "tu200tk", "heavy"] if n in rows]
    if main_names:
        print("## Benchmark TU and heavy headers (CPU seconds, user+sys)\n")
        print(main_table([rows[n] for n in main_names]))
        print()
        for n in main_names:
            t = interleaved_table(out, n)
            if t:
                print(t)
                print()
        for n in main_names:
            per = rows[n]["checks_per"]
            if per:
                print(f"`{n}`: time inside each check (clang-tidy --enable-check-profile, CPU s): " +
                      ", ".join(f"{k} {v:.3f}" for k, v in sorted(per.items())) +
                      f"; driver statistics: {rows[n]['stats']}")
        print()
    for key, title, unit, plural in SERIES:
        sr = []
        for n in names:
            m = re.fullmatch(key + r"(\d+)", n)
            if m:
                sr.append((int(m.group(1)), rows[n]))
        if not sr:
            continue
        sr.sort(key=lambda x: x[0])
        print(f"## Scaling: {title} (CPU seconds)\n")
        print(series_table(sr, unit, plural))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
