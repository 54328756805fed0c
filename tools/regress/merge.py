#!/usr/bin/env python3
"""Folds a plan's shard results into one report (make regress-merge).

  python3 tools/regress/merge.py --plan PLAN --results DIR --out REPORT_DIR
Writes into REPORT_DIR:
  summary.json   what the regression found, and nothing of how it ran: per configuration the shards, vectors,
                 mismatches, stimulus kinds, coverage bins (summed over the shards; a bin no shard hit is a
                 hole), the failing shards with their replay commands; a synthesis unit's row (area, delay).  The same plan gives the same file
                 byte for byte whatever ran it (SCHED=local or slurm, any order, any resume).
  report.json    summary.json plus the seconds, hosts and vectors per second of each configuration
  report.md      failures first (each with its replay command and first mismatch decoded), missing shards,
                 totals per configuration, the synthesis units' area and delay, coverage holes, throughput
  junit.xml      one testcase per shard (a missing shard is an error) for CI dashboards
  throughput.dat, throughput.png   vectors per core-second of each configuration (gnuplot)
Every result is checked against the plan before it counts (tools/regress/shard_result.py: the plan's hash,
the shard's index and line, its figures against its verdict); one that does not match is refused, one
line each naming its file, and counts as missing: the next run of the plan runs that shard again.
Exit 0 when every shard has a result that counts and none failed, 1 otherwise, 2 when the plan or the
results folder cannot be used (a folder of another plan, a plan edited since its results were made).
"""
import argparse
import json
import os
import subprocess
import sys
from xml.sax.saxutils import escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from plan_folder import PlanError, check_stamp, read_plan, read_stamp, result_path, write_atomic  # noqa: E402
from shard_result import Refused, load  # noqa: E402


def merge(shards, results, digest):
    """(configurations in plan order, missing shard indexes, per-shard results, refused results as
    [(index, path, reason)]): a refused result is missing too."""
    configs, order, missing, got, refused = {}, [], [], {}, []
    for i, (kind, config, seed, first, count) in enumerate(shards):
        key = (kind, config)
        if key not in configs:
            order.append(key)
            configs[key] = {'kind': kind, 'config': config, 'seed': seed, 'shards': 0, 'done': 0,
                            'planned': 0, 'vectors': 0, 'mismatches': 0, 'stimulus': {}, 'bins': {},
                            'failures': [], 'mutant': False, 'seconds': 0.0, 'cpu_seconds': 0.0, 'hosts': []}
        c = configs[key]
        c['shards'] += 1
        c['planned'] += count
        path = result_path(results, i)
        try:
            r = load(path, i, (kind, config, seed, first, count), digest)
        except FileNotFoundError:
            missing.append(i)
            continue
        except Refused as e:
            refused.append((i, path, str(e)))
            missing.append(i)
            continue
        got[i] = r
        c['done'] += 1
        c['vectors'] += r['vectors']
        c['mismatches'] += r['mismatches']
        c['mutant'] = c['mutant'] or bool(r.get('mutant'))
        c['seconds'] += r['seconds']
        c['cpu_seconds'] += r.get('cpu_seconds', r['seconds'])
        if r['host'] not in c['hosts']:
            c['hosts'].append(r['host'])
        if 'synth' in r:
            c['synth'] = r['synth']
        if 'prove' in r:  # the verdict (the solver's seconds vary from run to run: report.md only)
            c['prove'] = {'verdict': r['prove']['verdict']}
        for k, v in r.get('stimulus', {}).items():
            c['stimulus'][k] = c['stimulus'].get(k, 0) + v
        for k, (v, m) in r.get('bins', {}).items():
            have = c['bins'].setdefault(k, [0, 0])
            have[0] += v
            have[1] += m
        if r['verdict'] != 'pass':
            c['failures'].append({k: r[k] for k in ('shard', 'first', 'count', 'verdict', 'vectors', 'mismatches',
                                                     'first_mismatch_index', 'replay', 'error') if k in r})
    for c in configs.values():
        c['holes'] = sorted(k for k, (v, _) in c['bins'].items() if v == 0) if c['done'] == c['shards'] else []
    return [configs[k] for k in order], missing, got, refused


