# Properties of the algorithms (papers/mma-sim.md section IV):
#  1. FDA (and each group of GDFS) is independent of the order of the products: Step 3 truncates every term
#     against the same e_max and Step 4 sums exactly, so permuting the (a_k, b_k) pairs cannot change D.
#     Checked on pseudo-random vectors from the model's generator (`mmaref gen`, seed 17) through `mmaref
#     batch`: raw bits, clustered exponents (carries and truncation), and cancellation (lane pairs x, -x,
#     then everything is shuffled).
#  2. CoFDA is not: the first FDA's result is rounded before the second pass, so which products share a pass
#     matters.  Two hand-derived inputs for Ampere mma.m16n8k16.f32.f16.f16.f32 (HMMA.16816.F32, CoFDA, F=24)
#     show D changing when products move between the halves; Hopper's FDA of the same name does not change.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# vectors ARCH INSTR N: N/3 each of raw bits, clustered exponents and cancellation, from the model's
# stimulus generator (mmaref gen, seed 17): lines "c a0..aK-1 b0..bK-1 [sa.. sb..]" in hex.
vectors() {
  local kind
  for kind in raw cluster cancel; do
    "$MMAREF" gen "$1" "$2" --kind $kind --n $(($3 / 3)) --seed 17 || return 1
  done
}
# permute SEED K G NSCALES < lines: the same dot-adds with the (a_k, b_k) pairs shuffled inside each group of G
permute() {
  awk -v seed="$1" -v K="$2" -v G="$3" -v ns="$4" '
    BEGIN { srand(seed) }
    {
      for (g = 0; g < K; g += G) {
        for (i = 0; i < G; i++) p[g + i] = g + i
        for (i = G - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = p[g + i]; p[g + i] = p[g + j]; p[g + j] = t }
      }
      line = $1
      for (k = 0; k < K; k++) line = line " " $(2 + p[k])
      for (k = 0; k < K; k++) line = line " " $(2 + K + p[k])
      for (k = 0; k < 2 * ns; k++) line = line " " $(2 + 2 * K + k)
      print line
    }'
}
# order_independent ARCH INSTR K NSCALES G: 300 vectors, 3 shuffles each, same D every time.
order_independent() {
  local arch=$1 ins=$2 K=$3 ns=$4 G=$5 n=300
  local what="order independence ($arch $ins, $n vectors x 3 shuffles${G:+, groups of $G})"
  if ! vectors "$arch" "$ins" $n > "$tmp/in" 2> "$tmp/err" || ! "$MMAREF" batch "$arch" "$ins" < "$tmp/in" > "$tmp/d0" 2> "$tmp/err"; then
    not_ok "$what: gen | batch failed: $(head -1 "$tmp/err")"; return
  fi
  local distinct; distinct=$(sort -u "$tmp/d0" | wc -l)
  if [[ $(wc -l < "$tmp/d0") -ne $n || $distinct -lt $((n / 3)) ]]; then
    not_ok "$what: degenerate run ($(wc -l < "$tmp/d0") results, $distinct distinct)"; return
  fi
  local s bad=0
  for s in 1 2 3; do
    permute $s "$K" "$G" "$ns" < "$tmp/in" > "$tmp/p"
    "$MMAREF" batch "$arch" "$ins" < "$tmp/p" > "$tmp/d1" 2>> "$tmp/err" || bad=1
    if ! cmp -s "$tmp/d0" "$tmp/d1"; then
      local line; line=$(cmp "$tmp/d0" "$tmp/d1" 2>&1 | awk '{print $NF}')
      not_ok "$what: shuffle $s changed D on line $line: $(sed -n "${line}p" "$tmp/in") -> $(sed -n "${line}p" "$tmp/d0") vs $(sed -n "${line}p" "$tmp/p") -> $(sed -n "${line}p" "$tmp/d1")"
      return
    fi
  done
  [[ $bad -eq 0 ]] && ok "$what" || not_ok "$what: batch failed on a shuffle: $(head -1 "$tmp/err")"
}
order_independent volta         mma.m8n8k4.f32.f16.f16.f32                         4 0 4
order_independent volta         mma.m8n8k4.f16.f16.f16.f16                         4 0 4
order_independent volta         mma.m8n8k4.f32.f16.f16.f16                         4 0 4
order_independent turing        mma.m16n8k8.f32.f16.f16.f32                        8 0 8
order_independent ampere        mma.m16n8k4.f32.tf32.tf32.f32                      4 0 4
order_independent ampere        mma.m16n8k8.f32.bf16.bf16.f32                      8 0 8
order_independent ada           mma.m16n8k16.f32.e4m3.e5m2.f32                    16 0 16
order_independent hopper        mma.m16n8k16.f32.f16.f16.f32                      16 0 16
order_independent hopper        mma.m16n8k16.f16.f16.f16.f16                      16 0 16
order_independent hopper        wgmma.m64n8k16.f32.bf16.bf16                      16 0 16
order_independent hopper        wgmma.m64n8k32.f32.e4m3.e4m3                      32 0 32
order_independent hopper        wgmma.m64n8k32.f16.e5m2.e4m3                      32 0 32
order_independent blackwell     tcgen05.mma.m64n8k8.f32.tf32.tf32                  8 0 8
order_independent blackwell     tcgen05.mma.m64n8k32.f32.e2m1.e3m2                32 0 32
order_independent rtx-blackwell mma.m16n8k32.block32.f32.e4m3.e2m1.f32.ue8m0      32 1 32
order_independent blackwell     tcgen05.mma.m128n8k32.block32.f32.e5m2.e5m2.ue8m0 32 1 32
# GDFS: exact within each group of 16 (Step 3), so shuffling inside a group cannot change D.
order_independent rtx-blackwell mma.m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0      64 2 16
order_independent blackwell     tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue8m0 64 4 16

