#!/usr/bin/env python3
"""Per rule of the inventory, the vectors of a default make verify run that catch it, on one instruction
per (kind, operand family): the margin of docs/rules.md.

  python3 tools/rules_margin.py [--mmaref build/mmaref] [--n 100000] [--seed 1] [--before] [--floor F]
                                [--tsv FILE] [--all]

For each representative instruction (the first of the table for each pair of summation schedule --
FDA, CoFDA, GDFS, ... -- and family of A's format -- ieee, fn, fnuz, none), `mmaref gen` writes the
stream of a run (N vectors, the seed) and `mmaref rules --catch` counts, per rule the instruction has,
the vectors on which a unit breaking the rule gives another D.  --before also counts them on the stream
without rule vectors (every directed vector, then random ones), as runs were made before the rule kind.
--all takes every distinct configuration of the table instead (213; about 4 minutes).
--floor F exits 1 when a count of the stream is below F, naming each.  --tsv writes the rows:
instruction, schedule, family, rule, caught[, caught before].

  python3 tools/rules_margin.py --update DOC TSV | --check DOC TSV

rewrites (or checks) the tables of DOC (docs/rules.md) between its markers <!-- rules:inventory -->,
<!-- rules:margin --> and their <!-- end --> from `mmaref rules --json` and the TSV, without running the
streams.
"""
import argparse
import json
import os
import subprocess
import sys


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True)
    if r.returncode != 0:
        sys.exit('rules_margin: %s failed: %s' % (' '.join(cmd), r.stderr.decode(errors='replace').strip()))
    return r.stdout


def schedule_of(entry):
    """The entry's summation schedule, as docs/algorithms.md names it."""
    passes = entry['schedule']
    algo = passes[0]['algo']
    if entry['c_last']:
        return algo + ' pairs, C last'
    if len(passes) > 1:
        return 'Co' + algo
    return algo


