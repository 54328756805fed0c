# AMD Matrix Cores (CDNA1-CDNA3): instruction table, GPS, FDRDA, CoFDRDA, GFDRDA, CoGFDRDA, and the
# study / diff commands.  Every expected value is derived by hand beside the check (MMA-Sim paper, sections IV-A,B,
# F-I, VI-B, VI-C; docs/algorithms.md "AMD").  f32 bits: 1.0 = 0x3f800000, 2^-24 = 0x33800000.
# runtime: 22 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
M=$MMAREF

# expect_line WHAT PATTERN CMD...: CMD succeeds and its output has a line matching the grep -E PATTERN.
expect_line() {
  local what=$1 pat=$2; shift 2
  local out; out=$("$@" 2>&1)
  if grep -Eq -- "$pat" <<<"$out"; then ok "$what"; else not_ok "$what: no line matching '$pat' in: $(head -c 400 <<<"$out")"; fi
}

# ---- instruction table ------------------------------------------------------------------------
# CDNA1 (MI100 ISA): 5 f32 + 5 f16 + 5 bf16 MFMAs.  CDNA2 adds 2 f64 and 5 bf16_1k: 22.  CDNA3: 2 f64,
# 5 f32, 2 xf32, 5 f16, 5 bf16, 8 fp8/bf8 mixes (2 shapes x 4): 27.  (Integer and sparse forms excluded.)
for want in cdna1:15 cdna2:22 cdna3:27; do
  n=$("$M" list "${want%%:*}" | wc -l)
  [[ $n == "${want##*:}" ]] && ok "${want%%:*} lists ${want##*:} MFMAs" || not_ok "${want%%:*} lists $n MFMAs, expected ${want##*:}"
