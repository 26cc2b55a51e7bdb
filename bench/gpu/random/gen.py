#!/usr/bin/env python3
"""Write random CUDA kernels whose shared-memory behaviour an H200 measures.

Usage: gen.py OUTDIR SEED...        (Python 3, standard library only)
       gen.py OUTDIR FIRST-LAST     (a range of seeds, both included)

Each seed gives one file, OUTDIR/r<seed>.cu, of KERNELS_PER_FILE kernels (a
"sync" seed, every SYNC_EVERY-th, of SYNC_KERNELS kernels whose barriers
synccheck must see one launch at a time). The same seed writes the same bytes
on every machine: each kernel draws from random.Random("<seed>:<index>"), whose
string seeding and the draws used here (randrange, choice, random) are stable
across Python 3 versions.

A kernel runs as one block of the shape its `// shmem-lint: block=` comment
names, with a zeroed `out` and `in` and `n` = 32 (bench/gpu/crosscheck/gen.py
launches it so). It fills a shared tile, maybe synchronises, reads the tile
back and writes one value per thread to `out`. What it mixes is what real
kernels do with shared memory: 1-D, 2-D and 3-D blocks; elements of 1, 2, 4,
8 and 16 bytes; 1-D arrays and 2-D tiles with padding and XOR swizzles;
per-thread items in unrolled loops (which nvcc may merge into one wide
access), loops with the trip count a parameter; reads under branches on the
lane, the warp, the thread or the data; warp shuffles; `__syncwarp`.

Every kernel is free of undefined behaviour except the races and barrier
mistakes it is meant to have, and says which in its leading comment: indices
stay in their arrays (each is reduced modulo the element count), the stores
of one phase write each element once (an index map that is a bijection:
an odd multiplier modulo a power of two, an XOR inside a row of a power-of-two
width), and a thread only reads what was stored. The intended mistakes:
  race-raw       the barrier between the stores and the reads is left out
  race-war       a loop whose next stores are not separated from the reads
  race-warp      a warp exchanges values without `__syncwarp`
  race-waw       two threads store different values to one element
  barrier-*      a block or warp barrier that not every thread reaches
                 (only in sync files, whose launches the sanitizers run
                 one at a time because a synccheck error ends the process)
Their negative twins (the barrier present, the same value stored, the
condition true for every thread) are drawn as often.

Seeds from ASYNC_FROM (1000) on write "copies" files (50 kernels, no sync
kernels), whose families are async copies and ldmatrix: a tile filled by
cp.async of 4, 8 or 16 bytes (`__pipeline_memcpy_async`, or inline
`cp.async.ca`/`.cg` with `commit_group` and `wait_group 0`/`wait_all`), its
global side coalesced, then waited for and synchronised (async), or read
after a barrier but before the wait, or after each thread's own wait with
no barrier (async-race); and a 2-byte tile stored plainly and read with
`ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`, rows and 16-byte
chunks addressed as GEMM fragments do, maybe XOR-swizzled by the row
(ldmatrix), or with the barrier left out (ldmatrix-race). Their measurement
needs ncu's source page for the LDGSTS lines (run.sh NCU_SOURCE=1).
"""

import math
import os
import random
import sys

KERNELS_PER_FILE = 50
SYNC_EVERY = 10          # seeds divisible by this are sync files
SYNC_KERNELS = 10
SMEM_LIMIT = 40 * 1024   # bytes of static shared memory per kernel
ASYNC_FROM = 1000        # seeds from here on: async-copy and ldmatrix files

TYPES = {  # name: (bytes, components, how to make one from float x)
    "unsigned char": (1, 1, "(unsigned char)({x})"),
    "short": (2, 1, "(short)({x})"),
    "float": (4, 1, "{x}"),
    "int": (4, 1, "(int)({x})"),
    "double": (8, 1, "(double)({x})"),
    "float2": (8, 2, "make_float2({x}, {x} + 1.0f)"),
    "float4": (16, 4, "make_float4({x}, {x} + 1.0f, {x} + 2.0f, {x} + 3.0f)"),
}
TYPE_WEIGHTS = [("float", 8), ("int", 2), ("double", 3), ("float2", 3),
                ("float4", 3), ("short", 2), ("unsigned char", 2)]
