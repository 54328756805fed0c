"""Independent composition of a whole GEMM from single dot-adds (the oracle side of tests/t_cli_gemm.sh).

Written from docs/gemm.md, sharing no code with cmodel/: every dot-add is ref.dot_add (the oracle's exact
reference; ref_m3xu.dot_f32 for M3XU's FP32 mode), every FP32 (FP64) addition of split-k and promote is an
exact Fraction sum rounded here to nearest even.  The composition is the plain definition: for each D element, a chain of dot-adds over the
K chunks of the instruction.  A ragged last chunk is computed UNPADDED (the pass on the real products only)
when the instruction has one pass; a multi-pass schedule (CoFDA, ...) has no unpadded meaning and gets
docs/gemm.md's padding (a = +0, b = -0, scale pattern 0).

  gemm.py case --arch A --instr I --m M --n N --k K --seed S --accumulate ACC --dir DIR [--mmaref EXE]
      writes DIR/A.npy, B.npy, C.npy (and SA.npy, SB.npy) as raw bits, and DIR/expect.npy
  gemm.py compare GOT.npy EXPECT.npy WHAT
      prints "ok - WHAT" or "not ok - WHAT: ..." naming the first mismatching elements
  gemm.py write FILE DESCR ROWS COLS HEX...
      a raw-bits .npy of the given dtype ('<u2', '<u4', '<u8', '|u1') for the hand-derived cases
      (ROWS '-': a vector)
"""
import argparse
import ast
import os
import random
import struct
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref    # noqa: E402
import ref_m3xu    # noqa: E402
import gen    # noqa: E402


# ---- .npy files, raw bits only (NPY 1.0, C order, little-endian unsigned) ----
def npy_write(path, descr, rows, cols, bits):
    """rows None: a vector of cols elements."""
    shape = "(%d,)" % cols if rows is None else "(%d, %d)" % (rows, cols)
    h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    h += " " * ((-(10 + len(h) + 1)) % 64) + "\n"
    fmt = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[int(descr[2:])]
    with open(path, 'wb') as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode('latin1'))
        f.write(struct.pack("<%d%s" % (len(bits), fmt), *bits))


