"""Independent exact reference for mmaref (the test oracle).

Written from docs/algorithms.md and the MMA-Sim paper (mma-sim.md section IV), sharing no code with
cmodel/.  Python 3 standard library only.

Every number is carried exactly: a finite operand is (negative, sig, exp) meaning
(-1)^negative * sig * 2^(exp - man), sig an integer with `man` fractional bits.  Python integers are
unbounded, so every product, alignment and sum below is exact; the only information ever lost is
where the algorithm itself says so (truncation to F fractional bits, the output rounding), and each
of those is one small function (round_to_grid, trunc_shift).

fda_plain() is FDA step by step as the spec writes it; fda() is the same computation on lookup tables
so that 100,000 vectors per configuration take seconds.  At the bottom, fda_fraction() and
fma_fraction() derive the same results a third way, on fractions.Fraction and Python's correctly
rounded int/int division; `gen.py --selfcheck` (run by tests/t_model_oracle.sh) compares all of them.

Entry point: dot_add(instr, c, a, b, sa=None, sb=None) -> D bits, where instr is the oracle's own
instruction object (tests/oracle/table.py: instruction(), made from one entry of `mmaref list --json` of
which it keeps only the name, shape and operand formats) and every operand is its raw bit pattern.  The
arithmetic parameters -- the passes, and per pass F, G, the alignment roundings, the scales, the output --
are instr['schedule'], the oracle's, never the model's.
"""
from fractions import Fraction
from operator import add, mul
import math

# ----------------------------------------------------------------------------------------------
# Formats (docs/algorithms.md, "Number formats").  kind says where the special values live:
#   ieee   : all-ones exponent is inf (mantissa 0) or NaN
#   fn     : no inf; S.1111.111 is NaN (e4m3)
#   finite : no inf, no NaN (e3m2, e2m3, e2m1)
#   fnuz   : no inf, no -0; 0x80 is the only NaN (AMD fp8/bf8)
#   ue8m0  : unsigned powers of two 2^-127..2^127, 0xFF NaN, no zero
#   ue4m3  : unsigned e4m3, bit 7 ignored, 0x7F NaN
class Fmt:
    def __init__(self, name, bits, ebits, man, bias, kind):
        self.name, self.bits, self.ebits, self.man, self.bias, self.kind = name, bits, ebits, man, bias, kind
        self.emin = 1 - bias                                   # exponent of the subnormals
        top = (1 << ebits) - 1                                 # all-ones exponent field
        self.emax = (top - 1 - bias) if kind == 'ieee' else (top - bias)
        self.signed = kind not in ('ue8m0', 'ue4m3')

    def __repr__(self):
        return self.name


FORMATS = {f.name: f for f in [
    Fmt('f64', 64, 11, 52, 1023, 'ieee'),
    Fmt('f32', 32, 8, 23, 127, 'ieee'),
    Fmt('tf32', 32, 8, 23, 127, 'ieee'),   # stored as f32; Step 0 clears the low 13 bits
    Fmt('f16', 16, 5, 10, 15, 'ieee'),
    Fmt('bf16', 16, 8, 7, 127, 'ieee'),
    Fmt('e4m3', 8, 4, 3, 7, 'fn'),
    Fmt('e5m2', 8, 5, 2, 15, 'ieee'),
    Fmt('e3m2', 6, 3, 2, 3, 'finite'),
    Fmt('e2m3', 6, 2, 3, 1, 'finite'),
    Fmt('e2m1', 4, 2, 1, 1, 'finite'),
    Fmt('ue8m0', 8, 8, 0, 127, 'ue8m0'),
    Fmt('ue4m3', 8, 4, 3, 7, 'ue4m3'),
    Fmt('e4m3fnuz', 8, 4, 3, 8, 'fnuz'),
    Fmt('e5m2fnuz', 8, 5, 2, 16, 'fnuz'),
]}

ZERO_EXP = -126          # a zero's exponent, whatever the format (MMA-Sim convention)
NAN = ('nan',)