SHAPES = {  # threads: block shapes (x, y, z)
    32: [(32, 1, 1)],
    64: [(64, 1, 1), (32, 2, 1), (16, 4, 1)],
    96: [(96, 1, 1), (32, 3, 1)],
    128: [(128, 1, 1), (32, 4, 1), (16, 8, 1), (8, 16, 1), (32, 2, 2)],
    192: [(192, 1, 1), (64, 3, 1)],
    256: [(256, 1, 1), (32, 8, 1), (16, 16, 1), (64, 4, 1), (8, 8, 4), (32, 4, 2)],
    512: [(512, 1, 1), (32, 16, 1), (16, 32, 1), (8, 8, 8)],
    1024: [(1024, 1, 1), (32, 32, 1)],
}


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    r = rng.randrange(total)
    for v, w in pairs:
        if r < w:
            return v
        r -= w
    raise AssertionError


def read_lines(ty, expr):
    """Statements adding one element to `acc`, every component used (a
    component left out lets nvcc narrow the load, which is not what is
    measured here)."""
    comps = TYPES[ty][1]
    if comps == 1:
        return [f"acc += (float){expr};"]
    names = "xyzw"[:comps]
    return [f"const {ty} v = {expr};",
            f"acc += {' + '.join(f'v.{c}' for c in names)};"]


