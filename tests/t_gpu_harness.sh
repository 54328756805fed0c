# The Hopper hardware cross-check harness (tools/gpu, docs/hardware-validation.md), as far as a machine
# without a GPU can take it: the dry run (same seeded inputs, same line writer, D from the C model) must
# round-trip through `mmaref batch --check`; a corrupted line must be caught; the generators must produce
# what docs/hardware-validation.md promises; with nvcc present, the CUDA source must compile for sm_90a.
# Needs neither nvcc nor a GPU.  The dry run checks the C model against itself: its lines say
# "plumbing:" -- they show that the generator, writer and checker fit together, not that the model is
# right (tests/t_model_oracle.sh and tests/t_model_oracle_amd.sh check the model against an independent oracle).
# runtime: 38 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DRY=build/gpu/dryrun

if make -s "$DRY" >"$tmp/build.log" 2>&1; then ok "dry-run harness builds with the C compiler alone"
else not_ok "dry-run harness builds: $(tail -n 3 "$tmp/build.log" | tr '\n' ' ')"; exit 1; fi

# Every fragment layout maps each thread's elements onto the matrix one to one (hw_check_layouts).
n=$("$DRY" --check-layouts 2>&1 | grep -c '^layout ok: ')
total=$("$DRY" --list | wc -l)
if [[ $n -eq $total && $total -eq 40 ]]; then ok "all $total register-fragment layouts are one-to-one"
else not_ok "fragment layouts: $n of $total checked ok (expected 40 instructions)"; fi

