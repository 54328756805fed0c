# mmaref gen: the library's stimulus generator (cmodel/src/gen.c) as TestFloat's testfloat_gen.  Lines in
# the format `mmaref batch` reads, determinism per (instruction, kind, seed, index), every kind on
# instructions of every operand family, the directed vectors' specials and labels, and the error paths.
# runtime: 29 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
M=$MMAREF
H16="hopper mma.m16n8k16.f32.f16.f16.f32"                               # FDA, K = 16, f16 A/B, f32 C
INSTRS=("$H16"
        "hopper mma.m16n8k16.f16.f16.f16.f16"                           # f16 D (the f16 ties)
        "ampere mma.m16n8k4.f32.tf32.tf32.f32"                          # TF32: ignored low bits
        "hopper mma.m16n8k8.f64.f64.f64.f64"                            # 64-bit fields
        "volta mma.m8n8k4.f32.f16.f16.f16"                              # f16 C
        "hopper wgmma.m64n8k32.f16.e5m2.e4m3"                           # FP8, K = 32
        "cdna3 v_mfma_f32_16x16x32_fp8_bf8"                             # FNUZ formats
        "rtx-blackwell mma.m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0"    # GDFS, 2 UE8M0 scales per operand
        "blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3")  # GDFS, 4 UE4M3 scales
KINDS="raw cluster cancel special extreme directed random mixed rule"

# fields ARCH INSTR: fields per line (C, K A, K B, scales)
fields() {
  "$M" list --json "$1" | python3 -c '
import json, sys
i = next(i for i in json.load(sys.stdin) if i["name"] == sys.argv[1])
ns = i["k"] // i["block_size"] if i["block_size"] else 0
print(1 + 2 * i["k"] + 2 * ns)' "$2"
}

# --- every kind on every instruction: N lines, each with the right field count, each accepted by batch
for ins in "${INSTRS[@]}"; do
  want=$(fields $ins) bad=
  for kind in $KINDS; do
    "$M" gen $ins --kind "$kind" --n 300 --seed 5 >"$tmp/v" 2>"$tmp/err" || { bad+=" $kind(exit $?: $(head -1 "$tmp/err"))"; continue; }
    n=$(wc -l <"$tmp/v") nf=$(awk '{print NF}' "$tmp/v" | sort -u | tr '\n' ' ')
    [[ $n == 300 && $nf == "$want " ]] || { bad+=" $kind($n lines, fields '$nf', wanted 300 and $want)"; continue; }
    "$M" batch $ins <"$tmp/v" >"$tmp/d" 2>"$tmp/err" && [[ $(wc -l <"$tmp/d") == 300 ]] ||
      bad+=" $kind(batch: $(head -1 "$tmp/err"))"
  done
  [[ -z $bad ]] && ok "gen $ins: every kind gives 300 lines of $want fields that batch reads" ||
    not_ok "gen $ins:$bad"
done

# --- determinism: the same seed gives the same bytes; another seed other random vectors (the directed
#     ones do not depend on the seed).  The mixed stream of single vectors: of each four lines, three of
#     the directed-then-random stream and a rule vector (mmaref_gen_mixed_at); N: the directed vectors
#     and about 2000 random ones among the three, R of them
nd=$("$M" gen $H16 --kind directed | wc -l)
R=$(( (nd + 2000 + 2) / 3 * 3 )); N=$(( R / 3 * 4 ))
others() { awk 'NR % 4 != 0' "$1"; }   # the directed-then-random lines of a mixed file
rules() { awk 'NR % 4 == 0' "$1"; }    # its rule vectors
"$M" gen $H16 --n $N --seed 9 >"$tmp/a"; "$M" gen $H16 --n $N --seed 9 >"$tmp/b"
"$M" gen $H16 --n $N --seed 10 >"$tmp/c"
cmp -s "$tmp/a" "$tmp/b" && ok "same seed, same bytes ($N mixed vectors)" || not_ok "seed 9 twice gave different output"
same_dir=$(cmp -s <(others "$tmp/a" | head -n "$nd") <(others "$tmp/c" | head -n "$nd") && echo 1)
differ=$(paste -d'|' <(others "$tmp/a" | tail -n +$((nd + 1))) <(others "$tmp/c" | tail -n +$((nd + 1))) | awk -F'|' '$1 != $2' | wc -l)
[[ $same_dir == 1 && $differ -ge $((R - nd - 5)) ]] &&
  ok "another seed: the $nd directed vectors alike, $differ of $((R - nd)) random ones differ" ||
  not_ok "seeds 9 and 10: directed alike=${same_dir:-0}, random differing $differ of $((R - nd))"