class Kernel:
    """One kernel: the choices drawn, then its text."""

    def __init__(self, seed, index, sync, copies=False):
        self.rng = random.Random(f"{seed}:{index}")
        self.name = f"r{seed}_{index}"
        self.sync = sync
        self.copies = copies
        self.lines = []
        self.notes = []

    # -- drawing --------------------------------------------------------
    def draw_shape(self):
        rng = self.rng
        self.threads = weighted(rng, [(32, 1), (64, 2), (96, 1), (128, 3), (192, 1),
                                      (256, 4), (512, 2), (1024, 1)])
        self.block = rng.choice(SHAPES[self.threads])
        bx, by, bz = self.block
        if by == 1 and bz == 1:
            self.tid = "threadIdx.x"
        elif rng.random() < 0.5:
            self.tid = (f"threadIdx.x + {bx} * threadIdx.y"
                        + (f" + {bx * by} * threadIdx.z" if bz > 1 else ""))
        else:
            self.tid = ("threadIdx.x + blockDim.x * threadIdx.y"
                        + (" + blockDim.x * blockDim.y * threadIdx.z" if bz > 1 else ""))

    def draw_tile(self, ty=None):
        rng = self.rng
        self.ty = ty or weighted(rng, TYPE_WEIGHTS)
        width = TYPES[self.ty][0]
        self.items = rng.choice([1, 1, 2, 4])
        while self.threads * self.items * width * 1.25 > SMEM_LIMIT and self.items > 1:
            self.items //= 2
        self.elems = self.threads * self.items
        # 2-D tile: a power-of-two row width dividing the element count.
        widths = [c for c in (8, 16, 32, 64) if self.elems % c == 0 and self.elems // c >= 2]
        if widths and rng.random() < 0.6:
            self.cols = rng.choice(widths)
            self.rows = self.elems // self.cols
            pad = rng.choice([0, 0, 0, 1, 1, 2, 4, 8])
            while pad and self.rows * (self.cols + pad) * width > SMEM_LIMIT:
                pad //= 2
            self.pad = pad
        else:
            self.cols = None
            self.pad = 0

    def coprime_multiplier(self):
        m = self.rng.choice([1, 1, 1, 3, 5, 7, 9, 17, 31, 33, 65])
        while math.gcd(m, self.elems) != 1:
            m += 2
        return m

    def place(self, var, swizzle):
        """Lines mapping the linear element `var` to a subscript of the tile
        (a bijection on [0, elems)), and the subscript."""
        if self.cols is None:
            return [], f"[{var}]"
        rng = self.rng
        r, c = var + "r", var + "c"
        if rng.random() < 0.25:
            out = [f"const int {r} = {var} % {self.rows}, {c} = {var} / {self.rows};"]
            # Transposed: c < cols because var < rows * cols.
        else:
            out = [f"const int {r} = {var} / {self.cols}, {c} = {var} % {self.cols};"]
        if swizzle:
            k, m = swizzle
            out.append(f"const int {c}s = {c} ^ (({r} % {k}) * {m});")
            c = c + "s"
        return out, f"[{r}][{c}]"

    def draw_swizzle(self):
        if self.cols is None or self.rng.random() < 0.6:
            return None
        k = self.rng.choice([k for k in (2, 4, 8, 16, 32) if k <= self.cols])
        m = self.rng.choice([m for m in (1, 2, 4) if k * m <= self.cols])
        return k, m

    # -- writing --------------------------------------------------------
    def emit(self, text, depth=1):
        self.lines.append("  " * depth + text)

    def declare(self, align=""):
        bx, by, bz = self.block
        self.lines.append(f"// shmem-lint: block={bx}x{by}x{bz}")
        self.lines.append(f"__global__ void {self.name}(float *out, const float *in, int n) {{")
        dims = f"[{self.rows}][{self.cols + self.pad}]" if self.cols else f"[{self.elems}]"
        self.emit(f"{align}__shared__ {self.ty} s{dims};")
        self.emit(f"const int t = {self.tid};")
        self.emit("const int lane = t % 32, warp = t / 32;")
        self.emit("float acc = 0.0f;")

    def emit_read(self, expr, depth=1):
        for ln in read_lines(self.ty, expr):
            self.emit(ln, depth)

    def loop_head(self, count, var="i", depth=1):
        style = self.rng.choice(["unroll", "unroll", "plain", "none"] if count > 1 else ["none"])
        if style == "none" and count == 1:
            self.emit(f"{{ const int {var} = 0;", depth)
            return
        if style == "unroll":
            self.emit("#pragma unroll", depth)
        if style == "none":
            style = "plain"
        self.emit(f"for (int {var} = 0; {var} < {count}; ++{var}) {{", depth)

    def stores(self, value="in[t] + i", depth=1, linear=None):
        """Each element stored once: a bijection of (t, i)."""
        rng = self.rng
        self.loop_head(self.items, depth=depth)
        if linear is None:
            linear = rng.choice([f"t * {self.items} + i", f"i * {self.threads} + t"])
            if self.items == 1:
                linear = "t"
        a = self.coprime_multiplier()
        b = rng.choice([0, 0, 1, 7, 32])
        if a == 1 and b == 0:
            e = linear
        else:
            e = f"({a} * ({linear}) + {b}) % {self.elems}"
        self.emit(f"const int e = {e};", depth + 1)
        lines, sub = self.place("e", self.store_swizzle)
        for ln in lines:
            self.emit(ln, depth + 1)
        self.emit(f"s{sub} = {TYPES[self.ty][2].format(x='(' + value + ')')};", depth + 1)
        self.emit("}", depth)

    def read_index(self):
        rng = self.rng
        form = rng.random()
        a = rng.choice([0, 1, 1, 2, 3, 4, 8, 16, 32, 33, 64, self.items, (self.cols or 32) + 1])
        c = rng.choice([1, self.threads, 32, self.cols or 16, 5])
        b = rng.choice([0, 0, 3, 16])
        if form < 0.6:
            lin = f"{a} * t + {c} * i + {b}"
        elif form < 0.85:
            w = rng.choice([32, 64, 1, 0, self.cols or 8])
            lin = f"{a} * lane + {w} * warp + {c} * i + {b}"
        else:
            lin = f"(t ^ {rng.choice([1, 2, 16, 31])}) + {c} * i"
        return f"({lin}) % {self.elems}"

    def reads(self, depth=1):
        rng = self.rng
        count = rng.choice([1, 1, 2, 4])
        cond = None
        r = rng.random()
        if r < 0.1:
            cond = f"lane < {rng.choice([1, 8, 16, 24])}"
        elif r < 0.17:
            cond = "warp % 2 == 0"
        elif r < 0.24:
            cond = f"t < {rng.choice([16, 48, self.threads // 2, self.threads])}"
        elif r < 0.3:
            cond = "in[t] >= 0.0f"  # data: always true at run time (in is zeroed)
        if cond:
            self.emit(f"if ({cond}) {{", depth)
            depth += 1
        if rng.random() < 0.12:
            # A trip count only the launch knows (n = 32).
            self.emit("for (int i = 0; i < n; ++i) {", depth)
        else:
            self.loop_head(count, depth=depth)
        swz = self.store_swizzle if rng.random() < 0.5 else self.draw_swizzle()
        self.emit(f"const int f = {self.read_index()};", depth + 1)
        lines, sub = self.place("f", swz)
        for ln in lines:
            self.emit(ln, depth + 1)
        self.emit_read("s" + sub, depth + 1)
        self.emit("}", depth)
        if cond:
            depth -= 1
            self.emit("}", depth)

    def finish(self):
        if self.rng.random() < 0.2:
            self.emit("acc += __shfl_xor_sync(0xffffffffu, acc, 1);")
        self.emit("out[t] = acc;")
        self.lines.append("}")

    # -- families -------------------------------------------------------
    def generate(self):
        self.draw_shape()
        if self.copies:
            family = weighted(self.rng, [("async", 5), ("async-race", 3), ("ldmatrix", 5),
                                         ("ldmatrix-race", 2)])
            getattr(self, "family_" + family.replace("-", "_"))()
            return self.lines
        self.draw_tile()
        self.store_swizzle = self.draw_swizzle()
        if self.sync:
            family = weighted(self.rng, [("barrier-block", 3), ("barrier-warp", 2), ("clean", 1)])
        else:
            family = weighted(self.rng, [("clean", 60), ("race-raw", 8), ("race-war", 8),
                                         ("race-warp", 8), ("race-waw", 6)])
        getattr(self, "family_" + family.replace("-", "_"))()
        return self.lines

    def header(self, what):
        self.lines.insert(0, f"// {self.name}: {what}")

    def family_clean(self):
        self.declare()
        self.stores()
        barrier = self.rng.choice(["__syncthreads();"] * 4 + [f"if (blockDim.x * blockDim.y * blockDim.z > 16) __syncthreads();"])
        self.emit(barrier)
        self.reads()
        self.finish()
        self.header("tile stored, synchronised, read. Intended: no race, no barrier error.")

    def family_race_raw(self):
        self.declare()
        self.stores()
        if self.rng.random() < 0.5:
            self.emit("// no barrier: reads of other threads' elements race")
            what = "the barrier after the stores left out. Intended: a race wherever a thread reads another's element."
        else:
            self.emit("__syncthreads();")
            what = "the stores and reads separated by a barrier. Intended: no race."
        self.reads()
        self.finish()
        self.header(what)

    def family_race_war(self):
        self.declare()
        trailing = self.rng.random() < 0.5
        self.emit("for (int it = 0; it < 2; ++it) {")
        self.stores(value="in[t] + i + it", depth=2)
        self.emit("__syncthreads();", 2)
        self.reads(depth=2)
        if trailing:
            self.emit("__syncthreads();", 2)
        self.emit("}")
        self.finish()
        self.header("a loop that stores, synchronises and reads twice. Intended: "
                    + ("no race (a barrier ends each iteration)." if trailing else
                       "a write-after-read race between iterations wherever a thread reads another's element."))

    def one_per_thread(self):
        """A 1-D array of one element per thread (no draw: the seeds' kernels
        stay as measured)."""
        self.cols, self.pad, self.items = None, 0, 1
        self.elems = self.threads
        if TYPES[self.ty][0] * self.elems > SMEM_LIMIT:
            self.ty = "float"

    def family_race_warp(self):
        # A warp exchange in a 1-D array: each lane stores its own element of
        # its warp's 32, then reads a neighbour's.
        self.one_per_thread()
        self.declare()
        a = self.rng.choice([1, 1, 3, 5, 7, 31])
        self.emit(f"s[warp * 32 + ({a} * lane) % 32] = {TYPES[self.ty][2].format(x='(in[t] + 1.0f)')};")
        synced = self.rng.random() < 0.5
        if synced:
            self.emit("__syncwarp();")
        else:
            self.emit("// no __syncwarp: the lanes' stores and reads are unordered")
        d = self.rng.choice([1, 2, 16, 31, 0])
        read = (f"s[warp * 32 + (lane + {d}) % 32]" if self.rng.random() < 0.5
                else f"s[warp * 32 + (lane ^ {d})]")
        self.emit_read(read)
        self.finish()
        self.header("lanes exchange through shared memory. Intended: "
                    + ("no race." if synced or d == 0 and a == 1 else
                       "an intra-warp race (no __syncwarp between the store and the neighbour's read)."))

    def family_race_waw(self):
        self.cols, self.pad, self.items = None, 0, 1
        self.elems = self.threads
        self.declare()
        same = self.rng.random() < 0.5
        half = self.threads // 2
        value = "1.0f" if same else "(float)t"
        self.emit(f"s[t % {half}] = {TYPES[self.ty][2].format(x=value)};")
        self.emit("__syncthreads();")
        self.emit_read(f's[(t + 1) % {half}]')
        self.finish()
        self.header("two threads store to each element of the first half. Intended: "
                    + ("the same value, a benign write-write pair." if same
                       else "different values: a write-write race."))

    def family_barrier_block(self):
        self.declare()
        self.stores()
        k = self.rng.choice([16, 48, 64, self.threads // 2, self.threads, self.threads + 32])
        self.emit(f"if (t < {k}) __syncthreads();")
        self.reads()
        self.finish()
        self.header(f"a block barrier reached by threads t < {k} of {self.threads}. Intended: "
                    + ("no barrier error (every thread)." if k >= self.threads else
                       "a divergent barrier" + (", splitting a warp." if k % 32 else
                                                " (whole warps skip it).")))

    def family_barrier_warp(self):
        self.one_per_thread()
        self.declare()
        self.emit(f"s[t] = {TYPES[self.ty][2].format(x='(in[t] + 1.0f)')};")
        mask, cond = self.rng.choice([
            ("0xffffffffu", None), ("0x0000ffffu", "lane < 16"), ("0x0000ffffu", None),
            ("0xffffffffu", "lane < 16"), ("0x55555555u", "lane % 2 == 0"),
            ("0xffff0000u", "lane >= 16")])
        if cond:
            self.emit(f"if ({cond}) {{")
            self.emit(f"__syncwarp({mask});", 2)
            self.emit_read('s[warp * 32 + (lane + 2) % 32]', 2)
            self.emit("}")
        else:
            self.emit(f"__syncwarp({mask});")
            self.emit_read('s[warp * 32 + (lane + 2) % 32]')
        self.finish()
        lanes = {None: "every lane", "lane < 16": "lanes 0-15", "lane % 2 == 0": "the even lanes",
                 "lane >= 16": "lanes 16-31"}[cond]
        self.header(f"__syncwarp({mask}) executed by {lanes}. Intended: whatever the mask and "
                    "the lanes say (synccheck is the judge).")

    # -- async copies and ldmatrix (seeds from ASYNC_FROM) ---------------
    def async_commit_wait(self, primitive):
        if primitive:
            return "__pipeline_commit();", "__pipeline_wait_prior(0);"
        wait = self.rng.choice(["cp.async.wait_group 0;", "cp.async.wait_all;"])
        return ('asm volatile("cp.async.commit_group;" ::: "memory");',
                f'asm volatile("{wait}" ::: "memory");')

    def async_stores(self, primitive):
        """Each element copied once from global memory, the global side
        coalesced (lanes copy adjacent elements: an uncoalesced source adds
        the global side's wavefronts to the LDGSTS, bench/gpu/widths)."""
        rng = self.rng
        width = TYPES[self.ty][0]
        self.loop_head(self.items)
        self.emit(f"const int g = i * {self.threads} + t;", 2)
        a = self.coprime_multiplier()
        b = rng.choice([0, 0, 1, 7, 32])
        self.emit(f"const int e = {'g' if a == 1 and b == 0 else f'({a} * g + {b}) % {self.elems}'};", 2)
        lines, sub = self.place("e", self.store_swizzle)
        for ln in lines:
            self.emit(ln, 2)
        src = f"reinterpret_cast<const {self.ty} *>(in) + g"
        if primitive:
            self.emit(f"__pipeline_memcpy_async(&s{sub}, {src}, {width});", 2)
        else:
            cache = "cg" if width == 16 and rng.random() < 0.5 else "ca"
            self.emit(f'asm volatile("cp.async.{cache}.shared.global [%0], [%1], {width};" :: '
                      f'"r"((unsigned)__cvta_generic_to_shared(&s{sub})), "l"({src}) : "memory");', 2)
        self.emit("}")

    def async_kernel(self, order):
        rng = self.rng
        self.draw_tile(ty=rng.choice(["float", "float", "int", "double", "float2",
                                      "float4", "float4"]))
        self.store_swizzle = self.draw_swizzle()
        primitive = rng.random() < 0.5
        commit, wait = self.async_commit_wait(primitive)
        self.declare()
        self.async_stores(primitive)
        self.emit(commit)
        if order == "waited":
            self.emit(wait)
            self.emit("__syncthreads();")
            self.reads()
        elif order == "barrier-before-wait":
            self.emit("__syncthreads();  // orders the issues, not the copies")
            self.reads()
            self.emit(wait)
        else:
            self.emit(wait)
            self.emit("// no barrier: each thread waited for its own copies only")
            self.reads()
        self.finish()

    def family_async(self):
        self.async_kernel("waited")
        self.header("tile filled by async copies, waited for, synchronised, read. "
                    "Intended: no race, no barrier error.")

    def family_async_race(self):
        order = self.rng.choice(["barrier-before-wait", "no-barrier"])
        self.async_kernel(order)
        self.header("tile filled by async copies, "
                    + ("read after a barrier but before the wait. Intended: a race with the "
                       "copies wherever an element is read." if order == "barrier-before-wait" else
                       "each thread waits for its own copies, no barrier. Intended: a race "
                       "wherever a thread reads an element another thread copied."))

    def ldmatrix_kernel(self, synced):
        """A 2-byte tile stored plainly, read with ldmatrix: every lane
        gives one 16-byte row of an 8x8 matrix (x1: lanes 0-7, x2: 0-15,
        x4: all), rows and 16-byte chunks as GEMM fragments address them,
        maybe with the chunk XORed by the row."""
        rng = self.rng
        self.ty = "short"
        self.items = rng.choice([1, 1, 2, 4])
        if self.threads * self.items < 64:
            self.items = 2
        self.elems = self.threads * self.items
        self.cols = rng.choice([c for c in (8, 16, 32, 64) if self.elems // c >= 8])
        self.rows = self.elems // self.cols
        self.pad = rng.choice([0, 0, 8])  # rows stay 16-byte aligned
        chunks = self.cols // 8

        def chunk_swizzle():
            ks = [k for k in (2, 4, 8) if k <= chunks]
            return (rng.choice(ks), 8) if ks and rng.random() < 0.5 else None
        self.store_swizzle = chunk_swizzle()
        self.declare(align="alignas(16) ")
        self.stores()
        if synced:
            self.emit("__syncthreads();")
        else:
            self.emit("// no barrier: ldmatrix reads rows other threads stored")
        x = rng.choice([1, 2, 4])
        trans = ".trans" if rng.random() < 0.3 else ""
        row, chunk = rng.choice([("lane", str(rng.randrange(chunks))),
                                 ("lane % 8", "lane / 8"), ("lane % 16", "lane / 16")])
        rw, cw = rng.choice([0, 8, 16, 32]), rng.choice([0, 0, 1, 2])
        if rw:
            row += f" + {rw} * warp"
        if cw:
            chunk += f" + {cw} * warp"
        depth = 1
        if rng.random() < 0.1:
            self.emit("if (warp % 2 == 0) {")
            depth = 2
        count = rng.choice([1, 1, 2])
        self.loop_head(count, depth=depth)
        if count > 1:
            row += f" + {rng.choice([8, 16])} * i"
        self.emit(f"const int fr = ({row}) % {self.rows}, fc = (({chunk}) % {chunks}) * 8;",
                  depth + 1)
        swz = self.store_swizzle if rng.random() < 0.6 else chunk_swizzle()
        col = "fc"
        if swz:
            self.emit(f"const int fcs = fc ^ ((fr % {swz[0]}) * 8);", depth + 1)
            col = "fcs"
        regs = [f"a{k}" for k in range(x)]
        self.emit(f"unsigned {', '.join(regs)};", depth + 1)
        outs = ", ".join(f'"=r"({r})' for r in regs)
        slots = ", ".join(f"%{k}" for k in range(x))
        self.emit(f'asm volatile("ldmatrix.sync.aligned.m8n8.x{x}{trans}.shared.b16 {{{slots}}}, '
                  f'[%{x}];" : {outs} : "r"((unsigned)__cvta_generic_to_shared(&s[fr][{col}])));',
                  depth + 1)
        self.emit(f"acc += (float)({' + '.join(regs)});", depth + 1)
        self.emit("}", depth)
        if depth == 2:
            self.emit("}")
        self.finish()

    def family_ldmatrix(self):
        self.ldmatrix_kernel(True)
        self.header("a 2-byte tile stored, synchronised, read with ldmatrix. "
                    "Intended: no race, no barrier error.")

    def family_ldmatrix_race(self):
        self.ldmatrix_kernel(False)
        self.header("a 2-byte tile stored and read with ldmatrix, the barrier left out. "
                    "Intended: a race wherever a lane's row holds another thread's element.")


def write_file(outdir, seed):
    copies = seed >= ASYNC_FROM
    sync = seed % SYNC_EVERY == 0 and not copies
    count = SYNC_KERNELS if sync else KERNELS_PER_FILE
    out = [f"// Generated by bench/gpu/random/gen.py, seed {seed}"
           f"{' (a sync file)' if sync else ''}"
           f"{' (async copies and ldmatrix)' if copies else ''}. Do not edit: regenerate.", ""]
    if copies:
        out += ["#include <cuda_pipeline_primitives.h>", ""]
    for j in range(count):
        out += Kernel(seed, j, sync, copies).generate() + [""]
    path = os.path.join(outdir, f"r{seed}.cu")
    with open(path, "w") as f:
        f.write("\n".join(out))
    return path


def parse_seeds(args):
    seeds = []
    for a in args:
        lo, _, hi = a.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    os.makedirs(argv[1], exist_ok=True)
    for s in parse_seeds(argv[2:]):
        write_file(argv[1], s)


if __name__ == "__main__":
    main(sys.argv)
