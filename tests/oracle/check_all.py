#!/usr/bin/env python3
"""Check every distinct algorithm configuration of the instruction table against ref.py.

A configuration is the tuple (algo, a, b, c, d, k, frac_bits, group, chain, flush, out, scale,
block_size) over all architectures (M and N do not matter); the first instruction with that tuple represents it.
For each, COUNT seeded vectors (gen.py, kind 'mixed' unless --kind) go through
`mmaref batch ARCH INSTR --check`.  Prints one 'ok - ...' or 'not ok - ...' line per configuration.

  python3 tests/oracle/check_all.py [--count N] [--seed S] [--jobs J] [--only SUBSTRING]
"""
import argparse
import multiprocessing
import os
import re
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import ref  # noqa: E402

KEY = ('algo', 'a', 'b', 'c', 'd', 'k', 'frac_bits', 'group', 'chain', 'flush', 'out', 'scale', 'block_size')


def configurations(instrs):
    """One representative per distinct arithmetic (the instruction table's fields that the algorithms
    read; 'group' and 'flush' matter only to the AMD algorithms)."""
    seen = {}
    for x in instrs:
        seen.setdefault(tuple(x.get(k, 0) for k in KEY), x)
    return list(seen.values())


def describe(x):
    scale = f" x {x['scale']}/{x['block_size']}" if x['scale'] else ''
    chain = f" chain={x['chain']}" if x['chain'] > 1 else ''
    group = f" G={x['group']}" if x['group'] else ''
    group += ' flush' if x.get('flush') else ''
    return (f"{x['algo']} {x['a']}*{x['b']}{scale}+{x['c']}->{x['d']} K={x['k']} F={x['frac_bits']}"
            f"{group}{chain} {x['out']}")


def have_reference(x):
    if x['algo'] not in ref.AMD_ALGOS:
        return True
    return os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ref_amd.py'))


def check(task):
    """Runs one configuration; returns its report line."""
    x, count, seed, kind, mmaref = task
    what = f"oracle {describe(x)} ({x['arch']} {x['name']})"
    repro = (f"python3 tests/oracle/gen.py --arch {x['arch']} --instr {x['name']} --count {count} --seed {seed}"
             f" --kind {kind} | build/mmaref batch {x['arch']} {x['name']} --check")
    if not have_reference(x):
        return f"# skip - {what}: tests/oracle/ref_amd.py is not written yet"
    try:
        p = subprocess.Popen([mmaref, 'batch', x['arch'], x['name'], '--check', '--max-report', '3'],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        buf = []
        for line in gen.Gen(x, seed).lines(count, kind):
            buf.append(line)
            if len(buf) == 2000:
                p.stdin.write('\n'.join(buf) + '\n')
                buf = []
        p.stdin.write('\n'.join(buf) + ('\n' if buf else ''))
        out, _ = p.communicate()
    except (OSError, BrokenPipeError) as e:
        return f"not ok - {what}: could not run {mmaref} batch ({e})"
    except Exception as e:  # a bug in the oracle itself must not look like a pass
        return f"not ok - {what}: oracle raised {type(e).__name__}: {e} ({repro})"
    m = re.search(r'(\d+) passed, (\d+) failed', out)
    if not m:
        return f"not ok - {what}: mmaref batch said: {out.strip().splitlines()[-1] if out.strip() else '(nothing)'}"
    passed, failed = int(m.group(1)), int(m.group(2))
    if failed == 0 and passed == count:
        return f"ok - {what}: {count} vectors, 0 mismatches"
    first = '; '.join(l for l in out.splitlines() if l.startswith('mismatch'))
    return (f"not ok - {what}: {passed + failed} vectors, {failed} mismatches; {first} "
            f"(reproduce: {repro})")


def counts(line):
    """(vectors, mismatches) from a report line."""
    m = re.search(r': (\d+) vectors, (\d+) mismatches', line)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--count', type=int, default=int(os.environ.get('ORACLE_COUNT', 100000)))
    p.add_argument('--seed', type=int, default=int(os.environ.get('ORACLE_SEED', 1)))
    p.add_argument('--jobs', type=int, default=int(os.environ.get('ORACLE_JOBS', 2)))
    p.add_argument('--kind', default='mixed', choices=gen.KINDS)
    p.add_argument('--only', default='', help='only configurations whose description or instruction contains this')
    p.add_argument('--mmaref', default=os.environ.get('MMAREF', 'build/mmaref'))
    args = p.parse_args()
    if args.count <= 0 or args.jobs <= 0:
        raise SystemExit('check_all.py: --count and --jobs must be positive')
    configs = [x for x in configurations(gen.load_instructions(mmaref=args.mmaref))
               if args.only in describe(x) + ' ' + x['arch'] + ' ' + x['name']]
    if not configs:
        raise SystemExit(f"check_all.py: no configuration matches '{args.only}'")
    print(f"# {len(configs)} distinct configurations, {args.count} vectors each, seed {args.seed}")
    # a distinct seed per configuration, stable when the table grows (a hash of its representative)
    tasks = [(x, args.count, args.seed * 1000003 + zlib.crc32(f"{x['arch']} {x['name']}".encode()) % 1000003,
              args.kind, args.mmaref) for x in configs]
    # longest first (K, then narrow formats are cheap), so that the two workers finish together
    order = sorted(range(len(tasks)), key=lambda i: -configs[i]['k'])
    start = time.time()
    with multiprocessing.Pool(args.jobs) as pool:
        results = dict(zip(order, pool.map(check, [tasks[i] for i in order], chunksize=1)))
    bad = vectors = mismatches = 0
    for i in range(len(tasks)):
        print(results[i])
        bad += results[i].startswith('not ok')
        n, f = counts(results[i])
        vectors, mismatches = vectors + n, mismatches + f
    print(f"# {len(configs)} configurations, {vectors} vectors, {mismatches} mismatches, "
          f"{bad} configurations failing, {time.time() - start:.0f} s with {args.jobs} workers")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
