"""Independent exact reference for the M3XU kind (FP32 and FP32C modes): the CLOSED form of the definition.

Written from docs/m3xu.md (mmaref's exact definition of the M3XU paper's result), sharing no
code with cmodel/ nor with ref.py / ref_amd.py.  Python 3 standard library only.

The model (cmodel/src/algo_m3xu.c) computes the step form: 12-bit halves, partial products per multiply
step, a 48-bit product register per lane pair.  This file never splits anything.  For one FP32 dot-add
d = c + sum_i a_i * b_i it takes

  * Step 1: NaN anywhere, inf * 0, or +inf and -inf among the products and c -> 0x7FFFFFFF;
            otherwise an infinite product or c -> that infinity;
  * the exact products a_i * b_i (Python integers: sig_a * sig_b with 46 fractional bits, exponent
    e_a + e_b, a zero operand at exponent -126) and c;
  * e_max = max(e_a + e_b over the products, e_c);
  * each term truncated toward zero ONCE at F fractional bits below 2^e_max: trunc(t * 2^(F - e_max));
  * the exact integer sum S, and D = S * 2^(e_max - F) rounded to nearest even to binary32.

The last rounding goes through the host's binary64 -> binary32 conversion (struct.pack('<f')), which
is IEEE round-to-nearest-even with gradual underflow: S has at most F + 5 = 51 significant bits (five
terms each below 2^(F+2)), so S * 2^(e_max - F) is exactly a double and the conversion rounds only
once.  A result that rounds past the largest finite f32 is an infinity (struct raises OverflowError).

FP32C: the real part is the FP32 dot of ar*br and (-ai)*bi over the K complex products with c's real
part, the imaginary part that of ar*bi and ai*br with c's imaginary part; a complex value is 64 bits,
real part in the low 32.

  dot_f32(a, b, c, F=46) -> D bits     a, b: lists of f32 bits; c: f32 bits
  dot_f32c(a, b, c, F=46) -> D bits    a, b: lists of f32c bits (64-bit); c: f32c bits
"""
import math
import struct

F_W = 46                   # docs/m3xu.md Step 4: the product register's 46 fractional bits
NAN = 0x7FFFFFFF           # canonical NaN
SIGN = 0x80000000
ZERO_EXP = -126            # the exponent a zero operand takes (the project's convention)
MAN = 23                   # binary32 fraction bits
BIAS = 127


def decode(bits):
    """binary32 bits -> ('nan',), ('inf', neg) or ('num', neg, sig, e): value = (-1)^neg * sig * 2^(e - 23)."""
    neg = bits >> 31 & 1
    field = bits >> 23 & 0xFF
    frac = bits & 0x7FFFFF
    if field == 0xFF:
        return ('inf', neg) if frac == 0 else ('nan',)
    if field == 0:
        return ('num', neg, frac, ZERO_EXP if frac == 0 else 1 - BIAS)   # zero, subnormal
    return ('num', neg, frac | 1 << MAN, field - BIAS)


def round_f32(s, scale):
    """binary32 bits of the integer s times 2^scale, rounded to nearest even (exact 0 -> +0)."""
    if s == 0:
        return 0
    assert abs(s).bit_length() <= 53, "the sum must be exact in binary64"
    x = math.ldexp(s, scale)                 # exact
    try:
        return struct.unpack('<I', struct.pack('<f', x))[0]
    except OverflowError:                    # rounds past the largest finite value
        return 0xFF800000 if s < 0 else 0x7F800000


def is_tie(s, scale, bits):
    """Was s * 2^scale exactly halfway between bits (finite) and its neighbour?  (For coverage counts.)"""
    kind = decode(bits)
    if kind[0] != 'num':
        return False
    _, neg, sig, e = kind
    ulp_e = max(e, 1 - BIAS) - MAN
    low = min(scale, ulp_e - 1)
    diff = (abs(s) << (scale - low)) - (sig << (e - MAN - low) if sig else 0)
    return abs(diff) == 1 << (ulp_e - 1 - low)


def special(a, b, c):
    """Step 1: the result when an operand is NaN or infinite, else None."""
    terms = [decode(c)]
    nan, infs = terms[0][0] == 'nan', set()
    if terms[0][0] == 'inf':
        infs.add(terms[0][1])
    for x, y in zip(a, b):
        u, v = decode(x), decode(y)
        if u[0] == 'nan' or v[0] == 'nan':
            nan = True
        elif u[0] == 'inf' or v[0] == 'inf':
            if (u[0] == 'num' and u[2] == 0) or (v[0] == 'num' and v[2] == 0):
                nan = True                   # inf * 0
            else:
                infs.add(u[1] ^ v[1])
    if nan or len(infs) == 2:
        return NAN
    if infs:
        return 0x7F800000 | (SIGN if infs.pop() else 0)
    return None


def dot_f32(a, b, c, F=F_W, events=None):
    """One FP32-mode dot-add, closed form (module docstring).  events (a set, optional) collects what
    the vector exercised, for coverage counts: nan, inf, truncated (a term lost bits at F), cancel (the
    sum 20 or more bits below its largest term), tie (an RNE tie), subnormal, overflow, zero, negzero."""
    s = special(a, b, c)
    if s is not None:
        if events is not None:
            events.add('nan' if s == NAN else 'inf')
        return s
    # the exact terms as (signed integer, its weight 2^w, the exponent that enters e_max)
    terms = []
    for x, y in zip(a, b):
        _, nx, sx, ex = decode(x)
        _, ny, sy, ey = decode(y)
        p = sx * sy
        terms.append((-p if nx ^ ny else p, ex + ey - 2 * MAN, ex + ey))
    _, nc, sc, ec = decode(c)
    terms.append((-sc if nc else sc, ec - MAN, ec))
    e_max = max(e for _, _, e in terms)
    total, biggest = 0, 0
    for v, w, _ in terms:
        shift = w - (e_max - F)               # v * 2^w in units of 2^(e_max - F)
        m = abs(v) << shift if shift >= 0 else abs(v) >> -shift    # truncation toward zero
        total += -m if v < 0 else m
        if events is not None:
            biggest = max(biggest, m)
            if shift < 0 and m << -shift != abs(v):
                events.add('truncated')
    d = round_f32(total, e_max - F)
    if events is not None:
        if biggest and total.bit_length() <= biggest.bit_length() - 20:
            events.add('cancel')
        if is_tie(total, e_max - F, d):
            events.add('tie')
        field = d >> 23 & 0xFF
        events.add('zero' if d == 0 else 'negzero' if d == SIGN else 'overflow' if field == 0xFF
                   else 'subnormal' if field == 0 else 'normal')
    return d


def part(z, i):
    return z >> (32 * i) & 0xFFFFFFFF


def dot_f32c(a, b, c, F=F_W, events=None):
    """One FP32C-mode dot-add: the real part, then the imaginary part, each an FP32 dot."""
    ar, ai = [part(x, 0) for x in a], [part(x, 1) for x in a]
    br, bi = [part(y, 0) for y in b], [part(y, 1) for y in b]
    re_a, re_b, im_a, im_b = [], [], [], []
    for k in range(len(a)):
        re_a += [ar[k], ai[k] ^ SIGN]         # ar*br - ai*bi: the sign of ai flipped
        re_b += [br[k], bi[k]]
        im_a += [ar[k], ai[k]]                # ar*bi + ai*br
        im_b += [bi[k], br[k]]
    re = dot_f32(re_a, re_b, part(c, 0), F, events)
    im = dot_f32(im_a, im_b, part(c, 1), F, events)
    return re | im << 32