def decode(fmt, bits):
    """Raw bits -> NAN, ('inf', negative) or ('num', negative, sig, exp) with value
    (-1)^negative * sig * 2^(exp - fmt.man)."""
    if fmt.kind == 'ue8m0':
        if bits == 0xFF:
            return NAN
        return ('num', False, 1, bits - 127)                 # 2^(E-127), no zero
    if fmt.kind == 'ue4m3':
        bits &= 0x7F                                          # Step 0: bit 7 ignored
        if bits == 0x7F:
            return NAN
    if fmt.name == 'tf32':
        bits &= ~0x1FFF & 0xFFFFFFFF                          # Step 0: low 13 bits are zero
    neg = fmt.signed and bool(bits >> (fmt.bits - 1))
    field = (bits >> fmt.man) & ((1 << fmt.ebits) - 1)
    mant = bits & ((1 << fmt.man) - 1)
    top = (1 << fmt.ebits) - 1
    if fmt.kind == 'ieee' and field == top:
        return NAN if mant else ('inf', neg)
    if fmt.kind in ('fn', 'ue4m3') and field == top and mant == (1 << fmt.man) - 1:
        return NAN
    if fmt.kind == 'fnuz' and bits == 1 << (fmt.bits - 1):
        return NAN
    if field == 0:
        if mant == 0:
            return ('num', neg, 0, ZERO_EXP)
        return ('num', neg, mant, fmt.emin)                  # subnormal: the format's minimum exponent
    return ('num', neg, (1 << fmt.man) | mant, field - fmt.bias)


_TABLES = {}


def decoder(fmt):
    """decode(fmt, .) as a one-argument function; for formats of 16 bits or fewer it is a lookup in
    a table of every bit pattern, built once (the same function, only faster)."""
    if fmt.bits > 16:
        return lambda bits: decode(fmt, bits)
    if fmt.name not in _TABLES:
        _TABLES[fmt.name] = [decode(fmt, x) for x in range(1 << fmt.bits)]
    return _TABLES[fmt.name].__getitem__


def units(d, fmt):
    """|value| of a decoded finite number as an integer multiple of 2^(fmt.emin - fmt.man)."""
    return d[2] << (d[3] - fmt.emin) if d[2] else 0


def signed_units(fmt):
    """Table: bit pattern -> (-1)^neg * units(.) for a format without specials (FP4/FP6)."""
    key = ('units', fmt.name)
    if key not in _TABLES:
        t = []
        for x in range(1 << fmt.bits):
            d = decode(fmt, x)
            assert d[0] == 'num', (fmt, x)
            t.append(-units(d, fmt) if d[1] else units(d, fmt))
        _TABLES[key] = t
    return _TABLES[key]


def value(fmt, bits):
    """Exact value of finite bits as a Fraction (for the Fraction derivations at the bottom)."""
    d = decode(fmt, bits)
    assert d[0] == 'num', d
    _, neg, sig, exp = d
    v = Fraction(sig) * Fraction(2) ** (exp - fmt.man)
    return -v if neg else v


# ----------------------------------------------------------------------------------------------
# Rounding an exact value N * 2^E (N > 0 an integer) onto a binary grid.

def round_to_grid(N, E, keep, emin, mode):
    """Round N*2^E (N > 0) to `keep` fractional bits in its own binade, the binade never below 2^emin
    (so values below 2^emin land on the subnormal grid 2^(emin-keep)).  mode 'rz' or 'rne'.
    Returns (M, q): the rounded value is M * 2^q."""
    lead = E + N.bit_length() - 1                 # N*2^E lies in [2^lead, 2^(lead+1))
    q = max(lead, emin) - keep                    # weight of the last kept bit
    if E >= q:
        return N << (E - q), q                    # already on the grid
    r = q - E                                     # bits that drop off
    M, rest = N >> r, N & ((1 << r) - 1)
    if mode == 'rne':
        half = 1 << (r - 1)
        if rest > half or (rest == half and M & 1):
            M += 1                                # may carry into the next binade: still exact
    else:
        assert mode == 'rz', mode
    return M, q


def encode(fmt, neg, M, q):
    """Bits of the value (-1)^neg * M * 2^q, which must lie on fmt's grid; +-inf when it is
    >= 2^(emax+1); M == 0 gives +0."""
    if M == 0:
        return 0
    lead = q + M.bit_length() - 1
    sign = (1 << (fmt.bits - 1)) if neg else 0
    if lead > fmt.emax:
        assert fmt.kind == 'ieee', (fmt, 'overflow in a format without inf')
        return sign | (((1 << fmt.ebits) - 1) << fmt.man)
    qf = max(lead, fmt.emin) - fmt.man            # weight of fmt's last bit at this binade
    if q >= qf:
        M <<= q - qf
    else:
        assert M & ((1 << (qf - q)) - 1) == 0, 'value not representable'
        M >>= qf - q
    if lead < fmt.emin:                           # subnormal
        return sign | M
    return sign | ((lead + fmt.bias) << fmt.man) | (M - (1 << fmt.man))


