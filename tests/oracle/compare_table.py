#!/usr/bin/env python3
"""Compare the model's instruction table (`mmaref list --json`) with the oracle's own (table.py), entry by
entry: for every instruction, every field of every pass of its schedule (table.PASS_FIELDS), whether C is added
last, the number of passes, the display name of
the algorithm, the operand formats / shape / scales the name spells, and (NVIDIA) the SASS opcode.  Also:
every instruction must be one the paper lists on that architecture, and every available cell of Tables III
and IV must have instructions in the model.

Prints one summary line, "ok - ..." or "not ok - ...", preceded on failure by one "not ok" line for
each of the first --max-report differing entries (architecture, name, field, oracle value, model value),
and "# note" lines for instructions beyond the paper's listing.  Exit status 0 when equal, 1 otherwise.

Every pass of each entry's "schedule" is compared field by field.

  python3 tests/oracle/compare_table.py [--list FILE] [--mmaref PATH] [--max-report N]
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table  # noqa: E402

def compare_entry(entry):
    """List of (field, oracle value, model value) differences of one entry, and the derivation (or None)."""
    arch, name = entry.get('arch'), entry.get('name')
    try:
        t = table.derive(arch, name)
    except table.NotInPaper as e:
        return [('existence', f'not in the paper ({e})', 'listed')], None
    diffs = []
    for f in table.NAME_FIELDS:
        if t['parsed'][f] != entry.get(f):
            diffs.append((f, t['parsed'][f], entry.get(f)))
    if arch in table.NV_ARCHS:
        opcode = entry.get('sass', '').split('.')[0]
        if opcode != t['opcode']:
            diffs.append(('sass opcode', t['opcode'], opcode))
    sched, algo = entry.get('schedule'), entry.get('algo')
    if not isinstance(sched, list) or not all(isinstance(q, dict) for q in sched):
        return diffs + [('schedule', 'a list of passes', repr(sched)[:60])], t
    if algo != t['algo']:
        diffs.append(('algo', t['algo'], algo))
    if entry.get('c_last') != t['c_last']:
        diffs.append(('c_last', t['c_last'], entry.get('c_last')))
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
    return diffs, t


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
    bad, reported, fields, notes, seen_cells = 0, 0, 0, {}, set()
    for entry in entries:
        diffs, t = compare_entry(entry)
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
    what = (f"oracle table vs mmaref list --json: {len(entries)} instructions compared ({fields} fields: "
            f"operands, opcode, algo, passes and every pass field)")
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
