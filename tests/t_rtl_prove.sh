# make prove (tb/prove/prove.sh, docs/formal.md) decides equivalence for every input, on the unit of
# Volta's HMMA.884.F32 (f16, K = 4, F = 23: the smallest miter, about 15,000 AND gates):
#  (a) the mutation fixture tests/verify/fda_mutants.sv with no mutant is PROVEN equal to the reference
#      unit (exit 0; result.json and JUnit result.xml say so); through make the exit status is 0;
#  (b) mutants 4 (output flush) and 5 (sign of an exact zero: the two bug classes the sampled stream once
#      let through) are REFUTED (exit 1; through make, 2 with the verdict line last), each with a
#      counterexample that is a `mmaref batch` line: the model's D for it is the one printed, make verify
#      VECTORS= replays it on the mutant (its D differs) and on the clean unit (its D is the model's), and
#      it shows the bug of its class (4: the model's D subnormal, the mutant's a zero; 5: C = -0 and every
#      product a zero of sign -, the model +0, the mutant -0);
#  (c) the property "every lane moved one place" (PROPERTY=rotate:1) with TIMEOUT=2 is UNKNOWN (exit 4),
#      never proven (make prove-all proves lane swaps and every mutant class: docs/formal.md); the
#      property "A negated, C kept" (PROPERTY=negate-keep-c) is REFUTED, and the model's own D's of the
#      counterexample and its moved copy break it too; GPS's zero C (CDNA1 bf16, K = 2), which only a
#      vector with every product -0 and C = -0 breaks, is REFUTED by the directed simulation of the model's
#      directed vectors, the counterexample one of them;
#  (d) bad arguments: one line on stderr, exit 2;
#  (g) FORMATS=all: the clean fixture PROVEN on every format combination of the unit at once, mutant 5
#      REFUTED with a counterexample naming the instruction its combination picks, replayed there;
#  (e) the fixtures of make prove-all (tests/prove/*.sv) lint clean; the FDRDA cut harness refuses a
#      K * AW too narrow for its cut;
#  (f) the first of the three parts in which make prove-all proves the mma.sync FP8 path (Hopper e4m3 x
#      e5m2), through make prove-all's own rows: rtl/mma_to_f16.sv is PROVEN equal to the specification's
#      conversion (spec_to_f16) on every operand, and the specification's mutant that leaves subnormals
#      unnormalized is REFUTED; and of the cut harness of CDNA3's FP8 pass (tests/prove/fdrda_cut_harness.sv),
#      the rounding's part rounding to the other kind is REFUTED (the harness can fail); of GDFS's cut
#      harness (tests/prove/gdfs_cut_harness.sv), one group's term is PROVEN and its mutant REFUTED.
# runtime: 390 s (a clean clone on CI's 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v yosys-abc >/dev/null || ! command -v verilator >/dev/null; then
  not_ok "prove: yosys, yosys-abc and verilator are needed (scripts/setup.sh installs them)"; exit 0
