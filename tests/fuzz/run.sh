#!/usr/bin/env bash
# Runs libFuzzer harnesses built by `make fuzz-build`, one "ok - ..." / "not ok - ..." line each.
#   tests/fuzz/run.sh [--build DIR] [--seconds S] [--runs N] [--work DIR] HARNESS...
# Each harness starts from a copy of its corpus tests/fuzz/corpus/<harness>/ in WORK/corpus/<harness>
# (libFuzzer runs every file of it first, then mutates; new inputs are added there) and fuzzes for S
# seconds (default 300).  A crash, a broken invariant, a leak or an input running over 10 s fails the
# harness; the line names the reproducer (WORK/artifacts/<harness>/...) and its first error line.
# tests/fuzz/<harness>.flags, if present, holds more libFuzzer flags for that harness (one line).
#   --runs N      run N executions instead (libFuzzer -runs=N), with no time limit unless --seconds is
#                 also given; fewer than N executions (the time ran out) fails the harness
#   --build DIR   where the harness binaries are (default build/fuzz)
#   --work DIR    where the corpus copies, artifacts and logs go (default: the build directory)
#   --replay DIR  instead of fuzzing, run every file of DIR/<harness>/ once (e.g. tests/fuzz/crashes)
# Exits 1 if any harness failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
build=build/fuzz seconds=300 seconds_given= runs= work= replay=
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --seconds) seconds=$2 seconds_given=1; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --replay) replay=$2; shift 2 ;;
    *) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
work=${work:-$build}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --seconds needs a positive whole number, not '$seconds'" >&2; exit 2; }
[[ -z $runs || $runs =~ ^[1-9][0-9]{0,17}$ ]] || { echo "run.sh: --runs needs a positive whole number, not '$runs'" >&2; exit 2; }
# the stopping rule: a time, or a count of executions (with a time limit only when one was given)
limit=(-max_total_time="$seconds")
if [[ -n $runs ]]; then
  limit=(-runs="$runs")
  [[ -n $seconds_given ]] && limit+=(-max_total_time="$seconds")
fi
[[ $# -gt 0 ]] || { echo "run.sh: name at least one harness (e.g. fuzz_batch)" >&2; exit 2; }

failed=0
for h in "$@"; do
  bin=$build/$h
  if [[ ! -x $bin ]]; then
    echo "not ok - $h: $bin not built (make fuzz-build)"; failed=1; continue
  fi
  flags=()
  [[ -f tests/fuzz/$h.flags ]] && read -r -a flags <tests/fuzz/$h.flags
  log=$work/logs/$h.log art=$work/artifacts/$h/
  mkdir -p "$work/logs" "$art"
  if [[ -n $replay ]]; then
    files=("$replay/$h"/*)
    [[ -e ${files[0]} ]] || { echo "ok - $h: no inputs in $replay/$h"; continue; }
    "$bin" "${flags[@]}" -artifact_prefix="$art" -timeout=10 "${files[@]}" >"$log" 2>&1; rc=$?
    if [[ $rc -eq 0 ]]; then echo "ok - $h: ${#files[@]} inputs of $replay/$h run cleanly"
    else
      input=$(grep -o 'Running: .*' "$log" | tail -1 | cut -c10-)
      why=$(grep -m1 -E '^==[0-9]+== ?ERROR|fuzz invariant broken|runtime error' "$log" | cut -c1-300)
      echo "not ok - $h: $input fails: ${why:-exit status $rc} (log $log)"; failed=1
    fi
    continue
  fi
  corpus=$work/corpus/$h
  mkdir -p "$corpus"
  [[ -d tests/fuzz/corpus/$h ]] && cp -n tests/fuzz/corpus/"$h"/* "$corpus"/ 2>/dev/null
  before=$(find "$corpus" -type f | wc -l)
  "$bin" "${flags[@]}" "${limit[@]}" -timeout=10 -print_final_stats=1 -artifact_prefix="$art" "$corpus" \
    >"$log" 2>&1; rc=$?
  execs=$(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$')
  secs=$(grep -m1 -o 'Done [0-9]* runs in [0-9]* second' "$log" | awk '{print $5}')
  after=$(find "$corpus" -type f | wc -l)
  rate=
  [[ -n $execs && -n $secs && $secs -gt 0 ]] && rate=", $((execs / secs)) per s"
  if [[ $rc -eq 0 && -n $runs && ${execs:-0} -lt $runs ]]; then
    echo "not ok - $h: ${execs:-?} of the $runs executions asked for in ${secs:-?} s (the time ran out; log $log)"
    failed=1
  elif [[ $rc -eq 0 ]]; then
    echo "ok - $h: ${execs:-?} executions in ${secs:-$seconds} s$rate, no finding (corpus $before -> $after inputs in $corpus)"
  else
    repro=$(grep -m1 -o 'Test unit written to [^ ]*' "$log" | awk '{print $5}')
    why=$(grep -m1 -E '^==[0-9]+== ?ERROR|fuzz invariant broken|runtime error|ERROR: libFuzzer' "$log" | cut -c1-300)
    echo "not ok - $h: finding after ${execs:-?} executions: ${why:-exit status $rc}; reproducer ${repro:-none} (log $log)"
    failed=1
  fi
done
exit $failed
