#!/usr/bin/env python3
"""The values make verify and make prove take, each checked against its grammar before the flow creates,
deletes or runs anything (tb/verify/verify.sh, tb/prove/prove.sh call this first; gen_verify.py and
gen_prove.py parse parameter lists with `params`).  A value that passes is data the flows may put on a
command line, in a Yosys script or in generated SystemVerilog as it is: module names are identifiers,
numbers ASCII decimal without leading zeros, parameter lists NAME=INTEGER, paths of portable file-name
characters (no blank, quote, `$`, `;`, backquote or control character) naming an existing regular file.

usage: flow_values.py FLOW    (verify or prove)
Reads FLOW's variables from the environment (an unset or empty one takes the flow's default, not
checked here); exit 0 when each is valid, else one line "FLOW: VAR=VALUE: what it must be" on stderr and
exit 2."""
import os
import re
import sys

IDENT = r'[A-Za-z_][A-Za-z0-9_]*'
# portable file-name characters and '/', '@', '+', '=', ',', '~' (no blank, quote, '$', ';', '`', '&',
# '|', '*', '?', '(', '{', '#', '%', control characters): a path passes the shell, Yosys's script parser and
# Verilator's command line as one word
PATH_CHARS = r'[A-Za-z0-9._/@+=,~-]'
# an assumption is a SystemVerilog expression over the vector's fields: no ';' (no second statement), no
# '$' but in $signed and $unsigned (no system task), no quote, backquote, '#' or '@'
ASSUME_CHARS = r"[A-Za-z0-9_ (){}&|!~^<>=+*/%?:'\[\].,-]"
INTEGER = r'-?(?:0|[1-9][0-9]*)'
MAX_LEN = 4096


class Bad(Exception):
    """A value against its grammar: the message says what it must be.  part: the word of a list it is
    about (a file of DUT's), which the message names instead of the whole value."""

    def __init__(self, msg, part=None):
        super().__init__(msg)
        self.part = part


def identifier(v):
    if not re.fullmatch(IDENT, v, re.ASCII) or len(v) > 1024:
        raise Bad('not a module name (a letter or _, then letters, digits, _)')
    return v


def identifiers(v):
    for m in v.split(','):
        try:
            identifier(m)
        except Bad:
            raise Bad('module names, comma-separated (a letter or _, then letters, digits, _)') from None
    return v


def decimal(lo, hi, what):
    """A count or a size: ASCII decimal digits, no leading zero, lo .. hi; what: what it counts."""
    def check(v):
        if not re.fullmatch(r'0|[1-9][0-9]*', v, re.ASCII) or not lo <= int(v) <= hi:
            raise Bad('%s, a decimal number from %d to %d (ASCII digits, no leading zero)' % (what, lo, hi))
        return int(v)
    return check


def choice(*words):
    def check(v):
        if v not in words:
            raise Bad(' or '.join(words))
        return v
    return check


def params(v):
    """NAME=INTEGER,NAME=INTEGER (blanks around the parts allowed), as [(NAME, INTEGER)]."""
    out = []
    for item in v.split(','):
        item = item.strip(' ')
        if not item:
            continue
        m = re.fullmatch(r'(%s) *= *(%s)' % (IDENT, INTEGER), item, re.ASCII)
        if not m or abs(int(m.group(2))) >= 1 << 63:
            raise Bad("'%s' is not NAME=INTEGER (a parameter name and a decimal integer, e.g. K=16,F=25)" % item)
        out.append((m.group(1), int(m.group(2))))
    return out


def pattern(regex, what):
    """A value the regular expression matches whole (ASCII only); what: what it must be."""
    def check(v):
        if not re.fullmatch(regex, v, re.ASCII):
            raise Bad(what)
        return v
    return check


instr = pattern(r'[a-z0-9-]+:[A-Za-z0-9._-]+',
                'expected ARCH:INSTRUCTION, e.g. hopper:mma.m16n8k16.f32.f16.f16.f32 (mmaref list names them)')
formats = pattern(r'instr|all|[a-z0-9]+(,[a-z0-9]+)*', 'instr, all, or format names comma-separated (e4m3,e5m2)')
prop = pattern(r'swap:[0-9]+,[0-9]+|rotate:[0-9]+|swap-ab|c-zero|negate|negate-keep-c',
               'swap:I,J, rotate:N, swap-ab, c-zero, negate or negate-keep-c')
cut_pairs = pattern(r'all|across(:[1-9][0-9]?)?', 'all, across or across:N (N from 1 to 99)')


def path_text(v):
    if not re.fullmatch(PATH_CHARS + '+', v, re.ASCII) or v.startswith('-') or len(v) > MAX_LEN:
        raise Bad('{} is not a path of letters, digits and . _ / @ + = , ~ - (not starting with -)')
    return v


# the repository root: the flows run there, so a relative path is read from it
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def regular_file(v):
    path_text(v)
    if not os.path.isfile(v):
        if os.path.exists(v):
            raise Bad('not a regular file {}')
        raise Bad('no such file {}' + ('' if os.path.isabs(v) else
                                       ' (a relative path is read from the repository root, %s)' % ROOT))
    return v