fi
make -s build/rtl/gen/instrs.txt build/rtl/libmmaref_dpi.a >/dev/null 2>&1 || { not_ok "prove: make rtl failed"; exit 0; }
INSTR=volta:mma.m8n8k4.f32.f16.f16.f32
# the parameters of the unit serving it (build/rtl/gen/instrs.txt, units.txt: K = 4, F = 23, f16, f32 RZ)
UP=$(awk '$1 == "volta" && $2 == "mma.m8n8k4.f32.f16.f16.f32" {print $4}' build/rtl/gen/instrs.txt)
UP=$(awk -v u="$UP" '$1 == u {print $12}' build/rtl/gen/units.txt)
P="$UP,INTERNAL=2"   # INTERNAL bit 1: mutant 1's instance built in
W=build/test-prove
rm -rf "$W"
prove() {  # prove NAME DUT PARAMS [VAR=VALUE...]: runs tb/prove/prove.sh into $W/NAME; output in $out, status in $rc
  local name=$1 dut=$2 params=$3; shift 3
  out=$(env DUT="$dut" INSTR=$INSTR PARAMS="$params" BOUND=6 REPLAY=0 PROVE_DIR="$W/$name" "$@" bash tb/prove/prove.sh 2>&1)
  rc=$?
}
json() { "$PYTHON" -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2" 2>/dev/null; }
junit_failures() { "$PYTHON" -c "import sys, xml.dom.minidom as m; print(m.parse(sys.argv[1]).documentElement.getAttribute('failures'))" "$1" 2>/dev/null; }

# (a) the clean unit, through make
out=$(make -s prove DUT=tests/verify/fda_mutants.sv INSTR=$INSTR PARAMS="$P,SELECT=0" BOUND=6 PROVE_DIR=$W/clean 2>&1); rc=$?
if [[ $rc == 0 && $out == *"prove: PROVEN: fda_mutants equals unit 0 (fda_unit) on $INSTR for every input; solver abc "* \
      && $(json $W/clean/result.json verdict) == PROVEN && $(junit_failures $W/clean/result.xml) == 0 ]]; then
  ok "prove: the clean unit PROVEN equal to the reference (make exit 0, result.json, JUnit)"
else not_ok "prove: the clean unit (rc=$rc): $(grep '^prove:' <<<"$out" | tr '\n' ' ')"; fi

# (b) three mutants refuted; their counterexamples replayed in one make verify build (+mutant=N)
field() { awk -v n="$2" '{print $n}' <<<"$1"; }
declare -A cex
for m in 4 5; do
  if [[ $m == 5 ]]; then  # through make: a refutation is make's status 2, with the verdict line last
    out=$(make -s prove DUT=tests/verify/fda_mutants.sv INSTR=$INSTR PARAMS="$P,SELECT=5" BOUND=6 REPLAY=0 \
          PROVE_DIR=$W/m5 2>/dev/null); rc=$?
    if [[ $rc == 2 && $(tail -1 <<<"$out") == "prove: REFUTED (exit 1); results: $W/m5/result.json, $W/m5/result.xml (JUnit)" ]]
    then ok "prove: through make a refutation exits 2 and its last line keeps the verdict"; rc=1
    else not_ok "prove: make prove of mutant 5: rc=$rc, last line '$(tail -1 <<<"$out")'"; fi
  else prove m$m tests/verify/fda_mutants.sv "$P,SELECT=$m"; fi
  line=$(grep -v '^#' "$W/m$m/cex.txt" 2>/dev/null)
  printed=$(sed -n 's/^  model D: //p' <<<"$out")
  model=$("$MMAREF" batch volta mma.m8n8k4.f32.f16.f16.f32 <<<"$line" 2>&1)
  if [[ $rc == 1 && $out == *"prove: REFUTED: fda_mutants differs from unit 0"* && $(wc -w <<<"$line") == 9
        && $model == "$printed" && $(json $W/m$m/result.json verdict) == REFUTED
        && $(json $W/m$m/result.json counterexample) == "$line" && $(junit_failures $W/m$m/result.xml) == 1 ]]; then
    ok "prove: mutant $m REFUTED (exit 1): counterexample $line, model D $model"
    cex[$m]=$line
  else not_ok "prove: mutant $m (rc=$rc): $(grep '^prove:' <<<"$out" | tr '\n' ' ') / line '$line' model '$model' printed '$printed'"; fi
done
verify() {  # verify MUTANT FILE: make verify's bench on FILE's vectors; sets vout, vrc
  vout=$(env DUT="rtl/rtl.f tests/verify/fda_mutants.sv" DUT_TOP=fda_mutants INSTR=$INSTR PARAMS="$P,SELECT=0" \
         VERIFY_DIR=$W/verify PLUSARGS="+mutant=$1" VECTORS="$2" bash tb/verify/verify.sh 2>&1)
  vrc=$?
}
for m in 4 5; do
  [[ -n ${cex[$m]:-} ]] || continue
  echo "${cex[$m]}" >"$W/cex$m.txt"
  verify "$m" "$W/cex$m.txt"; mut_rc=$vrc mut_out=$vout
  verify 0 "$W/cex$m.txt"; clean_rc=$vrc
  md=$(sed -n 's/^  model D: //p' <<<"$mut_out") ud=$(sed -n 's/^  unit D: *//p' <<<"$mut_out")
  c=$(field "${cex[$m]}" 1) bad=""
  case $m in
    4) (( (md & 0x7f800000) == 0 && (md & 0x7fffff) != 0 && (ud & 0x7fffffff) == 0 )) || bad="model D not subnormal or unit D not a zero" ;;
    5) [[ $c == 0x80000000 && $md == 0x00000000 && $ud == 0x80000000 ]] || bad="not C = -0 with model +0 and unit -0" ;;
  esac
  if [[ $mut_rc == 1 && $clean_rc == 0 && $mut_out == *"MISMATCH $INSTR unit fda_mutants vector 1 of"* && -z $bad ]]; then
    ok "prove: mutant $m's counterexample replayed by make verify VECTORS=: model $md, mutant $ud; the clean unit agrees"
  else not_ok "prove: mutant $m's replay (mutant rc=$mut_rc, clean rc=$clean_rc, model '$md', unit '$ud'${bad:+: $bad}): $(tail -2 <<<"$mut_out" | tr '\n' ' ')"; fi