done
json=$("$M" list cdna3 --json; "$M" list cdna2 --json; "$M" list cdna1 --json)
jfield() { # jfield ARCH NAME FIELD: a top-level field, "passes" (the schedule's length), or "pass.F" (F of
           # the first pass; every pass of an AMD entry shares them) and "d_out" (the last pass's output)
  python3 -c 'import json,sys
arch,name,field=sys.argv[1:4]
txt=sys.stdin.read().replace("]\n[", ",")
i=[i for i in json.loads(txt) if i["arch"]==arch and i["name"]==name][0]
s=i["schedule"]
print(len(s) if field=="passes" else s[0][field[5:]] if field.startswith("pass.") else
      s[-1]["out"] if field=="d_out" else i[field])' "$@" <<<"$json"
}
expect_field() { # what arch name field want
  local got; got=$(jfield "$2" "$3" "$4" 2>&1)
  [[ $got == "$5" ]] && ok "$1" || not_ok "$1: $4 of $2 $3 is '$got', expected '$5'"
}
# Table IV and the ISA: the _Nb suffix is the block count; 16x16x16 f16/bf16, 16x16x8 xf32 and the K=32
# FP8 shape are chained (Co-) algorithms; legacy bf16 has G = 2, _1k bf16 and f16 G = 4.
expect_field "cdna3 32x32x1_2b_f32 has 2 blocks" cdna3 v_mfma_f32_32x32x1_2b_f32 blocks 2
expect_field "cdna3 4x4x4_16b_f16 has 16 blocks" cdna3 v_mfma_f32_4x4x4_16b_f16 blocks 16
expect_field "cdna3 4x4x4_16b_f16 is FDRDA" cdna3 v_mfma_f32_4x4x4_16b_f16 algo FDRDA
expect_field "cdna3 16x16x16_f16 is CoFDRDA" cdna3 v_mfma_f32_16x16x16_f16 passes 2
expect_field "cdna3 16x16x8_xf32 is CoFDRDA" cdna3 v_mfma_f32_16x16x8_xf32 passes 2
expect_field "cdna3 32x32x4_xf32 is a single FDRDA" cdna3 v_mfma_f32_32x32x4_xf32 passes 1
expect_field "cdna3 32x32x4_xf32 takes tf32" cdna3 v_mfma_f32_32x32x4_xf32 a tf32
expect_field "cdna3 16x16x32_fp8_bf8 is CoGFDRDA" cdna3 v_mfma_f32_16x16x32_fp8_bf8 passes 2
expect_field "cdna3 16x16x16_f16 is named CoFDRDA" cdna3 v_mfma_f32_16x16x16_f16 algo CoFDRDA
expect_field "cdna3 FDRDA aligns C rounding down" cdna3 v_mfma_f32_32x32x8_f16 pass.align_c rd
expect_field "cdna2 GPS flushes subnormals" cdna2 v_mfma_f32_32x32x8f16 pass.flush 1
expect_field "cdna1 GPS does not flush" cdna1 v_mfma_f32_32x32x8f16 pass.flush 0
expect_field "cdna3 16x16x32_fp8_bf8: b is bf8 = e5m2fnuz" cdna3 v_mfma_f32_16x16x32_fp8_bf8 b e5m2fnuz
expect_field "cdna3 32x32x16_bf8_fp8 is GFDRDA" cdna3 v_mfma_f32_32x32x16_bf8_fp8 algo GFDRDA
expect_field "cdna3 FDRDA keeps F = 24" cdna3 v_mfma_f32_32x32x8_f16 pass.frac_bits 24
expect_field "cdna3 FDRDA output is f32 RNE" cdna3 v_mfma_f32_32x32x8_f16 d_out f32-rne
expect_field "cdna2 legacy bf16 is GPS G=2" cdna2 v_mfma_f32_32x32x4bf16 pass.group 2
expect_field "cdna2 bf16_1k is GPS G=4" cdna2 v_mfma_f32_32x32x8bf16_1k pass.group 4
expect_field "cdna2 f16 is GPS G=4" cdna2 v_mfma_f32_16x16x16f16 pass.group 4
expect_field "cdna1 f16 is GPS (no flushing; see docs)" cdna1 v_mfma_f32_32x32x8f16 algo GPS
expect_field "cdna1 legacy bf16 is GPS G=2" cdna1 v_mfma_f32_16x16x8bf16 pass.group 2
expect_field "cdna2 f64 4x4x4 has 4 blocks" cdna2 v_mfma_f64_4x4x4f64 blocks 4
expect_field "cdna3 accepts the CDNA2 spelling as alias" cdna3 v_mfma_f32_32x32x8_bf16 sass v_mfma_f32_32x32x8bf16_1k
expect_dot "prefix v_mfma_ optional, gfx942 alias" 0x40000000 gfx942 f32_32x32x8_f16 -a 1,1 -b 1,1 -c 0
expect_dot "cdna3 takes the legacy spelling f32_32x32x8f16" 0x40000000 cdna3 f32_32x32x8f16 -a 1,1 -b 1,1 -c 0
# CDNA3 dropped the legacy bf16 MFMAs (32x32x2bf16 has no CDNA3 counterpart; LLVM's gfx940 assembler
# reuses the other legacy names, e.g. 32x32x4bf16, as aliases of the renamed _1k forms: not accepted
# here, since on CDNA1/CDNA2 those names are the G = 2 instructions).
expect_error "cdna3 dropped the legacy bf16 MFMAs" "cdna3 has no instruction" "$M" dot cdna3 v_mfma_f32_32x32x2bf16 -a 1 -b 1 -c 0
expect_error "cdna1 has no _1k bf16" "cdna1 has no instruction" "$M" dot gfx908 f32_32x32x8bf16_1k -a 1 -b 1 -c 0
expect_error "cdna1 has no f64 MFMA" "cdna1 has no instruction" "$M" dot cdna1 f64_16x16x4f64 -a 1 -b 1 -c 0
expect_line "list cdna3 shows 16x16x32 fp8/bf8 with CoGFDRDA" 'v_mfma_f32_16x16x32_bf8_fp8 +16x16x32 .*CoGFDRDA' "$M" list cdna3

