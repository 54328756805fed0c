# mmaref probe: recovers every distinct configuration of the table from the model, names the difference
# of deliberately different devices, gives the same report through the pipe and offline, and refuses
# bad input with one line.
# runtime: 45 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
LIB=${MMAREF_LIB:-build/libmmaref.a}
API_CC=${MMAREF_API_CC:-cc}
PY=${PYTHON:-python3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# 1. Every distinct configuration of `mmaref list --json` (formats, K, scales, schedule), probed on the
#    model with 10,000 confirmation vectors each (the default 100,000 for one below: time).
"$PY" tests/probe/sweep.py "$MMAREF" 10000

# The sign-of-zero question in each format family, with the format's own zero (encodings by hand: f16 -0
# 0x8000; e4m3 (FN: a -0, no infinity) -0 0x80; e4m3fnuz (FNUZ: one zero, 0x80 its NaN) -1.0 0xc0, sign 1,
# exponent field 8 = its bias, mantissa 0): C = -0 (f32 0x80000000) and every product a negative zero --
# -0 x +0 where A has a -0, +0 x -1 where it has none -- and never a lane of NaN standing for a zero.
zero_row() {  # zero_row FAMILY A-FORMAT A-LANE B-LANE: the query row C = -0, 4 lanes of A-LANE, 4 of B-LANE
  local q=$tmp/q-$1.txt want
  "$MMAREF" probe --formats "$2,$2,f32,f32" --k 4 --confirm 0 --queries "$q" >/dev/null 2>&1
  want="0x80000000 $3 $3 $3 $3 $4 $4 $4 $4"
  if grep -qx "$want" "$q"; then ok "probe $1 ($2): the sign-of-zero query '$want'"
  else not_ok "probe $1 ($2): no query '$want'"; fi
}
zero_row IEEE f16 0x8000 0x0000
zero_row FN e4m3 0x80 0x00
zero_row FNUZ e4m3fnuz 0x00 0xc0
if ! grep -q "^0x80000000 0x80 0x80 0x80 0x80 " "$tmp/q-FNUZ.txt"; then ok "probe FNUZ: no sign-of-zero query with NaN (0x80) lanes"
else not_ok "probe FNUZ: a query with every A lane 0x80 (e4m3fnuz's NaN) asks a NaN question as a zero's"; fi

HOP=(hopper wgmma.m64n128k16.f32.f16.f16)
"$MMAREF" probe "${HOP[@]}" >"$tmp/model.txt"; rc=$?
if [[ $rc -eq 0 ]] && grep -q '^verdict: matches the table (confirmed on 100000 random vectors)' "$tmp/model.txt" \
   && grep -q '^  match: hopper ' "$tmp/model.txt"; then ok "probe ${HOP[*]}: match confirmed on 100000 vectors"
else not_ok "probe ${HOP[*]}: rc=$rc, $(grep '^verdict' "$tmp/model.txt")"; fi

# Findings carry the experiment that showed them: the paper's alignment ladder rejects F +- 1 (Hopper
# F = 25) and CDNA3's round-down C against RZ (the zero-term query); CDNA2 GPS rounds its products and flushes subnormals.
finding() {  # finding WHAT FILE VALUE_LINE REJECTED_LINE LABEL: REJECTED_LINE after VALUE_LINE, its query labelled LABEL
  if awk -v v="$3" -v r="$4" -v l="$5" '$0 ~ "^  " v {f=1; next} /^  [a-z]/ {f=0} f && index($0, r) {g=1; next}
       g && index($0, "[" l) {ok=1} g {g=0} END {exit !ok}' "$2"; then ok "$1"
  else not_ok "$1: no '$4' under '$3' citing a '$5' query in $(basename "$2")"; fi
}
# the zero-term exponent: Hopper's -133 against a zero operand's own (0), on FP8 wgmma (f32 C), where only
# a zero product with a large factor beside a tiny C tells them apart; Ampere keeps the convention
"$MMAREF" probe hopper wgmma.m64n8k32.f32.e4m3.e4m3 --confirm 1000 >"$tmp/fp8.txt"
finding "hopper FP8 wgmma: zero_term_exp = -133, 0 rejected by the zero term query" "$tmp/fp8.txt" "zero_term_exp = -133" "zero_term_exp = 0 rejected" "zero term"
"$MMAREF" probe ampere mma.m16n8k16.f32.f16.f16.f32 --confirm 1000 >"$tmp/amp.txt"
finding "ampere f16: zero_term_exp = 0, -133 rejected by the zero term query" "$tmp/amp.txt" "zero_term_exp = 0" "zero_term_exp = -133 rejected" "zero term"
finding "hopper F = 25: F = 24 rejected by an alignment ladder query" "$tmp/model.txt" "frac_bits = 25" "frac_bits = 24 rejected" "alignment ladder"
finding "hopper F = 25: F = 26 rejected by an alignment ladder query" "$tmp/model.txt" "frac_bits = 25" "frac_bits = 26 rejected" "alignment ladder"
"$MMAREF" probe cdna3 v_mfma_f32_32x32x8_f16 --confirm 1000 >"$tmp/cdna3.txt"
# (the first query that shows it is the zero-term one: its C, a negative subnormal below the grid of the
# zero products' e_max, rounds down to a larger magnitude than it truncates)
finding "cdna3 FDRDA: C rounded down, RZ rejected by the zero term query" "$tmp/cdna3.txt" "align_c = rd" "align_c = rz rejected" "zero term"
"$MMAREF" probe cdna2 v_mfma_f32_32x32x8f16 --confirm 1000 >"$tmp/cdna2.txt"
finding "cdna2 GPS: flushing shown by a zero-sign or subnormal query" "$tmp/cdna2.txt" "flush = 1" "flush = 0 rejected" "s"
if grep -q '^  products: rounded to FP32' "$tmp/cdna2.txt" && grep -q '^  group = 4' "$tmp/cdna2.txt"; then
  ok "cdna2 GPS: products rounded, groups of 4"; else not_ok "cdna2 GPS findings: $(grep -E '^  (products|group)' "$tmp/cdna2.txt")"; fi

# 2. Through the pipe and offline: the same report as probing the instruction (only the device line differs).
"$MMAREF" probe --formats f16,f16,f32,f32 --k 16 -- "$MMAREF" batch "${HOP[@]}" >"$tmp/pipe.txt"; rc=$?
if [[ $rc -eq 0 ]] && diff <(tail -n +2 "$tmp/model.txt") <(tail -n +2 "$tmp/pipe.txt") >"$tmp/d1"; then
  ok "probe -- mmaref batch ${HOP[*]}: the same report as probe ${HOP[*]}"
else not_ok "pipe report differs (rc=$rc): $(head -5 "$tmp/d1")"; fi
"$MMAREF" probe --formats f16,f16,f32,f32 --k 16 --queries "$tmp/q.txt" >/dev/null \
  && "$MMAREF" batch "${HOP[@]}" <"$tmp/q.txt" >"$tmp/d.txt" \
  && "$MMAREF" probe --formats f16,f16,f32,f32 --k 16 --results "$tmp/d.txt" >"$tmp/off.txt"; rc=$?
if [[ $rc -eq 0 ]] && diff <(tail -n +2 "$tmp/model.txt") <(tail -n +2 "$tmp/off.txt") >"$tmp/d2"; then
  ok "probe --queries / --results round trip: the same report ($(wc -l <"$tmp/q.txt") queries)"
else not_ok "offline report differs (rc=$rc): $(head -5 "$tmp/d2")"; fi

BW=(blackwell tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0)   # GDFS, block scales
"$MMAREF" probe "${BW[@]}" --confirm 10000 >"$tmp/bw_model.txt"
"$MMAREF" probe --formats e2m1,e2m1,f32,f32 --k 64 --scales ue8m0:32 --confirm 10000 -- "$MMAREF" batch "${BW[@]}" >"$tmp/bw_pipe.txt"; rc=$?
if [[ $rc -eq 0 ]] && diff <(tail -n +2 "$tmp/bw_model.txt") <(tail -n +2 "$tmp/bw_pipe.txt") >"$tmp/d3"; then
  ok "probe --scales ue8m0:32 -- mmaref batch ${BW[*]}: the same report as probe ${BW[*]}"
else not_ok "scaled pipe report differs (rc=$rc): $(head -5 "$tmp/d3")"; fi

# 3. Deliberately different devices (tests/api/probe_dut.c): the probe names the difference.
if $API_CC -std=c11 -Wall -Wextra -Werror -Icmodel/include -o "$tmp/dut" tests/api/probe_dut.c "$LIB" -lm 2>"$tmp/cc.log"; then
  AMP=(ampere mma.m16n8k8.f32.f16.f16.f32)   # FDA, F = 24, f32-rz, K = 8
  while read -r how want; do
    "$MMAREF" probe --formats f16,f16,f32,f32 --k 8 -- "$tmp/dut" "${AMP[@]}" "$how" >"$tmp/dut.txt"; rc=$?
    if [[ $rc -eq 1 ]] && grep -qF "  reason: $want" "$tmp/dut.txt" && grep -q '^  nearest: ' "$tmp/dut.txt"; then
      ok "device ${AMP[*]} changed ($how): probe names '$want'"
    else not_ok "device $how: rc=$rc, $(grep -E '^verdict|reason' "$tmp/dut.txt" | tr '\n' ' ')"; fi
  done <<'LIST'
f-1 frac_bits = 23 on the device, 24 in the table
rne out = f32-rne on the device, f32-rz in the table
chain passes = 8 on the device, 1 in the table
kulisch frac_bits = 40 on the device,
LIST
  "$MMAREF" probe --formats f16,f16,f32,f32 --k 8 -- "$tmp/dut" "${AMP[@]}" same >"$tmp/same.txt"; rc=$?
  if [[ $rc -eq 0 ]] && grep -q "^  match: ampere ${AMP[1]}" "$tmp/same.txt"; then ok "unchanged device: matches ${AMP[*]}"
  else not_ok "unchanged device: rc=$rc $(grep '^verdict' "$tmp/same.txt")"; fi
else
  not_ok "tests/api/probe_dut.c does not build: $(head -3 "$tmp/cc.log")"
fi

# 3b. A device that is the model except on a few answers (flip_d: D's low bit flipped on
#     chosen lines of its output).  Past the battery (a rounder that sees too few bits of the sum fails
#     rare vectors): it matches the battery as its instruction's schedule, fails exactly the corrupted
#     confirmation vectors, the first of them shown as a batch line with both D's, and is no match.
#     Inside the battery: no schedule survives, and the closest is the model's, wrong only there.
BWQ=(rtx-blackwell mma.m16n8k32.f32.e4m3.e4m3.f32)   # FDA, F = 25, f32-rz
BWQ_F=(--formats e4m3,e4m3,f32,f32 --k 32)
cat >"$tmp/flip_d" <<'SH'
#!/bin/sh
# flip_d LINES COMMAND...: COMMAND's output, the low bit of the hex D flipped on the (1-based) LINES
lines=$1; shift
"$@" | awk -v L="$lines" 'BEGIN { n = split(L, v, ","); for (i = 1; i <= n; i++) f[v[i]] = 1; x = "0123456789abcdef" }
  NR in f { d = index(x, substr($1, length($1), 1)) - 1; $1 = substr($1, 1, length($1) - 1) substr(x, d + 1 - d % 2 * 2 + 1, 1) }
  { print }'
SH
chmod +x "$tmp/flip_d"
"$MMAREF" probe "${BWQ_F[@]}" --confirm 0 --queries "$tmp/bq0.txt" >/dev/null
nb=$(wc -l <"$tmp/bq0.txt")   # the battery
"$MMAREF" probe "${BWQ_F[@]}" --confirm 1000 --queries "$tmp/bq.txt" >/dev/null
"$MMAREF" batch "${BWQ[@]}" <"$tmp/bq.txt" >"$tmp/bd.txt"
bad="$((nb + 5)),$((nb + 321)),$((nb + 999))"   # 1-based lines: confirmation vectors 4, 320, 998
"$MMAREF" probe "${BWQ_F[@]}" --confirm 1000 -- "$tmp/flip_d" "$bad" "$MMAREF" batch "${BWQ[@]}" >"$tmp/near.txt"; rc=$?
want_line=$(sed -n "$((nb + 5))p" "$tmp/bq.txt") model_d=$(sed -n "$((nb + 5))p" "$tmp/bd.txt")
device_d=$(sed -n "$((nb + 5))p" "$tmp/bd.txt" | "$tmp/flip_d" 1 cat)
if [[ $rc -eq 1 && $model_d != "$device_d" ]] &&
   grep -qF "verdict: no match: agrees with all $nb battery queries as FDA(F=25,f32-rz), but fails 3 of 1000 confirmation vectors" "$tmp/near.txt" &&
   grep -qxF "  battery match: ${BWQ[*]}" "$tmp/near.txt" &&
   grep -A2 '^  first failing confirmation vector:' "$tmp/near.txt" | grep -qxF "      query #$((nb + 4)) [confirmation (random stream)]: $want_line" &&
   grep -A2 '^  first failing confirmation vector:' "$tmp/near.txt" | grep -q "^      device $device_d (.*), model $model_d ("; then
  ok "device ${BWQ[*]} wrong on 3 confirmation vectors: matches the battery ($nb queries), fails 3 of 1000, the first shown"
else not_ok "near-miss device: rc=$rc, $(sed -n '/^verdict/,$p' "$tmp/near.txt" | cut -c1-160 | tr '\n' '|')"; fi
"$MMAREF" probe "${BWQ_F[@]}" --confirm 1000 -- "$tmp/flip_d" "3,$((nb / 2)),$((nb - 1))" "$MMAREF" batch "${BWQ[@]}" >"$tmp/far.txt"; rc=$?
if [[ $rc -eq 1 ]] && grep -q '^  closest: FDA \[{"algo": "FDA", "k_first": 0, "k_count": 32, "frac_bits": 25, .*"out": "f32-rz".*}\]$' "$tmp/far.txt" &&
   grep -qxF "  it agrees with $((nb - 3)) of the $nb battery queries; it differs on:" "$tmp/far.txt"; then
  ok "device ${BWQ[*]} wrong on 3 battery queries: the closest schedule is its own, agreeing with $((nb - 3)) of $nb"
else not_ok "battery-miss device: rc=$rc, $(grep -E '^  (closest|it agrees)' "$tmp/far.txt" | cut -c1-160 | tr '\n' '|')"; fi

# 4. Bad input: one line naming it, non-zero exit.
F=(--formats f16,f16,f32,f32 --k 16)
expect_error "unknown format" "unknown format 'f17'" "$MMAREF" probe --formats f16,f17,f32,f32 --k 16 -- cat
expect_error "K out of range" "--k '65' is not in 1..64" "$MMAREF" probe --formats f16,f16,f32,f32 --k 65 -- cat
expect_error "three formats" "is not four formats" "$MMAREF" probe --formats f16,f16,f32 --k 16 -- cat
expect_error "no device" "give exactly one device" "$MMAREF" probe "${F[@]}"
expect_error "'--' without a command" "'--' needs a COMMAND" "$MMAREF" probe "${F[@]}" --
expect_error "no schedule for the formats" "has no schedule for" "$MMAREF" probe --formats f64,f16,f32,f32 --k 4 -- cat
expect_error "device exits non-zero" "exited with status 3" "$MMAREF" probe "${F[@]}" -- sh -c 'cat >/dev/null; exit 3'
expect_error "device answers too few lines" "answered 5 of the" "$MMAREF" probe "${F[@]}" -- sh -c "head -n 5 | $MMAREF batch ${HOP[*]}"
expect_error "device prints a non-hex line" "device 'sh' line 1 is not a hex f32 value" "$MMAREF" probe "${F[@]}" -- sh -c 'cat >/dev/null; echo zz'
# the lines a device is asked with these options, counted as one receives them (not a figure of the probe's)
"$MMAREF" probe "${F[@]}" --confirm 100 -- sh -c "tee $tmp/asked.txt | $MMAREF batch ${HOP[*]}" >/dev/null 2>&1
ASKED=$(wc -l <"$tmp/asked.txt")
expect_error "device closes its output and hangs" "closed its output after 0 of the $ASKED lines and then did not exit within 1 s; stopped it" \
  "$MMAREF" probe "${F[@]}" --confirm 100 --timeout 1 -- sh -c 'exec >&-; sleep 30'
expect_error "device cannot be started" "device 'no-such-device-xyz' exited with status 127" "$MMAREF" probe "${F[@]}" -- no-such-device-xyz
expect_error "scales not FORMAT:BLOCK" "--scales 'ue8m0' is not FORMAT:BLOCK" "$MMAREF" probe --formats e2m1,e2m1,f32,f32 --k 64 --scales ue8m0 -- cat
expect_error "scale block not dividing K" "--scales 'ue8m0:48' is not FORMAT:BLOCK" "$MMAREF" probe --formats e2m1,e2m1,f32,f32 --k 64 --scales ue8m0:48 -- cat
expect_error "unknown scale format" "--scales: unknown format 'ue9m0'" "$MMAREF" probe --formats e2m1,e2m1,f32,f32 --k 64 --scales ue9m0:32 -- cat
expect_error "unknown instruction" "has no instruction 'mma.no.such'" "$MMAREF" probe hopper mma.no.such
expect_error "instruction and a device" "takes no device" "$MMAREF" probe "${HOP[@]}" -- cat
if "$MMAREF" probe --help | grep -q '^usage: mmaref probe'; then ok "probe --help"; else not_ok "probe --help"; fi
expect_error "missing results file" "--results $tmp/none" "$MMAREF" probe "${F[@]}" --results "$tmp/none"

# 5. Hostile devices, each with --timeout 1: stopped with their process group within seconds, one line,
#    exit 2, nothing left running.  (sleep 9876x: arguments no other process has, to look for leftovers.)
#    They mostly wait out their timeouts: all run at once, their reports printed in order.
P=("${F[@]}" --confirm 100 --timeout 1)
hostile=0
probe_hostile() {  # probe_hostile WHAT PATTERN MAX_SECONDS MARKER COMMAND...: in the background
  hostile=$((hostile + 1))
  probe_hostile_one "$@" >"$tmp/hostile.$hostile" &
}
probe_hostile_one() {
  local what=$1 pat=$2 max=$3 marker=$4; shift 4
  local start=$SECONDS err rc
  err=$("$MMAREF" probe "${P[@]}" -- "$@" 2>&1 >/dev/null); rc=$?
  local took=$((SECONDS - start))
  sleep 0.2
  if [[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 && $err == *"$pat"* && $took -le $max ]] &&
     ! { [[ -n $marker ]] && pgrep -f "$marker" >/dev/null; }; then ok "$what (${took} s)"
  else not_ok "$what: rc=$rc in ${took} s, stderr='$err'$( [[ -n $marker ]] && pgrep -fa "$marker")"; fi
}
probe_hostile "a device that never answers is stopped" "device 'sleep' gave no answer line for 1 s (0 of the $ASKED lines answered); stopped it and its process group (SIGTERM)" \
  4 "sleep 98761" sleep 98761
probe_hostile "a device ignoring SIGTERM is killed" "(SIGTERM ignored: SIGKILL after 1 s)" 5 "sleep 98762" \
  sh -c 'trap "" TERM; sleep 98762'
probe_hostile "a grandchild holding stdout open is stopped with the group" "(1 of the $ASKED lines answered); stopped it and its process group" \
  4 "sleep 98763" sh -c 'sleep 98763 & echo 0'
probe_hostile "a grandchild ignoring SIGTERM and holding stdout is killed" "(0 of the $ASKED lines answered)" 5 "sleep 98764" \
  sh -c '(trap "" TERM; sleep 98764) & exec sleep 98765'
probe_hostile "every line answered, the output never closed" "device 'sh' answered all $ASKED lines but did not close its output within 1 s" \
  4 "sleep 98766" sh -c "$MMAREF batch ${HOP[*]}; sleep 98766"
probe_hostile "a device printing garbage is a bad answer, not 'killed by signal 13'" "device 'yes' line 1 is not a hex f32 value: 'garbage'" \
  3 "" yes garbage
probe_hostile "garbage from a device that ignores SIGPIPE" "device 'sh' line 1 is not a hex f32 value: 'zz'" 3 "" \
  sh -c 'trap "" PIPE; yes zz 2>/dev/null'
probe_hostile "a NUL byte in an answer" "device 'sh' line 2 has a NUL byte" 3 "" sh -c 'printf "0\n0\0junk\n"'
probe_hostile "an endless line" "device 'sh' line 1 is longer than 255 characters" 3 "" sh -c 'exec tr -c x x </dev/zero'
probe_hostile "a device answering before reading, then stopping" "device 'sh' answered more than the $ASKED lines asked" 3 "" sh -c 'yes 0'
wait
for ((i = 1; i <= hostile; i++)); do cat "$tmp/hostile.$i"; done
expect_error "--timeout 0" "--timeout '0' is not a decimal count of seconds from 1 to 86400" "$MMAREF" probe "${F[@]}" --timeout 0 -- cat
expect_error "--timeout ''" "--timeout '' is not a decimal count" "$MMAREF" probe "${F[@]}" --timeout "" -- cat
expect_error "--timeout 1.5" "--timeout '1.5' is not a decimal count" "$MMAREF" probe "${F[@]}" --timeout 1.5 -- cat
"$MMAREF" probe --help | grep -q -- '--timeout S' && ok "probe --help documents --timeout" || not_ok "probe --help lacks --timeout"

# 6. Offline files: a NUL byte in --results is refused with its line; --queries replaces a file only
#    when complete, refuses a dangling link and control characters.
"$MMAREF" probe "${F[@]}" --confirm 100 --queries "$tmp/q.txt" >/dev/null
"$MMAREF" batch "${HOP[@]}" <"$tmp/q.txt" >"$tmp/d.txt"
"$MMAREF" probe "${F[@]}" --confirm 100 --results "$tmp/d.txt" >/dev/null && ok "--results: the model's answers read back" \
  || not_ok "--results of the model's answers"
{ head -2 "$tmp/d.txt"; printf '0x00000000\0 ignored\n'; tail -n +4 "$tmp/d.txt"; } >"$tmp/d_nul.txt"
expect_error "--results with a NUL byte on line 3" "--results $tmp/d_nul.txt line 3 has a NUL byte" \
  "$MMAREF" probe "${F[@]}" --confirm 100 --results "$tmp/d_nul.txt"
cp "$tmp/q.txt" "$tmp/q_keep.txt"
err=$( (trap "" XFSZ; ulimit -f 100; "$MMAREF" probe "${F[@]}" --confirm 100000 --queries "$tmp/q.txt") 2>&1 >/dev/null ); rc=$?
if [[ $rc -eq 2 && $err == *"--queries '$tmp/q.txt': write error: File too large"* ]] && cmp -s "$tmp/q.txt" "$tmp/q_keep.txt" &&
   [[ -z $(ls "$tmp" | grep 'q.txt.tmp') ]]; then ok "--queries: a failed write leaves the previous file, no temporary"
else not_ok "--queries failed write: rc=$rc err='$err' $(ls "$tmp")"; fi
ln -s "$tmp/none/q.txt" "$tmp/dangling"
expect_error "--queries onto a dangling link" "is a symbolic link to '$tmp/none/q.txt', which does not exist" \
  "$MMAREF" probe "${F[@]}" --queries "$tmp/dangling"
expect_error "--queries with a newline" "--queries '$tmp/q\\nx' has a control character" "$MMAREF" probe "${F[@]}" --queries "$tmp/q"$'\n'x
expect_error "--results with an ESC" "--results '\\x1b' has a control character" "$MMAREF" probe "${F[@]}" --results $'\x1b'
# a device whose name holds a newline and an ESC: the report's device line shows them escaped
ln -s "$(cd "$(dirname "$MMAREF")" && pwd)/$(basename "$MMAREF")" "$tmp/dev"$'\n\x1b'"x"
out=$("$MMAREF" probe "${F[@]}" --confirm 100 -- "$tmp/dev"$'\n\x1b'"x" batch "${HOP[@]}" 2>&1); rc=$?
[[ $rc -eq 0 && $(grep -c "^probe: device = '$tmp/dev\\\\n\\\\x1bx'$" <<<"$out") -eq 1 ]] \
  && ok "a device name with control characters is printed escaped" || not_ok "escaped device name: rc=$rc $(head -2 <<<"$out")"
