# Helpers for tests/t_*.sh suites: each check prints "ok - what" or "not ok - what: why".
MMAREF=${MMAREF:-build/mmaref}
# The interpreter for tests that need NumPy or pytest: Debian's (python3-numpy, python3-pytest from
# scripts/setup.sh); a `python3` earlier on PATH (pyenv) may lack them.
PYTHON=${PYTHON:-/usr/bin/python3}
ok()     { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# expect_dot WHAT EXPECTED_BITS ARCH INSTR ARGS...: the first token of `mmaref dot` must be EXPECTED_BITS.
expect_dot() {
  local what=$1 want=$2; shift 2
  local got
  got=$("$MMAREF" dot "$@" 2>&1 | awk 'NR==1{print $1}')
  if [[ $got == "$want" ]]; then ok "$what"; else not_ok "$what: got '$got', expected '$want' (mmaref dot $*)"; fi
}

# expect_error WHAT PATTERN CMD...: CMD must exit non-zero with a one-line stderr message matching PATTERN.
expect_error() {
  local what=$1 pat=$2; shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 0 && $(wc -l <<<"$err") -eq 1 && $err == *"$pat"* ]]; then ok "$what"
  else not_ok "$what: rc=$rc stderr='$err' (wanted non-zero exit and one line containing '$pat')"; fi
}

# prove_row WHAT DIR TIMEOUT NAME EXPECTED: make prove-all's row NAME alone (tests/prove/all.sh, its
# results under DIR, PROVE_TIMEOUT=TIMEOUT); its verdict must be EXPECTED
prove_row() {
  local what=$1 dir=$2 timeout=$3 name=$4 want=$5 out rc verdict
  out=$(PROVE_ROW=$name PROVE_ALL_DIR="$dir" PROVE_TIMEOUT=$timeout bash tests/prove/all.sh 2>&1); rc=$?
  verdict=$(sed -n "s|^\[[0-9]*/[0-9]*\] $name *\([A-Z][A-Z]*\) .*|\1|p" <<<"$out")
  if [[ $rc == 0 && $verdict == "$want" ]]; then ok "$what: $name $want"
  else not_ok "$what: $name must be $want (rc=$rc): $(grep -m2 '^\[\|prove' <<<"$out" | tr '\n' ' ')"; fi
}
