"""A plan file and the results folder that belongs to it (tools/regress/shard.py, merge.py).

The folder holds one plan's results: the first shard or scheduler to use it writes PLAN.sha256 there
(the plan's SHA-256 and path, created whole or not at all); afterwards a plan with another hash is refused
with one line: the same path means the plan was edited mid-run, another path another plan's results.
"""
import hashlib
import os
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
    real = os.path.realpath(plan_path)
    try:
        with open(tmp, 'w') as f:
            f.write(f'{digest} {real}\n')
        os.link(tmp, os.path.join(folder, STAMP))       # fails if another shard claimed it first
    except FileExistsError:
        pass
    except OSError as e:
        raise PlanError(f'results folder {folder} is not writable ({e.strerror})')
    finally:
        os.unlink(tmp)
    have, _, where = open(os.path.join(folder, STAMP)).read().strip().partition(' ')
    if have != digest:
        if where == real:
            raise PlanError(f'plan {plan_path} was edited mid-run: {folder} holds results of its earlier '
                            f'version (sha256 {have[:12]}, now {digest[:12]}); restore it, or use a new '
                            f'results folder')
        raise PlanError(f"results folder {folder} holds another plan's results ({where}, sha256 {have[:12]}; "
                        f'this plan: {digest[:12]}); use a new results folder')


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
