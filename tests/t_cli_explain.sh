# mmaref explain (cmodel/src/explain.c, cmodel/tools/cmd_explain.c; docs/explain.md):
#   - the traced D equals mmaref_dot's for every distinct configuration of the table, on its directed
#     vectors and EXPLAIN_COUNT seeded random ones (default 2,000 in make test; make regress: 100,000);
#   - the demo's first case: where Volta (F = 23) and Hopper (F = 25) part, derived by hand;
#   - CDNA3's -0.25 (the MMA-Sim paper, section VI-C): where it comes from, derived by hand;
#   - --vs marks the first step whose value differs (not its wording);
#   - lanes whose product is an exact zero and contributes nothing fold into one line per step
#     (--all-lanes: every lane), a zero product that sets e_max excepted;
#   - chained passes (Ampere CoFDA), SFMA's FMAs, GPS's pairwise sums, --json, and bad input.
# runtime: 10 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
LIB=${MMAREF_LIB:-build/libmmaref.a}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if cc -std=gnu11 -O2 -Wall -Wextra -Werror -Icmodel/include -o "$tmp/explain_check" tests/api/explain_check.c "$LIB" -lm \
   2>"$tmp/cc.log"; then
  out=$("$tmp/explain_check" "${EXPLAIN_COUNT:-2000}"); rc=$?
  n=$(grep -c '^ok' <<<"$out")
  if [[ $rc == 0 && $n -gt 100 ]] && ! grep -q '^not ok' <<<"$out"; then
    ok "explain: the traced D = mmaref_dot on every one of the $n distinct configurations (directed + ${EXPLAIN_COUNT:-2000} random vectors each)"
  else grep '^not ok' <<<"$out" | head -5; not_ok "explain: traced D vs mmaref_dot: rc=$rc, $n configurations ok"; fi
else
  not_ok "tests/api/explain_check.c does not build: $(head -3 "$tmp/cc.log")"
fi

# The demo's first case: c = 1, four products 2^-12 * 2^-13 = 2^-25.  e_max = 0 (C's exponent); F keeps
# bits down to 2^-F.  Volta (F = 23): 2^-25 lies two bits below the window: kept 0, the one bit dropped
# (with the product's 20 zero fraction bits after it); Hopper (F = 25): kept as the window's last bit,
# 0.(24 zeros)1, nothing lost.  So Step 3 p[0] is where they part, and D = 1 vs 1 + 2^-23.
A=0x1p-12,0x1p-12,0x1p-12,0x1p-12 B=0x1p-13,0x1p-13,0x1p-13,0x1p-13
out=$("$MMAREF" explain volta mma.m8n8k4.f32.f16.f16.f32 -a $A -b $B -c 1 --vs hopper mma.m16n8k8.f32.f16.f16.f32)
want_v="  volta         shifted right 25: kept +0.0, dropped: 100000000000000000000 (truncated)"
want_h="  hopper        shifted right 25: kept +0.0000000000000000000000001, dropped: only zeros"
if grep -qxF "first divergence (>>): pass 0, Step 3, p[0]" <<<"$out" && grep -qxF "$want_v" <<<"$out" &&
   grep -qxF "$want_h" <<<"$out" && grep -q "^   D  .*0x3f800000" <<<"$out" && grep -q "^   D  .*0x3f800001" <<<"$out"; then
  ok "explain --vs: Volta and Hopper part at Step 3 on p[0] (2^-25 truncated at F = 23, kept at F = 25)"
else not_ok "explain --vs volta/hopper: $(tail -4 <<<"$out")"; fi

# Values, not wording: Hopper FP8 (F = 13) against Blackwell (F = 25), c = 1, one product 2^-6 * 2^-8 =
# 2^-14.  e_max = 0 (C's).  Step 3 c keeps +1.0 on both (Hopper's f32_e8m13 C drops "only zeros", the
# f32 C drops "none": the same value worded differently); Step 3 p[0]: 2^-14 lies below Hopper's window
# (lsb 2^-13), kept 0, while Blackwell keeps 0.(13 zeros)1.  The first step whose values differ is p[0].
out=$("$MMAREF" explain hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 0x1p-6 -b 0x1p-8 -c 1 \
      --vs blackwell tcgen05.mma.m64n8k32.f32.e4m3.e4m3)
