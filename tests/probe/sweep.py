"""Probe one instruction of every distinct configuration of the table (formats, K, scales, schedule:
derived from `mmaref list --json`) and check that `mmaref probe ARCH INSTR` reports exactly the table's
schedule, reached by the search itself, no field in doubt but those no input can show, and a confirmed
match.  Usage: sweep.py MMAREF CONFIRM.  Prints one ok / not ok line each."""
import concurrent.futures, json, subprocess, sys, time

mmaref, confirm = sys.argv[1], sys.argv[2]
table = json.loads(subprocess.run([mmaref, "list", "--json"], check=True, capture_output=True, text=True).stdout)
# The probe's search space has no runs of products, f16 operands nor C added last (Hopper's FP8 mma.sync):
# configurations that use them are listed, not probed.
UNSEARCHED = ("k_run", "ab_f16")
configs, unsearched = {}, {}
for e in table:
    key = (e["a"], e["b"], e["c"], e["d"], e["k"], e["scale"], e["block_size"], json.dumps(e["schedule"]))
    if e["c_last"] or any(p[f] for p in e["schedule"] for f in UNSEARCHED):
        unsearched.setdefault(key, e)
        continue
    configs.setdefault(key, e)
if unsearched:
    ex = next(iter(unsearched.values()))
    print("# not probed: %d configurations whose schedule uses a field the probe does not search (%s, c_last) "
          "e.g. %s %s" % (len(unsearched), ", ".join(UNSEARCHED), ex["arch"], ex["name"]))
def probe(e):
    return e, subprocess.run([mmaref, "probe", e["arch"], e["name"], "--confirm", confirm], capture_output=True,
                             text=True)

bad, queries, t0 = 0, [], time.time()
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:  # CI has two cores
    results = list(pool.map(probe, configs.values()))
for e, r in results:
    lines = r.stdout.splitlines()
    sched = [l for l in lines if l.startswith("schedule: ")]
    got = None
    if sched:
        name, _, js = sched[0][len("schedule: "):].partition(" ")
        got = (name, json.loads(js))
    q = [l for l in lines if l.startswith("device queries: ")]
    if q:
        queries.append(int(q[0].split()[2]))
    # the battery must leave no doubt beyond what no input can show: flushing in a kind that does not
    # flush (all but GPS), the pass count of a sequential kind (SFMA, GPS), and a zero term's exponent
    # where no zero term can set e_max above a term it would drop (an f16 C: its smallest value, 2^-24,
    # lies above every zero product's -126 + e_b; FP4/FP6 with F = 25: a zero product's e_max of at most
    # -124 keeps every f32 C exact); there the schedule found may differ from the table's in it alone.
    # Where the rule shows (Hopper's FP8 and f16 wgmma, f32 C) the battery decides it: no doubt, exact
    # match (and t_cli_probe.sh checks the finding's query)
    algo = e["schedule"][0]["algo"]
    zero_moot = any(l.startswith("  zero_term_exp =") and "(no query tells" in l for l in lines)
    doubts = [l.strip() for l in lines if "(no query tells" in l and not
              ((l.startswith("  flush =") and algo != "GPS") or (l.startswith("  passes =") and algo in ("SFMA", "GPS"))
               or (l.startswith("  zero_term_exp =") and zero_moot))]
    def sans_zero(s):
        return [dict(p, zero_term_exp=0) for p in s] if zero_moot else s
    ok = (not doubts and r.returncode == 0 and got is not None and got[0] == e["algo"] and
          sans_zero(got[1]) == sans_zero(e["schedule"]) and "verdict: matches the table" in r.stdout
          and "  the schedule found is one of them" in lines)
    if not ok:
        bad += 1
        print("not ok - probe %s %s: rc=%d, reported %s, table %s %s %s %s" % (e["arch"], e["name"], r.returncode, got,
              e["algo"], json.dumps(e["schedule"]), doubts, r.stderr.strip()[:200]))
print("%s - probe recovers the table's schedule for %d of %d distinct configurations (%d instructions; %d..%d "
      "device queries each, %s confirmation vectors included; %.1f s)" % (
          "ok" if bad == 0 else "not ok", len(configs) - bad, len(configs), len(table), min(queries or [0]),
          max(queries or [0]), confirm, time.time() - t0))
sys.exit(1 if bad else 0)
