"""A plan file and the results folder that belongs to it (tools/regress/shard.py, merge.py).

The folder holds one plan's results: the first shard or scheduler to use it writes PLAN.sha256 there
(the plan's SHA-256 and path, created whole or not at all); afterwards a plan with another hash is refused
with one line: the same path means the plan was edited mid-run or since, another path another plan's
results.  Each result in it is checked on its own too (shard_result.py).
"""
import hashlib
import os
import re
import tempfile

STAMP = 'PLAN.sha256'


class PlanError(Exception):
    """A one-line reason the plan or its results folder cannot be used."""


def read_plan(path):
    """(sha256 hex, [(kind, config, seed, first, count)]) of a plan file."""
    try:
        data = open(path, 'rb').read()
    except OSError as e:
        raise PlanError(f'cannot read plan {path}: {e.strerror} (make regress-plan writes it)')
    shards = []
    for n, line in enumerate(data.decode('utf-8', 'replace').splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split()
        if len(f) != 5 or f[0] not in ('oracle', 'rtl', 'synth', 'prove') or not all(x.isdigit() for x in f[2:]):
            raise PlanError(f"plan {path} line {n}: want 'KIND CONFIG SEED FIRST COUNT', got '{line.strip()}'")
        shards.append((f[0], f[1], int(f[2]), int(f[3]), int(f[4])))
    if not shards:
        raise PlanError(f'plan {path} holds no shard')
    return hashlib.sha256(data).hexdigest(), shards


def read_stamp(folder):
    """(sha256, plan path) of the folder's PLAN.sha256, or None where the folder has none."""
    path = os.path.join(folder, STAMP)
    try:
        text = open(path, encoding='utf-8', errors='replace').read()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise PlanError(f'cannot read {path} ({e.strerror})')
    have, _, where = text.strip().partition(' ')
    if not re.fullmatch(r'[0-9a-f]{64}', have):
        raise PlanError(f'{path} is not a plan stamp (want "SHA256 PLAN-PATH"); {fresh_folder(folder)}')
    return have, where


def fresh_folder(folder):
    """How to start afresh: the one remedy of every refused folder."""
    return f'give the run a new results folder (make regress-run REGRESS_RESULTS=NEW), or remove {folder}'


def check_stamp(folder, plan_path, digest, stamp):
    """Raises PlanError unless the stamp (read_stamp) is the plan's (digest)."""
    have, where = stamp
    if have == digest:
        return
    if where == os.path.realpath(plan_path):
        raise PlanError(f'plan {plan_path} was edited mid-run or since: {folder} holds results of its earlier '
                        f'version (sha256 {have[:12]}, now {digest[:12]}); restore it, or {fresh_folder(folder)}')
    raise PlanError(f"results folder {folder} holds another plan's results ({where}, sha256 {have[:12]}; "
                    f'this plan: {digest[:12]}); {fresh_folder(folder)}')


def claim(folder, plan_path, digest):
    """Makes folder the results folder of the plan (digest), or raises PlanError."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise PlanError(f'results folder {folder} is not a folder')
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix='.probe.', dir=folder)
        os.close(fd)
    except OSError as e:
        raise PlanError(f'results folder {folder} is not writable ({e.strerror})')
    try:
        with open(tmp, 'w') as f:
            f.write(f'{digest} {os.path.realpath(plan_path)}\n')
        os.link(tmp, os.path.join(folder, STAMP))       # fails if another shard claimed it first
    except FileExistsError:
        pass
    except OSError as e:
        raise PlanError(f'results folder {folder} is not writable ({e.strerror})')
    finally:
        os.unlink(tmp)
    check_stamp(folder, plan_path, digest, read_stamp(folder))


def result_path(folder, index, ext='json'):
    return os.path.join(folder, f'shard-{index:06d}.{ext}')


def write_atomic(path, text):
    """path's content, written whole or not at all (a temporary file in its folder, renamed)."""
    fd, tmp = tempfile.mkstemp(prefix='.' + os.path.basename(path) + '.', dir=os.path.dirname(path) or '.')
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)                  # as open() would (mkstemp makes it 0600)
        with os.fdopen(fd, 'w') as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
