#!/usr/bin/env python3
"""The rows of one tb/run_cosim.sh run as JSON (run_cosim.sh --json FILE).

Reads the run's folder of per-configuration files (IDX.row: the configs.txt row, IDX.log: the bench's
output, IDX.rc: its exit status) and writes one object per configuration:
  cfg, label (arch:name), kind (check or mutant-...), seed, first, count, vectors, mismatches, directed,
  seconds (the bench's own, without start-up), rate, exit, verdict (pass, FAIL, HOLE, ERROR, caught,
  MISSED), stimulus (vectors per stimulus kind: the COVERAGE line), bins ({"group: bin": [vectors,
  mismatches]}: every reachable bin, each lane and scale slot on its own, from the bench's COVERAGE BIN
  lines, which run_cosim.sh --json asks for; else the coverage table's rows), holes, first_mismatches (the first reports, decoded, as the
  bench prints them) and replay (the run_cosim.sh command that checks the first mismatching vector alone).
The file is written whole or not at all (a temporary file renamed).

  python3 tb/cosim_json.py --logs DIR --seed S --first F --count N --out FILE
"""
import argparse
import json
import os
import re
import sys

BIN = re.compile(r'^  (\S.{9}) (.*?)\s+(\d+)\s+(\d+)(?:\s\s.*)?$')


def parse_log(text):
    """(RESULT fields, stimulus kinds, coverage bins, holes, mismatch reports, first failing index)."""
    res, stim, bins, holes, reports, first_fail = {}, {}, {}, [], [], None
    every_bin = {}  # COVERAGE BIN lines: each lane and scale slot on its own (MMAREF_COV_BINS=1)
    in_table = False
    for line in text.splitlines():
        if line.startswith('COVERAGE BIN '):
            v, m, key = line[len('COVERAGE BIN '):].split(' ', 2)
            every_bin[key] = [int(v), int(m)]
        elif line.startswith('RESULT '):
            res = dict(kv.split('=', 1) for kv in line.split()[2:] if '=' in kv)
        elif line.startswith('COVERAGE HOLE: '):
            holes.append(line[len('COVERAGE HOLE: '):].rsplit(' -- ', 1)[0])
        elif line.startswith('COVERAGE '):
            stim = {k: int(v) for k, v in (kv.split('=', 1) for kv in line.split()[2:] if '=' in kv)}
        elif line.startswith('  group '):
            in_table = True
        elif line.startswith('coverage '):
            in_table = False
        elif in_table and 'unreachable:' not in line:
            m = BIN.match(line)
            if m:
                bins[f"{m.group(1).strip()}: {m.group(2).strip()}"] = [int(m.group(3)), int(m.group(4))]
        if line.startswith('MISMATCH ') or line.startswith('STALL '):
            reports.append([line])
            m = re.search(r' index (\d+)', line) or re.search(r'from index (\d+)', line)
            if m and first_fail is None:
                first_fail = int(m.group(1))
        elif reports and line.startswith('  ') and not in_table and len(reports[-1]) < 80:
            reports[-1].append(line)
    return res, stim, every_bin or bins, holes, reports, first_fail


def row_json(folder, idx, seed, first, count):
    row = open(os.path.join(folder, f'{idx}.row')).read().split()
    kind, arch, name = row[2], row[3], row[4]
    log = open(os.path.join(folder, f'{idx}.log'), errors='replace').read() if os.path.exists(
        os.path.join(folder, f'{idx}.log')) else ''
    try:
        rc = int(open(os.path.join(folder, f'{idx}.rc')).read())
    except (OSError, ValueError):
        rc = -1
    res, stim, bins, holes, reports, first_fail = parse_log(log)
    vectors, mismatches = int(res.get('vectors', 0)), int(res.get('mismatches', 0))
    if not res:
        verdict = 'ERROR'
    elif kind == 'check':
        verdict = 'FAIL' if mismatches or vectors != count else 'HOLE' if holes else 'pass'
    else:
        verdict = 'caught' if mismatches else 'MISSED'
    j = {'cfg': int(idx), 'label': f'{arch}:{name}', 'kind': kind, 'seed': seed, 'first': first, 'count': count,
         'vectors': vectors, 'mismatches': mismatches, 'directed': int(res.get('directed', 0)),
         'seconds': float(res.get('seconds', 0)), 'rate': float(res.get('rate', 0)), 'exit': rc,
         'verdict': verdict, 'stimulus': stim, 'bins': bins, 'holes': holes,
         'first_mismatches': ['\n'.join(r) for r in reports[:3]]}
    if first_fail is not None:
        j['first_mismatch_index'] = first_fail
        j['replay'] = f'bash tb/run_cosim.sh --cfg {idx} --seed {seed} --first {first_fail} --count 1'
    if not res:
        j['error'] = (log.strip().splitlines() or ['(no output)'])[-1][:300]
    return j


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--logs', required=True)
    p.add_argument('--seed', type=int, required=True)
    p.add_argument('--first', type=int, default=0)
    p.add_argument('--count', type=int, required=True)
    p.add_argument('--out', required=True)
    a = p.parse_args()
    idxs = sorted(int(f[:-4]) for f in os.listdir(a.logs) if f.endswith('.row'))
    rows = [row_json(a.logs, i, a.seed, a.first, a.count) for i in idxs]
    tmp = f'{a.out}.tmp.{os.getpid()}'
    with open(tmp, 'w') as f:
        json.dump({'rows': rows}, f, indent=1, sort_keys=True)
    os.replace(tmp, a.out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
