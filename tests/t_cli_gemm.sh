# `mmaref gemm`: whole GEMMs from one instruction (docs/gemm.md).
#  1. Hand-derived cases, one per accumulation strategy (derivations beside them).
#  2. The chaining against an independent composition of single dot-adds in the oracle
#     (tests/oracle/gemm.py: ref.dot_add per chunk, Fraction FP32 adds; a ragged last chunk unpadded).
#  3. Thread counts 1, 2, 3 and the default give identical bits on a shape with ragged edges.
#  4. The C API (tests/api/gemm_api.c): defaults, progress callback, refusals, host rounding modes.
#  5. Bad input: a one-line error, a non-zero exit, and no output file.
# runtime: 49 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
G="python3 tests/oracle/gemm.py"
HOP=wgmma.m64n8k16.f32.f16.f16

# expect_d WHAT DTYPE EXPECTED_HEX GEMM_ARGS...: mmaref gemm ... -o $T/d.npy must give that 1 x 1 D.
expect_d() {
  local what=$1 descr=$2 want=$3; shift 3
  rm -f "$T/d.npy" "$T/want.npy"
  local err
  if ! err=$("$MMAREF" gemm "$@" -o "$T/d.npy" 2>&1); then not_ok "$what: mmaref gemm failed: $err"; return; fi
  $G write "$T/want.npy" "$descr" 1 1 "$want"
  $G compare "$T/d.npy" "$T/want.npy" "$what"
}