def summary(digest, configs, missing, refused):
    keep = ('kind', 'config', 'seed', 'shards', 'done', 'planned', 'vectors', 'mismatches', 'stimulus', 'bins',
            'holes', 'failures', 'mutant', 'synth', 'prove')
    cs = [{k: c[k] for k in keep if k in c} for c in configs]
    return {'plan': digest, 'configurations': cs, 'missing_shards': missing,
            'refused_shards': [{'shard': i, 'file': os.path.basename(path), 'reason': why} for i, path, why in refused],
            'totals': {'configurations': len(cs), 'shards': sum(c['shards'] for c in cs),
                       'shards_done': sum(c['done'] for c in cs), 'vectors': sum(c['vectors'] for c in cs),
                       'mismatches': sum(c['mismatches'] for c in cs),
                       'failing_shards': sum(len(c['failures']) for c in cs),
                       'failing_configurations': sum(bool(c['failures']) for c in cs),
                       'coverage_holes': sum(len(c['holes']) for c in cs)}}


def rate(c):
    """Vectors per core-second: a shard runs on one core, so its CPU seconds (wall seconds where a result
    has none)."""
    return c['vectors'] / c['cpu_seconds'] if c['cpu_seconds'] > 0 else 0.0


def markdown(plan, s, configs, got):
    t = s['totals']
    bad = [c for c in configs if c['failures']]
    md = [f'# Regression report: {os.path.basename(plan)}', '',
          f"Plan sha256 {s['plan'][:16]}: {t['configurations']} configurations, {t['shards_done']} of {t['shards']} "
          f"shards done, {t['vectors']:,} vectors, {t['mismatches']:,} mismatches, {t['failing_shards']} failing shards "
          f"in {t['failing_configurations']} configurations, {t['coverage_holes']} coverage holes.", '']
    if bad:
        md += ['## Failures', '']
        for c in bad:
            md.append(f"### {c['kind']} {c['config']}{' (mutant: a deliberately broken unit)' if c['mutant'] else ''}")
            for f in c['failures']:
                md.append(f"- shard {f['shard']}, vectors [{f['first']}, {f['first'] + f['count']}): {f['verdict']}, "
                          f"{f['vectors']} vectors, {f['mismatches']} mismatches"
                          + (f", first at index {f['first_mismatch_index']}" if 'first_mismatch_index' in f else ''))
                if f.get('replay'):
                    md.append(f"  - replay: `{f['replay']}`")
                if f.get('error'):
                    md.append(f"  - error: {f['error']}")
            first = got.get(c['failures'][0]['shard'], {}).get('first_mismatches', [])
            if first:
                md += ['', '```', first[0], '```']
            md.append('')
    if s['missing_shards']:
        ms = s['missing_shards']
        md += ['## Missing shards', '', f"{len(ms)} shards have no result that counts: {', '.join(map(str, ms[:50]))}"
               + (' ...' if len(ms) > 50 else '') + ' (run the plan again: it resumes with these)', '']
    if s['refused_shards']:
        md += [f"{len(s['refused_shards'])} of them have a result file that was refused:", '']
        md += [f"- {x['file']}: {x['reason']}" for x in s['refused_shards'][:200]]
        md.append('')
    md += ['## Configurations', '', '| kind | configuration | shards | vectors | mismatches | coverage bins hit | '
           'holes | vectors/core-s |', '|---|---|---|---|---|---|---|---|']
    for c in configs:
        nb = len(c['bins'])
        hit = sum(1 for v, _ in c['bins'].values() if v) if nb else 0
        md.append(f"| {c['kind']} | {c['config']} | {c['done']}/{c['shards']} | {c['vectors']:,} | {c['mismatches']:,} | "
                  f"{f'{hit}/{nb}' if nb else '-'} | {len(c['holes'])} | {rate(c):,.0f} |")
    syn = [c for c in configs if 'synth' in c]
    if syn:
        md += ['', '## Synthesis', '', 'Yosys and ABC onto the cell library, as `make synth` runs each unit '
               '(docs/synthesis.md).', '', '| unit | library | status | cells | area µm² | flops | delay ps | depth |',
               '|---|---|---|---|---|---|---|---|']
        md += [f"| {c['config']} | {c['synth'].get('lib', '-')} | {c['synth']['status']} | {c['synth']['cells']} | "
               f"{c['synth']['area_um2']} | {c['synth']['flops']} | {c['synth']['delay_ps']} | {c['synth']['depth']} |"
               for c in syn]
    proofs = [c for c in configs if 'prove' in c]
    if proofs:
        md += ['', '## Proofs', '', 'Rows of `make prove-all` (docs/formal.md): UNKNOWN is the solver\'s reach '
               'within PROVE_TIMEOUT, not a failure.', '', '| row | verdict | solver seconds |', '|---|---|---|']
        for c in proofs:
            secs = [g.get('prove', {}).get('solver_seconds', '-') for g in got.values()
                    if g.get('kind') == 'prove' and g.get('config') == c['config']]
            md.append(f"| {c['config']} | {c['prove']['verdict']} | {secs[0] if secs else '-'} |")
    holes = [(c, h) for c in configs for h in c['holes']]
    md += ['', '## Coverage', '',
           'Bins summed over the shards of each configuration (rtl: the coverage model of '
           'docs/verify-your-design.md; oracle: vectors per stimulus kind).  '
           + (f'{len(holes)} reachable bins no shard hit:' if holes else 'Every reachable bin was hit.'), '']
    md += [f"- {c['kind']} {c['config']}: {h}" for c, h in holes[:200]]
    kinds = {}
    for c in configs:
        for k, v in c['stimulus'].items():
            kinds.setdefault(c['kind'], {}).setdefault(k, 0)
            kinds[c['kind']][k] += v
    md += [f"- {k} vectors per stimulus kind: " + ', '.join(f'{n}={v:,}' for n, v in d.items()) for k, d in kinds.items()]
    md += ['', '## Throughput', '', 'Vectors per core-second (a shard runs on one core) per configuration: '
           'throughput.png, throughput.dat.', '']
    return '\n'.join(md) + '\n'


