#!/usr/bin/env bash
# Writes the seed corpus tests/fuzz/corpus/<harness>/ (a handful of small valid inputs per harness,
# the formats described at the top of each tests/fuzz/fuzz_*.c) from the built CLI and NumPy.
#   bash tests/fuzz/make_corpus.sh [MMAREF]      (default build/mmaref; /usr/bin/python3 for NumPy)
# The seeds are committed; run this again only to change them.  Files named regress-* (inputs that once
# found a bug, kept as regression checks) are left alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
M=${1:-build/mmaref}
PY=/usr/bin/python3
C=tests/fuzz/corpus
[[ -d $C ]] && find "$C" -type f ! -name 'regress-*' -delete
mkdir -p "$C"/{fuzz_batch,fuzz_npy,fuzz_lookup,fuzz_dot,fuzz_value,fuzz_probe_answers,fuzz_study_gp}

# ---- fuzz_batch: "ARGUMENTS\n" then stdin, lines from `mmaref gen` (--with-d for --check) ----
batch() { # NAME "ARCH INSTR [OPTIONS]" GEN-OPTIONS...
  local name=$1 args=$2 arch instr; shift 2
  read -r arch instr _ <<<"$args"
  { echo "$args"; "$M" gen "$arch" "$instr" "$@"; } >"$C/fuzz_batch/$name"
}
batch hopper-f16-fda "hopper mma.m16n8k16.f32.f16.f16.f32" --n 3 --kind random
batch ampere-bf16-cofda-check "ampere mma.m16n8k16.f32.bf16.bf16.f32 --check" --n 2 --kind cancel --with-d
batch blackwell-fp4-ue4m3-check "blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3 --check" --n 2 --with-d --kind cluster
batch rtx-blackwell-e5m2-ue8m0 "rtx-blackwell mma.m16n8k32.block32.f32.e5m2.e5m2.f32.ue8m0" --n 2 --kind special
batch cdna3-fp8-gfdrda "cdna3 v_mfma_f32_16x16x32_fp8_bf8" --n 3 --kind random --seed 2
batch cdna2-gps-check-nan-any "cdna2 v_mfma_f32_32x32x8f16 --check --nan-any" --n 3 --kind special --with-d
batch cdna1-sfma "cdna1 v_mfma_f32_32x32x2f32" --n 3 --kind extreme
batch hopper-f64-dmma "hopper mma.m16n8k16.f64.f64.f64.f64" --n 1 --kind random
{ echo "volta mma.m8n8k4.f16.f16.f16.f16"; echo "# a comment"; echo; "$M" gen volta mma.m8n8k4.f16.f16.f16.f16 --n 2 --kind directed
  echo "0x3c00 3c00 0 0 0 3c00 0 0 0 # fields with and without 0x, then a comment"; } >"$C/fuzz_batch/volta-comments"
{ echo "hopper mma.m16n8k8.f32.tf32.tf32.f32"; "$M" gen hopper mma.m16n8k8.f32.tf32.tf32.f32 --n 2; echo "0 1 2 zz"; } \
  >"$C/fuzz_batch/hopper-tf32-bad-line"
{ echo "ada mma.m16n8k32.f32.e4m3.e4m3.f32 --check --max-report 1"; "$M" gen ada mma.m16n8k32.f32.e4m3.e4m3.f32 --n 2 --with-d \
  | sed '2s/[0-9a-f]$/0/'; } >"$C/fuzz_batch/ada-e4m3-check-mismatch"

# ---- fuzz_npy: arrays written by NumPy (u1, u2, f2, f4, f8, v2.0 header, empty) and D by `mmaref mma -o` ----
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
$PY - "$tmp" <<'PY'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(1)
np.save(f'{d}/a.npy', rng.integers(0, 0x7c00, (8, 4), dtype='<u2'))            # volta m8n8k4 f16 A, raw bits
np.save(f'{d}/b.npy', rng.standard_normal((4, 8)).astype('<f2'))               # its B as f16 floats
np.save(f'{d}/c.npy', rng.standard_normal((8, 8)).astype('<f4'))               # its C as f32 floats
np.save(f'{d}/fp8-u1.npy', rng.integers(0, 256, (4, 8), dtype='u1'))
np.save(f'{d}/f64.npy', rng.standard_normal((2, 3)))
np.save(f'{d}/empty-u8.npy', np.zeros((0, 3), dtype='<u8'))
with open(f'{d}/v2-header-u4.npy', 'wb') as f:
    np.lib.format.write_array(f, np.arange(6, dtype='<u4').reshape(2, 3), version=(2, 0))
