# Directed vectors from the hardware papers: Fasi et al., "Numerical behavior of NVIDIA tensor cores"
# (section 3) and Valpey et al., "An SMT formalization of
# tensor cores" (Tables 1 and 3, properties 1-4).
# Expected values are the papers' observed hardware results; each is derived by hand beside the check.
# MMA-Sim's own observations (Table III F values, specials, FP8, block scales, GDFS) are in t_model_paper_mmasim.sh.
#
# Mapping of the papers' experiments onto mmaref instructions:
#  - Fasi call wmma::mma_sync 16x16x16 and use a single 4-term dot product (one row of A, one column of B,
#    everything else 0).  On Volta that is HMMA.884 = mma.m8n8k4 (K=4 dot-add: d = c + a0b0 + .. + a3b3).
#    On Turing we use the same m8n8k4 and HMMA.1688 (mma.m16n8k8); on Ampere HMMA.1688 (mma.m16n8k8, FDA,
#    K=8: the extra terms are 0).  The wmma 16x16x16 layer itself (which on Ampere compiles to HMMA.16816,
#    a CoFDA) is not an instruction of the model; t_model_properties.sh covers CoFDA.
#  - Valpey used a Titan V (Volta), RTX 2080Ti (Turing) and RTX A6000 (Ampere) with "four(eight)-term"
#    dot products: HMMA.884 on Volta/Turing, HMMA.1688 (mma.m16n8k8, K=8) on Ampere.
. "$(dirname "$0")/lib.sh"

V32="volta mma.m8n8k4.f32.f16.f16.f32"      # HMMA.884.F32.F32, F=23, f32 D rounded RZ
V16="volta mma.m8n8k4.f16.f16.f16.f16"      # HMMA.884.F16.F16, F=23, f16 D rounded RNE
T32="turing mma.m8n8k4.f32.f16.f16.f32"     # HMMA.884.F32.F32, F=24
T1688="turing mma.m16n8k8.f32.f16.f16.f32"  # HMMA.1688.F32,   F=24
T16="turing mma.m8n8k4.f16.f16.f16.f16"     # HMMA.884.F16.F16, F=24
A32="ampere mma.m16n8k8.f32.f16.f16.f32"    # HMMA.1688.F32,   F=24
A16="ampere mma.m16n8k8.f16.f16.f16.f16"    # HMMA.1688.F16,   F=24
ABF="ampere mma.m16n8k8.f32.bf16.bf16.f32"  # HMMA.1688.F32.BF16, F=24
ABF2="ampere mma.m16n8k16.f32.bf16.bf16.f32" # HMMA.16816.F32.BF16, CoFDA(F=24)
ATF="ampere mma.m16n8k4.f32.tf32.tf32.f32"  # HMMA.1684.F32.TF32, F=24
AF64="ampere mma.m8n8k4.f64.f64.f64.f64"    # DMMA.884, SFMA (IEEE fma chain, RNE)