# ---- paper VI-C(a): a0 = a1 = b0 = 2048, b1 = -2048, c = -0.000001 (f32 0xb58637bd = -1.049e-6*...) --
# FDRDA: products 2^22 and -2^22, e_dot = 22, s_dot = 0.  e_c = -20, e_max = 22: c * 2^(24-22) =
# -1.05 * 2^-18 rounds DOWN to -1 unit = -2^-24 * 2^22 = -0.25 (0xbe800000).
expect_dot "VI-C: cdna3 v_mfma_f32_32x32x8_f16 gives -0.25" 0xbe800000 cdna3 v_mfma_f32_32x32x8_f16 -a 2048,2048 -b 2048,-2048 -c 0xb58637bd
# Hopper FDA (F = 25, RZ): c truncated toward zero at 2^(22-25) -> 0; sum 0 -> +0.
expect_dot "VI-C: RZ instruction (hopper FDA) gives 0.0" 0x00000000 hopper mma.m16n8k16.f32.f16.f16.f32 -a 2048,2048 -b 2048,-2048 -c 0xb58637bd
# CDNA2 GPS: pairwise 2^22 + (-2^22) = +0, then c + 0 = c exactly.
expect_dot "VI-C: cdna2 GPS (RNE adds) keeps c exactly" 0xb58637bd cdna2 v_mfma_f32_32x32x8f16 -a 2048,2048 -b 2048,-2048 -c 0xb58637bd
# Positive c: floor(+1.05 * 2^-18) = 0 -> +0: RD is asymmetric.
expect_dot "VI-C: cdna3 with c = +0.000001 gives +0" 0x00000000 cdna3 v_mfma_f32_32x32x8_f16 -a 2048,2048 -b 2048,-2048 -c 0x358637bd
# GFDRDA's patch: 16*16 - 16*16 (fp8 16 = 0x60), e_max = 8, e_c = -20 < 8 - 25: c rounds toward zero -> +0.
expect_dot "VI-C: the FP8 patch avoids it (GFDRDA gives 0)" 0x00000000 cdna3 v_mfma_f32_32x32x16_fp8_fp8 -a 0x60,0x60 -b 0x60,0xe0 -c 0xb58637bd

# ---- GFDRDA's c exception on both sides of e_max - 25 (fp8 1.0 = 0x40; products 1, zeros) -----------
# e_dot = 0.  c = -2^-25: e_c = -25 = e_max - 25 -> rounded down at 24 bits: floor(-0.5) = -1 unit:
# 1 - 2^-24 = 0x3f7fffff.  c = -2^-26: e_c = -26 < e_max - 25 -> toward zero: 0, D = 1.0.
expect_dot "GFDRDA: c at e_max-25 rounds down" 0x3f7fffff cdna3 v_mfma_f32_32x32x16_fp8_fp8 -a 0x40 -b 0x40 -c -0x1p-25
expect_dot "GFDRDA: c below e_max-25 rounds toward zero" 0x3f800000 cdna3 v_mfma_f32_32x32x16_fp8_fp8 -a 0x40 -b 0x40 -c -0x1p-26
expect_dot "CoGFDRDA: same window in the chained 16x16x32" 0x3f800000 cdna3 v_mfma_f32_16x16x32_bf8_bf8 -a 1 -b 1 -c -0x1p-26
# FDRDA has no such window: -2^-26 still rounds down to -2^-24: 0x3f7fffff.
expect_dot "FDRDA: c far below e_max still rounds down" 0x3f7fffff cdna3 v_mfma_f32_32x32x8_f16 -a 1 -b 1 -c -0x1p-26
# GFDRDA Steps 4-7: p0 = 1 (even: fp8 0x40 * bf8 0x40), p1 = -2^-26 (odd: fp8 0x01 = 2^-10 times bf8
# 0x82 = -2^-16).  The odd group alone is exact at its own e_odd = -7 + -15 = -22; Step 6 aligns it to
# e_dot = 0 at 24 bits rounding DOWN: floor(-0.25) = -1 unit -> D = 1 - 2^-24 = 0x3f7fffff.
expect_dot "GFDRDA: odd group rounded down when joining the even one" 0x3f7fffff cdna3 v_mfma_f32_32x32x16_fp8_bf8 -a 0x40,0x01 -b 0x40,0x82 -c 0
# FDRDA truncates the same -2^-26 at F = 24 below e_dot together with p0: trunc(-0.25) = 0 -> 1.0.
expect_dot "FDRDA: the same small product truncates to 0" 0x3f800000 cdna3 v_mfma_f32_32x32x8_f16 -a 1,0x0001 -b 1,-0.25 -c 0

