# Directed vectors from the MMA-Sim paper (Xie et al., section IV, Table III): the F value of every
# architecture, TF32 Step 0, special values and canonical NaNs, FP16/FP32 output rounding and overflow,
# Hopper/Ada FP8 (F = 13, e8m13 output) against Blackwell FP8 (F = 25), block scales, GDFS.
# Each expected value is derived by hand beside its check.
. "$(dirname "$0")/lib.sh"

# ---------------------------------------------------------------------------------------------------
# Table III, F per architecture, by the paper's own method (section III-D): p_i = -1 (c), p_j = 1 (a0*b0),
# p_k = eps (a1*b1).  e_max = 0, so the aligned grid is 2^-F: d = eps exactly while eps >= 2^-F, and the
# exact-zero sum +0 once eps = 2^-(F+1) is shifted out.
#   eps_visible 2^-F  -> f32 bits of 2^-F;   eps_hidden 2^-(F+1) -> 0x00000000
# eps = a1*b1 is built from normal values of each input format:
#   f16/bf16/tf32: a1 = 2^-12, b1 = 2^-(F-12);  e5m2 (normal down to 2^-14): a1 = 2^-ceil(F/2),
#   b1 = the rest (F = 13: 2^-7 * 2^-6 and 2^-7 * 2^-7; F = 25: 2^-13 * 2^-12 and 2^-13 * 2^-13).
f32_pow2() { printf '0x%08x' $(( (127 + $1) << 23 )); }   # 2^e for a normal f32 exponent e
threshold() {   # threshold WHAT F ARCH INSTR  (f16/bf16/tf32 inputs)
  local what=$1 F=$2; shift 2
  expect_dot "$what: 2^-$F survives (F=$F)" "$(f32_pow2 -$F)" "$@" -a 1,0x1p-12 -b 1,0x1p-$((F - 12)) -c -1
  expect_dot "$what: 2^-$((F + 1)) is truncated (F=$F)" 0x00000000 "$@" -a 1,0x1p-12 -b 1,0x1p-$((F + 1 - 12)) -c -1
}
threshold_fp8() {   # threshold_fp8 WHAT F ARCH INSTR  (e5m2 x e5m2)
  local what=$1 F=$2; shift 2
  local h=$(( (F + 1) / 2 ))
  expect_dot "$what: 2^-$F survives (F=$F)" "$(f32_pow2 -$F)" "$@" -a 1,0x1p-$h -b 1,0x1p-$((F - h)) -c -1
  expect_dot "$what: 2^-$((F + 1)) is truncated (F=$F)" 0x00000000 "$@" -a 1,0x1p-$h -b 1,0x1p-$((F + 1 - h)) -c -1
}
threshold "volta HMMA.884.F32"            23 volta mma.m8n8k4.f32.f16.f16.f32
threshold "turing HMMA.884.F32"           24 turing mma.m8n8k4.f32.f16.f16.f32
threshold "turing HMMA.1688.F32"          24 turing mma.m16n8k8.f32.f16.f16.f32
threshold "ampere HMMA.1688.F32"          24 ampere mma.m16n8k8.f32.f16.f16.f32
threshold "ampere HMMA.16816.F32 (CoFDA)" 24 ampere mma.m16n8k16.f32.f16.f16.f32
threshold "ampere HMMA.1684.F32.TF32"     24 ampere mma.m16n8k4.f32.tf32.tf32.f32
threshold "ampere HMMA.1688.F32.BF16"     24 ampere mma.m16n8k8.f32.bf16.bf16.f32
threshold "ada HMMA.1688.F32"             24 ada mma.m16n8k8.f32.f16.f16.f32
threshold "ada HMMA.16816.F32.BF16"       24 ada mma.m16n8k16.f32.bf16.bf16.f32
threshold "hopper HMMA.16816.F32"         25 hopper mma.m16n8k16.f32.f16.f16.f32
threshold "hopper HMMA.1688.F32.TF32"     25 hopper mma.m16n8k8.f32.tf32.tf32.f32
threshold "hopper HGMMA.64x8x16.F32"      25 hopper wgmma.m64n8k16.f32.f16.f16
threshold "hopper HGMMA.64x8x8.F32.TF32"  25 hopper wgmma.m64n8k8.f32.tf32.tf32
threshold "hopper HGMMA.64x8x16.F32.BF16" 25 hopper wgmma.m64n8k16.f32.bf16.bf16
threshold "blackwell HMMA.16816.F32"      25 blackwell mma.m16n8k16.f32.f16.f16.f32
threshold "blackwell UTCHMMA f16"         25 blackwell tcgen05.mma.m64n8k16.f32.f16.f16
threshold "blackwell UTCHMMA tf32"        25 blackwell tcgen05.mma.m64n8k8.f32.tf32.tf32
threshold "rtx-blackwell HMMA.16816.F32"  25 rtx-blackwell mma.m16n8k16.f32.f16.f16.f32
threshold_fp8 "ada QMMA.16816.F32.E5M2"         13 ada mma.m16n8k16.f32.e5m2.e5m2.f32
threshold_fp8 "ada QMMA.16832.F32.E5M2 (CoFDA)" 13 ada mma.m16n8k32.f32.e5m2.e5m2.f32
threshold_fp8 "hopper QGMMA.64x8x32.F32.E5M2"   13 hopper wgmma.m64n8k32.f32.e5m2.e5m2
threshold_fp8 "blackwell UTCQMMA e5m2"          25 blackwell tcgen05.mma.m64n8k32.f32.e5m2.e5m2
threshold_fp8 "rtx-blackwell QMMA.16832.F32.E5M2" 25 rtx-blackwell mma.m16n8k32.f32.e5m2.e5m2.f32
threshold_fp8 "rtx-blackwell QMMA.16816.F32.E5M2" 25 rtx-blackwell mma.m16n8k16.f32.e5m2.e5m2.f32
# The same experiment with an f16 D: eps = 2^-14 (f16's smallest normal, 0x0400) survives F = 25 but not
# F = 13 (Hopper QGMMA.F16 and Ada QMMA.F16 keep 13 fraction bits whatever the output).
expect_dot "hopper QGMMA.F16 e4m3: -1 + 1 + 2^-14 = 0 (F=13)" 0x0000 hopper wgmma.m64n8k32.f16.e4m3.e4m3 -a 1,0x1p-7 -b 1,0x1p-7 -c -1
expect_dot "ada QMMA.16816.F16 e4m3: -1 + 1 + 2^-14 = 0 (F=13)" 0x0000 ada mma.m16n8k16.f16.e4m3.e4m3.f16 -a 1,0x1p-7 -b 1,0x1p-7 -c -1
expect_dot "blackwell UTCQMMA.F16 e4m3: -1 + 1 + 2^-14 = 2^-14 (F=25)" 0x0400 blackwell tcgen05.mma.m64n8k32.f16.e4m3.e4m3 -a 1,0x1p-7 -b 1,0x1p-7 -c -1
expect_dot "rtx-blackwell QMMA.16832.F16 e4m3: -1 + 1 + 2^-14 = 2^-14 (F=25)" 0x0400 rtx-blackwell mma.m16n8k32.f16.e4m3.e4m3.f16 -a 1,0x1p-7 -b 1,0x1p-7 -c -1