# ---------------------------------------------------------------------------------------------------
# Fasi 3.1.1 Support for subnormal numbers (Volta)
# a = 2^-24 (f16 smallest subnormal, 0x0001), b = 2^2: product 2^-22 exactly.  f32: 2^-22 = 0x34800000;
# f16: 2^-22 = 4 * 2^-24 = subnormal 0x0004.  "returns the subnormal result 2^-22 in both modes".
expect_dot "fasi 3.1.1 f16 subnormal input 2^-24*4 = 2^-22 (f32 D)" 0x34800000 $V32 -a 0x1p-24 -b 4 -c 0
expect_dot "fasi 3.1.1 f16 subnormal input 2^-24*4 = 2^-22 (f16 D)" 0x0004 $V16 -a 0x1p-24 -b 4 -c 0
# c = 2^-149 (smallest f32 subnormal, 0x00000001), A = B = 0: d = 2^-149 unaltered.  (Zero products have
# significand 0, so with e_max = e_c = -126 and F = 23 the single ulp 2^-149 survives alignment.)
expect_dot "fasi 3.1.1 f32 subnormal c = 2^-149 passes through" 0x00000001 $V32 -a 0 -b 0 -c 0x1p-149
# a = 2^-14 (f16 smallest normal), b = 2^-1: 2^-15 is subnormal in f16 (0x0200 = 512 * 2^-24) and normal
# in f32 (0x38000000); "return the binary16 subnormal 2^-15 in both binary16 and binary32 modes".
expect_dot "fasi 3.1.1 2^-14 * 2^-1 = 2^-15 (f32 D)" 0x38000000 $V32 -a 0x1p-14 -b 0.5 -c 0
expect_dot "fasi 3.1.1 2^-14 * 2^-1 = 2^-15 subnormal (f16 D)" 0x0200 $V16 -a 0x1p-14 -b 0.5 -c 0
# a = 2^-14, b = 1, c = -2^-15 (f16 0x8200): 2^-14 - 2^-15 = 2^-15, the f16 subnormal 0x0200.
expect_dot "fasi 3.1.1 2^-14 - 2^-15 = subnormal 2^-15 (f16 D)" 0x0200 $V16 -a 0x1p-14 -b 1 -c -0x1p-15
# "conversion from binary16 to binary32 does not result in subnormal numbers": on HMMA.884.F32.F16 (f16 C,
# f32 D; mma.m8n8k4.f32.f16.f16.f16) C is converted to f32 first, so c = 2^-24 (f16 subnormal 0x0001) is the
# normal f32 2^-24 with exponent -24, not 2^-10 x 2^-14.  With a = 2^-24, b = 2^-23 the product 2^-47 has
# exponent -14 + -14 = -28, so e_max = -24 and the F = 23 grid is 2^-47: d = 2^-24 + 2^-47 = (1 + 2^-23) *
# 2^-24 = 0x33800001.  (Had C kept f16's exponent -14, the grid would be 2^-37 and d = 2^-24 = 0x33800000.)
expect_dot "fasi 3.1.1 f16 C 2^-24 becomes a normal f32 (HMMA.884.F32.F16)" 0x33800001 volta mma.m8n8k4.f32.f16.f16.f16 \
  -a 0x1p-24 -b 0x1p-23 -c 0x1p-24
expect_dot "fasi 3.1.1 f16 C 2^-24 passes through as f32 2^-24" 0x33800000 volta mma.m8n8k4.f32.f16.f16.f16 -a 0 -b 0 -c 0x1p-24
# a = (1, 1), b = (2^-23 + 2^-24, 2): with F = 23 and e_max = 1 (the product 2) the alignment ulp is 2^-22;
# 2^-23 + 2^-24 = 0.75 * 2^-22 truncates to 0, so d = 2 (0x40000000), not RN's 2 + 2^-22.
expect_dot "fasi 3.1.1 2 + 0.75*2^-22 truncated (subnormal handled in the unit)" 0x40000000 $V32 -a 1,1 -b 0x1.8p-23,2 -c 0

# Fasi 3.1.2 Accuracy of the dot products (Volta)
# a = b = (1 - 2^-11) x4, c = 0: each product (1 - 2^-11)^2 = 1 - 2^-10 + 2^-22 exactly (22 significant bits),
# d = 4 - 2^-8 + 2^-20 = 0x1.ff8010p+1 -> f32 0x407fc004 (exact: 22 significant bits fit in 24).
expect_dot "fasi 3.1.2 products held exactly: 4(1-2^-11)^2" 0x407fc004 $V32 \
  -a 0x1.ffcp-1,0x1.ffcp-1,0x1.ffcp-1,0x1.ffcp-1 -b 0x1.ffcp-1,0x1.ffcp-1,0x1.ffcp-1,0x1.ffcp-1 -c 0
