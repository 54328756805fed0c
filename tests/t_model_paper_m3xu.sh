# M3XU directed vectors (docs/m3xu.md, its definition), each expected value derived by
# hand beside it.  FP32 mode: d = c + a0 b0 + .. + a3 b3, products exact (the 12-bit halves of the
# step form rebuild sig_a * sig_b), every term truncated at F_w = 46 fractional bits below 2^e_max, the
# exact sum rounded to nearest even to f32.  FP32C: real part sum(ar br - ai bi) + cr, imaginary part
# sum(ar bi + ai br) + ci, each an FP32-mode dot of its own; D = re | im << 32.
# Then: the step form equals the closed form on random vectors (tests/api/m3xu_closed_form.c), the
# baseline modes are Ampere's instructions bit for bit, and a record the kind cannot run is refused.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
F32="m3xu m3xu.f32"      # m3xu.m8n4k4.f32.f32.f32.f32: K = 4, M3XU(F=46, f32-rne)
C32="m3xu m3xu.f32c"     # m3xu.m8n4k2.f32c.f32c.f32c.f32c: K = 2, M3XU(F=46, f32c-rne)

# ---- FP32: the check value and the 12-bit split --------------------------------------------------------
# a = (1 + 2^-23, -1), b = (1 + 2^-22, 1), c = 0: (1 + 2^-23)(1 + 2^-22) - 1 = 2^-22 + 2^-23 + 2^-45 exactly:
# leading bit 2^-22 (biased exponent 105: 0x34800000), 2^-23 the top mantissa bit (0x400000), 2^-45 =
# 2^-22 * 2^-23 the last one (1): 0x34c00001.  (TF32 or BF16 splitting loses the 2^-45.)
expect_dot "check value: (1+2^-23)(1+2^-22) - 1 = 2^-22 + 2^-23 + 2^-45" 0x34c00001 $F32 \
  -a 0x3f800001,-1 -b 0x3f800002,1 -c 0
# a = b = 1 + 2^-12 (0x3f800800: sig 0x800800, sig_H = 0x800, sig_L = 0x800), c = -1.
# Step 1: H*H = 2^22 << 24, L*L = 2^22; step 2: (H*L + L*H) << 12 = 2^23 << 12; register 2^46 + 2^35 + 2^22
# = (1 + 2^-11 + 2^-24) 2^46.  Minus 1 (e_max = 0, nothing truncated): 2^-11 + 2^-24 = 0x3a000000 + 2^-13
# relative = mantissa bit 10: 0x3a000400.  Without L*L: 0x3a000000; without step 2: 2^-24 = 0x33800000;
# with the paper's "shift by 16" in step 2: 2^-7 + 2^-24.
expect_dot "every partial product: (1+2^-12)^2 - 1 = 2^-11 + 2^-24 (L*L gives the 2^-24)" 0x3a000400 $F32 \
  -a 0x3f800800 -b 0x3f800800 -c -1
# Carries across the split: a = b = 2 - 2^-23 (0x3fffffff, sig 0xFFFFFF: both halves 0xFFF).
# Step 1: 0xFFE001 << 24 | 0xFFE001; step 2 adds 2 * 0xFFE001 << 12 = 0x1FFC002000, which carries into the
# high field: 0xFFFFFE000001 = (2^24 - 1)^2, the value 4 - 2^-21 + 2^-46.  In [2, 4) the ulp is 2^-22:
# 4 - 2^-21 is representable (0x407ffffe) and 2^-46 is far below half an ulp: 0x407ffffe.
expect_dot "carries across the 12-bit split: (2 - 2^-23)^2 = 4 - 2^-21 + 2^-46 -> 4 - 2^-21" 0x407ffffe $F32 \
  -a 0x3fffffff -b 0x3fffffff -c 0
# The same product against c = -(4 - 2^-21) (0xc07ffffe, e_c = 1): e_max = 1, so the product keeps 46
# fractional bits below 2^1 and its 2^-46 bit (47 below 2^1) is truncated: the sum is exactly 0 -> +0
# (the exact result, 2^-46, is 0x28800000).
expect_dot "F_w truncation: (2 - 2^-23)^2 - (4 - 2^-21) loses 2^-46 below 2^(e_max - 46) -> +0" 0x00000000 $F32 \
  -a 0x3fffffff -b 0x3fffffff -c 0xc07ffffe

