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

  python3 tools/rules_margin.py --update DOC TSV SILICON_TSV | --check DOC TSV SILICON_TSV

rewrites (or checks) the tables of DOC (docs/rules.md) between its markers <!-- rules:inventory -->,
<!-- rules:silicon -->, <!-- rules:silicon-run -->, <!-- rules:margin --> and their <!-- end --> from
`mmaref rules --json`, the TSV and SILICON_TSV (tools/rules_silicon.py's: the vectors of a hardware run
that catch each rule), without running the streams.  --check also requires the inventory's "measured"
marks to be the run's: on each instruction of the run, a rule is marked measured exactly where the
run's vectors catch it.
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


def inventory_table(rules):
    rows = ['| rule | the model\'s step | the model | a unit breaking it |', '|---|---|---|---|']
    for r in rules:
        rows.append('| `%s` | %s | %s | %s |' % (r['name'], r['step'], r['rule'], r['bug']))
    return rows


MARK = {'measured': 'M', 'paper': 'P', 'extrapolated': 'E'}


def silicon_table(rules, archs):
    """Rule x architecture: M, P or E (with A's formats where an architecture's instructions differ), and
    below it each mark's sources."""
    rows = ['| rule | %s |' % ' | '.join(archs), '|---|' + '---|' * len(archs)]
    sources = {}
    for r in rules:
        cells = []
        for a in archs:
            groups = r['silicon'].get(a, [])
            for g in groups:
                key = (g['kind'], g['source'])
                sources.setdefault(key, {}).setdefault(a, g['gpu'])
            if not groups:
                cells.append('–')
            elif len(groups) == 1:
                cells.append(MARK[groups[0]['kind']])
            else:
                cells.append(', '.join('%s (%s)' % (MARK[g['kind']], ' '.join(g['a'])) for g in groups))
        rows.append('| `%s` | %s |' % (r['name'], ' | '.join(cells)))
    rows.append('')
    for (kind, source), where in sorted(sources.items(), key=lambda x: ('MPE'.index(MARK[x[0][0]]), x[0][1])):
        rows.append('- **%s** %s: %s' % (MARK[kind], source, ', '.join(
            '%s%s' % (a, ' (%s)' % gpu if gpu else '') for a, gpu in where.items())))
    return rows


def silicon_runs(tsv):
    """(run, instruction, rule) -> vectors that catch it, over the run's sets; and each run's sets' sizes."""
    caught, sizes = {}, {}
    for line in open(tsv):
        if line.startswith('#'):
            continue
        run_, ins, kind, vectors, same, rule, n = line.rstrip('\n').split('\t')
        if same != '1':
            sys.exit('rules_margin: %s: %s %s: the model differs from the run there' % (tsv, run_, ins))
        key = (run_, ins, rule)
        caught.setdefault(key, {})[kind] = int(n)
        sizes.setdefault((run_, kind), {})[ins] = int(vectors)
    return caught, sizes


def silicon_run_table(tsv):
    caught, sizes = silicon_runs(tsv)
    kinds = sorted({k for (_, k) in sizes}, key=lambda k: (k != 'seeded', k != 'directed', k))
    rows = ['| run | rule | instructions whose vectors catch it (of those with the rule) | %s |'
            % ' | '.join('vectors that catch it: ' + k if i == 0 else k for i, k in enumerate(kinds)),
            '|---|---|---|' + '---|' * len(kinds)]
    by = {}
    for (run_, ins, rule), sets in caught.items():
        b = by.setdefault((run_, rule), [0, 0, {}])
        b[0] += sum(sets.values()) > 0
        b[1] += 1
        for k, n in sets.items():
            b[2][k] = b[2].get(k, 0) + n
    for (run_, rule), (dec, n, per) in by.items():
        rows.append('| %s | `%s` | %d of %d | %s |' % (run_, rule, dec, n, ' | '.join(
            '{:,}'.format(per.get(k, 0)) for k in kinds)))
    rows.append('')
    for (run_, kind), ins in sorted(sizes.items()):
        rows.append('%s, %s: {:,} vectors over %d instructions.'.format(sum(ins.values())) % (run_, kind, len(ins)))
    return rows


def check_measured(mmaref, tsv):
    """The inventory's measured marks on the run's instructions are the run's catches, both ways."""
    caught, _ = silicon_runs(tsv)
    bad, per = [], {}
    for (run_, ins, rule), sets in caught.items():
        per.setdefault(ins, {})[rule] = sum(sets.values())
    for ins, rules in per.items():
        marks = {r['name']: r['silicon']['kind'] for r in json.loads(run([mmaref, 'rules', 'hopper', ins, '--json']))}
        for rule, n in rules.items():
            if (marks.get(rule) == 'measured') != (n > 0):
                bad.append('%s %s: marked %s, the run\'s vectors catch it %d times' % (ins, rule, marks.get(rule), n))
    return bad


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


def render(doc, mmaref, tsv, silicon_tsv):
    text = open(doc).read()
    rules = json.loads(run([mmaref, 'rules', '--json']))
    archs = []  # in the table's order: the order of `mmaref list`
    for e in json.loads(run([mmaref, 'list', '--json'])):
        if e['arch'] not in archs and any(e['arch'] in r['silicon'] for r in rules):
            archs.append(e['arch'])
    for marker, rows in (('rules:inventory', inventory_table(rules)), ('rules:silicon', silicon_table(rules, archs)),
                         ('rules:silicon-run', silicon_run_table(silicon_tsv)),
                         ('rules:margin', margin_table(tsv, floor_per(mmaref)))):
        start, end = '<!-- %s -->\n' % marker, '<!-- end -->'
        i = text.index(start) + len(start)
        j = text.index(end, i)
        text = text[:i] + '\n'.join(rows) + '\n' + text[j:]
    return text


def main():
    if len(sys.argv) == 5 and sys.argv[1] in ('--update', '--check'):
        doc, tsv, silicon_tsv = sys.argv[2:5]
        mmaref = os.environ.get("MMAREF", "build/mmaref")
        new = render(doc, mmaref, tsv, silicon_tsv)
        if sys.argv[1] == '--update':
            open(doc, 'w').write(new)
            return
        if new != open(doc).read():
            sys.exit('rules_margin: %s differs from mmaref rules --json, %s and %s (python3 tools/rules_margin.py '
                     '--update %s %s %s)' % (doc, tsv, silicon_tsv, doc, tsv, silicon_tsv))
        bad = check_measured(mmaref, silicon_tsv)
        if bad:
            sys.exit('rules_margin: the measured marks (cmodel/src/rules_silicon.c) are not the run\'s: ' + '; '.join(bad))
        print('rules_margin: %s matches the inventory, %s and %s; the measured marks are the run\'s'
              % (doc, tsv, silicon_tsv))
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
