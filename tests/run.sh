#!/usr/bin/env bash
# Runs every tests/t_*.sh suite.  A suite prints one line per check: "ok - what" or "not ok - what"
# (anything else is passed through as commentary).  A suite that exits non-zero without reporting a
# failure counts as one failure.  Ends with "N passed, M failed"; exits 1 on any failure.
set -u
cd "$(dirname "$0")/.."
export MMAREF=${MMAREF:-$PWD/build/mmaref}
pass=0 fail=0
only=${1:-}
for suite in tests/t_*.sh; do
  [[ -n $only && $suite != *"$only"* ]] && continue
  name=$(basename "$suite" .sh)
  echo "== $name"
  start=$(date +%s)
  out=$(bash "$suite" 2>&1); rc=$?
  p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^not ok ' <<<"$out")
  grep -v '^ok ' <<<"$out" | sed 's/^/   /'
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    echo "   not ok - $name exited with status $rc"
    f=1
  fi
  echo "   $name: $p passed, $f failed ($(( $(date +%s) - start ))s)"
  pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