# ---- product overflow: CDNA3 at 2^128, NVIDIA never (VI-B) -------------------------------------
# bf16 2^127 = 0x7f00, times 2 = 2^128 >= 2^128 -> +inf, c = -2^127 does not matter.
expect_dot "cdna3 bf16 product 2^128 overflows to inf" 0x7f800000 cdna3 v_mfma_f32_32x32x8_bf16 -a 0x7f00 -b 2 -c -0x1p127
# Hopper FDA keeps the exact product: 2^128 - 2^127 = 2^127 (0x7f000000).
expect_dot "hopper FDA: the same product does not overflow" 0x7f000000 hopper mma.m16n8k16.f32.bf16.bf16.f32 -a 0x7f00 -b 2 -c -0x1p127
# Overflowing products of both signs -> NaN (canonical 0x7fffffff).
expect_dot "cdna3: +inf and -inf products give NaN" 0x7fffffff cdna3 v_mfma_f32_32x32x8_bf16 -a 0x7f00,0x7f00 -b 2,-2 -c 0
# Largest bf16 (2 - 2^-7) * 2^127 times 1 stays below 2^128: finite, exactly 0x7f7f0000.
expect_dot "cdna3: product just below 2^128 is finite" 0x7f7f0000 cdna3 v_mfma_f32_32x32x8_bf16 -a 0x7f7f -b 1 -c 0
expect_dot "cdna3 xf32 product 2^127*2 overflows" 0x7f800000 cdna3 v_mfma_f32_32x32x4_xf32 -a 0x1p127 -b 2 -c -0x1p127

# ---- subnormals: CDNA2 flushes, CDNA1 and CDNA3 keep (IV-B, VI-B) ---------------------------------
# f16 0x0001 = 2^-24 times 1: CDNA2 flushes the input to +0 -> D = +0; CDNA3 keeps it: 2^-24 exactly.
expect_dot "cdna2 flushes an f16 subnormal input" 0x00000000 cdna2 v_mfma_f32_32x32x8f16 -a 0x0001 -b 1 -c 0
expect_dot "cdna3 keeps an f16 subnormal input" 0x33800000 cdna3 v_mfma_f32_32x32x8_f16 -a 0x0001 -b 1 -c 0
expect_dot "cdna1 (no flushing) keeps it" 0x33800000 cdna1 v_mfma_f32_32x32x8f16 -a 0x0001 -b 1 -c 0
# bf16 2^-64 * 2^-63 = 2^-127, an f32 subnormal: CDNA2 flushes the product (+0); CDNA1 keeps 0x00400000.
expect_dot "cdna2 flushes a subnormal product" 0x00000000 cdna2 v_mfma_f32_32x32x8bf16_1k -a 0x1p-64 -b 0x1p-63 -c 0
expect_dot "cdna1 keeps a subnormal product" 0x00400000 cdna1 v_mfma_f32_32x32x4bf16 -a 0x1p-64 -b 0x1p-63 -c 0
# Sum flushed with its sign: c = -1.5*2^-126 (0x80c00000) + 2^-63*2^-63 = -2^-127 -> -0 on CDNA2,
# -2^-127 (0x80400000) on CDNA1.
expect_dot "cdna2 flushes a subnormal sum keeping its sign" 0x80000000 cdna2 v_mfma_f32_32x32x2bf16 -a 0x1p-63 -b 0x1p-63 -c 0x80c00000
expect_dot "cdna1 keeps the subnormal sum" 0x80400000 cdna1 v_mfma_f32_32x32x2bf16 -a 0x1p-63 -b 0x1p-63 -c 0x80c00000
# c = 2^-149 (0x00000001), no products: CDNA2 flushes c to +0; CDNA3 keeps it (e_c = -126, 2 units at F=24).
expect_dot "cdna2 flushes a subnormal c" 0x00000000 cdna2 v_mfma_f32_16x16x16f16 -a 0 -b 0 -c 0x00000001
expect_dot "cdna3 keeps a subnormal c" 0x00000001 cdna3 v_mfma_f32_16x16x16_f16 -a 0 -b 0 -c 0x00000001

