# The rules' margin on every distinct configuration of the table (tools/rules_margin.py --all): each rule
# an instruction has caught by 1,000 or more of the 100,000 vectors of a default run (seed 1), the floor
# the coverage model holds a make verify run to; and every rule caught by a directed vector (the probe's
# battery) but zero-operand-exp on the Blackwell instructions docs/rules.md names.
# runtime: 240 s (a clean clone on 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
out=$(python3 tools/rules_margin.py --mmaref "$MMAREF" --all --floor 1000 2>&1); rc=$?
configs=$(grep -vc '^BELOW' <<<"$out")
if [[ $rc == 0 && $configs -ge 200 && $out != *BELOW* ]]; then
  ok "rules: on all $configs distinct configurations every rule is caught by 1,000 of 100,000 vectors or more"
else not_ok "rules: all configurations: rc=$rc, $(grep -c '^BELOW' <<<"$out") below the floor: $(grep -m5 '^BELOW' <<<"$out" | tr '\n' ' ')"; fi

# the directed vectors: rules no directed vector of a configuration catches
gaps=$("$MMAREF" list --json | python3 -c '
import json, subprocess, sys
m, seen = sys.argv[1], set()
for e in json.load(sys.stdin):
    key = json.dumps([e[f] for f in ("a", "b", "c", "d", "scale", "block_size", "k", "c_last", "schedule")], sort_keys=True)
    if key in seen:
        continue
    seen.add(key)
    g = subprocess.run([m, "gen", e["arch"], e["name"], "--kind", "directed"], capture_output=True).stdout
    out = subprocess.run([m, "rules", e["arch"], e["name"], "--catch"], input=g, capture_output=True).stdout.decode()
    for line in out.splitlines():
        if not line.startswith("#") and line.split()[1] == "0":
            print(e["arch"] + ":" + e["name"], line.split()[0])' "$MMAREF")
others=$(grep -Ev '^(rtx-)?blackwell:.* zero-operand-exp$' <<<"$gaps" | grep .)
if [[ -z $others ]]; then
  ok "rules: every rule of every configuration caught by a directed vector but zero-operand-exp on $(grep -c . <<<"$gaps") Blackwell and RTX Blackwell instructions"
else not_ok "rules: rules no directed vector catches: $(head -5 <<<"$others" | tr '\n' ';')"; fi
