#!/usr/bin/env python3
"""Seeded random test vectors for one mmaref instruction, with the expected D from ref.py.

Prints lines in the `mmaref batch --check` format (hex): C A0..A(K-1) B0..B(K-1) [SA.. SB..] D
  python3 tests/oracle/gen.py --arch hopper --instr mma.m16n8k16.f32.f16.f16.f32 --count 10000 \\
      --seed 1 | build/mmaref batch hopper mma.m16n8k16.f32.f16.f16.f32 --check

Kinds of vectors:
  raw      every field uniformly random bits
  cluster  products and c within a few binades of each other (spread 0 to beyond F), random signs,
           some products cancelling exactly: massive cancellation and every alignment shift
  special  cluster vectors with NaN, +-inf, +-0, subnormals, max finite, min normal and extreme or
           NaN scale factors sprinkled in at a low rate
  mixed    20% raw, 55% cluster, 25% special (the default)

Vector i of a (--seed, instruction) stream is the same whatever --first and --count select: --first N
--count 1 prints vector N alone (the replay of a regression shard's mismatch, tools/regress/).
Other options: --wrong flips the low bit of every expected D (the check must then fail on every line);
--selfcheck compares ref.py's fast path with its plain and Fraction derivations instead of printing;
--list FILE reads the instruction list from a file instead of running `mmaref list --json`.
The list only names the instruction and its operands: every arithmetic parameter (passes, F, G, the
roundings, flushing, the output) is the oracle's own, from tests/oracle/table.py.
tests/oracle/check_all.py runs every distinct configuration (tests/t_model_oracle.sh, make regress).
"""
import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref  # noqa: E402
import table  # noqa: E402

KINDS = ('raw', 'cluster', 'special', 'mixed')
# lines(): the stream is cut into blocks of BLOCK vectors, each from its own seeded generator (seek)
BLOCK = 1024
SPREADS = (0, 0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 26, 30, 40, 64)


