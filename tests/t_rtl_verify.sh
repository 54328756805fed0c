# make verify: the generic bench takes any unit meeting the port contract (docs/verify-your-design.md).
#  (a) the project's fda_unit behind a wrapper of another timing (tests/verify/fda_pipe_wrap.sv: a vector
#      every other cycle, 5 cycles more in a FIFO) passes 100,000 Hopper HMMA.16816.F32 vectors, and with
#      random backpressure; the coverage table counts every class the stream should reach;
#  (b) the wrapper broken on purpose -- results in swapped pairs, one result dropped -- fails;
#  (c) the independent example examples/naive_dot (a chain of f32 FMAs) fails with decoded reports, and
#      on the hand-derived case below gives the chain's answer where Hopper's differs;
#  (d) pipe mode: the verify bench and the project's bench (+cfg=N +pipe) give `mmaref batch`'s lines;
#  (e) bad input: no DUT, a missing file (a relative one read from the repository root, said so), an
#      unknown instruction, a unit without a port or with a port of the wrong width (with the hint to set
#      its K), a bad pipe line: one line naming it, non-zero exit;
#  (f) a build is kept only while every file it read is unchanged, an `include file of the unit's
#      included: after a change to it make verify builds again (seen with a Verilator that only fails);
#  (g) the mismatch report decodes operands as the model does (a zero operand at exponent -126, a
#      subnormal below 1 at the format's smallest exponent), and a replay of one vector (+first=N +count=1
#      +show) prints no coverage holes and no cycles/op.
# Hand derivation (the walkthrough's case): C = 1.0, A0 = A1 = 1.0 (0x3c00), B0 = B1 = 2^-24 (0x0001, the
# smallest f16 subnormal), other lanes 0.  Exact sum 1 + 2^-23 = 0x3f800001.  Hopper (FDA, F = 25: both
# products lie 24 binades below e_max = 0, inside F) keeps it: 0x3f800001.  The FMA chain rounds after
# each product: 1 + 2^-24 is a tie between 1 and 1 + 2^-23, RNE gives 1.0, twice: 0x3f800000.
# runtime: 136 s (a clean clone on 2 cores, beside other suites)
# shares: verify-builds (make verify's build/verify/fda_pipe_wrap and naive_dot, built by t_rtl_probe too)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v verilator >/dev/null; then not_ok "verify: verilator is not installed (make setup)"; exit 0; fi
INSTR=hopper:mma.m16n8k16.f32.f16.f16.f32
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! out=$(make -s build/mmaref build/libmmaref.a build/rtl/libmmaref_dpi.a 2>&1); then
  not_ok "verify: the model and DPI library build: $(tail -3 <<<"$out")"; exit 0
fi
verify() { MMAREF=build/mmaref bash tb/verify/verify.sh; }
row() { grep -A1 '^unit ' <<<"$1" | tail -1; }

# (a) a correct unit of another latency
out=$(DUT="rtl/rtl.f tests/verify/fda_pipe_wrap.sv" DUT_TOP=fda_pipe_wrap INSTR=$INSTR COUNT=100000 verify 2>&1); rc=$?
r=$(row "$out")
if [[ $rc == 0 && $r =~ ^fda_pipe_wrap\ +hopper:mma.m16n8k16.f32.f16.f16.f32\ +16\ +100000\ +0\ .*\ pass$ ]]; then
  ok "verify (a): fda_unit behind a 2-cycle/vector, 6-cycle-latency wrapper passes 100,000 vectors ($(awk '{print $6 " vec/s, " $7 " cycles/op, latency " $8}' <<<"$r"))"