# Hopper FP8 (QGMMA, F = 13, e8m13 output) vs Blackwell FP8 (F = 25) on the same inputs.
# c = 1 + 2^-13 (f32 0x3f801000 = 0x1.0008p0), a0*b0 = 1: exact 2 + 2^-13.  Alignment at e_max = 0 keeps both terms
# (2^-13 is on the F = 13 grid), but the e8m13 output keeps 13 fraction bits of 2 * (1 + 2^-14): RZ -> 2.
# With F = 25 and an f32 output, 2 + 2^-13 is exact: 0x40000200.
expect_dot "hopper QGMMA e4m3 f32: (1+2^-13) + 1 -> 2 (e8m13 RZ)" 0x40000000 hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 1 -b 1 -c 0x1.0008p0
expect_dot "ada QMMA.16816 e4m3 f32: (1+2^-13) + 1 -> 2 (e8m13 RZ)" 0x40000000 ada mma.m16n8k16.f32.e4m3.e4m3.f32 -a 1 -b 1 -c 0x1.0008p0
expect_dot "blackwell UTCQMMA e4m3 f32: (1+2^-13) + 1 = 2+2^-13" 0x40000200 blackwell tcgen05.mma.m64n8k32.f32.e4m3.e4m3 -a 1 -b 1 -c 0x1.0008p0
expect_dot "rtx-blackwell QMMA e4m3 f32: (1+2^-13) + 1 = 2+2^-13" 0x40000200 rtx-blackwell mma.m16n8k32.f32.e4m3.e4m3.f32 -a 1 -b 1 -c 0x1.0008p0
# c = 1 + 2^-20 and no products: C is aligned too, so F = 13 drops 2^-20 (d = 1), F = 25 keeps it (0x3f800008).
expect_dot "hopper QGMMA: c = 1+2^-20 -> 1 (C truncated to F=13)" 0x3f800000 hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 0 -b 0 -c 0x1.00001p0
expect_dot "blackwell UTCQMMA: c = 1+2^-20 kept (F=25)" 0x3f800008 blackwell tcgen05.mma.m64n8k32.f32.e4m3.e4m3 -a 0 -b 0 -c 0x1.00001p0
# e8m13: the low 10 mantissa bits of D are zero even for a value the alignment kept.  a0*b0 = 1.75 * 1.75
# = 3.0625 (unnormalized, exponent 0), c = 2^-13: both on the 2^-13 grid of e_max = 0, exact sum
# 3.0625 + 2^-13 = 2 * (1.53125 + 2^-14).  e8m13 at exponent 1 has ulp 2^-12 -> RZ to 3.0625 (0x40440000);
# an f32 D keeps it: mantissa 0.53125 * 2^23 + 2^(23-14) = 0x440000 + 0x200 -> 0x40440200.
expect_dot "hopper QGMMA: 3.0625 + 2^-13 -> 3.0625 (e8m13 ulp 2^-12 at [2,4))" 0x40440000 hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 1.75 -b 1.75 -c 0x1p-13
expect_dot "blackwell UTCQMMA: 3.0625 + 2^-13 exact" 0x40440200 blackwell tcgen05.mma.m64n8k32.f32.e4m3.e4m3 -a 1.75 -b 1.75 -c 0x1p-13