# f16 C/D: a = (1-2^-11, 1-2^-11), b = (1-2^-11, 2^-11): (1 - 2^-10 + 2^-22) + (2^-11 - 2^-22) = 1 - 2^-11,
# exactly the f16 0x3bff; an f16 accumulator would have lost the 2^-22 terms first.
expect_dot "fasi 3.1.2 f16 mode keeps exact products: sum = 1-2^-11" 0x3bff $V16 \
  -a 0x1.ffcp-1,0x1.ffcp-1 -b 0x1.ffcp-1,0x1p-11 -c 0
# Rounding errors: a = (1,1,1,1), one of the 5 addends = 1, the four others = 2^-24.  With F = 23 and
# e_max = 0 the ulp of the aligned terms is 2^-23, so each 2^-24 truncates to 0: d = 1 for all 5 placements.
for pos in 0 1 2 3 4; do
  b=(0x1p-24 0x1p-24 0x1p-24 0x1p-24); c=0x1p-24
  if [[ $pos -lt 4 ]]; then b[$pos]=1; else c=1; fi
  expect_dot "fasi 3.1.2 Volta: 1 + 4*2^-24 = 1 (the 1 at position $pos)" 0x3f800000 $V32 \
    -a 1,1,1,1 -b "$(IFS=,; echo "${b[*]}")" -c $c
done

# Fasi 3.1.3 Rounding modes (Volta)
# b = (2, 2^-23 + 2^-24), a = 1: RN/RU give 2 + 2^-22, RZ/RD give 2; hardware gives 2.  Negated: RZ gives -2
# (RD would give -2 - 2^-22); hardware gives -2 -> round toward zero (truncation at F = 23, ulp 2^-22).
expect_dot "fasi 3.1.3 2 + 0.75ulp -> 2 (RZ or RD)" 0x40000000 $V32 -a 1,1 -b 2,0x1.8p-23 -c 0
expect_dot "fasi 3.1.3 -2 - 0.75ulp -> -2 (RZ)" 0xc0000000 $V32 -a 1,1 -b -2,-0x1.8p-23 -c 0
# f16 D: a = (2^-24, 2^-24), b = (2^-1, 2^-2): exact 2^-25 + 2^-26 = 0.75 * 2^-24; RN gives 2^-24 (0x0001),
# RZ would give 0.  Hardware returns 2^-24: the f16 output is round-to-nearest.
expect_dot "fasi 3.1.3 f16 output 0.75*2^-24 -> 2^-24 (RN, not RZ)" 0x0001 $V16 -a 0x1p-24,0x1p-24 -b 0.5,0.25 -c 0

# Fasi 3.1.4 Features of the accumulator (Volta)
# No guard digits: b = 1, c = -1 + 2^-24 (f32 0xbf7fffff, exponent -1).  e_max = 0, ulp 2^-23:
# c = -(2^23 - 1/2) ulp truncates toward zero to -(2^23 - 1) ulp; 2^23 - (2^23 - 1) = 1 ulp = 2^-23 = 0x34000000
# (exact answer 2^-24: relative error 1).
expect_dot "fasi 3.1.4 no guard digit: 1 + (-1 + 2^-24) = 2^-23" 0x34000000 $V32 -a 1 -b 1 -c -0x1.fffffep-1
# Normalization in addition: c = 1 - 2^-24, b = 2^-24 x4.  e_max = e_c = -1, ulp 2^-24: c = 2^24 - 1 ulp,
# each 2^-24 = 1 ulp; sum 2^24 + 3 ulp = 1 + 3*2^-24 -> RZ to f32 (ulp 2^-23 at 1) = 1 + 2^-23 = 0x3f800001.
expect_dot "fasi 3.1.4 no intermediate normalization: (1-2^-24) + 4*2^-24 = 1+2^-23" 0x3f800001 $V32 \
  -a 1,1,1,1 -b 0x1p-24,0x1p-24,0x1p-24,0x1p-24 -c 0x1.fffffep-1