done
# (c) a rotation of the lanes, beyond the solver in 2 s
prove rot rtl/fda_unit.sv "$UP" TIMEOUT=2 PROPERTY=rotate:1
if [[ $rc == 4 && $out == *"prove: UNKNOWN after "*"nothing is proven"* && $(json $W/rot/result.json verdict) == UNKNOWN \
      && $(junit_failures $W/rot/result.xml) == 1 ]]; then
  ok "prove: the rotation of four lanes with TIMEOUT=2 is UNKNOWN (exit 4), not proven"
else not_ok "prove: rotation with TIMEOUT=2 (rc=$rc): $(grep '^prove:' <<<"$out" | tr '\n' ' ')"; fi
prove keepc rtl/fda_unit.sv "$UP" PROPERTY=negate-keep-c
pline=$(sed -n 's/^  property: //p' <<<"$out")
if [[ $rc == 1 && $out == *"prove: REFUTED: fda_unit differs from fda_unit itself"* && \
      $pline == "model D 0x"*", as negate-keep-c sees it 0x"*"the model breaks the property too" && \
      $(json $W/keepc/result.json property) == negate-keep-c ]]; then
  ok "prove: PROPERTY=negate-keep-c REFUTED (exit 1), the model breaks it too: $pline"
else not_ok "prove: PROPERTY=negate-keep-c (rc=$rc): $(grep '^prove:\|property:' <<<"$out" | tr '\n' ' ')"; fi

# a counterexample only a corner shows, found by the directed simulation: GPS (CDNA1 bf16, K = 2, one
# group, IEEE's zero signs) with C = -0 and every product -0 gives -0, with C = +0 gives +0, so flipping
# a zero C's sign changes D; the vector is one of the model's directed ones
GP=$(awk '$1 == "cdna1" && $2 == "v_mfma_f32_32x32x2bf16" {print $4}' build/rtl/gen/instrs.txt)
read -r GM GP < <(awk -v u="$GP" '$1 == u {print $11, $12}' build/rtl/gen/units.txt)   # gps_unit, its parameters
prove gps "rtl/$GM.sv" "$GP" INSTR=cdna1:v_mfma_f32_32x32x2bf16 BOUND=16 PROPERTY=c-zero
pline=$(sed -n 's/^  property: //p' <<<"$out") cex=$(grep -v '^#' $W/gps/cex.txt 2>/dev/null)
read -r c a0 a1 b0 b1 <<<"$cex"
if [[ $rc == 1 && $out == *"(solver directed simulation, "* && $(json $W/gps/result.json solver) == "directed simulation" \
      && $c == 0x80000000 && $pline == "model D 0x80000000, as c-zero sees it 0x0: the model breaks the property too" \
      && $(grep -c "^${cex//0x/}\$" $W/gps/directed.txt) -ge 1 ]] &&
   (( ((a0 ^ b0) & 0x8000) && ((a1 ^ b1) & 0x8000) && (!(a0 & 0x7fff) || !(b0 & 0x7fff)) \
      && (!(a1 & 0x7fff) || !(b1 & 0x7fff)) )); then
  ok "prove: GPS's zero C refuted by the directed simulation: C = -0, products -0 ($cex), $pline"
