"""NumPy arrays <-> raw bits of an mmaref format (the edge where decimal values meet bits).

In: unsigned integer arrays are raw bits (each must fit the format's width); float16/32/64 arrays (and
Python floats, and signed integers such as a Python 0) are values, each converted by the library's mmaref_format_from_double, which refuses a
value the format cannot hold exactly (as `mmaref dot` does); complex arrays give the two parts of an f32c
value.  NaN becomes the format's canonical NaN; -0 stays -0.  Each distinct bit pattern is converted
once, so a large array of few values costs little.
Out: bits as unsigned integers of the format's storage width, or values as the NumPy float type with the
same bits (f16 -> float16, f32 -> float32, f64 -> float64, f32c -> complex64), else float64.
"""
import ctypes

import numpy as np

from . import _lib

lib = _lib.lib


class Error(ValueError):
    """A bad argument or value; the message is the library's (or names the bad input the same way)."""


def fmt_name(f):
    return _lib.text(lib.mmaref_format_name(f))


def _where(what, shape, flat):
    idx = np.unravel_index(flat, shape) if shape else ()
    return "%s[%s]" % (what, ", ".join(str(int(i)) for i in idx)) if shape else what


def _from_double(f, x, what):
    out = _lib._u64()
    if lib.mmaref_format_from_double(f, float(x), ctypes.byref(out)) != _lib.OK:
        raise Error("%s = %r is not exactly representable in %s" % (what, float(x), fmt_name(f)))
    return out.value


def to_bits(f, values, what):
    """Raw bits (uint64 array, the shape of `values`) of format f for an array of values or raw bits."""
    arr = np.asarray(values)
    if arr.dtype.kind == "u":
        bits = arr.astype(np.uint64)
        width = lib.mmaref_format_width(f)
        bad = np.flatnonzero(bits >> np.uint64(width)) if width < 64 else []
        if len(bad):
            i = int(bad[0])
            raise Error("%s = 0x%x does not fit in %s (%d bits)" % (_where(what, arr.shape, i),
                                                                   int(bits.flat[i]), fmt_name(f), width))
        return bits
    if arr.dtype.kind in "ib":  # signed integers (a Python int, c=0) are values, when a double holds them
        dbl = arr.astype(np.float64)
        if np.any(dbl.astype(arr.dtype) != arr):
            raise Error("%s: integers beyond a double's 53 bits; give raw bits as unsigned integers" % what)
        arr = dbl
    if arr.dtype.kind not in "fc":
        raise Error("%s: dtype %s; give values as float16/float32/float64 (complex64 for f32c) or raw bits "
                    "as an unsigned integer array" % (what, arr.dtype))
    parts = [arr.real, arr.imag] if arr.dtype.kind == "c" else [arr]
    if len(parts) > lib.mmaref_format_parts(f):
        raise Error("%s: complex values, but %s is not a complex format" % (what, fmt_name(f)))
    pf = lib.mmaref_format_part(f) if len(parts) > 1 else f
    pwidth = lib.mmaref_format_width(pf) if len(parts) > 1 else 0
    out = np.zeros(arr.shape, dtype=np.uint64)
    for i, part in enumerate(parts):
        # distinct doubles by their bits (so -0 and NaN stay apart from 0 and from each other)
        dbl = np.ascontiguousarray(part, dtype=np.float64)
        uniq, inverse = np.unique(dbl.view(np.uint64).ravel(), return_inverse=True)
        conv = np.empty(len(uniq), dtype=np.uint64)
        for j, u in enumerate(uniq.view(np.float64)):
            try:
                conv[j] = _from_double(pf, u, what)
            except Error:
                first = int(np.flatnonzero(inverse == j)[0])
                label = _where(what, arr.shape, first) + (".imag" if i else ".real" if len(parts) > 1 else "")
                raise Error("%s = %r is not exactly representable in %s" % (label, float(u), fmt_name(pf))) from None
        out |= conv[inverse].reshape(arr.shape) << np.uint64(i * pwidth)
    return out


# NumPy float types whose bits are a format's bits, by format name.
_NATIVE = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "f32c": np.complex64}
_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def bits_dtype(f):
    """The unsigned dtype that stores one value of format f (4- and 6-bit formats: uint8)."""
    w = lib.mmaref_format_width(f)
    return _UINT[next(x for x in (8, 16, 32, 64) if w <= x)]


def from_bits(f, bits, raw):
    """An array of raw bits (uint64) of format f as raw bits of its storage width, or as values."""
    bits = np.asarray(bits, dtype=np.uint64)
    if raw:
        return bits.astype(bits_dtype(f))
    native = _NATIVE.get(fmt_name(f))
    if native is not None and np.dtype(native).itemsize * 8 == lib.mmaref_format_width(f):
        return bits.astype(bits_dtype(f)).view(native)
    return np.vectorize(lambda b: lib.mmaref_format_to_double(f, int(b)), otypes=[np.float64])(bits)