# ---- GPS order: G = 2 (legacy bf16) vs G = 4 (_1k) --------------------------------------------
# c = 2^24, p = 1, 0, 1, 0.  G = 2: (2^24 + 1) ties to 2^24, then + 1 ties to 2^24 again: 0x4b800000.
# G = 4: pairwise (1 + 0) + (1 + 0) = 2 first, then 2^24 + 2 exactly: 0x4b800001.
expect_dot "cdna2 legacy bf16 (G=2) adds groups to c one by one" 0x4b800000 cdna2 v_mfma_f32_32x32x4bf16 -a 1,0,1,0 -b 1,0,1,0 -c 0x1p24
expect_dot "cdna2 bf16_1k (G=4) sums the group pairwise first" 0x4b800001 cdna2 v_mfma_f32_32x32x4bf16_1k -a 1,0,1,0 -b 1,0,1,0 -c 0x1p24
# Two f16 groups of 4 on K=8: c = 2^24, group sums 1 and 1: 2^24 + 1 -> 2^24, + 1 -> 2^24.
expect_dot "cdna1 f16 K=8: two groups added to c in turn" 0x4b800000 cdna1 v_mfma_f32_32x32x8f16 -a 1,0,0,0,1 -b 1,0,0,0,1 -c 0x1p24

# ---- FDRDA final RNE, CoFDRDA chain --------------------------------------------------------------
# p0 = 1, p1 = 3 * 2^-24 (f16 0x0003): aligned at F = 24 exactly: 1 + 3*2^-24, a tie between
# 1 + 2^-23 and 1 + 2^-22: to even -> 1 + 2^-22 = 0x3f800002 (RZ would give 0x3f800001).
expect_dot "FDRDA rounds the sum to nearest even" 0x3f800002 cdna3 v_mfma_f32_32x32x8_f16 -a 1,0x0003 -b 1,1 -c 0
# 1 + 2^-24 + 2^-24 in one FDRDA pass: exact 1 + 2^-23 (0x3f800001).
expect_dot "FDRDA: K=8 is one pass" 0x3f800001 cdna3 v_mfma_f32_32x32x8_f16 -a 1,0x0001,0x0001 -b 1,1,1 -c 0
# CoFDRDA over K = 16: pass 1 (k 0..7) gives RNE(1 + 2^-24) = 1.0 (tie to even), pass 2 adds the other
# 2^-24 to c = 1.0: again a tie -> 1.0 (0x3f800000).
expect_dot "CoFDRDA: K=16 is two rounded passes" 0x3f800000 cdna3 v_mfma_f32_16x16x16_f16 -a 1,0x0001,0,0,0,0,0,0,0x0001 -b 1,1,0,0,0,0,0,0,1 -c 0
# Products are truncated at F = 24 below e_dot before the sum: p1 = 3*2^-24 * 0.25 = 0.75 units -> 0;
# c = 2^-24 is 1 unit: 1 + 2^-24, a tie -> 1.0.  (The exact 1 + 1.75*2^-24 would round to 0x3f800001.)
expect_dot "FDRDA truncates products at F=24" 0x3f800000 cdna3 v_mfma_f32_32x32x8_f16 -a 1,0x0003 -b 1,0.25 -c 0x1p-24

