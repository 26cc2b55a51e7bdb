#!/usr/bin/env python3
"""Writes the model fuzzer's seed inputs (test/fuzz/corpus/model/seed-*).

Each seed is an access pattern in the spirit of the calibration table
(test/calibration/h200-shared-wavefronts.tsv) and of the kernels under
examples/, encoded in the byte layout ModelFuzzer.cpp decodes. libFuzzer's
FuzzedDataProvider reads integers from the end of the input, most significant
byte first, so the encoder lists bytes in the order they are consumed and
reverses them. Run from anywhere: python3 test/fuzz/make_model_seeds.py
"""
import os

OPS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "min", "max",
       "<", "<=", "==", "&&", "||"]
WIDTHS = [1, 2, 4, 8, 16]


def expr(node, depth):
    """Bytes, in consumption order, that decode to `node` at `depth`."""
    kind = node[0]
    if kind in ("tid", "bdim", "lane", "warp", "sym", "const"):
        out = [] if depth == 0 else [0]  # a kind byte < 64: a leaf
        if kind == "tid":
            out.append(node[1])
        elif kind == "bdim":
            out.append(3 + node[1])
        elif kind == "lane":
            out.append(5)
        elif kind == "warp":
            out.append(6)
        elif kind == "sym":
            v = node[1]
            out.append(7)
            if v <= 64:
                out += [1, v]
            else:
                out += [0] + list(v.to_bytes(3, "big"))
        else:
            v = node[1]
            out.append(9)
            if 0 <= v <= 130:
                out += [2, v]
            elif -4 <= v <= 4:
                out += [1, v + 4]
            else:
                # ConsumeIntegral<int64_t>: INT64_MIN + the bytes, unsigned.
                out += [0] + list(((v + 2**63) % 2**64).to_bytes(8, "big"))
        return out
    assert depth > 0, "tree deeper than the decoder allows"
    if kind == "bin":
        _, op, unsigned, l, r = node
        return ([72] + expr(l, depth - 1) + expr(r, depth - 1) +
                [OPS.index(op), 1 if unsigned else 0])
    if kind == "un":
        _, k, s = node
        return [77] + expr(s, depth - 1) + [k]
    if kind == "sel":
        _, c, a, b = node
        return ([78] + expr(c, depth - 1) + expr(a, depth - 1) +
                expr(b, depth - 1))
    if kind == "cast":
        _, bits, signed, s = node
        return [79] + expr(s, depth - 1) + [[8, 16, 32, 64].index(bits),
                                            1 if signed else 0]
    raise ValueError(kind)


def seed(block, width, load, index, mask=0, bits=0, base=0, cond=("tid", 0)):
    x, y, z = block
    out = [x - 1, y - 1, z - 1, WIDTHS.index(width), 1 if load else 0, mask]
    out += list(bits.to_bytes(4, "big")) + list(base.to_bytes(3, "big"))
    out += [1]  # align the base to the width
    out += expr(cond, 3) + expr(index, 6)
    return bytes(reversed(out))


def b(op, l, r, unsigned=False):
    return ("bin", op, unsigned, l, r)


def c(v):
    return ("const", v)


TX, TY, LANE = ("tid", 0), ("tid", 1), ("lane",)
S = ("sym", 37)  # a uniform unknown, e.g. a leading dimension

SEEDS = {
    # Strides over one warp, every width (ld32_stride*, ld64_stride*, ...).
    **{f"stride{s}_w{w}_{'ld' if ld else 'st'}":
       seed((32, 1, 1), w, ld, b("*", TX, c(s)))
       for s in (0, 1, 2, 32, 33) for w in WIDTHS for ld in (True, False)},
    # Tiles: column reads of a 32x32 tile, padded and unpadded, 2-D blocks.
    "tile_col": seed((32, 8, 1), 4, True, b("+", b("*", TX, c(32)), TY)),
    "tile_col_pad": seed((32, 8, 1), 4, True, b("+", b("*", TX, c(33)), TY)),
    "tile_row_16x16": seed((16, 16, 1), 4, True,
                           b("+", b("*", TY, c(16)), TX)),
    # Lane pairs and groups for folding (ld64_group2, ld128_oddpairs).
    "group2_w8": seed((32, 1, 1), 8, True, b("/", TX, c(2))),
    "group2_w16": seed((32, 1, 1), 16, True, b("/", TX, c(2))),
    "oddpairs_w16": seed((32, 1, 1), 16, True,
                         b("/", b("+", TX, c(1)), c(2))),
    "evenodd_rows_w8": seed((32, 1, 1), 8, True,
                            b("+", b("*", b("%", TX, c(2)), c(16)),
                              b("/", TX, c(2)))),
    # Masks: half warp, even lanes, a condition on threadIdx.x.
    "masklt16_w8": seed((32, 1, 1), 8, True, TX, mask=2, bits=16),
    "even_lanes_w16": seed((32, 1, 1), 16, True, b("/", TX, c(2)), mask=1,
                           bits=0x55555555),
    "cond_mask": seed((64, 1, 1), 4, False, b("*", TX, c(2)), mask=3,
                      cond=b("<", TX, c(20))),
    # Unknowns: lane * ld, a row offset split by a power-of-two division,
    # a shift, a uniform non-affine value named as an unknown.
    "lane_times_ld": seed((32, 1, 1), 4, True, b("*", TX, S)),
    "split_div": seed((64, 1, 1), 4, True,
                      b("/", b("+", TX, b("*", c(32), S)), c(32))),
    "split_rem": seed((64, 1, 1), 4, True,
                      b("%", b("+", TX, b("*", c(32), S)), c(32))),
    "split_shr": seed((64, 1, 1), 4, True,
                      b(">>", b("+", TX, b("*", c(32), S)), c(5))),
    "named_uniform": seed((32, 1, 1), 4, True,
                          b("+", TX, b("*", b("%", S, c(7)), c(32)))),
    "select_xor_swizzle": seed((32, 4, 1), 4, True,
                               b("+", b("*", TY, c(32)),
                                 b("^", TX, TY))),
    "cast_u8": seed((256, 1, 1), 1, True,
                    ("cast", 8, False, b("*", TX, c(3)))),
    "warp_id_rows": seed((128, 1, 1), 4, False,
                         b("+", b("*", ("warp",), c(33)), LANE)),
    "big_block": seed((32, 32, 1), 2, True, b("+", b("*", TX, c(64)), TY)),
}

if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "corpus", "model")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)
    print(f"wrote {len(SEEDS)} seeds to {out}")
