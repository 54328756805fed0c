# tests/run.sh's tiers, on a copy of it beside three made-up suites: make test runs the suites of tier
# test and names the ones of tier regress (header `# tier: regress`) at its end; TEST_TIER=regress runs
# only those, TEST_TIER=all both, a name picks a suite of either tier, and a wrong TEST_TIER is one line on
# stderr and exit 2.  And every suite's `# runtime:` header is one tests/run.sh reads (`N s`): a header
# it cannot read counts as 0 and starts that suite last.
# runtime: 7 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests"
cp tests/run.sh "$tmp/tests/"
printf '# runtime: 1 s\necho "ok - quick one"\n' >"$tmp/tests/t_a_quick.sh"
printf '# runtime: 2 s\necho "ok - quick two"\necho "ok - quick three"\n' >"$tmp/tests/t_b_quick.sh"
printf '# runtime: 9 s\n# tier: regress (too long)\necho "ok - long one"\n' >"$tmp/tests/t_c_long.sh"

run() { (cd "$tmp" && env "$@" bash tests/run.sh "${ARGS[@]}" 2>&1); }
ARGS=()
out=$(run TEST_JOBS=2); rc=$?
if [[ $rc -eq 0 && $(tail -1 <<<"$out") == "3 passed, 0 failed" && $out != *"== t_c_long"* &&
      $out == *"# make regress runs the suites too long for make test: t_c_long"* ]]; then
  ok "tiers: make test's run: the two suites of tier test (3 checks), t_c_long named for make regress"
else not_ok "tiers: the default run: rc $rc: $(tr '\n' '|' <<<"$out")"; fi
out=$(run TEST_TIER=regress); rc=$?
if [[ $rc -eq 0 && $(tail -1 <<<"$out") == "1 passed, 0 failed" && $out == *"== t_c_long"* &&
      $out == *"# not run (TEST_TIER=regress): t_a_quick t_b_quick"* ]]; then
  ok "tiers: TEST_TIER=regress runs t_c_long alone"
else not_ok "tiers: TEST_TIER=regress: rc $rc: $(tr '\n' '|' <<<"$out")"; fi
out=$(run TEST_TIER=all); rc=$?
if [[ $rc -eq 0 && $(tail -1 <<<"$out") == "4 passed, 0 failed" && $out != *"not run"* && $out != *"make regress runs"* ]]
then ok "tiers: TEST_TIER=all runs all three suites"
else not_ok "tiers: TEST_TIER=all: rc $rc: $(tr '\n' '|' <<<"$out")"; fi
ARGS=(t_c_long)
out=$(run TEST_JOBS=1); rc=$?
if [[ $rc -eq 0 && $(tail -1 <<<"$out") == "1 passed, 0 failed" && $out == *"== t_c_long"* ]]; then
  ok "tiers: tests/run.sh t_c_long runs the suite of tier regress it names"
else not_ok "tiers: tests/run.sh t_c_long: rc $rc: $(tr '\n' '|' <<<"$out")"; fi
ARGS=()
out=$(run TEST_TIER=quick); rc=$?
if [[ $rc -eq 2 && $(wc -l <<<"$out") -eq 1 && $out == *"TEST_TIER must be test, regress or all, not 'quick'"* ]]; then
  ok "tiers: TEST_TIER=quick: $out (exit 2)"
else not_ok "tiers: TEST_TIER=quick: rc $rc: $(tr '\n' '|' <<<"$out")"; fi

# every runtime header is `# runtime: N s...` (the form tests/run.sh's declared() reads)
bad=$(grep -l '^# runtime:' tests/t_*.sh | while read -r f; do
  grep -m1 '^# runtime:' "$f" | grep -qE '^# runtime: [0-9]+ s' || echo "$f"; done)
if [[ -z $bad ]]; then ok "every suite's runtime header reads '# runtime: N s' ($(grep -l '^# runtime:' tests/t_*.sh | wc -l) suites declare one)"
else not_ok "runtime headers tests/run.sh cannot read (the suite would start last): $bad"; fi
exit 0