def listed_files(f):
    """The files a .f list names (its +options and // comments aside)."""
    with open(f, errors='replace') as src:
        for line in src:
            for word in line.split('//')[0].split():
                if not word.startswith('+') and not word.startswith('-'):
                    yield word


def source_files(v):
    """Space-separated source files (.sv, .v, .svh, .vh) and .f lists, whose files are checked too."""
    files = [f for f in v.split(' ') if f]
    if not files:
        raise Bad('source files, space-separated')
    for f in files:
        try:
            regular_file(f)
        except Bad as e:
            raise Bad(str(e).replace('{}', "'%s'" % f), part=f) from None
        if not re.search(r'\.(sv|v|svh|vh|f)$', f):
            raise Bad("'%s' is not a .sv, .v, .svh, .vh or .f file" % f, part=f)
        if f.endswith('.f'):
            for s in listed_files(f):
                try:
                    regular_file(s)
                except Bad as e:
                    raise Bad('%s lists a file: %s' % (f, str(e).replace('{}', "'%s'" % s)), part=s) from None
    return v


def out_dir(v):
    try:
        path_text(v)
    except Bad as e:
        raise Bad(str(e).replace('{} is ', ''))
    if os.path.exists(v) and not os.path.isdir(v):
        raise Bad('exists and is not a directory')
    return v


def plusargs(v):
    for p in filter(None, v.split(' ')):
        if not re.fullmatch(r'\+%s(=[A-Za-z0-9._:,/=+-]*)?' % IDENT, p, re.ASCII):
            raise Bad("'%s' is not +NAME or +NAME=VALUE (VALUE of letters, digits and . _ : , / = + -)" % p)
    return v


def one_file(v):
    """A regular file, the message naming it."""
    try:
        return regular_file(v)
    except Bad as e:
        raise Bad(str(e).replace('{}', "'%s'" % v), part=v) from None


def vectors_file(v):
    one_file(v)
    with open(v, 'rb') as f:
        if not any(line.split(b'#')[0].strip() for line in f):
            raise Bad('holds no vector (a file of `mmaref batch` lines)')
    return v


def assume(v):
    bare = re.sub(r'\$(signed|unsigned)\b', '', v)
    if not re.fullmatch(ASSUME_CHARS + '+', bare, re.ASCII) or len(v) > MAX_LEN:
        raise Bad("one SV expression over the vector's fields: letters, digits, blanks and ( ) { } & | ! ~ ^ < > "
                  "= + * / % ? : ' [ ] . , - and $signed, $unsigned (no ; quote or backquote)")
    return v


COMMON = {
    'DUT': source_files, 'DUT_TOP': identifier, 'INSTR': instr, 'PARAMS': params,
    'DUT_AW': decimal(1, 64, "the unit's lane width in bits"),
}
FLOWS = {
    'verify': dict(COMMON, COUNT=decimal(1, 10 ** 10, 'vectors'),
                   SEED=decimal(0, (1 << 63) - 1, "the stimulus stream's seed"), BP=choice('0', '1'),
                   PLUSARGS=plusargs, VECTORS=vectors_file, VERIFY_DIR=out_dir,
                   VERIFY_BUILD_ONLY=choice('0', '1')),
    'prove': dict(COMMON, REF=identifier, REF_PARAMS=params, REF_AW=decimal(1, 64, "the reference's lane width in bits"), REF_FILES=source_files,
                  PROPERTY=prop, FORMATS=formats, BOUND=decimal(2, 200, 'cycles from reset to the check'),
                  TIMEOUT=decimal(1, 7 * 86400, 'seconds for the solver'),
                  INIT=choice('zero', 'any'), REPLAY=choice('0', '1'), FRONTEND=choice('verilator', 'yosys'),
                  FE_CYCLES=decimal(1, 10 ** 7, "cycles of the front end's check"), CUT=identifiers, CUT_PAIRS=cut_pairs, ASSUME=assume,
                  CASES=one_file, JOBS=decimal(1, 1024, 'cases run at once'), PROVE_DIR=out_dir),
}


def shown(v):
    """The value as a message shows it: control characters escaped, so the message stays one line."""
    return v.encode('unicode_escape').decode('ascii') if not v.isprintable() else v


def check(flow, env):
    """None, or the first bad variable's one-line message."""
    for var, grammar in FLOWS[flow].items():
        v = env.get(var, '')
        if v == '' or (flow == 'prove' and var == 'REF' and v == '-'):
            continue
        try:
            grammar(v)
        except Bad as e:
            if e.part is not None:
                return shown('%s: %s' % (var, e))
            return shown('%s=%s: %s' % (var, v, e))
        except (OSError, UnicodeError) as e:
            return shown('%s=%s: cannot be read (%s)' % (var, v, e.strerror if isinstance(e, OSError) else e))
    return None


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in FLOWS:
        print('usage: flow_values.py verify|prove', file=sys.stderr)
        sys.exit(2)
    msg = check(sys.argv[1], os.environ)
    if msg:
        print('%s: %s' % (sys.argv[1], msg), file=sys.stderr)
        sys.exit(2)


if __name__ == '__main__':
    main()
