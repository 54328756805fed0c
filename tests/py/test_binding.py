"""The Python binding (python/mmaref) against the CLI, which shares the library but none of the binding's
code (struct mirror, conversions, shapes), and against hand-derived bits from the papers.
Run by tests/t_py_binding.sh: PYTHONPATH=python, MMAREF=build/mmaref."""
import json
import os
import re
import subprocess

import numpy as np
import pytest

import mmaref

CLI = os.environ.get("MMAREF", "build/mmaref")
H16 = ("hopper", "mma.m16n8k16.f32.f16.f16.f32")  # HMMA.16816.F32: FDA, F = 25, f32 D rounded RZ


def cli(*args, **kw):
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True, **kw).stdout


def record(arch, name):
    """The list() entry of an instruction by its name or its SASS/ISA alias."""
    return [r for r in mmaref.list(arch) if name in (r["name"], r["sass"])][0]


# ---- version: the library's, as `mmaref --version` prints it ----
def test_version_is_the_cli_version():
    v = mmaref.version()
    assert cli("--version").strip() == "mmaref " + v and re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", v)


# ---- list: every field of every record, as `mmaref list --json` prints it ----
def test_list_is_the_cli_table():
    table = json.loads(cli("list", "--json"))
    got = mmaref.list()
    assert len(got) == len(table) > 100
    # the ctypes mirror of mmaref_instr and mmaref_pass, field by field (the first difference only:
    # pytest's diff of two whole tables takes minutes)
    bad = next(((g, t) for g, t in zip(got, table) if g != t), None)
    assert bad is None, "list() %s\n  != CLI %s" % bad


def test_list_one_arch_by_alias():
    got, table = mmaref.list("sm_90"), json.loads(cli("list", "hopper", "--json"))
    assert len(got) == len(table) > 10 and all(g == t for g, t in zip(got, table))


# ---- dot: the MMA-Sim paper's F threshold on Hopper (tests/t_model_paper_mmasim.sh, "threshold") ----
# a = (1, 2^-12), b = (1, 2^-13), c = -1: the products are 1 and 2^-25; e_max = 0, so with F = 25
# fractional bits the 2^-25 term survives alignment: d = -1 + 1 + 2^-25 = 2^-25 = f32 0x33000000.
# With b1 = 2^-14 the term is 2^-26, below the 2^-25 grid: truncated (RZ), d = +0 = 0x00000000.
def _threshold_operands(b1):
    a = np.zeros(16, np.float16)
    b = np.zeros(16, np.float16)
    a[:2] = [1, 2.0 ** -12]
    b[:2] = [1, b1]
    return a, b


def test_dot_paper_threshold_survives():
    a, b = _threshold_operands(2.0 ** -13)
    d = mmaref.dot(*H16, a, b, -1.0)
    assert d.dtype == np.float32 and d == np.float32(2.0 ** -25)
    assert mmaref.dot(*H16, a, b, -1.0, raw=True) == 0x33000000


def test_dot_paper_threshold_truncated():
    a, b = _threshold_operands(2.0 ** -14)
    d = mmaref.dot(*H16, a, b, np.float32(-1), raw=True)
    assert d.dtype == np.uint32 and d == 0x00000000


# Hand-derived by format: e4m3 448 = 1.75 * 2^8 = 0 1111 110 = 0x7e; 2^-9 = smallest subnormal 0x01.
# With a = (448, 2^-9), b = (1, 1), c = 0 on Hopper QGMMA (F = 13, e8m13 output): e_max = 8, the
# grid is 2^(8-13) = 2^-5, so 2^-9 truncates: d = 448 = f32 0x43e00000.
def test_dot_fp8_values_and_bits_agree():
    instr = ("hopper", "wgmma.m64n8k32.f32.e4m3.e4m3")
    a = np.zeros(32)
    b = np.zeros(32)
    a[:2], b[:2] = [448, 2.0 ** -9], [1, 1]
    assert mmaref.dot(*instr, a, b, 0, raw=True) == 0x43e00000
    abits = np.zeros(32, np.uint8)
    bbits = np.zeros(32, np.uint8)
    abits[:2], bbits[:2] = [0x7e, 0x01], [0x38, 0x38]  # e4m3 1.0 = 0 0111 000
    assert mmaref.dot(*instr, abits, bbits, np.uint32(0), raw=True) == 0x43e00000


