"""Independent exact reference for the AMD Matrix Core algorithms (the AMD test oracle).

Written from the MMA-Sim paper (mma-sim.md sections IV-A, IV-B, IV-F to IV-I) and docs/algorithms.md
("AMD"), sharing no code with cmodel/ nor with ref.py.  Python 3 standard library only.

Every number is an exact dyadic rational n * 2^s (Python ints n, s), so products, alignments and sums
are exact; the only information lost is where the algorithm says so: floor / trunc at a given bit
(`floor_at`, `trunc_at`) and the IEEE round-to-nearest-even of `round_ieee`.

Entry point: dot_add(instr, c, a, b) -> D bits, instr the oracle's own instruction object
(tests/oracle/table.py: instruction(); keys used: name, a, b, c, d, k and schedule -- the passes with
their algo, k range, frac_bits, group, alignment roundings, flush and out, all from table.py, none from
the model), every operand its raw bit pattern.
Passes: SFMA (f32/f64 MFMA), GPS (CDNA1 without, CDNA2 with subnormal flushing), FDRDA, GFDRDA;
a chain (CoFDRDA, CoGFDRDA) is two passes, the second taking the first's result as its c.  A NaN
result is the canonical 0x7FFFFFFF (f32) or 0x7FFFFFFFFFFFFFFF (f64): mmaref's convention for the
unknown MFMA NaN payload.
"""

# name: (storage bits, exponent bits, mantissa bits, bias, specials, bits ignored by the hardware)
#   ieee: all-ones exponent is inf / NaN;  fnuz: no inf, no -0, the pattern 0x80 is the only NaN
FORMATS = {
    'f64': (64, 11, 52, 1023, 'ieee', 0),
    'f32': (32, 8, 23, 127, 'ieee', 0),
    'tf32': (32, 8, 23, 127, 'ieee', 0x1FFF),      # xf32: the low 13 bits are treated as zero
    'f16': (16, 5, 10, 15, 'ieee', 0),
    'bf16': (16, 8, 7, 127, 'ieee', 0),
    'e4m3fnuz': (8, 4, 3, 8, 'fnuz', 0),             # AMD fp8
    'e5m2fnuz': (8, 5, 2, 16, 'fnuz', 0),            # AMD bf8
}
ZERO_EXP = -126     # the exponent a zero operand takes in e_max (MMA-Sim convention)
# F, the fractional bits of the aligned products (24 for FDRDA / GFDRDA), is the pass's frac_bits.
DOT_F = 31          # FDRDA Step 6: s_dot rounded down at 31 fractional bits
C_F = 24            # ... and c at 24
C_WINDOW = 25       # GFDRDA Step 8: c rounds toward zero when e_c < e_max - 25
OVERFLOW = 128      # FDRDA Step 2: |p_k| >= 2^128 is an infinity


class Num:
    """A decoded operand.  kind: 'nan', 'inf' or 'num'.  For 'num': value = (-1)^neg * n * 2^s exactly,
    e = the exponent used for alignment (E - bias; the minimum exponent for subnormals; -126 for zero),
    sub = subnormal (or zero) in its own format."""
    __slots__ = ('kind', 'neg', 'n', 's', 'e', 'sub')

    def __init__(self, kind, neg=False, n=0, s=0, e=0, sub=False):
        self.kind, self.neg, self.n, self.s, self.e, self.sub = kind, neg, n, s, e, sub

    def signed(self):
        return -self.n if self.neg else self.n


def decode(fmt, raw):
    bits, eb, man, bias, specials, ignored = FORMATS[fmt]
    raw &= ((1 << bits) - 1) & ~ignored
    neg = bool(raw >> (bits - 1))
    E = (raw >> man) & ((1 << eb) - 1)
    M = raw & ((1 << man) - 1)
    if specials == 'fnuz':
        if raw == 1 << (bits - 1):
            return Num('nan')
    elif E == (1 << eb) - 1:
        return Num('nan') if M else Num('inf', neg)
    if E == 0:
        e = 1 - bias
        return Num('num', neg, M, e - man, e if M else ZERO_EXP, True)
    return Num('num', neg, M | (1 << man), E - bias - man, E - bias, False)