# Monotonicity: same with c = 1: e_max = 0, ulp 2^-23, every 2^-24 truncates: d = 1 < 1 + 2^-23 above
# although c grew.
expect_dot "fasi 3.1.4 non-monotonic: 1 + 4*2^-24 = 1" 0x3f800000 $V32 \
  -a 1,1,1,1 -b 0x1p-24,0x1p-24,0x1p-24,0x1p-24 -c 1
# Normalization in subtraction: c = -1 + 2^-24, b = (1, -2^-24).  e_max = 0, ulp 2^-23: c -> -(2^23 - 1),
# 1 -> 2^23, -2^-24 = -1/2 ulp -> 0; sum = 1 ulp = 2^-23 (normalized partial sums would give 0).
expect_dot "fasi 3.1.4 no normalization in subtraction: 2^-23" 0x34000000 $V32 \
  -a 1,1 -b 1,-0x1p-24 -c -0x1.fffffep-1
# Extra carry bits: c = 1 + 2^-22 + 2^-23 (0x3f800003), b = a permutation of (1, 1, 1, 2^-23).
# ulp 2^-23: c = 2^23 + 3, 1 = 2^23, 2^-23 = 1; sum = 4*2^23 + 4 ulp = 4 + 2^-21, exact in f32 (0x40800001)
# for every order.
for perm in "1,1,1,0x1p-23" "1,1,0x1p-23,1" "1,0x1p-23,1,1" "0x1p-23,1,1,1"; do
  expect_dot "fasi 3.1.4 two carry bits: c + ($perm) = 4 + 2^-21" 0x40800001 $V32 -a 1,1,1,1 -b $perm -c 0x1.000006p0
done
# Third carry bit: c = 1.875, b = (1, 1.5, 1.75, 1.875): sum 8 exactly (needs 3 bits above the binary point
# of 2^e_max = 1); the hardware returns 8 = 0x41000000 (2 carry bits would wrap to 0).
expect_dot "fasi 3.1.4 three carry bits: 1.875+1+1.5+1.75+1.875 = 8" 0x41000000 $V32 -a 1,1,1,1 -b 1,1.5,1.75,1.875 -c 1.875
# RZ of the final normalization ("replacing one of the 2^-23 by 1"): c = 1 + 2^-22 + 2^-23, b = (1,1,1,1):
# 5 + 3*2^-23 exact; f32 ulp at [4,8) is 2^-21, 3*2^-23 = 0.75 ulp: RZ gives 5 (0x40a00000), RN 5 + 2^-21.
expect_dot "fasi 3.1.4 final normalization is RZ: 5 + 0.75ulp -> 5" 0x40a00000 $V32 -a 1,1,1,1 -b 1,1,1,1 -c 0x1.000006p0

