#!/usr/bin/env python3
"""The tables of make prove-all, rendered from its records (standard library only).

A record is one JSON object a line (build/prove-all/table.jsonl, docs/data/prove-all.jsonl): tb/prove/
prove.sh's result.json fields (unit, reference, instruction, verdict, solver, init, bound, timeout,
solver_seconds, yosys_seconds, and_gates, formats (the format combinations proven), instructions (those
of the instructions the unit serves that the proof covers: the same K and one of its combinations),
property, cut, assume, counterexample; a split's: cases, cases_proven, cases_file, cover) and the row's own: "row"
(its name in tests/prove/all.sh, e.g. "spec-decode-cut:VOLTA"), "expect", "replay" (make verify's replay
of a counterexample), "wall_seconds", "date" (UTC, YYYY-MM-DD), "machine", "why" (the reason an UNKNOWN
row stops, else null).  Optional: "note" (a remark on the measurement), "label" (a remark on the row,
kept when --merge replaces the measurement) and "variant" (the proof measured differs from the row as
all.sh runs it, e.g. without its cut point: a record of its own beside the row's).  "row",
"instruction" and "verdict" (PROVEN, REFUTED, UNKNOWN or ERROR) are required.

  prove_table.py [--rows REGEX] [--cols COLS] TABLE.jsonl         the full table (markdown)
  prove_table.py --boundary [--json] [--rows REGEX] TABLE.jsonl   the UNKNOWN records and their reasons
  prove_table.py --outdir DIR TABLE.jsonl                         DIR/table.md, boundary.md, boundary.json
  prove_table.py --record RESULT.json [--row NAME ...]            one record (tests/prove/all.sh)
  prove_table.py --merge DATA.jsonl NEW.jsonl                     NEW's records replace DATA's of the same
                                                                  (row, instruction, variant); others added;
                                                                  ERROR records (no result) left out
  prove_table.py --update DOC.md DATA.jsonl                       re-render DOC's blocks in place
  prove_table.py --check DOC.md DATA.jsonl                        exit 1 when a block is not what DATA renders

A block of DOC is the text between a line `<!-- prove-table: VIEW [rows=REGEX] [cols=COL,...] -->` and
the line `<!-- /prove-table -->`: VIEW is `full` (columns row, instruction, verdict, solver, seconds,
and_gates, replay) or `boundary` (the UNKNOWN records: row, instruction, seconds, and_gates, timeout,
solver, why); rows= keeps the records whose row name the regular expression matches whole, in the data
file's order; cols= names the columns (also timeout, wall, why, date, machine, notes, formats,
instructions, cases).  A notes column
(variant, label, note) is added wherever a shown record has one.  A malformed record, marker or option
is one line on stderr naming the file and line, exit 2.
"""
import argparse
import json
import os
import re
import sys
import tempfile

VERDICTS = ('PROVEN', 'REFUTED', 'UNKNOWN', 'ERROR')
NUMBERS = ('solver_seconds', 'yosys_seconds', 'and_gates', 'timeout', 'wall_seconds', 'bound', 'formats',
           'instructions', 'cases', 'cases_proven')
TEXTS = ('solver', 'replay', 'expect', 'variant', 'label', 'note', 'why', 'date', 'machine', 'unit',
         'reference', 'init', 'property', 'counterexample', 'cut', 'assume', 'cases_file', 'cover')
OPEN = re.compile(r'^<!-- prove-table: (.*?) -->$')
CLOSE = '<!-- /prove-table -->'


class Malformed(Exception):
    """One line: FILE:LINE: what."""


def fmt(v):
    if v is None:
        return ''
    return str(v)


def show_row(r):
    """The row's name, less a last ':INSTRUCTION' that the instruction column shows anyway."""
    name, ins = r['row'], r['instruction']
    return name[:-len(ins) - 1] if name.endswith(':' + ins) and len(name) > len(ins) + 1 else name


def notes(r):
    return '; '.join(r[k] for k in ('variant', 'label', 'note') if r.get(k))