def junit_xml(shards, got, refused):
    cases, fails, errors, secs = [], 0, 0, 0.0
    for i, (kind, config, seed, first, count) in enumerate(shards):
        name = quoteattr(f'shard {i}: {kind} {config} seed {seed} vectors [{first}, {first + count})')
        cls = quoteattr(f'{kind}.{config}')
        r = got.get(i)
        if r is None:
            errors += 1
            why = f'result refused: {refused[i]}' if i in refused else 'no result (not run, or killed)'
            cases.append(f'  <testcase classname={cls} name={name}><error message={quoteattr(why)}/></testcase>')
            continue
        secs += r['seconds']
        body = ''
        if r['verdict'] != 'pass':
            fails += 1
            text = (f"replay: {r['replay']}\n\n" if r.get('replay') else '') + '\n\n'.join(
                r.get('first_mismatches') or [r.get('error', '')])
            body = (f"<failure message={quoteattr(r['verdict'] + ': ' + str(r['mismatches']) + ' mismatches')}>"
                    f'{escape(text)}</failure>')
        cases.append(f"  <testcase classname={cls} name={name} time=\"{r['seconds']:.3f}\">{body}</testcase>")
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite name="mmaref-regress" '
            f'tests="{len(shards)}" failures="{fails}" errors="{errors}" time="{secs:.3f}">\n'
            + '\n'.join(cases) + '\n</testsuite>\n</testsuites>\n')