def test_dot_batch_matches_gen_with_d():
    """dot_batch (mmaref_dot_batch) on `mmaref gen --with-d` lines: kernelized configurations (Hopper f16,
    Blackwell UE8M0-scaled e4m3) and ones on the reference path (M3XU), specials included, 301 lines (a
    tail beyond the 8-lane groups)."""
    for arch, name in [H16, ("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0"),
                       ("m3xu", "m3xu.f32c")]:
        rec = record(arch, name)
        k, ns = rec["k"], (rec["k"] // rec["block_size"] if rec["block_size"] else 0)
        rows = np.array([[int(x, 16) for x in line.split()]
                         for line in cli("gen", arch, name, "--n", "301", "--seed", "9", "--with-d").splitlines()],
                        dtype=np.uint64)
        assert rows.shape[0] == 301
        c, a, b = rows[:, 0], rows[:, 1:1 + k], rows[:, 1 + k:1 + 2 * k]
        sa = rows[:, 1 + 2 * k:1 + 2 * k + ns] if ns else None
        sb = rows[:, 1 + 2 * k + ns:1 + 2 * k + 2 * ns] if ns else None
        d = mmaref.dot_batch(arch, name, a, b, c, sa, sb, raw=True)
        assert d.shape == (301,) and (d == rows[:, -1]).all(), "%s %s: %d differ" % (arch, name,
                                                                                     int((d != rows[:, -1]).sum()))


def test_dot_batch_errors():
    with pytest.raises(mmaref.Error, match="a\\[2, 0\\] = 0x10000 does not fit in f16"):
        a = np.zeros((4, 16), np.uint64)
        a[2, 0] = 0x10000
        mmaref.dot_batch(*H16, a, np.zeros((4, 16), np.uint64), np.zeros(4, np.uint64), raw=True)
    with pytest.raises(mmaref.Error, match="b: shape"):
        mmaref.dot_batch(*H16, np.zeros((4, 16)), np.zeros((3, 16)), np.zeros(4))


def test_dot_matches_gen_with_d():
    """Every line of `mmaref gen --with-d` (directed and random vectors, scales included)."""
    for arch, name in [H16, ("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0"),
                       ("m3xu", "m3xu.f32c"), ("cdna3", "v_mfma_f32_32x32x16_fp8_fp8"),
                       ("ampere", "mma.m8n8k4.f64.f64.f64.f64")]:
        rec = record(arch, name)
        k, ns = rec["k"], (rec["k"] // rec["block_size"] if rec["block_size"] else 0)
        n = 0
        for line in cli("gen", arch, name, "--n", "300", "--seed", "7", "--with-d").splitlines():
            v = [int(x, 16) for x in line.split()]
            c, a, b, rest = v[0], v[1:1 + k], v[1 + k:1 + 2 * k], v[1 + 2 * k:]
            sa, sb = (np.array(rest[:ns], np.uint64), np.array(rest[ns:2 * ns], np.uint64)) if ns else (None, None)
            d = mmaref.dot(arch, name, np.array(a, np.uint64), np.array(b, np.uint64), np.uint64(c), sa, sb,
                           raw=True)
            assert int(d) == rest[-1], "%s %s line %d: %s" % (arch, name, n, line)
            n += 1
        assert n == 300


# ---- mma: whole tiles against `mmaref mma` on the same .npy files ----
def _random_bits(rng, fmt_width, shape):
    return rng.integers(0, 1 << fmt_width, size=shape, dtype=np.uint64)


WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "f64": 64, "e4m3": 8, "e5m2": 8, "e2m1": 4,
         "ue8m0": 8, "ue4m3": 8, "f32c": 64, "e4m3fnuz": 8, "e5m2fnuz": 8}


@pytest.mark.parametrize("arch,name", [H16, ("hopper", "wgmma.m64n8k32.f32.e4m3.e5m2"),
                                       ("blackwell", "tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3"),
                                       ("m3xu", "m3xu.f32c"), ("cdna2", "v_mfma_f32_32x32x8f16"),
                                       ("ampere", "mma.m8n8k4.f64.f64.f64.f64")])
def test_mma_matches_cli(tmp_path, arch, name):
    rec = record(arch, name)
    m, n, k, bs = rec["m"], rec["n"], rec["k"], rec["block_size"]
    rng = np.random.default_rng(11)
    ops = {"a": _random_bits(rng, WIDTH[rec["a"]], (m, k)), "b": _random_bits(rng, WIDTH[rec["b"]], (k, n)),
           "c": _random_bits(rng, WIDTH[rec["c"]], (m, n))}
    if bs:
        ops["scale-a"] = _random_bits(rng, WIDTH[rec["scale"]], (m, k // bs))
        ops["scale-b"] = _random_bits(rng, WIDTH[rec["scale"]], (k // bs, n))
    args = []
    for key, arr in ops.items():
        np.save(tmp_path / (key + ".npy"), arr)
        args += ["--" + key, str(tmp_path / (key + ".npy"))]
    cli("mma", arch, name, *args, "-o", str(tmp_path / "d.npy"), "--d-dtype", "bits")
    want = np.load(tmp_path / "d.npy")
    got = mmaref.mma(arch, name, ops["a"], ops["b"], ops["c"], ops.get("scale-a"), ops.get("scale-b"), raw=True)
    assert got.dtype == want.dtype and got.shape == (m, n)
    assert np.array_equal(got, want)
    # the value mode returns the same bits as D's NumPy float type
    vals = mmaref.mma(arch, name, ops["a"], ops["b"], ops["c"], ops.get("scale-a"), ops.get("scale-b"))
    assert np.array_equal(vals.view(want.dtype), want)


def test_mma_float_inputs_tile():
    """A (16, 16) of ones times B (16, 8) of twos plus C = i: every D[i, j] = 32 + i, exactly."""
    A = np.ones((16, 16), np.float16)
    B = np.full((16, 8), 2, np.float16)
    C = np.repeat(np.arange(16, dtype=np.float32)[:, None], 8, axis=1)
    D = mmaref.mma(*H16, A, B, C)
    assert D.dtype == np.float32 and np.array_equal(D, C + 32)


# ---- values in: conversion to raw bits ----
def test_complex_values():
    # m3xu.f32c (K = 2): (1+2i)(i) + 1 * 1 + (0.5 - 0.25i) = -2 + i + 1 + 0.5 - 0.25i = -0.5 + 0.75i, exact
    d = mmaref.dot("m3xu", "m3xu.f32c", np.array([1 + 2j, 1], np.complex64), np.array([1j, 1], np.complex64),
                   np.complex64(0.5 - 0.25j))
    assert d.dtype == np.complex64 and d == np.complex64(-0.5 + 0.75j)
    raw = mmaref.dot("m3xu", "m3xu.f32c", np.array([1 + 2j, 1]), np.array([1j, 1]), 0.5 - 0.25j, raw=True)
    # real part -0.5 = 0xbf000000 in the low 32 bits, imaginary 0.75 = 0x3f400000 in the high 32
    assert raw.dtype == np.uint64 and int(raw) == 0x3f400000bf000000


def test_negative_zero_and_nan_in():
    # DMMA (SFMA: an IEEE fma chain, RNE): -0 * +0 = -0 and -0 + -0 = -0, so d = -0 = 0x8000000000000000
    # only if every -0.0 arrives as its sign bit; with c = +0 the RNE sum -0 + +0 is +0.
    dmma = ("ampere", "mma.m8n8k4.f64.f64.f64.f64")
    assert mmaref.dot(*dmma, [-0.0] * 4, [0.0] * 4, -0.0, raw=True) == 0x8000000000000000
    assert mmaref.dot(*dmma, [-0.0] * 4, [0.0] * 4, 0.0, raw=True) == 0
    # a NaN value becomes the format's NaN; NVIDIA's D NaN is canonical 0x7fffffff (docs/algorithms.md)
    a, b = _threshold_operands(2.0 ** -13)
    assert mmaref.dot(*H16, a, b, float("nan"), raw=True) == 0x7fffffff


# ---- errors: mmaref.Error with the library's message ----
def _with(arr, index, value):
    arr[index] = value
    return arr


def test_errors_are_exceptions():
    z = np.zeros(16, np.float16)
    cases = [
        (lambda: mmaref.dot("nope", "x", z, z, 0), "unknown architecture 'nope'"),
        (lambda: mmaref.list("nope"), "unknown architecture 'nope'"),
        (lambda: mmaref.dot("hopper", "nope", z, z, 0), "hopper has no instruction 'nope'"),
        (lambda: mmaref.dot(*H16, np.full(16, 0.1), z, 0), "a[0] = 0.1 is not exactly representable in f16"),
        (lambda: mmaref.dot(*H16, z, z, 1e300), "c = 1e+300 is not exactly representable in f32"),
        (lambda: mmaref.dot(*H16, z.astype(np.uint32) + 0x10000, z, 0), "a[0] = 0x10000 does not fit in f16"),
        (lambda: mmaref.dot(*H16, z[:3], z, 0), "a: shape (3,), but hopper mma.m16n8k16.f32.f16.f16.f32 needs (16,)"),
        (lambda: mmaref.dot(*H16, z, z, 1j), "c: complex values, but f32 is not a complex format"),
        (lambda: mmaref.dot(*H16, z, z, "x"), "c: dtype <U1"),
        (lambda: mmaref.dot(*H16, z, z, 0, sa=[1], sb=[1]), "has no block scales"),
        (lambda: mmaref.dot("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0", np.zeros(32),
                            np.zeros(32), 0), "needs block scales sa and sb (ue8m0, one per 32 elements of K)"),
        (lambda: mmaref.mma(*H16, np.zeros((16, 16)), np.zeros((8, 16)), np.zeros((16, 8))),
         "B: shape (8, 16), but hopper mma.m16n8k16.f32.f16.f16.f32 needs (16, 8)"),
        (lambda: mmaref.mma(*H16, np.zeros((16, 16)), np.zeros((16, 8)), np.full((16, 8), 0.1)),
         "C[0, 0] = 0.1 is not exactly representable in f32"),
        (lambda: mmaref.mma(*H16, _with(np.zeros((16, 16), np.uint16), (1, 2), 0xffff).astype(np.uint32) + 1,
                            np.zeros((16, 8), np.uint16), np.zeros((16, 8), np.uint32)),
         "A[1, 2] = 0x10000 does not fit in f16 (16 bits)"),  # the binding names the tile element
    ]
    for call, text in cases:
        try:
            call()
        except mmaref.Error as e:
            assert text in str(e), "message %r lacks %r" % (str(e), text)
        else:
            pytest.fail("no mmaref.Error raised (wanted one saying %r)" % text)
    assert issubclass(mmaref.Error, ValueError)


def test_bad_scale_value_is_the_librarys_message():
    """ue8m0 has no -1: from_double refuses it, naming the operand."""
    instr = ("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0")
    with pytest.raises(mmaref.Error, match=r"sb\[0\] = -1.0 is not exactly representable in ue8m0"):
        mmaref.dot(*instr, np.zeros(32), np.zeros(32), 0, sa=[1.0], sb=[-1.0])


# ---- matmul: whole GEMMs through mmaref_gemm (docs/gemm.md) ----
# The hand case of tests/t_cli_gemm.sh: Hopper wgmma.m64n8k16.f32.f16.f16 (FDA, F = 25, f32 RZ), one row of
# A and one column of B, K = 48 = 3 chunks of 16, nonzero lanes 0, 16, 32: products 1, 3*2^-25, 3*2^-25
# (0.75 ulp of 1 each).  serial: each chunk's 1 + 0.75 ulp is cut to 1 -> 0x3f800000; promote:2: the
# chain over chunks 0-1 gives 1, chunk 2 alone 3*2^-25, one FP32 RNE add -> 1 + 1 ulp = 0x3f800001;
# promote:1: 1, + 0.75 ulp -> 1 + 1 ulp, + 0.75 ulp -> 1 + 1.75 ulp -> 1 + 2 ulp = 0x3f800002;
# split-k:2: slice 0 = chunk 0 (1), slice 1 = chunks 1-2 (1.5 ulp exact); C + P0 + P1 = 1 + 1.5 ulp, a tie
# to even: 0x3f800002.
def _hand_gemm():
    A = np.zeros((1, 48), np.float16)
    B = np.zeros((48, 1), np.float16)
    A[0, 0], B[0, 0] = 1, 1
    A[0, 16] = A[0, 32] = np.float16(1.5 * 2 ** -12)
    B[16, 0] = B[32, 0] = np.float16(2 ** -12)
    return A, B


@pytest.mark.parametrize("accumulate, want", [("serial", 0x3f800000), ("promote:2", 0x3f800001),
                                              ("promote:1", 0x3f800002), ("split-k:2", 0x3f800002)])
def test_matmul_hand_strategies(accumulate, want):
    A, B = _hand_gemm()
    D = mmaref.matmul(A, B, np.zeros((1, 1), np.float32), arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16",
                      accumulate=accumulate, raw=True)
    assert D.shape == (1, 1) and D.dtype == np.uint32 and int(D[0, 0]) == want, hex(int(D[0, 0]))


def test_matmul_is_the_cli_gemm(tmp_path):
    """A ragged 70 x 13 x 50 GEMM: the same bits as `mmaref gemm` (which shares the library, not the
    binding's conversions), for 1 and 2 threads, and C = None is +0."""
    rng = np.random.default_rng(5)
    A = rng.integers(-8, 8, (70, 50)).astype(np.float16) * np.float16(0.125)
    B = rng.integers(-8, 8, (50, 13)).astype(np.float16) * np.float16(0.25)
    C = np.zeros((70, 13), np.float32)
    for name, x in (("a", A), ("b", B), ("c", C)):
        np.save(tmp_path / (name + ".npy"), x)
    cli("gemm", "hopper", "wgmma.m64n8k16.f32.f16.f16", "--a", str(tmp_path / "a.npy"), "--b", str(tmp_path / "b.npy"),
        "--c", str(tmp_path / "c.npy"), "-o", str(tmp_path / "d.npy"), "--accumulate", "promote:2")
    want = np.load(tmp_path / "d.npy")
    for threads in (1, 2):
        got = mmaref.matmul(A, B, None, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", accumulate="promote:2",
                            threads=threads)
        assert got.dtype == np.float32 and np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_matmul_errors():
    A, B = _hand_gemm()
    with pytest.raises(mmaref.Error, match="accumulate is serial, split-k:S or promote:N"):
        mmaref.matmul(A, B, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", accumulate="promote:0")
    with pytest.raises(mmaref.Error, match=r"not an \(M, K\) and a \(K, N\) matrix"):
        mmaref.matmul(A, B[:40], arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16")


# ---- the host's floating-point environment: x86 flush-to-zero and denormals-are-zero ----
# torch.set_flush_denormal(True) or a -ffast-math library sets MXCSR's FTZ (bit 15) and DAZ (bit 6) in the
# process; NumPy cannot.  A two-function C helper, built here, reads and writes MXCSR through ctypes.
MXCSR_HELPER = r"""
#include <xmmintrin.h>
unsigned mxcsr_get(void) { return _mm_getcsr(); }
void mxcsr_set(unsigned csr) { _mm_setcsr(csr); }
"""


def _mxcsr(tmp_path):
    import ctypes
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("MXCSR is x86's")
    src, so = tmp_path / "mxcsr.c", tmp_path / "mxcsr.so"
    src.write_text(MXCSR_HELPER)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(so), str(src)], check=True)
    helper = ctypes.CDLL(str(so))
    helper.mxcsr_get.restype = ctypes.c_uint
    helper.mxcsr_set.argtypes = [ctypes.c_uint]
    return helper


def test_dot_f64_subnormal_under_ftz_daz(tmp_path):
    """DMMA with a = 2^-1074 (the smallest binary64 subnormal), b = 2^1000: d = 2^-74 = 5.29e-23, the same
    bits with MXCSR's FTZ and DAZ set as without (the library's conversions decode binary64 bits with
    integer operations), and the caller's MXCSR as it was."""
    helper = _mxcsr(tmp_path)
    instr = ("ampere", "mma.m8n8k4.f64.f64.f64.f64")
    a = np.array([0, 0, 0, 0], np.uint64).view(np.float64)
    a[0] = np.uint64(1).view(np.float64)  # 5e-324, made from its bits
    b = np.array([2.0 ** 1000, 0, 0, 0])
    want = mmaref.dot(*instr, a, b, 0.0, raw=True)
    assert int(want) == 0x3b50000000000000  # 2^-74: biased exponent 1023 - 74 = 949 = 0x3b5
    saved = helper.mxcsr_get()
    helper.mxcsr_set(saved | 0x8040)
    try:
        got_raw = mmaref.dot(*instr, a, b, 0.0, raw=True)
        got = mmaref.dot(*instr, a, b, 0.0)
        csr = helper.mxcsr_get()
    finally:
        helper.mxcsr_set(saved)
    assert csr & 0x8040 == 0x8040, "the library changed the caller's FTZ/DAZ: 0x%x" % csr
    assert int(got_raw) == int(want), hex(int(got_raw))
    assert got.dtype == np.float64 and int(np.float64(got).view(np.uint64)) == int(want)


# ---- matmul's integers and memory: checked before they reach a C int, as `mmaref gemm` checks them ----
@pytest.mark.parametrize("accumulate", ["promote:4294967297", "split-k:99999999999", "promote:2147483648",
                                        "promote:-1", "split-k:\u00b2", "promote:0x10", "promote:+2"])
def test_matmul_accumulate_out_of_range(accumulate):
    """ctypes would carry promote:4294967297 as promote:1 and split-k:99999999999 as 1215752191."""
    A, B = _hand_gemm()
    with pytest.raises(mmaref.Error, match=r"accumulate is serial, split-k:S or promote:N \(S, N 1 \.\. 2147483647\)"):
        mmaref.matmul(A, B, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", accumulate=accumulate)


def test_matmul_promote_int_max():
    """promote:2147483647 (INT_MAX) runs: past the 3 chunks of K = 48 it is one group, promote:3."""
    A, B = _hand_gemm()
    got = [mmaref.matmul(A, B, np.zeros((1, 1), np.float32), arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16",
                         accumulate=acc, raw=True) for acc in ("promote:2147483647", "promote:3")]
    assert int(got[0][0, 0]) == int(got[1][0, 0])


@pytest.mark.parametrize("threads", [-1, 2 ** 40, 1025, "x", 1.5, True, None])
def test_matmul_threads_out_of_range(threads):
    """threads is 0 (every core) or 1 .. 1024, as `mmaref gemm --threads`; -1 and 2**40 ran on every core."""
    A, B = _hand_gemm()
    with pytest.raises(mmaref.Error, match=r"threads is an integer 0 \.\. 1024, not"):
        mmaref.matmul(A, B, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", threads=threads)


def test_matmul_threads_numpy_integer():
    A, B = _hand_gemm()
    D = mmaref.matmul(A, B, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", threads=np.int64(2), raw=True)
    assert int(D[0, 0]) == 0x3f800000


def test_matmul_memory_cap():
    """A (20000, 1) by B (1, 20000): a 3 GB D, refused at the default cap (1 GiB) before anything is
    allocated; the 1 x 1 x 48 GEMM holds 8 (48 + 48 + 1 + 48 + 48) = 1544 bytes: refused at 1543, run at 1544."""
    A = np.ones((20000, 1), np.float16)
    with pytest.raises(mmaref.Error, match=r"M = 20000, N = 20000, K = 1 \(4e\+08 multiply-adds\) needs 2\.99 GiB, "
                                           r"above max_memory 1 GiB"):
        mmaref.matmul(A, A.T, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16")
    a, b = _hand_gemm()
    with pytest.raises(mmaref.Error, match=r"needs 1\.51 KiB, above max_memory 1\.51 KiB"):
        mmaref.matmul(a, b, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", max_memory=1543)
    D = mmaref.matmul(a, b, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", max_memory=1544, raw=True)
    assert int(D[0, 0]) == 0x3f800000
    for bad in (0, -5, "1G", 2 ** 64):
        with pytest.raises(mmaref.Error, match=r"max_memory is an integer 1 \.\. "):
            mmaref.matmul(a, b, arch="hopper", instr="wgmma.m64n8k16.f32.f16.f16", max_memory=bad)
