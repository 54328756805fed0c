"""The Python binding (python/mmaref) against the CLI, which shares the library but none of the binding's
code (struct mirror, conversions, shapes), and against hand-derived bits from the papers.
Run by tests/t_py_binding.sh: PYTHONPATH=python, MMAREF=build/mmaref."""
import json
import os
import re
import subprocess
from fractions import Fraction

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
        (lambda: mmaref.dot(*H16, np.zeros(17), z, 0),
         "a: 17 values, but hopper mma.m16n8k16.f32.f16.f16.f32 takes a list of 1 .. 16 (the missing trailing ones +0)"),
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


# ---- refused inputs: what the binding cannot pass on exactly is mmaref.Error naming it, never a silent change ----
DMMA = ("ampere", "mma.m8n8k4.f64.f64.f64.f64")  # f64 in and out, an IEEE fma chain: d = c + a.b exactly here
FP8 = ("hopper", "wgmma.m64n8k32.f32.e4m3.e4m3")
E2M1 = ("blackwell", "tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3")  # K = 64, 4 scales of 16
UE8M0 = ("blackwell", "tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0")
needs_long_double = pytest.mark.skipif(np.finfo(np.longdouble).nmant <= 52, reason="np.longdouble is a double here")
Z16, Z4 = np.zeros(16), np.zeros(4)


def _refused(call, *texts):
    """call() raises mmaref.Error whose one-line message holds every text (the input's name, its index)."""
    with pytest.raises(mmaref.Error) as e:
        call()
    msg = str(e.value)
    assert "\n" not in msg and all(t in msg for t in texts), "message %r lacks one of %r" % (msg, texts)


# dot() takes 1 .. K values of a and b, the missing trailing ones +0 (sa, sb: the missing scales 1.0), as
# `mmaref dot` reads -a 1,0x1p-12 (cmodel/tools/cli_operands.c) and the web page its lanes.
def test_dot_fills_missing_lanes_as_the_cli():
    # the threshold case above with two lanes given: -1 + 1*1 + 2^-12 * 2^-13 = 2^-25 = 0x33000000
    assert mmaref.dot(*H16, [1, 2.0 ** -12], [1, 2.0 ** -13], -1.0, raw=True) == 0x33000000
    assert cli("dot", *H16, "-a", "1,0x1p-12", "-b", "1,0x1p-13", "-c", "-1").split()[0] == "0x33000000"
    # the filled lanes are raw bits 0 (+0): the same D as sixteen lanes given with bits 0
    a = np.zeros(16, np.uint16)
    a[0] = 0xbc00  # f16 -1
    assert mmaref.dot(*H16, [-1.0], [1.0], 0.0, raw=True) == mmaref.dot(*H16, a, np.eye(1, 16, dtype=np.uint16)[0] * 0x3c00,
                                                                        np.uint32(0), raw=True)
    # e2m1 K = 64 in blocks of 16, scales ue4m3: 17 lanes of 6 * 1, sa = [2] (blocks 1 .. 3 get 1.0):
    # block 0: 16 * 6 * 2 = 192, block 1: 6 * 1 = 6; d = 198 = 1.546875 * 2^7 = f32 0 10000110 1000110 0..0
    # = 0x43460000 (exact: every term is an integer, far inside F)
    assert mmaref.dot(*E2M1, [6] * 17, [1] * 17, 0, sa=[2], sb=[1], raw=True) == 0x43460000
    assert cli("dot", *E2M1, "-a", ",".join(["6"] * 17), "-b", ",".join(["1"] * 17), "-c", "0", "--scale-a", "2",
               "--scale-b", "1").split()[0] == "0x43460000"


@pytest.mark.parametrize("call, what", [
    (lambda: mmaref.dot(*H16, np.zeros(17), [1], 0), "a: 17 values, but hopper mma.m16n8k16.f32.f16.f16.f32 "
     "takes a list of 1 .. 16 (the missing trailing ones +0)"),
    (lambda: mmaref.dot(*H16, [1], [], 0), "b: 0 values, but"),
    (lambda: mmaref.dot(*H16, np.zeros((2, 2)), [1], 0), "a: shape (2, 2), but"),
    (lambda: mmaref.dot(*E2M1, [1], [1], 0, sa=[1] * 5, sb=[1]),
     "sa: 5 values, but blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3 takes a list of 1 .. 4 "
     "(the missing trailing ones 1.0)"),
], ids=["17-of-16", "none", "matrix", "5-scales-of-4"])
def test_dot_lane_count_refused(call, what):
    _refused(call, what)