def plot(out, configs):
    dat, png = os.path.join(out, 'throughput.dat'), os.path.join(out, 'throughput.png')
    lines = ['# n kind config vectors cpu_seconds vectors_per_core_second']
    for n, c in enumerate(configs):
        lines.append(f"{n} {c['kind']} {c['config']} {c['vectors']} {c['cpu_seconds']:.3f} {rate(c):.1f}")
    write_atomic(dat, '\n'.join(lines) + '\n')
    q = lambda p: "'" + p.replace("'", "''") + "'"  # noqa: E731  (a gnuplot single-quoted string)
    kinds = sorted({c['kind'] for c in configs if rate(c) > 0})
    if not kinds:
        return
    gp = os.path.join(out, 'throughput.gp')
    with open(gp, 'w') as f:
        f.write(f"set terminal pngcairo size 1000,500 font ',10'\nset output {q(png)}\nset grid ytics\n"
                "set logscale y\nset xlabel 'configuration (report.md order)'\nset ylabel 'vectors per core-second'\n"
                f"set title 'Regression throughput per configuration ({len(configs)} configurations)'\n"
                "set key top right\nset style fill solid 0.6\nset boxwidth 0.8\n")
        f.write('plot ' + ', \\\n     '.join(
            f"{q(dat)} using 1:($6 > 0 && strcol(2) eq '{k}' ? $6 : 1/0) with boxes title '{k}'" for k in kinds) + '\n')
    try:
        subprocess.run(['gnuplot', gp], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except FileNotFoundError:
        print(f'regress-merge: gnuplot not found, so no {png} (apt-get install gnuplot-nox)', file=sys.stderr)
    except subprocess.CalledProcessError as e:
        print(f"regress-merge: gnuplot failed on {gp}: {e.stderr.decode().strip()[-200:]}", file=sys.stderr)


def check_folder(folder, plan_path, digest, nshards):
    """The results folder is the plan's (its stamp), or has no stamp but results to check one by one
    (each names its plan); PlanError otherwise.  The merge only reads: it stamps nothing."""
    if not os.path.isdir(folder):
        raise PlanError(f'results folder {folder} does not exist (run the plan first: make regress-run)')
    stamp = read_stamp(folder)
    if stamp is not None:
        check_stamp(folder, plan_path, digest, stamp)
    elif not any(os.path.exists(result_path(folder, i)) for i in range(nshards)):
        raise PlanError(f'results folder {folder} holds no results (run the plan first: make regress-run)')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--plan', required=True)
    p.add_argument('--results', required=True)
    p.add_argument('--out', required=True)
    a = p.parse_args()
    try:
        digest, shards = read_plan(a.plan)
        check_folder(a.results, a.plan, digest, len(shards))
        os.makedirs(a.out, exist_ok=True)
    except (PlanError, OSError) as e:
        print(f'regress-merge: {e}', file=sys.stderr)
        return 2
    configs, missing, got, refused = merge(shards, a.results, digest)
    for i, path, why in refused:
        print(f'regress-merge: refused {path}: {why}; shard {i} counts as missing (run the plan again to re-run it)',
              file=sys.stderr)
    s = summary(digest, configs, missing, refused)
    write_atomic(os.path.join(a.out, 'summary.json'), json.dumps(s, indent=1, sort_keys=True) + '\n')
    full = dict(s)
    full['timing'] = [{'kind': c['kind'], 'config': c['config'], 'seconds': round(c['seconds'], 3),
                       'cpu_seconds': round(c['cpu_seconds'], 3),
                       'vectors_per_core_second': round(rate(c), 1), 'hosts': c['hosts']} for c in configs]
    write_atomic(os.path.join(a.out, 'report.json'), json.dumps(full, indent=1, sort_keys=True) + '\n')
    write_atomic(os.path.join(a.out, 'report.md'), markdown(a.plan, s, configs, got))
    write_atomic(os.path.join(a.out, 'junit.xml'), junit_xml(shards, got, {i: why for i, _, why in refused}))
    plot(a.out, configs)
    t = s['totals']
    for c in configs:
        for f in c['failures']:
            print(f"not ok - {c['kind']} {c['config']}{' (mutant)' if c['mutant'] else ''} shard {f['shard']}: "
                  f"{f['verdict']}, {f['mismatches']} mismatches" + (f"; replay: {f['replay']}" if f.get('replay') else ''))
    verdict = 'FAIL' if t['failing_shards'] else 'INCOMPLETE' if missing else 'pass'
    print(f"regress-merge: {verdict}: {t['configurations']} configurations, {t['shards_done']}/{t['shards']} shards, "
          f"{t['vectors']} vectors, {t['mismatches']} mismatches, {t['failing_shards']} failing shards, "
          f"{len(missing)} missing ({len(refused)} refused), {t['coverage_holes']} coverage holes -> {a.out}/report.md")
    return 0 if verdict == 'pass' else 1


if __name__ == '__main__':
    sys.exit(main())
