#!/usr/bin/env bash
# Runs every tests/t_*.sh suite.  A suite prints one line per check: "ok - what" or "not ok - what"
# (anything else is passed through as commentary).  A suite that exits non-zero without reporting a
# failure counts as one failure.  Ends with "N passed, M failed"; exits 1 on any failure.
# usage: tests/run.sh [SUBSTRING]   (only the suites whose name contains it, of either tier)
# TEST_TIER: test (default; make test, what CI runs), regress (the suites whose header says
# `# tier: regress`: too long for make test's 15 minutes on CI's 2 cores, run by make regress) or all.
# TEST_JOBS (default 2): how many suites run at once, each lane taking the next suite from a queue.
# The RTL suites (t_rtl_*) use the Verilated model: the first lane builds it (the longest step of make
# test), then takes them from a queue of their own, then joins the others on the main queue; a lane that
# finds the main queue empty waits for the model and takes RTL suites too.  RTL suites whose headers
# declare the same `# shares: KEY` (build products they both make, e.g. the same make verify builds)
# are one item of that queue, run one after another on one lane.
# Each queue starts with the suites whose header declares the most `# runtime: N s` (seconds on CI's
# 2 cores), so that no long suite starts last.  Every suite's report is printed whole as it completes.
set -u
cd "$(dirname "$0")/.."
export MMAREF=${MMAREF:-$PWD/build/mmaref}
only=${1:-}
jobs=${TEST_JOBS:-2}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "tests/run.sh: TEST_JOBS must be a positive integer, not '$jobs'" >&2; exit 2; }
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

tier=${TEST_TIER:-test}
case $tier in test | regress | all) ;;
  *) echo "tests/run.sh: TEST_TIER must be test, regress or all, not '$tier'" >&2; exit 2 ;; esac
suite_tier() { if grep -q '^# tier: regress' "$1"; then echo regress; else echo test; fi; }

suites=() rtl=() other_tier=()
for suite in tests/t_*.sh; do
  [[ -n $only && $suite != *"$only"* ]] && continue
  if [[ -z $only && $tier != all && $(suite_tier "$suite") != "$tier" ]]; then
    other_tier+=("$(basename "$suite" .sh)"); continue
  fi
  suites+=("$suite")
  [[ $suite == */t_rtl_* ]] && rtl+=("$suite")
done
declared() { local s; s=$(sed -n 's/^# runtime: \([0-9]\+\) s.*/\1/p' "$1" | head -1); echo "${s:-0}"; }
# the other suites, the longest declared runtime first (then in name order)
mapfile -t queue < <(for suite in "${suites[@]}"; do
  [[ $suite == */t_rtl_* ]] && continue
  echo "$(declared "$suite") $suite"
done | sort -k1,1nr -k2,2 -s | cut -d' ' -f2)
# the RTL items: suites of one `# shares:` key joined by commas (in name order), the longest declared
# runtime (summed) first
mapfile -t rtl_queue < <(for suite in "${rtl[@]}"; do
  key=$(sed -n 's/^# shares: *\([^ ]*\).*/\1/p' "$suite" | head -1)
  echo "${key:-$suite} $(declared "$suite") $suite"
done | sort -k1,1 -k3,3 | awk '{ if (!($1 in t)) order[n++] = $1; t[$1] += $2; s[$1] = s[$1] (c[$1]++ ? "," : "") $3 }
  END { for (i = 0; i < n; i++) print t[order[i]], s[order[i]] }' | sort -k1,1nr -k2,2 -s | cut -d' ' -f2)

# one suite: its output and a summary line "PASS FAIL SECONDS" into $results/NAME.{out,sum}
run_suite() {
  local suite=$1 name out rc p f start cpu TIMEFORMAT=%U+%S
  name=$(basename "$suite" .sh)
  start=$(date +%s)
  # the CPU seconds (user + system) of the suite and every process it waited for: what it costs CI's
  # cores, which the wall time on a shared machine does not say
  { time bash "$suite" >"$results/$name.log" 2>&1; } 2>"$results/$name.cpu"; rc=$?
  out=$(<"$results/$name.log") cpu=$(<"$results/$name.cpu")
  p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^not ok ' <<<"$out")
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    out+=$'\n'"not ok - $name exited with status $rc"
    f=1
  fi
  printf '%s\n' "$out" >"$results/$name.out"
  echo "$p $f $(( $(date +%s) - start )) $(awk -F+ '{printf "%.0f", $1 + $2}' <<<"$cpu")" >"$results/$name.sum.tmp" \
    && mv "$results/$name.sum.tmp" "$results/$name.sum"
}

# the next item of queue NAME (main or rtl: its index in $results/NAME.next, under a lock), or nothing
# once it is empty
next_item() {
  local -n items=$2
  local i
  {
    flock 9
    i=$(cat "$results/$1.next")
    echo $((i + 1)) >"$results/$1.next"
  } 9>"$results/queue.lock"
  (( i < ${#items[@]} )) && echo "${items[i]}"
}
drain() { local suite; while suite=$(next_item main queue); do run_suite "$suite"; done; }
drain_rtl() {
  local item suite
  while item=$(next_item rtl rtl_queue); do
    for suite in ${item//,/ }; do run_suite "$suite"; done
  done
}
echo 0 >"$results/main.next"
echo 0 >"$results/rtl.next"

# lane 1: the Verilated model (a failed build is reported by the RTL suites themselves), RTL items, then
# the main queue; lanes 2..TEST_JOBS: the main queue, then (once the model is built) RTL items
lanes=()
( if [[ ${#rtl[@]} -gt 0 ]]; then
    make -s rtl >/dev/null 2>&1
    touch "$results/rtl-built"
    drain_rtl
  fi
  drain ) &
lanes+=($!)
lane1=$!
for ((l = 2; l <= jobs; l++)); do
  ( drain
    if [[ ${#rtl[@]} -gt 0 ]]; then
      while [[ ! -f $results/rtl-built ]] && kill -0 "$lane1" 2>/dev/null; do sleep 1; done
      [[ -f $results/rtl-built ]] && drain_rtl
    fi ) &
  lanes+=($!)
done

running() { local p; for p in "${lanes[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
pass=0 fail=0 done=0 cpu_total=0 t0=$(date +%s)
declare -A shown=()
while (( done < ${#suites[@]} )); do # each suite's report once it has finished, in the order they finish
  alive=0; running && alive=1
  for suite in "${suites[@]}"; do
    name=$(basename "$suite" .sh)
    [[ -n ${shown[$name]:-} ]] && continue
    if [[ ! -f $results/$name.sum ]]; then
      (( alive )) && continue
      echo "not ok - $name did not report (its runner was killed)" >"$results/$name.out" # every lane ended
      echo "0 1 0" >"$results/$name.sum"
    fi
    shown[$name]=1; done=$((done + 1))
    read -r p f s c <"$results/$name.sum"
    echo "== $name ($done of ${#suites[@]})"
    grep -v '^ok ' "$results/$name.out" | sed 's/^/   /'
    echo "   $name: $p passed, $f failed (${s}s, ${c:-0} s of CPU)"
    pass=$((pass + p)); fail=$((fail + f)); cpu_total=$((cpu_total + ${c:-0}))
  done
  (( done < ${#suites[@]} )) && sleep 1
done
wait
if (( ${#other_tier[@]} )); then
  [[ $tier == test ]] && echo "# make regress runs the suites too long for make test: ${other_tier[*]}" ||
    echo "# not run (TEST_TIER=$tier): ${other_tier[*]}"
fi
echo "suites: $cpu_total s of CPU in $(( $(date +%s) - t0 )) s"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