# Fasi 3.2 Turing: one extra bit at the bottom (F = 24); everything else as Volta.
# 1 + 4*2^-24 is now exact: ulp 2^-24, sum 2^24 + 4 ulp = 1 + 2^-22 = 0x3f800002 (Volta gave 1).
for ins in "$T32" "$T1688" "$A32"; do
  expect_dot "fasi 3.2 $ins: 1 + 4*2^-24 exact = 1+2^-22" 0x3f800002 $ins -a 1,1,1,1 -b 0x1p-24,0x1p-24,0x1p-24,0x1p-24 -c 1
  # the Volta experiment moved one bit down: 2^-25 terms (0.5 * 2^-24) now truncate: d = 1
  expect_dot "fasi 3.2 $ins: 1 + 4*2^-25 = 1" 0x3f800000 $ins -a 0.5,0.5,0.5,0.5 -b 2,0x1p-24,0x1p-24,0x1p-24 -c 0x1p-25
  # no-guard-digit test: c = -1 + 2^-24 now keeps all 24 fraction bits: d = 2^-24 exactly (0x33800000)
  expect_dot "fasi 3.2 $ins: 1 + (-1 + 2^-24) = 2^-24 exact" 0x33800000 $ins -a 1 -b 1 -c -0x1.fffffep-1
  # the RZ, carry-bit and normalization findings are unchanged
  expect_dot "fasi 3.2 $ins: 2 + 0.75*2^-22 -> 2 (RZ)" 0x40000000 $ins -a 1,1 -b 2,0x1.8p-23 -c 0
  expect_dot "fasi 3.2 $ins: -2 - 0.75*2^-22 -> -2 (RZ)" 0xc0000000 $ins -a 1,1 -b -2,-0x1.8p-23 -c 0
  expect_dot "fasi 3.2 $ins: three carry bits = 8" 0x41000000 $ins -a 1,1,1,1 -b 1,1.5,1.75,1.875 -c 1.875
  expect_dot "fasi 3.2 $ins: (1-2^-24) + 4*2^-24 = 1+2^-23" 0x3f800001 $ins \
    -a 1,1,1,1 -b 0x1p-24,0x1p-24,0x1p-24,0x1p-24 -c 0x1.fffffep-1
done
# Turing/Ampere f16 output is still RN: 0.75 * 2^-24 -> 2^-24.
expect_dot "fasi 3.2 turing f16 output 0.75*2^-24 -> 2^-24 (RN)" 0x0001 $T16 -a 0x1p-24,0x1p-24 -b 0.5,0.25 -c 0
expect_dot "fasi 3.3 ampere f16 output 0.75*2^-24 -> 2^-24 (RN)" 0x0001 $A16 -a 0x1p-24,0x1p-24 -b 0.5,0.25 -c 0
# Fasi's monotonicity pair does not carry over to Turing by moving the constant one bit: c = 1 - 2^-25 is not
# an f32 value, so no Turing variant is tested (the paper gives none).

# Fasi 3.3 Ampere bf16: a = 2^-126, b = 2^-1 (normal bf16) -> the f32 subnormal 2^-127 = 0x00400000.
expect_dot "fasi 3.3 ampere bf16 2^-126 * 2^-1 = subnormal 2^-127 (HMMA.1688)" 0x00400000 $ABF -a 0x1p-126 -b 0.5 -c 0
expect_dot "fasi 3.3 ampere bf16 2^-126 * 2^-1 = subnormal 2^-127 (HMMA.16816)" 0x00400000 $ABF2 -a 0x1p-126 -b 0.5 -c 0
# bf16 behaves as f16 on T4 (F = 24): the no-guard and extra-bit vectors give the Turing answers.
expect_dot "fasi 3.3 ampere bf16: 1 + 4*2^-24 = 1+2^-22" 0x3f800002 $ABF -a 1,1,1,1 -b 0x1p-24,0x1p-24,0x1p-24,0x1p-24 -c 1
expect_dot "fasi 3.3 ampere bf16: 1 + (-1 + 2^-24) = 2^-24" 0x33800000 $ABF -a 1 -b 1 -c -0x1.fffffep-1
# TF32 "exhibits the same features as binary16/binary32 on T4" (HMMA.1684.F32.TF32, K = 4):
expect_dot "fasi 3.3 ampere tf32: 1 + 4*2^-24 = 1+2^-22" 0x3f800002 $ATF -a 1,1,1,1 -b 0x1p-24,0x1p-24,0x1p-24,0x1p-24 -c 1
expect_dot "fasi 3.3 ampere tf32: 1 + 4*2^-25 = 1" 0x3f800000 $ATF -a 1,1,1,1 -b 0x1p-25,0x1p-25,0x1p-25,0x1p-25 -c 1
expect_dot "fasi 3.3 ampere tf32: 1 + (-1 + 2^-24) = 2^-24" 0x33800000 $ATF -a 1 -b 1 -c -0x1.fffffep-1
expect_dot "fasi 3.3 ampere tf32: -2 - 0.75*2^-22 -> -2 (RZ)" 0xc0000000 $ATF -a 1,1 -b -2,-0x1.8p-23 -c 0
# tf32 subnormal: 2^-136 is TF32's smallest subnormal (Fasi Table 3); times 2^10 = 2^-126 (0x00800000).
expect_dot "fasi 3.3 ampere tf32 smallest subnormal 2^-136 * 2^10 = 2^-126" 0x00800000 $ATF -a 0x1p-136 -b 1024 -c 0
# Ampere f64 (DMMA.884): IEEE fma chain, RNE, normalized after every addition, sequential order.
# c = 1, products 2^-53, 2^-53: 1 + 2^-53 is a tie -> RNE keeps 1 (even), twice: d = 1 = 0x3ff0000000000000
# (an exact fused sum would be 1 + 2^-52).
expect_dot "fasi 3.3 ampere f64: 1 + 2^-53 + 2^-53 = 1 (RNE after each add)" 0x3ff0000000000000 $AF64 \
  -a 0x1p-53,0x1p-53 -b 1,1 -c 1