marks=$(grep '^>>' <<<"$out")
if grep -qxF "first divergence (>>): pass 0, Step 3, p[0]" <<<"$out" && [[ $(wc -l <<<"$marks") -eq 2 ]] &&
   [[ $(grep -c '^>> Step 3    p\[0\]  ' <<<"$marks") -eq 2 ]] && grep -q '^   Step 3    c .*kept +1.0, dropped: only zeros' <<<"$out" &&
   grep -q '^   Step 3    c .*kept +1.0, dropped: none' <<<"$out"; then
  ok "explain --vs: Hopper FP8 (F = 13) and Blackwell (F = 25) part at Step 3 p[0], not at C's same +1.0 worded differently"
else not_ok "explain --vs hopper/blackwell e4m3: marks '$marks', $(tail -3 <<<"$out")"; fi

# Lanes that contribute nothing fold: the same Hopper FP8 case, K = 32 with only lane 0 non-zero.  Lanes
# 1..31 have a zero a, a zero b, a zero product and a zero aligned term: one line per step each,
# "a[1..31] = 0 (31 lanes)" (the trace is 17 lines instead of 137); --all-lanes prints every one.
fp8=(hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 0x1p-6 -b 0x1p-8 -c 1)
out=$("$MMAREF" explain "${fp8[@]}"); all=$("$MMAREF" explain "${fp8[@]}" --all-lanes)
folds=$(grep -c '\[1\.\.31\] .*0 (31 lanes)$' <<<"$out")
if [[ $folds -eq 4 ]] && grep -qx '   Step 2    p\[1\.\.31\]    = 0 (31 lanes)' <<<"$out" &&
   grep -qx '   Step 3    p\[1\.\.31\]    kept 0 (31 lanes)' <<<"$out" && grep -q '^   Step 3    p\[0\] ' <<<"$out" &&
   [[ $(wc -l <<<"$out") -eq 17 ]]; then
  ok "explain: K = 32 with one non-zero lane: lanes 1..31 folded into one line per step (a, b, p, aligned; 17 lines)"
else not_ok "explain lane folding: $folds folded lines, $(wc -l <<<"$out") lines: $(head -12 <<<"$out")"; fi
if [[ $(grep -c '^   Step 2    p\[[0-9]*\]  .*a\*b = +0' <<<"$all") -eq 31 && $(wc -l <<<"$all") -eq 137 ]] &&
   ! grep -q 'lanes)$' <<<"$all"; then
  ok "explain --all-lanes: every one of the 32 lanes on its own lines (137 lines)"
else not_ok "explain --all-lanes: $(wc -l <<<"$all") lines, $(grep -c 'lanes)$' <<<"$all") folded"; fi
# A zero product that sets e_max is shown: Volta (the MMA-Sim convention, a zero operand's exponent -126):
# 0 * 2^15 has exponent -111, above the zero C's -126 and the other zero products' -252: e_max comes
# from p[0], which stays on its own line while p[1..3] fold.
out=$("$MMAREF" explain volta mma.m8n8k4.f32.f16.f16.f32 -a 0 -b 0x1p15 -c 0)
grep -q '^   Step 2    e_max       -111, from p\[0\]' <<<"$out" && grep -q '^   Step 2    p\[0\]  ' <<<"$out" &&
  grep -qx '   Step 2    p\[1\.\.3\]     = 0 (3 lanes)' <<<"$out" &&
  ok "explain: a zero product that sets e_max (Volta, 0 * 2^15: -111) is not folded; the others are" ||
  not_ok "explain: zero product setting e_max: $(grep 'Step 2' <<<"$out")"

# CDNA3 FDRDA, 2048 * 2048 - 2048 * 2048 + c, c = RN(-1e-6) = 0xb58637bd (-1.0000110... x 2^-20): the
# products cancel exactly but set e_dot = 22; e_max = max(22, -20) = 22.  Step 6 aligns c at 24
# fractional bits below 2^22 (lsb 2^-2) rounding DOWN: a negative c smaller than one lsb becomes -1 lsb
# = -2^-2, shifted right 42 with all of its 24 significant bits dropped.  D = -0.25 = 0xbe800000.
out=$("$MMAREF" explain cdna3 v_mfma_f32_32x32x8_f16 -a 2048,2048 -b 2048,-2048 -c 0xb58637bd)
if grep -qE "^   Step 6 +c +shifted right 42: kept -0\.0{23}1, dropped: 100001100011011110111101 \(rounded down\)$" <<<"$out" &&
   grep -qE "^   Step 6 +e_max +max\(e_dot, e_c\) = max\(22, -20\) = 22$" <<<"$out" &&
   grep -qE "^   D +D +0xbe800000 = -1\.0+ x 2\^-2 \(normal\)$" <<<"$out"; then
  ok "explain: CDNA3's -0.25 is c = -1e-6 rounded down to one unit 2^-2 at e_max = 22 (Step 6)"
