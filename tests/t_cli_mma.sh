# `mmaref mma`: whole tiles from NumPy .npy files.
# The .npy files are built and read with python3's stdlib (struct), not NumPy.  Expected tiles come from
# exact arithmetic done here in Python (small integer-valued operands: every dot-add is exact, so D is the
# exact sum, rounded once by struct's own f16 packing where D is f16) or from hand derivations written
# beside each case; one tile is also cross-checked element by element against `mmaref batch` (the
# per-dot-add path of the CLI).
# runtime: 15 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# tests/cli/npy_cases.py: a stdlib writer/reader of .npy files, the case generator and checker
NPY_CASES=$(dirname "$0")/cli/npy_cases.py

if ! python3 "$NPY_CASES" gen "$T"; then
  not_ok "t_cli_mma: generating the .npy inputs failed"
  exit 1
fi

# mma_ok CASE ARGS...: `mmaref mma ARGS -o $T/CASE.npy` succeeds and D matches the derived tile.
mma_ok() {
  local case=$1; shift
  local err
  if ! err=$("$MMAREF" mma "$@" -o "$T/$case.npy" 2>&1); then
    not_ok "$case: mmaref mma $* failed: $err"; return
  fi
  python3 "$NPY_CASES" check "$T" "$case" "$T/$case.npy"
}