def npy_read(path):
    blob = open(path, 'rb').read()
    assert blob[:6] == b"\x93NUMPY", f"{path}: not a .npy file"
    if blob[6] == 1:
        hlen, start = struct.unpack("<H", blob[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", blob[8:12])[0], 12
    d = ast.literal_eval(blob[start:start + hlen].decode('latin1'))
    size = int(d['descr'][2:])
    n = 1
    for s in d['shape']:
        n *= s
    fmt = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[size]
    return d['descr'], tuple(d['shape']), list(struct.unpack("<%d%s" % (n, fmt), blob[start + hlen:]))


def descr_of(fmt):
    return {4: '|u1', 6: '|u1', 8: '|u1', 16: '<u2', 32: '<u4', 64: '<u8'}[fmt.bits]


# ---- IEEE addition, round to nearest even (docs/gemm.md, "The FP32 additions") ----
def ieee_add(out, fx, x, fy, y):
    """x (format fx) + y (format fy) rounded once to nearest even in format out: NaN -> canonical NaN,
    inf - inf -> NaN, an exact zero sum is -0 only when both addends are -0."""
    dx, dy = ref.decode(fx, x), ref.decode(fy, y)
    if ref.NAN in (dx, dy):
        return ref.CANONICAL_NAN[out.name]
    infs = [d[1] for d in (dx, dy) if d[0] == 'inf']
    if infs:
        return ref.CANONICAL_NAN[out.name] if len(set(infs)) > 1 else ref.inf_bits(out, infs[0])
    total = ref.value(fx, x) + ref.value(fy, y)
    if total == 0:
        both_negative_zeros = dx[2] == 0 and dy[2] == 0 and dx[1] and dy[1]
        return (1 << (out.bits - 1)) if both_negative_zeros else 0
    return ref.round_fraction(out.name + '-rne', total)


# ---- the composition ----
def pad_b(fmt):
    """b's padding: -0, or +0 where the pattern of -0 is NaN (fnuz) or the format is unsigned."""
    return 0 if fmt.kind in ('fnuz', 'ue8m0', 'ue4m3') else 1 << (fmt.bits - 1)


class Gemm:
    def __init__(self, instr, m, n, k, A, B, C, SA, SB):
        self.i, self.m, self.n, self.k = instr, m, n, k
        self.A, self.B, self.C, self.SA, self.SB = A, B, C, SA, SB
        self.ki = instr['k']
        self.chunks = -(-k // self.ki)
        self.bs = instr['block_size']
        self.fa, self.fb = ref.FORMATS[instr['a']], ref.FORMATS[instr['b']]

    def dot(self, c, row, col, q):
        """Chunk q of row `row` of A and column `col` of B, added to c by the instruction."""
        i, ki = self.i, self.ki
        ks = range(q * ki, min((q + 1) * ki, self.k))
        a = [self.A[row * self.k + k] for k in ks]
        b = [self.B[k * self.n + col] for k in ks]
        sa = sb = None
        if self.bs:
            nb = self.k // self.bs
            blocks = range(q * ki // self.bs, (q * ki + len(ks)) // self.bs)
            sa = [self.SA[row * nb + s] for s in blocks]
            sb = [self.SB[s * self.n + col] for s in blocks]
        if i['schedule'][0]['algo'] == 'M3XU':      # ref_m3xu's closed form takes any number of products
            assert i['a'] == 'f32', 'the composition handles the FP32 mode of M3XU only'
            return ref_m3xu.dot_f32(a, b, c)
        if len(a) < ki:
            sched = i['schedule']
            if len(sched) == 1 and sched[0]['algo'] in ref.PASSES:   # unpadded: the pass on the real products
                return ref.PASSES[sched[0]['algo']](i, sched[0], i['c'], c, a, b, sa, sb, 0)
            pad = ki - len(a)
            a, b = a + [0] * pad, b + [pad_b(self.fb)] * pad
            if self.bs:
                sa, sb = sa + [0] * (pad // self.bs), sb + [0] * (pad // self.bs)
        return ref.dot_add(i, c, a, b, sa, sb)

    def chain(self, c, row, col, first, last):
        for q in range(first, last):
            c = self.dot(c, row, col, q)
        return c

    def element(self, row, col, kind, param):
        c = self.C[row * self.n + col]
        if kind == 'serial':
            return self.chain(c, row, col, 0, self.chunks)
        fd = ref.FORMATS[self.i['d']]
        fr = ref.FORMATS['f64' if fd.name == 'f64' else 'f32']
        if kind == 'split-k':
            bounds = [(s * self.chunks // param, (s + 1) * self.chunks // param) for s in range(param)]
        else:
            bounds = [(g, min(g + param, self.chunks)) for g in range(0, self.chunks, param)]
        r, fmt_r = c, fd
        for first, last in bounds:
            r, fmt_r = ieee_add(fr, fmt_r, r, fd, self.chain(0, row, col, first, last)), fr
        return ieee_add(fd, fmt_r, r, fd, 1 << (fd.bits - 1))     # R + (-0) into D's format

    def run(self, accumulate):
        kind, _, param = accumulate.partition(':')
        return [self.element(r, c, kind, int(param or 0)) for r in range(self.m) for c in range(self.n)]


# ---- operands: finite values with exponents near 1, some zeros and cancelling pairs ----
def operand(rng, fmt):
    while True:
        if rng.random() < 0.05:
            return 0
        sign = rng.getrandbits(1) if fmt.signed else 0
        if fmt.kind in ('ue8m0',):
            e = fmt.bias + rng.randint(-3, 3)
            bits = e
        else:
            field = min(max(fmt.bias + rng.randint(-4, 3), 0), (1 << fmt.ebits) - 1)
            bits = (sign << (fmt.bits - 1)) | (field << fmt.man) | rng.getrandbits(fmt.man)
        if ref.decode(fmt, bits)[0] == 'num':
            return bits


def case(args):
    instrs = gen.load_instructions(mmaref=args.mmaref)
    instr = gen.find_instr(instrs, args.arch, args.instr)
    rng = random.Random(args.seed)
    m, n, k = args.m, args.n, args.k
    fa, fb, fc = (ref.FORMATS[instr[x]] for x in 'abc')
    A = [operand(rng, fa) for _ in range(m * k)]
    B = [operand(rng, fb) for _ in range(k * n)]
    C = [operand(rng, fc) for _ in range(m * n)]
    SA = SB = None
    files = [('A', fa, m, k, A), ('B', fb, k, n, B), ('C', fc, m, n, C)]
    if instr['block_size']:
        fs, nb = ref.FORMATS[instr['scale']], k // instr['block_size']
        SA = [operand(rng, fs) for _ in range(m * nb)]
        SB = [operand(rng, fs) for _ in range(nb * n)]
        files += [('SA', fs, m, nb, SA), ('SB', fs, nb, n, SB)]
    for name, fmt, rows, cols, bits in files:
        npy_write(os.path.join(args.dir, name + '.npy'), descr_of(fmt), rows, cols, bits)
    D = Gemm(instr, m, n, k, A, B, C, SA, SB).run(args.accumulate)
    npy_write(os.path.join(args.dir, 'expect.npy'), descr_of(ref.FORMATS[instr['d']]), m, n, D)


def compare(got_path, expect_path, what):
    try:
        got, want = npy_read(got_path), npy_read(expect_path)
    except (OSError, AssertionError) as e:
        print(f"not ok - {what}: {e}")
        return 1
    if got[:2] != want[:2]:
        print(f"not ok - {what}: got dtype/shape {got[:2]}, expected {want[:2]}")
        return 1
    cols = want[1][1]
    bad = [i for i, (x, y) in enumerate(zip(got[2], want[2])) if x != y]
    if bad:
        show = ', '.join(f"[{i // cols}][{i % cols}] 0x{got[2][i]:x} != 0x{want[2][i]:x}" for i in bad[:3])
        print(f"not ok - {what}: {len(bad)} of {len(want[2])} elements differ: {show}")
        return 1
    print(f"ok - {what}: {len(want[2])} elements bit-exact")
    return 0


def main(argv):
    if argv[:1] == ['compare'] and len(argv) == 4:
        return compare(*argv[1:])
    if argv[:1] == ['write'] and len(argv) >= 5:
        path, descr, rows, cols = argv[1], argv[2], None if argv[3] == '-' else int(argv[3]), int(argv[4])
        npy_write(path, descr, rows, cols, [int(x, 16) for x in argv[5:]])
        return 0
    p = argparse.ArgumentParser(prog='gemm.py')
    p.add_argument('mode', choices=['case'])
    for opt in ('--arch', '--instr', '--accumulate', '--dir'):
        p.add_argument(opt, required=True)
    for opt in ('--m', '--n', '--k', '--seed'):
        p.add_argument(opt, type=int, required=True)
    p.add_argument('--mmaref')
    case(p.parse_args(argv))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
