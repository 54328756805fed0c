# The batched fast path (mmaref_dot_batch, docs/speed.md): every distinct configuration of the tables,
# its directed and random vectors, on every path the CPU has (reference, generic, avx2, avx512) and in
# three layouts, bit for bit against mmaref_dot (tests/api/batch_paths.c); the lane helpers against
# scalar C on every path (tests/api/lanes_helpers.c); bad input; mutant kernels it must catch;
# `mmaref batch` the same on every MMAREF_SIMD path; a bad MMAREF_SIMD refused.
# runtime: 32 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
LIB=${MMAREF_LIB:-build/libmmaref.a}
API_CC=${MMAREF_API_CC:-cc}  # compiler (and flags) to link against LIB: a sanitizer build needs its own
RANDOM_N=${BATCH_RANDOM_N:-600}  # random vectors per configuration (t_model_sanitize: fewer)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The SIMD paths this CPU has, read from /proc/cpuinfo (not from the library under test): generic always;
# each SIMD path the build compiles where the CPU has every extension its kernels are compiled for (the
# build's own list, `make -s fast-isa`: "avx512 -mavx512f ...", whose -mavx512f ... are cpuinfo's
# avx512f ...).  A path the CPU lacks is checked as refused instead.
fast_isa=$(make -s --no-print-directory fast-isa)
isa() { awk -v p="$1" '$1 == p {$1 = ""; print substr($0, 2)}' <<<"$fast_isa"; }  # the flags of a path's kernels
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
simd_paths=generic; simd_missing=""
for path in avx2 avx512; do
  have=1
  [[ -n $(isa $path) ]] || { not_ok "batch paths: make fast-isa lists no flags for $path"; have=0; }
  for f in $(isa $path); do [[ $flags == *" ${f#-m} "* ]] || have=0; done
  [[ $have == 1 ]] && simd_paths+=" $path" || simd_missing+=" $path"