COLUMNS = {
    'row': ('row', show_row),
    'instruction': ('instruction', lambda r: r['instruction']),
    'verdict': ('verdict', lambda r: r['verdict']),
    'solver': ('solver', lambda r: fmt(r.get('solver'))),
    'seconds': ('seconds', lambda r: fmt(r.get('solver_seconds'))),
    'and_gates': ('AND gates', lambda r: fmt(r.get('and_gates'))),
    'formats': ('combinations', lambda r: fmt(r.get('formats'))),
    'instructions': ('instructions', lambda r: fmt(r.get('instructions'))),
    'cases': ('cases', lambda r: f"{r['cases_proven']} of {r['cases']} proven, cover {r.get('cover', '?').lower()}"
              if r.get('cases') else ''),
    'timeout': ('timeout', lambda r: fmt(r.get('timeout'))),
    'wall': ('wall seconds', lambda r: fmt(r.get('wall_seconds'))),
    'replay': ('make verify replay', lambda r: fmt(r.get('replay'))),
    'why': ('reason', lambda r: r.get('why') or '—'),
    'date': ('date', lambda r: fmt(r.get('date'))),
    'machine': ('machine', lambda r: fmt(r.get('machine'))),
    'notes': ('notes', notes),
}
VIEWS = {
    'full': ('row', 'instruction', 'verdict', 'solver', 'seconds', 'and_gates', 'replay'),
    'boundary': ('row', 'instruction', 'seconds', 'and_gates', 'timeout', 'solver', 'why'),
}


def key(r):
    return (r['row'], r['instruction'], r.get('variant'))


def check_record(r):
    """None when R is a well-formed record, else what is wrong."""
    if not isinstance(r, dict):
        return 'not a JSON object'
    for k in ('row', 'instruction', 'verdict'):
        if not isinstance(r.get(k), str) or not r[k]:
            return f'no "{k}" (a non-empty string)'
    if r['verdict'] not in VERDICTS:
        return f'verdict "{r["verdict"]}" is none of {", ".join(VERDICTS)}'
    for k in NUMBERS:
        v = r.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            return f'"{k}" is not a number or null: {json.dumps(v)}'
    for k in TEXTS:
        if r.get(k) is not None and not isinstance(r[k], str):
            return f'"{k}" is not a string or null: {json.dumps(r[k])}'
    return None


def load(path):
    """The records of PATH, in order; Malformed at the first bad line or a second record of one key."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except OSError as e:
        raise Malformed(f'{path}: {e.strerror}')
    out, seen = [], {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError as e:
            raise Malformed(f'{path}:{n}: not JSON ({e})')
        bad = check_record(r)
        if bad:
            raise Malformed(f'{path}:{n}: {bad}')
        if key(r) in seen:
            raise Malformed(f'{path}:{n}: a second record of row {r["row"]} on {r["instruction"]}'
                            f'{" (" + r["variant"] + ")" if r.get("variant") else ""} (line {seen[key(r)]})')
        seen[key(r)] = n
        out.append(r)
    return out


def cell(s):
    return s.replace('\n', ' ').replace('|', '\\|')


def table(records, cols):
    """Markdown lines: the columns COLS (names of COLUMNS) of RECORDS, a notes column where one has notes."""
    cols = list(cols)
    if 'notes' not in cols and any(notes(r) for r in records):
        cols.append('notes')
    lines = ['| ' + ' | '.join(COLUMNS[c][0] for c in cols) + ' |', '|' + '---|' * len(cols)]
    for r in records:
        lines.append('| ' + ' | '.join(cell(COLUMNS[c][1](r)) for c in cols) + ' |')
    return lines


def select(records, view, rows=None):
    out = [r for r in records if view != 'boundary' or r['verdict'] == 'UNKNOWN']
    if rows is not None:
        out = [r for r in out if rows.fullmatch(r['row'])]
    return out


def boundary_json(records):
    fields = ('row', 'instruction', 'solver', 'solver_seconds', 'and_gates', 'timeout', 'why', 'variant',
              'label', 'note', 'date', 'machine')
    return json.dumps([{k: r.get(k) for k in fields} for r in select(records, 'boundary')],
                      indent=1, ensure_ascii=False) + '\n'


def parse_spec(spec, where):
    """(view, rows regex or None, columns) of a block's marker text SPEC; Malformed naming WHERE."""
    words = spec.split()
    if not words or words[0] not in VIEWS:
        raise Malformed(f'{where}: a prove-table block names its view first (full or boundary), not "{spec}"')
    view, rows, cols = words[0], None, VIEWS[words[0]]
    for w in words[1:]:
        name, eq, value = w.partition('=')
        if not eq or name not in ('rows', 'cols'):
            raise Malformed(f'{where}: unknown option "{w}" (rows=REGEX, cols=COL,...)')
        if name == 'rows':
            try:
                rows = re.compile(value)
            except re.error as e:
                raise Malformed(f'{where}: rows={value}: not a regular expression ({e})')
        else:
            cols = tuple(value.split(','))
            for c in cols:
                if c not in COLUMNS:
                    raise Malformed(f'{where}: cols: no column "{c}" ({", ".join(COLUMNS)})')
    return view, rows, cols


