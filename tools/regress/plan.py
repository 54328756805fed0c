#!/usr/bin/env python3
"""Writes a regression plan: the work of a sharded regression, one shard a line (make regress-plan).

  # comments (the sizes the plan was made with)
  KIND CONFIG SEED FIRST COUNT
    oracle  ARCH:INSTRUCTION   the model against tests/oracle's exact reference (gen.py | mmaref batch)
    rtl     IDX:ARCH:NAME      the Verilated unit against the model (tb/run_cosim.sh), configuration IDX
                               of build/rtl/gen/configs.txt, whose label ARCH:NAME the shard checks
    synth   UNIT:TOP           Yosys synthesis of unit UNIT of build/rtl/gen/units.txt (synth/synth_unit.sh,
                               as make synth runs it); SEED 0, FIRST 0, COUNT 1 (one unit)
    prove   ROW                one row of make prove-all's table (tests/prove/all.sh, PROVE_ROW=ROW): a
                               formal proof, for all inputs; SEED 0, FIRST 0, COUNT 1
SEED is the seed of the configuration's one stream (oracle: tests/oracle/check_all.py's per-configuration
seed; rtl: the bench's +seed); the shard checks vectors [FIRST, FIRST + COUNT) of it.  Each configuration's
VECTORS_PER_CONFIG vectors are cut into shards of SHARD_VECTORS (the last one shorter), so shard k of a
configuration checks vectors [k*S, (k+1)*S) whatever the number of shards.  SHARD_VECTORS may give sizes
by configuration: 'REGEX=N,...,N', the first REGEX found in KIND:CONFIG wins (shard_rules).

  python3 tools/regress/plan.py --out PLAN [--kinds oracle,rtl] [--vectors N] [--shard N] [--seed S]
      [--only REGEX] [--cfg IDX,..] [--mutants] [--mmaref build/mmaref] [--configs configs.txt]
"""
import argparse
import os
import re
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
KINDS = ('oracle', 'rtl', 'synth', 'prove')


def fail(msg):
    raise SystemExit(f'regress-plan: {msg}')


def count_arg(text, what):
    """A vector count: 1000000, 1e6, 1M, 1G (decimal)."""
    m = re.fullmatch(r'\s*(\d+(?:\.\d+)?)(?:e(\d+))?\s*([kKMG]?)\s*', str(text))
    if not m:
        fail(f"{what} wants a vector count (1000000, 1e6, 1M), not '{text}'")
    n = float(m.group(1)) * 10 ** int(m.group(2) or 0) * {'': 1, 'k': 1e3, 'K': 1e3, 'M': 1e6, 'G': 1e9}[m.group(3)]
    if n < 1 or n != int(n):
        fail(f"{what} must be a positive whole number of vectors, not '{text}'")
    return int(n)


def shard_rules(text):
    """SHARD_VECTORS: 'N' for every configuration, or rules 'REGEX=N,...,N' tried in order on
    'KIND:ARCH:NAME' (rtl: 'rtl:IDX:ARCH:NAME'), the first that matches giving the shard size of that
    configuration, a bare N the rest: e.g. 'rtl:.*f64=20M,rtl:=100M,10M'."""
    rules = []
    for part in str(text).split(','):
        pat, eq, n = part.rpartition('=')
        if eq:
            try:
                rx = re.compile(pat)
            except re.error as e:
                fail(f"SHARD_VECTORS rule '{part}': '{pat}' is not a regular expression ({e})")
        rules.append((rx if eq else None, count_arg(n, 'SHARD_VECTORS')))
    if rules[-1][0] is not None:
        fail(f"SHARD_VECTORS '{text}' needs a last bare size for the configurations no rule matches")
    return rules


def shard_size(rules, what):
    return next(n for rx, n in rules if rx is None or rx.search(what))


def oracle_configs(mmaref, only):
    """[(label, seed offset)]: check_all.py's configurations (every distinct arithmetic, on each
    architecture that has it), in its order."""
    sys.path.insert(0, os.path.join(ROOT, 'tests', 'oracle'))
    import check_all  # noqa: E402
    import gen  # noqa: E402
    configs, errors = check_all.configurations(gen.load_instructions(mmaref=mmaref))
    if errors:
        fail(f'the oracle has no parameters for {len(errors)} instructions ({errors[0]})')
    out = []
    for x, _ in configs:
        label = f"{x['arch']}:{x['name']}"
        if only and not re.search(only, label):
            continue
        out.append((label, zlib.crc32(f"{x['arch']} {x['name']}".encode()) % 1000003))
    return out


def rtl_configs(path, only, cfgs, mutants):
    """[(IDX:ARCH:NAME)] of configs.txt: the checked configurations, and the mutants if asked."""
    if not os.path.exists(path):
        fail(f'{path} not found (make {os.path.relpath(path, ROOT)} or make rtl)')
    out = []
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        f = line.split()
        idx, kind, label = f[0], f[2], f'{f[3]}:{f[4]}'
        if cfgs is not None and int(idx) not in cfgs:
            continue
        if only and not re.search(only, label):
            continue
        if kind != 'check' and not mutants:
            continue
        out.append(f'{idx}:{label}')
    return out