else not_ok "prove: GPS PROPERTY=c-zero (rc=$rc, cex '$cex'): $(grep '^prove:\|property:' <<<"$out" | tr '\n' ' ')"; fi

# (d) bad arguments
expect_error "prove: no DUT" "DUT= is required" env INSTR=$INSTR bash tb/prove/prove.sh
expect_error "prove: a DUT file that does not exist" "DUT: no such file 'nope.sv'" env DUT=nope.sv INSTR=$INSTR bash tb/prove/prove.sh
expect_error "prove: DUT_TOP not in the files" "DUT_TOP=nomod: no 'module nomod'" \
  env DUT=rtl/fda_unit.sv DUT_TOP=nomod INSTR=$INSTR bash tb/prove/prove.sh
expect_error "prove: an unknown instruction" "INSTR: " env DUT=rtl/fda_unit.sv INSTR=volta:mma.nope bash tb/prove/prove.sh
expect_error "prove: PARAMS not NAME=INTEGER" "PARAMS=K: 'K' is not NAME=INTEGER" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR PARAMS=K bash tb/prove/prove.sh
expect_error "prove: BOUND out of range" "BOUND=1: cycles from reset to the check, a decimal number from 2 to 200" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR BOUND=1 bash tb/prove/prove.sh
expect_error "verify: a VECTORS file that does not exist, before any build" "VECTORS: no such file 'nope.txt'" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR VECTORS=nope.txt bash tb/verify/verify.sh
expect_error "prove: a PROPERTY it does not know" "PROPERTY=mirror: swap:I,J, rotate:N, swap-ab, c-zero, negate" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR PROPERTY=mirror bash tb/prove/prove.sh
expect_error "prove: a lane past K" "PROPERTY=swap:0,4: two different lanes below K = 4" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR PROPERTY=swap:0,4 bash tb/prove/prove.sh
expect_error "prove: negating a format whose -0 is its NaN" "PROPERTY=negate: A is e4m3fnuz, whose negation is not a sign flip" \
  env DUT=rtl/fda_unit.sv INSTR=cdna3:v_mfma_f32_16x16x32_fp8_fp8 PROPERTY=negate bash tb/prove/prove.sh
expect_error "prove: DUT_AW narrower than the instruction's lanes" "DUT_AW=8: the unit's lane width in bits, 16 (the instruction's) to 64" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR DUT_AW=8 bash tb/prove/prove.sh
expect_error "prove: INIT neither zero nor any" "INIT=some: zero or any" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR INIT=some bash tb/prove/prove.sh
expect_error "prove: TIMEOUT not a number" "TIMEOUT=x: seconds for the solver, a decimal number from 1" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR TIMEOUT=x bash tb/prove/prove.sh
# make prove hands DUT and the rest to the script as shell words (shell_word, Makefile): a quote, a
# backquote or a $(...) in a value is a character of it, never a command
mkdir -p "$W"
for dut in "a\" \`touch $W/PWNED\` \"b.sv" "it's \$(touch $W/PWNED).sv"; do
  err=$(make -s prove DUT="$dut" INSTR=$INSTR BOUND="\`touch $W/PWNED\`" 2>&1); rc=$?
  if [[ $rc -ne 0 && $(head -1 <<<"$err") == "prove: DUT: '"*"' is not a path of "* && ! -e $W/PWNED ]]; then
    ok "make prove DUT='${dut:0:14}...': not a path, no command run"
  else not_ok "make prove DUT='$dut': rc=$rc, $(ls "$W" 2>/dev/null | grep PWNED), stderr '$err'"; fi