def representatives(mmaref, every=False):
    """The first instruction of each (schedule, family); every=True: of each distinct configuration (its
    formats, K, scales and pass schedule: what the arithmetic reads)."""
    schema = json.loads(run([mmaref, 'list', '--schema', '--json']))
    family = {f['name']: f['specials'] for f in schema['formats']}
    seen, out = set(), []
    for e in json.loads(run([mmaref, 'list', '--json'])):
        key = (schedule_of(e), family.get(e['a'], '?'))
        if every:
            key = json.dumps([e[f] for f in ('a', 'b', 'c', 'd', 'scale', 'block_size', 'k', 'c_last', 'schedule')],
                             sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((e['arch'], e['name'], schedule_of(e), family.get(e['a'], '?')))
    return out


def caught(mmaref, arch, name, stream):
    counts = {}
    for line in run([mmaref, 'rules', arch, name, '--catch'], stream).decode().splitlines():
        if line.startswith('#'):
            continue
        rule, n = line.split()
        counts[rule] = int(n)
    return counts


def inventory_table(mmaref):
    rows = ['| rule | the model\'s step | the model | a unit breaking it | how silicon knows it |', '|---|---|---|---|---|']
    for r in json.loads(run([mmaref, 'rules', '--json'])):
        rows.append('| `%s` | %s | %s | %s | %s |' % (r['name'], r['step'], r['rule'], r['bug'], r['silicon']))
    return rows


def floor_per(mmaref):
    """The coverage model's floor: a rule caught by fewer than 1 vector in this many of a run is a hole
    (its report says so: "each rule's floor: 1 in N")."""
    gen = subprocess.run([mmaref, 'gen', 'hopper', 'mma.m16n8k16.f32.f16.f16.f32', '--n', '1', '--coverage'],
                         capture_output=True, text=True)
    return int(gen.stderr.split("each rule's floor: 1 in ")[1].split(')')[0])


def margin_table(tsv, per):
    head = open(tsv).readline()
    vectors = int(head.split('--n ')[1].split()[0])  # the run the TSV measured (its first line)
    lines = [l.rstrip('\n').split('\t') for l in open(tsv) if not l.startswith('#')][1:]
    by = {}
    for ins, sched, fam, rule, n, *before in lines:
        by.setdefault((sched, fam, ins), []).append((rule, int(n), int(before[0]) if before else None))
    rows = ['| schedule | family | instruction | rules: caught of the run (before) |', '|---|---|---|---|']
    for (sched, fam, ins), rs in by.items():
        rows.append('| %s | %s | `%s` | %s |' % (sched, fam, ins, ', '.join(
            '%s %d%s%s' % (r, n, '' if b is None else ' (%d)' % b, ' **below**' if n * per < vectors else '') for r, n, b in rs)))
    return rows


def render(doc, mmaref, tsv):
    text = open(doc).read()
    for marker, rows in (('rules:inventory', inventory_table(mmaref)), ('rules:margin', margin_table(tsv, floor_per(mmaref)))):
        start, end = '<!-- %s -->\n' % marker, '<!-- end -->'
        i = text.index(start) + len(start)
        j = text.index(end, i)
        text = text[:i] + '\n'.join(rows) + '\n' + text[j:]
    return text


def main():
    if len(sys.argv) == 4 and sys.argv[1] in ('--update', '--check'):
        doc, tsv = sys.argv[2], sys.argv[3]
        new = render(doc, os.environ.get("MMAREF", "build/mmaref"), tsv)
        if sys.argv[1] == '--update':
            open(doc, 'w').write(new)
            return
        if new != open(doc).read():
            sys.exit('rules_margin: %s differs from mmaref rules --json and %s (python3 tools/rules_margin.py --update %s %s)'
                     % (doc, tsv, doc, tsv))
        print('rules_margin: %s matches the inventory and %s' % (doc, tsv))
        return
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--mmaref', default='build/mmaref')
    p.add_argument('--n', type=int, default=100000)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--before', action='store_true')
    p.add_argument('--floor', type=int, default=0)
    p.add_argument('--tsv')
    p.add_argument('--all', action='store_true', help='every distinct configuration, not one per schedule and family')
    a = p.parse_args()
    m, rows, low = a.mmaref, [], []
    for arch, name, sched, fam in representatives(m, a.all):
        gen = [m, 'gen', arch, name, '--seed', str(a.seed)]
        now = caught(m, arch, name, run(gen + ['--n', str(a.n)]))
        before = {}
        if a.before:
            directed = int(run([m, 'gen', arch, name, '--kind', 'directed']).count(b'\n'))
            d = min(directed, a.n)
            old = run(gen + ['--kind', 'directed', '--n', str(d)])
            if a.n > d:
                old += run(gen + ['--kind', 'random', '--first', str(d), '--n', str(a.n - d)])
            before = caught(m, arch, name, old)
        for rule, n in now.items():
            rows.append((arch + ':' + name, sched, fam, rule, n, before.get(rule)))
            if n < a.floor:
                low.append('%s:%s %s: %d vectors, below %d' % (arch, name, rule, n, a.floor))
        print('%-8s %-5s %s:%s  %s' % (sched, fam, arch, name,
              ' '.join('%s=%d%s' % (r, n, '' if r not in before else '(%d)' % before[r]) for r, n in now.items())),
              flush=True)
    if a.tsv:
        with open(a.tsv, 'w') as f:
            f.write('# tools/rules_margin.py --n %d --seed %d%s: vectors of the stream that catch each rule\n'
                    % (a.n, a.seed, ' --before' if a.before else ''))
            f.write('instruction\tschedule\tfamily\trule\tcaught%s\n' % ('\tcaught_before' if a.before else ''))
            for r in rows:
                f.write('\t'.join(str(x) for x in r[:5]) + ('\t%s' % r[5] if a.before else '') + '\n')
    for line in low:
        print('BELOW FLOOR: ' + line)
    sys.exit(1 if low else 0)


if __name__ == '__main__':
    main()
