"""NumPy arrays <-> raw bits of an mmaref format (the edge where decimal values meet bits).

In: unsigned integer arrays (and NumPy unsigned scalars) are raw bits (each must fit the format's width);
every other number is a value: float16/32/64 arrays, long doubles, signed integers, Python ints, floats
and complex numbers, each converted by the library's mmaref_format_from_double, which refuses a value
the format cannot hold exactly, the message naming the format's value nearest it (as `mmaref dot`'s
does).  A value that is not exactly a double (a long double or an integer beyond 53 bits that rounds,
a Python int beyond float range) is refused here the same way: every format's values are doubles.  Complex arrays give the two parts of an f32c value.  NaN
becomes the format's canonical NaN; -0 stays -0.  Bools, strings, objects that are not numbers,
masked elements and ragged sequences are refused.  Each distinct bit pattern is converted once, so a
large array of few values costs little.
Out: bits as unsigned integers of the format's storage width, or values as the NumPy float type with the
same bits (f16 -> float16, f32 -> float32, f64 -> float64, f32c -> complex64), else float64.
"""
import ctypes
import math
import numbers

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


def _decimal(f, v):
    """A value of f as `mmaref dot` prints it: 9 significant digits (f64: 17), inf, -inf."""
    return ("-inf" if v < 0 else "inf") if math.isinf(v) else "%.*g" % (17 if fmt_name(f) == "f64" else 9, v)


def _nearest(f, x):
    """' (nearest: 0x2e66 = 0.0999755859)': the value of f that x rounds to (to nearest, ties to even), as
    `mmaref dot`'s message names it (cmodel/tools/cli_real.c): x as the double nearest it first, and
    nothing where f cannot hold the result (a NaN, -1 in ue8m0, 7 in e2m1)."""
    try:
        d = float(x)
    except OverflowError:  # a Python int beyond the double range, as strtod makes of its digits
        d = math.inf if x > 0 else -math.inf
    out = _lib._u64()
    if lib.mmaref_format_round_double(f, d, ctypes.byref(out)) != _lib.OK:
        return ""
    v = lib.mmaref_format_to_double(f, out.value)
    if math.isnan(v):
        return ""
    return " (nearest: 0x%0*x = %s)" % ((lib.mmaref_format_width(f) + 3) // 4, out.value, _decimal(f, v))


def _inexact(f, label, shown, x):
    """The Error for a value x (shown as `shown`) that f does not hold exactly, with f's nearest value."""
    return Error("%s = %s is not exactly representable in %s%s" % (label, shown, fmt_name(f), _nearest(f, x)))


def _from_double(f, x, what):
    out = _lib._u64()
    if lib.mmaref_format_from_double(f, float(x), ctypes.byref(out)) != _lib.OK:
        raise _inexact(f, what, repr(float(x)), x)
    return out.value


# ---- what the caller gave, as an array whose every element is exactly the number given ----
def _is_sequence(x):
    return isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim > 0)


def _ragged(what, objs):
    """The Error for a ragged nested sequence, from its object array (NumPy stops where the rows first
    differ, leaving them as elements): names the first element unlike the first one."""
    flat = objs.ravel()
    size = [len(x) if _is_sequence(x) else None for x in flat]
    j = next((j for j, n in enumerate(size) if n != size[0]), len(size) - 1)
    has = lambda n: "is a number" if n is None else "has %d element%s" % (n, "" if n == 1 else "s")
    return Error("%s is ragged: %s %s, but %s %s; give a rectangular array" %
                 (what, _where(what, objs.shape, j), has(size[j]), _where(what, objs.shape, 0), has(size[0])))


def _objects(values, what):
    """A Python number or (nested) sequence as an object array of its leaves, as given."""
    try:
        objs = np.array(values, dtype=object)
    except ValueError:  # NumPy found rows it cannot even place side by side
        raise Error("%s is ragged: its rows differ in length; give a rectangular array" % what) from None
    kinds = set(map(type, objs.flat))
    if any(issubclass(t, (list, tuple, np.ndarray)) for t in kinds) and any(map(_is_sequence, objs.flat)):
        raise _ragged(what, objs)
    return objs


def shape(values, what):
    """The shape an operand will have, before converting it (a ragged sequence raises Error)."""
    try:
        return np.shape(values)
    except ValueError:
        return _objects(values, what).shape


def _exact_number(x):
    """A number as the float (complex: pair of floats) equal to it, or None where no double equals it;
    TypeError for what is not a number; a bool is not one here, as it is no count for threads=."""
    if isinstance(x, np.ndarray):  # a 0-d array among the leaves: its scalar
        x = x[()]
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Complex):
        raise TypeError
    if isinstance(x, numbers.Integral):
        x = int(x)  # a Python int compares with a float exactly; a NumPy integer would round first
    parts = [x.real, x.imag] if not isinstance(x, numbers.Real) else [x]
    dbl = []
    for p in parts:
        try:
            d = float(p)
        except OverflowError:  # a Python int beyond the double range
            return None
        if d != p and d == d:  # d == d: a NaN is a NaN in every width
            return None
        dbl.append(d)
    return dbl[0] if len(dbl) == 1 else complex(*dbl)


# Leaf types whose every value is a double (or a pair of doubles): taken by NumPy as they are.
_DOUBLE_LEAVES = {float, complex, np.float16, np.float32, np.float64, np.complex64, np.complex128}


