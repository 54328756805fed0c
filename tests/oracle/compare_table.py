#!/usr/bin/env python3
"""Compare the model's instruction table (`mmaref list --json`) with the oracle's own (table.py), entry by
entry: for every instruction, every field of every pass of its schedule (algo, k_first, k_count,
frac_bits, group, align_products, align_c, scales, flush, out), the number of passes, the display name of
the algorithm, the operand formats / shape / scales the name spells, and (NVIDIA) the SASS opcode.  Also:
every instruction must be one the paper lists on that architecture, and every available cell of Tables III
and IV must have instructions in the model.

Prints one summary line, "ok - ..." or "not ok - ...", preceded on failure by one "not ok" line for
each of the first --max-report differing entries (architecture, name, field, oracle value, model value),
and "# note" lines for instructions beyond the paper's listing.  Exit status 0 when equal, 1 otherwise.

The list in the form the model is moving to ("schedule": a list of passes) is compared field by field.
A list in the older form (top-level frac_bits, group, chain, flush, out) is accepted too: it is turned
into a schedule (chain n = n passes of K/n products each, with those parameters); it has no alignment
roundings nor scale kinds, so for it those two are filled from the algorithm as the interface says
(FDA/GDFS rz, FDRDA/GFDRDA rd, SFMA/GPS rne; scales per-product for FDA with a scale format, per-group
for GDFS) and the summary line says so.

  python3 tests/oracle/compare_table.py [--list FILE] [--mmaref PATH] [--max-report N]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table  # noqa: E402

OLD_ALIGN = {'FDA': 'rz', 'GDFS': 'rz', 'FDRDA': 'rd', 'GFDRDA': 'rd', 'SFMA': 'rne', 'GPS': 'rne'}


def model_schedule(entry):
    """(schedule, old_form) of one list entry."""
    if 'schedule' in entry:
        return entry['schedule'], False
    algo, n, K = entry['algo'], entry['chain'], entry['k']
    for prefix in ('Co',):                       # the old form writes the pass kind, chain says how many
        if algo.startswith(prefix) and algo[len(prefix):] in OLD_ALIGN:
            algo = algo[len(prefix):]
    scales = 'per-group' if algo == 'GDFS' else 'per-product' if entry.get('scale') else 'none'
    align = OLD_ALIGN.get(algo, '?')
    step = K // n if n else K
    return [dict(algo=algo, k_first=i * step, k_count=step, frac_bits=entry['frac_bits'], group=entry['group'],
                 align_products=align, align_c=align, scales=scales, flush=entry['flush'], out=entry['out'])
            for i in range(n)], True


def model_algo(entry):
    if 'schedule' in entry:
        return entry['algo']
    return ('Co' if entry['chain'] == 2 else '') + entry['algo']


def compare_entry(entry):
    """List of (field, oracle value, model value) differences of one entry, the derivation (or None), and
    whether the entry is in the old form."""
    arch, name = entry.get('arch'), entry.get('name')
    try:
        t = table.derive(arch, name)
    except table.NotInPaper as e:
        return [('existence', f'not in the paper ({e})', 'listed')], None, 'schedule' not in entry
    diffs = []
    for f in table.NAME_FIELDS:
        if t['parsed'][f] != entry.get(f):
            diffs.append((f, t['parsed'][f], entry.get(f)))
    if arch in table.NV_ARCHS:
        opcode = entry.get('sass', '').split('.')[0]
        if opcode != t['opcode']:
            diffs.append(('sass opcode', t['opcode'], opcode))
    try:
        sched, old = model_schedule(entry)
        algo = model_algo(entry)
    except (KeyError, TypeError, ZeroDivisionError) as e:
        return diffs + [('schedule', 'present', f'unreadable ({type(e).__name__}: {e})')], t, False
    if algo != t['algo']:
        diffs.append(('algo', t['algo'], algo))
    mine = t['schedule']
    if len(sched) != len(mine):
        diffs.append(('passes', len(mine), len(sched)))
    for i, (p, q) in enumerate(zip(mine, sched)):
        for f in table.PASS_FIELDS:
            if p[f] != q.get(f):
                diffs.append((f'schedule[{i}].{f}', p[f], q.get(f)))
        extra = set(q) - set(table.PASS_FIELDS)
        if extra:
            diffs.append((f'schedule[{i}] fields', 'the interface fields', 'also ' + ', '.join(sorted(extra))))
    return diffs, t, old


def load(path, mmaref):
    if path:
        with open(path) as f:
            return json.load(f)
    out = subprocess.run([mmaref, 'list', '--json'], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--list', help='the model table as JSON (default: run MMAREF list --json)')
    ap.add_argument('--mmaref', default=os.environ.get('MMAREF', 'build/mmaref'))
    ap.add_argument('--max-report', type=int, default=5)
    args = ap.parse_args(argv)
    try:
        entries = load(args.list, args.mmaref)
    except (OSError, subprocess.CalledProcessError, ValueError) as e:
        print(f"not ok - oracle table vs mmaref list --json: cannot read the model's table ({e})")
        return 1
    bad, reported, fields, old_form, notes, seen_cells = 0, 0, 0, 0, {}, set()
    for entry in entries:
        diffs, t, old = compare_entry(entry)
        old_form += old
        if t:
            fields += len(table.NAME_FIELDS) + 1 + 1 + len(t['schedule']) * len(table.PASS_FIELDS)
            seen_cells.add((entry['arch'], t['row']))
            if t['note']:
                notes.setdefault(t['note'], []).append(f"{entry['arch']} {entry['name']}")
        if diffs:
            bad += 1
            if reported < args.max_report:
                reported += 1
                print(f"not ok - table: {entry.get('arch')} {entry.get('name')}: " +
                      '; '.join(f"{f}: oracle {o!r}, model {m!r}" for f, o, m in diffs[:6]))
    # every available cell of the paper's tables has instructions in the model
    missing = sorted(table.available_cells() - seen_cells)
    for note, who in sorted(notes.items()):
        print(f"# note: {len(who)} instruction(s): {note} (e.g. {who[0]})")
    form = ("old list form (no schedule): passes from chain; align_* and scales filled from the algorithm"
            if old_form == len(entries) else "schedule form" if old_form == 0 else
            f"{old_form} entries in the old form")
    what = (f"oracle table vs mmaref list --json: {len(entries)} instructions compared ({fields} fields: "
            f"operands, opcode, algo, passes and every pass field; {form})")
    rc = 0
    if missing:
        print(f"not ok - paper cells without any instruction in the model: {len(missing)}: " +
              ', '.join(f'{a} {r}' for a, r in missing[:8]))
        rc = 1
    else:
        print(f"ok - every one of the {len(table.available_cells())} available cells of Tables III and IV "
              f"(with CDNA1 from docs/algorithms.md) has instructions in the model")
    if bad or not entries:
        print(f"not ok - {what}: {bad} differ" + (' (the list is empty)' if not entries else ''))
        return 1
    print(f"ok - {what}: 0 differences")
    return rc


if __name__ == '__main__':
    sys.exit(main())
