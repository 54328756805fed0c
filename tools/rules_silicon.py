#!/usr/bin/env python3
"""Which rules of the inventory a hardware run decided: per instruction of the GPU harness and per rule, the
vectors of the run on which a unit breaking the rule gives another D than the one the tensor cores returned.

A run of tools/gpu/session.sh that reported 0 mismatches returned, on every vector, the D of the model it
was checked against.  Its vectors are reproducible from its tree (the harness's seeded tiles, `mmaref gen
--kind directed`).  This tool rebuilds them with that tree's binaries, checks that today's model gives the
same D on every one (so the silicon's D is today's model's D too), and counts with today's `mmaref rules
ARCH NAME --catch` the vectors that catch each rule: a count above 0 means silicon decided the rule against
its planted bug on that instruction (docs/rules.md, "Which rules silicon decided").  Where the run compared
NaN with NaN (the harness's --nan-any), a rule whose bug changes only a NaN's payload is not caught.

usage: rules_silicon.py --run-tree DIR --seed S --label RUN [--count N] [--crafted DIR] [--jobs J]
                        [--mmaref PATH] > TSV
  --run-tree DIR  a checkout of the run's commit, built (make all build/gpu/dryrun)
  --seed S        the run's seed (session.sh --seed)
  --count N       seeded vectors per instruction (default 1048576, session.sh's default)
  --crafted DIR   the crafted files the run replayed (session.sh --crafted DIR): each a set of its own
  --label RUN     the run's name in the TSV's first column
Prints a TSV: run, instruction, set (seeded, directed, crafted:TAG), vectors, same (1 when today's model
gives the run's D on every vector), rule, catching.  Exit 1 when today's model differs from the run's on some vector."""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile


def fail(msg):
    sys.exit('rules_silicon.py: ' + msg)


def run(cmd, stdin=None, text=True):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=text)
    if p.returncode != 0:
        fail('%s: exit %d: %s' % (' '.join(cmd), p.returncode, p.stderr.strip()[:300]))
    return p.stdout


def catch_counts(mmaref, arch, name, path, flags):
    """rule -> vectors of the batch file (C A.. B.. D lines) that catch it, compared as the run compared
    (flags: the harness's check flags, --nan-any where NaN payloads are not modelled)."""
    with open(path) as f:
        out = subprocess.run([mmaref, 'rules', arch, name, '--catch'] + flags, stdin=f, capture_output=True,
                             text=True)
    if out.returncode != 0:
        fail('rules --catch %s: %s' % (name, out.stderr.strip()[:300]))
    counts = {}
    for line in out.stdout.splitlines():
        if line.startswith('#') or not line.strip():
            continue
        rule, n = line.split()
        counts[rule] = int(n)
    return counts


def same_d(mmaref, arch, name, path):
    """(vectors, 1 when today's model gives every line's D)."""
    with open(path) as f:
        out = subprocess.run([mmaref, 'batch', arch, name, '--check', '--max-report', '0'], stdin=f,
                             capture_output=True, text=True)
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ''
    words = last.replace(',', '').split()
    try:
        passed, failed = int(words[-4]), int(words[-2])
    except (IndexError, ValueError):
        fail('batch --check %s: unexpected verdict %r' % (name, last))
    return passed + failed, int(failed == 0)


def one(args, name, flags, arch, tmp):
    rows = []
    tree = args.run_tree
    seeded_dir = os.path.join(tmp, 'seeded_' + name)
    os.makedirs(seeded_dir)
    run([os.path.join(tree, 'build/gpu/dryrun'), '--only', name, '--count', str(args.count), '--seed',
         str(args.seed), '--out', seeded_dir])
    src = os.path.join(seeded_dir, '%s__%s.txt' % (arch, name))
    seeded = os.path.join(tmp, name + '.seeded')
    with open(src) as f, open(seeded, 'w') as g:
        for line in f:
            if not line.startswith('#'):
                g.write(line)
    os.remove(src)
    # the directed set of the run's tree and its crafted files, with D from the run's model
    old = os.path.join(tree, 'build/mmaref')
    sets = [('seeded', seeded)]
    inputs = [('directed', run([old, 'gen', arch, name, '--kind', 'directed']))]
    for f in sorted(os.listdir(args.crafted)) if args.crafted else []:
        if f.endswith('__%s.txt' % name):
            with open(os.path.join(args.crafted, f)) as src:
                inputs.append(('crafted:' + f.split('__')[0], ''.join(l for l in src if not l.startswith('#'))))
    for kind, vec in inputs:
        d = run([old, 'batch', arch, name], stdin=vec).split()
        path = os.path.join(tmp, '%s.%s' % (name, kind.replace(':', '_')))
        with open(path, 'w') as g:
            for line, dd in zip(vec.splitlines(), d):
                g.write(line + ' ' + dd + '\n')
        sets.append((kind, path))
    for kind, path in sets:
        n, same = same_d(args.mmaref, arch, name, path)
        # compared as session.sh compared: crafted files bit for bit, the other sets with the harness's flags
        exact = flags == '-' or kind.startswith('crafted:')
        for rule, c in catch_counts(args.mmaref, arch, name, path, [] if exact else flags.split()).items():
            rows.append((args.label, name, kind, n, same, rule, c))
        os.remove(path)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--run-tree', required=True)
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--count', type=int, default=1048576)
    ap.add_argument('--label', required=True)
    ap.add_argument('--crafted')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--mmaref', default=os.environ.get('MMAREF', 'build/mmaref'))
    args = ap.parse_args()
    for b in ('build/gpu/dryrun', 'build/mmaref'):
        if not os.access(os.path.join(args.run_tree, b), os.X_OK):
            fail('--run-tree: no %s in %s (build it there: make all build/gpu/dryrun)' % (b, args.run_tree))
    if args.crafted and not os.path.isdir(args.crafted):
        fail('--crafted: no directory %s' % args.crafted)
    listing = [l.split('\t') for l in run([os.path.join(args.run_tree, 'build/gpu/dryrun'), '--list']).splitlines()]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(one, args, l[0], l[2], l[3], tmp) for l in listing]
        for i, f in enumerate(futs):
            rows += f.result()
            print('rules_silicon.py: %d of %d instructions' % (i + 1, len(futs)), file=sys.stderr)
    commit = subprocess.run(['git', '-C', args.run_tree, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                            text=True).stdout.strip() or 'unknown'
    print('# tools/rules_silicon.py --seed %d --count %d --label %s, the run\'s tree at commit %s'
          % (args.seed, args.count, args.label, commit))
    print('# run\tinstruction\tset\tvectors\tsame\trule\tcatching')
    for r in rows:
        print('\t'.join(str(x) for x in r))
    if any(r[4] == 0 for r in rows):
        fail('today\'s model differs from the run\'s on some vector (the "same" column)')


if __name__ == '__main__':
    main()
