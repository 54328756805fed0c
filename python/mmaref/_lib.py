"""Loading libmmaref.so and the C interface as ctypes sees it: the one place the binding restates mmaref.h.

The instruction record (mmaref_instr) is mirrored only as far as the binding reads it: the fields before
pass[] and the mmaref_pass entries.  Its full size comes from the library itself (mmaref_instr_size), so
the tail the library alone uses (pass[] beyond `passes`, `checked`) is sized by the library, and a
record allocated here is never too small whatever MMAREF_MAX_PASSES is.  tests/py/test_binding.py holds
every field read here against `mmaref list --json` for the whole instruction table.
"""
import ctypes
import os

# ---- finding the shared library ----
# MMAREF_LIB (a path to the .so) wins; then libmmaref.so beside this package (`make install` links it
# there); then the build tree the package sits in (python/mmaref -> build/libmmaref.so).
_HERE = os.path.dirname(os.path.abspath(__file__))
_CANDIDATES = [os.path.join(_HERE, "libmmaref.so"),
               os.path.join(_HERE, os.pardir, os.pardir, "build", "libmmaref.so")]


def _load():
    env = os.environ.get("MMAREF_LIB")
    paths = [env] if env else [p for p in _CANDIDATES if os.path.exists(p)]
    if not paths:
        raise ImportError("mmaref: libmmaref.so not found beside the package (%s) nor in the build tree "
                          "(%s); run `make` or set MMAREF_LIB" % (_CANDIDATES[0], os.path.normpath(_CANDIDATES[1])))
    try:
        return ctypes.CDLL(paths[0])
    except OSError as e:
        raise ImportError("mmaref: cannot load %s: %s" % (paths[0], e)) from None


lib = _load()

# ---- status codes (mmaref_status) ----
OK = 0

# ---- the instruction record ----
_int = ctypes.c_int


class Pass(ctypes.Structure):
    """mmaref_pass: one pass of a dot-add's schedule."""
    _fields_ = [("algo", _int), ("k_first", _int), ("k_count", _int), ("k_run", _int), ("k_stride", _int),
                ("frac_bits", _int), ("group", _int),
                ("align_products", _int), ("align_c", _int), ("scales", _int), ("flush", _int),
                ("zero_term_exp", _int), ("ab_f16", _int), ("out", _int)]


# mmaref_instr up to pass[]: identity, shape, formats, scales, number of passes.
_HEAD = [("arch", ctypes.c_char_p), ("name", ctypes.c_char * 96), ("sass", ctypes.c_char * 64),
         ("m", _int), ("n", _int), ("blocks", _int), ("k", _int),
         ("a", _int), ("b", _int), ("c", _int), ("d", _int), ("scale", _int),
         ("block_size", _int), ("passes", _int), ("c_last", _int)]


class _Head(ctypes.Structure):
    _fields_ = _HEAD