done

# (f) the f16 conversion of mma.sync FP8: make prove-all's own rows (tests/prove/all.sh, through
# tests/prove/to_f16_harness.sv), the project's conversion against the specification's and its mutant;
# the mutant of CDNA3's FP8 rounding part (tests/prove/fdrda_cut_harness.sv, PART = 2); the first part of
# Blackwell's GDFS (tests/prove/gdfs_cut_harness.sv: one group's term) and its mutant; all.sh exits 0
# only when each row's verdict is the one it must be
for row in sync-to-f16:SYNC16 sync-to-f16-mutant:SYNC16 fnuz-round-mutant:FNUZ16 gdfs-group:GDFS_B16 \
           gdfs-group-mutant:GDFS_UE4M3; do
  want=$([[ $row == *mutant* ]] && echo REFUTED || echo PROVEN)
  out=$(PROVE_ROW=$row PROVE_ALL_DIR="$W/all" PROVE_TIMEOUT=120 bash tests/prove/all.sh 2>&1); rc=$?
  if [[ $rc == 0 && $out =~ \]\ $row\ +$want\  ]]
  then ok "prove: make prove-all's row $row: $want"
  else not_ok "prove: make prove-all's row $row (rc=$rc, must be $want): $(grep -m2 "$row\|prove-all:" <<<"$out" | tr '\n' ' ')"; fi
done

# (g) FORMATS=all: one proof over every format combination of the unit serving the instruction (Volta's
# K = 4 unit: A and B f16, C f16 or f32, D f32 RZ or f16 RNE), picked by a free field of the vector: the
# clean fixture PROVEN on all of them; mutant 5 REFUTED with a counterexample that names the instruction
# its combination picks (one of formats.txt), replayed by make verify on that instruction (the mutant's D
# differs from the model's)
prove fmt-clean tests/verify/fda_mutants.sv "$P,SELECT=0" FORMATS=all
nf=$(wc -l <"$W/fmt-clean/formats.txt" 2>/dev/null)
if [[ $rc == 0 && $nf -ge 3 && $out == *"PROVEN: fda_mutants equals unit 0 (fda_unit) on every format combination of the unit serving $INSTR ($nf, "* \
      && $(json $W/fmt-clean/result.json formats) == "$nf" ]]
then ok "prove: FORMATS=all, the clean fixture PROVEN on the $nf format combinations of Volta's unit"
else not_ok "prove: FORMATS=all, clean (rc=$rc, $nf combinations): $(grep '^prove:' <<<"$out" | tr '\n' ' ')"; fi
# a solver's counterexample on another combination, decoded (tb/prove/aig_sim.py --decode): every bit of
# the vector 1 but sel = 1 (bits 160-161 after C's 32 and eight 16-bit lanes), as ABC writes it (piN@0=V
# for each input of the miter's map); combination 1 is f32 <- f16 x f16 + f16: C masked to its 16 bits
d=$W/fmt-decode
rm -rf $d && mkdir -p $d && cp $W/fmt-clean/{miter.aim,layout.txt,formats.txt} $d/ 2>/dev/null
awk '$1 == "input" && $4 == "vec_in" { printf "pi%d@0=%d\n", $2, ($3 == 160 ? 1 : $3 == 161 ? 0 : 1) }' $d/miter.aim >$d/cex.abc
python3 tb/prove/aig_sim.py --decode $d 2>/dev/null
if [[ $(grep -v '^#' $d/cex.txt 2>/dev/null) == "0xffff$(printf ' 0xffff%.0s' {1..8})" ]] \
   && grep -qx "# formats: sel 1, volta:mma.m8n8k4.f32.f16.f16.f16" $d/cex.txt \
   && [[ $(python3 tb/prove/aig_sim.py --cex-formats $d) == "1 volta:mma.m8n8k4.f32.f16.f16.f16" ]]
