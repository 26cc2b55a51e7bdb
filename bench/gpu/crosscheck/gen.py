#!/usr/bin/env python3
"""Write host harnesses that launch the kernels of CUDA test inputs.

Usage: gen.py OUTDIR FILE.cu...        (Python 3, standard library only)

The inputs are shmem-lint's lit tests and bench/gpu/crosscheck/kernels/*.cu:
kernels without a usable host program. For every input this writes

  OUTDIR/src/<id>.cu          a copy of the input (same lines, so that the
                              -lineinfo of the build names shmem-lint's lines)
  OUTDIR/src/<id>.harness.cu  includes the copy with its `main` renamed away
                              and launches each kernel once, one block, in a
                              main of its own; `harness NAME...` launches only
                              those launches (by launch name, below)

and OUTDIR/manifest.tsv, one row per launch or skipped kernel:

  id  file  launch  kernel  block  dyn_smem  args  status  reason

The block is the one shmem-lint analyses the kernel for, found by its rules
(lib/Analysis/LaunchGeometry.cpp): a `// shmem-lint: block=` comment above the
kernel, else every constant shape of its launch sites in the file (one launch
each), else `__launch_bounds__`, else 256 threads. Pointer parameters get
zeroed cudaMalloc buffers of 16 MiB; integer and floating parameters get the
literal of the input's own launch where it has one, else DEFAULT_INT. A kernel
whose parameters are something else, or a template with no instantiation at a
launch site, is listed as skipped with the reason.
"""

import os
import re
import sys

DEFAULT_INT = 32
# XC_BUFFER_BYTES: smaller buffers for many launches (bench/gpu/random).
BUFFER_BYTES = int(os.environ.get("XC_BUFFER_BYTES", 16 << 20))
DEFAULT_DYN_SMEM = 16384

SCALAR_RE = re.compile(
    r"^(const\s+)?(unsigned\s+|signed\s+)?(int|long|long\s+long|short|char|bool|"
    r"float|double|size_t|unsigned|int\d+_t|uint\d+_t)\b")


