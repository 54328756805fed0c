# The rule inventory (cmodel/src/rules.c, `mmaref rules`, docs/rules.md): the list; planted bugs checked on
# vectors derived by hand (a vector catches a rule when the bug changes D; one beside it that must not);
# the mixed stream's rule vectors (every fourth); the coverage model's rule bins and their floor (1 in
# 100 of a run), which a stream without rule vectors misses; and the margin of a default run (100,000
# vectors, seed 1) on one instruction per summation schedule and operand family.
# runtime: 40 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
M=$MMAREF

# --- the inventory: every rule with its step, rule, bug and, per architecture, how silicon decided it
n=$("$M" rules --json | python3 -c '
import json, sys
rules = json.load(sys.stdin)
bad = [r["name"] for r in rules if not all(r[f] for f in ("name", "step", "rule", "bug", "silicon"))
       or any(g["kind"] not in ("measured", "paper", "extrapolated") or not g["source"] or not g["a"]
              for groups in r["silicon"].values() for g in groups)]
print(len(rules) if not bad else "incomplete: " + " ".join(bad))')
[[ $n =~ ^[0-9]+$ && $n -ge 20 ]] && ok "rules: the inventory lists $n rules, each with its step, bug and silicon marks" \
  || not_ok "rules: the inventory: $n"
# marks the papers fix: CDNA1 (MI100) is in no paper's experiments; MFMA's NaN payload is left open (MMA-Sim
# paper, section V); the zero term's -133 was measured on Hopper's bf16 and tf32, not on its f16
mark() { "$M" rules "$1" "$2" --json | python3 -c 'import json, sys
print(*[r["silicon"]["kind"] for r in json.load(sys.stdin) if r["name"] == sys.argv[1]])' "$3"; }
got="$(mark cdna1 v_mfma_f32_32x32x4f16 subnormal-operand) $(mark cdna3 v_mfma_f32_32x32x16_fp8_bf8 nan-canonical)"
got+=" $(mark hopper wgmma.m64n8k16.f32.bf16.bf16 zero-term-exp) $(mark hopper wgmma.m64n8k16.f32.f16.f16 zero-term-exp)"
got+=" $(mark volta mma.m8n8k4.f32.f16.f16.f32 window-F)"
[[ $got == "extrapolated extrapolated measured extrapolated paper" ]] &&
  ok "rules: silicon marks: CDNA1 extrapolated, CDNA3's NaN payload extrapolated, Hopper's zero term measured on bf16, not f16; Volta's F from the paper" ||
  not_ok "rules: silicon marks: $got"
expect_error "rules: an instruction that does not exist" "has no instruction" "$M" rules hopper mma.nothing
expect_error "rules: --catch without an instruction" "--catch needs ARCH INSTRUCTION" "$M" rules --catch
expect_error "rules: --break of no rule" "--break: no rule 'nope'" "$M" rules cdna3 v_mfma_f32_32x32x16_fp8_bf8 --break nope
expect_error "rules: --break of a rule the instruction lacks" "has no rule scale-max" "$M" rules cdna3 v_mfma_f32_32x32x16_fp8_bf8 --break scale-max
expect_error "rules: --nan-any alone" "--nan-any goes with --catch" "$M" rules cdna3 v_mfma_f32_32x32x16_fp8_bf8 --nan-any
echo "00000000 1 2" >"$tmp/short.txt"
expect_error "rules: a line with too few fields" "line 1: 3 fields" \
  sh -c "\"$M\" rules cdna3 v_mfma_f32_32x32x16_fp8_bf8 --catch <\"$tmp/short.txt\""

# catch ARCH INSTR RULE LINE: how many of the line's vectors catch RULE (0 or 1)
catch() { printf '%s\n' "$4" | "$M" rules "$1" "$2" --catch | awk -v r="$3" '$1 == r {print $2}'; }
rep() { local s="" i; for ((i = 0; i < $1; i++)); do s+=" $2"; done; echo "${s# }"; }
alt() { local s="" i; for ((i = 0; i < $1; i++)); do s+=" $2 $3"; done; echo "${s# }"; }
hand() { # WHAT ARCH INSTR RULE EXPECT_MODEL_D EXPECT_CATCH LINE
  local d got
  d=$(printf '%s\n' "$7" | "$M" batch "$2" "$3" 2>&1)
  got=$(catch "$2" "$3" "$4" "$7")
  if [[ $d == "0x$5" && $got == "$6" ]]; then ok "rules: $1: D = $d, caught by $got"
  else not_ok "rules: $1: D = $d (hand: $5), caught by '$got' (hand: $6)"; fi
}
W=hopper; WI=wgmma.m64n8k32.f32.e4m3.e4m3
# zero-term-exp (hand, docs/algorithms.md FDA Step 3): every product +0 x 2^8 (B = 0x78), C = 0x80009513
# (about -2^-133.8): under -133 C sets e_max and D = 0x80009400 (C truncated to F = 13 bits below its own
# exponent); under the convention the zero products' -126 + 8 sets e_max = -118, C falls below the grid, +0.
hand "zero-term-exp, zero products beside a tiny C" $W $WI zero-term-exp 80009400 1 "80009513 $(rep 32 00) $(rep 32 78)"
# ... and with C = 1.0 both rules keep C whole: not caught
hand "zero-term-exp, zero products beside C = 1" $W $WI zero-term-exp 3f800000 0 "3f800000 $(rep 32 00) $(rep 32 78)"
G=cdna3; GI=v_mfma_f32_32x32x16_fp8_bf8
# zero-operand-exp on GFDRDA (K = 16): A every lane +0 (e4m3fnuz 0x00), B 2^15 (e5m2fnuz 0x7c, bias 16).  The model's
# zero products have exponent -126 + 15: e_max = e_c = 0 and C = 1 + 2^-23 (0x3f800001) is kept.  A unit
# decoding the zero at e4m3fnuz's own -7 gets -7 + 15 = 8 = e_max: C keeps 24 bits below 2^8, down to
# 2^-16, and its 2^-23 is dropped: 0x3f800000.
hand "zero-operand-exp, zero x 2^15 beside C = 1 + 2^-23" $G $GI zero-operand-exp 3f800001 1 "3f800001 $(rep 16 00) $(rep 16 7c)"
hand "zero-operand-exp, the same with C = 1" $G $GI zero-operand-exp 3f800000 0 "3f800000 $(rep 16 00) $(rep 16 7c)"
# c-window: products +1, -1 alternating (A 0x40 / 0xc0 = +-1.0, B 0x40 = 1.0): the even and the odd sums
# cancel, e_dot = e_max = 0.  C = -2^-25 (0xb3000000): e_c = e_max - 25 is not below the window, C
# rounds down at 24 bits to -2^-24 (0xb3800000); a unit switching one binade early rounds it toward 0.
hand "c-window, C = -2^-25 beside a dot that cancels" $G $GI c-window b3800000 1 "b3000000 $(alt 8 40 c0) $(rep 16 40)"
# ... C = -2^-26 is below either window: toward zero for both, +0
hand "c-window, C = -2^-26" $G $GI c-window 00000000 0 "b2800000 $(alt 8 40 c0) $(rep 16 40)"
# output-ties and output-sticky on Hopper's f16 FDA (F = 25, D f16 rounded to nearest even): C = 1.0
# (0x3c00), a0 b0 = 2^-11 x 1 (0x1000 x 0x3c00): 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 (D's last
# place), a tie: to even 0x3c00, away from zero 0x3c01.  With a1 b1 = 2^-12 too the sum lies above halfway:
# 0x3c01; a unit that sees only the round bit takes it for a tie, 0x3c00.
HF=wgmma.m64n8k16.f16.f16.f16 Z14=$(rep 14 0000)
hand "output-ties, C = 1 + 2^-11 exactly halfway" hopper $HF output-ties 3c00 1 "3c00 1000 0000 $Z14 3c00 0000 $Z14"
hand "output-ties, the same just above halfway: no tie" hopper $HF output-ties 3c01 0 "3c00 1000 0c00 $Z14 3c00 3c00 $Z14"
hand "output-sticky, 1 + 2^-11 + 2^-12: above halfway" hopper $HF output-sticky 3c01 1 "3c00 1000 0c00 $Z14 3c00 3c00 $Z14"
hand "output-sticky, exactly halfway: sticky bits zero" hopper $HF output-sticky 3c00 0 "3c00 1000 0000 $Z14 3c00 0000 $Z14"
# zero-sign on NVIDIA's fused sum: C = -0, every product -0 (A +0, B -1.0 = 0xbc00): D = +0; IEEE's -0
H=hopper; HI=mma.m16n8k16.f32.f16.f16.f32
hand "zero-sign, C = -0 and every product -0" $H $HI zero-sign 00000000 1 "80000000 $(rep 16 0000) $(rep 16 bc00)"

# --- the mixed stream: every fourth vector a rule vector, the others the directed-then-random stream
"$M" gen $G $GI --n 8 >"$tmp/mixed.txt"
"$M" gen $G $GI --kind directed --n 6 >"$tmp/directed.txt"
"$M" gen $G $GI --kind rule --n 2 >"$tmp/rule.txt"
want=$(sed -n '1,3p' "$tmp/directed.txt"; sed -n 1p "$tmp/rule.txt"; sed -n '4,6p' "$tmp/directed.txt"; sed -n 2p "$tmp/rule.txt")
[[ $(cat "$tmp/mixed.txt") == "$want" ]] && ok "rules: the mixed stream is three directed vectors, then a rule vector, again" \
  || not_ok "rules: the mixed stream's first 8 vectors are not directed 0-2, rule 0, directed 3-5, rule 1"

# --- the coverage model's rule bins: the default stream meets every floor; a raw stream does not
nr=$("$M" rules $G $GI | grep -c '^[a-z]')   # the instruction's rules
out=$("$M" gen $G $GI --n 20000 --coverage 2>&1 >/dev/null); rc=$?
rows=$(grep -c '^  rule ' <<<"$out")
if [[ $rc == 0 && $rows -ge 12 && $out != *"HOLE"* && $out == *"zero-operand-exp"*"floor 200"* &&
      $out == *"rules at their floor: $nr of $nr (1 in 100 of the run catches each)"* ]]; then
  ok "rules: coverage of 20,000 mixed vectors: $rows rule rows, every rule at its floor of 200 or above"
else not_ok "rules: coverage of 20,000 mixed vectors: rc=$rc, $rows rule rows: $(grep -m3 -e 'HOLE' -e 'at their' <<<"$out" | tr '\n' ' ')"; fi
out=$("$M" gen $G $GI --n 20000 --kind random --coverage 2>&1 >/dev/null); rc=$?
if [[ $rc == 3 && $out == *"COVERAGE HOLE: rule: zero-operand-exp -- "*" vectors catch it, below its floor 200"* &&
      $out == *"COVERAGE HOLE: rule: c-window -- "* && $out == *"rules at their floor: "*" of $nr"* ]]; then
  ok "rules: a stream without rule vectors leaves zero-operand-exp and c-window below their floor: holes, exit 3"
else not_ok "rules: a random stream: rc=$rc $(grep -m3 -e 'HOLE: rule' -e 'at their' <<<"$out" | tr '\n' ' ')"; fi

# --- the margin of a default run: every rule of each representative instruction caught by 1,000 of
# 100,000 vectors (make regress: every distinct configuration, tests/t_model_rules_all.sh)
out=$(python3 tools/rules_margin.py --mmaref "$M" --floor 1000 2>&1); rc=$?
reps=$(grep -vc '^BELOW' <<<"$out")
if [[ $rc == 0 && $reps -ge 14 && $out != *BELOW* ]]; then
  ok "rules: margin on $reps representative instructions: every rule caught by 1,000 of 100,000 vectors or more"
else not_ok "rules: margin: rc=$rc $(grep -m5 '^BELOW' <<<"$out" | tr '\n' ' ')"; fi

# --- the probe asks every question in every family: on each representative instruction (one per
# summation schedule and operand family), every rule it has is caught by a directed vector (the probe's
# battery), so a unit breaking it answers otherwise
gaps=""
for r in $(grep -v '^#' docs/data/rules-margin.tsv | tail -n +2 | cut -f1 | sort -u); do
  z=$("$M" gen "${r%%:*}" "${r#*:}" --kind directed | "$M" rules "${r%%:*}" "${r#*:}" --catch |
      awk '!/^#/ && $2 == 0 {printf " %s", $1}')
  [[ -n $z ]] && gaps+=" $r:$z;"
done
n=$(grep -v '^#' docs/data/rules-margin.tsv | tail -n +2 | cut -f1 | sort -u | wc -l)
[[ -z $gaps && $n -ge 14 ]] && ok "rules: on $n representative instructions every rule is caught by a directed vector" ||
  not_ok "rules: directed vectors that catch no vector of a rule:$gaps"

# --- --break: a unit with the planted bug, D per line; NaN payload bugs vanish under --nan-any
F64=mma.m16n8k8.f64.f64.f64.f64
# C a NaN with a payload (0x7ff8...0123), every product +0: the model's D is the canonical NaN, a unit
# breaking nan-canonical passes C's payload through
line="7ff8000000000123 $(rep 16 0000000000000000)"
got="$(printf '%s\n' "$line" | "$M" rules hopper $F64 --break nan-canonical) $(catch hopper $F64 nan-canonical "$line")"
got+=" $(printf '%s\n' "$line" | "$M" rules hopper $F64 --catch --nan-any | awk '$1 == "nan-canonical" {print $2}')"
[[ $got == "0x7ff8000000000123 1 0" ]] && ok "rules: --break nan-canonical passes C's payload; caught, but not with --nan-any" ||
  not_ok "rules: --break / --nan-any on a NaN C: $got"

# --- the probe tells every rule apart, in every format family: on one instruction of each (IEEE f16, tf32,
# FN e4m3, FNUZ FP8, MX e2m1 with scales) it names, per rule, the battery query that decides it
for r in volta:mma.m8n8k4.f32.f16.f16.f32 ampere:mma.m16n8k8.f32.tf32.tf32.f32 ada:mma.m16n8k16.f32.e4m3.e4m3.f32 \
         cdna3:v_mfma_f32_32x32x16_fp8_fp8 blackwell:tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0; do
  a=${r%%:*} i=${r#*:}
  n=$("$M" rules "$a" "$i" | grep -c '^[a-z]')
  out=$("$M" probe "$a" "$i" --confirm 500 2>&1); rc=$?
  [[ $rc == 0 && $out == *"the battery tells $n of the $n rules apart"* ]] &&
    ok "rules: probe $r: the battery tells each of its $n rules apart" ||
    not_ok "rules: probe $r: rc=$rc, $(grep -m1 'the battery tells' <<<"$out"), $(grep -B1 -m3 'no battery query' <<<"$out" | tr '\n' ' ')"
done
# ... and a device that breaks one is no match (exit 1): CDNA3's zero operand at its format's own exponent
out=$("$M" probe --formats e4m3fnuz,e4m3fnuz,f32,f32 --k 16 --confirm 200 -- \
      "$M" rules cdna3 v_mfma_f32_32x32x16_fp8_fp8 --break zero-operand-exp 2>&1); rc=$?
[[ $rc == 1 && $out == *"verdict: no"* && $out != *"match: cdna3 v_mfma_f32_32x32x16_fp8_fp8"* ]] &&
  ok "rules: probe of a unit breaking zero-operand-exp on CDNA3 FP8: no match (exit 1)" ||
  not_ok "rules: probe of a unit breaking zero-operand-exp: rc=$rc $(grep -m2 verdict <<<"$out")"

# --- docs/rules.md's tables are the inventory's, the margin file's and the H200 run's; the measured marks
# are the run's catches
out=$(/usr/bin/env python3 tools/rules_margin.py --check docs/rules.md docs/data/rules-margin.tsv docs/data/rules-silicon.tsv 2>&1) &&
  ok "rules: $out" || not_ok "rules: $out"