# ---------------------------------------------------------------------------------------------------
# TF32 Step 0: A and B lose their low 13 bits.  0x7F800001 (a NaN) becomes +inf (0x7F800000).
TF="ampere mma.m16n8k4.f32.tf32.tf32.f32"
expect_dot "tf32 0x7F800001 -> +inf, times 1" 0x7f800000 $TF -a 0x7f800001 -b 1 -c 0
expect_dot "tf32 0x7F800001 -> +inf, times -1 = -inf" 0xff800000 $TF -a 0x7f800001 -b -1 -c 0
expect_dot "tf32 0x7F800001 -> +inf, times 0 = NaN (0 x inf)" 0x7fffffff $TF -a 0x7f800001 -b 0 -c 0
expect_dot "tf32 0xFF800001 -> -inf (hopper HGMMA)" 0xff800000 hopper wgmma.m64n8k8.f32.tf32.tf32 -a 0xff800001 -b 1 -c 0
expect_dot "tf32 0x7F800001 -> +inf (blackwell UTCHMMA)" 0x7f800000 blackwell tcgen05.mma.m64n8k8.f32.tf32.tf32 -a 1 -b 0x7f800001 -c 0
# a NaN with a payload bit at or above bit 13 stays NaN: 0x7F802000 -> canonical 0x7FFFFFFF
expect_dot "tf32 0x7F802000 stays NaN" 0x7fffffff $TF -a 0x7f802000 -b 1 -c 0
# finite values: 0x3F801FFF (1 + 8191*2^-23) is read as 1.0, so 1 * 1 = 1
expect_dot "tf32 0x3F801FFF is read as 1.0" 0x3f800000 $TF -a 0x3f801fff -b 1 -c 0
# C (f32) is not truncated: c = 0x7F800001 is a NaN -> 0x7FFFFFFF; c = 1 + 2^-23 is kept (F = 24: exact)
expect_dot "tf32 instruction: f32 C NaN 0x7F800001 stays NaN" 0x7fffffff $TF -a 1 -b 1 -c 0x7f800001
expect_dot "tf32 instruction: f32 C 1+2^-23 not truncated" 0x3f800001 $TF -a 0 -b 0 -c 0x1.000002p0

