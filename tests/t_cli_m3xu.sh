# The CLI on the M3XU design like on any other architecture: list (aliases m3xu.f16/bf16/f32/f32c), dot by
# name and alias, complex operands "RE+IMi" in and out, batch (f32c words, --nan-any part by part), gen ->
# batch, mma on the FP16/BF16/FP32 modes, and one-line errors for bad complex input.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# list: four modes, each with its alias, schedule and shape (docs/m3xu.md).
out=$("$MMAREF" list m3xu)
want="m3xu.m8n4k8.f32.f16.f16.f32 8x4x8 f16/f16/f32/f32 FDA(F=24,f32-rz) m3xu.f16
m3xu.m8n4k8.f32.bf16.bf16.f32 8x4x8 bf16/bf16/f32/f32 FDA(F=24,f32-rz) m3xu.bf16
m3xu.m8n4k4.f32.f32.f32.f32 8x4x4 f32/f32/f32/f32 M3XU(F=46,f32-rne) m3xu.f32
m3xu.m8n4k2.f32c.f32c.f32c.f32c 8x4x2 f32c/f32c/f32c/f32c M3XU(F=46,f32c-rne) m3xu.f32c"
got=$(awk '{print $2, $3, $4, $5, $6}' <<<"$out")
[[ $got == "$want" ]] && ok "list m3xu: the four modes with their aliases" || not_ok "list m3xu: '$got'"
"$MMAREF" list --json | grep -q '"arch": "m3xu", "name": "m3xu.m8n4k2.f32c.f32c.f32c.f32c", "sass": "m3xu.f32c".*"algo": "M3XU"' &&
  ok "list --json: m3xu.f32c with its alias and algo M3XU" || not_ok "list --json has no m3xu.f32c entry"

# dot: alias and name give the same D; the check value 0x34c00001 (t_model_paper_m3xu.sh derives it).
a=$("$MMAREF" dot m3xu m3xu.f32 -a 0x3f800001,-1 -b 0x3f800002,1 -c 0)
b=$("$MMAREF" dot M3XU m3xu.m8n4k4.f32.f32.f32.f32 -a 0x3f800001,-1 -b 0x3f800002,1 -c 0)
[[ $a == "0x34c00001 3.57627897e-07" && $a == "$b" ]] && ok "dot by alias and by name: $a" || not_ok "dot: '$a' / '$b'"
# complex in and out: (1+2i)(3+4i) = -5+10i, printed as bits (imaginary part high) and RE+IMi.
out=$("$MMAREF" dot m3xu m3xu.f32c -a 1+2i -b 3+4i -c 0)
[[ $out == "0x41200000c0a00000 -5+10i" ]] && ok "dot f32c: (1+2i)(3+4i) = $out" || not_ok "dot f32c: '$out'"
# the forms of a complex operand: raw 64-bit bits, a real number, a pure imaginary one, -i, hex floats
out=$("$MMAREF" dot m3xu m3xu.f32c -a 0x400000003f800000,0x1p-1 -b -i,2i -c -0.25-0x1.8p1i)
# (1+2i)(-i) = 2 - i; 0.5 * 2i = i; c = -0.25 - 3i: 1.75 - 3i = 0xc0400000_3fe00000
[[ $out == "0xc04000003fe00000 1.75-3i" ]] && ok "complex operand forms (raw bits, real, -i, 2i, hex float parts): $out" ||
  not_ok "complex operand forms: '$out'"
expect_error "a malformed complex operand is one line naming it" "a[0] = '1x+2i' is not a complex number" \
  "$MMAREF" dot m3xu m3xu.f32c -a 1x+2i -b 1 -c 0
# a lone sign is the imaginary unit only before an i ("-i"); as a real part it has no digits
expect_error "complex '+' (no digits) is refused" "a[0] (real part) = '+' is not a number" "$MMAREF" dot m3xu m3xu.f32c -a + -b 1 -c 0
expect_error "complex '-' (no digits) is refused" "c (real part) = '-' is not a number" "$MMAREF" dot m3xu m3xu.f32c -a 1 -b 1 -c -
expect_error "complex '+' in a list is refused" "b[1] (real part) = '+' is not a number" "$MMAREF" dot m3xu m3xu.f32c -a 1,1 -b 1,+ -c 0
expect_error "a complex part not exact in f32 names the part and the nearest value" \
  "b[1] (imaginary part) = '+0.1' is not exactly representable in f32 (nearest: 0x3dcccccd" \
  "$MMAREF" dot m3xu m3xu.f32c -a 1 -b 1,1+0.1i -c 0
expect_error "more complex values than K = 2" "a has 3 values, more than the instruction's 2" \
  "$MMAREF" dot m3xu m3xu.f32c -a 1,2,3 -b 1 -c 0
expect_error "raw bits wider than 64" "has more than 64 bits" "$MMAREF" dot m3xu m3xu.f32c -a 0x10000000000000000 -b 1 -c 0
expect_error "an f32 operand wider than 32 bits" "does not fit in f32 (32 bits)" \
  "$MMAREF" dot m3xu m3xu.f32 -a 0x100000000 -b 1 -c 0
expect_error "an unknown m3xu instruction lists the modes" "m3xu has no instruction 'm3xu.f64'; it has: m3xu.m8n4k8.f32.f16.f16.f32" \
  "$MMAREF" dot m3xu m3xu.f64 -a 1 -b 1 -c 0