# ---- exact dyadic helpers ----------------------------------------------------------------------

def add(x, y):
    """(n, s) + (n, s) exactly."""
    s = min(x[1], y[1])
    return ((x[0] << (x[1] - s)) + (y[0] << (y[1] - s)), s)


def floor_at(x, q):
    """floor(x / 2^q) as an integer (round down, toward -inf)."""
    n, s = x
    return n << (s - q) if s >= q else n >> (q - s)      # Python's >> floors negative numbers


def trunc_at(x, q):
    """trunc(x / 2^q): round toward zero (sign-magnitude truncation)."""
    n, s = x
    m = abs(n) << (s - q) if s >= q else abs(n) >> (q - s)
    return -m if n < 0 else m


def log2_floor(n, s):
    return abs(n).bit_length() - 1 + s


def round_ieee(fmt, x):
    """Round the exact nonzero dyadic x to nearest even in fmt.  Returns ('num', neg, m, q) meaning
    (-1)^neg * m * 2^q with m < 2^(man+1), or ('inf', neg)."""
    bits, eb, man, bias, _, _ = FORMATS[fmt]
    emin, emax = 1 - bias, (1 << eb) - 2 - bias
    n, s = x
    neg, a = n < 0, abs(n)
    q = max(log2_floor(a, s), emin) - man
    if s >= q:
        m = a << (s - q)
    else:
        sh = q - s
        m = a >> sh
        rem, half = a - (m << sh), 1 << (sh - 1)
        if rem > half or (rem == half and m & 1):
            m += 1
    if m >> (man + 1):
        m >>= 1
        q += 1
    if m and log2_floor(m, q) > emax:
        return ('inf', neg)
    return ('num', neg, m, q)


def encode(fmt, kind, neg=False, m=0, q=0):
    bits, eb, man, bias, _, _ = FORMATS[fmt]
    sign = (1 << (bits - 1)) if neg else 0
    if kind == 'nan':
        return (1 << (bits - 1)) - 1                       # canonical: every mantissa bit set
    if kind == 'inf':
        return sign | (((1 << eb) - 1) << man)
    if m == 0:
        return sign
    if m >> man:                                           # normal: m = 1.xxx * 2^man
        return sign | ((q + man + bias) << man) | (m - (1 << man))
    return sign | m                                        # subnormal: q = emin - man


def result(fmt, x):
    """Bits of an exact dyadic result rounded to nearest even; an exact zero is +0."""
    if x[0] == 0:
        return 0
    r = round_ieee(fmt, x)
    return encode(fmt, *r) if r[0] == 'inf' else encode(fmt, 'num', r[1], r[2], r[3])


# ---- IEEE arithmetic on Num values (for SFMA and GPS) --------------------------------------------

def as_num(fmt, x, exact_neg):
    """Round the exact dyadic x into fmt as a Num; a zero result takes the sign exact_neg."""
    if x[0] == 0:
        return Num('num', exact_neg, 0, 0, ZERO_EXP, True)
    r = round_ieee(fmt, x)
    if r[0] == 'inf':
        return Num('inf', r[1])
    _, neg, m, q = r
    return Num('num', neg, m, q, 0, m < (1 << FORMATS[fmt][2]))


def ieee_fma(fmt, x, y, z):
    """x * y + z with one rounding (z = None: the plain product)."""
    if x.kind == 'nan' or y.kind == 'nan' or (z is not None and z.kind == 'nan'):
        return Num('nan')
    pneg = x.neg != y.neg
    if x.kind == 'inf' or y.kind == 'inf':
        if (x.kind == 'num' and x.n == 0) or (y.kind == 'num' and y.n == 0):
            return Num('nan')
        if z is not None and z.kind == 'inf' and z.neg != pneg:
            return Num('nan')
        return Num('inf', pneg)
    if z is not None and z.kind == 'inf':
        return z
    p = ((-1 if pneg else 1) * x.n * y.n, x.s + y.s)
    if z is None:
        return as_num(fmt, p, pneg)
    total = add(p, (z.signed(), z.s))
    if total[0] == 0:
        # an exact zero: -0 only when both addends are zeros of negative sign (round to nearest)
        return Num('num', p[0] == 0 and z.n == 0 and pneg and z.neg, 0, 0, ZERO_EXP, True)
    return as_num(fmt, total, total[0] < 0)