# ---------------------------------------------------------------------------------------------------
# Step 1 special values, canonical NaN: 0x7FFFFFFF (f32 D), 0x7FFF (f16 D).
H32="hopper mma.m16n8k8.f32.f16.f16.f32"; H16="hopper mma.m16n8k8.f16.f16.f16.f16"
expect_dot "NaN in a (f16 0x7E00) -> f32 0x7FFFFFFF" 0x7fffffff $H32 -a 0x7e00 -b 1 -c 0
expect_dot "negative NaN in b (f16 0xFE01) -> f32 0x7FFFFFFF" 0x7fffffff $H32 -a 1 -b 0xfe01 -c 0
expect_dot "NaN in c (f32 0xFFC00000) -> 0x7FFFFFFF" 0x7fffffff $H32 -a 1 -b 1 -c 0xffc00000
expect_dot "NaN in a -> f16 0x7FFF" 0x7fff $H16 -a 0x7e00 -b 1 -c 0
expect_dot "NaN in c (f16 0xFC01) -> f16 0x7FFF" 0x7fff $H16 -a 1 -b 1 -c 0xfc01
expect_dot "e4m3 NaN 0x7F -> 0x7FFFFFFF (QGMMA)" 0x7fffffff hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 0x7f -b 1 -c 0
expect_dot "e4m3 NaN 0xFF -> f16 0x7FFF (QGMMA.F16)" 0x7fff hopper wgmma.m64n8k32.f16.e4m3.e4m3 -a 1 -b 0xff -c 0
expect_dot "e5m2 NaN 0x7D -> 0x7FFFFFFF (UTCQMMA)" 0x7fffffff blackwell tcgen05.mma.m64n8k32.f32.e5m2.e5m2 -a 0x7d -b 1 -c 0
expect_dot "bf16 NaN 0x7FC1 -> 0x7FFFFFFF" 0x7fffffff ampere mma.m16n8k8.f32.bf16.bf16.f32 -a 0x7fc1 -b 1 -c 0
# 0 x inf -> NaN (even when everything else is finite)
expect_dot "0 x inf -> NaN (f32 D)" 0x7fffffff $H32 -a inf,1 -b 0,1 -c 1
expect_dot "0 x inf -> NaN (f16 D)" 0x7fff $H16 -a 0 -b -inf -c 1
# +inf and -inf among the products and C -> NaN
expect_dot "+inf + -inf products -> NaN" 0x7fffffff $H32 -a inf,-inf -b 1,1 -c 0
expect_dot "+inf product + -inf c -> NaN" 0x7fffffff $H32 -a inf -b 2 -c -inf
expect_dot "+inf + -inf -> f16 NaN 0x7FFF" 0x7fff $H16 -a inf -b 2 -c -inf
# only one kind of infinity -> that infinity
expect_dot "inf * -2 + finite -> -inf" 0xff800000 $H32 -a inf,65504 -b -2,65504 -c 1
expect_dot "inf * inf -> +inf" 0x7f800000 $H32 -a inf -b inf -c -3
expect_dot "-inf product + -inf c -> -inf" 0xff800000 $H32 -a -inf -b 1 -c -inf
expect_dot "c = +inf, finite products -> +inf (f16 D)" 0x7c00 $H16 -a 65504 -b -65504 -c inf