done
simd_missing=${simd_missing# }
echo "# SIMD paths of this CPU: $simd_paths${simd_missing:+ (not: $simd_missing)}"

if $API_CC -std=gnu11 -O1 -Wall -Wextra -Werror -Icmodel/include -Itests/api -o "$tmp/batch_paths" tests/api/batch_paths.c \
     "$LIB" -lm 2>"$tmp/cc.log"; then
  for args in "$RANDOM_N" "0 --errors"; do
    out=$("$tmp/batch_paths" $args 2>&1); rc=$?
    echo "$out"
    if [[ $rc -ne 0 && $out != *"not ok"* ]]; then not_ok "batch_paths $args exited with status $rc"; fi
    [[ $args == "$RANDOM_N" ]] && paths_out=$out
  done
  # batch_paths chooses its paths with the library's CPU check: it must agree with /proc/cpuinfo
  out=$paths_out
  for path in $simd_paths; do
    grep -q "^ok - batch paths: $path, rows" <<<"$out" || not_ok "batch paths: this CPU has $path, batch_paths did not run it"
  done
  for path in $simd_missing; do
    grep -q "^# path $path: this CPU does not have it" <<<"$out" || not_ok "batch paths: this CPU lacks $path, batch_paths did not say so"
  done
else
  not_ok "tests/api/batch_paths.c does not build: $(head -3 "$tmp/cc.log")"
fi

# (the rest checks the tests and the CLI of the main build, once: not again under the sanitizers, whose
# build has the generic kernels alone)
[[ -n ${MMAREF_SANITIZED:-} ]] && exit 0
# the path chosen by default is the CPU's best -- the widest, but avx2 on AMD family 19h (Zen 3 and 4,
# AVX-512 in 256-bit halves: /proc/cpuinfo's vendor_id and cpu family 25) -- with every kernel the
# generic path has
best=${simd_paths##* }
if [[ $best == avx512 && $(grep -m1 '^vendor_id' /proc/cpuinfo) == *AuthenticAMD* &&
      $(grep -m1 '^cpu family' /proc/cpuinfo | tr -dc 0-9) == 25 ]]; then best=avx2; fi
served=$(sed -n 's/^ok - batch paths: the generated kernels serve \([0-9]*\) of.*/\1/p' <<<"$out")
if [[ -n $served ]] && grep -q "^# auto path: $best, kernels for $served configurations" <<<"$out"; then
  ok "batch paths: the default path is $best, with kernels for $served configurations"
else not_ok "batch paths: the default path is not $best with $served kernels: $(grep '^# auto path' <<<"$out")"; fi

# The lane helpers with an ISA-specific form, against scalar C, built with each path's flags the CPU has
for p in "generic" "avx2 $(isa avx2)" "avx512 $(isa avx512)"; do
  set -- $p; name=$1; shift
  [[ " $simd_paths " == *" $name "* ]] || continue
  if cc -std=gnu11 -O1 -Wall -Wextra -Werror -Wno-psabi "$@" -DPATH_NAME="\"$name\"" -Icmodel/src -Icmodel/include \
       -o "$tmp/lanes_$name" tests/api/lanes_helpers.c "$LIB" -lm 2>"$tmp/cc.log"; then
    out=$("$tmp/lanes_$name" 2>&1); rc=$?
    echo "$out"
    [[ $rc -ne 0 && $out != *"not ok"* ]] && not_ok "lane helpers ($name) exited with status $rc"
  else
    not_ok "tests/api/lanes_helpers.c ($name) does not build: $(head -3 "$tmp/cc.log")"
  fi
done

# Mutants: one kernel (named by the instruction the generator wrote above it) built alone from a header
# with one sed edit; its table holds that kernel only, and the comparison (on the configurations that
# kernel serves: the others have no kernel to differ) must find bad bits on every SIMD path while the
# reference path stays clean.
# (the library's objects named from its sources: an object a renamed source left behind is not linked)
objs=$(for f in cmodel/src/*.c; do o=${f##*/}; [[ $o == fast_none.c ]] || echo "build/obj/${o%.c}.o"; done)
mutant() { # WHAT HEADER SED_EXPR INSTRUCTION_COMMENT [PATHS: the paths whose code it edits; default every SIMD path]
  local what=$1 header=$2 expr=$3 instr=$4 line built=1 out caught kept want="" p
  for p in ${5:-$simd_paths}; do [[ " $simd_paths " == *" $p "* ]] && want+=" $p"; done
  want=${want# }
  if [[ -z $want ]]; then echo "# batch mutant ($what): this CPU has none of the paths ${5:-}"; return; fi
  rm -rf "$tmp/mut"; mkdir -p "$tmp/mut"
  cp cmodel/src/*.h "$tmp/mut/"
  sed -i "$expr" "$tmp/mut/$header"
  line=$(grep -A1 -F "/* $instr */" build/gen/fast_kernels.c | sed -n 2p)
  if cmp -s "cmodel/src/$header" "$tmp/mut/$header" || [[ $line != FAST_KERNEL* ]]; then
    not_ok "batch mutant ($what): the edit of $header or the kernel of $instr not found"; return
  fi
  { echo '#include "fast_kernel.h"'; sed 's/^FAST_KERNEL([0-9]*,/FAST_KERNEL(0,/' <<<"$line"
    echo '#ifdef FAST_TABLE'; echo 'const fast_entry *const fast_table[] = {&fast_kernel_0};'
    echo 'const size_t fast_table_count = 1;'; echo '#endif'; } >"$tmp/mut/kernels.c"
  for p in "1 generic" "2 avx2 $(isa avx2)" "3 avx512 $(isa avx512)"; do
    set -- $p; local n=$1 name=$2; shift 2
    cc -std=gnu11 -O1 -g0 -Wno-psabi -ffp-contract=off -fPIC "$@" -DFAST_BUILD_PATH=$n -I"$tmp/mut" -Icmodel/include \
      -c "$tmp/mut/kernels.c" -o "$tmp/mut/k_$name.o" 2>>"$tmp/mut/cc.log" || built=0
  done
  if [[ $built == 1 ]] && cc -std=gnu11 -O1 -Icmodel/include -Itests/api -o "$tmp/mut/batch_paths" tests/api/batch_paths.c \
       $objs "$tmp"/mut/k_*.o -lm 2>>"$tmp/mut/cc.log"; then
    out=$("$tmp/mut/batch_paths" 200 --kernels-only 2>&1)
    caught=$(grep -o '^not ok - batch paths: \(generic\|avx2\|avx512\), rows' <<<"$out" | awk '{print $6}' |
             tr -d , | tr '\n' ' ')
    kept=$(grep -c '^ok - batch paths: reference' <<<"$out")
    if [[ ${caught% } == "$want" && $kept == 3 ]]; then
      ok "batch mutant ($what): caught on ${want// /, }, the reference path unaffected"
    else not_ok "batch mutant ($what) not caught: $(grep -m3 'batch paths' <<<"$out" | tr '\n' ' ')"; fi
  else
    not_ok "batch mutant ($what) does not build: $(head -3 "$tmp/mut/cc.log")"
  fi
}
mutant "ties always round up in the f16-rne kernel" lanes.h 's/& -(vi)(kept & 1))/\& -1)/' \
  "hopper mma.m16n8k16.f16.f16.f16.f16"
mutant "FDRDA's round-down alignment made round-toward-zero" fast_fdrda.h 's/if (r == MMAREF_RD) {/if (0) {/' \
  "cdna3 v_mfma_f32_32x32x8_f16"
mutant "GDFS group g scaled by block g's factors (wrong where a block holds two groups)" fast_gdfs.h \
  's|const int s = g \* G / block;|const int s = g;|' "blackwell tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0"
mutant "AVX2's row loads: operand 2 of each group of 4 read as operand 0" lanes.h \
  's/out\[2\] = _mm256_permute2x128_si256(lo01, lo23, 0x31)/out[2] = _mm256_permute2x128_si256(lo01, lo23, 0x20)/' \
  "hopper mma.m16n8k16.f32.f16.f16.f32" avx2
mutant "SFMA: a NaN D kept as the host's FMA gives it, not left to the scalar model (its canonical NaN)" \
  fast_sfma.h 's/    return v_lt(v_splat(inf), (vi)(d \& (uint64_t)~(1ULL << (f->width - 1))));/    return v_splat(0);/' \
  "hopper mma.m16n8k16.f64.f64.f64.f64"
mutant "GPS on CDNA2: a subnormal binary32 product not flushed" fast_gps.h \
  's/            p\[k\] = gps_flush_result\(_pairs\)\?(p\[k\]);/            (void)0;/' "cdna2 v_mfma_f32_32x32x4bf16"
mutant "GFDRDA without its patch (C far below e_max rounded down, not toward zero)" fast_fdrda.h \
  's|if (grouped) /\* GFDRDA|if (0) /* GFDRDA|' "cdna3 v_mfma_f32_32x32x16_fp8_fp8"

# `mmaref batch` groups lines into batches: the same D's on every path, specials and the tail included
for cfg in "hopper mma.m16n8k16.f32.f16.f16.f32" "ampere mma.m16n8k16.f32.bf16.bf16.f32" \
           "rtx-blackwell mma.m16n8k32.block32.f32.e4m3.e4m3.f32.ue8m0" "volta mma.m8n8k4.f32.f16.f16.f16" \
           "cdna3 v_mfma_f32_32x32x8_f16" "cdna3 v_mfma_f32_16x16x8_xf32" \
           "rtx-blackwell mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3" "cdna3 v_mfma_f32_16x16x32_fp8_bf8" \
           "cdna2 v_mfma_f32_32x32x4bf16_1k" "hopper mma.m16n8k16.f64.f64.f64.f64"; do
  set -- $cfg
  "$MMAREF" gen "$1" "$2" --kind mixed --n 20003 --seed 5 >"$tmp/in.txt" 2>"$tmp/gen.err" ||
    { not_ok "batch CLI ($1 $2): mmaref gen failed: $(head -1 "$tmp/gen.err")"; continue; }
  MMAREF_SIMD=reference "$MMAREF" batch "$1" "$2" --threads 1 <"$tmp/in.txt" >"$tmp/want.txt"
  same=1
  for path in $simd_paths; do
    MMAREF_SIMD=$path "$MMAREF" batch "$1" "$2" <"$tmp/in.txt" >"$tmp/got.txt" 2>"$tmp/err.txt" || same=0
    cmp -s "$tmp/got.txt" "$tmp/want.txt" || { same=0; echo "# $path: $(diff "$tmp/got.txt" "$tmp/want.txt" | head -2 | tr '\n' ' ')$(head -1 "$tmp/err.txt")"; }
  done
  lines=$(wc -l <"$tmp/want.txt")
  if [[ $same == 1 && $lines == 20003 ]]; then ok "batch CLI ($1 $2): 20,003 mixed lines, the same D's on the ${simd_paths// /, } paths as on the reference"
  else not_ok "batch CLI ($1 $2): the paths differ ($lines lines)"; fi
done

expect_error "MMAREF_SIMD=bogus refused" "MMAREF_SIMD=bogus: SIMD path 'bogus': expected auto, reference, generic, avx2 or avx512" \
  env MMAREF_SIMD=bogus "$MMAREF" list hopper
# a path this CPU lacks: refused by name, nothing written
"$MMAREF" gen hopper mma.m16n8k16.f32.f16.f16.f32 --n 100 --seed 6 >"$tmp/in.txt"
for path in $simd_missing; do
  expect_error "MMAREF_SIMD=$path refused on a CPU without it" "MMAREF_SIMD=$path: SIMD path '$path': this CPU does not have it" \
    env MMAREF_SIMD=$path "$MMAREF" batch hopper mma.m16n8k16.f32.f16.f16.f32 <"$tmp/in.txt"
  [[ -z $(MMAREF_SIMD=$path "$MMAREF" batch hopper mma.m16n8k16.f32.f16.f16.f32 <"$tmp/in.txt" 2>/dev/null) ]] ||
    not_ok "MMAREF_SIMD=$path on a CPU without it wrote D's"
done