def render_doc(doc, records):
    """(DOC's text with every block re-rendered, [(line of the marker, spec, old lines, new lines)])."""
    with open(doc, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out, blocks, i = [], [], 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        out.append(lines[i])
        if not m:
            if lines[i] == CLOSE:
                raise Malformed(f'{doc}:{i + 1}: {CLOSE} without its opening marker')
            i += 1
            continue
        start = i + 1
        view, rows, cols = parse_spec(m.group(1), f'{doc}:{start}')
        j = start
        while j < len(lines) and lines[j] != CLOSE:
            if OPEN.match(lines[j]):
                raise Malformed(f'{doc}:{j + 1}: a prove-table block opened inside the block of line {start}')
            j += 1
        if j == len(lines):
            raise Malformed(f'{doc}:{start}: the prove-table block is not closed ({CLOSE})')
        shown = select(records, view, rows)
        if not shown:
            raise Malformed(f'{doc}:{start}: the prove-table block "{m.group(1)}" shows no record')
        new = [''] + table(shown, cols) + ['']
        blocks.append((start, m.group(1), lines[start:j], new))
        out += new + [CLOSE]
        i = j + 1
    return '\n'.join(out), blocks


def write_atomic(path, text):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.' + os.path.basename(path) + '.', dir=d)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o777)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def dumps(records):
    return ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in records)


def merge(data, new):
    """DATA's records with NEW's in place of those of the same key (a replaced record's label kept when
    the new one has none), NEW's others appended, its ERROR records (no measurement) left out;
    (records, replaced, added, left out)."""
    out, at = list(data), {key(r): k for k, r in enumerate(data)}
    replaced = added = errors = 0
    for r in new:
        if r['verdict'] == 'ERROR':
            errors += 1
            continue
        k = at.get(key(r))
        if k is None:
            at[key(r)] = len(out)
            out.append(r)
            added += 1
        else:
            if out[k].get('label') and not r.get('label'):
                r = dict(r, label=out[k]['label'])
            out[k] = r
            replaced += 1
    return out, replaced, added, errors


def record(a):
    """One row's record: RESULT.json's fields (when it exists) and the row's."""
    r = {}
    if a.record and os.path.exists(a.record):
        try:
            with open(a.record, encoding='utf-8') as f:
                r = json.load(f)
        except ValueError as e:
            raise Malformed(f'{a.record}: not JSON ({e})')
        if not isinstance(r, dict):
            raise Malformed(f'{a.record}: not a JSON object')
    r = {'row': a.row, **{k: v for k, v in r.items() if k != 'row'}}
    if a.instruction and not r.get('instruction'):
        r['instruction'] = a.instruction
    if a.verdict:
        r['verdict'] = a.verdict
    for k, v in (('expect', a.expect), ('replay', a.replay), ('date', a.date), ('machine', a.machine),
                 ('why', a.why if r.get('verdict') == 'UNKNOWN' else None), ('note', a.note), ('label', a.label)):
        r[k] = v or None
    r['wall_seconds'] = float(a.wall) if a.wall else None
    for k in ('note', 'label'):
        if r[k] is None:
            del r[k]
    bad = check_record(r)
    if bad:
        raise Malformed(f'{a.record or "the record"}: {bad}')
    return json.dumps(r, ensure_ascii=False)


