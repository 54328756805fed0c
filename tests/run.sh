#!/usr/bin/env bash
# Runs every tests/t_*.sh suite.  A suite prints one line per check: "ok - what" or "not ok - what"
# (anything else is passed through as commentary).  A suite that exits non-zero without reporting a
# failure counts as one failure.  Ends with "N passed, M failed"; exits 1 on any failure.
# usage: tests/run.sh [SUBSTRING]   (only the suites whose name contains it)
# TEST_JOBS (default 2): how many suites run at once.  The RTL suites (t_rtl_*) share the Verilated
# model and its build directory, so they run one after another, after the others; every suite's report
# is printed whole, in name order, as it completes.
set -u
cd "$(dirname "$0")/.."
export MMAREF=${MMAREF:-$PWD/build/mmaref}
only=${1:-}
jobs=${TEST_JOBS:-2}
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

suites=()
for suite in tests/t_*.sh; do
  [[ -n $only && $suite != *"$only"* ]] && continue
  suites+=("$suite")
done

# one suite: its output and a summary line "PASS FAIL SECONDS" into $results/NAME.{out,sum}
run_suite() {
  local suite=$1 name out rc p f start
  name=$(basename "$suite" .sh)
  start=$(date +%s)
  out=$(bash "$suite" 2>&1); rc=$?
  p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^not ok ' <<<"$out")
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    out+=$'\n'"not ok - $name exited with status $rc"
    f=1
  fi
  printf '%s\n' "$out" >"$results/$name.out"
  echo "$p $f $(( $(date +%s) - start ))" >"$results/$name.sum.tmp" && mv "$results/$name.sum.tmp" "$results/$name.sum"
}
export -f run_suite
export results

# the suites other than the RTL ones, TEST_JOBS at a time, in the background; when RTL suites follow,
# the Verilated model is built first in the same pool (its build is the longest step of make test, and
# the one-core suites leave room beside it); a failed build is reported by the RTL suites themselves
prebuild=()
printf '%s\n' "${suites[@]}" | grep -q '/t_rtl_' && prebuild=(prebuild:rtl)
printf '%s\n' "${prebuild[@]}" "${suites[@]}" | grep -v '/t_rtl_' |
  xargs -r -P "$jobs" -I{} bash -c 'if [[ $1 == prebuild:rtl ]]; then make -s rtl >/dev/null 2>&1; else run_suite "$1"; fi' _ {} &
others=$!

pass=0 fail=0
report() { # the suites' reports in name order, each once it has finished
  local suite name p f s
  for suite in "${suites[@]}"; do
    name=$(basename "$suite" .sh)
    if [[ $suite == */t_rtl_* ]]; then
      wait "$others" 2>/dev/null
      run_suite "$suite"
    fi
    while [[ ! -f $results/$name.sum ]]; do
      if ! kill -0 "$others" 2>/dev/null && [[ ! -f $results/$name.sum ]]; then # the pool ended without it
        echo "not ok - $name did not report (its runner was killed)" >"$results/$name.out"
        echo "0 1 0" >"$results/$name.sum"
      fi
      sleep 1
    done
    echo "== $name"
    grep -v '^ok ' "$results/$name.out" | sed 's/^/   /'
    read -r p f s <"$results/$name.sum"
    echo "   $name: $p passed, $f failed (${s}s)"
    pass=$((pass + p)); fail=$((fail + f))
  done
}
report
wait
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
