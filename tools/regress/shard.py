#!/usr/bin/env python3
"""Runs one shard of a regression plan and writes its result (tools/regress/run.sh runs every shard).

  python3 tools/regress/shard.py --plan PLAN --results DIR [INDEX]
INDEX is the shard's line among the plan's shard lines, from 0 (default: $SLURM_ARRAY_TASK_ID, so that
one Slurm array task is one shard).  The result is DIR/shard-INDEX.json (vectors, mismatches, coverage,
the first mismatches decoded, the replay command, seconds, CPU seconds, the largest resident memory of it or a child, host) and DIR/shard-INDEX.xml (a JUnit
testsuite of one testcase), each written whole or not at all.  The JSON records what the result claims to
be (the plan's SHA-256, the shard's index, kind, configuration, seed, first vector and count): a shard
whose JSON exists and counts (tools/regress/shard_result.py) is skipped, so a re-run does only what is
missing (resume); one that is refused (another plan's, another shard's, corrupt, figures that contradict
its verdict) is reported in one line and run again, its files written over.  A failing shard prints
'not ok - ...' and the one command that replays its first mismatch.  Exit 0 once a result is written, pass or fail (the merge reports it), 2 when
no result could be: a bad plan, a results folder of another plan, a tool that does not run.
  oracle shards: tests/oracle/gen.py's stream piped into `mmaref batch --check --coverage-bins` (one thread)
  rtl shards:    tb/run_cosim.sh --cfg IDX --first F --count N --json (one simulation)
  synth shards:  synth/synth_unit.sh UNIT as make synth runs it (area, flops, delay, depth, status)
  prove shards:  tests/prove/all.sh with PROVE_ROW=ROW (verdict, solver seconds; PROVE_TIMEOUT as there)
"""
import argparse
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
from xml.sax.saxutils import escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)
from plan_folder import PlanError, claim, read_plan, result_path, write_atomic  # noqa: E402
from shard_result import Refused, load  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, 'tb'))
import cosim_json  # noqa: E402  (the coverage table's parser, shared with the RTL shards)