# --- any vector regenerates alone: --first I --n 1 is line I of the stream, directed, random and rule
ok_first=1
for i in 0 3 $((nd - 1)) $nd $((nd + 1500)) $((N - 1)); do
  [[ $("$M" gen $H16 --seed 9 --first $i --n 1) == "$(sed -n "$((i + 1))p" "$tmp/a")" ]] || ok_first=0
done
[[ $ok_first == 1 ]] && ok "--first I --n 1 regenerates line I (directed, random and rule vectors)" || not_ok "--first does not match the stream"

# --- mixed = every directed vector, then the random stream at the same indices, every fourth line a
#     rule vector (the rule kind's stream in order)
cmp -s <(others "$tmp/a" | head -n "$nd") <("$M" gen $H16 --kind directed) &&
cmp -s <(others "$tmp/a" | tail -n +$((nd + 1))) <("$M" gen $H16 --kind random --seed 9 --first "$nd" --n $((R - nd))) &&
cmp -s <(rules "$tmp/a") <("$M" gen $H16 --kind rule --seed 9 --n $((N / 4))) &&
  ok "mixed = the $nd directed vectors, then random ones, every fourth line a rule vector" ||
  not_ok "mixed is not directed + random with rule vectors"

# --- gen | batch writes the D's; --with-d appends them; batch --check accepts its own
"$M" gen $H16 --n $N --seed 9 --with-d >"$tmp/wd"
"$M" batch $H16 <"$tmp/a" | sed 's/^0x//' >"$tmp/d"
if cmp -s <(awk '{print $NF}' "$tmp/wd") "$tmp/d" && cmp -s <(awk '{NF--; print}' "$tmp/wd") "$tmp/a"; then
  ok "--with-d appends the D that gen | batch writes"
else not_ok "--with-d: D column differs from gen | batch, or the operands differ"; fi
for ins in "${INSTRS[@]}"; do
  out=$("$M" gen $ins --n 2000 --seed 3 --with-d | "$M" batch $ins --check | tail -n 1)
  [[ $out == *": 2000 passed, 0 failed" ]] && ok "gen --with-d | batch --check: $ins" || not_ok "gen | batch --check $ins: '$out'"
done

# --- directed vectors (hopper f16, K = 16, F = 25): +inf, -inf and NaN on every A lane; C = +-inf and
#     NaN; mma-sim's precision probes 1 + 2^-t for t = 0..F+4; alignment shifts 1.75 * 2^-s for s = 0..F+3
#     against C = 1 + 2^-10; block scales: every scale slot NaN; f16 D: the overflow-boundary ties
"$M" gen $H16 --kind directed >"$tmp/dir"
"$M" gen hopper mma.m16n8k16.f16.f16.f16.f16 --kind directed >"$tmp/dir16"
"$M" gen rtx-blackwell mma.m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0 --kind directed >"$tmp/dirsc"
python3 - "$tmp/dir" "$tmp/dir16" "$tmp/dirsc" >"$tmp/dircheck" <<'PY'
import struct, sys
def f16(h):
    v = int(h, 16); s, e, m = v >> 15, v >> 10 & 31, v & 1023
    x = float("inf") if e == 31 and not m else float("nan") if e == 31 else (m / 1024 + (e > 0)) * 2.0 ** (max(e, 1) - 15)
    return -x if s else x
