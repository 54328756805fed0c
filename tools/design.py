#!/usr/bin/env python3
"""Queries the design database (build/rtl/gen/design.json, written by tb/gen_configs.py): the RTL units,
the configurations the benches run and every instruction with the configuration and unit that serve it,
as records read by field name -- never by column.

usage: design.py TABLE [--FIELD VALUE ...] [--field F[,G..]] [--json] [--db PATH]
  TABLE          units, configs or instructions
  --FIELD VALUE  only the records whose FIELD is VALUE (a list field: holds VALUE); repeatable
  --field F,G    print these fields of each record, space-separated, one record a line (a parameter list:
                 NAME=VALUE,...; a list: comma-separated); without it, each record as one JSON line
  --json         the records as one JSON list
  --db PATH      another database (default build/rtl/gen/design.json)
e.g. design.py units --kind FDA --mutant 0 --field index,params
     design.py instructions --arch hopper --name mma.m16n8k16.f32.f16.f16.f32 --field unit
A field no record of the table has, a database of another schema version or none at all: one line on
stderr naming it, exit 2.  No record matching: nothing printed, exit 1."""
import json
import os
import sys

DB = 'build/rtl/gen/design.json'
SCHEMA_VERSION = 1   # tb/gen_configs.py's DESIGN_SCHEMA_VERSION this reader knows
TABLES = ('units', 'configs', 'instructions')


class DesignError(Exception):
    """A database that cannot be read as this reader's version."""


def fail(msg):
    print('design.py: ' + msg, file=sys.stderr)
    sys.exit(2)


def load(path=DB):
    """The database at path, of this reader's schema version; DesignError (a one-line message) else."""
    try:
        with open(path) as f:
            db = json.load(f)
    except FileNotFoundError:
        raise DesignError('no design database %s (make build/rtl/gen/configs.txt writes it)' % path) from None
    except (OSError, ValueError) as e:
        raise DesignError('%s: not a design database (%s)' % (path, e)) from None
    if not isinstance(db, dict) or db.get('schema_version') != SCHEMA_VERSION:
        raise DesignError('%s: schema version %r, this reader knows %d (make build/rtl/gen/configs.txt writes '
                          'it anew)' % (path, db.get('schema_version') if isinstance(db, dict) else None,
                                        SCHEMA_VERSION))
    return db


def text(v):
    """A field's value as the shell reads it."""
    if isinstance(v, dict):
        return ','.join('%s=%s' % kv for kv in v.items())
    if isinstance(v, list):
        return ','.join(str(x) for x in v)
    return str(v)


def matches(v, want):
    return want in (text(x) for x in v) if isinstance(v, list) else text(v) == want


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(__doc__)
        return 0 if argv else 2
    table, args = argv[0], argv[1:]
    if table not in TABLES:
        fail("no table '%s' (%s)" % (table, ', '.join(TABLES)))
    path, fields, as_json, where = DB, None, False, []
    i = 0
    while i < len(args):
        a = args[i]
        if a == '--json':
            as_json = True
            i += 1
            continue
        if not a.startswith('--') or i + 1 == len(args):
            fail("'%s': expected --FIELD VALUE, --field F, --json or --db PATH" % a)
        name, value = a[2:], args[i + 1]
        if name == 'db':
            path = value
        elif name == 'field':
            fields = value.split(',')
        else:
            where.append((name, value))
        i += 2
    try:
        records = load(path)[table]
    except DesignError as e:
        fail(str(e))
    known = sorted({k for r in records for k in r})
    for name in [n for n, _ in where] + (fields or []):
        if name not in known:
            fail("%s has no field '%s' (its fields: %s)" % (table, name, ', '.join(known)))
    hits = [r for r in records if all(matches(r[n], v) for n, v in where)]
    if as_json:
        json.dump([{f: r[f] for f in fields} if fields else r for r in hits], sys.stdout)
        print()
    else:
        for r in hits:
            print(' '.join(text(r[f]) for f in fields) if fields else json.dumps(r))
    return 0 if hits else 1


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        os._exit(0)
