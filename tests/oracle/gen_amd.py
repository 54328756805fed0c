#!/usr/bin/env python3
"""Seeded random vectors for every distinct AMD dot-add configuration, checked against ref_amd.py.

The instructions are those of `mmaref list --json`; their arithmetic is the ORACLE's own: each becomes
tests/oracle/table.py's instruction object, whose schedule (passes, F, G, roundings, flushing, output)
comes from the paper's rules, not from the model.  For each configuration (architecture, operand
formats, K and the schedule) one representative instruction is fed N vectors through
`mmaref batch ARCH INSTR --check`, the expected D computed by ref_amd.dot_add.  Prints one line per
configuration: "ok - ..." or "not ok - ..."; a configuration passes only when mmaref reports exactly N
vectors checked and none failed.  No configuration at all (e.g. --only matching nothing) is a failure.

Vector kinds (mixed per vector): raw random bits; clustered exponents with exact cancellations and c
placed from far below to above e_max (every alignment and rounding boundary of FDRDA/GFDRDA, the
e_max - 25 window); special values sprinkled in (zeros of both signs, subnormals, max finite, inf,
NaN, FNUZ 0x80, operands whose products reach 2^128 or 2^-126).

  python3 tests/oracle/gen_amd.py [--n N] [--seed S] [--jobs J] [--only SUBSTR] [--mmaref PATH]
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_amd  # noqa: E402
import table  # noqa: E402

AMD_ALGOS = ('SFMA', 'GPS', 'FDRDA', 'GFDRDA')
SPREADS = (0, 0, 1, 2, 3, 5, 8, 12, 16, 23, 24, 25, 26, 30, 40)


def config_key(instr):
    """instr: the oracle's instruction object; the key is its architecture and arithmetic (formats, K,
    schedule): one instruction per architecture, so that a wrong entry of the model's table on any
    architecture shows up as mismatching vectors."""
    return (instr['arch'],) + table.schedule_key(instr)


class Gen:
    def __init__(self, instr, seed):
        self.i = instr
        self.r = random.Random(seed)
        self.K = instr['k']

    def fmt(self, name):
        return ref_amd.FORMATS[name]

    def value(self, name, e, neg=None):
        """Random bits of format `name` near 2^e (clamped into the format's range)."""
        bits, eb, man, bias, specials, _ = self.fmt(name)
        r = self.r
        emin, emax = 1 - bias, (1 << eb) - (2 if specials == 'ieee' else 1) - bias
        neg = r.random() < 0.5 if neg is None else neg
        m = r.getrandbits(man)
        if e < emin:
            E = 0
            m >>= min(man, emin - e)
            if m == 0 and specials == 'fnuz' and neg:
                neg = False
        else:
            E = min(e, emax) + bias
        return (neg << (bits - 1)) | (E << man) | m

    def specials(self, name):
        bits, eb, man, bias, specials, _ = self.fmt(name)
        s = 1 << (bits - 1)
        if specials == 'fnuz':
            return [0x00, 0x01, 0x80, 0x7F, 0xFF, 1 << man, (1 << man) - 1, s | 1]
        top = ((1 << eb) - 1) << man
        pos = [0, 1, (1 << man) - 1, 1 << man, top - 1, top, top | 1, (1 << (bits - 1)) - 1]
        if name == 'tf32':
            pos += [0x7F801000, 0x7F800FFF, 0x00001FFF, 0x00002000]
        return pos + [p | s for p in pos]

    def raw(self, name):
        return self.r.getrandbits(self.fmt(name)[0])

    def vector(self):
        r, i, K = self.r, self.i, self.K
        kind = r.random()
        fa, fb, fc = i['a'], i['b'], i['c']
        if kind < 0.15:
            return self.raw(fc), [self.raw(fa) for _ in range(K)], [self.raw(fb) for _ in range(K)]
        # clustered: products near 2^(2*base) with a spread of binades
        bias_a, bias_b = self.fmt(fa)[3], self.fmt(fb)[3]
        regime = r.random()
        if regime < 0.6:
            base = r.randint(-4, 4)
        elif regime < 0.75:     # near the product overflow (2^128) or the flush threshold (2^-126)
            base = r.choice([63, 64, -63, -64]) if bias_a >= 127 else r.randint(-bias_a, bias_a)
        else:                   # anywhere in the format's range, subnormals included
            base = r.randint(-bias_a - 3, bias_a)
        spread = r.choice(SPREADS)
        a = [self.value(fa, base - r.randint(0, spread // 2)) for _ in range(K)]
        b = [self.value(fb, base - r.randint(0, (spread + 1) // 2)) for _ in range(K)]
        if r.random() < 0.3 and K >= 2:      # exact cancellations: a_j b_j = -a_i b_i
            for _ in range(r.randint(1, K // 2)):
                x, y = r.randrange(K), r.randrange(K)
                a[y], b[y] = a[x], b[x] ^ (1 << (self.fmt(fb)[0] - 1))
                if b[y] == 1 << (self.fmt(fb)[0] - 1) and self.fmt(fb)[4] == 'fnuz':
                    b[y] = 0
        if r.random() < 0.15:                # zero products (zero operands of either sign)
            for _ in range(r.randint(1, K)):
                x = r.randrange(K)
                a[x] = 0 if self.fmt(fa)[4] == 'fnuz' else r.choice([0, 1 << (self.fmt(fa)[0] - 1)])
        # c from far below e_max (the FDRDA round-down of c, GFDRDA's e_max - 25 window) to above it
        ec = 2 * base + r.choice([-60, -40, -30, -27, -26, -25, -24, -23, -20, -10, -5, -2, -1, 0, 0, 1, 2, 5,
                                  r.randint(-150, 130)])
        c = self.value(fc, ec) if r.random() < 0.9 else r.choice([0, 1 << 31 if fc == 'f32' else 1 << 63])
        if kind > 0.8:                       # sprinkle specials
            for _ in range(r.randint(1, 3)):
                w = r.randrange(3)
                if w == 0:
                    c = r.choice(self.specials(fc))
                elif w == 1:
                    a[r.randrange(K)] = r.choice(self.specials(fa))
                else:
                    b[r.randrange(K)] = r.choice(self.specials(fb))
        return c, a, b


def run_config(job):
    instr, n, seed, mmaref = job
    g = Gen(instr, seed)
    dig = {'f32': 8, 'f64': 16}[instr['d']]
    lines = []
    for _ in range(n):
        c, a, b = g.vector()
        d = ref_amd.dot_add(instr, c, a, b)
        lines.append(' '.join('%x' % v for v in [c] + a + b) + ' %0*x' % (dig, d))
    p = subprocess.run([mmaref, 'batch', instr['arch'], instr['name'], '--check', '--max-report', '3'],
                       input='\n'.join(lines) + '\n', capture_output=True, text=True)
    m = re.search(r'(\d+) passed, (\d+) failed', p.stdout)
    checked = (int(m.group(1)), int(m.group(2))) if m else None
    return instr, n, p.returncode, checked, p.stdout.strip().splitlines()[-4:] + p.stderr.strip().splitlines()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--n', type=int, default=2000, help='vectors per configuration')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--only', default='', help='only configurations whose instruction name contains this')
    ap.add_argument('--mmaref', default=os.environ.get('MMAREF', 'build/mmaref'))
    args = ap.parse_args(argv)
    instrs = json.loads(subprocess.run([args.mmaref, 'list', '--json'], capture_output=True, text=True,
                                       check=True).stdout)
    if args.n <= 0:
        print('not ok - gen_amd.py: --n must be positive, got %d' % args.n)
        return 1
    seen, errors = {}, 0
    for ins in instrs:
        if not ins['arch'].startswith('cdna') or args.only not in ins['name']:
            continue
        try:
            x = table.instruction(ins)
        except ValueError as e:             # table.NotInPaper, or name and listed operands disagree
            errors += 1
            print('not ok - AMD oracle: no parameters for %s %s: %s' % (ins['arch'], ins['name'], e))
            continue
        if all(p['algo'] in AMD_ALGOS for p in x['schedule']):
            seen.setdefault(config_key(x), x)
    jobs = [(ins, args.n, args.seed * 1000003 + j, args.mmaref) for j, ins in enumerate(seen.values())]
    if not jobs:
        print("not ok - AMD oracle: no configuration matches '%s'" % args.only)
        return 1
    failed = vectors = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for instr, n, rc, checked, tail in ex.map(run_config, jobs):
            p = instr['schedule'][0]
            what = '%s %s (%s, K=%d%s%s): %d vectors vs ref_amd' % (
                instr['arch'], instr['name'], instr['algo'], instr['k'],
                ', G=%d' % p['group'] if p['group'] else '', ', flush' if p['flush'] else '', n)
            if rc == 0 and checked == (n, 0):
                vectors += n
                print('ok - ' + what)
            else:
                failed += 1
                got = '%d passed, %d failed' % checked if checked else 'no verdict'
                print('not ok - %s: mmaref batch exit %d, %s (wanted %d passed, 0 failed): %s'
                      % (what, rc, got, n, ' | '.join(tail)))
    print('# %d configurations, %d vectors checked, %d configurations failed, %d instructions without '
          'oracle parameters' % (len(jobs), vectors, failed, errors))
    return 1 if failed or errors else 0


if __name__ == '__main__':
    sys.exit(main())