# ---- cancellation and signed zeros ------------------------------------------------------------------------
# 1.5*3 + 1.5*(-3) + 0 = 0 exactly -> +0.
expect_dot "total cancellation between lanes: 1.5*3 - 1.5*3 = +0" 0x00000000 $F32 -a 1.5,1.5 -b 3,-3 -c 0
# a0 = -0, b0 = 1, c = -0: IEEE would give -0 (-0 + -0), the definition's exact-zero sum gives +0.
expect_dot "an exactly zero sum is +0 even from -0 terms" 0x00000000 $F32 -a -0 -b 1 -c -0
# Cancellation leaving C's bits: products 2^20 and -2^20 set e_max = 20; c = 1 + 2^-23 (0x3f800001) aligned
# to 46 bits below 2^20 keeps 2^-26 and up, so 2^-23 survives: d = c = 0x3f800001.
expect_dot "cancellation at e_max = 20 keeps c = 1 + 2^-23 (26 bits below 2^20 are kept)" 0x3f800001 $F32 \
  -a 0x1p10,0x1p10 -b 0x1p10,-0x1p10 -c 0x3f800001
# The same with e_max = 30: c's 2^-23 bit lies 53 below 2^30, below F_w = 46: truncated; 2^-16 (46 below)
# would survive.  c = 1 + 2^-23 -> 1.0 = 0x3f800000.
expect_dot "cancellation at e_max = 30 truncates c's 2^-23 (53 bits below 2^30)" 0x3f800000 $F32 \
  -a 0x1p15,0x1p15 -b 0x1p15,-0x1p15 -c 0x3f800001

# ---- subnormals ------------------------------------------------------------------------------------------
# 2^-70 * 2^-70 = 2^-140 = 2^9 * 2^-149: subnormal bits 0x200.
expect_dot "subnormal result: 2^-70 * 2^-70 = 2^-140" 0x00000200 $F32 -a 0x1p-70 -b 0x1p-70 -c 0
# subnormal operand: 2^-149 (0x00000001, sig 1 at exponent -126) * 2^20 = 2^-129 = 2^20 * 2^-149: 0x00100000.
expect_dot "subnormal operand: 2^-149 * 2^20 = 2^-129" 0x00100000 $F32 -a 0x00000001 -b 0x1p20 -c 0
# 1.5 * 2^-150 = 0.75 ulp of the smallest subnormal: rounds to 2^-149 (0x00000001).
expect_dot "gradual underflow: 1.5 * 2^-150 rounds to 2^-149" 0x00000001 $F32 -a 0x1.8p-75 -b 0x1p-75 -c 0
# 2^-150 is halfway between 0 and 2^-149: ties to even -> +0.
expect_dot "gradual underflow: 2^-150 ties to +0" 0x00000000 $F32 -a 0x1p-75 -b 0x1p-75 -c 0
# -2^-150: a nonzero negative sum rounding to zero is -0 (f32-rne keeps the sign).
expect_dot "gradual underflow: -2^-150 ties to -0" 0x80000000 $F32 -a -0x1p-75 -b 0x1p-75 -c 0
# c = 2^-126 (smallest normal) - 2^-149 * 1: 2^-126 - 2^-149 = largest subnormal 0x007fffff.
expect_dot "normal c minus a subnormal product: 2^-126 - 2^-149 = 0x007fffff" 0x007fffff $F32 \
  -a 0x80000001 -b 1 -c 0x1p-126

# ---- overflow --------------------------------------------------------------------------------------------
# max * 1 + max * 1 = 2 max > the largest finite: +inf.
expect_dot "overflow: max + max = +inf" 0x7f800000 $F32 -a 0x7f7fffff,0x7f7fffff -b 1,1 -c 0
expect_dot "overflow: -max * 2 = -inf" 0xff800000 $F32 -a 0xff7fffff -b 2 -c 0
# c = max = 2^128 - 2^104, plus 2^103 (2^52 * 2^51): exactly halfway to 2^128; max's mantissa is odd, so
# RNE rounds up to 2^128: +inf.  (Ampere's RZ would keep max.)
expect_dot "RNE at the top: max + 2^103 (half an ulp) ties up to +inf" 0x7f800000 $F32 -a 0x1p52 -b 0x1p51 -c 0x7f7fffff
# max + 2^102: a quarter ulp, rounds to max.
expect_dot "RNE at the top: max + 2^102 stays max" 0x7f7fffff $F32 -a 0x1p52 -b 0x1p50 -c 0x7f7fffff