# ---------------------------------------------------------------------------------------------------
# f16 output: one RNE rounding of the exact sum (Step 5).  f16 ulp at [1,2) is 2^-10.
expect_dot "f16 RNE: 1 + 2^-11 ties to even 1" 0x3c00 $H16 -a 0x1p-11 -b 1 -c 1
expect_dot "f16 RNE: 1 + 3*2^-11 ties to even 1+2^-9" 0x3c02 $H16 -a 0x1p-11,0x1p-10 -b 1,1 -c 1
expect_dot "f16 RNE: -(1 + 2^-11) ties to -1" 0xbc00 $H16 -a 0x1p-11 -b -1 -c -1
expect_dot "f16 RNE: 1 + 2^-11 + 2^-22 (above the tie) -> 1+2^-10" 0x3c01 $H16 -a 0x1p-11,0x1p-11 -b 1,0x1p-11 -c 1
expect_dot "f16 RNE: 1 + 2^-11 - 2^-22 (below the tie) -> 1" 0x3c00 $H16 -a 0x1p-11,-0x1p-11 -b 1,0x1p-11 -c 1
# one rounding of the exact F = 25 sum (no intermediate f32): 1 + 2^-11 + 2^-25 has 26 significant bits;
# RNE straight to f16 sees it above the tie -> 1 + 2^-10 (0x3C01).  Rounding to f32 first (RZ or RN) would
# drop 2^-25 and leave an exact tie -> 1 (0x3C00).  2^-25 = 2^-12 * 2^-13 is on the grid of e_max = 0.
expect_dot "f16 RNE of the exact sum: 1 + 2^-11 + 2^-25 -> 1+2^-10" 0x3c01 $H16 -a 0x1p-11,0x1p-12 -b 1,0x1p-13 -c 1
# subnormal ties: 2^-25 = half of 2^-24 -> 0 (even); 3*2^-25 -> 2*2^-24 (even) = 0x0002
expect_dot "f16 RNE subnormal: 2^-25 ties to +0" 0x0000 $H16 -a 0x1p-24 -b 0.5 -c 0
expect_dot "f16 RNE subnormal: 3*2^-25 ties to 2^-23" 0x0002 $H16 -a 0x1.8p-23 -b 0.5 -c 0
# overflow rule: |x| >= (2 - 2^-11) * 2^15 = 65520 becomes inf; below it rounds to 65504 (0x7BFF).
# 65504 + 16 = 65520 is the tie between 65504 (odd mantissa) and 2^16: RNE goes up -> inf.
expect_dot "f16 overflow: 65504 + 16 = 65520 -> inf" 0x7c00 $H16 -a 16 -b 1 -c 65504
expect_dot "f16 overflow: -65504 - 16 = -65520 -> -inf" 0xfc00 $H16 -a -16 -b 1 -c -65504
expect_dot "f16 overflow: 65504 + 15.984375 = 65519.984375 -> 65504" 0x7bff $H16 -a 15.984375 -b 1 -c 65504
expect_dot "f16 overflow: same on volta HMMA.884.F16" 0x7c00 volta mma.m8n8k4.f16.f16.f16.f16 -a 16 -b 1 -c 65504
# no intermediate overflow: 65504 * 2 - 65504 = 65504 (the product 131008 is not an f16 value)
expect_dot "f16 D: 65504*2 - 65504 = 65504 (products never overflow)" 0x7bff $H16 -a 65504 -b 2 -c -65504

