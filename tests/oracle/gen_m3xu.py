#!/usr/bin/env python3
"""Seeded M3XU vectors (FP32 and FP32C modes) with the expected D from ref_m3xu.py, the closed form.

Prints `mmaref batch --check` lines (hex): C A0..A(K-1) B0..B(K-1) D.  The instruction's K and F come
from the oracle's own table (table.py: the M3XU modes), never from the model.

  python3 tests/oracle/gen_m3xu.py --mode f32 --count 100000 --seed 1 \\
      | build/mmaref batch m3xu m3xu.m8n4k4.f32.f32.f32.f32 --check
  build/mmaref gen m3xu m3xu.f32c --n 20000 | python3 tests/oracle/gen_m3xu.py --mode f32c --expect \\
      | build/mmaref batch m3xu m3xu.f32c --check       # the model's own stimulus, the oracle's D

Kinds (--kind; 'mixed', the default, draws one per vector with the weights of KINDS):
  raw       uniformly random bits
  cluster   exponents within a spread (0 to beyond F_w = 46) of one centre anywhere in the range, exact
            cancellations (product j = -product i), zero operands, C from far below e_max to above it
  split     carries across the 12-bit split: significands whose low and/or high halves are all ones
            (0xFFF), products at one exponent, C just below the next binade
  tie       round-to-nearest-even ties: C plus exactly half an ulp (normal and subnormal results, odd and
            even C), with or without a term below the F_w window (truncated: still a tie) or inside it
  subnormal subnormal operands, products and results around 2^-126 .. 2^-160
  overflow  products and C near 2^128, the RNE boundary of the largest finite value, max - max
  special   a cluster vector with NaN, +-inf, +-0, subnormals, max finite on 1-3 fields; one special
            lane cycles over every lane
  cancel    (f32c) the imaginary parts equal to the real parts, or nearly: ar*br - ai*bi cancels
An FP32C vector is an FP32 vector of 2K lanes and two C's, placed on the real part (lanes 2k, 2k+1 the
real and imaginary parts of element k; the odd lanes' products subtract) or on the imaginary part (B's
parts swapped, so ar*bi + ai*br is the FP32 vector's dot) at random.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_m3xu  # noqa: E402
import table  # noqa: E402

MODES = {'f32': 'FP32', 'f32c': 'FP32C'}
KINDS = {'raw': 12, 'cluster': 28, 'split': 10, 'tie': 10, 'subnormal': 10, 'overflow': 7, 'special': 13,
         'cancel': 10}
SPREADS = (0, 0, 1, 2, 3, 5, 8, 12, 20, 23, 24, 25, 30, 45, 46, 47, 48, 50, 60)
C_OFFSETS = (-80, -50, -48, -47, -46, -45, -44, -30, -25, -24, -23, -12, -2, -1, 0, 0, 1, 2, 5, 30)
SIGN = 0x80000000
MAX_FINITE = 0x7F7FFFFF
SPECIALS = [0, SIGN, 1, SIGN | 1, 0x7FFFFF, 0x800000, MAX_FINITE, SIGN | MAX_FINITE, 0x3F800000,
            0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001, 0x7FFFFFFF]


def instruction(mode):
    """The oracle's M3XU instruction of a mode: its name, K and F from table.py."""
    for m, ab, cd, (M, N, K), _ in table.M3XU_MODES:
        if m == MODES[mode]:
            name = f"m3xu.m{M}n{N}k{K}.{cd}.{ab}.{ab}.{cd}"
            p = table.schedule('m3xu', name)[0]
            return name, p['k_count'], p['frac_bits']
    raise SystemExit(f"gen_m3xu.py: no M3XU mode '{mode}'")


def f32(neg, e, sig):
    """binary32 bits of (-1)^neg * sig * 2^(e - 23), sig < 2^24: exponents below -126 shift sig into a
    subnormal (low bits dropped), above 127 clamp to the largest finite."""
    if e > 127:
        return (SIGN if neg else 0) | MAX_FINITE
    if e < -126:
        sig >>= min(24, -126 - e)
        e = -126
    field = e + 127 if sig >> 23 else 0
    return (SIGN if neg else 0) | field << 23 | (sig & 0x7FFFFF)