else not_ok "verify (a): rc=$rc, row '$r': $(grep -m3 -E 'MISMATCH|STALL|EXTRA|verify:' <<<"$out" | tr '\n' ' ')"; fi
# the coverage model closes: every bin the instruction can reach is hit, the others give their reason
# (Hopper's f32 RZ output has no -0 and never overflows to inf from finite terms; no block scales; and
# the rule bins of the rules the instruction does not have, docs/rules.md)
closed=$(grep -m1 '^coverage closed: ' <<<"$out")
others=$(( $(build/mmaref rules --json | grep -c '"name"') - $(build/mmaref rules ${INSTR/:/ } | grep -c '^[a-z]') ))
if [[ $closed =~ ^coverage\ closed:\ ([0-9]+)\ of\ ([0-9]+)\ reachable\ bins\ hit,\ $((3 + others))\ unreachable && ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" \
      && $out == *"100000 vectors classified"* && $out != *"COVERAGE HOLE"* \
      && $out =~ "-0 "+"unreachable:  the output gives +0 for every zero result" ]]; then
  ok "verify (a): coverage closed: ${closed#coverage closed: }; $(grep -m1 'a tie (exactly' <<<"$out" | awk '{print $(NF-1)}') ties at D's last place"
else not_ok "verify (a): coverage: '$closed' $(grep -m2 'COVERAGE HOLE' <<<"$out" | tr '\n' ' ')"; fi
# the machine-readable results
if /usr/bin/python3 - build/verify/fda_pipe_wrap <<'PY'
import json, sys, xml.dom.minidom
d = json.load(open(sys.argv[1] + "/result.json"))
assert d["verdict"] == "pass" and d["vectors"] == 100000 and d["mismatches"] == 0 and d["holes"] == [], d
x = xml.dom.minidom.parse(sys.argv[1] + "/result.xml")
assert x.getElementsByTagName("testsuite")[0].getAttribute("failures") == "0"
assert not x.getElementsByTagName("failure")
PY
then ok "verify (a): result.json and result.xml (JUnit) say pass, 100000 vectors, no hole"
else not_ok "verify (a): result.json / result.xml of the passing run"; fi
# too few vectors to reach the directed corners: no mismatch, but holes -- exit 3, named in every output
out=$(DUT="rtl/rtl.f tests/verify/fda_pipe_wrap.sv" DUT_TOP=fda_pipe_wrap INSTR=$INSTR COUNT=50 verify 2>&1); rc=$?
n=$(grep -c '^COVERAGE HOLE: ' <<<"$out")
if [[ $rc == 3 && $n -gt 0 && $(row "$out") == *" HOLE" && $out == *"verify: HOLE (exit 3)"* ]] && /usr/bin/python3 - build/verify/fda_pipe_wrap "$n" <<'PY'
import json, sys, xml.dom.minidom
d = json.load(open(sys.argv[1] + "/result.json"))
assert d["verdict"] == "HOLE" and len(d["holes"]) == int(sys.argv[2]) and d["mismatches"] == 0, d
f = xml.dom.minidom.parse(sys.argv[1] + "/result.xml").getElementsByTagName("failure")
assert len(f) == 1 and "coverage hole" in f[0].getAttribute("message")
PY
then ok "verify (a): 50 vectors leave $n reachable bins unhit: exit 3, HOLE in the table, result.json and the JUnit failure"
else not_ok "verify (a): 50 vectors: rc=$rc, $n holes, row '$(row "$out")'"; fi
SIM=build/verify/fda_pipe_wrap/Vverify
out=$($SIM +count=20000 +seed=5 +bp +nofst 2>&1); rc=$?
[[ $rc == 0 && $out == *"vectors=20000 mismatches=0 "* ]] && ok "verify (a): with random backpressure and bubbles (+bp): 20,000 vectors pass" ||
  not_ok "verify (a) +bp: rc=$rc $(grep -m1 RESULT <<<"$out")"

# A and B of two widths (e2m1 beside e4m3): both reach the unit's 8-bit lanes from one operand word
# packed at the wider width; the unit serving the instruction must pass (a word packed at A's 4 bits
# cut B's operands: most vectors then mismatched)
MIXED=blackwell:tcgen05.mma.m64n8k32.f32.e2m1.e4m3
make -s build/rtl/gen/configs.txt >/dev/null 2>&1  # the unit table (instrs.txt, units.txt)
unit=$(awk -v n="${MIXED#*:}" '$1 == "blackwell" && $2 == n {print $4}' build/rtl/gen/instrs.txt 2>/dev/null)
params=$(awk -v u="$unit" '$1 == u {print $12}' build/rtl/gen/units.txt 2>/dev/null)
out=$(DUT=rtl/rtl.f DUT_TOP=fda_unit INSTR=$MIXED PARAMS=$params DUT_AW=8 COUNT=20000 verify 2>&1); rc=$?
r=$(row "$out")
[[ -n $params && $rc == 0 && $(awk '{print $4, $5, $NF}' <<<"$r") == "20000 0 pass" ]] &&
  ok "verify (a): A e2m1 and B e4m3 in 8-bit lanes: fda_unit ($params) passes 20,000 vectors of $MIXED" ||
  not_ok "verify (a): mixed widths: params '$params' rc=$rc row '$r' $(grep -m2 -E 'MISMATCH|verify:' <<<"$out" | tr '\n' ' ')"

# (b) mutants of the wrapper: the bench must catch a reordered and a dropped result
out=$($SIM +count=20000 +wrap_mutant=1 +nofst 2>&1); rc=$?
m=$(sed -n 's/.* mismatches=\([0-9]*\).*/\1/p' <<<"$out")
[[ $rc == 1 && ${m:-0} -gt 0 ]] && ok "verify (b): mutant wrapper handing results out in swapped pairs caught ($m mismatches)" ||
  not_ok "verify (b): swapped-pairs mutant not caught: rc=$rc $(grep -m1 RESULT <<<"$out")"
out=$($SIM +count=20000 +wrap_mutant=2 +nofst 2>&1); rc=$?
m=$(sed -n 's/.* mismatches=\([0-9]*\).*/\1/p' <<<"$out")
[[ $rc == 1 && ${m:-0} -gt 0 && $out == *"STALL "* ]] && ok "verify (b): mutant wrapper dropping result 500 caught ($m mismatches, then a STALL on the missing last result)" ||
  not_ok "verify (b): dropped-result mutant not caught: rc=$rc $(grep -m2 -E 'RESULT|STALL' <<<"$out" | tr '\n' ' ')"

# (c) the independent example fails, with decoded reports
out=$(make -s verify-example COUNT=20000 2>&1); rc=$?
r=$(row "$out")
m=$(awk '{print $5}' <<<"$r")
first=$(grep -m1 '^MISMATCH' <<<"$out")
if [[ $rc != 0 && $r =~ ^naive_dot\ +hopper:mma.m16n8k16.f32.f16.f16.f32\ +16\ +20000\ +[0-9]+\ .*\ FAIL$ && ${m:-0} -gt 0 \
      && $first =~ ^MISMATCH\ hopper:mma.m16n8k16.f32.f16.f16.f32\ unit\ naive_dot\ seed\ 1\ index\ [0-9]+\ \([a-z]+\)$ \
      && $(grep -c '^MISMATCH' <<<"$out") == 5 && $out == *"  algo FDA K 16 F 25 passes 1 out f32-rz block 0"* \
      && $out =~ $'\n'"  model  f32    0x"[0-9a-f]{8}"  sign " && $out =~ $'\n'"  rtl    f32    0x"[0-9a-f]{8}"  sign " \
      && $out == *"waveform of index "* && -s build/verify/naive_dot/fail.fst ]]; then
  ok "verify (c): make verify-example FAILS as it must: $m of 20,000 mismatch, 5 decoded reports, waveform build/verify/naive_dot/fail.fst"
else not_ok "verify (c): example: rc=$rc row '$r' first '$first'"; fi
# docs/verify-your-design.md ("What it prints") shows this run: its coverage lines and mismatch count are
# the run's (the vectors a second, a timing, aside)
bad=""
for l in "  rule       vectors checked" "  rule       nan-canonical" "  rounding   a tie (exactly" "rules at their floor:" \
         "coverage closed:"; do
  want=$(grep -m1 -F -- "$l" docs/verify-your-design.md) got=$(grep -m1 -F -- "$l" <<<"$out")
  [[ -n $want && $want == "$got" ]] || bad+=" [doc '$want', run '$got']"
done
doc_m=$(grep -m1 '^naive_dot  ' docs/verify-your-design.md | awk '{print $5}')
[[ $doc_m != "$m" ]] && bad+=" [doc's row: $doc_m mismatches, run: $m]"
[[ -z $bad ]] && ok "verify (c): docs/verify-your-design.md's transcript is this run's ($m mismatches, its coverage lines)" ||
  not_ok "verify (c): docs/verify-your-design.md's transcript differs from the run:$bad"
# the FMA chain rounds after every product: its errors land in the rounding bins
ties=$(grep -m1 '^  rounding   a tie (exactly' <<<"$out" | awk '{print $(NF-1), $NF}')
[[ $ties =~ ^[0-9]+\ [1-9][0-9]*$ ]] && ok "verify (c): mismatches counted per coverage bin (ties at D's last place: $ties of them wrong)" ||
  not_ok "verify (c): bin mismatch counts: '$ties'"
/usr/bin/python3 -c "import json,sys; d=json.load(open('build/verify/naive_dot/result.json')); sys.exit(not (d['verdict']=='FAIL' and d['mismatches']==$m and d['first_mismatch_index'] is not None))" &&
  ok "verify (c): result.json: FAIL, $m mismatches, the first one's index" || not_ok "verify (c): result.json of the failing run"
DUT=examples/naive_dot/naive_dot.sv INSTR=$INSTR COUNT=2000 verify >/dev/null 2>&1; rc=$?
[[ $rc == 1 ]] && ok "verify (c): tb/verify/verify.sh exits 1 on mismatches" || not_ok "verify (c): exit status $rc on mismatches (want 1)"

# the hand-derived case through pipe mode (see the header)
line="3f800000 3c00 3c00 $(printf '0 %.0s' {1..14}) 0001 0001 $(printf '0 %.0s' {1..14})"
got_naive=$(build/verify/naive_dot/Vverify +pipe <<<"$line" 2>&1)
got_fda=$(build/verify/fda_pipe_wrap/Vverify +pipe <<<"$line" 2>&1)
want=$(build/mmaref batch hopper mma.m16n8k16.f32.f16.f16.f32 <<<"$line")
[[ $got_naive == 0x3f800000 && $got_fda == 0x3f800001 && $want == 0x3f800001 ]] &&
  ok "verify (c): 1 + 2^-24 + 2^-24: the FMA chain gives 0x3f800000 (ties to even twice), Hopper and fda_unit 0x3f800001" ||
  not_ok "verify (c): hand-derived case: naive '$got_naive' (want 0x3f800000), fda '$got_fda', model '$want' (want 0x3f800001)"

# (g) the mismatch report of one vector, replayed as docs/verify-your-design.md says: the first vector of
# the stream (seed 1) with C the largest f32 subnormal, 0x007fffff or 0x807fffff, and a zero A or B lane
# that the example gets wrong.  Hand derivation: 0x?07fffff = (2^23 - 1) * 2^-149 = (1 - 2^-23) * 2^-126,
# so exp -126 (f32's smallest, 1 - 127) and sig 1 - 2^-23 = 0.99999988079..., 0.9999998808 to 10 digits;
# a zero operand enters e_max at -126 (ZERO_OPERAND_EXP), and Hopper's zero terms with exponent -133.
build/mmaref gen hopper mma.m16n8k16.f32.f16.f16.f32 --n 20000 >"$tmp/stream.txt"
awk '($1 == "007fffff" || $1 == "807fffff") { for (i = 2; i <= 33; i++) if ($i == "0000") { print NR - 1, $0; next } }' \
  "$tmp/stream.txt" >"$tmp/cands.txt"
at=""
while read -r idx vec; do
  [[ $(build/verify/naive_dot/Vverify +pipe <<<"$vec") != "$(build/mmaref batch hopper mma.m16n8k16.f32.f16.f16.f32 <<<"$vec")" ]] \
    && { at=$idx; picked=$vec; break; }
done <"$tmp/cands.txt"
if [[ -z $at ]]; then not_ok "verify (g): no vector of the first 20,000 with C 0x?07fffff and a zero lane that naive_dot gets wrong"
else
  read -r -a f <<<"$picked"
  sign=$(( 16#${f[0]:0:1} >> 3 ))
  z=0; while [[ ${f[z + 1]} != 0000 ]]; do z=$((z + 1)); done   # the first zero lane: a[z] (z < 16) or b[z - 16]
  lane=$([[ $z -lt 16 ]] && echo "a[$z]" || echo "b[$((z - 16))]")
  zero_line=$(printf '  %-6s f16    0x0000  sign 0  exp -126  sig 0  = 0' "$lane")
  out=$(build/verify/naive_dot/Vverify +first="$at" +count=1 +show +nofst 2>&1); rc=$?
  if [[ $rc == 1 && $out == *$'\n'"  c      f32    0x${f[0]}  sign $sign  exp -126  sig 0.9999998808  = "* &&
        $out == *$'\n'"$zero_line"$'\n'* &&
        $out == *"block 0  (a zero term, C or a product with a zero factor, enters e_max with exponent -133)"* ]]; then
    ok "verify (g): vector $at's report: C 0x${f[0]} is 0.9999998808 x 2^-126, the zero $lane has exponent -126"
  else not_ok "verify (g): vector $at's report (rc=$rc): $(grep -E '^  (c |algo)' <<<"$out" | tr '\n' ' ') $(grep -F "  $lane " <<<"$out")"; fi
  res=$(grep -m1 '^RESULT' <<<"$out")
  if [[ $res == *" vectors=1 mismatches=1 "* && $res == *" cycles/op=- "* && $out != *"HOLE"* && $out != *"  group "* &&
        $out == *"1 vectors classified, not judged on a replay (+first=$at, +show)"* ]]; then
    ok "verify (g): the replay of vector $at prints no coverage table or hole and cycles/op=-"
  else not_ok "verify (g): the replay of vector $at: '$res', $(grep -c HOLE <<<"$out") HOLE lines, $(grep -m1 '^coverage' <<<"$out")"; fi
fi

# (d) pipe mode against mmaref batch
build/mmaref gen hopper mma.m16n8k16.f32.f16.f16.f32 --n 3000 --seed 3 >"$tmp/in.txt"
build/mmaref batch hopper mma.m16n8k16.f32.f16.f16.f32 <"$tmp/in.txt" >"$tmp/want.txt"
$SIM +pipe <"$tmp/in.txt" >"$tmp/got.txt" 2>"$tmp/err.txt"; rc=$?
if [[ $rc == 0 && ! -s $tmp/err.txt ]] && cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
  ok "verify (d): pipe mode: fda_pipe_wrap's 3,000 D lines equal mmaref batch's, byte for byte"
else not_ok "verify (d): pipe mode: rc=$rc, $(wc -l <"$tmp/got.txt") lines, $(head -c 200 "$tmp/err.txt"), diff $(diff "$tmp/got.txt" "$tmp/want.txt" | head -3 | tr '\n' ' ')"; fi
n=$(build/verify/naive_dot/Vverify +pipe <"$tmp/in.txt" | diff - "$tmp/want.txt" | grep -c '^<')
[[ $n -gt 0 ]] && ok "verify (d): pipe mode of the example differs from batch on $n of 3,000 lines" ||
  not_ok "verify (d): the example's pipe output equals batch's (it must not)"

# the project's bench in pipe mode: one configuration per operand path (32-bit lanes; scales; M3XU's
# packed word; SFMA's f64 lanes)
if out=$(make -s rtl 2>&1); then
  cfg=build/rtl/gen/configs.txt
  for pick in "hopper mma.m16n8k16.f32.f16.f16.f32" "blackwell mma.m16n8k32.f32.e4m3.e4m3.f32" \
              "blackwell tcgen05.mma.m128n8k32.block32.f32.e4m3.e2m1.ue8m0" "m3xu m3xu.m8n4k4.f32.f32.f32.f32" \
              "hopper mma.m16n8k8.f64.f64.f64.f64"; do
    read -r arch name <<<"$pick"
    idx=$(awk -v a="$arch" -v n="$name" '$3 == "check" && $4 == a && $5 == n {print $1; exit}' "$cfg")
    if [[ -z $idx ]]; then not_ok "verify (d): no configuration for $arch $name in $cfg"; continue; fi
    build/mmaref gen "$arch" "$name" --n 1500 --seed 4 >"$tmp/in.txt"
    build/mmaref batch "$arch" "$name" <"$tmp/in.txt" >"$tmp/want.txt"
    build/rtl/obj/Vtb_mma +cfg="$idx" +pipe <"$tmp/in.txt" >"$tmp/got.txt" 2>"$tmp/err.txt"; rc=$?
    if [[ $rc == 0 && ! -s $tmp/err.txt ]] && cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
      ok "verify (d): Vtb_mma +cfg=$idx +pipe ($arch $name): 1,500 D lines equal mmaref batch's"
    else not_ok "verify (d): Vtb_mma +cfg=$idx +pipe ($arch $name): rc=$rc $(head -c 200 "$tmp/err.txt") $(diff "$tmp/got.txt" "$tmp/want.txt" | head -2 | tr '\n' ' ')"; fi
  done
else not_ok "verify (d): make rtl: $(tail -3 <<<"$out")"; fi

# (e) bad input
expect_error "verify (e): no DUT" "verify: DUT= is required" env INSTR=$INSTR DUT= bash tb/verify/verify.sh
expect_error "verify (e): a DUT file that does not exist" "verify: DUT: no such file 'nope/unit.sv'" \
  env DUT=nope/unit.sv INSTR=$INSTR bash tb/verify/verify.sh
root=$PWD
expect_error "verify (e): a relative DUT given from another directory: read from the repository root, said so" \
  "verify: DUT: no such file 'examples/naive_dot.sv' (a relative path is read from the repository root, $root)" \
  bash -c "cd '$tmp' && DUT=examples/naive_dot.sv INSTR=$INSTR bash '$root/tb/verify/verify.sh'"
err=$(env DUT="$tmp/none.sv" INSTR=$INSTR bash tb/verify/verify.sh 2>&1); rc=$?
[[ $rc == 2 && $err == "verify: DUT: no such file '$tmp/none.sv'" ]] && ok "verify (e): an absolute path that does not exist: no word of the root" \
  || not_ok "verify (e): an absolute path that does not exist: rc=$rc '$err'"
expect_error "verify (e): an unknown instruction" "verify: INSTR: mmaref: hopper has no instruction 'bogus'" \
  env DUT=examples/naive_dot/naive_dot.sv INSTR=hopper:bogus bash tb/verify/verify.sh
expect_error "verify (e): INSTR without ARCH:" "verify: INSTR=mma.m16n8k16.f32.f16.f16.f32: expected ARCH:INSTRUCTION" \
  env DUT=examples/naive_dot/naive_dot.sv INSTR=mma.m16n8k16.f32.f16.f16.f32 bash tb/verify/verify.sh
expect_error "verify (e): DUT_TOP not in the files" "verify: DUT_TOP=nothere: no 'module nothere'" \
  env DUT=examples/naive_dot/naive_dot.sv DUT_TOP=nothere INSTR=$INSTR bash tb/verify/verify.sh
expect_error "verify (e): a unit without the d port" "bad_no_d does not meet the port contract: it has no port 'd'" \
  env DUT=tests/verify/bad_no_d.sv INSTR=$INSTR bash tb/verify/verify.sh
# the hint: the instruction's K (16) as the unit's parameter, PARAMS=K=16
expect_error "verify (e): a unit with 8 lanes for K = 16, with the hint to set K" "generates 256 bits; if the unit's lane count is its parameter K, set it to the instruction's: PARAMS=K=16" \
  env DUT=tests/verify/bad_width.sv INSTR=$INSTR bash tb/verify/verify.sh
[[ -f build/verify/bad_width/stamp ]] || not_ok "verify (e): bad_width's build (Verilator only warns) was not kept, so the next case tests nothing"
expect_error "verify (e): the same unit again, its build kept from the run before" "bad_width does not meet the port contract: a port of the wrong width for $INSTR K=16" \
  env DUT=tests/verify/bad_width.sv INSTR=$INSTR bash tb/verify/verify.sh
expect_error "verify (e): a bad pipe line" "pipe: stdin line 2, field 3: not a hex number" \
  bash -c "printf '%s\n' '$line' '3f800000 3c00 xyz' | build/verify/naive_dot/Vverify +pipe"
expect_error "verify (e): a pipe line with too few fields" "pipe: stdin line 1: 3 fields, expected 33" \
  bash -c "echo '3f800000 3c00 3c00' | build/verify/naive_dot/Vverify +pipe"
expect_error "verify (e): a pipe field wider than its format" "pipe: stdin line 1, field 2: 0x13c00 does not fit in f16" \
  bash -c "echo '${line/3c00/13c00}' | build/verify/naive_dot/Vverify +pipe"
# make verify hands DUT and the rest to the script as shell words (shell_word, Makefile): a quote, a
# backquote or a $(...) in a value is a character of it, never a command
for dut in "a\" \`touch $tmp/PWNED\` \"b.sv" "it's \$(touch $tmp/PWNED).sv"; do
  err=$(make -s verify DUT="$dut" INSTR=$INSTR PARAMS="'\$(touch $tmp/PWNED)'" 2>&1); rc=$?
  if [[ $rc -ne 0 && $(head -1 <<<"$err") == "verify: DUT: '"*"' is not a path of "* && ! -e $tmp/PWNED ]]; then
    ok "make verify DUT='${dut:0:14}...': not a path, no command run"
  else not_ok "make verify DUT='$dut': rc=$rc, $(ls "$tmp" | grep PWNED), stderr '$err'"; fi
done

# (f) an `include file of the unit is one of the build's inputs: naive_dot with a header of its own, built
# once; unchanged, the build is kept (a Verilator that only fails is never called); the header changed,
# make verify builds again
mkdir -p "$tmp/inc" "$tmp/bin"
{ echo '`include "naive_dot_note.svh"'; cat examples/naive_dot/naive_dot.sv; } >"$tmp/inc/naive_dot.sv"
echo "// the first version" >"$tmp/inc/naive_dot_note.svh"
printf '#!/bin/sh\necho "verilator: not this one" >&2; exit 1\n' >"$tmp/bin/verilator"; chmod +x "$tmp/bin/verilator"
echo "3f800000 $(printf '0 %.0s' {1..32})" >"$tmp/inc/one.txt"            # C = 1.0, every product 0: D = 1.0
printf '+incdir+%s\n%s\n' "$tmp/inc" "$tmp/inc/naive_dot.sv" >"$tmp/inc/unit.f"  # a .f: where the header is
vinc() { env VERIFY_DIR="$tmp/inc/build" DUT="$tmp/inc/unit.f" DUT_TOP=naive_dot INSTR=$INSTR VECTORS="$tmp/inc/one.txt" \
           "$@" bash tb/verify/verify.sh 2>&1; }
out=$(vinc); rc=$?
if [[ $rc == 0 && $out == *"verify: building naive_dot"* && $out == *"verify: pass"* ]]; then
  ok "verify (f): naive_dot with an \`include file: built, passes"
  out=$(vinc PATH="$tmp/bin:$PATH"); rc=$?
  [[ $rc == 0 && $out != *"building"* ]] && ok "verify (f): nothing changed: the build kept" \
    || not_ok "verify (f): nothing changed, yet rc=$rc: $(head -3 <<<"$out" | tr '\n' ' ')"
  echo "// the second version" >"$tmp/inc/naive_dot_note.svh"
  out=$(vinc PATH="$tmp/bin:$PATH"); rc=$?
  [[ $rc != 0 && $out == *"verify: building naive_dot"* ]] && ok "verify (f): the \`include file changed: built again" \
    || not_ok "verify (f): the \`include file changed, yet rc=$rc: $(head -3 <<<"$out" | tr '\n' ' ')"
else not_ok "verify (f): naive_dot with an \`include file: rc=$rc $(tail -3 <<<"$out" | tr '\n' ' ')"; fi