# A second transcription of the layouts: CUTLASS's CuTe (thread, value) -> offset layouts, NVIDIA's own
# encoding of the PTX fragment tables (cute/atom/mma_traits_sm80.hpp, mma_traits_sm90.hpp,
# mma_traits_sm90_gmma.hpp), written here as (shape, stride) data.  Thread and value indices decompose
# colexicographically (first mode fastest); the offset is column-major: A is M x K (m = off % M),
# CuTe's B is N x K (n = off % N), C is M x N.  hw.h's formulas must give the same (row, column).
"$DRY" --dump-layouts >"$tmp/layouts"
cute=$(python3 - "$tmp/layouts" <<'PY'
import sys
R16x8 = (((4, 8), (2, 2)), ((32, 1), (16, 8)))            # SM80_16x8_Row
L = {  # frag family: (A, B, C); None: B is in shared memory
  "k16_16": ((((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))), (((4, 8), (2, 2)), ((16, 1), (8, 64))), R16x8),
  "k8_16": (R16x8, (((4, 8), 2), ((16, 1), 8)), R16x8),
  "k8_32": ((((4, 8), (2, 2)), ((16, 1), (8, 64))), (((4, 8), 2), ((8, 1), 32)), R16x8),
  "k4_32": ((((4, 8), 2), ((16, 1), 8)), (((4, 8), 1), ((8, 1), 0)), R16x8),
  "k16_64": ((((4, 8), (2, 4)), ((16, 1), (8, 64))), (((4, 8), 4), ((8, 1), 32)), R16x8),
  "884_64": ((((4, 8), 1), ((8, 1), 0)), (((4, 8), 1), ((8, 1), 0)), (((4, 8), 2), ((16, 1), 8))),
  "k32_8": ((((4, 8), (4, 2, 2)), ((64, 1), (16, 8, 256))), (((4, 8), (4, 2)), ((32, 1), (8, 128))), R16x8),
  "k16_8": ((((4, 8), (4, 2)), ((64, 1), (16, 8))), (((4, 8), 4), ((32, 1), 8)), R16x8),
  "wg_k16": ((((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512))), None, (((4, 8, 4), (2, 2, 1)), ((128, 1, 16), (64, 8, 512)))),
  "wg_k8": ((((4, 8, 4), (2, 2)), ((64, 1, 16), (8, 256))), None, (((4, 8, 4), (2, 2, 1)), ((128, 1, 16), (64, 8, 512)))),
  "wg_k32": ((((4, 8, 4), (4, 2, 2)), ((256, 1, 16), (64, 8, 1024))), None, (((4, 8, 4), (2, 2, 1)), ((128, 1, 16), (64, 8, 512)))),
}
def family(name):
    op, shape, *types = name.split(".")
    if op == "wgmma": return "wg_" + shape[shape.index("k"):]
    if shape == "m8n8k4": return "884_64"
    k = shape[shape.index("k") + 1:]
    w = {"f16": 16, "bf16": 16, "tf32": 32, "f64": 64, "e4m3": 8, "e5m2": 8}[types[1]]
    return {("32", 8): "k32_8", ("16", 8): "k16_8", ("16", 16): "k16_16", ("8", 16): "k8_16", ("8", 32): "k8_32", ("4", 32): "k4_32",
            ("8", 64): "k8_32", ("4", 64): "k4_32", ("16", 64): "k16_64"}[(k, w)]
def flat(x): return [y for e in x for y in flat(e)] if isinstance(x, tuple) else [x]
def offset(layout, th, v):
    (ts, vs), (tst, vst) = layout
    off = 0
    for idx, shp, std in ((th, flat(ts), flat(tst)), (v, flat(vs), flat(vst))):
        for s_, d in zip(shp, std):
            off += idx % s_ * d; idx //= s_
    return off
bad = 0
for line in open(sys.argv[1]):
    name, which, th, i, r, c = line.split(); th, i, r, c = int(th), int(i), int(r), int(c)
    m, n, k = (int(x) for x in name.split(".")[1][1:].replace("n", " ").replace("k", " ").split())
    lay = L[family(name)]["ABC".index(which)]
    off = offset(lay, th, i)
    want = {"A": (off % m, off // m), "B": (off // n, off % n), "C": (off % m, off // m)}[which]
    if want != (r, c):
        bad += 1
        if bad <= 3: print(f"{name} {which} thread {th} element {i}: hw.h ({r},{c}), CuTe {want}", file=sys.stderr)
print(bad)
PY
)
[[ $cute == 0 ]] && ok "fragment layouts agree with CUTLASS's CuTe layouts, element by element" ||
  not_ok "fragment layouts differ from CuTe's in ${cute:-?} elements"

# Each harness instruction is an instruction of the model table its fourth column names (hopper; ada
# for the mma.sync FP8 ones the hopper table lacks), and its PTX opcode is the name with PTX's
# qualifiers (.sync.aligned, .row.col; wgmma's .mma_async.sync.aligned) put back.
bad=
while IFS=$'\t' read -r name ptx flags arch; do
  "$MMAREF" list "$arch" | awk '{print $2}' | grep -qxF "$name" || bad+=" $name(not in mmaref list $arch)"
  stripped=$(sed -e 's/^mma\.sync\.aligned\./mma./' -e 's/\.row\.col\./\./' \
                 -e 's/^wgmma\.mma_async\.sync\.aligned\./wgmma./' <<<"$ptx")
  [[ $stripped == "$name" ]] || bad+=" $name(ptx $ptx)"
  [[ $name == *f64* && $flags == --nan-any || $name != *f64* && $flags == - ]] || bad+=" $name(flags $flags)"
done < <("$DRY" --list)
if [[ -z $bad ]]; then ok "harness instructions match the model's tables and their PTX opcodes"
else not_ok "instruction table:$bad"; fi

# The dry run of every instruction passes the check, 512 vectors each (whole tiles: 512 is a multiple of
# 64, 128 and 512).
out=$tmp/dry
bash tools/gpu/run.sh --dry-run --count 512 --out "$out" >"$tmp/table" 2>"$tmp/run.err"; rc=$?
while IFS=$'\t' read -r name ptx flags arch; do
  row=$(grep -F "| \`$name\` |" "$tmp/table")
  if [[ $row =~ \|\ 512\ \|\ 0\ \|$ ]]; then ok "plumbing: dry run $name (C model vs itself): 512 vectors round-trip, 0 mismatches"
  else not_ok "plumbing: dry run $name (C model vs itself): table row '$row' (wanted 512 vectors, 0 mismatches)"; fi
done < <("$DRY" --list)
[[ $rc -eq 0 ]] && ok "plumbing: run.sh --dry-run exits 0" ||
  not_ok "plumbing: run.sh --dry-run exit $rc: $(head -c 300 "$tmp/run.err")"
grep -q '^| instruction | PTX | model | vectors | mismatches |$' "$out/hardware-validation-rows.md" &&
  ok "plumbing: run.sh writes the docs table rows" ||
  not_ok "plumbing: run.sh did not write $out/hardware-validation-rows.md"

# A corrupted D is caught: flip the last bit of D on the 10th vector (line 11, after the header).
f=$out/hopper__mma.m16n8k16.f32.f16.f16.f32.txt
python3 - "$f" "$tmp/corrupt.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
f = lines[10].split(" ")
f[-1] = f[-1][:-1] + "%x" % (int(f[-1][-1], 16) ^ 1)
lines[10] = " ".join(f)
open(sys.argv[2], "w").write("\n".join(lines))
PY
changed=$(cmp -l "$f" "$tmp/corrupt.txt" 2>/dev/null | wc -l)
verdict=$("$MMAREF" batch hopper mma.m16n8k16.f32.f16.f16.f32 --check <"$tmp/corrupt.txt" | tail -n 1); rc=$?
vrc=$("$MMAREF" batch hopper mma.m16n8k16.f32.f16.f16.f32 --check <"$tmp/corrupt.txt" >/dev/null; echo $?)
if [[ $changed -eq 1 && $verdict == *"511 passed, 1 failed" && $vrc -eq 1 ]]; then
  ok "plumbing: one corrupted D in a dry-run file is reported as 1 failed"
else not_ok "plumbing: corrupted line: $changed byte(s) changed, verdict '$verdict', exit $vrc (wanted 1 byte, '511 passed, 1 failed', exit 1)"; fi

# DMMA's NaN payload is unmodelled: another NaN in D passes with --nan-any and fails without it.
f=$out/hopper__mma.m16n8k16.f64.f64.f64.f64.txt
line=$(awk '!/^#/ && $NF ~ /^(7ff|fff)/ && $NF !~ /^.ff0000000000000$/ { print NR; exit }' "$f")
if [[ -n $line ]]; then
  awk -v n="$line" 'NR == n { $NF = "7ff0000000000001" } { print }' "$f" >"$tmp/nan.txt"  # a signalling NaN
  with=$("$MMAREF" batch hopper mma.m16n8k16.f64.f64.f64.f64 --check --nan-any <"$tmp/nan.txt" | tail -n 1)
  without=$("$MMAREF" batch hopper mma.m16n8k16.f64.f64.f64.f64 --check <"$tmp/nan.txt" | tail -n 1)
  [[ $with == *" 0 failed" ]] && ok "plumbing: f64 dry run, another NaN payload passes with --nan-any" ||
    not_ok "plumbing: f64 --nan-any: '$with'"
  [[ $without == *" 1 failed" ]] && ok "plumbing: f64 dry run, another NaN payload fails without --nan-any" ||
    not_ok "plumbing: f64 without --nan-any: '$without'"
else
  not_ok "plumbing: f64 dry run has no NaN output to test --nan-any with"
fi

# --replay: dot-adds from standard input (here the directed vectors of `mmaref gen`) come back with D
# appended, and that D is the model's (the dry run); a short line is refused with its line number.
"$MMAREF" gen hopper wgmma.m64n8k32.f32.e4m3.e5m2 --kind directed --n 700 >"$tmp/dir.in"
"$DRY" --replay wgmma.m64n8k32.f32.e4m3.e5m2 <"$tmp/dir.in" >"$tmp/dir.out"
"$MMAREF" gen hopper wgmma.m64n8k32.f32.e4m3.e5m2 --kind directed --n 700 --with-d >"$tmp/dir.want"
if cmp -s <(grep -v '^#' "$tmp/dir.out") "$tmp/dir.want"; then
  ok "plumbing: --replay of 700 directed vectors gives each line back with the model's D (8 per tile)"
else not_ok "plumbing: --replay output differs from mmaref gen --with-d: $(diff <(grep -v '^#' "$tmp/dir.out") "$tmp/dir.want" | head -c 200)"; fi
expect_error "replay names a short line" "line 2: 3 fields" "$DRY" --replay wgmma.m64n8k32.f32.e4m3.e5m2 \
  < <(printf '%s\n' "$(head -n 1 "$tmp/dir.in")" "00000000 00 00")

# The whole session script (tools/gpu/session.sh), dry: seeded tiles, directed vectors and a crafted
# file through every instruction, one summary row per file.  The dry run's D is the model's, so every row
# must show 0 mismatches, and no instruction needs its D packed (that is for mismatches).
mkdir -p "$tmp/crafted"
"$MMAREF" gen hopper mma.m16n8k8.f32.bf16.bf16.f32 --n 50 >"$tmp/crafted/mine__mma.m16n8k8.f32.bf16.bf16.f32.txt"
bash tools/gpu/session.sh --dry-run --count 256 --jobs 2 --crafted "$tmp/crafted" --out "$tmp/sess" >"$tmp/sess.log" 2>&1
src=$?
rows=$(grep -c '^| \(seeded\|directed\|mine\) |' "$tmp/sess/pack/summary.md" 2>/dev/null)
zero=$(grep -c ' | 0 |$' "$tmp/sess/pack/summary.md" 2>/dev/null)
dbins=$(ls "$tmp/sess/pack"/d__*.bin.gz 2>/dev/null | wc -l)
if [[ $src -eq 0 && $rows -eq 81 && $zero -eq 81 && $dbins -eq 0 ]]; then
  ok "plumbing: session.sh --dry-run: 81 files checked (40 seeded, 40 directed, 1 crafted), 0 mismatches"
else not_ok "plumbing: session.sh --dry-run: exit $src, $rows rows ($zero with 0 mismatches), $dbins D files (wanted 0, 81, 81, 0): $(tail -n 3 "$tmp/sess.log" | tr '\n' ' ')"; fi

# Same seed, same inputs; another seed, other inputs.
"$DRY" --only wgmma.m64n8k16.f32.f16.f16 --count 1024 --stdout >"$tmp/s1a"
"$DRY" --only wgmma.m64n8k16.f32.f16.f16 --count 1024 --stdout >"$tmp/s1b"
"$DRY" --only wgmma.m64n8k16.f32.f16.f16 --count 1024 --seed 2 --stdout >"$tmp/s2"
cmp -s "$tmp/s1a" "$tmp/s1b" && ok "the same seed gives the same file" || not_ok "seed 1 twice gave different files"
cmp -s <(grep -v '^#' "$tmp/s1a") <(grep -v '^#' "$tmp/s2") && not_ok "seeds 1 and 2 gave the same vectors" ||
  ok "another seed gives other vectors"

# Generators.  mma.m16n8k16.f32.f16.f16.f32: 128 lines per tile; fields 2-17 are A (f16), 18-33 B.
"$DRY" --only mma.m16n8k16.f32.f16.f16.f32 --count 8192 --stdout | grep -v '^#' >"$tmp/f16"
# Raw (tile 0): some f16 A value has an exponent field of all ones (1/16 of random bit patterns).
# Cluster (tiles 1, 4, 7, ...): the A exponent fields of a tile lie within a window of 7 (centre +-3),
# or 25 in the wide-spread tiles (+-12), and both kinds of tile occur; raw tiles spread wider.
read -r raw_allones narrow wide over raw_wide < <(python3 - "$tmp/f16" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
a = lambda t: [int(x, 16) for r in rows[128 * t:128 * (t + 1)] for x in r[1:17]]
def span(t):
    e = [v >> 10 & 31 for v in a(t)]
    return max(e) - min(e)
tiles = len(rows) // 128
cl = [span(t) for t in range(1, tiles, 3)]
print(sum(v & 0x7c00 == 0x7c00 for v in a(0)), sum(s <= 6 for s in cl), sum(6 < s <= 24 for s in cl),
      sum(s > 24 for s in cl), sum(span(t) > 24 for t in range(0, tiles, 3)))
PY
)
[[ ${raw_allones:-0} -gt 0 ]] && ok "raw tiles contain random bit patterns with all-ones exponents ($raw_allones in tile 0)" ||
  not_ok "raw tile 0 has no inf/NaN bit pattern in A"
[[ ${over:-1} -eq 0 && ${narrow:-0} -gt 0 && ${wide:-0} -gt 0 && ${raw_wide:-0} -gt 0 ]] &&
  ok "cluster tiles: A exponents within +-3 ($narrow tiles) or +-12 ($wide tiles); raw tiles wider" ||
  not_ok "cluster exponent spans: narrow=${narrow:-} wide=${wide:-} over 24=${over:-} raw over 24=${raw_wide:-}"
# Special: every f16 special encoding (IEEE binary16, by hand: +-0, min subnormal 0001, max subnormal 03ff,
# min normal 0400, max finite 7bff, +-1 = 3c00/bc00, +-inf 7c00/fc00, NaNs 7e00, 7c01, fe01) appears.
missing=
for v in 0000 8000 0001 8001 03ff 0400 8400 7bff fbff 3c00 bc00 7c00 fc00 7e00 7c01 fe01; do
  cut -d' ' -f2-33 "$tmp/f16" | grep -qE "(^| )$v( |$)" || missing+=" $v"
done
[[ -z $missing ]] && ok "special tiles draw every f16 special encoding" || not_ok "f16 specials never drawn:$missing"
# TF32 raw tiles set the 13 low bits that Step 0 ignores; cluster tiles leave them zero.
"$DRY" --only mma.m16n8k8.f32.tf32.tf32.f32 --count 384 --stdout | grep -v '^#' >"$tmp/tf32"
low=$(python3 - "$tmp/tf32" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
n = [sum(int(x, 16) & 0x1fff != 0 for r in rows[128 * t:128 * (t + 1)] for x in r[1:17]) for t in (0, 1)]
print(n[0], n[1])
PY
)
[[ ${low% *} -gt 0 && ${low#* } -eq 0 ]] && ok "tf32: raw tiles set the ignored low 13 bits, cluster tiles do not" ||
  not_ok "tf32 low bits: raw/cluster counts '$low' (wanted >0 and 0)"

# Option errors are one line and a non-zero exit.
expect_error "dryrun rejects an unknown instruction" "is not one of this harness's instructions" "$DRY" --only nope --stdout
expect_error "dryrun rejects a bad count" "--count needs a positive number" "$DRY" --count 0

# With nvcc: the CUDA source compiles for sm_90a and its PTX has every instruction.
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
# Crafted files for the rules the table extrapolates (build/gpu/craft): the zero-term rule.  The issue's
# hand case first, D derived beside it: wgmma.m64n8k32.f32.e4m3.e4m3 (F = 13, D f32 rounded toward zero
# at 13 fractional bits), C = 0x80009513 (-38163 x 2^-149, about 2^-133.8), every product +0 x 2^8
# (e4m3 0x78).  Under -133, C's exponent sets e_max, C keeps 38160 x 2^-149 on the grid 2^(-133-13) =
# 8 x 2^-149, and D's 13 bits keep multiples of 2^(-126-13) = 1024 x 2^-149: 37888 = 0x9400, D 0x80009400.
# Under the convention the zero products' -126 + 8 = -118 is e_max, C is below the grid and D is +0.
Z=$(printf '0,%.0s' {1..31})0 B8=$(printf '0x78,%.0s' {1..31})0x78
d=$(build/mmaref dot hopper wgmma.m64n8k32.f32.e4m3.e4m3 -c 0x80009513 -a "$Z" -b "$B8" | cut -d' ' -f1)
[[ $d == 0x80009400 ]] && ok "zero term at -133: the hand case gives 0x80009400" || not_ok "zero term hand case: D $d, not 0x80009400"
mkdir -p "$tmp/craft"
if make -s build/gpu/craft >"$tmp/craft.log" 2>&1 && build/gpu/craft "$tmp/craft" --n 500 >"$tmp/craft.out" 2>&1; then
  ok "build/gpu/craft writes the crafted files"
  told() { awk -v n="$1" '$2 == n":" {print $3}' "$tmp/craft.out"; }
  # f16 and FP8 with an f32 C decide the rule on nearly every vector; an f16 C or FP8 mma.sync (C last) cannot
  for n in wgmma.m64n8k32.f32.e4m3.e4m3 wgmma.m64n8k16.f32.f16.f16 mma.m16n8k16.f32.f16.f16.f32; do
    t=$(told "$n")
    if [[ ${t:-0} -ge 450 && -s $tmp/craft/zero-term__$n.txt ]] &&
       grep -v '^#' "$tmp/craft/zero-term__$n.txt" | build/mmaref batch hopper "$n" >/dev/null 2>&1; then
      ok "zero-term file for $n: $t of 500 vectors tell -133 from the convention, every line a batch line"
    else not_ok "zero-term file for $n: $t of 500 tell the rules apart (wanted >= 450), or a line batch refuses"; fi
  done
  for n in mma.m16n8k16.f16.f16.f16.f16 mma.m16n8k32.f32.e4m3.e4m3.f32; do
    [[ $(told "$n") == 0 && ! -e $tmp/craft/zero-term__$n.txt ]] && ok "zero-term: no file for $n (no vector tells the rules apart)" ||
      not_ok "zero-term: $n: $(told "$n") vectors tell the rules apart, or a file was written"
  done
  # every other rule the inventory marks extrapolated on a harness instruction gets a file, each line of
  # which catches the rule (a unit breaking it gives another D), and no other rule gets one
  want="" got="" bad=""
  while read -r n; do
    want+=$("$MMAREF" rules hopper "$n" --json | python3 -c 'import json, sys
print("".join(" %s__%s" % (r["name"], sys.argv[1]) for r in json.load(sys.stdin)
              if r["silicon"]["kind"] == "extrapolated" and r["name"] != "zero-term-exp"))' "$n")
  done < <("$DRY" --list | cut -f1)
  want=$(tr ' ' '\n' <<<"$want" | sort | tr '\n' ' ')
  for f in "$tmp/craft"/*__*.txt; do
    b=$(basename "$f" .txt); [[ $b == zero-term__* ]] && continue
    got+=" $b" r=${b%%__*} n=${b#*__}
    lines=$(grep -vc '^#' "$f")
    c=$(grep -v '^#' "$f" | "$MMAREF" rules hopper "$n" --catch | awk -v r="$r" '$1 == r {print $2}')
    [[ $c == "$lines" && $lines -gt 0 ]] || bad+=" $b: $c of $lines catch it;"
  done
  got=$(tr ' ' '\n' <<<"$got" | sort | tr '\n' ' ')
  if [[ -n $want && $want == "$got" && -z $bad ]]; then
    ok "craft: a file for each of the $(wc -w <<<"$want") extrapolated rules of the harness's instructions, every line catching its rule"
  else not_ok "craft: extrapolated rule files: wanted [$want], wrote [$got]$bad"; fi
  expect_error "craft refuses a missing directory" "craft: DIR must be an existing directory" build/gpu/craft "$tmp/none"

  # tools/rules_silicon.py, with this tree as the run's: per rule, the vectors of the run's sets that catch
  # it, each set checked against today's model first; the seeded count is `rules --catch` of the same tiles
  W=wgmma.m64n8k16.f32.f16.f16 F64=mma.m8n8k4.f64.f64.f64.f64
  if python3 tools/rules_silicon.py --run-tree . --seed 3 --count 64 --label t --crafted "$tmp/craft" --jobs 2 \
       >"$tmp/rs.tsv" 2>"$tmp/rs.err"; then
    want=$("$DRY" --only $W --count 64 --seed 3 --stdout | grep -v '^#' | "$MMAREF" rules hopper $W --catch |
           awk '$1 == "subnormal-operand" {print $2}')
    got=$(awk -F'\t' -v w=$W '$2 == w && $3 == "seeded" && $6 == "subnormal-operand" {print $7}' "$tmp/rs.tsv")
    nan=$(awk -F'\t' -v w=$F64 '$2 == w && $6 == "nan-canonical" {printf "%s=%s ", $3, $7}' "$tmp/rs.tsv")
    same=$(awk -F'\t' '!/^#/ && $5 != 1' "$tmp/rs.tsv" | wc -l)
    lines=$(grep -vc '^#' "$tmp/craft/nan-canonical__$F64.txt")
    [[ -n $want && $got == "$want" && $same == 0 && $nan == "seeded=0 directed=0 crafted:nan-canonical=$lines " ]] &&
      ok "rules_silicon.py: the seeded set's count is rules --catch's ($got); f64 NaN payloads count only in the crafted file ($lines)" ||
      not_ok "rules_silicon.py: seeded $got (rules --catch: $want), $same rows unlike today's model, f64 nan-canonical: $nan"
  else not_ok "rules_silicon.py: $(tail -n 2 "$tmp/rs.err")"; fi
  # ... and a run whose model gave another D is refused: a run tree whose mmaref writes D = 1 everywhere
  mkdir -p "$tmp/fake/build/gpu"; ln -s "$(realpath "$DRY")" "$tmp/fake/build/gpu/dryrun"
  real=$(realpath "$MMAREF")
  printf '#!/bin/sh\nif [ "$1" = batch ]; then "%s" "$@" | sed "s/^0x.*/0x1/"; else exec "%s" "$@"; fi\n' \
    "$real" "$real" >"$tmp/fake/build/mmaref"; chmod +x "$tmp/fake/build/mmaref"
  out=$(python3 tools/rules_silicon.py --run-tree "$tmp/fake" --seed 3 --count 64 --label t --jobs 2 2>&1 >/dev/null); rc=$?
  [[ $rc == 1 && $out == *"today's model differs from the run's on some vector"* ]] &&
    ok "rules_silicon.py refuses a run whose model gave other D's (exit 1)" || not_ok "rules_silicon.py with another model: rc=$rc ${out: -200}"
else not_ok "build/gpu/craft: $(tail -n 3 "$tmp/craft.log" "$tmp/craft.out" | tr '\n' ' ')"; fi

if [[ -n $NVCC ]] && ! "$NVCC" --list-gpu-code 2>/dev/null | grep -qx sm_90; then
  echo "# $NVCC cannot target sm_90 (CUDA < 12.0?): the sm_90a compile check is skipped"
elif [[ -n $NVCC ]]; then
  if "$NVCC" -arch=sm_90a -std=c++17 -Itools/gpu -c tools/gpu/mmagpu.cu -o "$tmp/mmagpu.o" >"$tmp/nvcc.log" 2>&1; then
    ok "CUDA source compiles for sm_90a (nvcc -arch=sm_90a -c)"
  else not_ok "nvcc -arch=sm_90a -c tools/gpu/mmagpu.cu: $(head -n 3 "$tmp/nvcc.log" | tr '\n' ' ')"; fi
  "$NVCC" -arch=compute_90a -std=c++17 -Itools/gpu -ptx tools/gpu/mmagpu.cu -o "$tmp/mmagpu.ptx" >/dev/null 2>&1
  missing=
  while IFS=$'\t' read -r name ptx flags arch; do
    grep -qF "$ptx " "$tmp/mmagpu.ptx" 2>/dev/null || missing+=" $ptx"
  done < <("$DRY" --list)
  [[ -z $missing ]] && ok "the sm_90a PTX issues all $total instructions" || not_ok "PTX lacks:$missing"
  if make -s gpu-build >"$tmp/gpub.log" 2>&1 && cmp -s <(build/gpu/mmagpu --list) <("$DRY" --list) &&
     cmp -s <(build/gpu/mmagpu --dump-layouts) "$tmp/layouts"; then
    ok "make gpu-build links build/gpu/mmagpu with the same instruction table and layouts"
  else not_ok "make gpu-build: $(tail -n 3 "$tmp/gpub.log" | tr '\n' ' ')"; fi
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    expect_error "without a GPU, mmagpu says so in one line" "mmagpu: no usable CUDA device" build/gpu/mmagpu --count 1 --out "$tmp/nogpu"
  fi
else
  echo "# nvcc not found: the sm_90a compile check is skipped (the dry run above needs no CUDA)"
fi