def _from_objects(f, objs, what):
    """Leaves (Python or NumPy scalars) as raw bits (uint64, when every leaf is a NumPy unsigned integer)
    or as exact values (float64, complex128 where one is complex)."""
    flat = objs.ravel()
    kinds = set(map(type, flat))
    if flat.size and kinds <= _DOUBLE_LEAVES:
        return objs.astype(np.complex128 if kinds & {complex, np.complex64, np.complex128} else np.float64)
    if flat.size and kinds == {int}:
        try:
            return objs.astype(np.int64)  # to_bits checks each against the double it rounds to
        except OverflowError:
            pass
    raw = [isinstance(x, np.unsignedinteger) for x in flat]
    if flat.size and all(raw):
        return objs.astype(np.uint64)
    out = []
    for i, x in enumerate(flat):
        try:
            v = None if raw[i] else _exact_number(x)
        except TypeError:
            raise Error("%s = %r (%s) is not a number; give values as floats or raw bits as unsigned integers"
                        % (_where(what, objs.shape, i), x, type(x).__name__)) from None
        if v is None:
            raise _bad_leaf(f, what, objs.shape, i, x, raw[i])
        out.append(v)
    return np.array(out, dtype=np.complex128 if any(isinstance(v, complex) for v in out) else np.float64
                    ).reshape(objs.shape)


def _bad_leaf(f, what, shape, i, x, raw):
    label = _where(what, shape, i)
    if raw:
        return Error("%s = %r is raw bits (a NumPy unsigned integer) among values; give all values or all "
                     "raw bits" % (label, x))
    if not isinstance(x, numbers.Real):  # a complex leaf: the part no double equals, named as to_bits does
        part, name = next((p, n) for p, n in ((x.real, "real"), (x.imag, "imag")) if _exact_number(p) is None)
        return _inexact(lib.mmaref_format_part(f), "%s.%s" % (label, name), part, part)
    return _inexact(lib.mmaref_format_part(f), label, x, x)


def _as_array(f, values, what):
    """values as an ndarray whose elements are exactly the numbers given: a NumPy array or scalar as it
    is, Python numbers and sequences leaf by leaf (NumPy would take a Python int of 2^63 .. 2^64 - 1 as
    uint64, raw bits, and round [2**53 + 1, 0.5] to float64)."""
    if isinstance(values, (list, tuple)) or (isinstance(values, numbers.Number) and
                                             not isinstance(values, np.generic)):
        return _from_objects(f, _objects(values, what), what)
    if isinstance(values, np.ma.MaskedArray) and np.ma.is_masked(values):
        i = int(np.flatnonzero(np.ma.getmaskarray(values))[0])
        raise Error("%s is masked: a masked element has no value" % _where(what, np.shape(values), i))
    arr = np.asarray(values)
    return _from_objects(f, arr, what) if arr.dtype == object else arr


def _first_inexact(part, dbl):
    """The flat index of the first element of part (integers, long doubles) that dbl, its float64
    conversion, does not equal; None when every one does."""
    if part.dtype.kind == "i":
        # int64 -> float64 rounds to nearest, possibly to 2^63, the one such double int64 cannot hold
        fits = dbl < 2.0 ** 63
        bad = ~fits | (np.where(fits, dbl, 0).astype(part.dtype) != part)
    else:
        bad = (dbl.astype(part.dtype) != part) & ~np.isnan(part)
    idx = np.flatnonzero(bad)
    return int(idx[0]) if len(idx) else None


def _raw_bits(f, arr, what):
    bits = arr.astype(np.uint64)
    width = lib.mmaref_format_width(f)
    bad = np.flatnonzero(bits >> np.uint64(width)) if width < 64 else []
    if len(bad):
        i = int(bad[0])
        raise Error("%s = 0x%x does not fit in %s (%d bits)" % (_where(what, arr.shape, i),
                                                               int(bits.flat[i]), fmt_name(f), width))
    return bits


def to_bits(f, values, what):
    """Raw bits (uint64 array, the shape of `values`) of format f for an array of values or raw bits."""
    arr = _as_array(f, values, what)
    if arr.dtype.kind == "u":
        return _raw_bits(f, arr, what)
    if arr.dtype.kind not in "ifc":
        raise Error("%s: dtype %s; give values as float16/float32/float64 (complex64 for f32c) or raw bits "
                    "as an unsigned integer array" % (what, arr.dtype))
    parts = [arr.real, arr.imag] if arr.dtype.kind == "c" else [arr]
    if len(parts) > lib.mmaref_format_parts(f):
        raise Error("%s: complex values, but %s is not a complex format" % (what, fmt_name(f)))
    pf = lib.mmaref_format_part(f) if len(parts) > 1 else f
    pwidth = lib.mmaref_format_width(pf) if len(parts) > 1 else 0
    out = np.zeros(arr.shape, dtype=np.uint64)
    for i, part in enumerate(parts):
        label = lambda j: _where(what, arr.shape, j) + (".imag" if i else ".real" if len(parts) > 1 else "")
        with np.errstate(over="ignore"):  # a long double beyond the double range: inf, refused below
            dbl = np.ascontiguousarray(part, dtype=np.float64)
        bad = _first_inexact(part, dbl) if part.dtype.itemsize > 8 or part.dtype.kind == "i" else None
        if bad is not None:
            raise _inexact(pf, label(bad), part.flat[bad], part.flat[bad])
        # distinct doubles by their bits (so -0 and NaN stay apart from 0 and from each other)
        uniq, inverse = np.unique(dbl.view(np.uint64).ravel(), return_inverse=True)
        conv = np.empty(len(uniq), dtype=np.uint64)
        for j, u in enumerate(uniq.view(np.float64)):
            try:
                conv[j] = _from_double(pf, u, what)
            except Error:
                first = int(np.flatnonzero(inverse == j)[0])
                raise _inexact(pf, label(first), repr(float(u)), u) from None
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