# c = 1 + 2^-52 (odd), product 2^-53: tie between 1+2^-52 and 1+2^-51 -> even = 1 + 2^-51 = 0x3ff0000000000002.
expect_dot "fasi 3.3 ampere f64: (1+2^-52) + 2^-53 ties to even 1+2^-51" 0x3ff0000000000002 $AF64 -a 0x1p-53 -b 1 -c 0x1.0000000000001p0
# "additions not always performed starting from the largest addend": products (2^-53, 2^-53, 1) in that
# order: 2^-53, 2^-52, 1 + 2^-52 = 0x3ff0000000000001 (largest-first would give 1).
expect_dot "fasi 3.3 ampere f64: sequential order, small terms first survive" 0x3ff0000000000001 $AF64 \
  -a 0x1p-53,0x1p-53,1 -b 1,1,1 -c 0

# ---------------------------------------------------------------------------------------------------
# Valpey et al., Table 1 (exact multiplication).  The table as stored is not self-consistent: a =
# 1.2587890625 * 2^-15 lies in f16's subnormal range and would need 11 significant bits there (1289 * 2^-25,
# not a multiple of 2^-24), and the printed "exact result" 1.41626358032226562 * 2^-17 is not the product of
# the printed a and b (1289/1024 * 1401/1024 = 1.72222995758...).  We keep the two significands and move a
# to the smallest normal binade: a = 1289 * 2^-24 (= 1.2587890625 * 2^-14), b = 1401 * 2^-11
# (= 1.3681640625 * 2^-1).  Product = 1805889 * 2^-35 = 1.72222995758 * 2^-15 (21 significant bits): exact
# in f32 = 0x385c7208; an f16 product would be the subnormal 0x0372 (= 882 * 2^-24).  The hardware returns
# the exact product ("Hardware Result = Exact Result").
for ins in "$V32" "$T32" "$A32"; do
  expect_dot "valpey T1 $ins: exact product 1.2587890625*2^-14 * 1.3681640625*2^-1" 0x385c7208 $ins \
    -a 0x1.4240p-14 -b 0x1.5e40p-1 -c 0
done
# Property 1 (accumulation of f16 in/out is single precision): products not in f16 whose sum is.
# a = (1+2^-10, 1+2^-10), b = (1+2^-10, -(1-2^-10)): p0 = 1 + 2^-9 + 2^-20 (21 bits), p1 = -(1 - 2^-20)
# (20 bits); p0 + p1 = 2^-9 + 2^-19 = 2^-9 * (1 + 2^-10) = f16 0x1801.  An f16 accumulator would have
# rounded p0 -> 1 + 2^-9 and p1 -> -1 and returned 2^-9 (0x1800).
for ins in "$V16" "$T16" "$A16"; do
  expect_dot "valpey P1 $ins: f16 in/out accumulates exact products" 0x1801 $ins \
    -a 0x1.004p0,0x1.004p0 -b 0x1.004p0,-0x1.ff8p-1 -c 0
