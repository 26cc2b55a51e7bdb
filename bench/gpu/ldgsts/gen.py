#!/usr/bin/env python3
"""Write the address patterns of the LDGSTS calibration.

Usage: gen.py OUTDIR       (Python 3, standard library; the same bytes on
                            every machine)

Writes OUTDIR/patterns.h (the tables ldgsts.cu includes) and
OUTDIR/patterns.tsv (one row per launch: name, width, cache, the 32 lanes'
shared destinations and global sources, in units of the width). One warp,
lane l copies `width` bytes from global element src[l] to shared element
dst[l] with one cp.async; every destination distinct (two copies to one
element would race; a lane with dst -1 copies nothing).

The families, for `cp.async.cg` 16 bytes (LDGSTS.E.BYPASS.128) and
`cp.async.ca` 16 (a subset also for 8 and 4 bytes): contiguous runs from
every offset, rotations and XORs inside 128-byte rows, random permutations
inside rows, strided and padded-row layouts, random slots anywhere,
permuted global sources; then single groups of eight active lanes (random
permutations inside a row, rotations combined with XORs, two rows,
permuted sources, lanes spread over the warp).
"""
import os
import random
import sys

SHARED_BYTES = 8192


def segments(rng, n=4, span=16):
    """n distinct 128-byte rows of a 16-row region, in a random order."""
    return rng.sample(range(span), n)