else not_ok "explain cdna3 -0.25: $(grep -E 'Step 6|^   D' <<<"$out")"; fi

# Ampere CoFDA (the demo's case 4): pass 0 keeps F = 24 below 2^20, so seven 2^-5 products are lost and
# it returns 2^20; pass 1 takes that as C and subtracts 2^20 -> +0
A="0x1p10,0x1p-2,0x1p-2,0x1p-2,0x1p-2,0x1p-2,0x1p-2,0x1p-2,-0x1p10"
B="0x1p10,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p10"
out=$("$MMAREF" explain ampere mma.m16n8k16.f32.f16.f16.f32 -a "$A" -b "$B" -c 0)
p0=$(awk '/^  pass 0/{f=1} /^  pass 1/{f=0} f && /Step 5 +normalize/' <<<"$out")
if [[ $(grep -c '^  pass [01]$' <<<"$out") == 2 && $p0 == *"D = 0x49800000"* ]] &&
   grep -q "C = the previous pass's result" <<<"$out" && grep -qE "^   D +D +0x00000000 = \+0" <<<"$out"; then
  ok "explain: Ampere CoFDA shows both passes (pass 0 -> 2^20 = 0x49800000, pass 1 -> +0)"
else not_ok "explain ampere CoFDA: $(grep -E 'pass|normalize|^   D' <<<"$out" | head -8)"; fi

# SFMA, every FMA of the chain: Hopper DMMA 1 * 3 + 0.5 = 3.5 (0x400c000000000000) at d[0]; the three
# zero lanes leave it (0 * 0 + 3.5)
out=$("$MMAREF" explain hopper mma.m8n8k4.f64.f64.f64.f64 -a 1 -b 3 -c 0.5)
if grep -qE "^   FMA +d\[0\] +RNE\(a\*b \+ d\), rounded once = 0x400c000000000000 = \+1\.110* x 2\^1" <<<"$out" &&
   [[ $(grep -c "^   FMA .*= 0x400c000000000000" <<<"$out") == 4 ]] && grep -qE "^   D +D +0x400c000000000000" <<<"$out"; then
  ok "explain: SFMA shows each FMA of the chain (1 * 3 + 0.5 = 3.5 at d[0], kept by the zero lanes)"
else not_ok "explain SFMA: $(grep -E 'FMA|^   D' <<<"$out")"; fi

# GPS (CDNA2, G = 4), every rounded operation: products 1, 2^-24, -1, 0.5; the pairwise sums round
# 1 + 2^-24 (half an ulp of 1: a tie) to even, 1.0, and -1 + 0.5 = -0.5; then 1 - 0.5 = 0.5, so D = 0.5
# (0x3f000000) where the exact sum is 0.5 + 2^-24
out=$("$MMAREF" explain cdna2 v_mfma_f32_32x32x8f16 -a 1,0x1p-12,1,1 -b 1,0x1p-12,-1,0.5 -c 0)
if grep -qE "^   Step 3 +p\[0\.\.1\] +RNE\(left \+ right\), flushed = 0x3f800000" <<<"$out" &&
   grep -qE "^   Step 3 +p\[2\.\.3\] .* = 0xbf000000" <<<"$out" && grep -qE "^   D +D +0x3f000000" <<<"$out" &&
   grep -q "GPS over products 0..7, G = 4, subnormals flushed" <<<"$out"; then
  ok "explain: GPS shows the pairwise sums (1 + 2^-24 ties to 1.0; D = 0.5)"
else not_ok "explain GPS: $(grep -E 'Step 3|pass |^   D' <<<"$out")"; fi

