"""mmaref: the bit-accurate golden model of GPU matrix units, from Python (docs/python.md).

    import numpy as np, mmaref
    mmaref.list("hopper")                                # the instruction table, as `mmaref list --json`
    mmaref.dot("hopper", "mma.m16n8k16.f32.f16.f16.f32", a, b, c)        # one dot-add d = c + sum a[k] b[k]
    mmaref.mma("hopper", "mma.m16n8k16.f32.f16.f16.f32", A, B, C)        # a tile D = A B + C
    mmaref.matmul(A, B, C, arch="hopper", instr="wgmma.m64n8k32.f32.e4m3.e4m3", accumulate="promote:4")

Values in: float16/float32/float64 (complex64 for f32c) arrays, each value exactly representable in its
operand format, or raw bits as unsigned integer arrays.  Out: floats of D's format (float16, float32,
float64, complex64), or with raw=True its raw bits (uint16, uint32, uint64).  Every error raises
mmaref.Error (a ValueError) with the library's message, or one naming the input: what the binding cannot
pass on exactly (a long double that is not a double, a name with a NUL, a ragged list, a bool) is
refused, never changed.  A ctypes binding over libmmaref.so: nothing is compiled at import.
"""
import ctypes
import operator
import re

import numpy as np

from . import _lib
from ._bits import Error, from_bits, shape, to_bits

__all__ = ["Error", "version", "list", "dot", "dot_batch", "mma", "matmul"]

lib = _lib.lib


def _text(b):
    return _lib.text(b)