# f32 output: RZ, but |x| >= 2^128 becomes inf.  bf16 reaches that range (hopper HMMA.1688.F32.BF16).
HB="hopper mma.m16n8k8.f32.bf16.bf16.f32"
expect_dot "f32 overflow: 2^127 * 2 = 2^128 -> inf (not RZ's max)" 0x7f800000 $HB -a 0x1p127 -b 2 -c 0
expect_dot "f32 overflow: -2^127 * 2 -> -inf" 0xff800000 $HB -a -0x1p127 -b 2 -c 0
# c = max f32 (2^128 - 2^104), + 2^103: below 2^128 -> RZ to max f32 0x7F7FFFFF; + 2^104: exactly 2^128 -> inf.
# (e_max = 127, F = 25: the grid is 2^102, both products are on it.)
expect_dot "f32 RZ: max + 2^103 -> max" 0x7f7fffff $HB -a 0x1p103 -b 1 -c 0x1.fffffep127
expect_dot "f32 RZ: max + 2^104 = 2^128 -> inf" 0x7f800000 $HB -a 0x1p103 -b 2 -c 0x1.fffffep127
# no intermediate overflow: 2^128 - 2^127 = 2^127 (0x7F000000)
expect_dot "f32: 2^127*2 - 2^127 = 2^127 (no intermediate overflow)" 0x7f000000 $HB -a 0x1p127,-0x1p127 -b 2,1 -c 0
# The paper's own overflow edge experiment (section III-F): (2 - u) * 2^E + {0.75, 0.5, 0.25} u * 2^E.
# f16 D (E = 15, u = 2^-10): 65504 + 24 = 65528 -> inf; 65504 + 16 = 65520 -> inf (tie, see above);
# 65504 + 8 = 65512 -> nearest is 65504 (0x7BFF).  Negated: -inf, -inf, -65504 (0xFBFF).
expect_dot "III-F f16: (2-u)2^15 + 0.75u 2^15 -> inf" 0x7c00 $H16 -a 3 -b 8 -c 65504
expect_dot "III-F f16: (2-u)2^15 + 0.25u 2^15 -> 65504" 0x7bff $H16 -a 1 -b 8 -c 65504
expect_dot "III-F f16: -(2-u)2^15 - 0.75u 2^15 -> -inf" 0xfc00 $H16 -a -3 -b 8 -c -65504
expect_dot "III-F f16: -(2-u)2^15 - 0.25u 2^15 -> -65504" 0xfbff $H16 -a -1 -b 8 -c -65504
# f32 D (E = 127, u = 2^-23): the sums stay below 2^128, so RZ keeps +-max (0x7F7FFFFF / 0xFF7FFFFF).
# 0.75u * 2^127 = 3 * 2^102 = 0x1.8p103, 0.5u = 2^103, 0.25u = 2^102 (all on the F = 25 grid 2^102).
expect_dot "III-F f32: (2-u)2^127 + 0.75u 2^127 -> max (RZ)" 0x7f7fffff $HB -a 0x1.8p103 -b 1 -c 0x1.fffffep127
expect_dot "III-F f32: (2-u)2^127 + 0.5u 2^127 -> max (RZ)" 0x7f7fffff $HB -a 0x1p103 -b 1 -c 0x1.fffffep127
expect_dot "III-F f32: (2-u)2^127 + 0.25u 2^127 -> max (RZ)" 0x7f7fffff $HB -a 0x1p102 -b 1 -c 0x1.fffffep127
expect_dot "III-F f32: -(2-u)2^127 - 0.75u 2^127 -> -max (RZ)" 0xff7fffff $HB -a -0x1.8p103 -b 1 -c -0x1.fffffep127
# ... and 2.0 * 2^E - 2^E: the product 2^(E+1) is beyond the format, the sum is not.
expect_dot "III-F f16: 2 * 2^15 - 2^15 = 2^15 (product does not overflow)" 0x7800 $H16 -a 2 -b 32768 -c -32768
expect_dot "III-F f32: 2 * 2^127 - 2^127 = 2^127" 0x7f000000 $HB -a 2 -b 0x1p127 -c -0x1p127