# ---- special values, formats ------------------------------------------------------------------
expect_dot "xf32: the low 13 bits are ignored (0x3f801fff is 1.0)" 0x3f800000 cdna3 v_mfma_f32_32x32x4_xf32 -a 0x3f801fff -b 1 -c 0
expect_dot "xf32: NaN 0x7f800001 becomes +inf" 0x7f800000 cdna3 v_mfma_f32_32x32x4_xf32 -a 0x7f800001 -b 1 -c 0
expect_dot "fp8 0x80 is NaN (FNUZ)" 0x7fffffff cdna3 v_mfma_f32_32x32x16_fp8_bf8 -a 0x80 -b 0x40 -c 0
expect_dot "fp8 max 0x7f is 240: 240*240" 0x47610000 cdna3 v_mfma_f32_32x32x16_fp8_fp8 -a 0x7f -b 0x7f -c 0
expect_dot "bf8 max 0x7f is 57344: 57344*1" 0x47600000 cdna3 v_mfma_f32_32x32x16_bf8_fp8 -a 0x7f -b 0x40 -c 0
expect_dot "FDRDA: 0 * inf is NaN" 0x7fffffff cdna3 v_mfma_f32_32x32x8_f16 -a 0x7c00 -b 0 -c 0
expect_dot "FDRDA: inf in c with finite products" 0xff800000 cdna3 v_mfma_f32_32x32x8_f16 -a 1 -b 1 -c -inf
expect_dot "GPS: inf - inf is NaN" 0x7fffffff cdna2 v_mfma_f32_32x32x8f16 -a 0x7c00,0x7c00 -b 1,-1 -c 0
expect_dot "FDRDA: an exact zero sum is +0" 0x00000000 cdna3 v_mfma_f32_32x32x8_f16 -a 1,1 -b 1,-1 -c -0
# Paper III-F negative zero: -0 + sum(+0 * -0).  GPS as written in Algorithm 3 (CDNA1, no flushing):
# products -0, pairwise -0 + -0 = -0, -0 + -0 = -0.  CDNA2 flushes -0 inputs to +0: +0.
expect_dot "GPS cdna1: -0 + (+0)(-0) + ... = -0" 0x80000000 cdna1 v_mfma_f32_32x32x8f16 -a 0,0,0,0,0,0,0,0 -b -0,-0,-0,-0,-0,-0,-0,-0 -c -0
expect_dot "GPS cdna2: flushing makes it +0" 0x00000000 cdna2 v_mfma_f32_32x32x8f16 -a 0,0,0,0,0,0,0,0 -b -0,-0,-0,-0,-0,-0,-0,-0 -c -0
# SFMA (f32 and f64 MFMA): each FMA rounds: 1 + 2^-24 ties to 1, twice: 1.0, not 1 + 2^-23.
expect_dot "cdna3 f32 MFMA is an FMA chain" 0x3f800000 cdna3 v_mfma_f32_32x32x2_f32 -a 0x1p-24,0x1p-24 -b 1,1 -c 1
expect_dot "cdna2 f64 MFMA is an FMA chain" 0x3ff0000000000000 cdna2 v_mfma_f64_16x16x4f64 -a 0x1p-53,0x1p-53 -b 1,1 -c 1