def ieee_add(fmt, x, y):
    one = Num('num', False, 1, 0)
    return ieee_fma(fmt, x, one, y)


def bits_of(fmt, v):
    if v.kind == 'nan':
        return encode(fmt, 'nan')
    if v.kind == 'inf':
        return encode(fmt, 'inf', v.neg)
    # re-round an already representable value: exact
    if v.n == 0:
        return encode(fmt, 'num', v.neg)
    r = round_ieee(fmt, (v.n, v.s))
    return encode(fmt, 'num', v.neg, r[2], r[3])


# ---- SFMA (paper IV-A) ----------------------------------------------------------------------------

def out_format(p):
    """The format of a pass's result; every AMD pass rounds to nearest even (paper IV-A, B, F Step 8)."""
    fmt, mode = p['out'].split('-')
    if mode != 'rne' or fmt not in ('f32', 'f64'):
        raise ValueError('ref_amd: AMD passes round to nearest even in f32 or f64, not %s' % p['out'])
    return fmt


def sfma(instr, p, c_fmt, c, a, b):
    fd = out_format(p)
    d = decode(c_fmt, c)
    for x, y in zip(a, b):
        d = ieee_fma(fd, decode(instr['a'], x), decode(instr['b'], y), d)
    return bits_of(fd, d)


# ---- GPS (paper IV-B, Algorithms 2 and 3) --------------------------------------------------------

def flush_keep_sign(v):
    """x <- x * 0.0 if |x| < 2^-126."""
    if v.kind == 'num' and v.n and log2_floor(v.n, v.s) < -126:
        return Num('num', v.neg, 0, 0, ZERO_EXP, True)
    return v


def gps(instr, p, c_fmt, c, a, b):
    flush = bool(p['flush'])               # table.py: CDNA2 flushes, CDNA1 does not
    G = p['group']
    fd = out_format(p)
    if fd != 'f32' or G < 1 or len(a) % G or G & (G - 1):
        raise ValueError('ref_amd: GPS sums groups of G (a power of two dividing K) in f32, not G=%d %s' % (G, fd))

    def operand(fmt, raw):
        v = decode(fmt, raw)
        if flush and v.kind == 'num' and v.sub:
            return Num('num', False, 0, 0, ZERO_EXP, True)    # Step 1: to +0
        return v

    def post(v):
        return flush_keep_sign(v) if flush else v

    prods = [post(ieee_fma('f32', operand(instr['a'], x), operand(instr['b'], y), None)) for x, y in zip(a, b)]

    def pairwise(ps):
        if len(ps) == 1:
            return ps[0]
        h = len(ps) // 2
        return post(ieee_add('f32', pairwise(ps[:h]), pairwise(ps[h:])))

    d = operand(c_fmt, c)
    for g in range(0, len(prods), G):
        d = post(ieee_add('f32', d, pairwise(prods[g:g + G])))
    return bits_of('f32', d)


# ---- FDRDA / GFDRDA (paper IV-F, IV-H) --------------------------------------------------------------

ROUND = {'rd': floor_at, 'rz': trunc_at}     # an alignment's rounding, by the schedule's name