# ---- round to nearest even ---------------------------------------------------------------------------------
# 1 + 2^-24 (2^-12 * 2^-12): halfway between 1 and 1 + 2^-23; 1 is even -> 0x3f800000.
expect_dot "tie to even: 1 + 2^-24 -> 1" 0x3f800000 $F32 -a 0x1p-12 -b 0x1p-12 -c 1
# (1 + 2^-23) + 2^-24: halfway between ...001 (odd) and ...010 -> 0x3f800002.
expect_dot "tie to even: (1 + 2^-23) + 2^-24 -> 1 + 2^-22" 0x3f800002 $F32 -a 0x1p-12 -b 0x1p-12 -c 0x3f800001
# 1 + 2^-24 + 2^-40: above the tie (2^-40 is inside the 46-bit window below 2^0) -> 1 + 2^-23.
expect_dot "just above a tie: 1 + 2^-24 + 2^-40 -> 1 + 2^-23" 0x3f800001 $F32 -a 0x1p-12,0x1p-20 -b 0x1p-12,0x1p-20 -c 1
# 1 + 2^-24 + 2^-50: 2^-50 lies 50 bits below e_max = 0 and is truncated: a tie again -> 1.  (The correctly
# rounded sum would be 1 + 2^-23: M3XU's F_w truncation is visible here.)
expect_dot "truncated below F_w: 1 + 2^-24 + 2^-50 is a tie -> 1" 0x3f800000 $F32 -a 0x1p-12,0x1p-25 -b 0x1p-12,0x1p-25 -c 1

# ---- Step 1: NaN and infinities ------------------------------------------------------------------------------
expect_dot "inf * 0 is NaN (canonical 0x7fffffff)" 0x7fffffff $F32 -a inf -b 0 -c 0
expect_dot "inf * -0 is NaN" 0x7fffffff $F32 -a inf -b -0 -c 1
expect_dot "+inf and -inf products: NaN" 0x7fffffff $F32 -a inf,-inf -b 1,1 -c 0
expect_dot "c = +inf against a -inf product: NaN" 0x7fffffff $F32 -a -inf -b 1 -c inf
expect_dot "inf * -2: -inf" 0xff800000 $F32 -a inf -b -2 -c 0
expect_dot "c = -inf with finite products: -inf" 0xff800000 $F32 -a 1 -b 1 -c -inf
expect_dot "inf * the smallest subnormal: +inf, not NaN" 0x7f800000 $F32 -a inf -b 0x00000001 -c 0
expect_dot "two +inf products and c = +inf: +inf" 0x7f800000 $F32 -a inf,inf -b 1,2 -c inf
expect_dot "a quiet NaN operand on lane 3: canonical NaN" 0x7fffffff $F32 -a 1,1,1,0x7fc00000 -b 1,1,1,1 -c 0
expect_dot "a signalling NaN operand (0x7f800001): canonical NaN" 0x7fffffff $F32 -a 1 -b 0x7f800001 -c 0
expect_dot "a negative NaN c (0xffc00000): canonical NaN" 0x7fffffff $F32 -a 1 -b 1 -c 0xffc00000

# ---- FP32C ----------------------------------------------------------------------------------------------------
# i * i: a = b = 0 + 1i (0x3f800000 in the high half).  Real part: 0*0 - 1*1 (ai's sign flipped) = -1 =
# 0xbf800000; imaginary part: 0*1 + 1*0 = 0 exactly -> +0.  D = 0x00000000_bf800000.
expect_dot "FP32C: i * i = -1 (the sign of ai*bi flipped)" 0x00000000bf800000 $C32 -a 0x3f80000000000000 \
  -b 0x3f80000000000000 -c 0