f32 = lambda h: struct.unpack(">f", bytes.fromhex(h))[0]
rows = [l.split() for l in open(sys.argv[1])]
lanes = sum(all(any(r[1 + k] == v for r in rows) for v in ("7c00", "fc00", "7fff")) for k in range(16))
cs = {r[0] for r in rows} & {"7f800000", "ff800000", "7fffffff"}
prods = [(f32(r[0]), sorted((f16(r[1 + k]) * f16(r[17 + k]) for k in range(16)), key=abs)) for r in rows]
probe = sum(any(c == 0 and p[-1] == 1 and p[-2] == 2.0 ** -t and not any(p[:-2]) for c, p in prods) for t in range(30))
shift = sum(any(c == 1 + 2 ** -10 and p[-1] == s * 1.75 * 2.0 ** -t and not any(p[:-1]) for c, p in prods)
            for t in range(29) for s in (1, -1))
ties = {r[0] for r in (l.split() for l in open(sys.argv[2]))} & {"7bff", "7bfe"}
nan_scales = sum(any(l.split()[f] == "ff" for l in open(sys.argv[3])) for f in range(129, 133))
print(lanes, len(cs), probe, shift, len(ties), nan_scales)
PY
read -r lanes cs probe shift ties nan_scales <"$tmp/dircheck"
[[ $lanes == 16 && $cs == 3 ]] && ok "directed: +inf, -inf and NaN on each of the 16 A lanes; C = +-inf and NaN" ||
  not_ok "directed specials: $lanes of 16 lanes have +inf, -inf and NaN; $cs of 3 C specials"
[[ $probe == 30 ]] && ok "directed: the precision probes 1 + 2^-t, t = 0..29 (F + 4)" || not_ok "directed: $probe of 30 precision probes"
[[ $shift == 58 ]] && ok "directed: alignment shifts +-1.75 * 2^-s against C = 1 + 2^-10, s = 0..28 (F + 3)" ||
  not_ok "directed: $shift of 58 alignment shifts"
[[ $ties == 2 ]] && ok "directed (f16 D): the overflow-boundary ties (C = 65504, 65472)" || not_ok "directed f16 D: $ties of 2 tie C values"
[[ $nan_scales == 4 ]] && ok "directed (block scales): every scale slot of SA and SB is NaN in some vector" ||
  not_ok "directed scales: $nan_scales of 4 scale fields ever NaN"

# --- the IEEE FMA corners head an SFMA instruction's directed vectors (cmodel/src/gen_ieee.c), addressed by
#     index: vector i of the class cross product is (a, b, c) = (v[i/676], v[i/26 % 26], v[i % 26]) over
#     26 values (13 classes, + then -), on lane i % K, every other lane -0 * +0.  Vector 0: +0 * +0 + +0 on
#     lane 0; vector 17,575 (the last): -sNaN * -sNaN + -sNaN on lane 3 (sNaN = inf | 1 = 0x7ff0000000000001)
F64="hopper mma.m8n8k4.f64.f64.f64.f64" z=0000000000000000 m=8000000000000000 s=fff0000000000001
want0="$z $z $m $m $m $z $z $z $z" want1="$s $m $m $m $s $z $z $z $s"
got0=$("$M" gen $F64 --kind directed --n 1) got1=$("$M" gen $F64 --kind directed --n 1 --first 17575)
[[ $got0 == "$want0" && $got1 == "$want1" ]] && ok "directed (SFMA f64): the IEEE class cross product heads the stream, vector 17,575 = -sNaN * -sNaN + -sNaN on lane 3" ||
  not_ok "directed SFMA corners: vector 0 '$got0' (want '$want0'), vector 17575 '$got1' (want '$want1')"
n64=$("$M" gen $F64 --kind directed | wc -l)
(( n64 > 26936 )) && ok "directed (SFMA f64): $n64 vectors (26,936 one-FMA IEEE corners among them)" ||
  not_ok "directed (SFMA f64): only $n64 vectors"
# ... and the FDRDA corners an AMD CDNA3 one's: first, the paper's asymmetry (section VI-C)
# 2048 * 2048 - 2048 * 2048 + c with c = RN_f32(-1e-6) = 0xb58637bd, f16 2048 = 0x6800, -2048 = 0xe800
got=$("$M" gen cdna3 v_mfma_f32_32x32x8_f16 --kind directed --n 1)
want="b58637bd 6800 6800 0000 0000 0000 0000 0000 0000 6800 e800 0000 0000 0000 0000 0000 0000"
[[ $got == "$want" ]] && ok "directed (CDNA3 FDRDA): the paper's 2048 * 2048 - 2048 * 2048 - 1e-6 heads the stream" ||
  not_ok "directed CDNA3: vector 0 '$got', want '$want'"

