#!/usr/bin/env python3
"""Units tables (the columns of build/rtl/gen/units.txt) for the synthesis experiments that are not
instructions of the table (docs/synthesis.md); synth/synth.sh runs them with SYNTH_UNITS / SYNTH_OUT.

  mulprobe UNITS OUT   the M3XU lanes' multipliers alone (synth/mul_probe.sv): L from the M3XU designs of
                       UNITS (build/rtl/gen/units.txt), W = each design's multiplier width (11, 12) and 24
                       (the naive FP32 unit's): the cost of the 12th significand bit
  sweep [--subset S] OUT   fda_unit over K x F x operand-format sets (GRID below); S = all (default),
                       answers (the units the three questions of docs/synthesis.md need, SUBSET below) or
                       series (those units at K = 4, 8, 16).
                       A unit's index is its place in the full grid, so a subset's rows are the full run's.
"""
import itertools
import os
import re
import sys

HEADER = "# unit algo K F chain block ab_mask c_mask out_mask mutant top params\n"
NAIVE_MUL_W = 24  # the naive FP32 unit's multipliers (rtl/naive_fp32_unit.sv: full FP32 significands)

# The sweep: K, F and the operand-format sets (A and B formats served at run time; "+scales": per-block
# UE8M0 scales, block = min(K, 32) as Blackwell's mxf8f6f4 blocks of 32).  C is f32, D f32 truncated
# (f32-rz), so that only the products' side changes.
KS = (4, 8, 16, 32)
FS = (13, 23, 24, 25, 35)
FORMAT_SETS = {
    "f16": ("f16",), "f16/bf16": ("f16", "bf16"), "f16/bf16/tf32": ("f16", "bf16", "tf32"),
    "e4m3": ("e4m3",), "fp8": ("e4m3", "e5m2"), "f8f6f4": ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1"),
    "fp8+scales": ("e4m3", "e5m2"), "f8f6f4+scales": ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1"),
}
GRID = list(itertools.product(FORMAT_SETS, KS, FS))
# What the three questions need, at K = 8 alone (a unit takes 4 minutes or more of wall time on the loaded
# 2-core VM, K = 32 many more): Hopper's extra bit, f16/bf16 at F = 24 and 25; Blackwell's FP8 F = 25
# against Hopper's 13, fp8 at both; run-time formats against one format at F = 25: f16 against f16/bf16,
# e4m3 against fp8, f8f6f4 and f8f6f4 with block scales.
SUBSET = {("f16/bf16", 8, 24), ("f16/bf16", 8, 25), ("fp8", 8, 13), ("fp8", 8, 25), ("f16", 8, 25),
          ("e4m3", 8, 25), ("f8f6f4", 8, 25), ("f8f6f4+scales", 8, 25)}
# The same units at K = 4, 8 and 16 (SWEEP_SUBSET=series): how the answers move with K (K = 32's units
# take up to an hour each: `all`)
SERIES_KS = (4, 8, 16)
SUBSETS = {"all": set(GRID), "answers": SUBSET,
           "series": {(s, k, f) for (s, _, f) in SUBSET for k in SERIES_KS}}


def svh_codes(prefix):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rtl", "mma_formats.svh")
    return {m.group(1).lower().replace("_", "-"): int(m.group(2))
            for m in re.finditer(rf"localparam int {prefix}_([A-Z0-9_]+) *= *(\d+);", open(path).read())}


def sweep(subset, out):
    fmt, outk = svh_codes("FMT"), svh_codes("OUT")
    c_mask, out_mask = 1 << fmt["f32"], 1 << outk["f32-rz"]
    rows = []
    for i, (name, k, f) in enumerate(GRID):
        if (name, k, f) not in SUBSETS[subset]:
            continue
        ab = sum(1 << fmt[x] for x in FORMAT_SETS[name])
        block = min(k, 32) if name.endswith("+scales") else 0
        params = f"K={k},F={f},CHAIN=1,BLOCK={block},AB_MASK={ab},C_MASK={c_mask},OUT_MASK={out_mask}"
        rows.append(f"{i} FDA {k} {f} 1 {block} {ab} {c_mask} {out_mask} 0 fda_unit {params}\n")
    write(out, rows)
    with open(os.path.join(out, "sets.txt"), "w") as fh:  # unit -> format-set name, for the report and plot
        fh.write("# unit format_set\n" + "".join(f"{i} {n}\n" for i, (n, _, _) in enumerate(GRID)))


def mulprobe(units, out):
    lanes, widths = None, {NAIVE_MUL_W}
    for line in open(units):
        col = line.split()
        if line.startswith("#") or len(col) < 12 or col[1] != "M3XU" or col[9] != "0":
            continue
        params = dict(p.split("=") for p in col[11].split(","))
        lanes = int(params["L"])
        widths.add(int(params["MUL_W"]))
    if lanes is None:
        sys.exit(f"units_extra.py: no M3XU design in {units}")
    write(out, [f"{i} PROBE {lanes} 0 1 0 0 0 0 0 mul_probe L={lanes},W={w}\n" for i, w in enumerate(sorted(widths))])


def write(out, rows):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "units.txt")
    text = HEADER + "".join(rows)
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as fh:
            fh.write(text)


def main(argv):
    if len(argv) == 3 and argv[0] == "mulprobe":
        if not os.path.exists(argv[1]):
            sys.exit(f"units_extra.py: {argv[1]}: no such file")
        return mulprobe(argv[1], argv[2])
    if argv[:1] == ["sweep"]:
        subset = "all"
        rest = argv[1:]
        if rest[:1] == ["--subset"] and len(rest) >= 2:
            subset, rest = rest[1], rest[2:]
        if subset in SUBSETS and len(rest) == 1:
            return sweep(subset, rest[0])
    sys.exit("usage: units_extra.py mulprobe UNITS OUT | units_extra.py sweep [--subset all|answers|series] OUT")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