# An inexact value's message names the format's nearest value (round to nearest, ties to even) as the
# CLI's does (cmodel/tools/cli_real.c), each derived here:
#   0.1 in f16: 0.1 = 1.6 * 2^-4, 1.6 * 2^10 = 1638.4 -> 1638 = 0x666: biased 11 = 01011, mantissa 0x266:
#     0x2e66 = 1638 * 2^-14 = 0.0999755859375, 9 digits 0.0999755859
#   1e300 in f32: past the largest finite -> inf 0x7f800000
#   2^53 + 1 in f64: a tie between 2^53 and 2^53 + 2, to even: 2^53 = 0x4340000000000000 (biased 1076)
#   5 in e2m1: a tie between 4 (0 11 0 = 0x6) and 6 (0 11 1), to even: 4
#   7 in e2m1: past 6, its largest, with neither inf nor NaN to round to: no nearest named
#   1000 in e4m3: past 448, rounds to e4m3's NaN: no nearest named
@pytest.mark.parametrize("instr, text, value, nearest", [
    (H16, "0.1", 0.1, " (nearest: 0x2e66 = 0.0999755859)"),
    (H16, "1e300", 1e300, " (nearest: 0x7f800000 = inf)"),
    (DMMA, "9007199254740993", 2 ** 53 + 1, " (nearest: 0x4340000000000000 = 9007199254740992)"),
    (E2M1, "5", 5.0, " (nearest: 0x6 = 4)"),
    (E2M1, "7", 7.0, ""),
    (FP8, "1000", 1000.0, ""),
], ids=["f16-0.1", "f32-overflow", "f64-tie", "e2m1-tie", "e2m1-past-max", "e4m3-past-max"])
def test_inexact_names_the_nearest_as_the_cli(instr, text, value, nearest):
    scales = {"sa": [1], "sb": [1]} if instr == E2M1 else {}
    with pytest.raises(mmaref.Error) as e:
        if instr == H16 and text == "1e300":
            mmaref.dot(*instr, [0], [0], value, **scales)
        else:
            mmaref.dot(*instr, [value], [1], 0, **scales)
    msg = str(e.value)
    assert msg.endswith("is not exactly representable in %s%s" % (record(*instr)["c" if text == "1e300" else "a"],
                                                                    nearest)), msg
    opt = ["-a", "0", "-b", "0", "-c", text] if text == "1e300" else ["-a", text, "-b", "1", "-c", "0"]
    p = subprocess.run([CLI, "dot", *instr, *opt, *(["--scale-a", "1", "--scale-b", "1"] if scales else [])],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.rstrip("\n").endswith(msg.split(" is not", 1)[1]), (p.stderr, msg)


def _one_past_double():
    """1 + 2^-60: a long double, not a double (a double's 52 fraction bits end at 2^-52)."""
    return np.longdouble(1) + np.longdouble(2) ** -60


def _long_doubles(shape, index, x):
    return _with(np.zeros(shape, np.longdouble), index, x)


# np.longdouble: a value is checked against the double it would become, then against the format
@needs_long_double
@pytest.mark.parametrize("where, call", [
    ("c = 1.000000000000000000", lambda x: mmaref.dot(*H16, Z16, Z16, x)),
    ("b[3] = 1.000000000000000000", lambda x: mmaref.dot(*H16, Z16, _long_doubles(16, 3, x), 0)),
    ("A[1, 2] = 1.000000000000000000",
     lambda x: mmaref.mma(*H16, _long_doubles((16, 16), (1, 2), x), np.zeros((16, 8)), np.zeros((16, 8)))),
    ("C[0, 0] = 1.000000000000000000", lambda x: mmaref.matmul(np.zeros((1, 16)), np.zeros((16, 1)), np.array([[x]]))),
    ("sa[0] = 1.000000000000000000", lambda x: mmaref.dot(*UE8M0, np.zeros(32), np.zeros(32), 0, sa=[x], sb=[1.0])),
    ("a[0].imag = 1.000000000000000000",
     lambda x: mmaref.dot("m3xu", "m3xu.f32c", np.array([x * 1j, 0], np.clongdouble), np.zeros(2), 0)),
], ids=["dot-c", "dot-b", "mma-A", "matmul-C", "dot-sa", "f32c-imag"])
def test_long_double_not_a_double_refused(where, call):
    _refused(lambda: call(_one_past_double()), where, "is not exactly representable in")


def test_long_double_that_is_a_double_works():
    # c = 1.5 with zero products: d = 1.5 = 1.1b * 2^0 = f32 0 01111111 100..0 = 0x3fc00000
    assert mmaref.dot(*H16, Z16, Z16, np.longdouble(1.5), raw=True) == 0x3fc00000
    # the tile of test_mma_float_inputs_tile as long doubles: ones times twos over K = 16 plus C = i is 32 + i
    C = np.repeat(np.arange(16, dtype=np.longdouble)[:, None], 8, axis=1)
    D = mmaref.mma(*H16, np.ones((16, 16), np.longdouble), np.full((16, 8), 2, np.longdouble), C)
    assert D.dtype == np.float32 and np.array_equal(D, (C + 32).astype(np.float32))
    # 2^-60 is a double (a power of two): f64 0x3c30000000000000 (biased exponent 1023 - 60 = 963 = 0x3c3)
    assert mmaref.dot(*DMMA, Z4, Z4, np.longdouble(2) ** -60, raw=True) == 0x3c30000000000000


# names: C reads a name up to its NUL, so a NUL inside would look up the prefix
@pytest.mark.parametrize("call, what", [
    (lambda: mmaref.dot("hopper\0x", H16[1], Z16, Z16, 0), "arch = 'hopper\\x00x' holds a NUL"),
    (lambda: mmaref.dot("hopper", H16[1] + "\0junk", Z16, Z16, 0),
     "name = 'mma.m16n8k16.f32.f16.f16.f32\\x00junk' holds a NUL"),
    (lambda: mmaref.list("hopper\0x"), "arch = 'hopper\\x00x' holds a NUL"),
    (lambda: mmaref.matmul(np.zeros((1, 16)), np.zeros((16, 1)), instr=H16[1] + "\0"), "instr = "),
    (lambda: mmaref.mma(b"hopper\0", H16[1], np.zeros((16, 16)), np.zeros((16, 8)), np.zeros((16, 8))),
     "arch = 'hopper\\x00'"),
], ids=["dot-arch", "dot-name", "list-arch", "matmul-instr", "mma-arch-bytes"])
def test_name_with_nul_refused(call, what):
    _refused(call, what, "NUL")


@pytest.mark.parametrize("call, what", [
    (lambda: mmaref.dot(b"hop\xffper", H16[1], Z16, Z16, 0), "arch = b'hop\\xffper' is not UTF-8 text (byte 3)"),
    (lambda: mmaref.dot("hopper", b"mma\xc3", Z16, Z16, 0), "name = b'mma\\xc3' is not UTF-8 text (byte 3)"),
    (lambda: mmaref.dot("hopper\udcff", H16[1], Z16, Z16, 0), "arch = 'hopper\\udcff' is not encodable text"),
    (lambda: mmaref.list("hopper\udcff"), "arch = 'hopper\\udcff' is not encodable text"),
    (lambda: mmaref.matmul(np.zeros((1, 16)), np.zeros((16, 1)), instr="x\udcff"), "instr = 'x\\udcff'"),
    (lambda: mmaref.dot(5, H16[1], Z16, Z16, 0), "arch is a name (str), not 5 (int)"),
    (lambda: mmaref.dot("hopper", None, Z16, Z16, 0), "name is a name (str), not None (NoneType)"),
], ids=["bytes-arch", "bytes-name", "surrogate-arch", "surrogate-list", "surrogate-instr", "int-arch", "none-name"])
def test_name_not_text_refused(call, what):
    _refused(call, what)


def test_names_as_bytes_and_str_work():
    """Bytes of UTF-8 text name what the str names."""
    assert len(mmaref.list(b"hopper")) == len(mmaref.list("hopper")) > 10
    a, b = _threshold_operands(2.0 ** -13)
    assert mmaref.dot(b"hopper", H16[1].encode(), a, b, -1.0, raw=True) == 0x33000000  # the paper's threshold


# ragged nested sequences: NumPy's ValueError becomes an Error naming the first row unlike the first
@pytest.mark.parametrize("call, what", [
    (lambda: mmaref.mma(*H16, [[1, 2], [3]], np.zeros((16, 8)), np.zeros((16, 8))),
     "A is ragged: A[1] has 1 element, but A[0] has 2 elements"),
    (lambda: mmaref.dot(*H16, [1] + [[2]] * 15, Z16, 0), "a is ragged: a[1] has 1 element, but a[0] is a number"),
    (lambda: mmaref.dot_batch(*H16, np.zeros((2, 16)), np.zeros((2, 16)), [[1], [2, 3]]),
     "c is ragged: c[1] has 2 elements"),
    (lambda: mmaref.matmul([[1.0] * 16, [1.0] * 15], np.zeros((16, 1))),
     "A is ragged: A[1] has 15 elements, but A[0] has 16"),
    (lambda: mmaref.mma(*UE8M0, np.zeros((128, 32)), np.zeros((32, 8)), np.zeros((128, 8)),
                        [[1.0]] * 127 + [[1.0, 1.0]], np.ones((1, 8))), "SA is ragged: SA[127] has 2 elements"),
], ids=["mma-A", "dot-a", "dot_batch-c", "matmul-A", "mma-SA"])
def test_ragged_refused(call, what):
    _refused(call, what)


def test_nested_lists_work():
    """The tile of test_mma_float_inputs_tile as Python lists: ones times twos over K = 16 is 32."""
    D = mmaref.mma(*H16, [[1.0] * 16] * 16, [[2] * 8] * 16, [[0] * 8] * 16)
    assert D.dtype == np.float32 and D.shape == (16, 8) and (D == 32).all()


# Python ints are values, exactly: NumPy takes 2^63 .. 2^64 - 1 as uint64 (which the binding reads as raw
# bits) and rounds an int beside floats to float64; a Python int beyond the double range has no double
def test_python_int_2_63_is_a_value():
    # 2^63 = f64 biased exponent 1023 + 63 = 1086 = 0x43e: 0x43e0000000000000 (raw bits would be -0)
    assert mmaref.dot(*DMMA, Z4, Z4, 2 ** 63, raw=True) == 0x43e0000000000000
    # 2^70 = f32 biased exponent 127 + 70 = 197 = 0xc5: 0 11000101 0..0 = 0x62800000; an object array too
    assert mmaref.dot(*H16, Z16, Z16, 2 ** 70, raw=True) == 0x62800000
    assert mmaref.dot(*H16, Z16, Z16, np.array(2 ** 70, dtype=object), raw=True) == 0x62800000
    # [2^53, 0.5, 0, 0] . [1, 0, 0, 0] = 2^53: 1023 + 53 = 1076 = 0x434
    assert mmaref.dot(*DMMA, [2 ** 53, 0.5, 0, 0], [1, 0, 0, 0], 0, raw=True) == 0x4340000000000000


@pytest.mark.parametrize("call, what", [
    (lambda: mmaref.dot(*DMMA, [2 ** 53 + 1, 0.5, 0, 0], Z4, 0),
     "a[0] = 9007199254740993 is not exactly representable in f64"),
    (lambda: mmaref.dot(*DMMA, np.array([0, 0, 2 ** 53 + 1, 0]), Z4, 0), "a[2] = 9007199254740993 is not exactly"),
    (lambda: mmaref.dot(*DMMA, Z4, Z4, np.int64(2 ** 63 - 1)), "c = 9223372036854775807 is not exactly"),
    (lambda: mmaref.dot(*H16, Z16, Z16, 2 ** 70 + 1), "c = 1180591620717411303425 is not exactly representable in f32"),
    (lambda: mmaref.dot(*DMMA, Z4, [0, 0, 0, -2 ** 1100], 0),
     "b[3] = -%d is not exactly representable in f64" % 2 ** 1100),
], ids=["list-2^53+1", "int64-2^53+1", "int64-max", "2^70+1", "-2^1100"])
def test_integer_not_a_double_refused(call, what):
    _refused(call, what)


# what is not a number: bools, strings, None, objects; raw bits beside values; masked elements
@pytest.mark.parametrize("call, what", [
    (lambda: mmaref.dot(*H16, Z16, Z16, True), "c = True (bool) is not a number"),
    (lambda: mmaref.dot(*H16, np.ones(16, bool), Z16, 0), "a: dtype bool"),
    (lambda: mmaref.dot(*H16, Z16, [0.0] * 15 + [np.True_], 0), "b[15] = True (bool_) is not a number"),
    (lambda: mmaref.dot(*H16, np.array([None] * 16), Z16, 0), "a[0] = None (NoneType) is not a number"),
    (lambda: mmaref.dot(*H16, ["1"] * 16, Z16, 0), "a[0] = '1' (str) is not a number"),
    (lambda: mmaref.mma(*H16, np.zeros((16, 16)), np.zeros((16, 8)), _with(np.zeros((16, 8), object), (2, 3), {})),
     "C[2, 3] = {} (dict) is not a number"),
    (lambda: mmaref.dot(*H16, [np.uint16(0x3c00)] + [1.0] * 15, Z16, 0),
     "a[0] = 15360 is raw bits (a NumPy unsigned integer) among values"),
    (lambda: mmaref.dot(*H16, np.ma.masked_array(np.ones(16), mask=np.arange(16) == 5), Z16, 0), "a[5] is masked"),
    (lambda: mmaref.dot(*H16, [Fraction(1, 3)] * 16, Z16, 0), "a[0] = 1/3 is not exactly representable in f16"),
    (lambda: mmaref.dot(*H16, Z16, Z16, 1 + 0j), "c: complex values, but f32 is not a complex format"),
], ids=["bool", "bool-array", "numpy-bool", "None", "str", "dict", "raw-among-values", "masked", "fraction",
        "complex"])
def test_not_a_number_refused(call, what):
    _refused(call, what)


def test_numbers_in_object_arrays_and_lists_work():
    # 16 products 1.5 * 1 = 24 = 1.1b * 2^4: f32 biased exponent 131 = 0x83, 0 10000011 100..0 = 0x41c00000
    for a in (np.array([1.5] * 16, dtype=object), [Fraction(3, 2)] * 16, [np.float16(1.5)] * 8 + [1.5] * 8,
              np.ma.masked_array(np.full(16, 1.5), mask=False), [np.array(1.5)] * 16):
        assert mmaref.dot(*H16, a, np.ones(16), 0, raw=True) == 0x41c00000
    # raw bits as a list of NumPy unsigned scalars (f16 1.0 = 0x3c00), c = 1 (an int, not True):
    # 16 + 1 = 17 = 1.0001b * 2^4 = 0 10000011 0001 0..0 = 0x41880000
    assert mmaref.dot(*H16, [np.uint16(0x3c00)] * 16, np.ones(16), 1, raw=True) == 0x41880000


@pytest.mark.parametrize("raw", ["no", None, 2, 1.0])
def test_raw_flag_refused(raw):
    _refused(lambda: mmaref.dot(*H16, Z16, Z16, 0, raw=raw), "raw is True or False, not %r" % (raw,))


def test_raw_flag_bools_work():
    for raw in (True, np.True_, 1):
        assert mmaref.dot(*H16, Z16, Z16, 1.0, raw=raw) == 0x3f800000
    assert mmaref.dot(*H16, Z16, Z16, 1.0, raw=0).dtype == np.float32


# NaN: a format with a NaN takes any NaN value as its canonical NaN; a format with none (e2m1) refuses it
def test_nan_where_the_format_has_none_refused():
    a = np.zeros(64)
    a[7] = np.nan
    _refused(lambda: mmaref.dot(*E2M1, a, np.zeros(64), 0, sa=np.ones(4), sb=np.ones(4)),
             "a[7] = nan is not exactly representable in e2m1")
    a[7] = np.inf  # nor an infinity
    _refused(lambda: mmaref.dot(*E2M1, a, np.zeros(64), 0, sa=np.ones(4), sb=np.ones(4)),
             "a[7] = inf is not exactly representable in e2m1")


def test_nan_where_the_format_has_one_works():
    # e2m1's largest value 6 = 1.1b * 2^2, scales 1: d = 6 = f32 0 10000001 100..0 = 0x40c00000
    a = np.zeros(64)
    a[7] = 6
    assert mmaref.dot(*E2M1, a, np.ones(64), 0, sa=np.ones(4), sb=np.ones(4), raw=True) == 0x40c00000
    # e4m3 has a NaN (S 1111 111): a NaN A makes D NVIDIA's canonical NaN 0x7fffffff
    a = np.zeros(32)
    a[0] = np.nan
    assert mmaref.dot(*FP8, a, np.ones(32), 0, raw=True) == 0x7fffffff


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
