# The coverage model (cmodel/src/coverage.c, docs/verify-your-design.md "Coverage"):
#  1. hand-derived bins (tests/api/coverage_bins.c): dot-adds whose bins follow from the arithmetic
#     written beside them, and bins whose unreachability follows from the formats and the schedule;
#  2. closure on every distinct configuration of the table (tests/api/coverage_closure.c): the directed
#     vectors alone hit every reachable bin, and no vector of them or of 2,000 random ones lands in a bin
#     derived as unreachable; the check's own mutant -- no vector at all -- must report holes everywhere;
#  3. `mmaref gen --coverage`: the report on stderr (stdout keeps the lines), exit 3 on a hole.
# runtime: 17 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
LIB=${MMAREF_LIB:-build/libmmaref.a}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CC="cc -std=c11 -O2 -Wall -Wextra -Werror -Icmodel/include -Itests/api"

# 1. hand-derived bins
if $CC -o "$tmp/bins" tests/api/coverage_bins.c "$LIB" -lm 2>"$tmp/cc.log"; then
  out=$("$tmp/bins" 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "coverage_bins exited with status $rc"
else not_ok "tests/api/coverage_bins.c does not build: $(head -3 "$tmp/cc.log")"; fi

# 2. closure over the table, and its mutant
if $CC -o "$tmp/closure" tests/api/coverage_closure.c "$LIB" -lm 2>"$tmp/cc.log"; then
  out=$("$tmp/closure" 0 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "coverage_closure exited with status $rc"
  out=$("$tmp/closure" 2000 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "coverage_closure (2,000 random) exited with status $rc"
  configs=$(grep -o 'all [0-9]* configurations' <<<"$out" | awk '{print $2}')
  out=$(COVERAGE_DIRECTED=0 "$tmp/closure" 0 2>&1); rc=$?
  holes=$(grep -c '^not ok - coverage: .* reachable bins unhit' <<<"$out")
  [[ $rc == 1 && -n $configs && $holes == "$configs" ]] &&
    ok "coverage: with no vector driven, the closure check reports holes on all $holes configurations (it can fail)" ||
    not_ok "coverage: the closure check's mutant: rc=$rc, $holes of ${configs:-?} configurations report holes"
else not_ok "tests/api/coverage_closure.c does not build: $(head -3 "$tmp/cc.log")"; fi

# 3. mmaref gen --coverage
H=(hopper mma.m16n8k16.f32.f16.f16.f32)
# the stream gives one vector in four to the rules: N covers the directed vectors among the other three
nd=$("$MMAREF" gen "${H[@]}" --kind directed | wc -l); N=$(( (nd / 3 + 100) * 4 ))
"$MMAREF" gen "${H[@]}" --n $N --coverage >"$tmp/lines" 2>"$tmp/report"; rc=$?
plain=$("$MMAREF" gen "${H[@]}" --n $N | md5sum)
if [[ $rc == 0 && $(md5sum <"$tmp/lines") == "$plain" && $(grep -c '^coverage closed: ' "$tmp/report") == 1 \
      && $(grep -c 'COVERAGE HOLE' "$tmp/report") == 0 && $(grep -c '^  D  ' "$tmp/report") -ge 19 ]]; then
  ok "coverage: gen --coverage: the same $N lines on stdout, the report on stderr: $(tail -1 "$tmp/report")"
else not_ok "coverage: gen --coverage: rc=$rc $(tail -2 "$tmp/report" | tr '\n' ' ')"; fi
"$MMAREF" gen "${H[@]}" --n 20 --coverage >/dev/null 2>"$tmp/report"; rc=$?
n=$(grep -c '^COVERAGE HOLE: ' "$tmp/report")
[[ $rc == 3 && $n -gt 0 && $(tail -1 "$tmp/report") == "coverage NOT closed: "* ]] &&
  ok "coverage: gen --coverage of 20 vectors: exit 3, $n holes named" ||
  not_ok "coverage: gen --coverage of 20 vectors: rc=$rc, $n holes: $(tail -1 "$tmp/report")"