done
# Property 2 (final rounding to f16 is round-to-nearest, in the unit): one product, the rest 0.
# a = b = 1.5 + 2^-10 (0x3e01): p = 2.25 + 3*2^-10 + 2^-20; f16 ulp in [2,4) is 2^-9, so p = 2.25 + 1.5ulp + tiny:
# RN and RU give 2.25 + 2^-8 (0x4082), RZ and RD give 2.25 + 2^-9 (0x4081).  Negated (b < 0): RN and RD give
# -(2.25 + 2^-8) (0xc082), RZ and RU -(2.25 + 2^-9).  Both -> RN.
for ins in "$V16" "$T16" "$A16"; do
  expect_dot "valpey P2 $ins: f16 result of 2.25+1.5ulp+tiny rounds up (RN/RU)" 0x4082 $ins -a 0x1.804p0 -b 0x1.804p0 -c 0
  expect_dot "valpey P2 $ins: f16 result of -(2.25+1.5ulp+tiny) rounds away (RN/RD)" 0xc082 $ins -a 0x1.804p0 -b -0x1.804p0 -c 0
done
# Table 3 (truncation, not RZ): a = 2^1, b = 1, c = -2^-40.  Properly rounded RZ of 2 - 2^-40 is 2 - 2^-23
# (0x3fffffff); the tensor core returns 2 (0x40000000): aligning -2^-40 to e_max = 1 with F = 23 (Volta) or
# 24 (Turing, Ampere) fraction bits shifts all of its bits out.  Same on HMMA.884 (Volta, Turing) and
# HMMA.1688 (Turing, Ampere).
for ins in "$V32" "$T32" "$T1688" "$A32"; do
  expect_dot "valpey T3 $ins ${ins#* }: 2 - 2^-40 -> 2 (truncated, not 2-2^-23)" 0x40000000 $ins -a 2 -b 1 -c -0x1p-40
done
# Property 3 (order independence): the three products 1, 2^-24, 2^-24 (and c = 2^-23) in every order
# give the same Volta result.  ulp 2^-23: the 2^-24 products truncate to 0: d = 1 + 2^-23 = 0x3f800001.
for perm in "1,0x1p-24,0x1p-24" "0x1p-24,1,0x1p-24" "0x1p-24,0x1p-24,1"; do
  expect_dot "valpey P3 volta order ($perm) + 2^-23" 0x3f800001 $V32 -a 1,1,1 -b $perm -c 0x1p-23
done
# Papers disagree on Turing: Valpey (RTX 2080Ti) report that "the Volta and Turing tensor cores possess
# identical numerical behavior" and that "all shifted bits are discarded on Volta and Turing, while one is
# preserved on Ampere" (their Algorithm 1: F = 23 on Turing), whereas Fasi (T4, section 3.2) and MMA-Sim
# (T4, Table III) find one extra bottom bit on Turing (F = 24).  The model follows MMA-Sim, so the Turing
# checks above expect F = 24 (e.g. 1 + (-1 + 2^-24) = 2^-24 = 0x33800000 on turing mma.m8n8k4.f32.f16.f16.f32,
# where Valpey's description would give Volta's 2^-23 = 0x34000000).  No Valpey-Turing vector is asserted.
# Property 4 (no normalization of the partial sums, all inputs > 0): Fasi's vector above; the Ampere case
# "one shifted bit is preserved" (F = 24) is the 1 + (-1 + 2^-24) = 2^-24 check in the Turing/Ampere loop.
# Not modelled: Valpey section 6 (Ootomo-Yokota vs Markidis error study) is a property of algorithms built on
# the unit, not an observation of one instruction; the "4 carry bits on Ampere" query timed out (no vector).