def specials(fmt):
    """Interesting bit patterns of a format."""
    f = fmt
    sign = 1 << (f.bits - 1)
    top = (1 << f.ebits) - 1
    if f.kind == 'ue8m0':
        return [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
    if f.kind == 'ue4m3':
        return [0x00, 0x01, 0x07, 0x08, 0x38, 0x7E, 0x7F, 0x80, 0xFF, 0xB8]
    pos = [0, 1, (1 << f.man) - 1, 1 << f.man]                       # 0, subnormals, min normal
    if f.kind == 'ieee':
        pos += [(top << f.man) - 1, top << f.man,                     # max finite, inf
                (top << f.man) | 1, (top << f.man) | (1 << (f.man - 1)),  # NaNs (sNaN, qNaN)
                (1 << f.bits) - 1 - sign]                             # NaN, all payload bits
        if f.name == 'tf32':
            pos += [0x7F801000, 0x7F800FFF, 0x00001FFF, 0x00002000]   # NaN/inf/0/subnormal after Step 0
    elif f.kind == 'fn':
        pos += [(top << f.man) - 1, (top << f.man) | ((1 << f.man) - 2), (1 << (f.bits - 1)) - 1]  # 256, 448, NaN
    elif f.kind == 'finite':
        pos += [(1 << (f.bits - 1)) - 1]                              # max
    elif f.kind == 'fnuz':
        return [0x00, 0x01, 0x7F, 0x80, 0xFF, 1 << f.man]
    return pos + [p | sign for p in pos]


_HEX = []
_POOLS = {}


def hex_table():
    """'%x' of every 16-bit number."""
    if not _HEX:
        _HEX.extend('%x' % x for x in range(1 << 16))
    return _HEX


class Gen:
    def __init__(self, instr, seed):
        self.instr = instr
        self.rng = random.Random(seed)
        self.seed = seed
        self.K = instr['k']
        self.fa, self.fb = ref.FORMATS[instr['a']], ref.FORMATS[instr['b']]
        self.fc, self.fd = ref.FORMATS[instr['c']], ref.FORMATS[instr['d']]
        self.fs = ref.FORMATS[instr['scale']] if instr['scale'] else None
        self.ns = self.K // instr['block_size'] if instr['block_size'] else 0
        self.cache = {}
        self.spec = {f.name: specials(f) for f in (self.fa, self.fb, self.fc, self.fs) if f}

    # -- values with chosen binades --------------------------------------------------------------
    def binades(self, fmt):
        """{e: (base, nbits)}: a random positive value of fmt in binade e is base | getrandbits(nbits);
        below emin the binades are the subnormals' (then zero), above emax it is clamped."""
        key = ('binades', fmt.name)
        if key not in self.cache:
            t = {}
            for e in range(fmt.emin - fmt.man - 1, fmt.emax + 1):
                if e >= fmt.emin:
                    t[e] = ((e + fmt.bias) << fmt.man, fmt.man)
                else:
                    lead = fmt.man - (fmt.emin - e)      # position of the subnormal's leading bit
                    t[e] = (1 << lead, lead) if lead >= 0 else (0, 0)
            self.cache[key] = t
        return self.cache[key]

    def values(self, fmt, centre, w, n):
        """n random values of fmt, random signs, binades uniform in centre +- w (clamped)."""
        lo = fmt.emin - fmt.man - 1                          # binades' range (see binades)
        lo, hi = max(lo, min(fmt.emax, centre - w)), max(lo, min(fmt.emax, centre + w))
        if fmt.bits <= 8:                                    # every value of those binades, both signs
            pool = _POOLS.get((fmt.name, lo, hi)) or self.pool(fmt, lo, hi)
            size = len(pool)
            return [pool[r % size] for r in self.rng.randbytes(n)]
        rng, gr, t = self.rng, self.rng.getrandbits, self.binades(fmt)
        span = hi - lo + 1                                   # at most 2 * 64 + 1 binades: one byte picks
        out = [t[lo + x % span] for x in rng.randbytes(n)]
        out = [base | gr(nb) for base, nb in out]
        if fmt.signed:
            sign = 1 << (fmt.bits - 1)
            out = [x | sign if s & 1 else x for x, s in zip(out, rng.randbytes(n))]
        return out

    def one_value(self, fmt, e, neg):
        """One random value of fmt in binade e (clamped), negative if neg (narrow formats: random sign)."""
        lo = fmt.emin - fmt.man - 1
        e = max(lo, min(fmt.emax, e))
        if fmt.bits <= 8:                                    # the pool has both signs already
            pool = _POOLS.get((fmt.name, e, e)) or self.pool(fmt, e, e)
            return pool[self.rng.getrandbits(16) % len(pool)]
        base, nb = self.binades(fmt)[e]
        x = base | self.rng.getrandbits(nb)
        return x | (1 << (fmt.bits - 1)) if neg and fmt.signed else x

    def pool(self, fmt, lo, hi):
        """Every bit pattern of a narrow format whose binade is in lo..hi, not NaN (a list of at most
        256, so that a random byte picks one; the modulo bias does not matter here)."""
        t = self.binades(fmt)
        pos = sorted({base | m for e in range(lo, hi + 1) for base, nb in [t[e]] for m in range(1 << nb)})
        special = ref.narrow_tables(fmt)[2]                  # NaN and inf patterns
        pos = [x for x in pos if x not in special]
        if fmt.signed:
            sign = 1 << (fmt.bits - 1)
            pos += [x | sign for x in pos if x | sign not in special]
        _POOLS[(fmt.name, lo, hi)] = pos
        return pos

    # -- vector kinds ----------------------------------------------------------------------------
    def fields(self, fmt, n):
        """n uniformly random bit patterns of fmt."""
        if fmt.bits <= 8:
            mask = (1 << fmt.bits) - 1
            return [x & mask for x in self.rng.randbytes(n)]
        gr = self.rng.getrandbits
        return [gr(fmt.bits) for _ in range(n)]

    def vec_raw(self):
        fs, ns = self.fs, self.ns
        return (self.fields(self.fc, 1)[0], self.fields(self.fa, self.K), self.fields(self.fb, self.K),
                self.fields(fs, ns) if ns else [], self.fields(fs, ns) if ns else [])

    def vec_cluster(self):
        rng = self.rng
        fa, fb, fc, fs, K, ns = self.fa, self.fb, self.fc, self.fs, self.K, self.ns
        r = rng.getrandbits(128)                             # the small random choices below, 1-16 bits each
        w = SPREADS[r & 15]
        lo_a, lo_b = fa.emin - fa.man - 1, fb.emin - fb.man - 1
        # product binade: anywhere from below both formats' subnormals to both maxima, or (half of
        # the vectors) where D's result is finite and not far below D's subnormals
        p_lo, p_hi = lo_a + lo_b, fa.emax + fb.emax
        if r >> 80 & 1:
            p_lo, p_hi = max(p_lo, self.fd.emin - self.fd.man - 3), min(p_hi, self.fd.emax + 1)
            p_lo, p_hi = min(p_lo, p_hi), max(p_lo, p_hi)
        pc = p_lo + (r >> 4 & 0xFFFF) % (p_hi - p_lo + 1)
        lo, hi = max(lo_a, pc - fb.emax), min(fa.emax, pc - lo_b)
        ca = lo + (r >> 20 & 0xFFFF) % (hi - lo + 1)
        cb = pc - ca
        a = self.values(fa, ca, w, K)
        b = self.values(fb, cb, w, K)
        sa, sb = [], []
        if ns:
            if fs.kind == 'ue8m0':
                ws = (0, 1, 2, 4, 8, 40)[(r >> 36 & 0xFF) % 6]
                base = (r >> 44 & 0xFF) % 41 - 20
                sa = [max(0, min(254, 127 + base + x % (2 * ws + 1) - ws)) for x in rng.randbytes(ns)]
                sb = [max(0, min(254, 127 - base + x % (2 * ws + 1) - ws)) for x in rng.randbytes(ns)]
                pc += sa[0] + sb[0] - 254
            else:                                            # ue4m3: any non-NaN, bit 7 random
                sa = [x % 0x7F | (x & 0x80) for x in rng.randbytes(ns)]
                sb = [x % 0x7F | (x & 0x80) for x in rng.randbytes(ns)]
        # exact cancellations (40% of vectors): product j = -product i for a few pairs (i, j)
        if K > 1 and (r >> 52 & 0xFF) < 102:
            neg = 1 << (fb.bits - 1)
            pairs = rng.randbytes(2 * (1 + (r >> 60 & 0xFF) % (K // 2)))
            for i, j in zip(pairs[0::2], pairs[1::2]):
                i, j = i % K, j % K
                if ns and i * ns // K != j * ns // K:
                    continue                                 # different block scales: not a cancellation
                a[j] = a[i]
                b[j] = b[i] ^ neg if fb.kind != 'fnuz' or b[i] else b[i]
        if r >> 81 & 3:                                      # c near the products
            e_c = pc + (0, 0, 1, 2, -1, -3)[(r >> 68 & 0xFF) % 6] + (r >> 100 & 0xFF) % (2 * w + 1) - w
        else:                                                # c anywhere in its format
            lo_c = fc.emin - fc.man - 1
            e_c = lo_c + (r >> 84 & 0xFFFF) % (fc.emax - lo_c + 1)
        c = self.one_value(fc, e_c, r >> 108 & 1)
        return c, a, b, sa, sb

    def vec_special(self):
        """A cluster vector with one to three fields replaced by special values of their format."""
        c, a, b, sa, sb = self.vec_cluster()
        fields = [c] + a + b + sa + sb
        K, ns, n = self.K, self.ns, len(fields)
        r = self.rng.getrandbits(64)
        for _ in range((1, 1, 1, 2, 3)[r % 5]):
            r //= 5
            i = r % n
            r //= n
            fmt = self.fc if i == 0 else self.fa if i <= K else self.fb if i <= 2 * K else self.fs
            spec = self.spec[fmt.name]
            fields[i] = spec[r % len(spec)]
            r //= len(spec)
        return (fields[0], fields[1:1 + K], fields[1 + K:1 + 2 * K],
                fields[1 + 2 * K:1 + 2 * K + ns], fields[1 + 2 * K + ns:])

    def vector(self, kind):
        if kind == 'mixed':
            r = self.rng.random()
            kind = 'raw' if r < 0.2 else 'cluster' if r < 0.75 else 'special'
        self.last_kind = kind
        return getattr(self, 'vec_' + kind)()

    def seek(self, index):
        """Positions the stream at vector index: vector i is the (i mod BLOCK)-th vector drawn from a
        generator seeded with (seed, i // BLOCK), so any index is reached by drawing at most BLOCK - 1
        vectors, and vectors [first, first + n) are the same whatever range a run starts from (the
        shards of tools/regress/ cut one configuration's stream into pieces)."""
        self.rng.seed((self.seed << 64) | (index // BLOCK))
        self.index = index - index % BLOCK
        while self.index < index:
            self.vector(self.kind_at)
            self.index += 1

    def lines(self, count, kind, wrong=False, first=0):
        """count lines 'C A.. B.. [SA.. SB..] D' (hex) of vectors first, first + 1, ...; wrong: every
        expected D has its low bit flipped."""
        instr = self.instr
        dot = ref.dot_add
        narrow = max(f.bits for f in (self.fa, self.fb, self.fs) if f) <= 16
        hexa = hex_table().__getitem__ if narrow else '{:x}'.format
        self.kind_at = kind
        self.seek(first)
        self.kinds = dict.fromkeys(KINDS[:3], 0)     # vectors of each kind that lines() yielded
        for _ in range(count):
            if self.index % BLOCK == 0:
                self.rng.seed((self.seed << 64) | (self.index // BLOCK))
            self.index += 1
            c, a, b, sa, sb = self.vector(kind)
            self.kinds[self.last_kind] += 1
            d = dot(instr, c, a, b, sa or None, sb or None)
            if wrong:
                d ^= 1
            yield '%x %s %x' % (c, ' '.join(map(hexa, a + b + sa + sb)), d)


def selfcheck(instr, count, seed, kind):
    """ref.dot_add against ref.dot_add_plain (and ref.fda_fraction for single-pass FDA on finite
    inputs) on count generated vectors."""
    g = Gen(instr, seed)
    what = f"oracle self-check {instr['arch']} {instr['name']} ({count} {kind} vectors, seed {seed})"
    fractions = 0
    for n in range(count):
        c, a, b, sa, sb = g.vector(kind)
        fast = ref.dot_add(instr, c, a, b, sa or None, sb or None)
        want = {'plain': ref.dot_add_plain(instr, c, a, b, sa or None, sb or None)}
        if [p['algo'] for p in instr['schedule']] == ['FDA']:
            f = ref.fda_fraction(instr, c, a, b, sa or None, sb or None)
            if f is not None:
                want['fraction'] = f
                fractions += 1
        for how, d in want.items():
            if d != fast:
                line = '%x %s' % (c, ' '.join('%x' % x for x in a + b + sa + sb))
                print(f"not ok - {what}: vector {n} fast {fast:#x} != {how} {d:#x}: {line}")
                return 1
    plain = {'FDA': 'fda_plain', 'GDFS': 'Fraction (finite inputs)', 'SFMA': 'fma_fraction'}.get(
        instr['schedule'][0]['algo'], 'itself')
    print(f"ok - {what}: fast path == {plain}" + (f", == Fraction path on {fractions}" if fractions else ''))
    return 0


def feed(proc, lines, chunk=2000):
    """Writes LINES (the vector lines of Gen.lines) to PROC's stdin, CHUNK at a time, then returns
    PROC's output once it has read them all (proc.communicate())."""
    buf = []
    for line in lines:
        buf.append(line)
        if len(buf) == chunk:
            proc.stdin.write('\n'.join(buf) + '\n')
            buf = []
    proc.stdin.write('\n'.join(buf) + ('\n' if buf else ''))
    return proc.communicate()[0]


def load_instructions(path=None, mmaref=None):
    if path:
        with open(path) as f:
            return json.load(f)
    exe = mmaref or os.environ.get('MMAREF') or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'mmaref')
    try:
        out = subprocess.run([exe, 'list', '--json'], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"gen.py: cannot run '{exe} list --json' ({e}); build it with 'make' or give --list FILE")
    return json.loads(out)


def find_instr(instrs, arch, name):
    """The oracle's instruction object (table.instruction) of a listed instruction."""
    archs = sorted({x['arch'] for x in instrs})
    if arch not in archs:
        raise SystemExit(f"gen.py: unknown architecture '{arch}'; known: {', '.join(archs)}")
    for x in instrs:
        if x['arch'] == arch and x['name'] == name:
            try:
                return table.instruction(x)
            except ValueError as e:          # table.NotInPaper, or the name and the listed operands differ
                raise SystemExit(f"gen.py: the oracle has no parameters for {arch} {name}: {e}")
    raise SystemExit(f"gen.py: {arch} has no instruction '{name}' (see 'mmaref list')")


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        raise SystemExit(f"gen.py: {message} (see gen.py --help)")


def main(argv=None):
    p = OneLineParser(description=__doc__.split('\n')[0])
    p.add_argument('--arch', required=True)
    p.add_argument('--instr', required=True)
    p.add_argument('--count', type=int, default=1000)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--first', type=int, default=0,
                   help='index of the first vector: vectors first..first+count-1 of the seeded stream')
    p.add_argument('--kind', default='mixed')
    p.add_argument('--list', help='instruction table as JSON (default: run mmaref list --json)')
    p.add_argument('--mmaref', help='path of the mmaref binary (default: $MMAREF or build/mmaref)')
    p.add_argument('--wrong', action='store_true', help='flip the low bit of every expected D (negative test)')
    p.add_argument('--selfcheck', action='store_true',
                   help='instead of printing vectors, compare ref.py fast path with its plain and Fraction '
                        'derivations on them; prints one ok/not ok line')
    args = p.parse_args(argv)
    if args.kind not in KINDS:
        raise SystemExit(f"gen.py: unknown --kind '{args.kind}'; one of {', '.join(KINDS)}")
    if args.count < 0:
        raise SystemExit(f"gen.py: --count must be >= 0, got {args.count}")
    if args.first < 0:
        raise SystemExit(f"gen.py: --first must be >= 0, got {args.first}")
    instr = find_instr(load_instructions(args.list, args.mmaref), args.arch, args.instr)
    for p in instr['schedule']:
        if p['algo'] not in tuple(ref.PASSES) + ref.AMD_ALGOS:
            raise SystemExit(f"gen.py: no reference for algorithm '{p['algo']}' of {args.arch} {args.instr}")
    if args.selfcheck:
        return selfcheck(instr, args.count, args.seed, args.kind)
    out = sys.stdout
    try:
        buf = []
        for line in Gen(instr, args.seed).lines(args.count, args.kind, args.wrong, args.first):
            buf.append(line)
            if len(buf) >= 1000:
                out.write('\n'.join(buf) + '\n')
                buf = []
        if buf:
            out.write('\n'.join(buf) + '\n')
        out.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