# mma_error WHAT PATTERN ARGS...: exit status 2, one stderr line containing PATTERN, and no D written.
mma_error() {
  local what=$1 pat=$2; shift 2
  local err rc
  rm -f "$T/out.npy"
  err=$("$MMAREF" mma "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 && $err == *"$pat"* && ! -e $T/out.npy ]]; then ok "$what"
  else not_ok "$what: rc=$rc stderr='$err' (wanted exit 2, one line containing '$pat', no $T/out.npy)"; fi
}

H8=mma.m16n8k8.f32.f16.f16.f32
mma_ok int_bits  ampere $H8 --a "$T/int_a_f2.npy" --b "$T/int_b_f2.npy" --c "$T/int_c_f4.npy"
mma_ok int_float ampere HMMA.1688.F32 --a "$T/int_a_u2.npy" --b "$T/int_b_u8.npy" --c "$T/int_c_u4.npy" --d-dtype float
mma_ok int_v2    ampere $H8 --a="$T/int_a_v2.npy" --b "$T/int_b_f2.npy" --c "$T/int_c_f4.npy" --d-dtype bits
mma_ok sub_u1    ampere $H8 --a "$T/sub_a_u1.npy" --b "$T/sub_b_f2.npy" --c "$T/zero_c_f4.npy"
mma_ok f16_d     hopper mma.m16n8k16.f16.f16.f16.f16 --a "$T/h_a.npy" --b "$T/h_b.npy" --c "$T/h_c.npy"
mma_ok tf32      hopper mma.m16n8k8.f32.tf32.tf32.f32 --a "$T/tf_a.npy" --b "$T/tf_b.npy" --c "$T/tf_c.npy" --d-dtype float
mma_ok f64       hopper DMMA.884 --a "$T/df_a.npy" --b "$T/df_b.npy" --c "$T/df_c.npy" --d-dtype float
mma_ok f32c      m3xu m3xu.f32c --a "$T/cx_a.npy" --b "$T/cx_b.npy" --c "$T/cx_c.npy" --d-dtype float
mma_ok f32c_bits m3xu m3xu.f32c --a "$T/cx_a.npy" --b "$T/cx_b.npy" --c "$T/cx_c.npy"
mma_ok scaled    rtx-blackwell mma.m16n8k32.block32.f32.e4m3.e4m3.f32.ue8m0 --a "$T/sc_a.npy" --b "$T/sc_b.npy" \
  --c "$T/sc_c.npy" --scale-a "$T/sc_sa.npy" --scale-b "$T/sc_sb.npy"
mma_ok gdfs      rtx-blackwell mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3 --a "$T/g_a.npy" --b "$T/g_b.npy" \
  --c "$T/g_c.npy" --scale-a "$T/g_sa.npy" --scale-b "$T/g_sb.npy"

# CoFDA (Ampere) vs FDA (Hopper) on the same tile: hand-derived rows, then every element against
# `mmaref batch --check` (each line one dot-add through mmaref_dot, with the tile's D as the expectation).
for arch in ampere hopper; do
  if "$MMAREF" mma $arch mma.m16n8k16.f32.f16.f16.f32 --a "$T/co_a.npy" --b "$T/co_b.npy" --c "$T/co_c.npy" \
       -o "$T/co_$arch.npy" 2>"$T/err"; then
    python3 "$NPY_CASES" cofda "$T" $arch "$T/co_$arch.npy"
    res=$("$MMAREF" batch $arch mma.m16n8k16.f32.f16.f16.f32 --check <"$T/co_$arch.check" 2>&1 | tail -1)
    if [[ $res == *": 128 passed, 0 failed" ]]; then ok "$arch tile = mmaref batch on every row/column (128 dot-adds)"
    else not_ok "$arch tile vs mmaref batch: $res"; fi
  else
    not_ok "$arch CoFDA/FDA tile: $(cat "$T/err")"
  fi
done
# and two elements through `mmaref dot` itself (row 0 column 0 of the hand case; a random element)
d00=$(python3 -c "import sys; sys.path.insert(0, '$(dirname "$NPY_CASES")'); import npy_cases as npy; print('0x%08x' % npy.read('$T/co_ampere.npy')[2][0])")
expect_dot "ampere tile D[0][0] = mmaref dot on row 0 / column 0" "$d00" ampere mma.m16n8k16.f32.f16.f16.f32 \
  -a 0x1,0,0,0,0,0,0,0,0x1 -b 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 -c 1
read -r c a b <<<"$(python3 -c "
f = open('$T/co.batch').read().splitlines()[5 * 8 + 6].split()
print(f[0], ','.join(f[1:17]), ','.join(f[17:33]))")"
d56=$(python3 -c "import sys; sys.path.insert(0, '$(dirname "$NPY_CASES")'); import npy_cases as npy; print('0x%08x' % npy.read('$T/co_ampere.npy')[2][5 * 8 + 6])")
expect_dot "ampere tile D[5][6] (random bits) = mmaref dot on row 5 / column 6" "$d56" ampere \
  mma.m16n8k16.f32.f16.f16.f32 -a "$a" -b "$b" -c "$c"

# ---- options ----
out=$("$MMAREF" mma --help 2>&1); rc=$?
if [[ $rc -eq 0 && $out == "usage: mmaref mma ARCH INSTRUCTION --a A.npy"* ]]; then ok "mma --help prints usage, exit 0"
else not_ok "mma --help: rc=$rc output='${out:0:80}'"; fi
# D is raw bits by default whatever the inputs' dtype (case int_bits above: float inputs, a <u4 D), said
# where it is read first: the help's description (before its option list) and the README's whole-tile
# section
desc=$(sed '/^  -/,$d' <<<"$out")
readme=$(sed -n '/^### Whole tiles/,/^### /p' "$(dirname "$0")/../README.md")
[[ $desc == *"D is raw bits by default, even from float inputs"*"--d-dtype float"* &&
   $readme == *"**D is raw bits"*"unless \`--d-dtype float\` is given, even"*"from float inputs**"* ]] \
  && ok "mma: D as raw bits by default even from float inputs is said in --help's description and the README" \
  || not_ok "mma: the raw-bit default of D is not said in --help's description or the README's whole-tile section"
OK3=(--a "$T/int_a_f2.npy" --b "$T/int_b_f2.npy" --c "$T/int_c_f4.npy")
mma_error "unknown option" "unknown option '--bogus'" ampere $H8 "${OK3[@]}" -o "$T/out.npy" --bogus
mma_error "missing --c" "needs --c C.npy" ampere $H8 --a "$T/int_a_f2.npy" --b "$T/int_b_f2.npy" -o "$T/out.npy"
mma_error "missing -o" "needs -o D.npy" ampere $H8 "${OK3[@]}"
mma_error "missing ARCH/INSTRUCTION" "needs ARCH and INSTRUCTION" "${OK3[@]}" -o "$T/out.npy"
mma_error "option given twice" "--a given twice" ampere $H8 "${OK3[@]}" --a "$T/int_a_f2.npy" -o "$T/out.npy"
mma_error "bad --d-dtype" "--d-dtype is 'bits' or 'float', not 'half'" ampere $H8 "${OK3[@]}" -o "$T/out.npy" --d-dtype half
mma_error "unknown instruction" "ampere has no instruction 'mma.m1n1k1'" ampere mma.m1n1k1 "${OK3[@]}" -o "$T/out.npy"
mma_error "scales given to an unscaled instruction" "has no block scales" ampere $H8 "${OK3[@]}" -o "$T/out.npy" \
  --scale-a "$T/sc_sa.npy" --scale-b "$T/sc_sb.npy"
SC=(rtx-blackwell mma.m16n8k32.block32.f32.e4m3.e4m3.f32.ue8m0 --a "$T/sc_a.npy" --b "$T/sc_b.npy" --c "$T/sc_c.npy")
mma_error "scales missing for a scaled instruction" "takes block scales" "${SC[@]}" -o "$T/out.npy"
mma_error "only --scale-a for a scaled instruction" "takes block scales" "${SC[@]}" -o "$T/out.npy" --scale-a "$T/sc_sa.npy"
mma_error "scale-a of the wrong shape" "--scale-a '$T/bad_sa_shape.npy': shape (16, 2), but" "${SC[@]}" \
  -o "$T/out.npy" --scale-a "$T/bad_sa_shape.npy" --scale-b "$T/sc_sb.npy"
mma_error "float scales for ue8m0" "dtype <f4, but ue8m0 operands take raw bits" "${SC[@]}" \
  -o "$T/out.npy" --scale-a "$T/bad_sa_float.npy" --scale-b "$T/sc_sb.npy"
mma_error "unwritable output" "-o '$T/nodir/D.npy': cannot create" ampere $H8 "${OK3[@]}" -o "$T/nodir/D.npy"

# ---- malformed arrays: each names the file and what is wrong ----
bad_a() { # WHAT PATTERN FILE [ARCH INSTR]: --a FILE in an otherwise good call
  local what=$1 pat=$2 file=$T/$3.npy arch=${4:-ampere} instr=${5:-$H8}
  mma_error "$what" "--a '$file': $pat" $arch $instr --a "$file" --b "$T/int_b_f2.npy" --c "$T/int_c_f4.npy" -o "$T/out.npy"
}
bad_a "A of the wrong (transposed) shape" "shape (8, 16), but mma.m16n8k8.f32.f16.f16.f32 needs (16, 8)" bad_shape
bad_a "A 1-D" "shape (128,), but" bad_1d
bad_a "A 3-D" "shape (1, 16, 8), but" bad_3d
bad_a "<f4 for an f16 operand" "dtype <f4, but f16 operands take <f2" bad_f4
bad_a "<i2 is not a supported dtype" "dtype '<i2' is not supported" bad_i2
bad_a "<u4 value wider than f16" "element [0, 0] = 0x10000 does not fit in f16 (16 bits)" bad_wide
bad_a "Fortran order" "array is in Fortran order" bad_fortran
bad_a "big-endian" "dtype '>u2' is big-endian" bad_bigendian
bad_a "truncated data" "truncated: shape (16, 8) <f2 needs 256 data bytes, the file has 255" bad_trunc
bad_a "bytes after the data" "has bytes after the data" bad_tail
bad_a "missing file" "cannot open: No such file or directory" no_such_file
bad_a "not an .npy file" "not an NPY file" bad_text
bad_a "empty file" "not an NPY file" bad_empty
bad_a "unsupported version 3.0" "unsupported NPY version 3.0" bad_v3
bad_a "header without 'shape'" "header lacks 'shape'" bad_noshape
bad_a "structured dtype" "structured dtype is not supported" bad_struct
bad_a "file cut inside the header" "truncated NPY file (ends inside the" bad_hdrcut
bad_a "<c8 for an f16 operand" "dtype <c8, but f16 operands take <f2" bad_c8
bad_a "<f2 for a bf16 operand" "dtype <f2, but bf16 operands take raw bits" bad_f2_bf16 ampere mma.m16n8k8.f32.bf16.bf16.f32
mma_error "e4m3 bits that do not fit" "--a '$T/bad_e4m3.npy': element [3, 4] = 0x1ff does not fit in e4m3 (8 bits)" \
  "${SC[@]/$T\/sc_a.npy/$T/bad_e4m3.npy}" -o "$T/out.npy" --scale-a "$T/sc_sa.npy" --scale-b "$T/sc_sb.npy"
mma_error "B of the wrong shape names --b" "--b '$T/int_b_f2.npy': shape (8, 8), but" ampere mma.m16n8k16.f32.f16.f16.f32 \
  --a "$T/h_a.npy" --b "$T/int_b_f2.npy" --c "$T/int_c_f4.npy" -o "$T/out.npy"

# ---- the header alone decides: no allocation from a declared shape before it is checked ----------
# Each runs with its address space limited to 256 MiB: reading the data first would need GiBs.  (An
# AddressSanitizer build reserves terabytes of shadow space, so under t_model_sanitize the limit is left
# off; ASan reports an allocation that large by itself.)
bad_a_small() { # WHAT PATTERN FILE: as bad_a, under ulimit -v
  local what=$1 pat=$2 file=$T/$3.npy err rc limit="ulimit -v 262144"
  [[ -n ${MMAREF_SANITIZED:-} ]] && limit=:
  err=$( ($limit; "$MMAREF" mma ampere $H8 --a "$file" --b "$T/int_b_f2.npy" --c "$T/int_c_f4.npy"           -o "$T/out.npy") 2>&1 ); rc=$?
  if [[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 && $err == *"--a '$file': $pat"* ]]; then ok "$what"
  else not_ok "$what: rc=$rc stderr='$err' (wanted exit 2, one line containing '$pat')"; fi
}
bad_a_small "shape (3, 6803659, 6, 6, 1) refused from the header, nothing allocated" \
  "shape (3, 6803659, 6, 6, 1), but mma.m16n8k8.f32.f16.f16.f32 needs (16, 8)" bad_huge
bad_a_small "1 GiB shape of the wrong size refused from the header" "shape (67108864, 8), but" bad_big_noshape_data
bad_a_small "512 MiB file behind a (16, 8) header refused by its size, unread" \
  "has bytes after the data of shape (16, 8) <f2 (256 bytes)" bad_big_tail
bad_a "leading zero in a shape integer (as NumPy refuses it)" "header 'shape' has an integer with a leading zero" bad_lead0

# ---- -o replaces a file only when the whole D is written ----------
good=(ampere $H8 "${OK3[@]}")
echo "precious" >"$T/keep.npy"; chmod 640 "$T/keep.npy"
# a write that fails: a file-size limit of 0 makes the first write fail with EFBIG
err=$( (trap "" XFSZ; ulimit -f 0; "$MMAREF" mma "${good[@]}" -o "$T/keep.npy") 2>&1 ); rc=$?
if [[ $rc -eq 2 && $err == *"-o '$T/keep.npy': write error"* && $(cat "$T/keep.npy") == precious && \
      -z $(ls "$T" | grep 'keep.npy.tmp') ]]; then
  ok "-o: a failed write leaves the existing file untouched and no temporary behind"
else not_ok "-o failed write: rc=$rc err='$err' content='$(head -c 20 "$T/keep.npy")' files: $(ls "$T" | grep keep)"; fi
if "$MMAREF" mma "${good[@]}" -o "$T/keep.npy" && python3 "$NPY_CASES" check "$T" int_bits "$T/keep.npy" >/dev/null &&
   [[ $(stat -c %a "$T/keep.npy") == 640 ]]; then
  ok "-o: a successful write replaces the file and keeps its permissions (640)"
else not_ok "-o replace: mode $(stat -c %a "$T/keep.npy")"; fi
ln -s keep.npy "$T/link.npy"
if "$MMAREF" mma "${good[@]}" -o "$T/link.npy" && [[ -L $T/link.npy ]]; then ok "-o through a symbolic link keeps the link"
else not_ok "-o through a symbolic link replaced the link"; fi
if [[ -e /dev/full ]]; then
  err=$("$MMAREF" mma "${good[@]}" -o /dev/full 2>&1); rc=$?
  if [[ $rc -eq 2 && $err == *"-o '/dev/full': write error: No space left on device"* && -c /dev/full ]]; then
    ok "-o /dev/full: write error, and the device node is still there"
  else not_ok "-o /dev/full: rc=$rc err='$err' $(ls -l /dev/full)"; fi
fi
# a dangling symbolic link is refused, not replaced by the file (renaming over it would replace the link)
ln -s "$T/no_such_dir/target.npy" "$T/dangling.npy"
err=$("$MMAREF" mma "${good[@]}" -o "$T/dangling.npy" 2>&1); rc=$?
if [[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 && $err == *"-o '$T/dangling.npy': is a symbolic link to '$T/no_such_dir/target.npy', which does not exist"* &&
      -L $T/dangling.npy && ! -e $T/dangling.npy ]]; then ok "-o onto a dangling symbolic link: refused, the link kept"
else not_ok "-o dangling link: rc=$rc err='$err' $(ls -l "$T/dangling.npy")"; fi
# an -o that fails on a later input leaves the previous file as it was
echo "precious" >"$T/keep2.npy"
expect_error "-o kept when --c is missing" "--c '$T/none.npy': cannot open" \
  "$MMAREF" mma ampere $H8 --a "$T/int_a_f2.npy" --b "$T/int_b_f2.npy" --c "$T/none.npy" -o "$T/keep2.npy"
[[ $(cat "$T/keep2.npy") == precious ]] && ok "-o: the previous file survives a failed run" || not_ok "-o: keep2.npy changed"
# a control character in any path is refused before anything is read or written
expect_error "-o with a newline" "-o '$T/x\\nsystem(\"touch PWNED\")' has a control character (byte $((${#T} + 3))): refused in a path" \
  "$MMAREF" mma "${good[@]}" -o "$T/x"$'\n''system("touch PWNED")'
expect_error "--a with an escape byte" "--a 'a\\x1bb' has a control character" "$MMAREF" mma ampere $H8 --a $'a\x1bb' --b b --c c -o d
expect_error "gemm -o with a carriage return" "gemm: -o '$T/d\\r' has a control character" \
  "$MMAREF" gemm hopper mma.m16n8k16.f32.f16.f16.f32 --a "$T/int_a_f2.npy" --b "$T/int_b_f2.npy" -o "$T/d"$'\r'
[[ ! -e PWNED && ! -e $T/PWNED ]] && ok "-o: no PWNED file" || not_ok "-o: a PWNED file appeared"