then ok "prove: a counterexample with sel 1 decodes in its instruction's widths (C 0xffff) and names it"
else not_ok "prove: decoding sel 1: $(tr '\n' '|' <$d/cex.txt 2>/dev/null)"; fi
prove fmt-m5 tests/verify/fda_mutants.sv "$P,SELECT=5" FORMATS=all REPLAY=1
cins=$(sed -n 's/^# formats: sel [0-9]*, //p' "$W/fmt-m5/cex.txt" 2>/dev/null)
model=$(sed -n 's/^  model D: *//p' <<<"$out") unit=$(sed -n 's/^  unit D: *\([0-9a-fx]*\).*/\1/p' <<<"$out")
if [[ $rc == 1 && -n $cins ]] && grep -q " $cins " "$W/fmt-m5/formats.txt" && \
   [[ $out == *"REFUTED: fda_mutants differs from unit 0 (fda_unit) on $cins "* && -n $model && -n $unit && $model != "$unit" \
      && $(json $W/fmt-m5/result.json instruction) == "$cins" ]]
then ok "prove: FORMATS=all, mutant 5 REFUTED on $cins: model D $model, the mutant's $unit in make verify's replay"
else not_ok "prove: FORMATS=all, mutant 5 (rc=$rc, instruction '$cins', model '$model', unit '$unit'): $(grep '^prove:\|unit D' <<<"$out" | tr '\n' ' ')"; fi
expect_error "prove: FORMATS neither instr, all nor formats" "FORMATS=f16,some: instr (the instruction's formats), all (every format combination of its unit) or a list of A and B formats (e4m3,e5m2); 'some' is not a format" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR FORMATS=f16,some bash tb/prove/prove.sh
expect_error "prove: FORMATS without the instruction's formats" "FORMATS=e4m3: the instruction's own A and B formats (f16, f16) must be listed" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR FORMATS=e4m3 bash tb/prove/prove.sh
expect_error "prove: FORMATS=all with a property" "FORMATS=all with PROPERTY: a property is proven on one instruction's formats" \
  env DUT=rtl/fda_unit.sv INSTR=$INSTR FORMATS=all PROPERTY=rotate:1 bash tb/prove/prove.sh

# (e) the fixtures of make prove-all (tests/prove/) lint clean with their default parameters (a fixture
# with a file list beside it, NAME.f, with the files it lists: m3xu_spec instantiates fda_spec)
for f in tests/prove/*.sv; do
  srcs=("$f"); [[ -f ${f%.sv}.f ]] && srcs=(-f "${f%.sv}.f")
  if lint=$(verilator --lint-only -Wall --top-module "$(basename "$f" .sv)" -f rtl/rtl.f "${srcs[@]}" 2>&1) && [[ -z $lint ]]
  then ok "prove: fixture $f lints clean (verilator --lint-only -Wall)"
  else not_ok "prove: fixture $f: $(head -3 <<<"$lint" | tr '\n' ' ')"; fi
done
# ... and the cut harness refuses parameters whose A and B cannot carry PART 1's cut (K * AW < 102)
lint=$(verilator --lint-only -Wall --top-module fdrda_cut_harness -GPART=1 -GK=4 -f rtl/rtl.f \
       tests/prove/fdrda_cut_harness.sv 2>&1)
if [[ $? -ne 0 && $(head -1 <<<"$lint") == *"PART 1 and PART 2 read 102 bits of A and B"* ]]
then ok "prove: fdrda_cut_harness PART=1 K=4: an elaboration error"
else not_ok "prove: fdrda_cut_harness PART=1 K=4 must not elaborate: $(head -2 <<<"$lint" | tr '\n' ' ')"; fi