# lanes FILE DTYPE ROWS COLS K:HEX...: a raw-bits array of zeros but for the elements K named (flat index)
lanes() {
  local file=$1 descr=$2 rows=$3 cols=$4 v=() i kv; shift 4
  for ((i = 0; i < rows * cols; i++)); do v+=(0); done
  for kv in "$@"; do v[${kv%%:*}]=${kv#*:}; done
  $G write "$file" "$descr" "$rows" "$cols" "${v[@]}"
}

# ---- 1. hand-derived cases ----
# Hopper HGMMA wgmma.m64n8k16.f32.f16.f16: FDA, F = 25, D = f32 rounded toward zero (docs/algorithms.md).
# One row of A, one column of B, K = 48 = 3 chunks of 16.  Only lanes 0, 16 and 32 are nonzero:
#   chunk 0: a0 = 1 (0x3c00),           b0 = 1 (0x3c00)       product 1
#   chunk 1: a16 = 1.5*2^-12 (0x0e00),  b16 = 2^-12 (0x0c00)  product 3*2^-25 = 0.75 ulp(1) in f32
#   chunk 2: a32 = 1.5*2^-12,           b32 = 2^-12           product 3*2^-25
# The zero lanes are products of exponent -252 and change no e_max.
lanes "$T/a.npy" '<u2' 1 48 0:3c00 16:0e00 32:0e00
lanes "$T/b.npy" '<u2' 48 1 0:3c00 16:0c00 32:0c00
$G write "$T/c0.npy" '<u4' 1 1 00000000
$G write "$T/cm1.npy" '<u4' 1 1 bf800000
H=(hopper $HOP --a "$T/a.npy" --b "$T/b.npy")
# serial: acc = 1 after chunk 0; chunk 1: e_max = 0, 1 + 3*2^-25 is exact in F = 25 bits, RZ to 23 -> 1;
# chunk 2 the same: D = 1.0.
expect_d "hand: serial chain, each 0.75-ulp product truncated away by RZ" '<u4' 3f800000 "${H[@]}" --c "$T/c0.npy"
expect_d "hand: serial is the default, C defaults to +0" '<u4' 3f800000 "${H[@]}"
# promote:2: chain over chunks 0,1 -> 1 (as serial); R = 0 + 1 = 1.  Chain over chunk 2 from +0 ->
# 3*2^-25 (exact); R = 1 + 0.75 ulp, RNE -> 1 + 2^-23 = 0x3f800001.
expect_d "hand: promote:2 (one FP32 add recovers 0.75 ulp)" '<u4' 3f800001 "${H[@]}" --c "$T/c0.npy" --accumulate promote:2
# promote:1: R = 1; R = 1 + 0.75 ulp -> 1 + 1 ulp; R = 1 + 1.75 ulp -> 1 + 2 ulp = 0x3f800002.
expect_d "hand: promote:1 (every instruction promoted)" '<u4' 3f800002 "${H[@]}" --c "$T/c0.npy" --accumulate promote:1
# split-k:2: slice 0 = chunk 0 (0*3/2 .. 1*3/2 - 1), slice 1 = chunks 1, 2.  P0 = 1; P1 = 3*2^-25 + 3*2^-25
# = 1.5 ulp(1) exactly (e_max -24 in both dot-adds).  R = (C + P0) + P1 = 1 + 1.5 ulp: a tie between
# 1 + 1 ulp and 1 + 2 ulp, to even: 0x3f800002.
expect_d "hand: split-k:2" '<u4' 3f800002 "${H[@]}" --c "$T/c0.npy" --accumulate split-k:2
# split-k:2 with C = -1: C enters first: (-1 + 1) + 1.5*2^-23 = 1.5*2^-23 = 0x34400000.  (Adding C last
# would give (1 + 1.5 ulp -> 1 + 2 ulp) - 1 = 2^-22 = 0x34800000.)
expect_d "hand: split-k:2 adds C first, then the slices in order" '<u4' 34400000 "${H[@]}" --c "$T/cm1.npy" \
  --accumulate split-k:2
# f16 D (Hopper HMMA mma.m16n8k16.f16.f16.f16.f16, FDA F = 25, D f16 RNE), K = 48: products 1 (chunk 0),
# 2^-11 (chunk 1: a = 0x1000, b = 1), 2^-11 (chunk 2).  serial: 1 + 2^-11 is a tie in f16 (ulp 2^-10),
# to even: 1, twice: D = 0x3c00.  promote:1: R in FP32: 1 + 2^-11 + 2^-11 = 1 + 2^-10 exactly, rounded to
# f16 at the end: 0x3c01.
lanes "$T/a16.npy" '<u2' 1 48 0:3c00 16:1000 32:1000
lanes "$T/b16.npy" '<u2' 48 1 0:3c00 16:3c00 32:3c00
F16=(hopper mma.m16n8k16.f16.f16.f16.f16 --a "$T/a16.npy" --b "$T/b16.npy")
expect_d "hand: f16 serial chain rounds each half-ulp tie to even" '<u2' 3c00 "${F16[@]}"
expect_d "hand: f16 promote:1 sums in FP32, rounds to f16 once" '<u2' 3c01 "${F16[@]}" --accumulate promote:1
# Padding: DMMA (SFMA f64, K = 4) with K = 3: a = +0, b = -1, C = -0.  Each fma(+0, -1, d) adds -0:
# -0 + -0 = -0, so D = -0.  The padded lane must add -0 too (a = +0, b = -0); a +0 x +0 pad would give
# -0 + +0 = +0.
$G write "$T/a64.npy" '<u8' 1 3 0 0 0
$G write "$T/b64.npy" '<u8' 3 1 bff0000000000000 bff0000000000000 bff0000000000000
$G write "$T/c64.npy" '<u8' 1 1 8000000000000000
expect_d "hand: ragged K padding leaves a -0 sum -0 (DMMA, K = 3 of 4)" '<u8' 8000000000000000 \
  hopper mma.m16n8k4.f64.f64.f64.f64 --a "$T/a64.npy" --b "$T/b64.npy" --c "$T/c64.npy"
# Padded block scales: Blackwell tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0 (GDFS, groups of 16,
# F = 35, a group's term has the exponent of its two scales only), K = 32: the second scale block of the
# instruction is padding.  a = b = (1, 0.5, 0, ...) (e2m1 0x2, 0x1), SA = SB = 2^-20 (ue8m0 0x6b), C = +0.
# Group 0: sigma = 1.25, term 1.25 * 2^-40 of exponent -40; group 1: sigma = 0, exponent -40; C: -126.
# The padded groups take the scale pattern 0 (2^-127 each, exponent -254), so e_max = -40 and D is the
# exact 1.25 * 2^-40 = 0x2ba00000.  (A padded scale of 1 would set e_max = 0 and truncate D to +0.)
lanes "$T/a4.npy" '|u1' 1 32 0:2 1:1
lanes "$T/b4.npy" '|u1' 32 1 0:2 1:1
$G write "$T/s4.npy" '|u1' 1 1 6b
expect_d "hand: padded scale blocks change no e_max (GDFS ue8m0, K = 32 of 64)" '<u4' 2ba00000 \
  blackwell tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0 --a "$T/a4.npy" --b "$T/b4.npy" \
  --scale-a "$T/s4.npy" --scale-b "$T/s4.npy"
# Complex D (M3XU m3xu.f32c, K = 2, fused with exact products and one RNE per part), K = 3 = 2 chunks
# (the second one padded), split-k:2: a = (1+2i, 0, 1.5*2^-24 + 1.5*2^-23 i), b = (1, 0, 1) (f32c words,
# real part low).  P0 = 1+2i, P1 = 1.5*2^-24 + 1.5*2^-23 i (exact); R = (+0 + P0) + P1 part by part in
# FP32: real 1 + 0.75 ulp(1) -> 1 + 2^-23 (0x3f800001), imaginary 2 + 0.75 ulp(2) -> 2 + 2^-22 (0x40000001).
$G write "$T/ca.npy" '<u8' 1 3 400000003f800000 0 3440000033c00000
$G write "$T/cb.npy" '<u8' 3 1 3f800000 0 3f800000
expect_d "hand: complex f32c split-k:2 reduces real and imaginary parts separately" '<u8' 400000013f800001 \
  m3xu m3xu.f32c --a "$T/ca.npy" --b "$T/cb.npy" --accumulate split-k:2

# ---- 2. the oracle's composition of single dot-adds ----
# case ARCH INSTR M N K ACCUMULATE SEED
oracle_case() {
  local arch=$1 instr=$2 m=$3 n=$4 k=$5 acc=$6 seed=$7 d=$T/o
  rm -rf "$d"; mkdir -p "$d"
  if ! $G case --arch "$arch" --instr "$instr" --m "$m" --n "$n" --k "$k" --seed "$seed" --accumulate "$acc" \
       --dir "$d" --mmaref "$MMAREF"; then not_ok "oracle $arch $instr: gemm.py case failed"; return; fi
  local sc=()
  [[ -f $d/SA.npy ]] && sc=(--scale-a "$d/SA.npy" --scale-b "$d/SB.npy")
  local err
  if ! err=$("$MMAREF" gemm "$arch" "$instr" --a "$d/A.npy" --b "$d/B.npy" --c "$d/C.npy" -o "$d/D.npy" \
             --accumulate "$acc" "${sc[@]}" 2>&1); then not_ok "oracle $arch $instr $acc: $err"; return; fi
  $G compare "$d/D.npy" "$d/expect.npy" "oracle composition: $arch $instr ${m}x${n}x${k} $acc"
}
oracle_case hopper $HOP 20 13 70 serial 1          # ragged M, N (< one tile) and K (70 = 4*16 + 6)
oracle_case hopper $HOP 20 13 70 split-k:3 1
oracle_case hopper $HOP 20 13 70 promote:2 1
oracle_case hopper mma.m16n8k16.f16.f16.f16.f16 9 10 40 split-k:2 2   # f16 D: FP32 reduction, f16 at the end
oracle_case hopper mma.m16n8k16.f16.f16.f16.f16 9 10 40 promote:1 2
oracle_case hopper mma.m16n8k4.f64.f64.f64.f64 7 5 11 serial 3        # SFMA, ragged K unpadded in the oracle
oracle_case hopper mma.m16n8k4.f64.f64.f64.f64 7 5 11 split-k:2 3     # FP64 reduction
oracle_case ampere mma.m16n8k16.f32.bf16.bf16.f32 9 10 40 serial 4     # CoFDA (two passes): padded in both
oracle_case blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3 5 9 112 serial 5  # a padded scale block
oracle_case blackwell tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0 5 9 96 promote:2 6
oracle_case cdna3 v_mfma_f32_16x16x16_f16 9 10 40 serial 7             # AMD FDRDA, ragged K
oracle_case cdna2 v_mfma_f32_16x16x16f16 9 10 48 split-k:2 8           # AMD GPS
oracle_case m3xu m3xu.m8n4k4.f32.f32.f32.f32 9 5 11 promote:2 10       # M3XU FP32 mode, ragged K unpadded

# ---- 3. thread counts ----
d=$T/t; mkdir -p "$d"
$G case --arch hopper --instr $HOP --m 150 --n 37 --k 70 --seed 9 --accumulate serial --dir "$d" --mmaref "$MMAREF"
for acc in serial promote:2; do
  same=1
  for t in 1 2 3 default; do
    thr=(--threads $t); [[ $t == default ]] && thr=()
    "$MMAREF" gemm hopper $HOP --a "$d/A.npy" --b "$d/B.npy" --c "$d/C.npy" -o "$d/D$t.npy" --accumulate $acc \
      "${thr[@]}" || same=0
    cmp -s "$d/D1.npy" "$d/D$t.npy" || same=0
  done
  if [[ $same == 1 ]]; then ok "threads 1, 2, 3 and default give identical bits (150x37x70, 3x5 tiles, $acc)"
  else not_ok "thread counts give different D (150x37x70, $acc)"; fi
done
"$MMAREF" gemm hopper $HOP --a "$d/A.npy" --b "$d/B.npy" --c "$d/C.npy" -o "$d/S2.npy" --threads 2
$G compare "$d/S2.npy" "$d/expect.npy" "oracle composition: 150x37x70 serial on 2 threads"

# ---- 4. the C API: defaults, the progress callback, refusals, the host's rounding mode (tests/api/gemm_api.c)
LIB=${MMAREF_LIB:-build/libmmaref.a}
if cc -std=gnu11 -Wall -Wextra -Werror -Icmodel/include -o "$T/gemm_api" tests/api/gemm_api.c "$LIB" -lm -pthread \
     2>"$T/cc.log"; then
  out=$("$T/gemm_api" 2>&1); rc=$?
  echo "$out"
  [[ $rc -ne 0 ]] && ! grep -q "^not ok" <<<"$out" && not_ok "tests/api/gemm_api.c exited with status $rc"
else
  not_ok "tests/api/gemm_api.c does not build: $(head -3 "$T/cc.log")"
fi

# ---- 5. bad input: one line, non-zero exit, no output file ----
# expect_refusal WHAT PATTERN ARGS...
expect_refusal() {
  local what=$1 pat=$2; shift 2
  rm -f "$T/out.npy"
  expect_error "$what" "$pat" "$MMAREF" gemm "$@" -o "$T/out.npy"
  [[ -e $T/out.npy ]] && not_ok "$what: left an output file"
}
A=(--a "$d/A.npy" --b "$d/B.npy")
$G write "$T/vec.npy" '<u2' - 3 3c00 3c00 3c00          # shape (3,): not a matrix
$G write "$T/wide.npy" '<u4' 1 48 $(printf '10000 %.0s' $(seq 48))   # 0x10000 does not fit in f16
expect_refusal "bad: B's rows are not A's columns" "but A" hopper $HOP --a "$d/A.npy" --b "$d/A.npy"
expect_refusal "bad: C of the wrong shape" "needs (150, 37)" hopper $HOP "${A[@]}" --c "$d/A.npy"
expect_refusal "bad: C and D formats differ" "C in f16 and D in f32" volta mma.m8n8k4.f32.f16.f16.f16 "${A[@]}"
expect_refusal "bad: --accumulate bogus" "serial, split-k:S or promote:N" hopper $HOP "${A[@]}" --accumulate bogus
expect_refusal "bad: --accumulate split-k:0" "at least 1" hopper $HOP "${A[@]}" --accumulate split-k:0
expect_refusal "bad: --accumulate promote:x" "at least 1" hopper $HOP "${A[@]}" --accumulate promote:x
expect_refusal "bad: more split-k slices than K chunks" "needs 1 .. 5 slices" hopper $HOP "${A[@]}" \
  --accumulate split-k:6
expect_refusal "bad: --threads 0" "--threads" hopper $HOP "${A[@]}" --threads 0
expect_refusal "bad: missing A file" "cannot open" hopper $HOP --a "$T/none.npy" --b "$d/B.npy"
expect_refusal "bad: A not a matrix" "2 dimensions" hopper $HOP --a "$T/vec.npy" --b "$d/B.npy"
expect_refusal "bad: operand bits too wide" "does not fit in f16" hopper $HOP --a "$T/wide.npy" --b "$T/b.npy"
$G write "$T/e4a.npy" '|u1' 1 40 $(printf '38 %.0s' $(seq 40))   # K = 40 e4m3 ones
$G write "$T/e4b.npy" '|u1' 40 1 $(printf '38 %.0s' $(seq 40))
expect_refusal "bad: scaled K not a multiple of the block" "K = 40 is not a multiple" \
  blackwell tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0 --a "$T/e4a.npy" --b "$T/e4b.npy" \
  --scale-a "$T/e4a.npy" --scale-b "$T/e4b.npy"
expect_refusal "bad: scaled instruction without scales" "takes block scales" \
  blackwell tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0 "${A[@]}"
expect_refusal "bad: unknown option" "unknown option" hopper $HOP "${A[@]}" --bogus
# the memory cap: A (20000, 1) by B (1, 20000) is a 3 GB D, refused at the default 1G before D is allocated
$G write "$T/tall.npy" '<u2' 20000 1 $(printf '3c00 %.0s' $(seq 20000))
$G write "$T/flat.npy" '<u2' 1 20000 $(printf '3c00 %.0s' $(seq 20000))
expect_refusal "bad: a 20000 x 20000 x 1 GEMM (2.99 GiB) above the default --max-memory" \
  "M = 20000, N = 20000, K = 1 (4e+08 multiply-adds) needs 2.99 GiB, above --max-memory 1 GiB" \
  hopper $HOP --a "$T/tall.npy" --b "$T/flat.npy"
# 150 x 37 x 70 without C, K' = 80: 8 (150*70 + 70*37 + 150*37 + 150*80 + 37*80) = 268,800 bytes = 262.5 KiB
expect_refusal "bad: 150x37x70 above --max-memory 200K" "needs 262 KiB, above --max-memory 200 KiB" \
  hopper $HOP "${A[@]}" --max-memory 200K
for bad in 0 1x K 16E 99999999999999999999 -1; do
  expect_refusal "bad: --max-memory $bad" "--max-memory is a count of bytes" hopper $HOP "${A[@]}" --max-memory "$bad"
done
expect_refusal "bad: --accumulate promote:2147483648 (above a C int)" "at least 1" hopper $HOP "${A[@]}" \
  --accumulate promote:2147483648
expect_refusal "bad: 150x37x70 (268,800 bytes) above --max-memory 268799" "above --max-memory 262 KiB" \
  hopper $HOP "${A[@]}" --max-memory 268799
if "$MMAREF" gemm hopper $HOP "${A[@]}" -o "$T/cap.npy" --max-memory 268800 &&
   "$MMAREF" gemm hopper $HOP "${A[@]}" -o "$T/cap0.npy" && cmp -s "$T/cap.npy" "$T/cap0.npy"; then
  ok "--max-memory 268800 runs the 150x37x70 GEMM (268,800 bytes), the same D as without it"
else not_ok "--max-memory 268800 refused or changed the 150x37x70 GEMM"; fi
# promote:N past the chunk count is one group: promote:2147483647 (INT_MAX) is promote:5 here (5 chunks)
if "$MMAREF" gemm hopper $HOP "${A[@]}" -o "$T/pmax.npy" --accumulate promote:2147483647 &&
   "$MMAREF" gemm hopper $HOP "${A[@]}" -o "$T/p5.npy" --accumulate promote:5 && cmp -s "$T/pmax.npy" "$T/p5.npy"; then
  ok "--accumulate promote:2147483647 (INT_MAX) runs and equals promote:5 over 5 chunks"
else not_ok "--accumulate promote:2147483647 failed or differs from promote:5"; fi
desc=$("$MMAREF" gemm --help | sed '/^  -/,$d')  # the description, before the option list
[[ $desc == *"D is raw bits by default, even from float inputs"*"--d-dtype float"* ]] \
  && ok "gemm --help says up front that D is raw bits by default even from float inputs" \
  || not_ok "gemm --help: the raw-bit default of D is not in its description (before the options)"
if "$MMAREF" gemm --help | grep -q "split-k:S"; then ok "gemm --help describes --accumulate"
else not_ok "gemm --help lacks --accumulate"; fi
if "$MMAREF" gemm --help | grep -q "max-memory BYTES.*default 1G"; then ok "gemm --help describes --max-memory"
else not_ok "gemm --help lacks --max-memory"; fi