expect_dot "FP32C: i * i = -1 written as a complex literal" 0x00000000bf800000 $C32 -a i -b i -c 0
# (1 + 2i)(3 + 4i) = 3 - 8 + (4 + 6)i = -5 + 10i: re 0xc0a00000, im 0x41200000.
expect_dot "FP32C: (1+2i)(3+4i) = -5+10i" 0x41200000c0a00000 $C32 -a 1+2i -b 3+4i -c 0
# K = 2: (1+i)(1-i) = 2, 2 * 0.5i = i, c = 1 + i: 3 + 2i -> re 0x40400000, im 0x40000000.
expect_dot "FP32C: (1+i)(1-i) + 2(0.5i) + (1+i) = 3+2i" 0x4000000040400000 $C32 -a 1+i,2 -b 1-i,0.5i -c 1+i
# The check value in the real part: a0 = (1+2^-23) + i, b0 = (1+2^-22) + i: re = (1+2^-23)(1+2^-22) - 1 =
# 0x34c00001 as in FP32; im = (1+2^-23)*1 + 1*(1+2^-22) = 2 + 1.5 * 2^-22, halfway between 2 + 2^-22 (odd)
# and 2 + 2^-21 (even) in [2, 4): 0x40000002.
expect_dot "FP32C: the check value in the real part, an RNE tie in the imaginary part" 0x4000000234c00001 $C32 \
  -a 0x3f8000003f800001 -b 0x3f8000003f800002 -c 0
# Real-part cancellation: a = b' with ai = ar = 1 + 2^-23, b = 1 + i: re = ar - ai = 0 -> +0; im = ar + ai =
# 2 + 2^-22 = 0x40000001.
expect_dot "FP32C: ar*br - ai*bi cancels exactly -> +0, im = 2 + 2^-22" 0x4000000100000000 $C32 \
  -a 0x3f8000013f800001 -b 1+i -c 0
# Each part its own Step 1: a = inf + 0i, b = 1: re = inf*1 - 0*0 = +inf; im = inf*0 + 0*1: inf * 0 -> NaN.
expect_dot "FP32C: each part its own specials (re +inf, im NaN from inf*0)" 0x7fffffff7f800000 $C32 -a inf -b 1 -c 0
# Parts round separately: c = (1 + 2^-24 tie) ... re = 1 + 2^-24 -> 1 (even), im = (1 + 2^-23) + 2^-24 -> 1 + 2^-22:
# a = 2^-12 (real), b = 2^-12 + 2^-12 i: re = 2^-24 + cr, im = 2^-24 + ci.
expect_dot "FP32C: each part rounded to nearest even on its own" 0x3f8000023f800000 $C32 -a 0x1p-12 \
  -b 0x3980000039800000 -c 0x3f8000013f800000

# ---- the baseline modes are Ampere's, bit for bit ---------------------------------------------------------------
# Ampere's FDA truncates (F = 24) and rounds toward zero: 1 + 2^-24 + 2^-24 would be 1 + 2^-23 exactly; with
# products 2^-12 * 2^-12 = 2^-24 twice and c = 1, F = 24 keeps 2^-24: 0x3f800001.  2^-25 is truncated: 1.0.
expect_dot "FP16 mode: 1 + 2^-24 + 2^-24 = 1 + 2^-23 (F = 24)" 0x3f800001 m3xu m3xu.f16 -a 0x1p-12,0x1p-12 -b 0x1p-12,0x1p-12 -c 1
expect_dot "FP16 mode: 1 + 2^-25 truncated (F = 24, RZ)" 0x3f800000 m3xu m3xu.f16 -a 0x1p-13 -b 0x1p-12 -c 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in f16 bf16; do
  "$MMAREF" gen m3xu m3xu.$t --n 20000 --seed 9 >"$tmp/v.$t"
  a=$("$MMAREF" batch m3xu m3xu.$t <"$tmp/v.$t" | md5sum)
  b=$("$MMAREF" batch ampere mma.m16n8k8.f32.$t.$t.f32 <"$tmp/v.$t" | md5sum)
  [[ $a == "$b" && $(wc -l <"$tmp/v.$t") == 20000 ]] && ok "$t mode: 20000 vectors give Ampere's mma.m16n8k8.f32.$t.$t.f32 results bit for bit" ||
    not_ok "$t mode differs from Ampere's mma.m16n8k8.f32.$t.$t.f32"
done

# ---- the step form equals the closed form (tests/api/m3xu_closed_form.c) -------------------------------------
if ${MMAREF_API_CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -Icmodel/include -o "$tmp/closed" tests/api/m3xu_closed_form.c \
     "${MMAREF_LIB:-build/libmmaref.a}" -lm 2>"$tmp/cc.log"; then
  out=$("$tmp/closed" 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "m3xu_closed_form exited with status $rc"
else
  not_ok "tests/api/m3xu_closed_form.c does not build: $(head -3 "$tmp/cc.log")"
fi
exit 0