def cpu():
    """CPU seconds of this process and of every child it waited for (mmaref, run_cosim.sh, the bench)."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def run_oracle(config, seed, first, count, mmaref):
    sys.path.insert(0, os.path.join(ROOT, 'tests', 'oracle'))
    import gen  # noqa: E402
    arch, _, name = config.partition(':')
    try:
        instr = gen.find_instr(gen.load_instructions(mmaref=mmaref), arch, name)
    except SystemExit as e:
        raise PlanError(str(e))
    g = gen.Gen(instr, seed)
    # the coverage model's bins of these vectors, each lane and scale slot on its own (mmaref batch
    # --coverage-bins), as the RTL shards report them
    p = subprocess.Popen([mmaref, 'batch', arch, name, '--check', '--coverage-bins', '--max-report', '3', '--threads', '1'],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = gen.feed(p, g.lines(count, 'mixed', first=first))
    m = re.search(r'(\d+) passed, (\d+) failed', out)
    _, _, bins, holes, _, _ = cosim_json.parse_log(out)
    r = {'stimulus': dict(g.kinds), 'bins': bins, 'holes': holes}
    if not m:
        r.update(vectors=0, mismatches=0, verdict='ERROR',
                 error=(out.strip().splitlines() or ['(no output)'])[-1][:300])
        return r
    passed, failed = int(m.group(1)), int(m.group(2))
    reports = []
    for line in out.splitlines():
        if line.startswith('mismatch line '):
            reports.append([line])
        elif reports and line.startswith('  '):
            reports[-1].append(line)
    r.update(vectors=passed + failed, mismatches=failed,
             verdict='FAIL' if failed or passed + failed != count else 'pass',
             first_mismatches=['\n'.join(x) for x in reports[:3]])
    if reports:
        idx = first + int(re.match(r'mismatch line (\d+)', reports[0][0]).group(1)) - 1
        r['first_mismatch_index'] = idx
        r['replay'] = (f'python3 tests/oracle/gen.py --arch {arch} --instr {name} --seed {seed} --first {idx} '
                       f'--count 1 | build/mmaref batch {arch} {name} --check')
    return r


def run_rtl(config, seed, first, count):
    idx, _, label = config.partition(':')
    with tempfile.TemporaryDirectory(prefix='mmaref-shard.') as tmp:
        js = os.path.join(tmp, 'cosim.json')
        p = subprocess.run(['bash', os.path.join(ROOT, 'tb', 'run_cosim.sh'), '--cfg', idx, '--seed', str(seed),
                            '--first', str(first), '--count', str(count), '--jobs', '1', '--json', js],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not os.path.exists(js):
            raise PlanError(f'tb/run_cosim.sh wrote no result: '
                            f"{(p.stdout.strip().splitlines() or ['(no output)'])[-1]}")
        rows = json.load(open(js))['rows']
    if len(rows) != 1:
        raise PlanError(f'configuration {idx} is not a row of configs.txt (the plan is older than the build)')
    row = rows[0]
    if row['label'] != label:
        raise PlanError(f'configuration {idx} is {row["label"]} now, the plan says {label}: '
                        f'make a new plan (make regress-plan)')
    r = {k: row[k] for k in ('vectors', 'mismatches', 'stimulus', 'bins', 'holes', 'first_mismatches') if k in row}
    r['mutant'] = row['kind'] != 'check'
    # a shard's coverage holes are not its failure: the merged report closes coverage over every shard
    r['verdict'] = ('ERROR' if row['verdict'] == 'ERROR' else
                    'FAIL' if row['mismatches'] or row['vectors'] != count else 'pass')
    for k in ('first_mismatch_index', 'replay', 'error'):
        if k in row:
            r[k] = row[k]
    return r


def run_synth(config):
    """Unit UNIT of build/rtl/gen/units.txt through synth/synth_unit.sh as make synth runs it (SYNTH_NOSHARE=1,
    its rows in build/rtl/synth: a unit make synth or an earlier shard already did, with the same RTL,
    library and parameters, is not synthesized again)."""
    unit, _, top = config.partition(':')
    units = os.path.join(ROOT, 'build', 'rtl', 'gen', 'units.txt')
    row = [l.split() for l in open(units) if l.split() and l.split()[0] == unit] if os.path.exists(units) else []
    if not row or row[0][10] != top:
        raise PlanError(f'unit {unit} of {units} is {row[0][10] if row else "missing"}, the plan says {top}: '
                        f'make a new plan (make regress-plan)')
    out = os.path.join(ROOT, 'build', 'rtl', 'synth')
    env = dict(os.environ, SYNTH_UNITS=units, SYNTH_OUT=out, SYNTH_NOSHARE=os.environ.get('SYNTH_NOSHARE', '1'))
    env.pop('SYNTH_QUICK', None)
    os.makedirs(out, exist_ok=True)
    p = subprocess.run(['bash', os.path.join(ROOT, 'synth', 'synth_unit.sh'), unit], cwd=ROOT, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    path = os.path.join(out, f'unit{unit}.row')
    if not os.path.exists(path):
        raise PlanError(f"synth/synth_unit.sh {unit} wrote no row: {(p.stdout.strip().splitlines() or ['?'])[-1]}")
    got = dict(kv.split('=', 1) for kv in open(path).read().split() if '=' in kv)
    keep = {k: got.get(k, '-') for k in ('cells', 'area_um2', 'flops', 'delay_ps', 'depth', 'latches', 'status', 'lib')}
    r = {'vectors': 0, 'mismatches': 0, 'stimulus': {}, 'bins': {}, 'holes': [], 'synth': keep,
         'verdict': 'pass' if keep['status'] == 'ok' else 'FAIL',
         'replay': f'SYNTH_NOSHARE={env["SYNTH_NOSHARE"]} bash synth/synth.sh {unit}'}
    if keep['status'] != 'ok':
        r['error'] = f"synthesis status {keep['status']}"
    return r


def run_prove(config):
    """One row of make prove-all's table: its verdict (PROVEN, REFUTED, UNKNOWN) and the verdict it must
    have; the shard fails when they contradict (UNKNOWN is the solver's measured reach, not a failure)
    or a counterexample does not replay in make verify's bench, as in make prove-all."""
    with tempfile.TemporaryDirectory(prefix='mmaref-prove.') as tmp:
        env = dict(os.environ, PROVE_ROW=config, PROVE_ALL_DIR=tmp)
        env.pop('PROVE_ONLY', None)
        env.pop('PROVE_SKIP', None)
        p = subprocess.run(['bash', os.path.join(ROOT, 'tests', 'prove', 'all.sh')], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode == 2:
        raise PlanError(f"{(p.stdout.strip().splitlines() or ['?'])[-1]}: make a new plan (make regress-plan)")
    # the row's result line (not its "running" line), less the wall time and progress after " | wall"
    m = re.search(r'^\[\d+/\d+\] (\S+) +(PROVEN|REFUTED|UNKNOWN|ERROR) +(\S+) s(.*?)(?: \| wall .*)?$', p.stdout, re.M)
    r = {'vectors': 0, 'mismatches': 0, 'stimulus': {}, 'bins': {}, 'holes': [],
         'verdict': 'pass' if p.returncode == 0 and m else 'FAIL',
         'replay': f"PROVE_ROW='{config}' bash tests/prove/all.sh"}
    if m:
        r['prove'] = {'verdict': m.group(2), 'solver_seconds': m.group(3), 'note': m.group(4).strip('; ')}
    if r['verdict'] != 'pass':
        r['error'] = (m.group(0) if m else (p.stdout.strip().splitlines() or ['(no output)'])[-1])[:300]
    return r


def junit(index, shard, r):
    kind, config, seed, first, count = shard
    what = f"{kind} {config} seed {seed} vectors [{first}, {first + count})"
    body = ''
    if r['verdict'] != 'pass':
        msg = f"{r['verdict']}: {r['vectors']} vectors, {r['mismatches']} mismatches"
        text = '\n\n'.join(r.get('first_mismatches', []) or [r.get('error', '')])
        if r.get('replay'):
            text = f"replay: {r['replay']}\n\n{text}"
        body = f"<failure message={quoteattr(msg)}>{escape(text)}</failure>"
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="mmaref-regress" tests="1" '
            f'failures="{int(r["verdict"] != "pass")}" time="{r["seconds"]:.3f}" hostname={quoteattr(r["host"])}>\n'
            f'  <testcase classname={quoteattr(kind + "." + config)} name={quoteattr(f"shard {index}: {what}")} '
            f'time="{r["seconds"]:.3f}">{body}</testcase>\n</testsuite>\n')


def has_result(path, index, shard, digest):
    """Whether path holds a result that counts as this shard's; a refused one is reported (it is run
    again, and its files written over)."""
    try:
        load(path, index, shard, digest)
        return True
    except FileNotFoundError:
        return False
    except Refused as e:
        print(f'regress: refused {path}: {e}; running shard {index} again', file=sys.stderr)
        return False


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--plan', required=True)
    p.add_argument('--results', required=True)
    p.add_argument('index', nargs='?', default=os.environ.get('SLURM_ARRAY_TASK_ID'))
    p.add_argument('--mmaref', default=os.environ.get('MMAREF', os.path.join(ROOT, 'build', 'mmaref')))
    a = p.parse_args()
    try:
        if a.index is None or not str(a.index).isdigit():
            raise PlanError(f"give the shard's index (0, 1, ...) or run as a Slurm array task, not '{a.index}'")
        index = int(a.index)
        digest, shards = read_plan(a.plan)
        if index >= len(shards):
            raise PlanError(f'plan {a.plan} has {len(shards)} shards (0 to {len(shards) - 1}), not {index}')
        claim(a.results, a.plan, digest)
        out = result_path(a.results, index)
        if has_result(out, index, shards[index], digest):
            print(f'skip - shard {index}: {out} exists')
            return 0
        kind, config, seed, first, count = shard = shards[index]
        t0, c0 = time.monotonic(), cpu()
        r = (run_oracle(config, seed, first, count, a.mmaref) if kind == 'oracle' else
             run_synth(config) if kind == 'synth' else run_prove(config) if kind == 'prove' else
             run_rtl(config, seed, first, count))
        r.update(shard=index, kind=kind, config=config, seed=seed, first=first, count=count, plan=digest,
                 seconds=round(time.monotonic() - t0, 3), cpu_seconds=round(cpu() - c0, 3),
                 max_rss_mb=round(max(resource.getrusage(w).ru_maxrss for w in
                                      (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024),
                 host=socket.gethostname())
        # the plan must not have changed while this shard ran
        if read_plan(a.plan)[0] != digest:
            raise PlanError(f'plan {a.plan} was edited mid-run (while shard {index} ran); its result is not kept')
    except PlanError as e:
        print(f'regress: {e}', file=sys.stderr)
        return 2
    write_atomic(result_path(a.results, index, 'xml'), junit(index, shard, r))
    write_atomic(out, json.dumps(r, indent=1, sort_keys=True) + '\n')
    what = f"shard {index}: {kind} {config} [{first}, {first + count})"
    if r['verdict'] == 'pass' and kind == 'synth':
        print(f"ok - shard {index}: synth {config}: {r['synth']['area_um2']} um^2, {r['synth']['delay_ps']} ps, "
              f"{r['seconds']:.1f} s")
    elif r['verdict'] == 'pass' and kind == 'prove':
        print(f"ok - shard {index}: prove {config}: {r['prove']['verdict']} in {r['prove']['solver_seconds']} s "
              f"of the solver, {r['seconds']:.1f} s")
    elif r['verdict'] == 'pass':
        print(f"ok - {what}: {r['vectors']} vectors, 0 mismatches, {r['seconds']:.1f} s")
    else:
        print(f"not ok - {what}: {r['verdict']}, {r['vectors']} vectors, {r['mismatches']} mismatches"
              + (f"; replay: {r['replay']}" if r.get('replay') else f"; {r.get('error', '')}"))
    return 0


if __name__ == '__main__':
    sys.exit(main())