class Gen:
    def __init__(self, K, seed):
        self.K = K
        self.r = random.Random(seed)
        self.n = 0                               # vectors made: the special lane cycles over the lanes

    def sig(self):
        """A 24-bit significand: random, or one whose 12-bit halves carry (all ones)."""
        r = self.r
        x = r.getrandbits(23) | 1 << 23
        pick = r.randrange(8)
        if pick == 0:
            return x | 0xFFF                     # low half all ones
        if pick == 1:
            return x | 0xFFF000                  # high half all ones
        if pick == 2:
            return 0xFFFFFF
        if pick == 3:
            return 1 << 23 | r.choice((0, 1, 0xFFF, 0x1000, 0x800))
        return x

    def value(self, e, neg=None):
        neg = self.r.getrandbits(1) if neg is None else neg
        return f32(neg, e, self.sig())

    def c_near(self, pe):
        r = self.r
        if r.random() < 0.15:
            return r.choice((0, SIGN))
        return self.value(pe + r.choice(C_OFFSETS) + r.randint(-2, 2))

    # -- the kinds: each returns (c, a, b) of n lanes --------------------------------------------------
    def raw(self, n):
        g = self.r.getrandbits
        return g(32), [g(32) for _ in range(n)], [g(32) for _ in range(n)]

    def cluster(self, n):
        r = self.r
        regime = r.random()
        e0 = r.randint(-20, 20) if regime < 0.6 else r.randint(-80, 64) if regime < 0.9 else r.choice((63, 64, -63, -70))
        w = r.choice(SPREADS)
        a = [self.value(e0 + r.randint(-w // 2, w // 2)) for _ in range(n)]
        b = [self.value(e0 + r.randint(-(w + 1) // 2, (w + 1) // 2)) for _ in range(n)]
        if n > 1 and r.random() < 0.4:           # exact cancellations: product j = -product i
            for _ in range(r.randint(1, n // 2)):
                i, j = r.randrange(n), r.randrange(n)
                a[j], b[j] = a[i], b[i] ^ SIGN
        elif n > 1 and r.random() < 0.25:        # total cancellation but for one residue lane (or none)
            for i in range(0, n - 1, 2):
                a[i + 1], b[i + 1] = a[i], b[i] ^ SIGN
            if r.random() < 0.5:
                a[-1] = self.value(e0 - r.randint(10, 60))
        if r.random() < 0.15:                    # zero operands of either sign
            a[r.randrange(n)] = r.choice((0, SIGN))
        return self.c_near(2 * e0), a, b

    def split(self, n):
        r = self.r
        e = r.randint(-10, 10)
        ones = (0xFFFFFF, 0xFFFFFF, 1 << 23 | 0xFFF, 0xFFF000 | r.getrandbits(12), 1 << 23 | r.getrandbits(11) << 12 | 0xFFF)
        neg = r.getrandbits(1)
        a = [f32(neg, e, r.choice(ones)) for _ in range(n)]
        b = [f32(neg if r.random() < 0.8 else 1 - neg, -e, r.choice(ones)) for _ in range(n)]
        c = f32(r.getrandbits(1), r.choice((2, 3, 1, 0, -24, -46)), r.choice(ones))
        return c, a, b

    def power(self, h):
        """Factors (a, b) of +2^h, both representable (h down to -298)."""
        ha = max(-149, min(127, h // 2))
        return f32(0, ha, 1 << 23), f32(0, h - ha, 1 << 23)

    def tie(self, n):
        r = self.r
        ey = r.choice((r.randint(-20, 20), r.randint(-126, -100), -126, r.randint(100, 126)))
        y = f32(0, ey, r.getrandbits(23) | 1 << 23) if r.random() < 0.8 else r.randrange(1, 1 << 23)  # subnormal C
        ulp_e = max(ey, -126) - 23 if y >> 23 else -149
        neg = r.getrandbits(1)
        c = y | (SIGN if neg else 0)
        a, b = [0] * n, [0] * n
        a[0], b[0] = self.power(ulp_e - 1)       # exactly half an ulp of C
        if r.random() < 0.5:
            a[0] ^= SIGN                         # C - half an ulp
        a[0] ^= SIGN if neg else 0
        if n > 1:
            extra = r.random()
            if extra < 0.3:                      # below the window (e_max - 46): truncated, still a tie
                a[1], b[1] = self.power(max(ey, -126) - 46 - r.randint(1, 6))
            elif extra < 0.6:                    # inside it: no longer a tie
                a[1], b[1] = self.power(max(ey, -126) - r.randint(25, 46))
            if r.random() < 0.5:
                a[1] ^= SIGN
            if n > 3 and r.random() < 0.5:       # two products that cancel exactly
                a[2], b[2] = self.value(ey - 5), self.value(0)
                a[3], b[3] = a[2], b[2] ^ SIGN
        return c, a, b

    def subnormal(self, n):
        r = self.r
        pe = r.randint(-175, -120)               # products' exponent
        a, b = [], []
        for _ in range(n):
            ea = r.randint(max(-149, pe + 1 - 127), min(127, pe + 126)) if r.random() < 0.7 else r.randint(-149, -126)
            a.append(self.value(ea))
            b.append(self.value(pe - ea + r.randint(-2, 2)))
        c = self.value(r.randint(-150, -120)) if r.random() < 0.8 else r.choice((0, SIGN))
        return c, a, b

    def overflow(self, n):
        r = self.r
        pick = r.randrange(4)
        if pick == 0:                            # products beyond 2^128, both signs
            a = [self.value(r.randint(60, 64)) for _ in range(n)]
            b = [self.value(r.randint(60, 64)) for _ in range(n)]
            return self.c_near(127), a, b
        if pick == 1:                            # the largest finite plus half an ulp (2^103): a tie to 2^128
            neg = r.getrandbits(1)
            a, b = [0] * n, [0] * n
            a[0], b[0] = self.power(103 - r.choice((0, 0, 1, 24, 40)))
            a[0] ^= SIGN if neg ^ (r.random() < 0.2) else 0
            if n > 1 and r.random() < 0.5:
                a[1], b[1] = self.power(103 - 45)
                a[1] ^= r.choice((0, SIGN))
            return (SIGN if neg else 0) | MAX_FINITE, a, b
        if pick == 2:                            # max - max and max + max
            neg = r.getrandbits(1)
            a = [(SIGN if neg else 0) | MAX_FINITE] * n
            b = [0x3F800000 | (SIGN if r.random() < 0.5 else 0) for _ in range(n)]
            return r.choice((0, MAX_FINITE, SIGN | MAX_FINITE)), a, b
        e = r.randint(120, 127)                  # C near the top, products just below
        a = [self.value(r.randint(60, 64)) for _ in range(n)]
        b = [self.value(e - 64 + r.randint(-3, 3)) for _ in range(n)]
        return self.value(e), a, b

    def special(self, n):
        r = self.r
        c, a, b = self.cluster(n)
        fields = [c] + a + b
        lane = self.n % n                        # one special on every lane in turn
        fields[1 + lane if r.random() < 0.5 else 1 + n + lane] = r.choice(SPECIALS)
        for _ in range(r.randint(0, 2)):
            fields[r.randrange(len(fields))] = r.choice(SPECIALS)
        return fields[0], fields[1:1 + n], fields[1 + n:]

    def cancel(self, n):
        """Lanes 2k+1 equal to lanes 2k (or nearly): as an FP32C real part, ar*br - ai*bi cancels."""
        r = self.r
        c, a, b = self.cluster(n)
        for k in range(0, n - 1, 2):
            a[k + 1] = a[k] ^ (r.getrandbits(r.choice((0, 0, 1, 4, 12))) if r.random() < 0.5 else 0)
            b[k + 1] = b[k]
        return c, a, b

    def vector(self, kind, lanes):
        if kind == 'mixed':
            kind = self.r.choices(list(KINDS), weights=list(KINDS.values()))[0]
        self.n += 1
        return getattr(self, kind)(lanes)

    def f32_vector(self, kind):
        return self.vector(kind, self.K)

    def f32c_vector(self, kind):
        """An FP32 vector of 2K lanes and a second C, placed on the real or the imaginary part."""
        r = self.r
        c, a, b = self.vector(kind, 2 * self.K)
        c2 = r.choice((0, SIGN, self.value(r.randint(-30, 30)), r.getrandbits(32)))
        if r.random() < 0.5:                     # real part: ar*br - ai*bi + cr
            bb = b
            cc = c | c2 << 32
        else:                                    # imaginary part: ar*bi + ai*br + ci
            bb = []
            for k in range(self.K):
                bb += [b[2 * k + 1], b[2 * k]]   # (br, bi) = (lane 2k+1, lane 2k)
            cc = c2 | c << 32
        A = [a[2 * k] | a[2 * k + 1] << 32 for k in range(self.K)]
        B = [bb[2 * k] | bb[2 * k + 1] << 32 for k in range(self.K)]
        return cc, A, B


def lines(mode, count, seed, kind='mixed', wrong=False, F=None, stats=None):
    """count lines; stats (a dict, optional) counts the vectors that exercised each event of
    ref_m3xu.dot_f32 (a low half 0xFFF among the operands: 'low_half_ones')."""
    name, K, F_table = instruction(mode)
    F = F_table if F is None else F
    g = Gen(K, seed)
    make, dot, dig = ((g.f32_vector, ref_m3xu.dot_f32, 8) if mode == 'f32' else
                      (g.f32c_vector, ref_m3xu.dot_f32c, 16))
    for _ in range(count):
        c, a, b = make(kind)
        events = set() if stats is not None else None
        d = dot(a, b, c, F, events) ^ (1 if wrong else 0)
        if stats is not None:
            parts = [x >> (32 * i) & 0xFFFFFFFF for x in a + b for i in range(dig // 8)]
            if any(x & 0xFFF == 0xFFF and x >> 23 & 0xFF not in (0, 0xFF) for x in parts):
                events.add('low_half_ones')
            for e in events:
                stats[e] = stats.get(e, 0) + 1
        yield ' '.join('%0*x' % (dig, v) for v in [c] + a + b) + ' %0*x' % (dig, d)


def expect(mode, F=None):
    """Stimulus lines on stdin (C A.. B.., hex) -> the same with the reference D appended."""
    name, K, F_table = instruction(mode)
    F = F_table if F is None else F
    dot, dig = (ref_m3xu.dot_f32, 8) if mode == 'f32' else (ref_m3xu.dot_f32c, 16)
    for n, line in enumerate(sys.stdin, 1):
        f = line.split('#')[0].split()
        if not f:
            continue
        if len(f) != 1 + 2 * K:
            raise SystemExit(f"gen_m3xu.py: stdin line {n}: {len(f)} fields, {name} takes {1 + 2 * K}")
        v = [int(x, 16) for x in f]
        yield ' '.join(f) + ' %0*x' % (dig, dot(v[1:1 + K], v[1 + K:], v[0], F))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--mode', required=True, choices=sorted(MODES))
    p.add_argument('--count', type=int, default=1000)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--kind', default='mixed', choices=['mixed'] + list(KINDS))
    p.add_argument('--wrong', action='store_true', help='flip the low bit of every expected D')
    p.add_argument('--F', type=int, help="F_w other than the table's (a deliberately wrong reference)")
    p.add_argument('--expect', action='store_true', help='read stimulus lines on stdin, append the reference D')
    p.add_argument('--name', action='store_true', help="print the mode's instruction name and exit")
    p.add_argument('--stats', action='store_true',
                   help='at the end, one line on stderr: "# coverage: EVENT=N ..." (vectors per event)')
    args = p.parse_args(argv)
    if args.name:
        print(instruction(args.mode)[0])
        return 0
    if args.count < 0:
        raise SystemExit(f"gen_m3xu.py: --count must be >= 0, got {args.count}")
    stats = {} if args.stats else None
    out = expect(args.mode, args.F) if args.expect else lines(args.mode, args.count, args.seed, args.kind,
                                                               args.wrong, args.F, stats)
    try:
        buf = []
        for line in out:
            buf.append(line)
            if len(buf) >= 2000:
                sys.stdout.write('\n'.join(buf) + '\n')
                buf = []
        if buf:
            sys.stdout.write('\n'.join(buf) + '\n')
        sys.stdout.flush()
        if stats is not None:
            print('# coverage: ' + ' '.join(f'{k}={v}' for k, v in sorted(stats.items())), file=sys.stderr)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