def patterns16(rng):
    out = []
    ident = list(range(32))
    for b in range(16):
        out.append((f"contig+{b}", [b + l for l in range(32)], ident))
    for r in range(8):
        seg = segments(rng)
        out.append((f"rotate{r}", [seg[l // 8] * 8 + (l % 8 + r) % 8 for l in range(32)], ident))
    for k in range(8):
        seg = segments(rng)
        out.append((f"xor{k}", [seg[l // 8] * 8 + ((l % 8) ^ k) for l in range(32)], ident))
    for j in range(24):
        seg = segments(rng)
        perms = [rng.sample(range(8), 8) for _ in range(4)]
        out.append((f"perm{j}", [seg[l // 8] * 8 + perms[l // 8][l % 8] for l in range(32)], ident))
    for j in range(16):
        # each phase's 8 lanes into two rows, 4 each, positions random
        dst, used = [], set()
        for p in range(4):
            rows = rng.sample([r for r in range(16) if r not in used], 2)
            used.update(rows)
            pos = rng.sample(range(16), 8)
            dst += [rows[q // 8] * 8 + q % 8 for q in pos]
        out.append((f"tworows{j}", dst, ident))
    for j in range(12):
        # pairs of lanes (one 32-byte global sector) kept together or not
        seg = segments(rng)
        dst = []
        for p in range(4):
            pairs = rng.sample(range(4), 4)
            flip = rng.random() < 0.5
            for q in range(4):
                a, b = 2 * pairs[q], 2 * pairs[q] + 1
                dst += [b, a] if flip and q % 2 else [a, b]
            dst[-8:] = [seg[p] * 8 + x for x in dst[-8:]]
        out.append((f"pairs{j}", dst, ident))
    for a in (1, 2, 3, 5, 7, 9, 11, 13, 15, 16, 17, 31, 33):
        b = rng.randrange(64)
        dst = [(a * l + b) % 512 for l in range(32)]
        if len(set(dst)) == 32:
            out.append((f"stride{a}+{b}", dst, ident))
    for c in (4, 8, 16, 32):
        for pad in (1, 2, 3, 4, 8):
            off = rng.randrange(8)
            out.append((f"rows{c}+{pad}+{off}", [off + (l // c) * (c + pad) + l % c for l in range(32)],
                        ident))
    for j in range(16):
        out.append((f"random{j}", rng.sample(range(128), 32), ident))
    for j in range(8):
        out.append((f"gperm{j}", ident, rng.sample(range(32), 32)))
    for k in (1, 2, 4, 7):
        out.append((f"gxor{k}", ident, [l ^ k for l in range(32)]))
    for b in (1, 3, 8, 13):
        out.append((f"goff{b}", ident, [l + b for l in range(32)]))
    for j in range(8):
        src = rng.sample(range(32), 32)
        out.append((f"both{j}", [src[l] ^ rng.choice([0, 0, 5]) for l in range(32)], src))
    # dedupe destinations (the XOR above may collide): keep valid ones only
    return [p for p in out if len(set(p[1])) == 32]


def distinct(dst):
    live = [d for d in dst if d >= 0]
    return len(set(live)) == len(live)


def single_phase(rng):
    """Eight active lanes (the others copy nothing, dst -1), so a launch's
    wavefronts are one group's: the rule inside a 128-byte row."""
    out = []
    off = [-1] * 24
    for j in range(160):
        row = rng.randrange(16)
        out.append((f"one-perm{j}", [row * 8 + q for q in rng.sample(range(8), 8)] + off,
                    list(range(32))))
    for k in range(8):
        for r in range(8):
            # position q -> ((q + r) % 8) ^ k: rotations, XORs and both
            out.append((f"one-rot{r}-xor{k}", [8 + (((q + r) % 8) ^ k) for q in range(8)] + off,
                        list(range(32))))
    for j in range(24):
        rows = rng.sample(range(16), 2)
        pos = rng.sample(range(16), 8)
        out.append((f"one-tworows{j}", [rows[q // 8] * 8 + q % 8 for q in pos] + off,
                    list(range(32))))
    for j in range(16):
        out.append((f"one-gperm{j}", list(range(8, 16)) + off,
                    rng.sample(range(8), 8) + list(range(8, 32))))
    for j in range(16):
        # lanes 0, 4, ..., 28 active, one global line: is a group the lanes
        # of one global line or eight consecutive lanes?
        dst, src = [-1] * 32, list(range(32))
        perm = rng.sample(range(8), 8) if j else list(range(8))
        for q in range(8):
            dst[4 * q] = 8 + perm[q]
            src[4 * q] = q
        out.append((f"one-spread{j}", dst, src))
    for j in range(8):
        # eight consecutive lanes from two global lines
        src = list(range(4)) + list(range(8, 12)) + list(range(12, 36))
        out.append((f"one-twolines{j}", [8 + q for q in (range(8) if j == 0 else rng.sample(range(8), 8))]
                    + off, src))
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random("ldgsts")
    base = patterns16(rng)
    launches = []
    for name, dst, src in base:
        launches.append((name, 16, "cg", dst, src))
        launches.append((name, 16, "ca", dst, src))
    for name, dst, src in single_phase(rng):
        launches.append((name, 16, "cg", dst, src))
        if name.startswith("one-perm") and int(name[8:]) < 40 or name.startswith("one-rot"):
            launches.append((name, 16, "ca", dst, src))
    for name, dst, src in base[::3]:
        for w in (8, 4):
            # the same lanes-to-rows shape in units of w: scale the 16-byte
            # pattern's slot to w-byte elements, keeping its 128-byte row
            k = 16 // w
            launches.append((name, w, "ca", [d * k for d in dst], src))
    assert all(distinct(l[3]) for l in launches)
    with open(os.path.join(outdir, "patterns.tsv"), "w") as f:
        f.write("launch\tname\twidth\tcache\tdst\tsrc\n")
        for i, (name, w, cache, dst, src) in enumerate(launches):
            f.write(f"{i}\t{name}\t{w}\t{cache}\t{','.join(map(str, dst))}\t{','.join(map(str, src))}\n")
    with open(os.path.join(outdir, "patterns.h"), "w") as f:
        f.write(f"// Generated by bench/gpu/ldgsts/gen.py.\nconstexpr int NL = {len(launches)};\n")
        f.write("static const int Width[NL] = {" + ",".join(str(l[1]) for l in launches) + "};\n")
        f.write("static const int Bypass[NL] = {" + ",".join("1" if l[2] == "cg" else "0" for l in launches) + "};\n")
        f.write("static const int Dst[NL * 32] = {" + ",".join(str(d) for l in launches for d in l[3]) + "};\n")
        f.write("static const int Src[NL * 32] = {" + ",".join(str(s) for l in launches for s in l[4]) + "};\n")
        assert all(max(l[3]) * l[1] + l[1] <= SHARED_BYTES for l in launches)
    print(f"{len(launches)} launches")


if __name__ == "__main__":
    main()