def fdrda_pass(instr, p, c_fmt, c, a, b):
    """One FDRDA (p['algo'] == 'FDRDA') or GFDRDA pass."""
    fd = out_format(p)
    grouped = p['algo'] == 'GFDRDA'
    F = p['frac_bits']
    if p['align_products'] not in ROUND or p['align_c'] not in ROUND or p['flush'] or p['group']:
        raise ValueError('ref_amd: %s with align %s/%s flush %d group %d is not modelled'
                         % (p['algo'], p['align_products'], p['align_c'], p['flush'], p['group']))
    align_dot, align_c = ROUND[p['align_products']], ROUND[p['align_c']]
    vc = decode(c_fmt, c)
    xs = [decode(instr['a'], x) for x in a]
    ys = [decode(instr['b'], y) for y in b]
    # Step 1: NaN input, 0 * inf, or infinities of both signs among the products and c
    infs = set()
    if vc.kind == 'nan':
        return encode(fd, 'nan')
    if vc.kind == 'inf':
        infs.add(vc.neg)
    for x, y in zip(xs, ys):
        if x.kind == 'nan' or y.kind == 'nan':
            return encode(fd, 'nan')
        if x.kind == 'inf' or y.kind == 'inf':
            if (x.kind == 'num' and x.n == 0) or (y.kind == 'num' and y.n == 0):
                return encode(fd, 'nan')
            infs.add(x.neg != y.neg)
    if len(infs) == 2:
        return encode(fd, 'nan')
    if infs:
        return encode(fd, 'inf', infs.pop())
    # Step 2: exact products with exponent e_a + e_b; |p| >= 2^128 overflows to infinity
    prods = []
    for x, y in zip(xs, ys):
        n = x.n * y.n
        pk = (-n if x.neg != y.neg else n, x.s + y.s)
        if n and log2_floor(n, pk[1]) >= OVERFLOW:
            infs.add(pk[0] < 0)
        prods.append((pk, x.e + y.e))
    # Step 3
    if len(infs) == 2:
        return encode(fd, 'nan')
    if infs:
        return encode(fd, 'inf', infs.pop())

    def fused(group):
        """Steps 4-5: align to the group's maximum exponent, truncate at F bits, sum exactly.
        Returns (S, e): the sum is S * 2^(e - F)."""
        e = max(ep for _, ep in group)
        return sum(trunc_at(pk, e - F) for pk, _ in group), e

    if not grouped:
        S, e_dot = fused(prods)
    else:
        # GFDRDA: even and odd products separately, then both rounded down at F bits below e_dot
        S0, e0 = fused(prods[0::2])
        S1, e1 = fused(prods[1::2]) if len(prods) > 1 else (0, e0)
        e_dot = max(e0, e1)
        S = align_dot((S0, e0 - F), e_dot - F) + align_dot((S1, e1 - F), e_dot - F)
    # FDRDA Step 6 / GFDRDA Step 8: align s_dot and c to e_max = max(e_dot, e_c), rounding down (the
    # schedule's align_products / align_c, 'rd')
    e_max = max(e_dot, vc.e)
    s_dot = align_dot((S, e_dot - F), e_max - DOT_F)
    cv = (vc.signed(), vc.s)
    if grouped and vc.e < e_max - C_WINDOW:
        s_c = trunc_at(cv, e_max - C_F)
    else:
        s_c = align_c(cv, e_max - C_F)
    # Steps 7-8: exact sum, round to nearest even
    total = add((s_dot, e_max - DOT_F), (s_c, e_max - C_F))
    return result(fd, total)


PASSES = {'SFMA': sfma, 'GPS': gps, 'FDRDA': fdrda_pass, 'GFDRDA': fdrda_pass}


def dot_add(instr, c, a, b):
    """The schedule's passes in order: pass i takes products k_first .. k_first + k_count - 1, and for
    i > 0 the previous pass's result (rounded to its out format) as its c."""
    K = instr['k']
    assert len(a) == K and len(b) == K, 'a and b need K values'
    ks = [k for p in instr['schedule'] for k in range(p['k_first'], p['k_first'] + p['k_count'])]
    if ks != list(range(K)):
        raise ValueError('ref_amd: the schedule of %s does not take products 0..%d once each in order'
                         % (instr['name'], K - 1))
    c_fmt = instr['c']
    for p in instr['schedule']:
        if p['algo'] not in PASSES:
            raise ValueError('ref_amd: not an AMD algorithm: %s' % p['algo'])
        part = slice(p['k_first'], p['k_first'] + p['k_count'])
        c = PASSES[p['algo']](instr, p, c_fmt, c, a[part], b[part])
        c_fmt = out_format(p)
    return c
