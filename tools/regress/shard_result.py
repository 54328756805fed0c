"""What a shard result must be to count (tools/regress/merge.py, todo.py and shard.py all ask here).

A result file claims to be one shard of one plan: the plan's SHA-256, the shard's index and its line
(kind, configuration, seed, first vector, count).  It counts only when it is whole JSON with every field
of the type the merge reads, every claim matches the plan, and its figures agree with its verdict.
Otherwise it is refused with one line saying why: the merge counts it as missing, and the next run of
the plan runs that shard again (writing a new result over it).
"""
import json
import math

VECTOR_KINDS = ('oracle', 'rtl')        # shards that check COUNT vectors; synth and prove shards check none
VERDICTS = ('pass', 'FAIL', 'ERROR')


class Refused(Exception):
    """A one-line reason a result file does not count."""


def _int(v):
    return type(v) is int and v >= 0   # not bool, which json gives only for true/false


def _num(v):
    return type(v) in (int, float) and math.isfinite(v) and v >= 0


def _str(v):
    return type(v) is str


def _strs(v):
    return type(v) is list and all(_str(x) for x in v)


def _counts(v):
    """stimulus: vectors per stimulus kind."""
    return type(v) is dict and all(_int(n) for n in v.values())


def _bins(v):
    """bins: [vectors, mismatches] per coverage bin."""
    return type(v) is dict and all(type(b) is list and len(b) == 2 and all(_int(n) for n in b) for b in v.values())


def _texts(v):
    """synth's row, prove's verdict: text fields."""
    return type(v) is dict and all(_str(x) for x in v.values())


REQUIRED = {'plan': (_str, 'text'), 'shard': (_int, 'a whole number'), 'kind': (_str, 'text'),
            'config': (_str, 'text'), 'seed': (_int, 'a whole number'), 'first': (_int, 'a whole number'),
            'count': (_int, 'a whole number'), 'vectors': (_int, 'a whole number'),
            'mismatches': (_int, 'a whole number'), 'verdict': (_str, 'text'), 'seconds': (_num, 'a number of seconds'),
            'host': (_str, 'text')}
OPTIONAL = {'cpu_seconds': (_num, 'a number of seconds'), 'max_rss_mb': (_num, 'a number of megabytes'),
            'mutant': (lambda v: type(v) is bool, 'true or false'), 'stimulus': (_counts, 'counts by name'),
            'bins': (_bins, '[vectors, mismatches] by name'), 'holes': (_strs, 'a list of text'),
            'first_mismatches': (_strs, 'a list of text'), 'first_mismatch_index': (_int, 'a whole number'),
            'replay': (_str, 'text'), 'error': (_str, 'text'), 'synth': (_texts, 'text by name'),
            'prove': (_texts, 'text by name')}
# the synthesis row's fields the report shows
SYNTH_FIELDS = ('status', 'cells', 'area_um2', 'flops', 'delay_ps', 'depth')
# the plan line's fields, as a refusal names them
CLAIMS = (('kind', 'kind'), ('config', 'configuration'), ('seed', 'seed'), ('first', 'first vector'),
          ('count', 'count'))


def show(v):
    """A value from the file, on one line and short."""
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + '...'


def parse(data):
    """The result object of a file's bytes, or Refused."""
    try:
        r = json.loads(data.decode('utf-8'))
    except UnicodeDecodeError:
        raise Refused('is not UTF-8 text (corrupt)')
    except json.JSONDecodeError as e:
        raise Refused(f'is not whole JSON (truncated or corrupt: {e.msg}, line {e.lineno} column {e.colno})')
    except RecursionError:
        raise Refused('holds JSON nested too deep to be a result')
    if type(r) is not dict:
        raise Refused(f'holds JSON {type(r).__name__}, not a result object')
    return r


def check_types(r):
    for name, (ok, what) in REQUIRED.items():
        if name not in r:
            raise Refused(f"has no field '{name}'")
        if not ok(r[name]):
            raise Refused(f"field '{name}' is {show(r[name])}, not {what}")
    for name, (ok, what) in OPTIONAL.items():
        if name in r and not ok(r[name]):
            raise Refused(f"field '{name}' is {show(r[name])}, not {what}")


def check_claims(r, index, line, digest):
    """The result is shard index of the plan (digest), whose line is line."""
    if r['plan'] != digest:
        raise Refused(f"is a result of another plan (sha256 {r['plan'][:12]}; this plan: {digest[:12]})")
    if r['shard'] != index:
        raise Refused(f"is shard {r['shard']}'s result, not shard {index}'s")
    for (name, what), want in zip(CLAIMS, line):
        if r[name] != want:
            raise Refused(f'claims {what} {show(r[name])}, where shard {index} of the plan has {show(want)}')


def check_figures(r):
    """The figures agree with the verdict: a pass checked every vector of its shard and found no mismatch;
    a FAIL found one or stopped short; no shard checks more than its count."""
    kind, verdict, vectors, mismatches, count = r['kind'], r['verdict'], r['vectors'], r['mismatches'], r['count']
    if verdict not in VERDICTS:
        raise Refused(f"verdict {show(verdict)} is not pass, FAIL or ERROR")
    due = count if kind in VECTOR_KINDS else 0
    if vectors > due:
        raise Refused(f'claims {vectors} vectors checked, more than the {due} of its shard')
    if verdict == 'pass' and mismatches:
        raise Refused(f'says pass with {mismatches} mismatches')
    if verdict == 'pass' and vectors != due:
        raise Refused(f'says pass with {vectors} of its {due} vectors checked')
    if verdict == 'FAIL' and kind in VECTOR_KINDS and not mismatches and vectors == due:
        raise Refused(f'says FAIL with no mismatch in all its {due} vectors')
    if kind not in VECTOR_KINDS and mismatches:
        raise Refused(f'claims {mismatches} mismatches; a {kind} shard checks no vectors')
    at = r.get('first_mismatch_index')
    if at is not None and not r['first'] <= at < r['first'] + count:
        raise Refused(f"names its first mismatch at vector {at}, outside its vectors [{r['first']}, {r['first'] + count})")
    if kind == 'synth':
        row = r.get('synth')
        if row is None or any(k not in row for k in SYNTH_FIELDS):
            raise Refused(f"lacks its synthesis row ({', '.join(SYNTH_FIELDS)})")
        if verdict == 'pass' and row['status'] != 'ok':
            raise Refused(f"says pass with synthesis status {show(row['status'])}")
    if kind == 'prove' and verdict == 'pass' and 'verdict' not in r.get('prove', {}):
        raise Refused("says pass without the proof's verdict")


def load(path, index, line, digest):
    """The result in path if it counts as shard index (plan line line) of the plan digest; Refused if
    not; FileNotFoundError if there is none."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except FileNotFoundError:
        raise
    except OSError as e:
        raise Refused(f'cannot be read ({e.strerror})')
    r = parse(data)
    check_types(r)
    check_claims(r, index, line, digest)
    check_figures(r)
    return r
