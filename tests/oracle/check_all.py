#!/usr/bin/env python3
"""Check every distinct algorithm configuration of the instruction list against ref.py.

The instructions are those of `mmaref list --json`; their arithmetic is the ORACLE's: each entry becomes
tests/oracle/table.py's instruction object (name, shape and operand formats from the list; the schedule --
passes, F, G, roundings, scales, flushing, output -- from the paper's rules in table.py), so a wrong
parameter in the model's table shows up as mismatching vectors.  A configuration is the tuple
(a, b, c, d, k, scale, block_size, schedule) over all architectures (M and N do not matter); the first
instruction with that tuple represents it with COUNT vectors.  So that a wrong entry of the model's table
on another architecture is caught by vectors too (and not only by tests/t_model_oracle_table.sh), each further
architecture with the same tuple is checked with its own first instruction and COUNT/10 vectors (at
least 1000).  An instruction the oracle has no parameters for is a failure.  The M3XU kind has its own
reference and stimulus (ref_m3xu.py, gen_m3xu.py; tests/t_model_oracle_m3xu.sh) and is left out here.
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
import table  # noqa: E402


def configurations(entries):
    """([(oracle instruction, primary)], [report lines for entries the oracle cannot derive]): one
    primary instruction per distinct arithmetic, and one secondary per further architecture with it."""
    seen, keys, errors = {}, set(), []
    for e in entries:
        try:
            x = table.instruction(e)
        except ValueError as err:              # table.NotInPaper, or name and listed operands disagree
            errors.append(f"not ok - oracle: no parameters for {e.get('arch')} {e.get('name')}: {err}")
            continue
        if any(p['algo'] == 'M3XU' for p in x['schedule']):
            continue                           # tests/t_model_oracle_m3xu.sh
        key = table.schedule_key(x)
        if (x['arch'],) + key not in seen:
            seen[(x['arch'],) + key] = (x, key not in keys)
            keys.add(key)
    return list(seen.values()), errors


def describe(x):
    """E.g. 'CoFDA f16*f16+f32->f32 K=16 F=24 f32-rz' (from the oracle's schedule)."""
    p = x['schedule'][0]
    scale = f" x {x['scale']}/{x['block_size']}" if x['scale'] else ''
    params = f" F={p['frac_bits']}" if p['frac_bits'] else ''
    params += f" G={p['group']}" if p['group'] else ''
    params += ' flush' if p['flush'] else ''
    return f"{x['algo']} {x['a']}*{x['b']}{scale}+{x['c']}->{x['d']} K={x['k']}{params} {p['out']}"


def check(task):
    """Runs one configuration; returns its report line."""
    x, count, seed, kind, mmaref = task
    what = f"oracle {describe(x)} ({x['arch']} {x['name']})"
    repro = (f"python3 tests/oracle/gen.py --arch {x['arch']} --instr {x['name']} --count {count} --seed {seed}"
             f" --kind {kind} | build/mmaref batch {x['arch']} {x['name']} --check")
    try:
        p = subprocess.Popen([mmaref, 'batch', x['arch'], x['name'], '--check', '--max-report', '3'],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = gen.feed(p, gen.Gen(x, seed).lines(count, kind))
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
    configs, errors = configurations(gen.load_instructions(mmaref=args.mmaref))
    configs = [(x, primary) for x, primary in configs if args.only in describe(x) + ' ' + x['arch'] + ' ' + x['name']]
    primaries = sum(primary for _, primary in configs)
    small = max(1000, args.count // 10)
    for line in errors:
        print(line)
    if not configs:
        print(f"not ok - check_all.py: no configuration matches '{args.only}'")
        return 1
    print(f"# {primaries} distinct configurations, {args.count} vectors each, and {len(configs) - primaries} "
          f"repeated on further architectures, {min(small, args.count)} vectors each; seed {args.seed}")
    # a distinct seed per configuration, stable when the table grows (a hash of its representative)
    tasks = [(x, args.count if primary else min(small, args.count),
              args.seed * 1000003 + zlib.crc32(f"{x['arch']} {x['name']}".encode()) % 1000003,
              args.kind, args.mmaref) for x, primary in configs]
    # longest first (K, then narrow formats are cheap), so that the two workers finish together
    order = sorted(range(len(tasks)), key=lambda i: -tasks[i][0]['k'] * tasks[i][1])
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
          f"{bad} configurations failing, {len(errors)} instructions without oracle parameters, "
          f"{time.time() - start:.0f} s with {args.jobs} workers")
    return 1 if bad or errors else 0


if __name__ == '__main__':
    sys.exit(main())