# Table I (rounding-mode detection), f32 D, u = 2^-23 at 1: inputs 1 + 0.75u, 1 + 0.25u, -1 - 0.75u,
# -1 - 0.25u give 1, 1, -1, -1: RZ.  0.75u = 3 * 2^-25 = 0x1.8p-12 * 2^-13, 0.25u = 2^-25 = 2^-12 * 2^-13
# (exact on the F = 25 grid of e_max = 0).
for ins in "hopper mma.m16n8k16.f32.f16.f16.f32" "blackwell tcgen05.mma.m64n8k16.f32.f16.f16" "rtx-blackwell mma.m16n8k8.f32.f16.f16.f32"; do
  expect_dot "Table I $ins: 1 + 0.75u -> 1 (RZ)" 0x3f800000 $ins -a 0x1.8p-12 -b 0x1p-13 -c 1
  expect_dot "Table I $ins: 1 + 0.25u -> 1 (RZ)" 0x3f800000 $ins -a 0x1p-12 -b 0x1p-13 -c 1
  expect_dot "Table I $ins: -1 - 0.75u -> -1 (RZ)" 0xbf800000 $ins -a -0x1.8p-12 -b 0x1p-13 -c -1
  expect_dot "Table I $ins: -1 - 0.25u -> -1 (RZ)" 0xbf800000 $ins -a -0x1p-12 -b 0x1p-13 -c -1
done
# Table II (tie rule), f16 D, u = 2^-10: 1 + 0.5u -> 1, 1 + 1.5u -> 1 + 2u, -1 - 0.5u -> -1,
# -1 - 1.5u -> -1 - 2u: RNE.  0.5u = 2^-11, 1.5u = 3 * 2^-11 = 0x1.8p-10.
expect_dot "Table II f16: 1 + 0.5u -> 1 (RNE)" 0x3c00 $H16 -a 0x1p-11 -b 1 -c 1
expect_dot "Table II f16: 1 + 1.5u -> 1 + 2u (RNE)" 0x3c02 $H16 -a 0x1.8p-10 -b 1 -c 1
expect_dot "Table II f16: -1 - 0.5u -> -1 (RNE)" 0xbc00 $H16 -a -0x1p-11 -b 1 -c -1
expect_dot "Table II f16: -1 - 1.5u -> -1 - 2u (RNE)" 0xbc02 $H16 -a -0x1.8p-10 -b 1 -c -1
# exact zero sum is +0 whatever the signs (MMA-Sim convention): -0 + (+0 * -0) -> +0
expect_dot "exact zero: -0 + 0*-0 -> +0" 0x00000000 $H32 -a 0 -b -0 -c -0
expect_dot "exact zero: -1 + 1 -> +0 (f16 D)" 0x0000 $H16 -a 1 -b 1 -c -1