def summary(records):
    counts = {v: sum(r['verdict'] == v for r in records) for v in VERDICTS}
    return ', '.join(f'{n} {v}' for v, n in counts.items() if n)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('table', nargs='?', help='records (JSON lines) to render')
    g = p.add_mutually_exclusive_group()
    g.add_argument('--boundary', action='store_true', help='the UNKNOWN records, their reasons')
    g.add_argument('--outdir', metavar='DIR', help='write DIR/table.md, boundary.md, boundary.json')
    g.add_argument('--record', metavar='RESULT_JSON', help="one row's record on stdout")
    g.add_argument('--merge', nargs=2, metavar=('DATA', 'NEW'))
    g.add_argument('--update', nargs=2, metavar=('DOC', 'DATA'))
    g.add_argument('--check', nargs=2, metavar=('DOC', 'DATA'))
    p.add_argument('--json', action='store_true', help='with --boundary: JSON')
    p.add_argument('--rows', metavar='REGEX', help='only the rows whose name it matches whole')
    p.add_argument('--cols', metavar='COLS', help=f'columns, comma-separated: {", ".join(COLUMNS)}')
    for k in ('row', 'instruction', 'verdict', 'expect', 'replay', 'wall', 'date', 'machine', 'why', 'note', 'label'):
        p.add_argument('--' + k, default='', help='with --record')
    a = p.parse_args()
    try:
        if a.record is not None:
            if not a.row:
                raise Malformed('--record needs --row')
            print(record(a))
            return 0
        if a.merge:
            data, new = load(a.merge[0]), load(a.merge[1])
            out, replaced, added, errors = merge(data, new)
            write_atomic(a.merge[0], dumps(out))
            print(f'prove_table: {a.merge[0]}: {replaced} records replaced, {added} added'
                  f'{f", {errors} ERROR records left out" if errors else ""} ({len(out)} in all)')
            return 0
        if a.update or a.check:
            doc, data = a.update or a.check
            text, blocks = render_doc(doc, load(data))
            if a.update:
                with open(doc, encoding='utf-8') as f:
                    same = f.read() == text
                if not same:
                    write_atomic(doc, text)
                print(f'prove_table: {doc}: {len(blocks)} blocks rendered from {data}'
                      f'{"" if not same else " (unchanged)"}')
                return 0
            bad = 0
            for start, spec, old, new in blocks:
                if old != new:
                    bad += 1
                    k = next((k for k in range(max(len(old), len(new)))
                              if (old[k] if k < len(old) else None) != (new[k] if k < len(new) else None)), 0)
                    got = old[k] if k < len(old) else '(nothing)'
                    want = new[k] if k < len(new) else '(nothing)'
                    print(f'{doc}:{start + 1 + k}: the block "{spec}" is not what {data} renders: '
                          f'the doc has "{got}", the data gives "{want}"')
            return 1 if bad else 0
        if not a.table:
            p.error('give the records (TABLE.jsonl)')
        records = load(a.table)
        rows = None
        if a.rows:
            try:
                rows = re.compile(a.rows)
            except re.error as e:
                raise Malformed(f'--rows {a.rows}: not a regular expression ({e})')
        cols = None
        if a.cols:
            cols = tuple(a.cols.split(','))
            for c in cols:
                if c not in COLUMNS:
                    raise Malformed(f'--cols: no column "{c}" ({", ".join(COLUMNS)})')
        if a.outdir:
            full = table(records, VIEWS['full'][:6] + ('wall', 'replay'))
            head = f'make prove-all: {len(records)} rows ({summary(records) or "none run"})'
            dates = sorted({r['date'] for r in records if r.get('date')})
            machines = sorted({r['machine'] for r in records if r.get('machine')})
            if dates or machines:
                head += '; ' + ', '.join(dates + machines)
            write_atomic(os.path.join(a.outdir, 'table.md'), head + '\n\n' + '\n'.join(full) + '\n')
            unknown = select(records, 'boundary')
            bmd = ('\n'.join(table(unknown, VIEWS['boundary'])) + '\n' if unknown
                   else 'No row ended UNKNOWN.\n')
            write_atomic(os.path.join(a.outdir, 'boundary.md'), bmd)
            write_atomic(os.path.join(a.outdir, 'boundary.json'), boundary_json(records))
            return 0
        view = 'boundary' if a.boundary else 'full'
        shown = select(records, view, rows)
        if a.json:
            if not a.boundary:
                p.error('--json goes with --boundary')
            sys.stdout.write(boundary_json(shown))
        else:
            print('\n'.join(table(shown, cols or VIEWS[view])))
        return 0
    except Malformed as e:
        print(f'prove_table: {e}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