# ---------------------------------------------------------------------------------------------------
# CoFDA is not order independent: d = FDA(FDA(c, first 8 products), last 8 products), each FDA with F = 24
# and its result rounded (RZ) to f32 before the second pass.
CO="ampere mma.m16n8k16.f32.f16.f16.f32"; FH="hopper mma.m16n8k16.f32.f16.f16.f32"   # FDA, F = 25
Z7=0,0,0,0,0,0,0   # seven zeros: moves the next value from k = 1 to k = 8 (the second half)
# Input 1: c = -1, p = 1 * 1 and eps = 2^-12 * 2^-13 = 2^-25.
#  eps in the first half (k = 1): pass 1 sees -1, 1, 2^-25 with e_max = 0: grid 2^-24, 2^-25 truncates to 0;
#    sum 0 -> +0.  Pass 2: +0 plus zero products -> d = +0 (0x00000000).
#  eps in the second half (k = 8): pass 1: -1 + 1 = +0.  Pass 2: c = +0 (exponent -126), eps has exponent
#    -25 = e_max, so it is exact: d = 2^-25 (0x33000000).
expect_dot "CoFDA ampere: 2^-25 sharing the pass with -1+1 is lost" 0x00000000 $CO -a 1,0x1p-12 -b 1,0x1p-13 -c -1
expect_dot "CoFDA ampere: 2^-25 moved to the second pass survives" 0x33000000 $CO -a 1,$Z7,0x1p-12 -b 1,$Z7,0x1p-13 -c -1
# the FDA of the same name (Hopper, F = 25) gives 2^-25 both ways
expect_dot "FDA hopper: 2^-25 with -1+1, first half" 0x33000000 $FH -a 1,0x1p-12 -b 1,0x1p-13 -c -1
expect_dot "FDA hopper: 2^-25 with -1+1, second half" 0x33000000 $FH -a 1,$Z7,0x1p-12 -b 1,$Z7,0x1p-13 -c -1
# Input 2 (the intermediate rounding): c = 1, two products 2^-24 = 2^-12 * 2^-12.
#  Both in the first half: 1 + 2^-24 + 2^-24 on the 2^-24 grid = 1 + 2^-23 exactly, f32 0x3f800001; pass 2
#    adds zeros.
#  One per half: pass 1 = 1 + 2^-24, rounded RZ to f32 (ulp 2^-23) -> 1; pass 2 = 1 + 2^-24 -> 1 again:
#    d = 1 (0x3f800000).
expect_dot "CoFDA ampere: two 2^-24 in one pass add up to 2^-23" 0x3f800001 $CO -a 0x1p-12,0x1p-12 -b 0x1p-12,0x1p-12 -c 1
expect_dot "CoFDA ampere: one 2^-24 per pass, each rounded away" 0x3f800000 $CO -a 0x1p-12,$Z7,0x1p-12 -b 0x1p-12,$Z7,0x1p-12 -c 1
expect_dot "FDA hopper: two 2^-24 anywhere add up to 2^-23" 0x3f800001 $FH -a 0x1p-12,$Z7,0x1p-12 -b 0x1p-12,$Z7,0x1p-12 -c 1
# The same swap through the Ada FP8 CoFDA (QMMA.16832.F32.E4M3.E4M3, F = 13, halves k < 16 and k >= 16):
# c = -1, p = 1 * 1, eps = 2^-7 * 2^-7 = 2^-14 (e4m3 subnormals 0x04).
#  eps in the first pass: e_max = 0, grid 2^-13, 2^-14 truncates: -1 + 1 + 0 = +0, and pass 2 adds zeros: +0.
#  eps in the second pass: pass 1 gives +0; pass 2 has e_max = -12 (eps's own exponent, -6 + -6), so eps is
#  exact: d = 2^-14 = 0x38800000 (one bit, representable in e8m13).
AQ="ada mma.m16n8k32.f32.e4m3.e4m3.f32"; Z15=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
expect_dot "CoFDA ada QMMA: 2^-14 sharing the pass with -1+1 is lost" 0x00000000 $AQ -a 1,0x1p-7 -b 1,0x1p-7 -c -1
expect_dot "CoFDA ada QMMA: 2^-14 moved to the second pass survives" 0x38800000 $AQ -a 1,$Z15,0x1p-7 -b 1,$Z15,0x1p-7 -c -1
# Input 3 (the intermediate overflow), Ampere HMMA.16816.F32.BF16 (CoFDA): products 2^127 * 2 = 2^128 and
# -2^127 * 2 = -2^128, c = 0.
#  Same pass: e_max = 128, the exact sum is 0 -> +0 (0x00000000).
#  One per pass: pass 1 = 2^128, which the f32 output turns into +inf (|x| >= 2^128); pass 2 has C = +inf and
#    only finite products -> d = +inf (0x7f800000).  Hopper's FDA gives +0 either way.
CB="ampere mma.m16n8k16.f32.bf16.bf16.f32"; FB="hopper mma.m16n8k16.f32.bf16.bf16.f32"
expect_dot "CoFDA ampere bf16: 2^128 - 2^128 in one pass = +0" 0x00000000 $CB -a 0x1p127,-0x1p127 -b 2,2 -c 0
expect_dot "CoFDA ampere bf16: 2^128 alone in pass 1 overflows to +inf" 0x7f800000 $CB -a 0x1p127,$Z7,-0x1p127 -b 2,$Z7,2 -c 0
expect_dot "FDA hopper bf16: 2^128 - 2^128 across halves = +0" 0x00000000 $FB -a 0x1p127,$Z7,-0x1p127 -b 2,$Z7,2 -c 0
