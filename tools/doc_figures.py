#!/usr/bin/env python3
"""Figures the docs quote, taken from the tools that make them, never typed: each is written in a doc as
<!-- fig:NAME -->VALUE<!-- /fig --> and this tool renders (--update) or checks (--check) every such value.

usage: doc_figures.py --update|--check FILE...
Figures (from the design database build/rtl/gen/design.json through tools/design.py, and `mmaref list`):
  rtl_mutants        the deliberately broken units kept in the RTL suite (units with a mutant code)
  rtl_mutant_kinds   their configurations' kinds, comma-separated (mutant-F-1, ...)
  rtl_checked        the configurations the co-simulation checks (kind "check")
  rtl_configs        every configuration of the benches (checked and mutants)
  rtl_units          the units that are not mutants
  instructions       every instruction of every architecture's table
--check exits 1 naming each value that differs from the tool's, 2 for a figure it does not know."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import design  # noqa: E402  (the design database's reader)

FIG = re.compile(r'<!-- fig:([a-z_]+) -->(.*?)<!-- /fig -->', re.S)


def figures(mmaref):
    try:
        db = design.load()
    except design.DesignError as e:
        sys.exit('doc_figures.py: ' + str(e))
    mutants = [u for u in db['units'] if u['mutant']]
    kinds = sorted({c['kind'] for c in db['configs'] if c['kind'] != 'check'})
    return {
        'rtl_mutants': str(len(mutants)),
        'rtl_mutant_kinds': ', '.join('`%s`' % k for k in kinds),
        'rtl_checked': '{:,}'.format(sum(c['kind'] == 'check' for c in db['configs'])),
        'rtl_configs': '{:,}'.format(len(db['configs'])),
        'rtl_units': str(len(db['units']) - len(mutants)),
        'instructions': '{:,}'.format(len(json.loads(subprocess.check_output([mmaref, 'list', '--json'])))),
    }


def render(text, figs, path):
    def value(m):
        if m.group(1) not in figs:
            sys.exit('doc_figures.py: %s: no figure %s (%s)' % (path, m.group(1), ', '.join(sorted(figs))))
        return '<!-- fig:%s -->%s<!-- /fig -->' % (m.group(1), figs[m.group(1)])
    return FIG.sub(value, text)


def main(argv):
    if len(argv) < 2 or argv[0] not in ('--update', '--check'):
        print(__doc__, file=sys.stderr)
        return 2
    figs = figures(os.environ.get('MMAREF', 'build/mmaref'))
    bad = []
    for path in argv[1:]:
        text = open(path).read()
        new = render(text, figs, path)
        if argv[0] == '--update':
            if new != text:
                open(path, 'w').write(new)
            continue
        for m in FIG.finditer(text):
            if m.group(2) != figs[m.group(1)]:
                bad.append('%s: %s is %s, the tools say %s' % (path, m.group(1), m.group(2), figs[m.group(1)]))
    if bad:
        print('doc_figures.py: ' + '; '.join(bad) + ' (tools/doc_figures.py --update FILE)', file=sys.stderr)
        return 1
    if argv[0] == '--check':
        print('doc_figures.py: %d figures in %s are the tools\' (%s)' % (
            sum(len(FIG.findall(open(p).read())) for p in argv[1:]), ', '.join(argv[1:]),
            ', '.join('%s %s' % kv for kv in sorted(figs.items()) if kv[0] != 'rtl_mutant_kinds')))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
