# make prove's case split (CASES=, tb/prove/cases.sh): the decoding of lane 0 on Volta's f16 instruction
# (tests/prove/fda_cut_harness.sv PART 0, make prove-all's rows fda-decode-split) split into a zero or
# subnormal A and the rest (tests/prove/cases/a0-exp-zero-f16.txt):
#  (a) the cover and both cases PROVEN, so the split is PROVEN; the mutant (a subnormal's exponent one
#      short) REFUTED in a case, its counterexample a vector of that case;
#  (b) a split that misses vectors (only a normal a0: tests/prove/cases/a0-normal-f16.txt) is UNKNOWN,
#      exit 4, naming a missed vector -- whose a0 is zero or subnormal -- and runs no case;
#  (c) a case naming what is not a field of the vector, a case with a statement in it, a file with no
#      case, a missing file, and CASES with ASSUME each exit 2 with one line.
# runtime: 74 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null; then
  not_ok "prove cases: yosys and yosys-abc are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove cases: make rtl failed"; exit 0; }
W=build/test-prove-cases
rm -rf "$W"
row() { prove_row "prove cases" "$W" 300 "$@"; }  # row NAME EXPECTED: make prove-all's row NAME alone
row fda-decode-split:VOLTA PROVEN
d=$W/fda-decode-split_VOLTA
if grep -q '| cover | every vector meets a case | PROVEN' "$d/cases.md" && [[ $(grep -c '| PROVEN | abc' "$d/cases.md") == 2 ]] &&
   grep -q '"cases": 2' "$d/result.json" && grep -q '"cases_proven": 2' "$d/result.json"; then
  ok "prove cases: the cover and both cases proven ($d/cases.md, result.json)"
else not_ok "prove cases: fda-decode-split's cases: $(tr '\n' ' ' <"$d/cases.md" 2>/dev/null)"; fi
row fda-decode-split-mutant:VOLTA REFUTED
# the counterexample lies in the case that refuted it: case 1 holds an a0 with a zero exponent field
d=$W/fda-decode-split-mutant_VOLTA
n=$(sed -n 's/.*"refuting_case": \([0-9]*\).*/\1/p' "$d/result.json")
a0=$(grep -v '^#' "$d/cex.txt" | awk '{print $2}')
if [[ -n $n && -n $a0 ]] && (( (n == 1) == ((a0 >> 10 & 31) == 0) )); then
  ok "prove cases: the mutant's counterexample (a0 = $a0) meets case $n, which refuted it"
else not_ok "prove cases: the mutant's counterexample a0 = '$a0' and the refuting case '$n' disagree"; fi

# the harness's make prove, as the rows run it
p="$(awk -v a=volta -v n=mma.m8n8k4.f32.f16.f16.f32 '$1 == a && $2 == n {print $4}' build/rtl/gen/instrs.txt)"
p="$(awk -v u="$p" '$1 == u {print $12}' build/rtl/gen/units.txt),AW=16,PART=0,WORD=-1"
prove() {  # prove VAR=VALUE ...: make prove of the decoding harness with those variables; sets out, rc
  out=$(env DUT=tests/prove/fda_cut_harness.sv INSTR=volta:mma.m8n8k4.f32.f16.f16.f32 PARAMS="SIDE=0,$p" \
        REF=fda_cut_harness REF_PARAMS="SIDE=1,$p" TIMEOUT=60 REPLAY=0 PROVE_DIR="$W/direct" "$@" bash tb/prove/prove.sh 2>&1)
  rc=$?
}
prove CASES=tests/prove/cases/a0-normal-f16.txt
vec=$(sed -n 's/.*miss vectors, e.g. vec = \(0x[0-9a-f]*\) .*/\1/p' <<<"$out")
# the vector's fields, low to high: c_raw (32 bits), a0 (16), ...: a0's exponent field is bits 42..46
if [[ $rc == 4 && -n $vec && ! -e $W/direct/case-1 ]] && (( (vec >> 42 & 31) == 0 )); then
  ok "prove cases: a split missing the zero or subnormal a0 is UNKNOWN, exit 4, no case run; the missed vector's a0 exponent is 0"
else not_ok "prove cases: the uncovered split: rc $rc, vec '$vec': $(tail -3 <<<"$out" | tr '\n' ' ')"; fi

bad() {  # bad WHAT PATTERN VAR=VALUE ...: exit 2, one line holding PATTERN
  prove "${@:3}"
  if [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"$2"* ]]; then ok "prove cases: $1 refused, exit 2: $out"
  else not_ok "prove cases: $1: rc $rc: $out"; fi
}
printf 'a0[14:10] == 5'"'"'d0\nx9 != 0\n' >"$W/not-a-field.txt"
bad "a name that is not a field" "not-a-field.txt:2: x9 != 0: 'x9' is not a field of the vector" CASES="$W/not-a-field.txt"
printf 'a0 == 0; $finish\n' >"$W/statement.txt"
bad "a statement in a case" "one SV expression over the vector's fields" CASES="$W/statement.txt"
printf '# nothing but a comment\n\n' >"$W/empty.txt"
bad "a file with no case" "no case in it" CASES="$W/empty.txt"
bad "a missing file" "no such file" CASES="$W/nowhere.txt"
bad "CASES with ASSUME" "not both" CASES=tests/prove/cases/a0-exp-zero-f16.txt ASSUME="a0 == 0"
