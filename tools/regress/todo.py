#!/usr/bin/env python3
"""What is left of a plan, and what a shard of it costs (tools/regress/run.sh asks before scheduling).

  python3 tools/regress/todo.py --plan PLAN --results DIR --list FILE [--kind KIND]
Claims DIR for the plan (tools/regress/plan_folder.py: a folder of another plan, or a plan edited since
the run started, is refused in one line), writes the indexes of the shards without a result that counts
into FILE, one a line (a result file that tools/regress/shard_result.py refuses is reported, one line each
on stderr, and its shard listed: it runs again), and prints 'TODO TOTAL MINUTES MEGABYTES': the shards to
run, the plan's shards, and the time and memory limit of one shard for the scheduler.  With --kind, only the shards of that kind (oracle, rtl,
synth, prove) are listed and limited: Slurm gets one array per kind, each asking for what its own
shards need (a synthesis shard's hours and gigabytes are not asked for every oracle shard).  The time
is the longest shard (of the kind) at the measured
rate of its kind, three times over (a proof: its solver limit PROVE_TIMEOUT and 5 minutes more), at
least 5 minutes: the rate is the one the results already in DIR
show (this plan's own cost, measured), else the figure of docs/regressions.md in RATES below.
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from plan_folder import PlanError, claim, read_plan, result_path  # noqa: E402
from shard_result import Refused, load  # noqa: E402

# vectors per core-second, the slowest configurations measured (docs/regressions.md): oracle f64 K = 16,
# the Verilated f64 SFMA unit K = 16 at -O1
RATES = {'oracle': 9000.0, 'rtl': 22000.0}
# seconds of one synthesis unit: the longest of synth/report-cells45.json (fda_unit K = 32)
SYNTH_SECONDS = 3006
# seconds of one proof: the solver's limit (PROVE_TIMEOUT, as tests/prove/all.sh) and the replay after it
PROVE_SECONDS = int(os.environ.get('PROVE_TIMEOUT', '1800')) + 300
# resident memory of one shard, measured (docs/regressions.md), with room to spare
MEGABYTES = {'oracle': 256, 'rtl': 512, 'synth': 4096, 'prove': 4096}


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--plan', required=True)
    p.add_argument('--results', required=True)
    p.add_argument('--list', required=True)
    p.add_argument('--kind', choices=sorted(MEGABYTES), help='only the shards of this kind')
    a = p.parse_args()
    try:
        digest, shards = read_plan(a.plan)
        claim(a.results, a.plan, digest)
    except PlanError as e:
        print(f'regress: {e}', file=sys.stderr)
        return 2
    todo, seen = [], {}
    for i, line in enumerate(shards):
        kind, path = line[0], result_path(a.results, i)
        try:
            r = load(path, i, line, digest)
        except FileNotFoundError:
            r = None
        except Refused as e:
            r = None
            if a.kind is None:  # run.sh asks once for the whole plan, then once per kind: report it once
                print(f'regress: refused {path}: {e}; shard {i} runs again', file=sys.stderr)
        if r is None:
            if a.kind in (None, kind):
                todo.append(i)
            continue
        v, s = seen.get(kind, (0, 0.0))
        seen[kind] = (v + r['vectors'], s + r['seconds'])
    rates = dict(RATES)
    for kind, (v, s) in seen.items():
        if v and s > 0 and kind in rates:
            rates[kind] = v / s
    fixed = {'synth': 3 * SYNTH_SECONDS, 'prove': PROVE_SECONDS}  # a proof stops at its limit
    mine = [s for s in shards if a.kind in (None, s[0])] or shards
    longest = max(fixed[k] if k in fixed else 3 * c / rates[k] for k, _, _, _, c in mine)
    minutes = max(5, math.ceil(longest / 60))
    megabytes = max(MEGABYTES[k] for k, *_ in mine)
    with open(a.list, 'w') as f:
        f.write(''.join(f'{i}\n' for i in todo))
    print(len(todo), len(shards), minutes, megabytes)
    return 0


if __name__ == '__main__':
    sys.exit(main())