# batch: f32c words in and out; --nan-any compares NaN part by part.
printf '0 3f80000000000000 0 3f80000000000000 0\n' | "$MMAREF" batch m3xu m3xu.f32c >"$tmp/d"
[[ $(cat "$tmp/d") == 0x00000000bf800000 ]] && ok "batch f32c: i*i = 0x00000000bf800000" || not_ok "batch f32c: '$(cat "$tmp/d")'"
# a = inf (real), b = 1: D = (+inf, NaN from inf*0) = 7fffffff_7f800000.  Expected with another NaN payload in
# the imaginary part passes under --nan-any; a NaN where the real part is inf does not.
line='0 7f800000 0 3f800000 0'
out=$(printf '%s 7fc000017f800000\n' "$line" | "$MMAREF" batch m3xu m3xu.f32c --check --nan-any)
out2=$(printf '%s 7fffffff7fffffff\n' "$line" | "$MMAREF" batch m3xu m3xu.f32c --check --nan-any)
[[ $out == *"1 passed, 0 failed" && $out2 == *"0 passed, 1 failed" ]] &&
  ok "batch --nan-any on f32c: NaN matches NaN in its own part only" || not_ok "batch --nan-any f32c: '$out' / '$out2'"
expect_error "batch f32c: a line with too few fields" "line 1" sh -c "printf '0 1 2\n' | '$MMAREF' batch m3xu m3xu.f32c"

# gen -> batch: the generator's f32c lines are read back and checked against the model's own D.
for i in m3xu.f16 m3xu.bf16 m3xu.f32 m3xu.f32c; do
  out=$("$MMAREF" gen m3xu $i --n 5000 --seed 3 --with-d | "$MMAREF" batch m3xu $i --check)
  [[ $out == *"5000 passed, 0 failed" ]] && ok "gen --with-d | batch --check on $i" || not_ok "gen | batch on $i: '$out'"
done
n=$("$MMAREF" gen m3xu m3xu.f32c --kind directed --n 100000 | sort -u | wc -l)
nr=$("$MMAREF" gen m3xu m3xu.f32 --kind directed --n 100000 | sort -u | wc -l)
# every directed vector of the FP32 view (K = 2) on each of the four pairs of parts
(( n > 4 * 400 && nr > 400 )) && ok "gen: m3xu.f32c has $n distinct directed vectors (m3xu.f32: $nr)" ||
  not_ok "gen: m3xu.f32c directed vectors: $n (m3xu.f32: $nr)"

# mma: whole 8x4 tiles of the FP32 and FP16 modes from .npy files (stdlib writer).
python3 - "$tmp" <<'PY'
import struct, sys
def npy(path, descr, shape, bits):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (descr, *shape)
    h += " " * ((-(10 + len(h) + 1)) % 64) + "\n"
    fmt = {2: "H", 4: "I"}[int(descr[2:])]
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() +
                           b"".join(struct.pack("<" + fmt, x) for x in bits))
d = sys.argv[1]
# FP32: A = 1.0 everywhere (8x4), B[k][j] = 2^-k (4x4), C = 0: every D = 1 + 1/2 + 1/4 + 1/8 = 1.875 = 0x3ff00000
npy(d + "/a32.npy", "<f4", (8, 4), [0x3f800000] * 32)
npy(d + "/b32.npy", "<f4", (4, 4), [(127 - k) << 23 for k in range(4) for j in range(4)])
npy(d + "/c32.npy", "<f4", (8, 4), [0] * 32)
# FP16: A = 1.0 (0x3c00), B = 2^-24 (0x0001, subnormal) on k = 0..7, C = 1: F = 24 keeps each 2^-24:
# 1 + 8 * 2^-24 = 1 + 2^-21 = 0x3f800004
npy(d + "/a16.npy", "<u2", (8, 8), [0x3c00] * 64)
npy(d + "/b16.npy", "<u2", (8, 4), [0x0001] * 32)
npy(d + "/c16.npy", "<f4", (8, 4), [0x3f800000] * 32)
PY
check_tile() {  # WHAT INSTR A B C WANT_HEX
  "$MMAREF" mma m3xu "$2" --a "$tmp/$3" --b "$tmp/$4" --c "$tmp/$5" -o "$tmp/d.npy" 2>"$tmp/err" &&
  vals=$(python3 -c "import struct,sys; b=open(sys.argv[1],'rb').read(); h=struct.unpack('<H',b[8:10])[0]; \
d=b[10+h:]; print(' '.join(sorted({'%08x'%x for x in struct.unpack('<%dI'%(len(d)//4), d)})))" "$tmp/d.npy")
  [[ $vals == "$6" ]] && ok "$1" || not_ok "$1: D elements '$vals' $(cat "$tmp/err")"
}
check_tile "mma m3xu.f32: 8x4 tile, every D = 1 + 1/2 + 1/4 + 1/8 = 0x3ff00000" m3xu.f32 a32.npy b32.npy c32.npy 3ff00000
check_tile "mma m3xu.f16: 8x4 tile, every D = 1 + 8 * 2^-24 = 0x3f800004 (F = 24)" m3xu.f16 a16.npy b16.npy c16.npy 3f800004
exit 0