def inf_bits(fmt, neg):
    return ((1 << (fmt.bits - 1)) if neg else 0) | (((1 << fmt.ebits) - 1) << fmt.man)


CANONICAL_NAN = {'f32': 0x7FFFFFFF, 'f16': 0x7FFF, 'f64': 0x7FFFFFFFFFFFFFFF}


def parse_out(out):
    """'f32-rz' -> (f32, keep=23, 'rz'); 'f32_e8m13-rz' -> (f32, 13, 'rz'); 'f16-rne' -> (f16, 10, 'rne')."""
    fmtname, mode = out.split('-')
    if fmtname == 'f32_e8m13':
        return FORMATS['f32'], 13, mode
    fmt = FORMATS[fmtname]
    return fmt, fmt.man, mode


def round_out(out, S, E):
    """Step 5: the exact sum S * 2^E (S a signed integer) to D's bits.  An exact zero, and also a
    nonzero sum that rounds to zero, is +0: MMA-Sim convention (its nv_fused_dot_add rounds with
    Python's round()/math.trunc(), whose integer result has no sign, then scales it back)."""
    fmt, keep, mode = parse_out(out)
    if S == 0:
        return 0
    M, q = round_to_grid(abs(S), E, keep, fmt.emin, mode)
    return encode(fmt, S < 0, M, q)


# ----------------------------------------------------------------------------------------------
# FDA and CoFDA

def trunc_shift(neg, sig, shift):
    """trunc((-1)^neg * sig * 2^shift) for sig >= 0: truncation toward zero in sign-magnitude."""
    mag = sig << shift if shift >= 0 else sig >> -shift
    return -mag if neg else mag


def fda_specials(fd, dc, da, db, scales):
    """Step 1, when some input is NaN or inf: D's bits."""
    nan = CANONICAL_NAN[fd.name]
    if any(d is NAN for d in [dc] + da + db + scales):
        return nan
    infs = set()                                   # signs of the infinities among products and c
    if dc[0] == 'inf':
        infs.add(dc[1])
    for x, y in zip(da, db):
        if x[0] == 'inf' or y[0] == 'inf':
            other = y if x[0] == 'inf' else x
            if other[0] == 'num' and other[2] == 0:
                return nan                         # 0 * inf
            infs.add(x[1] != y[1])
    if len(infs) == 2:
        return nan                                 # +inf and -inf
    return inf_bits(fd, infs.pop())


def pass_scales(instr, p):
    """The scale format of an FDA pass (None without scales), checking that the pass and the
    instruction's operands agree."""
    fs = FORMATS[instr['scale']] if instr['scale'] else None
    if (p['scales'] == 'per-product') != bool(fs) or p['scales'] not in ('none', 'per-product'):
        raise ValueError(f"ref: FDA pass with scales '{p['scales']}' on operands with scale '{instr['scale']}'")
    if (p['align_products'], p['align_c']) != ('rz', 'rz'):
        raise ValueError(f"ref: FDA/GDFS align with rz (Step 3), not {p['align_products']}/{p['align_c']}")
    return fs


