#!/usr/bin/env python3
"""Turn the raw files of crosscheck/run.sh into one table.

Usage: collect.py OUT.tsv RAWDIR [RAWDIR...]     (Python 3, standard library)

Each RAWDIR is an unpacked crosscheck-raw.tgz. For each file kind a later
RAWDIR replaces an earlier one's file of the same name (so a second run that
only redid the sanitizers, or the ncu of a few inputs, is merged in).

One row per record, columns:
  record id file launch kernel block args line sass executed wavefronts ideal detail
record:
  launch     one per manifest row; detail = ok | skipped: why | build failed |
             plain run rc=N (124: hung) | not profiled
  smem       one per (launch, source line) with shared loads/stores: the SASS
             opcodes, warp-level executions, L1 shared wavefronts and ncu's ideal
             wavefronts summed over the line's instructions (ncu source page,
             SourceCounters; lines from nvdisasm -g)
  total      per launch: l1tex shared wavefronts and instructions (ld/st)
  racecheck  per launch: race | clean | undetermined: why; detail lists the
             reported access line pairs and hazard kinds
  synccheck  per launch: error | clean | undetermined: why
"""

import csv
import glob
import os
import re
import sys

SHARED_OPS = re.compile(r"^\s*(LDS|STS|LDSM|STSM|LDGSTS)\b")
# Per-kernel metrics run.sh measures only when asked (NCU_EXTRA_METRICS),
# kept in the total record's detail under these keys: LDSM's instructions
# (the smsp__sass_* shared counters read 0 for it), LDGSTS's, and the shared
# wavefronts and bank conflicts of every shared instruction (LDGSTS's are in
# neither the op_ld nor the op_st counters).
EXTRA_TOTALS = [("smsp__inst_executed_op_ldsm.sum", "ldsm_inst"),
                ("smsp__inst_executed_op_ldgsts.sum", "ldgsts_inst"),
                ("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "all_wavefronts"),
                ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "all_conflicts")]


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def pick(rawdirs, rel):
    """The last RAWDIR's copy of a file."""
    found = None
    for d in rawdirs:
        p = os.path.join(d, rel)
        if os.path.exists(p):
            found = p
    return found


def base_name(func):
    """'void templ<(int)32>(float *)' -> 'templ'; 'strideParam(float *, int)' -> 'strideParam'."""
    f = func.strip()
    depth, cut = 0, len(f)
    for i, ch in enumerate(f):  # the parameter list: the first '(' outside <>
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = i
            break
    head = f[:cut]
    head = re.sub(r"<.*>$", "", head)
    return head.split()[-1].split("::")[-1] if head.split() else head


def kernel_key(func):
    """'void templated<(int)128, (bool)1>(float *)' -> 'templated<128,true>',
    the spelling of the manifest's kernel column (gen.py)."""
    f = func.strip()
    depth, cut = 0, len(f)
    for i, ch in enumerate(f):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = i
            break
    head = f[:cut].strip()
    if head.startswith("void "):
        head = head[5:]
    head = head.replace("(bool)1", "true").replace("(bool)0", "false")
    head = re.sub(r"\((?:unsigned |signed )?(?:int|long|short|char|unsigned)\)", "", head)
    return head.replace(" ", "").split("::")[-1]


def same_kernel(func, manifest_kernel):
    if "<" in manifest_kernel:
        return kernel_key(func) == manifest_kernel.replace(" ", "")
    return base_name(func) == manifest_kernel


def mangled_base(sym):
    m = re.match(r"_Z(?:N\d*\w*?)?(\d+)", sym)
    if not m:
        return sym
    n = int(m.group(1))
    return sym[m.end():m.end() + n]


def norm(ins):
    """One instruction as text, branch targets blanked (ncu prints absolute
    addresses, nvdisasm labels)."""
    t = re.sub(r"\s+", " ", ins.strip().rstrip(";").strip())
    t = re.sub(r"0x[0-9a-f]{9,}", "T", t)
    return re.sub(r"`\([^)]*\)", "T", t)


def nvdisasm_functions(path):
    """name -> list of (offset, instruction, line) from `nvdisasm -g -c`."""
    funcs, cur, line = {}, None, None
    for raw in (read(path) or "").splitlines():
        m = re.match(r"^//-+ \.text\.(\S+)", raw)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            line = None
            continue
        m = re.search(r'//## File "[^"]*", line (\d+)', raw)
        if m:
            line = int(m.group(1))
            continue
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*$", raw)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), norm(m.group(2).split(";")[0]), line))
    return funcs