def strip_comments(text):
    """Blank out comments and strings, keeping every offset and newline."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_top(s, sep=","):
    """Split at separators outside (), [], {} and <>."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def matching(s, i, open_ch, close_ch):
    """Index of the bracket closing the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_ch:
            depth += 1
        elif s[j] == close_ch:
            depth -= 1
            if depth == 0:
                return j
    return -1


MACROS = {}


def const_int(expr):
    """The value of an integer constant expression of literals and object-like
    macros of the file (`#define TILE 32`), or None."""
    e = expr
    for _ in range(4):
        e = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: MACROS.get(m.group(0), m.group(0)), e)
    e = re.sub(r"(\d+)[uUlL]+", r"\1", e)
    if not re.fullmatch(r"[\d\s+\-*/()%]+", e):
        return None
    try:
        return int(eval(e.replace("/", "//"), {"__builtins__": {}}))
    except Exception:
        return None


def parse_dim(expr):
    """'32', 'dim3(32, 8)', 'dim3(64)' -> (x, y, z), or None if not constant."""
    e = expr.strip()
    m = re.fullmatch(r"dim3\s*\((.*)\)", e, re.S)
    items = split_top(m.group(1)) if m else [e]
    vals = []
    for it in items:
        v = const_int(it)
        if v is None or v <= 0:
            return None
        vals.append(v)
    if not 1 <= len(vals) <= 3:
        return None
    while len(vals) < 3:
        vals.append(1)
    return tuple(vals)


def dim_str(d):
    x, y, z = d
    return str(x) if (y, z) == (1, 1) else (f"{x}x{y}" if z == 1 else f"{x}x{y}x{z}")


def line_of(text, off):
    return text.count("\n", 0, off) + 1


def find_kernels(raw, code):
    """Every __global__ function definition: name, params, template header,
    __launch_bounds__, annotation, line."""
    kernels = []
    for m in re.finditer(r"__global__", code):
        start = m.start()
        # The template header, if any, right before.
        head = code[:start]
        tm = re.search(r"template\s*<([^{};]*)>\s*$", head)
        templ = tm.group(1).strip() if tm else None
        decl_start = tm.start() if tm else start
        paren = code.find("(", m.end())
        if paren < 0:
            continue
        sig = code[m.end():paren]
        lb = None
        lbm = re.search(r"__launch_bounds__\s*$", sig)
        if lbm:
            close = matching(code, paren, "(", ")")
            lbargs = split_top(code[paren + 1:close])
            lb = int(lbargs[0]) if lbargs and re.fullmatch(r"\d+", lbargs[0]) else None
            paren = code.find("(", close + 1)
            sig = code[m.end():paren]
        nm = re.search(r"(\w+)\s*$", sig)
        if not nm:
            continue
        name = nm.group(1)
        close = matching(code, paren, "(", ")")
        after = code[close + 1:close + 40].lstrip()
        if not after.startswith("{"):
            continue  # a declaration only
        params = split_top(code[paren + 1:close])
        if params == ["void"]:
            params = []
        # Annotation: comment lines directly above the declaration.
        ann = None
        lines = raw[:decl_start].split("\n")[:-1]
        for ln in reversed(lines[-12:]):
            t = ln.strip()
            if t and not (t.startswith("//") or t.startswith("/*") or t.startswith("*")):
                break
            am = re.search(r"shmem-lint:\s*block\s*=\s*([0-9xX]+)", t)
            if am:
                parts = [int(p) for p in re.split(r"[xX]", am.group(1)) if p]
                while len(parts) < 3:
                    parts.append(1)
                ann = tuple(parts[:3])
                break
        body_end = matching(code, code.find("{", close), "{", "}")
        kernels.append(dict(name=name, params=params, templ=templ, lb=lb,
                            ann=ann, line=line_of(code, start),
                            name_line=line_of(code, nm.start() + m.end()),
                            end=line_of(code, body_end)))
    return kernels


def find_launches(code):
    """name, template args, grid, block, dyn smem, args of every constant launch."""
    out = []
    for m in re.finditer(r"\b(\w+)\s*(<[^<>;]*>)?\s*<<<", code):
        i = m.end()
        j = code.find(">>>", i)
        cfg = split_top(code[i:j])
        k = code.find("(", j)
        close = matching(code, k, "(", ")")
        args = split_top(code[k + 1:close])
        out.append(dict(name=m.group(1),
                        targs=(m.group(2) or "").replace(" ", ""),
                        block=parse_dim(cfg[1]) if len(cfg) > 1 else None,
                        smem=cfg[2].strip() if len(cfg) > 2 else None,
                        args=args))
    for m in re.finditer(r"cudaLaunchKernel\s*\(", code):
        close = matching(code, m.end() - 1, "(", ")")
        a = split_top(code[m.end():close])
        if len(a) >= 3:
            nm = re.search(r"(\w+)\s*$", a[0])
            out.append(dict(name=nm.group(1) if nm else "", targs="",
                            block=parse_dim(a[2]), smem=None, args=[]))
    return out


def param_kind(p):
    """'ptr', 'scalar' or None (cannot be made up)."""
    if "*" in p or "[" in p:
        return "ptr"
    if SCALAR_RE.match(p.strip()):
        return "scalar"
    return None


def literal(arg):
    a = arg.strip()
    if re.fullmatch(r"-?\d+[uUlL]*|-?\d*\.\d+f?|true|false", a):
        return a
    return None


def generate(outdir, path, file_id):
    raw = open(path).read()
    code = strip_comments(raw)
    MACROS.clear()
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+([^\n]+)$", code, re.M):
        MACROS[m.group(1)] = "(" + m.group(2).strip() + ")"
    kernels = find_kernels(raw, code)
    launches = find_launches(code)
    uses_extern = "extern __shared__" in code
    rows, calls = [], []
    for k in kernels:
        mine = [l for l in launches if l["name"] == k["name"]]
        # Template instantiations come from the launches.
        if k["templ"]:
            insts = sorted({l["targs"] for l in mine if l["targs"]})
            if not insts:
                rows.append([file_id, path, "-", k["name"], "-", "-", "-", "skipped",
                             "template kernel with no instantiation at a launch site"])
                continue
        else:
            insts = [""]
        for targs in insts:
            kname = k["name"] + targs
            lm = [l for l in mine if l["targs"] == targs]
            if k["ann"]:
                shapes = [(k["ann"], "annotation")]
            elif [l for l in lm if l["block"]]:
                seen = []
                for l in lm:
                    if l["block"] and l["block"] not in seen:
                        seen.append(l["block"])
                shapes = [(s, "launch") for s in seen]
            elif k["lb"]:
                shapes = [((k["lb"], 1, 1), "__launch_bounds__")]
            else:
                shapes = [((256, 1, 1), "assumed")]
            # Arguments: the first launch's literals, else made up.
            src_args = lm[0]["args"] if lm else []
            args, why = [], None
            for i, p in enumerate(k["params"]):
                kind = param_kind(p)
                if kind == "ptr":
                    args.append("P")
                elif kind == "scalar":
                    lit = literal(src_args[i]) if i < len(src_args) else None
                    args.append(lit if lit is not None else str(DEFAULT_INT))
                else:
                    why = f"parameter '{p}' cannot be made up"
                    break
            smem_src = next((l["smem"] for l in lm if l["smem"]), None)
            smem = const_int(smem_src) if smem_src else None
            if uses_extern:
                # Generous: a launch of the input may give less than its
                # kernel reads once the parameters are made up.
                smem = max(smem or 0, DEFAULT_DYN_SMEM)
            smem = smem or 0
            for n, (shape, source) in enumerate(shapes):
                launch = k["name"] + ("_" + re.sub(r"\W+", "_", targs).strip("_") if targs else "")
                if len(shapes) > 1:
                    launch += "_" + dim_str(shape)
                if why:
                    rows.append([file_id, path, launch, kname, dim_str(shape), str(smem),
                                 "-", "skipped", why])
                    continue
                rows.append([file_id, path, launch, kname, dim_str(shape), str(smem),
                             ",".join(args) or "-", "launched", source])
                cargs = ", ".join("AnyPtr()" if a == "P" else a for a in args)
                calls.append((launch, kname, shape, smem, cargs))
    src_dir = os.path.join(outdir, "src")
    os.makedirs(src_dir, exist_ok=True)
    with open(os.path.join(src_dir, file_id + ".cu"), "w") as f:
        f.write(raw)
    h = [f"// Generated by bench/gpu/crosscheck/gen.py from {path}.",
         "#define main shmem_lint_input_main",
         f'#include "{file_id}.cu"',
         "#undef main",
         "#include <cstdio>",
         "#include <cstdlib>",
         "#include <cstring>",
         "#include <cuda_runtime.h>",
         "// A zeroed buffer that converts to any pointer parameter.",
         "struct AnyPtr {",
         "  void *p;",
         "  AnyPtr() {",
         f"    if (cudaMalloc(&p, {BUFFER_BYTES}) != cudaSuccess) {{ std::printf(\"cudaMalloc failed\\n\"); std::exit(3); }}",
         f"    cudaMemset(p, 0, {BUFFER_BYTES});",
         "  }",
         "  template <class T> operator T *() const { return static_cast<T *>(p); }",
         "};",
         "static bool wanted(int argc, char **argv, const char *n) {",
         "  if (argc < 2) return true;",
         "  for (int i = 1; i < argc; ++i) if (!std::strcmp(argv[i], n)) return true;",
         "  return false;",
         "}",
         "int main(int argc, char **argv) {",
         "  int bad = 0;"]
    for launch, kname, (x, y, z), smem, cargs in calls:
        h += [f'  if (wanted(argc, argv, "{launch}")) {{',
              f"    {kname}<<<1, dim3({x}, {y}, {z}), {smem}>>>({cargs});",
              "    cudaError_t e = cudaDeviceSynchronize();",
              "    if (e == cudaSuccess) e = cudaGetLastError();",
              f'    std::printf("LAUNCH {launch} %s\\n", cudaGetErrorString(e));',
              "    if (e != cudaSuccess) { bad = 1; return 2; }",
              "  }"]
    h += ["  return bad;", "}", ""]
    with open(os.path.join(src_dir, file_id + ".harness.cu"), "w") as f:
        f.write("\n".join(h))
    return rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rows = []
    for path in sys.argv[2:]:
        parts = os.path.normpath(path).split(os.sep)
        file_id = re.sub(r"[^A-Za-z0-9_-]", "_",
                         parts[-2] + "-" + os.path.splitext(parts[-1])[0])
        rows += generate(outdir, path, file_id)
    with open(os.path.join(outdir, "manifest.tsv"), "w") as f:
        f.write("id\tfile\tlaunch\tkernel\tblock\tdyn_smem\targs\tstatus\treason\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    n = sum(1 for r in rows if r[7] == "launched")
    print(f"{n} launches, {len(rows) - n} skipped, {len(sys.argv) - 2} files -> {outdir}")


if __name__ == "__main__":
    main()