def fda_plain(instr, p, c_fmt, c, a, b, sa=None, sb=None, k0=0):
    """One fused dot-add pass p over the products k0 .. k0 + len(a) - 1, C in format c_fmt, step by step
    as docs/algorithms.md writes it; returns the pass's result bits."""
    F = p['frac_bits']
    fa, fb = FORMATS[instr['a']], FORMATS[instr['b']]
    fc, fd = FORMATS[c_fmt], parse_out(p['out'])[0]
    fs = pass_scales(instr, p)
    bs = instr['block_size']

    # Step 0 (tf32 / ue4m3) happens inside decode.  Step 1: special values.
    dc = decode(fc, c)
    da = [decode(fa, x) for x in a]
    db = [decode(fb, x) for x in b]
    dsa = [decode(fs, x) for x in sa] if fs else []
    dsb = [decode(fs, x) for x in sb] if fs else []
    if any(d[0] != 'num' for d in [dc] + da + db + dsa + dsb):
        return fda_specials(fd, dc, da, db, dsa + dsb)

    # Step 2: C in D's format, then the exact, unnormalized products.
    # term = (negative, sig, exp, fractional bits of sig)
    _, cneg, csig, cexp = dc
    if fc is not fd:                               # only f16 C -> f32 D: exact conversion
        _, cneg, csig, cexp = decode(fd, encode(fd, cneg, csig, cexp - fc.man)) if csig else dc
    terms = [(cneg, csig, cexp, fd.man)]
    frac = fa.man + fb.man
    if not fs:
        terms += [(x[1] != y[1], x[2] * y[2], x[3] + y[3], frac) for x, y in zip(da, db)]
    else:                                          # block scales: one pair per block_size elements of K
        for k, (x, y) in enumerate(zip(da, db), k0):
            ta, tb = dsa[k // bs], dsb[k // bs]
            terms.append((x[1] != y[1], x[2] * y[2] * ta[2] * tb[2], x[3] + y[3] + ta[3] + tb[3],
                          frac + 2 * fs.man))

    # A pass with zero_term_exp (Hopper, measured): a zero term (C, a product) has that exponent instead.
    zero = p.get('zero_term_exp', 0)
    if zero:
        terms = [(neg, sig, exp if sig else zero, frac) for neg, sig, exp, frac in terms]
    # Step 3: align to e_max, keep F fractional bits below 2^e_max, truncate the rest.
    e_max = max(t[2] for t in terms)
    # sig * 2^(exp - frac) * 2^(F - e_max) truncated
    aligned = [trunc_shift(neg, sig, exp - frac + F - e_max) for neg, sig, exp, frac in terms]
    # Step 4: exact sum.  Step 5: normalize and round to D.
    return round_out(p['out'], sum(aligned), e_max - F)


def narrow_tables(fmt):
    """For a format of 16 bits or fewer: signed sig and exp of every bit pattern as two lists (as
    decode gives them), and the set of patterns that are NaN or inf."""
    key = ('narrow', fmt.name)
    if key not in _TABLES:
        sigs, exps, special = [], [], set()
        for x in range(1 << fmt.bits):
            d = decode(fmt, x)
            if d[0] != 'num':
                special.add(x)
                d = ('num', False, 0, 0)
            sigs.append(-d[2] if d[1] else d[2])
            exps.append(d[3])
        _TABLES[key] = (sigs, exps, frozenset(special))
    return _TABLES[key]


def products(fa, fb, a, b):
    """Step 2's products as two lists (signed sig with fa.man + fb.man fractional bits, exp), or
    None if some a_k or b_k is NaN or inf."""
    if fa.bits <= 16 and fb.bits <= 16:
        (sa, ea, xa), (sb, eb, xb) = narrow_tables(fa), narrow_tables(fb)
        if not (xa.isdisjoint(a) and xb.isdisjoint(b)):
            return None
        return (list(map(mul, map(sa.__getitem__, a), map(sb.__getitem__, b))),
                list(map(add, map(ea.__getitem__, a), map(eb.__getitem__, b))))
    da, db = [decode(fa, x) for x in a], [decode(fb, x) for x in b]
    if any(d[0] != 'num' for d in da + db):
        return None
    return ([-(x[2] * y[2]) if x[1] != y[1] else x[2] * y[2] for x, y in zip(da, db)],
            [x[3] + y[3] for x, y in zip(da, db)])


_PLANS = {}


def fda_plan(instr, p, c_fmt):
    """What fda needs of a pass, looked up once: F, block size, the formats, the output."""
    key = (instr['arch'], instr['name'], c_fmt, p['k_first'], p['frac_bits'], p['out'], p['scales'])
    if key not in _PLANS:
        fa, fb = FORMATS[instr['a']], FORMATS[instr['b']]
        _PLANS[key] = (p['frac_bits'], instr['block_size'], fa, fb, FORMATS[c_fmt], parse_out(p['out'])[0],
                       pass_scales(instr, p), p['out'], fa.man + fb.man)
    return _PLANS[key]


def fda(instr, p, c_fmt, c, a, b, sa=None, sb=None, k0=0):
    """fda_plain, faster: the same steps on tables of decoded values, with the special-value inputs
    handed to fda_specials.  (gen.py --selfcheck compares the two.)"""
    F, bs, fa, fb, fc, fd, fs, out, frac = fda_plan(instr, p, c_fmt)
    dc = decoder(fc)(c)
    prods = products(fa, fb, a, b)
    scales = [decode(fs, x) for x in sa + sb] if fs else []
    if prods is None or dc[0] != 'num' or any(d[0] != 'num' for d in scales):
        return fda_specials(fd, dc, list(map(decoder(fa), a)), list(map(decoder(fb), b)), scales)  # Step 1
    sigs, exps = prods
    if fs:                                         # UE8M0 block scales: sig 1, only exponents add
        assert fs.man == 0
        es = [x[3] + y[3] for x, y in zip(scales[:len(sa)], scales[len(sa):])]
        exps = [e + es[k // bs] for k, e in enumerate(exps, k0)]
    _, cneg, csig, cexp = dc
    if fc is not fd and csig:                      # f16 C -> f32 D
        _, cneg, csig, cexp = decode(fd, encode(fd, cneg, csig, cexp - fc.man))
    zero = p.get('zero_term_exp', 0)               # a zero term's own exponent (Hopper)
    if zero:
        cexp = cexp if csig else zero
        exps = [e if s else zero for s, e in zip(sigs, exps)]
    # Step 3: e_max, then trunc(sig * 2^(exp - frac + F - e_max)) for every product, written as
    # (|sig| << pre) >> (e_max - exp + post) with pre, post >= 0 (frac = fa.man + fb.man).
    e_max = max(cexp, max(exps))
    pre, post = (F - frac, 0) if F >= frac else (0, frac - F)
    top = e_max + post
    S = trunc_shift(cneg, csig, cexp - fd.man + F - e_max)
    S += sum([(s << pre) >> (top - e) if s >= 0 else -((-s << pre) >> (top - e)) for s, e in zip(sigs, exps)])
    # Steps 4-5
    return round_out(out, S, e_max - F)


def pass_ks(p):
    """The products pass p takes, in its order: k_first .. k_first + k_count - 1, or runs of k_run
    consecutive products k_stride apart."""
    run = p.get('k_run', 0)
    if not run:
        return list(range(p['k_first'], p['k_first'] + p['k_count']))
    return [p['k_first'] + j // run * p['k_stride'] + j % run for j in range(p['k_count'])]


def as_f16(fmt, x):
    """An operand converted exactly to f16 (a pass with ab_f16): NaN -> f16 NaN, inf -> f16 inf."""
    d = decode(FORMATS[fmt], x)
    f16 = FORMATS['f16']
    if d == NAN:
        return 0x7E00
    if d[0] == 'inf':
        return 0xFC00 if d[1] else 0x7C00
    _, neg, sig, exp = d
    return encode(f16, neg, sig, exp - FORMATS[fmt].man) if sig else (0x8000 if neg else 0)


def run_schedule(instr, c, a, b, sa, sb, passes):
    """The instruction's schedule, pass by pass: pass i takes its products (pass_ks) and, for i > 0, the
    previous pass's result as its C (FDA, CoFDA, ...); with c_last the first pass takes +0 and C is added
    to the last pass's result with one IEEE addition.  passes: algo -> function (instr, pass, C format, c,
    a part, b part, sa, sb, k_first) -> the pass's result bits.  Block scales stay tied to their k (a pass
    indexes them with the global k)."""
    c_fmt = instr['c']
    K = instr['k']
    sched = instr['schedule']
    covered = sorted(k for p in sched for k in pass_ks(p))
    if covered != list(range(K)):
        raise ValueError(f"ref: the schedule of {instr['name']} does not take products 0..{K - 1} once each")
    acc = 0 if instr.get('c_last') else c
    for p in sched:
        if p['algo'] not in passes:
            raise ValueError(f"ref: no reference for a pass of algorithm '{p['algo']}' "
                             f"({instr['arch']} {instr['name']})")
        ks = pass_ks(p)
        pa, pb, run_instr = [a[k] for k in ks], [b[k] for k in ks], instr
        if p.get('ab_f16'):                        # the operands of an f16 tensor-core pass
            pa, pb = [as_f16(instr['a'], x) for x in pa], [as_f16(instr['b'], x) for x in pb]
            run_instr = dict(instr, a='f16', b='f16')
        acc = passes[p['algo']](run_instr, p, c_fmt, acc, pa, pb, sa, sb, p['k_first'])
        c_fmt = parse_out(p['out'])[0].name
    if instr.get('c_last'):                        # D = P + C: an FMA with 1 as one factor is an addition
        fmt = FORMATS[instr['d']]
        acc = fma_ieee(fmt, acc, encode(fmt, False, 1, 0), c)
        if acc is None:
            return CANONICAL_NAN[fmt.name]
    return acc


# ----------------------------------------------------------------------------------------------
# GDFS

def gdfs_check(instr, p):
    if p['scales'] != 'per-group' or not instr['scale'] or (p['align_products'], p['align_c']) != ('rz', 'rz'):
        raise ValueError(f"ref: GDFS with scales {p['scales']}, align {p['align_products']}/{p['align_c']}")
    if p['k_count'] % p['group']:
        raise ValueError(f"ref: GDFS groups of {p['group']} do not divide {p['k_count']} products")


def gdfs(instr, p, c_fmt, c, a, b, sa, sb, k0=0):
    gdfs_check(instr, p)
    F, bs, G = p['frac_bits'], instr['block_size'], p['group']
    fa, fb, fc = FORMATS[instr['a']], FORMATS[instr['b']], FORMATS[c_fmt]
    fs = FORMATS[instr['scale']]
    # Step 0 (ue4m3 bit 7) is in decode.  Step 1: specials.
    dc = decode(fc, c)
    dsa = [decode(fs, x) for x in sa]
    dsb = [decode(fs, x) for x in sb]
    fd = parse_out(p['out'])[0]
    if dc is NAN or any(d is NAN for d in dsa + dsb):
        return CANONICAL_NAN[fd.name]
    if dc[0] == 'inf':
        return inf_bits(fd, dc[1])
    # Steps 2-3: exact products, summed in groups of G = 16 (fixed point).  ua[x] is a's signed value in
    # units of 2^(emin_a - man_a), so ua[x] * ub[y] is the product in units of 2^(base - frac_p).
    ua, ub = signed_units(fa), signed_units(fb)
    frac_p, base = fa.man + fb.man, fa.emin + fb.emin
    terms = [(dc[1], dc[2], dc[3], fc.man)]
    for g in range(len(a) // G):
        group = range(G * g, G * g + G)
        sigma = sum(ua[a[k]] * ub[b[k]] for k in group)
        # Step 4: gamma_g = sigma * s_sa * s_sb * 2^(e_sa + e_sb); the term's exponent is the scales' only.
        ta, tb = dsa[(k0 + G * g) // bs], dsb[(k0 + G * g) // bs]
        sig = abs(sigma) * ta[2] * tb[2]
        frac = frac_p - base + 2 * fs.man          # sig * 2^(exp - frac) == gamma_g
        terms.append((sigma < 0, sig, ta[3] + tb[3], frac))
    # Steps 5-6: align to e_max with F = 35 fractional bits, truncate, exact sum.  Step 7: f32 RZ.
    e_max = max(t[2] for t in terms)
    aligned = [trunc_shift(neg, sig, exp - frac + F - e_max) for neg, sig, exp, frac in terms]
    return round_out(p['out'], sum(aligned), e_max - F)


# ----------------------------------------------------------------------------------------------
# SFMA: d = fma(a_k, b_k, d) in IEEE arithmetic, one RNE rounding per step.

def fma_ieee(fmt, x, y, z):
    """IEEE 754 fusedMultiplyAdd(x, y, z) in fmt with roundTiesToEven, computed exactly."""
    dx, dy, dz = decode(fmt, x), decode(fmt, y), decode(fmt, z)
    if NAN in (dx, dy, dz):
        return None
    pneg = dx[1] != dy[1]
    if dx[0] == 'inf' or dy[0] == 'inf':
        other = dy if dx[0] == 'inf' else dx
        if other[0] == 'num' and other[2] == 0:
            return None                            # 0 * inf
        if dz[0] == 'inf' and dz[1] != pneg:
            return None                            # inf - inf
        return inf_bits(fmt, pneg)
    if dz[0] == 'inf':
        return z
    # exact: x*y + z as an integer multiple of 2^low, low = 2*(emin - man) (the weight of the
    # smallest product bit; z's bits weigh at least 2^(emin - man))
    low = 2 * (fmt.emin - fmt.man)
    P = units(dx, fmt) * units(dy, fmt)
    Z = units(dz, fmt) << (fmt.man - fmt.emin)
    total = (-P if pneg else P) + (-Z if dz[1] else Z)
    if total == 0:
        if P == 0 and Z == 0 and pneg and dz[1]:
            return 1 << (fmt.bits - 1)             # (-0) + (-0) = -0
        return 0                                   # an exact zero sum under RNE is +0
    M, q = round_to_grid(abs(total), low, fmt.man, fmt.emin, 'rne')
    if M == 0:                                     # a nonzero result below half the least subnormal
        return (1 << (fmt.bits - 1)) if total < 0 else 0   # rounds to a zero of its own sign
    return encode(fmt, total < 0, M, q)


def sfma_format(instr, p, c_fmt):
    """The one IEEE format of an SFMA pass (its output's, with RNE), checked against the operands."""
    fmt, keep, mode = parse_out(p['out'])
    if mode != 'rne' or keep != fmt.man or {instr['a'], instr['b'], c_fmt} != {fmt.name} or \
            (p['align_products'], p['align_c']) != ('rne', 'rne'):
        raise ValueError(f"ref: SFMA needs one IEEE format throughout and RNE ({instr['name']}, out {p['out']})")
    return fmt


def sfma(instr, p, c_fmt, c, a, b, sa=None, sb=None, k0=0):
    fmt = sfma_format(instr, p, c_fmt)
    d = c
    for x, y in zip(a, b):
        d = fma_ieee(fmt, x, y, d)
        if d is None:
            return CANONICAL_NAN[fmt.name]
    return d


# ----------------------------------------------------------------------------------------------

AMD_ALGOS = ('GPS', 'FDRDA', 'GFDRDA')


def _amd():
    """tests/oracle/ref_amd.py (written separately), imported only when an AMD algorithm is asked for."""
    import importlib
    import os
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    return importlib.import_module('ref_amd')


PASSES = {'FDA': fda, 'GDFS': gdfs, 'SFMA': sfma}


def dot_add(instr, c, a, b, sa=None, sb=None):
    """D bits of one dot-add of the instruction (the oracle's instruction object, table.instruction())."""
    if any(p['algo'] in AMD_ALGOS for p in instr['schedule']):
        return _amd().dot_add(instr, c, a, b)
    return run_schedule(instr, c, a, b, sa, sb, PASSES)


# ----------------------------------------------------------------------------------------------
# A second derivation of one FDA pass with Fractions only (used by --selfcheck in gen.py).

def binade(v):
    """The e with 2^e <= v < 2^(e+1), for a Fraction v > 0."""
    e = v.numerator.bit_length() - v.denominator.bit_length()
    while Fraction(2) ** e > v:
        e -= 1
    while Fraction(2) ** (e + 1) <= v:
        e += 1
    return e


def fda_fraction(instr, c, a, b, sa=None, sb=None):
    """Single-pass FDA for finite inputs, computed on Fractions: e_max from the (unnormalized) exponents,
    each term truncated as trunc(value * 2^(F - e_max)), then the output rounding done on the
    Fraction by searching the format's grid.  Returns D bits, or None if a special occurs."""
    [p] = instr['schedule']
    pass_scales(instr, p)
    F = p['frac_bits']
    fa, fb, fc = (FORMATS[instr[k]] for k in 'abc')
    fd = parse_out(p['out'])[0]
    fs = FORMATS[instr['scale']] if instr['scale'] else None
    ds = [decode(fc, c)] + [decode(fa, x) for x in a] + [decode(fb, x) for x in b]
    if fs:
        ds += [decode(fs, x) for x in sa + sb]
    if any(d[0] != 'num' for d in ds):
        return None
    vc = value(fc, c)
    # exponent of C once in D's format: its binade, D's emin for subnormals, -126 for zero (or the pass's
    # own exponent of a zero term, which a zero product takes too)
    zero = p.get('zero_term_exp', 0)
    ec = (zero or ZERO_EXP) if vc == 0 else max(fd.emin, binade(abs(vc)))
    vals, exps = [vc], [ec]
    for k in range(len(a)):
        xa, xb = decode(fa, a[k]), decode(fb, b[k])
        v, e = value(fa, a[k]) * value(fb, b[k]), xa[3] + xb[3]
        if fs:
            v *= value(fs, sa[k // instr['block_size']]) * value(fs, sb[k // instr['block_size']])
            e += decode(fs, sa[k // instr['block_size']])[3] + decode(fs, sb[k // instr['block_size']])[3]
        vals.append(v)
        exps.append(zero if zero and v == 0 else e)
    e_max = max(exps)
    unit = Fraction(2) ** (e_max - F)
    return round_fraction(p['out'], sum(math.trunc(v / unit) for v in vals) * unit)


def round_fraction(out, total):
    """Step 5 on a Fraction: search D's grid around it (RZ: floor of the magnitude, RNE: Python's
    round() of a Fraction, which is ties-to-even); a result that rounds to zero is +0."""
    fmt, keep, mode = parse_out(out)
    if total == 0:
        return 0
    mag = abs(total)
    lead = binade(mag)
    ulp = Fraction(2) ** (max(lead, fmt.emin) - keep)
    n = mag / ulp
    r = math.floor(n) if mode == 'rz' else round(n)
    if r == 0:
        return 0
    if r * ulp >= Fraction(2) ** (fmt.emax + 1):
        return inf_bits(fmt, total < 0)
    return encode(fmt, total < 0, r, max(lead, fmt.emin) - keep)


def gdfs_fraction(instr, p, c_fmt, c, a, b, sa, sb, k0=0):
    """A GDFS pass on Fractions for inputs without specials (None otherwise): sigma_g = the exact sum of
    G = 16 products, gamma_g = sigma_g * sa * sb with exponent e_sa + e_sb, truncated at 2^(e_max - 35)."""
    gdfs_check(instr, p)
    F, bs, G = p['frac_bits'], instr['block_size'], p['group']
    fa, fb, fs = (FORMATS[instr[k]] for k in ('a', 'b', 'scale'))
    fc = FORMATS[c_fmt]
    if any(decode(fs, x)[0] != 'num' for x in sa + sb) or decode(fc, c)[0] != 'num':
        return None
    vals, exps = [value(fc, c)], [decode(fc, c)[3]]
    for g in range(len(a) // G):
        sigma = sum(value(fa, a[k]) * value(fb, b[k]) for k in range(G * g, G * g + G))
        x, y = sa[(k0 + G * g) // bs], sb[(k0 + G * g) // bs]
        vals.append(sigma * value(fs, x) * value(fs, y))            # value() applies Step 0 (ue4m3)
        exps.append(decode(fs, x)[3] + decode(fs, y)[3])
    e_max = max(exps)
    unit = Fraction(2) ** (e_max - F)
    return round_fraction(p['out'], sum(math.trunc(v / unit) for v in vals) * unit)


def fma_fraction(fmt, x, y, z):
    """fma_ieee a second way, for f64 only: the exact x*y + z as a Fraction, rounded by Python's
    correctly rounded int/int division (float(Fraction)); specials and zero signs by IEEE rules.
    Returns bits, or None for NaN."""
    import struct
    assert fmt.name == 'f64'
    f = lambda bits: struct.unpack('<d', struct.pack('<Q', bits))[0]   # noqa: E731
    u = lambda v: struct.unpack('<Q', struct.pack('<d', v))[0]          # noqa: E731
    fx, fy, fz = f(x), f(y), f(z)
    if any(math.isnan(v) or math.isinf(v) for v in (fx, fy, fz)):
        if math.isnan(fx) or math.isnan(fy) or math.isnan(fz):
            return None
        if (math.isinf(fx) and fy == 0) or (math.isinf(fy) and fx == 0):
            return None
        r = fx * fy + fz if (math.isinf(fx) or math.isinf(fy)) else fz
        return None if math.isnan(r) else u(r)
    exact = Fraction(fx) * Fraction(fy) + Fraction(fz)
    if exact == 0:
        return u(fx * fy + fz)                     # IEEE zero-sign rules (no rounding involved)
    try:
        r = float(exact)
    except OverflowError:
        r = math.inf if exact > 0 else -math.inf
    if r == 0:
        r = math.copysign(0.0, exact)
    return u(r)


def gdfs_plain(instr, p, c_fmt, c, a, b, sa, sb, k0=0):
    d = gdfs_fraction(instr, p, c_fmt, c, a, b, sa, sb, k0)
    return gdfs(instr, p, c_fmt, c, a, b, sa, sb, k0) if d is None else d


def sfma_plain(instr, p, c_fmt, c, a, b, sa=None, sb=None, k0=0):
    fmt = sfma_format(instr, p, c_fmt)
    if fmt.name != 'f64':
        return sfma(instr, p, c_fmt, c, a, b)
    d = c
    for x, y in zip(a, b):
        d = fma_fraction(fmt, x, y, d)
        if d is None:
            return CANONICAL_NAN['f64']
    return d


PLAIN_PASSES = {'FDA': fda_plain, 'GDFS': gdfs_plain, 'SFMA': sfma_plain}


def dot_add_plain(instr, c, a, b, sa=None, sb=None):
    """The same as dot_add by the plainer routes (fda_plain; gdfs_fraction for finite GDFS inputs;
    fma_fraction for f64 SFMA)."""
    if any(p['algo'] in AMD_ALGOS for p in instr['schedule']):
        return dot_add(instr, c, a, b, sa, sb)
    return run_schedule(instr, c, a, b, sa, sb, PLAIN_PASSES)