# ---------------------------------------------------------------------------------------------------
# Block scales (QMMA.SF, UTCQMMA block32): e_k = e_a + e_b + e_sa[k/32] + e_sb[k/32]; UE8M0 0x7F = 2^0.
QSF="rtx-blackwell mma.m16n8k32.block32.f32.e4m3.e4m3.f32.ue8m0"
UQSF="blackwell tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0"
expect_dot "QMMA.SF scales 2^2 * 2^-1: 1*1 -> 2" 0x40000000 $QSF -a 1 -b 1 -c 0 --scale-a 0x81 --scale-b 0x7e
expect_dot "UTCQMMA scales 2^2 * 2^-1: 1*1 -> 2" 0x40000000 $UQSF -a 1 -b 1 -c 0 --scale-a 0x81 --scale-b 0x7e
# UE8M0 0xFF is NaN: D = 0x7FFFFFFF, even with all products zero and c = inf
expect_dot "QMMA.SF scale-a 0xFF (NaN) -> NaN" 0x7fffffff $QSF -a 1 -b 1 -c 0 --scale-a 0xff --scale-b 0x7f
expect_dot "UTCQMMA scale-b 0xFF (NaN) with zero products -> NaN" 0x7fffffff $UQSF -a 0 -b 0 -c 1 --scale-a 0x7f --scale-b 0xff
OSF="rtx-blackwell mma.m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0"      # OMMA.SF MXFP4, GDFS
OSF16="rtx-blackwell mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue8m0"    # OMMA.SF ... .E8.4X
NVF="rtx-blackwell mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3"      # OMMA.SF NVFP4
UOM="blackwell tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0"     # UTCOMMA
expect_dot "GDFS scale NaN (block 1) -> NaN" 0x7fffffff $OSF -a 1 -b 1 -c 0 --scale-a 0x7f,0xff --scale-b 0x7f,0x7f
expect_dot "GDFS scale NaN beats c = inf" 0x7fffffff $UOM -a 1 -b 1 -c inf --scale-a 0x7f,0x7f --scale-b 0xff,0x7f
expect_dot "GDFS c = -inf -> -inf" 0xff800000 $OSF -a 6 -b 6 -c -inf --scale-a 0x7f,0x7f --scale-b 0x7f,0x7f
expect_dot "GDFS c NaN -> 0x7FFFFFFF" 0x7fffffff $OSF -a 6 -b 6 -c 0x7fc00000 --scale-a 0x7f,0x7f --scale-b 0x7f,0x7f
# UE4M3 scale bit 7 is ignored (Step 0): 0xB8 reads as 0x38 = 1.0, so 1*1 -> 1 (not -1, not NaN);
# 0xFF reads as 0x7F, which is NaN; 0x80 reads as 0x00 = 0 -> d = c.
expect_dot "NVFP4 UE4M3 0xB8 reads as 1.0" 0x3f800000 $NVF -a 1 -b 1 -c 0 --scale-a 0xb8 --scale-b 0x38
expect_dot "NVFP4 UE4M3 0xB8 on both sides: 1.5*4 -> 6" 0x40c00000 $NVF -a 1.5 -b 4 -c 0 --scale-a 0xb8 --scale-b 0xb8
expect_dot "NVFP4 UE4M3 0xFF reads as 0x7F = NaN" 0x7fffffff $NVF -a 1 -b 1 -c 0 --scale-a 0xff --scale-b 0x38
expect_dot "NVFP4 UE4M3 0x80 reads as 0 -> d = c" 0x3fc00000 $NVF -a 1 -b 1 -c 1.5 --scale-a 0x80 --scale-b 0x38
# GDFS sums in groups of 16 whatever the block size (Step 3), and a group's exponent is its scales'
# exponents only (Step 4).  Vector: a[0] = 0.5, b[0] = 1 (sigma_0 = 0.5); a[16] = -0.5, b[16] = 0.5
# (sigma_1 = -0.25); groups 2 and 3 are all zero.  Scales: block 0 = 2^0 * 2^0, block 1 (k = 32..63) =
# 2^34 * 2^0 (UE8M0 0xA1 = 127 + 34).  So e_0 = e_1 = 0, e_2 = e_3 = 34, e_c(+0) = -126: e_max = 34 and the
# F = 35 grid is 2^(34-35) = 2^-1.  gamma_0 = 0.5 -> 1 grid unit; gamma_1 = -0.25 = -1/2 unit -> truncated
# to 0.  d = 0.5 = 0x3F000000.  Summing by blocks of 32 would give sigma = 0.25 -> 1/2 unit -> 0; an exact
# sum would give 0.25 (0x3E800000).
GA="0.5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-0.5"; GB="1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0.5"
expect_dot "GDFS groups of 16 under block32 (OMMA.SF MXFP4)" 0x3f000000 $OSF -a $GA -b $GB -c 0 --scale-a 0x7f,0xa1 --scale-b 0x7f,0x7f
expect_dot "GDFS groups of 16 under block32 (UTCOMMA)" 0x3f000000 $UOM -a $GA -b $GB -c 0 --scale-a 0x7f,0xa1 --scale-b 0x7f,0x7f
# same with block16 scales (block g = group g): the large scale on block 2
expect_dot "GDFS groups of 16 under block16 (OMMA.SF .4X)" 0x3f000000 $OSF16 -a $GA -b $GB -c 0 --scale-a 0x7f,0x7f,0xa1,0x7f --scale-b 0x7f,0x7f,0x7f,0x7f
# control: with every scale 2^0, e_max = 0 and nothing is truncated: 0.5 - 0.25 = 0.25
expect_dot "GDFS control: unit scales give the exact 0.25" 0x3e800000 $OSF -a $GA -b $GB -c 0 --scale-a 0x7f,0x7f --scale-b 0x7f,0x7f
# Not modelled here: MMA-Sim's AMD algorithms (GPS, FDRDA, ...) are not part of this suite.
