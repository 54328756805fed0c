#!/usr/bin/env python3
"""FP8 GEMM accuracy as K grows (docs/python.md, `make study-gemm`): the relative error of D = A B against
the exact product for Hopper's QGMMA (wgmma e4m3: F = 13 and an e8m13 accumulator), the same with
DeepSeek-V3's promotion (every 4 instructions = 128 elements of K added into an FP32 accumulator on the
CUDA cores: `promote:4`), and Blackwell's tcgen05 (F = 25).  A and B: standard normal values rounded to
e4m3 (a fixed seed), M = N = 64; the exact product in float64 (every e4m3 product is exact in it and the
sums' rounding, below 2^-40 relatively, is far below what is measured).

usage: gemm_fp8.py OUT_DIR  -> OUT_DIR/study-gemm.tsv (python/studies/gemm_fp8.gp plots it),
                              OUT_DIR/study-gemm.md (printed too)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mmaref  # noqa: E402

KS = (256, 512, 1024, 2048, 4096, 8192, 16384)
M = N = 64
CASES = (  # label, architecture, instruction, accumulation
    ("Hopper QGMMA (F = 13), serial", "hopper", "wgmma.m64n8k32.f32.e4m3.e4m3", "serial"),
    ("Hopper QGMMA, promote:4 (DeepSeek-V3)", "hopper", "wgmma.m64n8k32.f32.e4m3.e4m3", "promote:4"),
    ("Blackwell tcgen05 (F = 25), serial", "blackwell", "tcgen05.mma.m64n8k32.f32.e4m3.e4m3", "serial"),
)


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(2024)
    # the e4m3 grid: every finite value (the format's 126 positive normal and subnormal values, their
    # negatives, zero), from the library through a 1-lane dot-add would be circuitous; e4m3 is 1-4-3
    # with bias 7, subnormals at 2^-6 * m/8, max 448 (OCP FP8 spec)
    mags = [m / 8 * 2.0 ** -6 for m in range(8)] + [(1 + m / 8) * 2.0 ** e for e in range(-6, 9) for m in range(8)]
    grid = np.array(sorted(set([v for v in mags if v <= 448] + [-v for v in mags if v <= 448])))

    def quantize(x):
        i = np.clip(np.searchsorted(grid, x), 1, len(grid) - 1)
        lo, hi = grid[i - 1], grid[i]
        return np.where(x - lo <= hi - x, lo, hi)

    rows = []
    for k in KS:
        A = quantize(rng.standard_normal((M, k)))
        B = quantize(rng.standard_normal((k, N)))
        exact = A @ B  # float64
        for label, arch, instr, acc in CASES:
            D = mmaref.matmul(A, B, None, arch=arch, instr=instr, accumulate=acc).astype(np.float64)
            err = np.abs(D - exact)
            norm = np.linalg.norm(D - exact) / np.linalg.norm(exact)
            big = np.abs(exact) >= 0.1 * np.sqrt(k)  # elements not near a cancellation to zero
            rel = (err[big] / np.abs(exact[big])).max()
            rows.append((k, label, norm, rel))
    with open(os.path.join(out, "study-gemm.tsv"), "w") as f:  # one row per K, for gnuplot
        f.write("# K, then per case (%s): normwise relative error; then per case: the largest elementwise "
                "relative error (|AB| >= 0.1 sqrt(K))\n" % "; ".join(c[0] for c in CASES))
        for k in KS:
            norms = [norm for kk, _, norm, _ in rows if kk == k]
            rels = [rel for kk, _, _, rel in rows if kk == k]
            f.write("\t".join([str(k)] + ["%.6g" % x for x in norms + rels]) + "\n")
    md = ["| K | " + " | ".join(c[0] for c in CASES) + " |", "|---|" + "---|" * len(CASES)]
    for k in KS:
        cells = ["%.2e / %.2e" % (norm, rel) for kk, _, norm, rel in rows if kk == k]
        md.append("| %d | %s |" % (k, " | ".join(cells)))
    text = ("FP8 (e4m3) GEMM, M = N = %d, A and B standard normal rounded to e4m3; each cell: normwise relative "
            "error ||D - AB|| / ||AB|| / the largest elementwise relative error (elements with |AB| >= "
            "0.1 sqrt(K)).\n\n" % M) + "\n".join(md) + "\n"
    open(os.path.join(out, "study-gemm.md"), "w").write(text)
    print(text, end="")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