PY
cp "$tmp"/{a,b,c,fp8-u1,f64,empty-u8,v2-header-u4}.npy "$C/fuzz_npy/"
"$M" mma volta mma.m8n8k4.f32.f16.f16.f32 --a "$tmp/a.npy" --b "$tmp/b.npy" --c "$tmp/c.npy" -o "$C/fuzz_npy/d-mmaref-u4.npy"
"$M" mma volta mma.m8n8k4.f32.f16.f16.f32 --a "$tmp/a.npy" --b "$tmp/b.npy" --c "$tmp/c.npy" -o "$C/fuzz_npy/d-mmaref-f4.npy" \
  --d-dtype float

# ---- fuzz_lookup: "ARCH\nNAME", or one string for the format and generator-kind names ----
lookup() { printf '%s' "$2" >"$C/fuzz_lookup/$1"; }
lookup hopper-hmma $'hopper\nmma.m16n8k16.f32.f16.f16.f32'
lookup sm90a-sass-alias $'sm_90a\nHMMA.16816.F32'
lookup gfx942-upper $'GFX942\nV_MFMA_F32_32X32X8_F16'
lookup blackwell-block16 $'blackwell\ntcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3'
lookup cdna1-unknown $'cdna1\nv_mfma_f64_16x16x4f64'
lookup format-fp8 'fp8'
lookup format-e4m3fnuz 'E4M3FNUZ'
lookup kind-cluster 'cluster'

# ---- fuzz_dot: mode byte, table index (2 bytes), [edits], operand bytes ----
$PY - "$C/fuzz_dot" <<'PY'
import sys, random
d = sys.argv[1]
r = random.Random(1)
def seed(name, head, n):
    open(f'{d}/{name}', 'wb').write(bytes(head) + bytes(r.randrange(256) for _ in range(n)))
seed('valid-0', [0, 0, 0], 80)                # first configuration, random operand bytes
seed('valid-60', [0, 60, 0], 140)
seed('valid-120', [0, 120, 0], 140)
seed('valid-160', [0, 160, 0], 140)
seed('no-scales-150', [4, 150, 0], 80)        # scale arrays withheld
seed('stray-bit-30', [2, 30, 0], 100)
seed('edit-k-10', [1, 10, 0, 1, 0, 2 * (64 + 7)], 60)          # one edit: k = 7
seed('edit-pass0-F-40', [1, 40, 0, 1, 8 + 3, 2 * (64 + 30)], 60)  # pass[0].frac_bits = 30
seed('edit-passes-100', [1, 100, 0, 2, 7, 2 * (64 + 2), 8 + 10 + 2, 1, 0xff, 0xff, 0xff, 0x7f], 60)
PY

# ---- fuzz_value: format byte (bit 7: a comma-separated list), then the text ----
value() { printf "$2" >"$C/fuzz_value/$1"; }
value f32-decimal '\001-1.5'
value f16-raw '\0030x3c00'
value f16-max '\003 65504 '
value f64-hexfloat '\0000x1.fffffffffffffp+1023'
value tf32-negzero '\002-0'
value e4m3-448 '\005448'
value ue8m0-tiny '\0120x1p-127'
value e5m2fnuz-nan '\015nan'
value bf16-inf '\004-inf'
value e2m1-list '\2110.5,-6, 0x7'
# ---- fuzz_probe_answers: D's format byte, the answers asked, then the device's output ----
answers() { local name=$1 head=$2; shift 2; { printf "$head"; "$@"; } >"$C/fuzz_probe_answers/$name"; }
answers f32-batch '\001\010' sh -c "\"$M\" gen hopper mma.m16n8k16.f32.f16.f16.f32 --n 8 | \"$M\" batch hopper mma.m16n8k16.f32.f16.f16.f32"
answers f16-forms '\003\003' printf '3c00\n  0x7e00 \r\n0X0001'
answers f32-short '\001\004' printf '0\n0\n'
answers f32-nul '\001\002' printf '0\n0\0junk\n'
answers e4m3-too-wide '\005\001' printf '0x100\n'
# ---- fuzz_study_gp: samples (8 bytes), top bucket (2 bytes), CSV name, 0xff, PNG name ----
gp() { printf "$2" >"$C/fuzz_study_gp/$1"; }
gp plain '\240\206\001\000\000\000\000\000\040\000rounding-bias.csv\377rounding-bias.png'
gp quotes '\020\047\000\000\000\000\000\000\005\000it'"'"'s `touch x` @m $(y).csv\377a'"''"'b\\.png'
gp newline '\001\000\000\000\000\000\000\000\001\000d\nsystem("touch PWNED")\377x.png'
echo "corpus: $(find "$C" -type f | wc -l) files, $(du -sb "$C" | cut -f1) bytes in $C"