# M3XU FP32 (docs/m3xu.md): a = 1 + 2^-23 (sig 0x800001: halves 0x800|0x001), b = 1 + 2^-22 (0x800002:
# 0x800|0x002); step 1 puts a_H*b_H = 0x400000 24 bits up beside a_L*b_L = 2: 0x400000000002; then
# minus 1: 3 * 2^-23 + 2^-45 = (1.5 + 2^-23) 2^-22, exact in f32: 0x34c00001
out=$("$MMAREF" explain m3xu m3xu.f32 -a 0x3f800001,-1 -b 0x3f800002,1 -c 0)
if grep -qE "^   Step 3 +p\[0\] +halves a 0x800\|0x001 b 0x800\|0x002; step 1 a_H\*b_H, a_L\*b_L: 0x400000000002;" <<<"$out" &&
   grep -qE "^   D +D +0x34c00001 = \+1\.10{21}1 x 2\^-22" <<<"$out"; then
  ok "explain: M3XU shows the 12-bit halves and multiply step 1 (0x400000000002); D = 0x34c00001"
else not_ok "explain M3XU: $(grep -E 'p\[0\]|^   D' <<<"$out")"; fi

# Step 5's rounding decision: Hopper f16 D, 1 + 2^-11 is half an f16 ulp (2^-10) above 1: guard 1,
# sticky 0, a tie, kept at the even 1.0 (0x3c00); 1 + 2^-11 + 2^-12 rounds up (guard 1, sticky 1: 0x3c01)
tie=$("$MMAREF" explain hopper mma.m16n8k8.f16.f16.f16.f16 -a 1,0x1p-11 -b 1,1 -c 0 | grep 'normalize')
up=$("$MMAREF" explain hopper mma.m16n8k8.f16.f16.f16.f16 -a 1,0x1p-11,0x1p-12 -b 1,1,1 -c 0 | grep 'normalize')
[[ $tie == *"(guard 1, sticky 0): round to nearest even: a tie, kept (even) -> D = 0x3c00"* &&
   $up == *"(guard 1, sticky 1): round to nearest: up -> D = 0x3c01"* ]] &&
  ok "explain: Step 5 names guard and sticky bits and the decision (a tie kept at even 0x3c00; up to 0x3c01)" ||
  not_ok "explain rounding decision: '$tie' / '$up'"

# --json: the same traces to programs
"$MMAREF" explain volta mma.m8n8k4.f32.f16.f16.f32 -a 0x1p-12,0x1p-12,0x1p-12,0x1p-12 -b 0x1p-13,0x1p-13,0x1p-13,0x1p-13 \
  -c 1 --vs hopper mma.m16n8k8.f32.f16.f16.f32 --json >"$tmp/j.json"
if python3 - "$tmp/j.json" <<'PY'
import json, sys
v, h = json.load(open(sys.argv[1]))
i = v["first_divergence"]
assert v["d"] == "0x3f800000" and h["d"] == "0x3f800001", (v["d"], h["d"])
assert (v["steps"][i]["step"], v["steps"][i]["what"]) == ("Step 3", "p[0]"), v["steps"][i]
assert all(set(s) == {"pass", "step", "what", "text", "value"} for s in v["steps"] + h["steps"])
j = h["first_divergence"]
assert v["steps"][i]["value"] == "+0" and h["steps"][j]["value"] == "+0x1p-25", (v["steps"][i], h["steps"][j])
PY
then ok "explain --json: two traces, D 0x3f800000 / 0x3f800001, first divergence at Step 3 p[0]"
else not_ok "explain --json: $(head -c 300 "$tmp/j.json")"; fi

# bad input: one line naming it, non-zero exit
expect_error "explain: unknown architecture" "unknown architecture" "$MMAREF" explain pascal x -a 1 -b 1 -c 0
expect_error "explain: -c missing" "needs -c VALUE" "$MMAREF" explain hopper mma.m16n8k8.f32.f16.f16.f32 -a 1 -b 1
expect_error "explain: --vs with one argument" "--vs needs ARCH2 and INSTRUCTION2" "$MMAREF" explain hopper \
  mma.m16n8k8.f32.f16.f16.f32 -a 1 -b 1 -c 0 --vs volta
expect_error "explain: a value the format cannot hold" "not exactly representable" "$MMAREF" explain hopper \
  mma.m16n8k8.f32.f16.f16.f32 -a 0.1 -b 1 -c 0
expect_error "explain --vs: the second instruction unknown" "has no instruction" "$MMAREF" explain hopper \
  mma.m16n8k8.f32.f16.f16.f32 -a 1 -b 1 -c 0 --vs volta mma.nope