def ncu_sections(path):
    """[(kernel name, header, rows)] of a `--page source --print-source sass` CSV."""
    secs, cur = [], None
    with open(path, newline="", errors="replace") as f:
        for r in csv.reader(f):
            if r and r[0] == "Kernel Name":
                cur = [r[1], None, []]
                secs.append(cur)
            elif cur is not None and r:
                if cur[1] is None:
                    cur[1] = r
                else:
                    cur[2].append(r)
    return secs


def num(s):
    try:
        return float(s.replace(",", ""))
    except (ValueError, AttributeError):
        return 0.0


def raw_results(path):
    """[(kernel name, {metric: value})] of `--page raw --csv`, in launch order."""
    with open(path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    if len(rows) < 3:
        return []
    hdr = rows[0]
    out = []
    for r in rows[2:]:
        if len(r) == len(hdr):
            out.append((r[hdr.index("Kernel Name")], dict(zip(hdr, r))))
    return out


def match_function(funcs, kname, instrs):
    """The nvdisasm function of an ncu section: same base name, same code."""
    cands = [n for n in funcs if mangled_base(n) == base_name(kname)] or list(funcs)
    for n in cands:
        code = [i for _, i, _ in funcs[n]]
        if code[:len(instrs)] == instrs[:len(code)] and code:
            return n
    return cands[0] if len(cands) == 1 else None


def sanitizer_blocks(text):
    """Split a compute-sanitizer log into its reports (lists of lines)."""
    blocks, cur = [], None
    for ln in text.splitlines():
        if re.match(r"^========= (Error|Warning|Barrier error)", ln):
            cur = [ln]
            blocks.append(cur)
        elif cur is not None and ln.startswith("=========     "):
            cur.append(ln)
        else:
            cur = None
    return blocks


def frame_funcs(block):
    """(kernel function, [(file, line)]) of one report: the outermost device
    frame names the kernel."""
    func, where = None, []
    for ln in block[1:]:
        m = re.search(r"(?:at|Device Frame:)\s+(.+?)\+0x[0-9a-f]+ in (\S+):(\d+)", ln)
        if m:
            func = m.group(1)
            where.append((os.path.basename(m.group(2)), int(m.group(3))))
    return func, where


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, rawdirs = sys.argv[1], sys.argv[2:]
    manifest = list(csv.DictReader(open(pick(rawdirs, "manifest.tsv")), delimiter="\t"))
    versions = read(pick(rawdirs, "versions.txt")) or ""
    rows = []

    def add(rec, m, line="", sass="", ex="", wf="", ideal="", detail=""):
        rows.append([rec, m["id"], m["file"], m["launch"], m["kernel"], m["block"],
                     m["args"], str(line), sass, str(ex), str(wf), str(ideal), detail])

    by_id = {}
    for m in manifest:
        by_id.setdefault(m["id"], []).append(m)

    for fid, ms in by_id.items():
        brc = (read(pick(rawdirs, f"logs/{fid}.build.rc") or "") or "").strip()
        good = []
        for m in ms:
            if m["status"] != "launched":
                add("launch", m, detail="skipped: " + m["reason"])
                continue
            if brc != "0":
                add("launch", m, detail="build failed")
                continue
            prc = (read(pick(rawdirs, f"logs/{fid}.{m['launch']}.plain.rc") or "") or "").strip()
            if prc != "0":
                plog = (read(pick(rawdirs, f"logs/{fid}.{m['launch']}.plain.log") or "") or "").strip()
                add("launch", m, detail=f"plain run rc={prc}" + (" (hung, killed after 10 s)" if prc == "124" else "")
                    + (f": {plog[:100]}" if plog else ""))
                continue
            good.append(m)

        # ncu: sections and totals, in the order of the good launches.
        sass_csv = pick(rawdirs, f"ncu/{fid}.src-sass.csv")
        raw_csv = pick(rawdirs, f"ncu/{fid}.raw.csv")
        profiled = set()
        if raw_csv and good:
            results = raw_results(raw_csv)
            # Without the source page (run.sh NCU_SOURCE=0) only the totals.
            secs = ncu_sections(sass_csv) if sass_csv else []
            dup = max(1, len(secs) // max(1, len(results))) if results else 1
            secs = secs[::dup]
            lines_files = glob.glob(os.path.join(os.path.dirname(pick(rawdirs, f"sass/{fid}.sass") or ""),
                                                 f"{fid}.*.lines"))
            funcs = {}
            for lf in lines_files:
                funcs.update(nvdisasm_functions(lf))
            if len(results) != len(good):
                print(f"{fid}: {len(results)} ncu results for {len(good)} launches; "
                      "matched by kernel name", file=sys.stderr)
            for i, m in enumerate(good):
                if i >= len(results) or base_name(results[i][0]) != base_name(m["kernel"].split("<")[0] + "()"):
                    continue
                kname, met = results[i]
                profiled.add(m["launch"])
                add("total", m, wf=int(num(met.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "0"))
                                       + num(met.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "0"))),
                    ex=int(num(met.get("smsp__sass_inst_executed_op_shared_ld.sum", "0"))
                           + num(met.get("smsp__sass_inst_executed_op_shared_st.sum", "0"))),
                    detail="ld_wavefronts={} st_wavefronts={} ld_inst={} st_inst={} ld_conflicts={} st_conflicts={}".format(
                        *[int(num(met.get(k, "0"))) for k in (
                            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                            "smsp__sass_inst_executed_op_shared_ld.sum",
                            "smsp__sass_inst_executed_op_shared_st.sum",
                            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")])
                    + "".join(f" {key}={int(num(met[k]))}" for k, key in EXTRA_TOTALS if k in met))
                if i >= len(secs):
                    continue
                name, hdr, srows = secs[i]
                col = {h: j for j, h in enumerate(hdr)}
                instrs = [norm(r[col["Source"]]) for r in srows]
                fn = match_function(funcs, name, instrs)
                if fn is None:
                    print(f"{fid}/{m['launch']}: no nvdisasm function for {name}", file=sys.stderr)
                    continue
                lines = {off: ln for off, _, ln in funcs[fn]}
                base = int(srows[0][col["Address"]], 16)
                per_line = {}
                for r in srows:
                    ins = r[col["Source"]]
                    if not SHARED_OPS.match(ins):
                        continue
                    off = int(r[col["Address"]], 16) - base
                    ln = lines.get(off)
                    e = per_line.setdefault(ln, [set(), 0, 0, 0])
                    e[0].add(ins.split()[0])
                    e[1] += int(num(r[col["Instructions Executed"]]))
                    e[2] += int(num(r[col["L1 Wavefronts Shared"]]))
                    e[3] += int(num(r[col["L1 Wavefronts Shared Ideal"]]))
                for ln in sorted(per_line, key=lambda x: (x is None, x)):
                    ops, ex, wf, ideal = per_line[ln]
                    add("smem", m, line=ln if ln is not None else "?", sass=",".join(sorted(ops)),
                        ex=ex, wf=wf, ideal=ideal)
        for m in good:
            if m["launch"] not in profiled:
                add("launch", m, detail="not profiled (ncu ran out of time or failed)")
            else:
                add("launch", m, detail="ok")

        # Sanitizers: one process per launch where run so (SAN_PER_LAUNCH=1),
        # else one per binary over its good launches.
        per_launch = {}
        for m in good:
            r = read(pick(rawdirs, f"san/{fid}.{m['launch']}.racecheck.log") or "")
            y = read(pick(rawdirs, f"san/{fid}.{m['launch']}.synccheck.log") or "")
            if r is not None and y is not None:
                per_launch[m["launch"]] = (r, y)
        for m in [m for m in good if m["launch"] in per_launch]:
            r, y = per_launch[m["launch"]]
            hz = sorted({f"{h[2]}({h[0].lower()}{', warp-level' if h[1] else ''})" for h in re.findall(
                r"(Error|Warning): (?:\(([^)]*)\) )?Potential (\w+) hazard", r)})
            pairs = sorted({"/".join(str(l) for _, l in frame_funcs(b)[1]) for b in sanitizer_blocks(r)
                            if "hazard" in b[0] or "Race reported" in b[0]})
            if hz or "Race reported" in r:
                add("racecheck", m, detail="race: " + " ".join(hz) + "; lines " + " ".join(pairs))
            elif re.search(r"RACECHECK SUMMARY:\s*0 hazards", r):
                add("racecheck", m, detail="clean")
            else:
                add("racecheck", m, detail="undetermined: no racecheck summary")
            errs = [b for b in sanitizer_blocks(y) if "Barrier error" in b[0]]
            if errs:
                kinds = sorted({b[0].split("Barrier error detected.")[-1].strip() for b in errs})
                at = sorted({f"{f}:{l}" for b in errs for f, l in frame_funcs(b)[1] if not f.endswith(".hpp")})
                add("synccheck", m, detail="error: " + " ".join(kinds) + "; at " + " ".join(at))
            elif re.search(r"ERROR SUMMARY:\s*0 errors", y):
                add("synccheck", m, detail="clean")
            else:
                add("synccheck", m, detail="undetermined: no synccheck summary")
        good = [m for m in good if m["launch"] not in per_launch]
        rlog = read(pick(rawdirs, f"san/{fid}.racecheck.log") or "")
        if rlog is None or not good:
            for m in good:
                add("racecheck", m, detail="undetermined: not run")
        else:
            seen = {}  # launch index -> [hazard kinds, line pairs]
            order = []
            for b in sanitizer_blocks(rlog):
                hm = re.search(r"(Error|Warning): (?:\(([^)]*)\) )?Potential (\w+) hazard", b[0])
                func, where = frame_funcs(b)
                if not hm or not func:
                    continue
                idx = [i for i, m in enumerate(good) if same_kernel(func, m["kernel"])]
                for i in idx:
                    s = seen.setdefault(i, [set(), set()])
                    s[0].add(f"{hm.group(3)}({hm.group(1).lower()}{', warp-level' if hm.group(2) else ''})")
                    s[1].add("/".join(str(l) for _, l in where))
                    order.append(i)
            sm = re.search(r"RACECHECK SUMMARY:\s*(\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", rlog)
            complete = bool(sm) and int(sm.group(1)) == int(sm.group(2)) + int(sm.group(3))
            last = max(order, default=-1)
            for i, m in enumerate(good):
                if i in seen:
                    add("racecheck", m, detail="race: " + " ".join(sorted(seen[i][0]))
                        + "; lines " + " ".join(sorted(seen[i][1])))
                elif not sm:
                    add("racecheck", m, detail="undetermined: no racecheck summary")
                elif complete or i < last:
                    add("racecheck", m, detail="clean")
                else:
                    add("racecheck", m, detail="undetermined: after the print limit of an earlier kernel's hazards")
        slog = read(pick(rawdirs, f"san/{fid}.synccheck.log") or "")
        if slog is None or not good:
            for m in good:
                add("synccheck", m, detail="undetermined: not run")
        else:
            flagged = {}  # launch index -> [error kinds, places]
            for b in sanitizer_blocks(slog):
                if "Barrier error" not in b[0]:
                    continue
                func, where = frame_funcs(b)
                if not func:
                    continue
                kind = b[0].split("Barrier error detected.")[-1].strip()
                for i, m in enumerate(good):
                    if same_kernel(func, m["kernel"]):
                        s = flagged.setdefault(i, [set(), set()])
                        s[0].add(kind)
                        s[1].update(f"{f}:{l}" for f, l in where if not f.endswith(".hpp"))
            ran = dict(re.findall(r"^LAUNCH (\S+) (.*)$", slog, re.M))
            for i, m in enumerate(good):
                if i in flagged:
                    add("synccheck", m, detail="error: " + " ".join(sorted(flagged[i][0]))
                        + "; at " + " ".join(sorted(flagged[i][1])))
                elif m["launch"] in ran and ran[m["launch"]] == "no error":
                    add("synccheck", m, detail="clean")
                elif m["launch"] in ran:
                    add("synccheck", m, detail="undetermined: launch failed under synccheck: " + ran[m["launch"]])
                else:
                    add("synccheck", m, detail="undetermined: not reached (an earlier synccheck error ended the process)")

    gpu = re.search(r"^(NVIDIA [^,]+), ([\d.]+), (\d+ MHz)", versions, re.M)
    cuda = re.search(r"release ([\d.]+), (V[\d.]+)", versions)
    ncu = re.search(r"Nsight Compute.*?Version (\S+)", versions, re.S)
    san = re.search(r"Compute Sanitizer.*?Version (\S+)", versions, re.S)
    date = re.search(r"^date (\S+)", versions, re.M)
    with open(out, "w") as f:
        f.write("# GPU cross-check measurements (bench/gpu/crosscheck/): the kernels of the lit inputs,\n")
        f.write("# bench/gpu/sanitizer/ and bench/gpu/crosscheck/kernels/, one block each, as gen.py launches them.\n")
        f.write(f"# GPU: {gpu.group(1) if gpu else '?'}; driver {gpu.group(2) if gpu else '?'}; "
                f"CUDA {cuda.group(1) + ' (nvcc ' + cuda.group(2) + ')' if cuda else '?'}; "
                f"Nsight Compute {ncu.group(1) if ncu else '?'}; compute-sanitizer {san.group(1) if san else '?'}; "
                f"run {date.group(1) if date else '?'}\n")
        f.write("# Built with nvcc -arch=sm_90 -O3 -lineinfo; ncu --clock-control none --section SourceCounters;\n")
        f.write("# sanitizers per input file over its launches (see bench/gpu/crosscheck/README.md).\n")
        f.write("record\tid\tfile\tlaunch\tkernel\tblock\targs\tline\tsass\texecuted\twavefronts\tideal\tdetail\n")
        for r in rows:
            f.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    print(f"{len(rows)} rows -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