# --- what each directed vector asks (mmaref_gen_directed_label, the probe's labels): tests/api/gen_labels.c
#     checks the labels and the papers' experiments among the directed vectors of Hopper f16
root=$(cd "$(dirname "$0")/.." && pwd)
if ${MMAREF_API_CC:-cc} -std=gnu11 -O1 -Wall -Wextra -Werror -I"$root/cmodel/include" -o "$tmp/gen_labels" \
     "$root/tests/api/gen_labels.c" "${MMAREF_LIB:-$root/build/libmmaref.a}" -lm 2>"$tmp/cc.log"; then
  "$tmp/gen_labels" || not_ok "tests/api/gen_labels.c exited with status $?"
else not_ok "tests/api/gen_labels.c does not build: $(head -3 "$tmp/cc.log")"; fi

# --- the directed stream from several threads at once (tests/api/gen_threads.c: the layout kept per
#     instruction, cmodel/src/instr_memo.c): the same as one thread's, also under ThreadSanitizer (the
#     library's sources built with -fsanitize=thread; not again under t_model_sanitize's build)
if ${MMAREF_API_CC:-cc} -std=gnu11 -O1 -Wall -Wextra -Werror -I"$root/cmodel/include" -I"$root/tests/api" \
     -o "$tmp/gen_threads" "$root/tests/api/gen_threads.c" "${MMAREF_LIB:-$root/build/libmmaref.a}" -lm -pthread \
     2>"$tmp/cc.log"; then
  "$tmp/gen_threads" serial >"$tmp/serial" || not_ok "tests/api/gen_threads.c serial exited with status $?"
  "$tmp/gen_threads" threads >"$tmp/threads" || not_ok "tests/api/gen_threads.c threads exited with status $?"
  grep '^\(not \)\?ok - ' "$tmp/serial" "$tmp/threads" | cut -d: -f2-
  streams() { grep -v '^\(not \)\?ok - ' "$1"; }
  if [[ -n $(streams "$tmp/serial") ]] && cmp -s <(streams "$tmp/serial") <(streams "$tmp/threads"); then
    ok "gen: the directed streams drawn by 4 threads at once are those drawn by one ($(streams "$tmp/serial" | wc -l) configurations)"
  else not_ok "gen: threads drew other directed streams than one thread: $(diff <(streams "$tmp/serial") <(streams "$tmp/threads") | head -2 | tr '\n' ' ')"; fi
  if [[ -z ${MMAREF_SANITIZED:-} ]]; then
    if gcc -std=gnu11 -O1 -g -fsanitize=thread -I"$root/cmodel/include" -I"$root/tests/api" -o "$tmp/gen_threads_tsan" \
         "$root/tests/api/gen_threads.c" "$root"/cmodel/src/*.c -lm -pthread 2>"$tmp/cc.log"; then
      TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$tmp/gen_threads_tsan" threads >"$tmp/tsan" 2>"$tmp/tsan.err"; rc=$?
      if [[ $rc -eq 0 ]] && ! grep -q ThreadSanitizer "$tmp/tsan.err" && cmp -s <(streams "$tmp/serial") <(streams "$tmp/tsan"); then
        ok "gen: 4 threads under ThreadSanitizer: no report, the same directed streams"
      else not_ok "gen threads under ThreadSanitizer: rc=$rc $(grep -m3 'WARNING\|SUMMARY' "$tmp/tsan.err" | tr '\n' ' ')"; fi
    else not_ok "tests/api/gen_threads.c under ThreadSanitizer does not build: $(head -3 "$tmp/cc.log")"; fi
  fi
else not_ok "tests/api/gen_threads.c does not build: $(head -3 "$tmp/cc.log")"; fi

# --- kinds keep their promises (TF32: raw sets the ignored low 13 bits, no other kind does; cancel
#     mirrors lane pairs; special puts specials in)
TF="ampere mma.m16n8k4.f32.tf32.tf32.f32"
for kind in raw cluster cancel special extreme; do "$M" gen $TF --kind $kind --n 500 >"$tmp/tf.$kind"; done
"$M" gen $H16 --kind cancel --n 400 >"$tmp/cancel"
"$M" gen $H16 --kind special --n 400 >"$tmp/special"
python3 - "$tmp" >"$tmp/kinds" <<'PY'
import sys
d = sys.argv[1]
rows = lambda f: [[int(x, 16) for x in l.split()] for l in open(f"{d}/{f}")]
# special may draw the three TF32 patterns whose low bits matter (an f32 NaN that is +inf, an f32
# subnormal that is +0, 1 + 2^-23 (2^13 - 1) that is 1) and the model's canonical NaN 0x7fffffff
step0 = {0x7f800001, 0x00001fff, 0x3f801fff, 0x7fffffff}
low = [sum(1 for r in rows(f"tf.{k}") for x in r[1:9] if x & 0x1fff and not (k == "special" and x in step0))
       for k in ("raw", "cluster", "cancel", "special", "extreme")]
mirrored = sum(sum(r[1 + k] ^ r[2 + k] == 0x8000 and r[17 + k] == r[18 + k] for k in range(0, 16, 2)) >= 7 for r in rows("cancel"))
special = lambda x: x & 0x7c00 in (0, 0x7c00) or x & 0x7fff in (0x3c00, 0x0400, 0x7bff)  # or +-1, min normal, max
spec = sum(any(special(x) for x in r[1:33]) for r in rows("special"))
print(" ".join(map(str, low)), mirrored, spec)
PY
read -r lraw lcl lca lsp lex mirrored sp <"$tmp/kinds"
[[ $lraw -gt 0 && $lcl == 0 && $lca == 0 && $lsp == 0 && $lex == 0 ]] &&
  ok "tf32: raw sets the ignored low bits ($lraw operands), the other kinds only in special's Step 0 patterns" ||
  not_ok "tf32 low bits: raw $lraw, cluster $lcl, cancel $lca, special $lsp, extreme $lex"
[[ $mirrored == 400 ]] && ok "cancel: every vector has 7 or 8 of its 8 lane pairs a, -a with equal b" ||
  not_ok "cancel: $mirrored of 400 vectors mirrored"
[[ $sp == 400 ]] && ok "special: every vector has a special operand (inf, NaN, zero, subnormal, +-1, extremes)" ||
  not_ok "special: only $sp of 400 vectors have a special operand"

# --- errors: one line naming the bad input, exit 2
expect_error "gen: unknown kind" "--kind 'noise' is not one of raw, cluster" "$M" gen $H16 --kind noise
expect_error "gen: negative --n" "--n '-3' is not a non-negative integer" "$M" gen $H16 --n -3
expect_error "gen: bad --seed" "--seed 'x1' is not a non-negative integer" "$M" gen $H16 --seed x1
expect_error "gen: bad --first" "--first '1.5' is not a non-negative integer" "$M" gen $H16 --first 1.5
expect_error "gen: option without value" "--n needs a value" "$M" gen $H16 --n
expect_error "gen: unknown option" "unknown option '--count'" "$M" gen $H16 --count 3
expect_error "gen: unknown instruction" "hopper has no instruction 'mma.nope'" "$M" gen hopper mma.nope
expect_error "gen: unknown architecture" "unknown architecture 'pascal'" "$M" gen pascal mma.m16n8k16.f32.f16.f16.f32
expect_error "gen: missing instruction" "needs ARCH and INSTRUCTION" "$M" gen hopper
expect_error "gen: extra argument" "unexpected argument 'x'" "$M" gen $H16 x
# --k: the naive FP32 unit's configuration runs M3XU's FP32 instruction (K = 4) with K = 8.  Its first
# directed vector at K = 8, by hand: A0 = 1 + 2^-23, A1 = -1, B0 = 1 + 2^-22, B1 = 1, the rest 0, C = 0:
# A0 B0 + A1 B1 = 2^-23 + 2^-22 + 2^-45 = 1.5 * 2^-22 + 2^-45, exact in f32 (24 bits from 2^-22 to 2^-45):
# 0x34c00001.  The line holds C, 8 A, 8 B and D.
F32=(m3xu m3xu.m8n4k4.f32.f32.f32.f32)
read -r -a f <<<"$("$M" gen "${F32[@]}" --k 8 --n 1 --with-d)"
if [[ ${#f[@]} == 18 && ${f[1]} == 3f800001 && ${f[2]} == bf800000 && ${f[9]} == 3f800002 && ${f[10]} == 3f800000 \
      && ${f[17]} == 34c00001 ]]
then ok "gen --k 8: 8 lanes of A and B, D = 0x34c00001 (hand-derived)"
else not_ok "gen --k 8: ${f[*]}"; fi
[[ $("$M" gen ada mma.m16n8k32.f32.e4m3.e4m3.f32 --k 32 --n 3 | md5sum) == $("$M" gen ada mma.m16n8k32.f32.e4m3.e4m3.f32 --n 3 | md5sum) ]] \
  && ok "gen --k 32 on a two-pass K = 32 instruction: its own K, the same lines" || not_ok "gen --k 32 on Ada's two-pass K = 32 changed the lines"
expect_error "gen: --k on a two-pass instruction" "--k 16: mma.m16n8k32.f32.e4m3.e4m3.f32: 2 passes: K = 16 runs only on a one-pass instruction" \
  "$M" gen ada mma.m16n8k32.f32.e4m3.e4m3.f32 --k 16
expect_error "gen: --k 0" "--k 0 is outside 1..64" "$M" gen "${F32[@]}" --k 0
expect_error "gen: --k past the model's K" "--k 65 is outside 1..64" "$M" gen "${F32[@]}" --k 65
expect_error "gen: --k a block size does not divide" "--k 20: " "$M" gen blackwell tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0 --k 20
for rc_case in "--kind noise" "--n -3"; do
  "$M" gen $H16 $rc_case >/dev/null 2>&1; rc=$?
  [[ $rc == 2 ]] && ok "gen $rc_case exits 2" || not_ok "gen $rc_case exits $rc"
done
[[ -z $("$M" gen $H16 --n 0) ]] && ok "gen --n 0 writes nothing" || not_ok "gen --n 0 wrote lines"
# Output errors: the first failed write ends the run, however many lines were asked for: a full disk with
# one line and exit 2, a reader that has gone (a closed pipe) quietly by SIGPIPE (141), as it ends cat.
if [[ -w /dev/full ]]; then
  err=$(timeout 20 "$M" gen $H16 --n 18446744073709551615 2>&1 >/dev/full); rc=$?
  [[ $rc -eq 2 && $err == "mmaref: gen: error writing standard output: No space left on device" ]] \
    && ok "gen --n 2^64-1 > /dev/full: stops at the first write error, one line, exit 2" \
    || not_ok "gen > /dev/full: rc=$rc err='$err'"
fi
out=$(set -o pipefail; timeout 20 "$M" gen $H16 --n 1000000 2>"$tmp/pipe.err" | head -1); rc=$?
[[ $rc -eq 141 && -n $out && ! -s $tmp/pipe.err ]] \
  && ok "gen | head -1: a closed pipe ends gen by SIGPIPE (141), nothing on stderr" || not_ok "gen | head -1: rc=$rc err='$(cat "$tmp/pipe.err")'"
timeout 20 "$M" gen $H16 --n 18446744073709551615 2>"$tmp/gen.err" | timeout 20 "$M" batch $H16 2>"$tmp/pipe.err" | head -1 >/dev/null
st=("${PIPESTATUS[@]}")
[[ ${st[0]} -eq 141 && ${st[1]} -eq 141 && ! -s $tmp/pipe.err && ! -s $tmp/gen.err ]] \
  && ok "gen | batch | head -1: batch stops at its closed pipe (SIGPIPE), then gen at its own, quietly" || not_ok "gen | batch | head: ${st[*]} '$(cat "$tmp/pipe.err" "$tmp/gen.err" | tr '\n' ' ')'"
