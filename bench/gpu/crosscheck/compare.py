#!/usr/bin/env python3
"""Put shmem-lint's findings beside the H200's answers, per kernel and line.

Usage (from the repository root; no GPU needed):
  compare.py [--shmem-lint PATH] [--table test/calibration/crosscheck-h200.tsv]
             [--verbose] [--min-agreement PCT]

Runs the driver once over every input file the table names:
  shmem-lint --format=json --min-degree=1 --exit-zero \\
    --checks=shmem-bank-conflict,shmem-race,shmem-divergent-barrier FILE...
(--min-degree=1 makes the bank check report every access it can place, so
conflict-free predictions are compared too), attributes each finding to a
kernel launch of the table, and compares:

  bank conflicts  per (launch, source line): a conflict (more wavefronts than
                  the ideal) predicted vs. measured by ncu (L1 wavefronts shared
                  vs. ideal); also whether the predicted wavefronts per warp-wide
                  access equal the measured ones (reported, not counted)
  races           per launch: a shmem-race finding vs. a racecheck hazard
  barriers        per launch: a shmem-divergent-barrier finding vs. a synccheck
                  barrier error; a predicted divergent barrier that synccheck
                  does not flag is "not observable by synccheck" (on sm_90
                  exited threads do not block a barrier and synccheck accepts
                  what the hardware tolerates; docs/checks/shmem-divergent-
                  barrier.md), not a disagreement

and prints the agreement rate per category and overall (agreeing / compared;
rows the hardware could not decide, or that shmem-lint makes no claim on, are
counted apart). --min-agreement makes the exit status 1 when the overall rate
is lower.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402  (the same kernel parser the harnesses come from)

CHECKS = "shmem-bank-conflict,shmem-race,shmem-divergent-barrier"


def load_table(path):
    rows = []
    with open(path) as f:
        hdr = None
        for ln in f:
            if ln.startswith("#"):
                continue
            parts = ln.rstrip("\n").split("\t")
            if hdr is None:
                hdr = parts
                continue
            rows.append(dict(zip(hdr, parts)))
    return rows


def kernels_of(path):
    raw = open(path).read()
    return gen.find_kernels(raw, gen.strip_comments(raw))


BANK_RE = re.compile(r"^(\d+)-way bank conflict(?P<cond>[^:]*): .*?\((\d+) wavefronts instead of (\d+)\)")


def eval_condition(cond, values):
    """True/False when the condition on a launch argument holds/fails at the
    launched value, None when it does not name an argument or cannot be read."""
    m = re.match(r"\s*when '(\w+)' (.*)$", cond)
    if not m or m.group(1) not in values:
        return None
    v, c = values[m.group(1)], m.group(2).strip()
    if c == "is odd":
        return v % 2 == 1
    m2 = re.fullmatch(r"is a multiple of (\d+)", c)
    if m2:
        return v % int(m2.group(1)) == 0
    m2 = re.fullmatch(r"\u2261 ([\d, ]+) \(mod (\d+)\)", c)
    if m2:
        return v % int(m2.group(2)) in {int(x) for x in m2.group(1).split(",")}
    m2 = re.fullmatch(r"is ([\d, ]+)", c)
    if m2:
        return v in {int(x) for x in m2.group(1).split(",")}
    return None


def bank_prediction(msg, values):
    """(wavefronts, ideal, note) of one bank finding at the launch's values, or
    None when it cannot be decided there."""
    m = BANK_RE.match(msg)
    if not m:
        return None
    deg, wf, ideal = int(m.group(1)), int(m.group(3)), int(m.group(4))
    # " in ldmatrix.sync...b16" or " in a 16-byte cp.async.cg" names the
    # instruction; a condition follows it.
    cond = re.sub(r"^ in (?:a 16-byte cp\.async\.cg|\S+)", "", m.group("cond"))
    if not cond:
        return wf, ideal, ""
    worst, _, free = cond.partition("; conflict-free")
    w = eval_condition(worst, values)
    if w:
        return wf, ideal, "condition holds at the launch"
    f = eval_condition("when" + free.partition("when")[2], values) if free else None
    if f:
        return ideal, ideal, "conflict-free condition holds at the launch"
    if w is False and deg > 1 and not free:
        return None
    return None if w is not None or f is not None else (wf, ideal, "conditional on a non-argument: worst case")


def attribute(finding, kernels, launches):
    """The launches of the table a finding belongs to."""
    notes = finding["notes"]
    name = inst = shape = None
    for n in notes:
        m = re.match(r"in the call from kernel '([^']+)'", n["message"])
        if m:
            name = m.group(1)
        m = re.match(r"in instantiation '([^']+)'", n["message"])
        if m:
            inst = m.group(1).replace(" ", "")
        m = re.match(r"analysed for a block of (\S+) threads", n["message"])
        if m:
            shape = m.group(1)
            kl = n["line"]
            for k in kernels:
                if k["name_line"] == kl or k["line"] == kl:
                    name = name or k["name"]
    if name is None:
        for k in kernels:
            if k["line"] <= finding["line"] <= k["end"]:
                name = k["name"]
    if name is None:
        return []
    base = re.sub(r"<.*", "", name)
    out = [l for l in launches if re.sub(r"<.*", "", l["kernel"]) == base]
    if inst:
        out = [l for l in out if l["kernel"].replace(" ", "") == inst] or out
    if shape and len(out) > 1:
        same = [l for l in out if l["block"] == shape]
        # The driver keeps the worst shape of each location: the others have
        # no prediction of their own.
        out = same or out
    return out


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shmem-lint", default="build/bin/shmem-lint")
    ap.add_argument("--table", default="test/calibration/crosscheck-h200.tsv")
    ap.add_argument("--inputs", default=None,
                    help="directory holding the sources as they were when the table "
                         "was measured (bench/gpu/crosscheck/inputs); default: the "
                         "files at their paths in the working tree")
    ap.add_argument("--verbose", action="store_true", help="print agreeing rows too")
    ap.add_argument("--min-agreement", type=float, default=None,
                    help="exit 1 when the overall rate (percent) is lower")
    ap.add_argument("--max-disagreements", type=int, default=None,
                    help="exit 1 when more rows disagree (a regression test: the "
                         "known disagreements are explained in README.md)")
    ap.add_argument("--min-compared", type=int, default=None,
                    help="exit 1 when fewer rows are compared (predictions lost)")
    args = ap.parse_args()

    rows = load_table(args.table)
    if args.inputs:
        # The table's line numbers belong to the sources it was measured on;
        # editing a lit test must not shift them, so compare on the snapshot.
        for r in rows:
            r["file"] = os.path.join(args.inputs, r["file"])
    launches = {}
    for r in rows:
        if r["record"] == "launch":
            launches[(r["file"], r["launch"])] = dict(r)
    for r in rows:
        l = launches.get((r["file"], r["launch"]))
        if l is not None and r["record"] != "launch":
            l.setdefault(r["record"], []).append(r)
    files = sorted({f for f, _ in launches})
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        sys.exit(f"input files not found (run from the repository root): {missing[:3]}")
    p = subprocess.run([args.shmem_lint, "--format=json", "--min-degree=1", "--exit-zero",
                        "--no-progress", "--no-config", "--checks=" + CHECKS] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        sys.exit(f"shmem-lint failed ({p.returncode}):\n{p.stderr[-2000:]}")
    findings = json.loads(p.stdout)

    by_file = {}
    for f in files:
        by_file[f] = [l for (ff, _), l in launches.items() if ff == f]
    kern = {f: kernels_of(f) for f in files}
    params = {}
    for f in files:
        for k in kern[f]:
            params[(f, k["name"])] = [re.findall(r"(\w+)\s*(?:\[\s*\])?\s*$", p)[0] if re.findall(r"(\w+)\s*(?:\[\s*\])?\s*$", p) else ""
                                      for p in k["params"]]
    pred = {}  # (file, launch) -> {"bank": {line: [...]}, "race": [...], "barrier": [...]}
    rel = {os.path.relpath(os.path.abspath(f)): f for f in files}
    for fd in findings:
        # Gaps (what was not analysed) make no claim to compare.
        if "check" not in fd:
            continue
        f = rel.get(os.path.relpath(fd["file"])) or rel.get(fd["path"])
        if f is None:
            continue
        for l in attribute(fd, kern[f], by_file[f]):
            e = pred.setdefault((f, l["launch"]), {"bank": {}, "race": [], "barrier": []})
            if fd["check"] == "shmem-bank-conflict":
                e["bank"].setdefault(fd["line"], []).append(fd)
            elif fd["check"] == "shmem-race":
                e["race"].append(fd)
            elif fd["check"] == "shmem-divergent-barrier":
                e["barrier"].append(fd)

    # Lines with a bank prediction for some launch: the driver reports each
    # location once (its worst instance), so a helper's line called from two
    # kernels, or a template's from two instantiations, has its prediction
    # under one launch only.
    predicted_lines = {(f, ln) for (f, _), e in pred.items() for ln in e["bank"]}
    stats = {c: dict(agree=0, disagree=0, other={}) for c in ("bank", "race", "barrier")}
    exact = [0, 0]
    lines_out = []

    def other(cat, why):
        stats[cat]["other"][why] = stats[cat]["other"].get(why, 0) + 1

    for key in sorted(launches):
        l = launches[key]
        f, launch = key
        tag = f"{f}:{launch} [{l['block']}]"
        if l["detail"] != "ok":
            for c in stats:
                other(c, "launch not measured (" + l["detail"].split(":")[0].split(" (")[0] + ")")
            pe = pred.get(key, {"barrier": [], "race": []})
            said = (f"; shmem-lint: divergent barrier at lines {sorted({x['line'] for x in pe['barrier']})}"
                    if pe["barrier"] else "; shmem-lint: no divergent barrier")
            lines_out.append(f"SKIP {tag}: {l['detail']}" + (said if "hung" in l["detail"] else ""))
            continue
        pe = pred.get(key, {"bank": {}, "race": [], "barrier": []})
        names = params.get((f, re.sub(r"<.*", "", l["kernel"])), [])
        vals = {}
        for n, a in zip(names, l["args"].split(",")):
            if re.fullmatch(r"-?\d+", a):
                vals[n] = int(a)
        # Bank conflicts, per line.
        hw = {int(r["line"]): r for r in l.get("smem", []) if r["line"].isdigit()}
        for ln in sorted(set(hw) | set(pe["bank"])):
            h, fs = hw.get(ln), pe["bank"].get(ln, [])
            if not fs and (f, ln) in predicted_lines:
                other("bank", "location reported once, under another launch (helper, instantiation or shape)")
                continue
            if not fs:
                other("bank", "no claim by shmem-lint (data-dependent, atomic, one lane, or not an access it models)")
                if args.verbose:
                    lines_out.append(f"  bank   {tag} line {ln}: no claim; hw {h['sass']} {h['wavefronts']}/{h['ideal']}")
                continue
            ps = [bank_prediction(x["message"], vals) for x in fs]
            if any(x is None for x in ps):
                other("bank", "conditional finding undecided at the launched value")
                continue
            if h is None:
                other("bank", "predicted, no shared instruction on that line in the SASS")
                lines_out.append(f"  bank   {tag} line {ln}: predicted {[x[:2] for x in ps]}, no shared SASS on the line")
                continue
            ex, wf, ideal = int(h["executed"]), int(h["wavefronts"]), int(h["ideal"])
            if ex == 0:
                other("bank", "line not executed at run time")
                continue
            p_conf = any(w > i for w, i, _ in ps)
            h_conf = wf > ideal
            # Per warp-wide access: predicted mean vs measured mean.
            pw = sum(w for w, _, _ in ps) / len(ps)
            pi = sum(i for _, i, _ in ps) / len(ps)
            hwpa, hipa = wf / ex, ideal / ex
            same = abs(pw - hwpa) < 0.01 and abs(pi - hipa) < 0.01
            exact[0] += same
            exact[1] += 1
            ok = p_conf == h_conf
            stats["bank"]["agree" if ok else "disagree"] += 1
            if not ok or not same or args.verbose:
                lines_out.append(
                    f"{'  ' if ok else '! '}bank   {tag} line {ln}: shmem-lint "
                    + ", ".join(f"{w}/{i}" for w, i, _ in ps)
                    + f" wavefronts/ideal per access; H200 {h['sass']} x{ex}: {wf}/{ideal}"
                    + f" = {hwpa:.2f}/{hipa:.2f} per instruction"
                    + ("" if same else " (count differs)")
                    + ("" if ok else "  DISAGREE"))
        # Races.
        rc = (l.get("racecheck") or [{"detail": "undetermined: not run"}])[0]["detail"]
        p_race = bool(pe["race"])
        if rc.startswith("undetermined"):
            other("race", "racecheck undecided (" + rc.split(": ", 1)[1].split(" (")[0] + ")")
        else:
            h_race = rc.startswith("race")
            ok = p_race == h_race
            stats["race"]["agree" if ok else "disagree"] += 1
            if not ok or args.verbose:
                plines = sorted({x["line"] for x in pe["race"]})
                lines_out.append(f"{'  ' if ok else '! '}race   {tag}: shmem-lint "
                                 + (f"race at lines {plines}" if p_race else "no race")
                                 + f"; racecheck {rc}" + ("" if ok else "  DISAGREE"))
        # Barriers.
        sc = (l.get("synccheck") or [{"detail": "undetermined: not run"}])[0]["detail"]
        p_div = bool(pe["barrier"])
        if sc.startswith("undetermined"):
            other("barrier", "synccheck undecided (" + sc.split(": ", 1)[1].split(" (")[0][:60] + ")")
        else:
            h_div = sc.startswith("error")
            if p_div and not h_div:
                other("barrier", "predicted divergent, not observable by synccheck")
                if args.verbose:
                    lines_out.append(f"  barrier {tag}: shmem-lint divergent at lines "
                                     f"{sorted({x['line'] for x in pe['barrier']})}; synccheck clean (not observable)")
            else:
                ok = p_div == h_div
                stats["barrier"]["agree" if ok else "disagree"] += 1
                if not ok or args.verbose:
                    lines_out.append(f"{'  ' if ok else '! '}barrier {tag}: shmem-lint "
                                     + (f"divergent at lines {sorted({x['line'] for x in pe['barrier']})}" if p_div else "no finding")
                                     + f"; synccheck {sc}" + ("" if ok else "  DISAGREE"))

    print("\n".join(lines_out))
    print()
    print("category   compared  agree  disagree  rate     not compared")
    tot = [0, 0]
    for c, s in stats.items():
        n = s["agree"] + s["disagree"]
        tot[0] += s["agree"]
        tot[1] += n
        print(f"{c:<10} {n:>8}  {s['agree']:>5}  {s['disagree']:>8}  {pct(s['agree'], n):>7}  "
              f"{sum(s['other'].values())}")
        for why, k in sorted(s["other"].items()):
            print(f"{'':<12}{k:>5}  {why}")
    print(f"{'overall':<10} {tot[1]:>8}  {tot[0]:>5}  {tot[1] - tot[0]:>8}  {pct(*tot):>7}")
    print(f"bank lines whose predicted wavefronts per access equal the measured ones: "
          f"{exact[0]}/{exact[1]} ({pct(*exact)})")
    print(f"launches: {len(launches)} in the table, "
          f"{sum(1 for l in launches.values() if l['detail'] == 'ok')} measured")
    bad = []
    if args.min_agreement is not None and tot[1] and 100.0 * tot[0] / tot[1] < args.min_agreement:
        bad.append(f"overall agreement below {args.min_agreement}%")
    if args.max_disagreements is not None and tot[1] - tot[0] > args.max_disagreements:
        bad.append(f"{tot[1] - tot[0]} disagreements, more than {args.max_disagreements} "
                   "(the '!' rows above; explain or fix them, then update the limit)")
    if args.min_compared is not None and tot[1] < args.min_compared:
        bad.append(f"only {tot[1]} rows compared, fewer than {args.min_compared}")
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