lib.mmaref_instr_size.restype = ctypes.c_size_t
lib.mmaref_instr_size.argtypes = []
INSTR_SIZE = lib.mmaref_instr_size()
# pass[] follows `c_last` at the next multiple of mmaref_pass's alignment (sizeof(_Head) would also count
# the padding that rounds the head up to a pointer's alignment, which the full record does not have there)
_HEAD_END = _Head.c_last.offset + ctypes.sizeof(_int)
_PASS_OFFSET = -(-_HEAD_END // ctypes.alignment(Pass)) * ctypes.alignment(Pass)
if INSTR_SIZE < _PASS_OFFSET + ctypes.sizeof(Pass):
    raise ImportError("mmaref: libmmaref.so's mmaref_instr (%d bytes) is smaller than this binding's view of "
                      "it: the package and the library are from different versions" % INSTR_SIZE)


class Instr(ctypes.Structure):
    """mmaref_instr: the head mirrored, the rest (pass[], checked) as the library sizes it."""
    _fields_ = _HEAD + [("_tail", ctypes.c_ubyte * (INSTR_SIZE - _HEAD_END))]

    def pass_(self, i):
        """pass[i] (i < passes)."""
        return Pass.from_address(ctypes.addressof(self) + _PASS_OFFSET + i * ctypes.sizeof(Pass))


assert ctypes.sizeof(Instr) == INSTR_SIZE and Instr._tail.offset == _HEAD_END

# ---- prototypes (mmaref.h) ----
_u64 = ctypes.c_uint64
_u64p = ctypes.POINTER(_u64)
_ip = ctypes.POINTER(Instr)
_str = ctypes.c_char_p


def _proto(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, list(argtypes)


_proto("mmaref_arch_names", ctypes.POINTER(_str))
_proto("mmaref_arch_canonical", _str, _str)
_proto("mmaref_lookup", _int, _str, _str, _ip, ctypes.c_char_p, ctypes.c_size_t)
_proto("mmaref_list", ctypes.c_size_t, _str, _ip, ctypes.c_size_t)
_proto("mmaref_scale_count", _int, _ip)
_proto("mmaref_dot", _int, _ip, _u64, _u64p, _u64p, _u64p, _u64p, _u64p, ctypes.c_char_p, ctypes.c_size_t)
_proto("mmaref_mma", _int, _ip, _u64p, _u64p, _u64p, _u64p, _u64p, _u64p, ctypes.c_char_p, ctypes.c_size_t)


class Strided(ctypes.Structure):
    """mmaref_strided: operand i of dot-add j at p[j * lane + i * step]."""
    _fields_ = [("p", _u64p), ("lane", ctypes.c_ssize_t), ("step", ctypes.c_ssize_t)]


class Dots(ctypes.Structure):
    """mmaref_dots: the layout of a batch's C, A, B and scales."""
    _fields_ = [("c", Strided), ("a", Strided), ("b", Strided), ("sa", Strided), ("sb", Strided)]


_proto("mmaref_dot_batch", _int, _ip, ctypes.c_size_t, ctypes.POINTER(Dots), _u64p, ctypes.c_char_p, ctypes.c_size_t)
_proto("mmaref_simd_path", _str, _ip)
_proto("mmaref_version", _str)
_proto("mmaref_format_name", _str, _int)
_proto("mmaref_format_width", _int, _int)
_proto("mmaref_format_valid_bits", _int, _int, _u64)
_proto("mmaref_format_to_double", ctypes.c_double, _int, _u64)
_proto("mmaref_format_from_double", _int, _int, ctypes.c_double, _u64p)
_proto("mmaref_format_round_double", _int, _int, ctypes.c_double, _u64p)
_proto("mmaref_format_parts", _int, _int)
_proto("mmaref_format_part", _int, _int)
_proto("mmaref_algo_name", _str, _int)
_proto("mmaref_rounding_name", _str, _int)
_proto("mmaref_scaling_name", _str, _int)
_proto("mmaref_output_name", _str, _int)
_proto("mmaref_schedule_name", None, _ip, ctypes.c_char_p, ctypes.c_size_t)


class GemmOptions(ctypes.Structure):
    """mmaref_gemm_options (mmaref.h): the accumulation kind and its parameter, threads, no progress."""
    _fields_ = [("kind", _int), ("param", _int), ("threads", _int),
                ("progress", ctypes.c_void_p), ("progress_ctx", ctypes.c_void_p)]


# mmaref_accumulation, in the header's order
ACCUMULATION = {"serial": 0, "split-k": 1, "promote": 2}
_proto("mmaref_gemm", _int, _ip, _int, _int, _int, _u64p, _u64p, _u64p, _u64p, _u64p, _u64p,
       ctypes.POINTER(GemmOptions), ctypes.c_char_p, ctypes.c_size_t)

MSG_LEN = 512


def text(b):
    return b.decode() if b is not None else None
