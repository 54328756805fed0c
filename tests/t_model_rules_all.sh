# The rules' margin on every distinct configuration of the table (tools/rules_margin.py --all): each rule
# an instruction has caught by 1,000 or more of the 100,000 vectors of a default run (seed 1), the floor
# the coverage model holds a make verify run to.
# runtime: 240 s (a clean clone on 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
out=$(python3 tools/rules_margin.py --mmaref "$MMAREF" --all --floor 1000 2>&1); rc=$?
configs=$(grep -vc '^BELOW' <<<"$out")
if [[ $rc == 0 && $configs -ge 200 && $out != *BELOW* ]]; then
  ok "rules: on all $configs distinct configurations every rule is caught by 1,000 of 100,000 vectors or more"
else not_ok "rules: all configurations: rc=$rc, $(grep -c '^BELOW' <<<"$out") below the floor: $(grep -m5 '^BELOW' <<<"$out" | tr '\n' ' ')"; fi