def synth_units(path, units):
    """[UNIT:TOP] of units.txt: every unit but the test mutants (as make synth), or the ones asked for."""
    if not os.path.exists(path):
        fail(f'{path} not found (make {os.path.relpath(path, ROOT)} or make rtl)')
    out = []
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        f = line.split()
        if (units is None and f[9] == '0') or (units is not None and int(f[0]) in units):
            out.append(f'{f[0]}:{f[10]}')
    return out


def prove_rows(only):
    """[ROW]: the rows of make prove-all's table (tests/prove/all.sh lists them), in its order."""
    p = subprocess.run(['bash', os.path.join(ROOT, 'tests', 'prove', 'all.sh')], env=dict(os.environ, PROVE_LIST='1'),
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        fail(f"tests/prove/all.sh cannot list its rows: {(p.stdout.strip().splitlines() or ['?'])[-1]}")
    return [x.split()[1] for x in p.stdout.splitlines() if len(x.split()) == 2 and (not only or re.search(only, x.split()[1]))]


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--out', required=True)
    p.add_argument('--kinds', default='oracle,rtl')
    p.add_argument('--vectors', default=os.environ.get('VECTORS_PER_CONFIG', '1000000'))
    p.add_argument('--shard', default=os.environ.get('SHARD_VECTORS', '100000'))
    p.add_argument('--seed', default='1')
    p.add_argument('--only', default='', help='configurations whose ARCH:NAME matches this regex')
    p.add_argument('--cfg', default='', help='rtl: only these configs.txt indexes (N,N,...)')
    p.add_argument('--mutants', action='store_true', help='rtl: the mutant configurations too (they must fail)')
    p.add_argument('--units', default='', help='synth: only these units.txt indexes (N,N,...)')
    p.add_argument('--mmaref', default=os.environ.get('MMAREF', os.path.join(ROOT, 'build', 'mmaref')))
    p.add_argument('--configs', default=os.path.join(ROOT, 'build', 'rtl', 'gen', 'configs.txt'))
    a = p.parse_args()
    kinds = [k for k in a.kinds.split(',') if k]
    for k in kinds:
        if k not in KINDS:
            fail(f"unknown kind '{k}' in REGRESS_KINDS (one of {', '.join(KINDS)})")
    if not kinds:
        fail('REGRESS_KINDS names no kind')
    n, rules = count_arg(a.vectors, 'VECTORS_PER_CONFIG'), shard_rules(a.shard)
    if not re.fullmatch(r'\d+', a.seed):
        fail(f"the seed must be a whole number, not '{a.seed}'")
    seed = int(a.seed)
    try:
        re.compile(a.only)
    except re.error as e:
        fail(f"--only '{a.only}' is not a regular expression ({e})")
    if a.cfg and not re.fullmatch(r'\d+(,\d+)*', a.cfg):
        fail(f"--cfg wants N or N,N,..., not '{a.cfg}'")
    cfgs = {int(x) for x in a.cfg.split(',')} if a.cfg else None
    if a.units and not re.fullmatch(r'\d+(,\d+)*', a.units):
        fail(f"--units wants N or N,N,..., not '{a.units}'")
    units = {int(x) for x in a.units.split(',')} if a.units else None
    lines = []
    for kind in kinds:
        if kind == 'oracle':
            for label, off in oracle_configs(a.mmaref, a.only):
                s = shard_size(rules, f'oracle:{label}')
                lines += [f'oracle {label} {seed * 1000003 + off} {f} {min(s, n - f)}' for f in range(0, n, s)]
        elif kind == 'prove':
            lines += [f'prove {row} 0 0 1' for row in prove_rows(a.only)]
        elif kind == 'synth':
            lines += [f'synth {label} 0 0 1' for label in
                      synth_units(os.path.join(os.path.dirname(a.configs), 'units.txt'), units)]
        else:
            for label in rtl_configs(a.configs, a.only, cfgs, a.mutants):
                s = shard_size(rules, f'rtl:{label}')
                lines += [f'rtl {label} {seed} {f} {min(s, n - f)}' for f in range(0, n, s)]
    if not lines:
        fail('no configuration matches (REGRESS_ONLY / REGRESS_CFG)')
    head = [f'# mmaref regression plan: kinds {",".join(kinds)}, {n} vectors per configuration in shards of {a.shard}, '
            f'seed {seed}' + (f", only '{a.only}'" if a.only else '') + (f', cfg {a.cfg}' if a.cfg else '')
            + (', with mutants' if a.mutants else '') + (f', units {a.units}' if a.units else ''),
            '# kind config seed first count   (tools/regress/plan.py; shard i is the i-th line below, from 0)']
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    tmp = f'{a.out}.tmp.{os.getpid()}'
    with open(tmp, 'w') as f:
        f.write('\n'.join(head + lines) + '\n')
    os.replace(tmp, a.out)
    nconf = len({tuple(x.split()[:2]) for x in lines})
    nsynth = sum(x.startswith('synth ') for x in lines)
    nprove = sum(x.startswith('prove ') for x in lines)
    print(f'{a.out}: {len(lines)} shards over {nconf} configurations ({", ".join(kinds)}), '
          f'{sum(int(x.split()[4]) for x in lines if x.split()[0] in ("oracle", "rtl"))} vectors'
          + (f', {nsynth} synthesis units' if nsynth else '') + (f', {nprove} proofs' if nprove else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