def _c_name(value, what):
    """An architecture or instruction name (str, or bytes of UTF-8 text) as the C string the library
    reads.  A NUL is refused: C would end the name there and look up what precedes it."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError as e:
            raise Error("%s = %r is not UTF-8 text (byte %d)" % (what, value, e.start)) from None
    if not isinstance(value, str):
        raise Error("%s is a name (str), not %r (%s)" % (what, value, type(value).__name__))
    if "\0" in value:
        raise Error("%s = %r holds a NUL character (at %d); a name cannot" % (what, value, value.index("\0")))
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:  # a lone surrogate (\udcff, from undecodable bytes)
        raise Error("%s = %r is not encodable text (a lone surrogate at %d)" % (what, value, e.start)) from None


def _flag(value, what):
    """A yes/no argument: True, False (NumPy's bools, 0 and 1 too); anything else is refused, not read as
    its truth value (raw="no" would be True)."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
        return bool(value)
    raise Error("%s is True or False, not %r" % (what, value))


def _lookup(arch, name, names=("arch", "name")):
    """The instruction record of (arch, name); name may be the SASS/ISA alias."""
    arch, name = _c_name(arch, names[0]), _c_name(name, names[1])
    rec = _lib.Instr()
    msg = ctypes.create_string_buffer(_lib.MSG_LEN)
    if lib.mmaref_lookup(arch, name, ctypes.byref(rec), msg, len(msg)) != _lib.OK:
        raise Error(_text(msg.value))
    return rec


def _describe(rec):
    """An instruction record as the dict `mmaref list --json` prints for it (the same keys and values)."""
    sched = ctypes.create_string_buffer(64)
    lib.mmaref_schedule_name(ctypes.byref(rec), sched, len(sched))
    fmt = lambda f: _text(lib.mmaref_format_name(f))
    passes = []
    for i in range(rec.passes):
        p = rec.pass_(i)
        passes.append({"algo": _text(lib.mmaref_algo_name(p.algo)), "k_first": p.k_first, "k_count": p.k_count,
                       "k_run": p.k_run, "k_stride": p.k_stride,
                       "frac_bits": p.frac_bits, "group": p.group,
                       "align_products": _text(lib.mmaref_rounding_name(p.align_products)),
                       "align_c": _text(lib.mmaref_rounding_name(p.align_c)),
                       "scales": _text(lib.mmaref_scaling_name(p.scales)), "flush": p.flush,
                       "zero_term_exp": p.zero_term_exp, "ab_f16": p.ab_f16,
                       "out": _text(lib.mmaref_output_name(p.out))})
    return {"arch": _text(rec.arch), "name": _text(rec.name), "sass": _text(rec.sass), "m": rec.m, "n": rec.n,
            "k": rec.k, "blocks": rec.blocks, "a": fmt(rec.a), "b": fmt(rec.b), "c": fmt(rec.c), "d": fmt(rec.d),
            "scale": fmt(rec.scale) if rec.block_size else "", "block_size": rec.block_size,
            "algo": _text(sched.value), "c_last": rec.c_last, "schedule": passes}


def version():
    """The model's version (the library's mmaref_version(), as `mmaref --version` prints it), so that a
    result can name the model that made it."""
    return _text(lib.mmaref_version())


def list(arch=None):  # noqa: A001 -- the name the CLI and the issue use
    """Every instruction (of one architecture, any alias) in table order, as dicts with the keys of
    `mmaref list --json`: arch, name, sass, m, n, k, blocks, a, b, c, d, scale, block_size, algo, schedule."""
    a = None
    if arch is not None:
        a = _c_name(arch, "arch")
        if lib.mmaref_arch_canonical(a) is None:
            _lookup(arch, "")  # raises the library's message for an unknown architecture
    n = lib.mmaref_list(a, None, 0)
    recs = (_lib.Instr * n)()
    lib.mmaref_list(a, recs, n)
    return [_describe(r) for r in recs]


def _ptr(bits):
    return bits.ctypes.data_as(_lib._u64p) if bits is not None else None


def _operand(rec, f, values, shape, what, instr):
    """Raw bits (C-contiguous uint64) of an operand of format f that must have `shape`."""
    bits = to_bits(f, values, what)
    if bits.shape != shape:
        raise Error("%s: shape %s, but %s needs %s" % (what, bits.shape, instr, shape))
    return np.ascontiguousarray(bits) if bits.ndim else bits


def _scales(rec, sa, sb, sa_shape, sb_shape, names, instr):
    """The scale operands: required exactly when the instruction has block scales."""
    ns = lib.mmaref_scale_count(ctypes.byref(rec))
    if ns == 0:
        if sa is not None or sb is not None:
            raise Error("%s: %s has no block scales" % ("/".join(names), instr))
        return None, None
    if sa is None or sb is None:
        raise Error("%s: %s needs block scales %s and %s (%s, one per %d elements of K)" %
                    ("/".join(names), instr, names[0], names[1], _text(lib.mmaref_format_name(rec.scale)),
                     rec.block_size))
    return (_operand(rec, rec.scale, sa, sa_shape(ns), names[0], instr),
            _operand(rec, rec.scale, sb, sb_shape(ns), names[1], instr))


def _dot_scales(rec, sa, sb, instr):
    """dot()'s block scales: required exactly when the instruction has them, each list 1 .. K/block
    values, the missing trailing ones 1.0 (as `mmaref dot` fills them)."""
    ns = lib.mmaref_scale_count(ctypes.byref(rec))
    if ns == 0 or sa is None or sb is None:  # none to read: None, None, or the Error saying what is wrong
        return _scales(rec, sa, sb, None, None, ("sa", "sb"), instr)
    one = int(to_bits(rec.scale, 1.0, "1.0"))
    return _lanes(rec.scale, sa, ns, one, "1.0", "sa", instr), _lanes(rec.scale, sb, ns, one, "1.0", "sb", instr)


def _run(fn, rec, *args):
    msg = ctypes.create_string_buffer(_lib.MSG_LEN)
    if fn(ctypes.byref(rec), *args, msg, len(msg)) != _lib.OK:
        raise Error(_text(msg.value))


def _lanes(f, values, n, fill, fill_name, what, instr):
    """The first values of a dot-add's list operand, 1 .. n of them, as n raw bits: the missing trailing
    ones are `fill` (raw bits; fill_name: its value), as `mmaref dot` fills them (cli_operands.c)."""
    bits = to_bits(f, values, what)
    if bits.ndim != 1 or not 1 <= bits.shape[0] <= n:
        got = "%d values" % bits.shape[0] if bits.ndim == 1 else "shape %s" % (bits.shape,)
        raise Error("%s: %s, but %s takes a list of 1 .. %d (the missing trailing ones %s)" %
                    (what, got, instr, n, fill_name))
    return np.concatenate([bits, np.full(n - bits.shape[0], fill, dtype=np.uint64)])


def dot(arch, name, a, b, c, sa=None, sb=None, raw=False):
    """One dot-add d = c + sum_k a[k] b[k] (scaled by sa, sb per block when the instruction has block
    scales): a, b lists of 1 .. K values, the missing trailing ones +0 (sa, sb: 1 .. K/block, the missing
    ones 1.0), as `mmaref dot` reads them; c a scalar.  Returns d as a NumPy scalar of D's format (raw:
    its bits)."""
    raw = _flag(raw, "raw")
    rec = _lookup(arch, name)
    instr = "%s %s" % (_text(rec.arch), _text(rec.name))
    va = _lanes(rec.a, a, rec.k, 0, "+0", "a", instr)
    vb = _lanes(rec.b, b, rec.k, 0, "+0", "b", instr)
    vc = _operand(rec, rec.c, c, (), "c", instr)
    vsa, vsb = _dot_scales(rec, sa, sb, instr)
    d = _lib._u64()
    _run(lib.mmaref_dot, rec, _lib._u64(int(vc)), _ptr(va), _ptr(vb), _ptr(vsa), _ptr(vsb), ctypes.byref(d))
    return from_bits(rec.d, np.uint64(d.value), raw)[()]


def dot_batch(arch, name, a, b, c, sa=None, sb=None, raw=False):
    """n dot-adds of one instruction in one call (mmaref_dot_batch: the CPU's SIMD kernels, the same bits
    as dot()): a, b of shape (n, K), c of shape (n,), block scales sa, sb (n, K/block); returns d (n,)
    in D's format (raw: its bits).  Row j is dot(a[j], b[j], c[j])."""
    raw = _flag(raw, "raw")
    rec = _lookup(arch, name)
    instr = "%s %s" % (_text(rec.arch), _text(rec.name))
    c_shape = shape(c, "c")
    if len(c_shape) != 1:
        raise Error("c: shape %s, but dot_batch needs one C per dot-add, shape (n,)" % (c_shape,))
    n = c_shape[0]
    k = rec.k
    va = _operand(rec, rec.a, a, (n, k), "a", instr)
    vb = _operand(rec, rec.b, b, (n, k), "b", instr)
    vc = _operand(rec, rec.c, c, (n,), "c", instr)
    vsa, vsb = _scales(rec, sa, sb, lambda s: (n, s), lambda s: (n, s), ("sa", "sb"), instr)
    s = vsa.shape[1] if vsa is not None else 0
    x = _lib.Dots(_lib.Strided(_ptr(vc), 1, 0), _lib.Strided(_ptr(va), k, 1), _lib.Strided(_ptr(vb), k, 1),
                  _lib.Strided(_ptr(vsa), s, 1), _lib.Strided(_ptr(vsb), s, 1))
    D = np.zeros(n, dtype=np.uint64)
    _run(lib.mmaref_dot_batch, rec, ctypes.c_size_t(n), ctypes.byref(x), _ptr(D))
    return from_bits(rec.d, D, raw)


def mma(arch, name, A, B, C, SA=None, SB=None, raw=False):
    """A whole tile D = A B + C as the instruction computes it: A (M, K), B (K, N), C (M, N), with block
    scales SA (M, K/block), SB (K/block, N); D[i, j] is dot() of row i of A and column j of B with
    C[i, j].  Returns D (M, N) in D's format (raw: its bits)."""
    raw = _flag(raw, "raw")
    rec = _lookup(arch, name)
    instr = "%s %s" % (_text(rec.arch), _text(rec.name))
    m, n, k = rec.m, rec.n, rec.k
    vA = _operand(rec, rec.a, A, (m, k), "A", instr)
    vB = _operand(rec, rec.b, B, (k, n), "B", instr)
    vC = _operand(rec, rec.c, C, (m, n), "C", instr)
    vSA, vSB = _scales(rec, SA, SB, lambda s: (m, s), lambda s: (s, n), ("SA", "SB"), instr)
    D = np.zeros((m, n), dtype=np.uint64)
    _run(lib.mmaref_mma, rec, _ptr(vA), _ptr(vB), _ptr(vC), _ptr(vSA), _ptr(vSB), _ptr(D))
    return from_bits(rec.d, D, raw)



INT_MAX = 2 ** 31 - 1  # the C int that carries M, N, K, S and N of promote:N
MAX_THREADS = 1024  # as `mmaref gemm --threads`
MAX_MEMORY = 1 << 30  # bytes a matmul may hold by default (`mmaref gemm --max-memory`'s default, 1G)


def _count(value, what, lo, hi):
    """An integer argument in lo .. hi, checked before it reaches a C int: a bool, a float, a string or a
    value out of range raises Error (ctypes would truncate it silently)."""
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        v = operator.index(value)
    except TypeError:
        v = None
    if v is None or not lo <= v <= hi:
        raise Error("%s is an integer %d .. %d, not %r" % (what, lo, hi, value))
    return v


def _accumulation(text):
    """'serial', 'split-k:S' or 'promote:N' as (kind, parameter), as `mmaref gemm --accumulate` reads it:
    S and N decimal counts 1 .. INT_MAX."""
    kind, _, count = str(text).partition(":")
    if kind not in _lib.ACCUMULATION or (kind == "serial") != (count == "") or \
            (count and (not re.fullmatch(r"[0-9]{1,10}", count) or not 1 <= int(count) <= INT_MAX)):
        raise Error("accumulate is serial, split-k:S or promote:N (S, N 1 .. %d), not %r" % (INT_MAX, text))
    return _lib.ACCUMULATION[kind], int(count or 0)


def _bytes(n):
    """A byte count for a message: '2.98 GiB', '81 KiB'."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return "%.3g %s" % (n, unit)
        n /= 1024.0


def _gemm_bytes(rec, m, n, k, with_c):
    """What a GEMM holds at once, as `mmaref gemm --max-memory` counts it: A, B, C (when given), D and the
    scales as 64-bit values, and the library's copies of A, B and the scales padded to whole chunks of K."""
    kp = -(-k // rec.k) * rec.k
    sk, sp = (k // rec.block_size, kp // rec.block_size) if rec.block_size > 0 else (0, 0)
    values = m * k + k * n + m * n * (2 if with_c else 1) + m * kp + n * kp + (m + n) * (sk + sp)
    return 8 * values


def matmul(A, B, C=None, arch="hopper", instr="mma.m16n8k16.f32.f16.f16.f32", accumulate="serial", SA=None,
           SB=None, threads=0, raw=False, max_memory=MAX_MEMORY):
    """D = A B + C for any M, N, K as a GPU kernel computes it with one instruction (docs/gemm.md):
    output tiles of the instruction's M x N, K in instruction-sized chunks chained through the
    accumulator ('serial'), or 'split-k:S' slices reduced in FP32, or 'promote:N' (every N instructions
    added into an FP32 accumulator).  A (M, K), B (K, N), C (M, N) or None (+0); block-scaled
    instructions take SA (M, K/block), SB (K/block, N).  The same bits as `mmaref gemm` for any threads
    (0, the default: every core; else 1 .. 1024).  A GEMM that would hold more than max_memory bytes (1 GiB
    by default, counted as `mmaref gemm --max-memory` counts) is refused before anything is allocated.
    Returns D (M, N) in D's format (raw: its bits)."""
    kind, param = _accumulation(accumulate)
    threads = _count(threads, "threads", 0, MAX_THREADS)
    max_memory = _count(max_memory, "max_memory", 1, 2 ** 63 - 1)
    raw = _flag(raw, "raw")
    rec = _lookup(arch, instr, ("arch", "instr"))
    name = "%s %s" % (_text(rec.arch), _text(rec.name))
    sa, sb = shape(A, "A"), shape(B, "B")
    if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0]:
        m, k, n = sa[0], sa[1], sb[1]
        if not (1 <= m <= INT_MAX and 1 <= n <= INT_MAX and 1 <= k <= INT_MAX):
            raise Error("shape M = %d, N = %d, K = %d: each must be 1 .. %d" % (m, n, k, INT_MAX))
        need = _gemm_bytes(rec, m, n, k, C is not None)
        if need > max_memory:
            raise Error("M = %d, N = %d, K = %d (%.3g multiply-adds) needs %s, above max_memory %s; pass a larger "
                        "max_memory to run it" % (m, n, k, float(m) * n * k, _bytes(need), _bytes(max_memory)))
    a_bits, b_bits = to_bits(rec.a, A, "A"), to_bits(rec.b, B, "B")
    if a_bits.ndim != 2 or b_bits.ndim != 2 or a_bits.shape[1] != b_bits.shape[0]:
        raise Error("A %s and B %s: not an (M, K) and a (K, N) matrix" % (a_bits.shape, b_bits.shape))
    m, k = a_bits.shape
    n = b_bits.shape[1]
    vA = np.ascontiguousarray(a_bits)
    vB = np.ascontiguousarray(b_bits)
    vC = None if C is None else _operand(rec, rec.c, C, (m, n), "C", name)
    blocks = k // rec.block_size if rec.block_size else 0
    vSA, vSB = _scales(rec, SA, SB, lambda s: (m, blocks), lambda s: (blocks, n), ("SA", "SB"), name)
    opt = _lib.GemmOptions(kind, param, threads, None, None)
    D = np.zeros((m, n), dtype=np.uint64)
    msg = ctypes.create_string_buffer(_lib.MSG_LEN)
    if lib.mmaref_gemm(ctypes.byref(rec), m, n, k, _ptr(vA), _ptr(vB), _ptr(vC), _ptr(vSA), _ptr(vSB), _ptr(D),
                       ctypes.byref(opt), msg, len(msg)) != _lib.OK:
        raise Error(_text(msg.value))
    return from_bits(rec.d, D, raw)