# ---- mmaref study rounding-bias (paper VI-C(b), Fig. 2) ------------------------------------------
# The paper: delta_RD is biased to the negative side, delta_RZ is symmetric.  RD alignment floors c and
# s_dot, so D - exact <= the RZ deviation on every input; with random signs RZ errs both ways equally.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$("$M" study rounding-bias --samples 20000 --seed 3 --out "$tmp/s" 2>&1); rc=$?
[[ $rc == 0 ]] && ok "study rounding-bias runs" || not_ok "study rounding-bias: rc=$rc: $out"
neg_rd=$(awk '/RD \(CDNA3/{getline; print $2}' <<<"$out" | tr -d '%')
neg_rz=$(awk '/RZ \(same/{getline; print $2}' <<<"$out" | tr -d '%')
mean_rd=$(awk '/RD \(CDNA3/{print $5}' <<<"$out"); mean_rz=$(awk '/RZ \(same/{print $7}' <<<"$out")
awk -v n="$neg_rd" 'BEGIN{exit !(n > 60)}' && ok "study: RD deltas mostly negative ($neg_rd%)" || not_ok "study: RD negative share $neg_rd% (want > 60%): $out"
awk -v n="$neg_rz" 'BEGIN{exit !(n > 47 && n < 53)}' && ok "study: RZ deltas symmetric ($neg_rz% negative)" || not_ok "study: RZ negative share $neg_rz% (want 47..53%): $out"
awk -v a="$mean_rd" -v b="$mean_rz" 'BEGIN{exit !(a < 0 && (b < 0 ? -b : b) < (-a) / 5)}' && ok "study: mean RD $mean_rd < 0, |mean RZ| $mean_rz small" || not_ok "study: means RD '$mean_rd' RZ '$mean_rz': $out"
lines=$(wc -l <"$tmp/s/rounding-bias.csv" 2>/dev/null)
[[ $lines == 20001 ]] && ok "study: csv has a header and 20000 rows" || not_ok "study: csv has '$lines' lines"
# Every CSV row: delta_rd <= delta_rz (floor <= trunc for both aligned terms, and the final RNE is
# monotonic), and delta_rd = d_rd - exact up to the rounding of the CSV's exact column (|D| < 2^23 here,
# so 1e-6 is generous).
bad=$(awk -F, 'NR>1 { x = ($4 - $3) - $6; if (x < 0) x = -x; if ($6 > $7 || x > 1e-6) n++ } END{print n+0}' "$tmp/s/rounding-bias.csv")
[[ $bad == 0 ]] && ok "study: delta_rd <= delta_rz on every row, deltas match the columns" || not_ok "study: $bad rows with delta_rd > delta_rz or a wrong delta"
if command -v gnuplot >/dev/null; then
  [[ $(head -c 8 "$tmp/s/rounding-bias.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] && ok "study: PNG histogram written" || not_ok "study: $tmp/s/rounding-bias.png is not a PNG"
fi
expect_error "study without gnuplot says so" "gnuplot not found" env PATH=/nonexistent "$M" study rounding-bias --samples 100 --out "$tmp/s2"
# No shell sees a path: an --out with quotes and a command in it is just a directory name,
# and a legitimate apostrophe works; the project's C code calls no shell at all.
inj="$tmp/q'; touch $tmp/PWNED; '"
if "$M" study rounding-bias --samples 200 --out "$inj" >/dev/null 2>&1 || ! command -v gnuplot >/dev/null; then
  [[ ! -e $tmp/PWNED && -f "$inj/rounding-bias.csv" ]] && ok "study: a quote in --out runs no command" \
    || not_ok "study --out with a quote: $(ls "$tmp")"
else not_ok "study --out with a quote failed"; fi
if command -v gnuplot >/dev/null; then
  "$M" study rounding-bias --samples 200 --out "$tmp/it's" >/dev/null 2>&1 && [[ -s "$tmp/it's/rounding-bias.png" ]] \
    && ok "study: an apostrophe in --out draws the PNG" || not_ok "study: --out with an apostrophe"
fi
shells=$(cd "$(dirname "$0")/.." && grep -rnE '\b(system|popen)[[:space:]]*\(' --include='*.c' --include='*.h' --include='*.cpp' \
         --include='*.cu' cmodel dpi tb tools bench tests 2>/dev/null | head -3)
[[ -z $shells ]] && ok "no system() or popen() in the C code" || not_ok "a shell is called: $shells"
expect_error "study: unknown study named" "unknown study 'foo'" "$M" study foo
"$M" study rounding-bias --samples 100 --out "$tmp/s3" --no-plot >/dev/null && [[ -f $tmp/s3/rounding-bias.gp && ! -f $tmp/s3/rounding-bias.png ]] \
  && ok "study --no-plot writes the script only" || not_ok "study --no-plot"

# ---- mmaref diff ------------------------------------------------------------------------------
out=$("$M" diff cdna3 v_mfma_f32_32x32x8_f16 cdna3 f32_32x32x8f16 --random 500); rc=$?
[[ $rc == 0 && $out == *"identical on every input"* ]] && ok "diff: an instruction and its alias are identical (exit 0)" || not_ok "diff alias: rc=$rc $out"
# CDNA2 (GPS, flushing) vs CDNA3 (FDRDA) on f16: different algorithms, must differ somewhere (exit 1).
out=$("$M" diff cdna2 v_mfma_f32_32x32x8f16 cdna3 v_mfma_f32_32x32x8_f16 --random 3000 --seed 2); rc=$?
[[ $rc == 1 && $out == *"differ ("* ]] && ok "diff cdna2 vs cdna3 f16 finds differences (exit 1)" || not_ok "diff cdna2/cdna3: rc=$rc $out"
# The reported example reproduces: each 'reproduce:' line gives the d printed for it, and they differ.
check_repro() {
  local out=$1 what=$2 n=0 ds=()
  while read -r line; do
    local cmd=${line#*reproduce: mmaref }
    local want; want=$(grep -E "^    [a-z0-9-]+ +$(awk '{print $3}' <<<"$cmd") " <<<"$out" | head -1 | awk '{print $5}')
    local got; got=$("$M" $cmd | awk '{print $1}')
    [[ $got == "$want" ]] || { not_ok "$what: '$cmd' gives $got, report says $want"; return; }
    ds+=("$got"); n=$((n+1))
  done < <(grep 'reproduce: ' <<<"$out")
  [[ $n == 2 && ${ds[0]} != "${ds[1]}" ]] && ok "$what: the simplest example reproduces (${ds[0]} vs ${ds[1]})" || not_ok "$what: $n reproduce lines: ${ds[*]}"
}
check_repro "$out" "diff cdna2/cdna3"
out=$("$M" diff cdna3 v_mfma_f32_32x32x8_f16 hopper mma.m16n8k16.f32.f16.f16.f32 --random 2000)
check_repro "$out" "diff cdna3/hopper (cross-vendor)"
[[ $out == *"(hopper: a[8..15] = b[8..15] = +0)"* ]] && ok "diff pads the larger K with +0 and says so" || not_ok "diff K padding note missing: $out"
# The cross-vendor minimal example must be a single product against a c that RD and RZ treat apart: the
# simplifier removes every product it can, so at most 2 values remain in a.
na=$(awk -F'= ' '/^    a = /{print $2}' <<<"$out" | tr ',' '\n' | grep -vc '^0$')
[[ $na -le 2 ]] && ok "diff simplifies the example to $na product(s)" || not_ok "diff example keeps $na products: $out"
out=$("$M" diff cdna3 v_mfma_f32_32x32x16_fp8_fp8 hopper wgmma.m64n8k32.f32.e4m3.e4m3 --random 1000)
[[ $out == *"a e4m3fnuz | e4m3"* ]] && ok "diff converts between fp8 (e4m3fnuz) and e4m3" || not_ok "diff fp8: $out"
expect_error "diff needs four names" "needs ARCH1 INSTR1 ARCH2 INSTR2" "$M" diff cdna3 v_mfma_f32_32x32x8_f16
expect_error "diff names a bad instruction" "cdna3 has no instruction 'nope'" "$M" diff cdna3 nope hopper mma.m16n8k16.f32.f16.f16.f32
expect_error "diff rejects a bad count" "--random 'x'" "$M" diff cdna3 f32_32x32x8_f16 cdna2 f32_32x32x8f16 --random x
