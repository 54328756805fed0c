# CLI error paths: each must exit non-zero with one line on stderr naming the bad input (expect_error),
# never crash; plus the batch --check exit status / summary line and --help on every subcommand.
. "$(dirname "$0")/lib.sh"
M=$MMAREF
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
T_ERR=$T/stderr
A8="mma.m16n8k8.f32.f16.f16.f32"                              # ampere HMMA.1688.F32, K = 8, f16 A/B, f32 C/D
MX="mma.m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0"             # rtx-blackwell OMMA.SF, K = 64, 2 UE8M0 scales
NV="mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3"             # rtx-blackwell OMMA.SF NVFP4, 4 UE4M3 scales
E2="mma.m16n8k32.f32.e2m1.e2m1.f32"                           # rtx-blackwell QMMA, e2m1 A/B
TF="mma.m16n8k4.f32.tf32.tf32.f32"                            # ampere HMMA.1684.F32.TF32, K = 4

# --- commands, architectures, instructions
expect_error "unknown command" "unknown command 'frob'" $M frob
expect_error "unknown architecture (dot)" "unknown architecture 'pascal'" $M dot pascal $A8 -a 1 -b 1 -c 0
expect_error "unknown architecture (batch)" "unknown architecture 'pascal'" $M batch pascal $A8
expect_error "unknown architecture (list)" "unknown architecture 'pascal'" $M list pascal
expect_error "unknown architecture (list --json)" "unknown architecture 'pascal'" $M list --json pascal
expect_error "unknown instruction lists the architecture's instructions" \
  "ampere has no instruction 'mma.foo'; it has: mma.m16n8k8.f32.f16.f16.f32" $M dot ampere mma.foo -a 1 -b 1 -c 0
expect_error "unknown instruction: list includes the bf16 one" "mma.m16n8k16.f32.bf16.bf16.f32" $M dot ampere mma.foo -a 1 -b 1 -c 0
expect_error "wgmma on ampere" "ampere has no instruction 'wgmma.m64n8k16.f32.f16.f16'" \
  $M dot ampere wgmma.m64n8k16.f32.f16.f16 -a 1 -b 1 -c 0
expect_error "tcgen05 on hopper" "hopper has no instruction 'tcgen05.mma.m64n8k16.f32.f16.f16'" \
  $M dot hopper tcgen05.mma.m64n8k16.f32.f16.f16 -a 1 -b 1 -c 0
expect_error "volta-only HMMA.884 f16 C on ampere" "ampere has no instruction 'mma.m8n8k4.f32.f16.f16.f16'" \
  $M dot ampere mma.m8n8k4.f32.f16.f16.f16 -a 1 -b 1 -c 0
expect_error "FP8 mma on ampere" "ampere has no instruction 'mma.m16n8k32.f32.e4m3.e4m3.f32'" \
  $M dot ampere mma.m16n8k32.f32.e4m3.e4m3.f32 -a 1 -b 1 -c 0
expect_error "unknown instruction (batch)" "hopper has no instruction 'nope'" $M batch hopper nope

# --- values not representable in their format
expect_error "1.1 in f16" "a[0] = '1.1' is not exactly representable in f16" $M dot ampere $A8 -a 1.1 -b 1 -c 0
expect_error "0x1p-25 in f16 (below the smallest subnormal)" "b[1] = '0x1p-25' is not exactly representable in f16" \
  $M dot ampere $A8 -a 1,1 -b 1,0x1p-25 -c 0
expect_error "2049 in f16 (12 significant bits)" "a[0] = '2049' is not exactly representable in f16" $M dot ampere $A8 -a 2049 -b 1 -c 0
expect_error "0x1p-150 in f32 c" "c = '0x1p-150' is not exactly representable in f32" $M dot ampere $A8 -a 1 -b 1 -c 0x1p-150
expect_error "0x1p-30 in e4m3" "a[0] = '0x1p-30' is not exactly representable in e4m3" \
  $M dot hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 0x1p-30 -b 1 -c 0
expect_error "inf in e4m3 (no infinities)" "b[0] = 'inf' is not exactly representable in e4m3" \
  $M dot hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 1 -b inf -c 0
expect_error "512 in e4m3 (max 448)" "a[0] = '512' is not exactly representable in e4m3" \
  $M dot hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 512 -b 1 -c 0
# 3 is an e2m1 value (1.1b x 2^1): the dot succeeds; 3.5 is not one
expect_dot "3 in e2m1 is fine: 3*1 = 3" 0x40400000 rtx-blackwell $E2 -a 3 -b 1 -c 0
expect_error "3.5 in e2m1" "a[0] = '3.5' is not exactly representable in e2m1" $M dot rtx-blackwell $E2 -a 3.5 -b 1 -c 0
expect_error "nan in e2m1 (no NaN)" "b[0] = 'nan' is not exactly representable in e2m1" $M dot rtx-blackwell $E2 -a 1 -b nan -c 0
# tf32 has 10 mantissa bits: 1 + 2^-10 (0x1.004p0) is fine, 1 + 2^-11 (0x1.002p0) is not
expect_dot "1 + 2^-10 in tf32 is fine" 0x3f802000 ampere $TF -a 0x1.004p0 -b 1 -c 0
expect_error "tf32 value with 11 mantissa bits" "a[0] = '0x1.002p0' is not exactly representable in tf32" \
  $M dot ampere $TF -a 0x1.002p0 -b 1 -c 0
expect_error "negative ue8m0 scale" "scale-a[0] = '-1' is not exactly representable in ue8m0" \
  $M dot rtx-blackwell $MX -a 1 -b 1 -c 0 --scale-a -1 --scale-b 1
expect_error "zero ue8m0 scale (ue8m0 has no zero)" "scale-b[1] = '0' is not exactly representable in ue8m0" \
  $M dot rtx-blackwell $MX -a 1 -b 1 -c 0 --scale-a 1,1 --scale-b 1,0
expect_error "1.5 ue8m0 scale (powers of two only)" "scale-a[0] = '1.5' is not exactly representable in ue8m0" \
  $M dot rtx-blackwell $MX -a 1 -b 1 -c 0 --scale-a 1.5 --scale-b 1
expect_error "negative ue4m3 scale" "scale-a[0] = '-1' is not exactly representable in ue4m3" \
  $M dot rtx-blackwell $NV -a 1 -b 1 -c 0 --scale-a -1 --scale-b 1
# raw bits wider than the format
expect_error "0x10000 for f16" "a[0] = '0x10000' does not fit in f16 (16 bits)" $M dot ampere $A8 -a 0x10000 -b 1 -c 0
expect_error "0x10 for e2m1" "b[0] = '0x10' does not fit in e2m1 (4 bits)" $M dot rtx-blackwell $E2 -a 1 -b 0x10 -c 0
expect_error "0x100 for ue4m3" "scale-b[0] = '0x100' does not fit in ue4m3 (8 bits)" \
  $M dot rtx-blackwell $NV -a 1 -b 1 -c 0 --scale-a 1 --scale-b 0x100
expect_error "0x100000000 for f32 c" "c = '0x100000000' does not fit in f32 (32 bits)" $M dot ampere $A8 -a 1 -b 1 -c 0x100000000
expect_error "17 hex digits" "has more than 64 bits" $M dot ampere mma.m8n8k4.f64.f64.f64.f64 -a 0x12345678901234567 -b 1 -c 0

# --- list lengths, missing and extra options
expect_error "more than K values in a" "a has 9 values, more than the instruction's 8" \
  $M dot ampere $A8 -a 1,1,1,1,1,1,1,1,1 -b 1 -c 0
expect_error "more than K values in b" "b has 5 values, more than the instruction's 4" \
  $M dot ampere $TF -a 1 -b 1,1,1,1,1 -c 0
expect_error "more scales than blocks" "scale-a has 3 values, more than the instruction's 2" \
  $M dot rtx-blackwell $MX -a 1 -b 1 -c 0 --scale-a 1,1,1 --scale-b 1
expect_error "missing -a" "needs -a LIST" $M dot ampere $A8 -b 1 -c 0
expect_error "missing -b" "needs -b LIST" $M dot ampere $A8 -a 1 -c 0
expect_error "missing -c" "needs -c VALUE" $M dot ampere $A8 -a 1 -b 1
expect_error "-a without its value" "-a needs a value" $M dot ampere $A8 -b 1 -c 0 -a
expect_error "-c given twice" "-c given twice" $M dot ampere $A8 -a 1 -b 1 -c 0 -c 1
expect_error "missing scales for a block-scaled instruction" "takes block scales: give --scale-a and --scale-b" \
  $M dot rtx-blackwell $MX -a 1 -b 1 -c 0
expect_error "only --scale-a for a block-scaled instruction" "takes block scales" \
  $M dot rtx-blackwell $MX -a 1 -b 1 -c 0 --scale-a 1
expect_error "scales given to an unscaled instruction" "has no block scales" \
  $M dot ampere $A8 -a 1 -b 1 -c 0 --scale-a 1 --scale-b 1
expect_error "unknown dot option" "unknown option '--frob'" $M dot ampere $A8 -a 1 -b 1 -c 0 --frob
expect_error "dot without an instruction" "needs ARCH and INSTRUCTION" $M dot ampere
expect_error "dot with an extra argument" "unexpected argument 'extra'" $M dot ampere $A8 -a 1 -b 1 -c 0 extra

# --- malformed numbers
expect_error "1.2.3" "a[0] = '1.2.3' is not a number" $M dot ampere $A8 -a 1.2.3 -b 1 -c 0
expect_error "abc" "b[0] = 'abc' is not a number" $M dot ampere $A8 -a 1 -b abc -c 0
expect_error "0xZZ" "a[0] = '0xZZ' is not a number" $M dot ampere $A8 -a 0xZZ -b 1 -c 0
expect_error "empty list item" "a[1] is empty" $M dot ampere $A8 -a 1,,2 -b 1 -c 0
expect_error "empty c" "c is empty" $M dot ampere $A8 -a 1 -b 1 -c ""
expect_error "c given as a list" "c = '1,2' is not a number" $M dot ampere $A8 -a 1 -b 1 -c 1,2
expect_error "1e999 (overflows a double)" "a[0] = '1e999' is not exactly representable" $M dot ampere $A8 -a 1e999 -b 1 -c 0
expect_error "0.1 (not a binary fraction)" "c = '0.1' is not exactly representable in f32" $M dot ampere $A8 -a 1 -b 1 -c 0.1

# --- batch input errors: the message names the stdin line (blank lines and comments count)
batch_in() { local in=$1; shift; printf "$in" | "$M" batch "$@"; }
Z4="0 0 0 0"
expect_error "batch: too few fields" "stdin line 3: 8 fields, expected 9" \
  batch_in "# comment\n\n0 3f800000 0 0 0 3f800000 0 0\n" ampere $TF
expect_error "batch: too many fields" "stdin line 2: more than 9 fields" \
  batch_in "0 $Z4 $Z4\n0 $Z4 $Z4 0\n" ampere $TF
expect_error "batch --check: missing device d" "stdin line 1: 9 fields, expected 10 (c, 4 a, 4 b, device d)" \
  batch_in "0 $Z4 $Z4\n" ampere $TF --check
expect_error "batch: non-hex token" "stdin line 2, field 9: not a hex number" \
  batch_in "0 $Z4 $Z4\n0 $Z4 0 0 0 zz\n" ampere $TF
expect_error "batch: 0x alone" "stdin line 1, field 1: not a hex number" batch_in "0x $Z4 $Z4\n" ampere $TF
expect_error "batch: 17 hex digits" "stdin line 1, field 2: not a hex number" \
  batch_in "0 12345678901234567 0 0 0 $Z4\n" ampere $TF
expect_error "batch: over-wide f16 token" "stdin line 2: b[0] = 0x10000 does not fit in f16 (16 bits)" \
  batch_in "\n0 3c00 0 0 0 0 0 0 0 10000 0 0 0 0 0 0 0\n" ampere mma.m16n8k8.f16.f16.f16.f16
expect_error "batch: over-wide f32 c" "stdin line 1: c = 0x100000000 does not fit in f32" \
  batch_in "100000000 $Z4 $Z4\n" ampere $TF
expect_error "batch: over-wide e2m1 token" "stdin line 1: a[1] = 0x10 does not fit in e2m1" \
  batch_in "0 1 10 $(printf '0 %.0s' {1..30}) $(printf '0 %.0s' {1..32})\n" rtx-blackwell $E2
expect_error "batch --check: over-wide device d" "stdin line 1: device d 0x100000000 does not fit in f32" \
  batch_in "0 $Z4 $Z4 100000000\n" ampere $TF --check
expect_error "batch: unknown option" "unknown option '--frob'" batch_in "" ampere $TF --frob
expect_error "batch: --max-report without a number" "--max-report needs a decimal count from 0 to" \
  batch_in "" ampere $TF --check --max-report x
# counts go through the shared parser: empty, overflowing, signed and hex counts are refused
expect_error "batch: --max-report ''" "--max-report needs a decimal count from 0 to 9223372036854775807, not ''" \
  batch_in "" ampere $TF --check --max-report ""
expect_error "batch: --max-report 10^23" "not '99999999999999999999999'" \
  batch_in "" ampere $TF --check --max-report 99999999999999999999999
expect_error "batch: --max-report -1" "not '-1'" batch_in "" ampere $TF --check --max-report -1
expect_error "batch: --max-report 0x10" "not '0x10'" batch_in "" ampere $TF --check --max-report 0x10
# a NUL byte would hide the rest of its line: refused with the line's number, the lines before it answered
out=$(printf "0 $Z4 $Z4\n0 $Z4 $Z4\0 junk\n0 $Z4 $Z4\n" | "$M" batch ampere $TF 2>"$T_ERR"); rc=$?
[[ $rc -eq 2 && $(cat "$T_ERR") == "mmaref: batch: stdin line 2 has a NUL byte" && $out == 0x00000000 ]] \
  && ok "batch: a NUL byte inside line 2 is refused after line 1's D" || not_ok "batch NUL: rc=$rc out='$out' err='$(cat "$T_ERR")'"
expect_error "batch: a line starting with a NUL byte" "stdin line 1 has a NUL byte" \
  batch_in "\\0000 $Z4 $Z4\n" ampere $TF
expect_error "batch: a NUL byte in a comment" "stdin line 2 has a NUL byte" \
  batch_in "0 $Z4 $Z4\n# note\\0000 $Z4\n" ampere $TF
expect_error "batch --check: a NUL byte after the fields" "stdin line 1 has a NUL byte" \
  batch_in "0 $Z4 $Z4 0\\0000 1\n" ampere $TF --check
expect_error "batch without an instruction" "needs ARCH and INSTRUCTION" batch_in "" ampere

# --- batch --check: exit 1 on a mismatch, mismatch lines, and the 'N passed, M failed' last line.
# 1*1 + 0 = 1 (0x3f800000): line 1 expects it (pass), line 3 expects 0 (fail).
out=$(printf "0 3f800000 0 0 0 3f800000 0 0 0 3f800000\n# x\n0 3f800000 0 0 0 3f800000 0 0 0 0\n" \
      | "$M" batch ampere $TF --check 2>&1); rc=$?
[[ $rc -eq 1 ]] && ok "batch --check exits 1 on a mismatch" || not_ok "batch --check exits 1 on a mismatch: rc=$rc"
[[ $(tail -1 <<<"$out") == *"1 passed, 1 failed" ]] && ok "batch --check last line '1 passed, 1 failed'" \
  || not_ok "batch --check last line: got '$(tail -1 <<<"$out")'"
grep -q "mismatch line 3" <<<"$out" && ok "batch --check names the mismatching line" \
  || not_ok "batch --check names the mismatching line: got '$out'"
# the record: the device's D (the line's last field) against the model's (the expected value), then
# the line's operands decoded lane by lane
want="mismatch line 3: device 0x00000000 (0), model 0x3f800000 (1)
  c 0x00000000 (0)
  a 0x3f800000 (1) 0x00000000 (0) 0x00000000 (0) 0x00000000 (0)
  b 0x3f800000 (1) 0x00000000 (0) 0x00000000 (0) 0x00000000 (0)"
[[ $(grep -A3 "^mismatch line 3" <<<"$out") == "$want" ]] \
  && ok "batch --check: a mismatch names the device's and the model's D and decodes the operands" \
  || not_ok "batch --check mismatch record: got '$out'"
# --max-report counts records, not their operand lines
out=$(printf "0 3f800000 0 0 0 3f800000 0 0 0 0\n0 3f800000 0 0 0 3f800000 0 0 0 0\n" \
      | "$M" batch ampere $TF --check --max-report 1 2>&1)
[[ $(grep -c "^mismatch" <<<"$out") == 1 && $(grep -c "^  " <<<"$out") == 3 ]] \
  && ok "batch --check --max-report 1: one whole mismatch record" || not_ok "batch --max-report 1 record: got '$out'"
out=$(printf "0 3f800000 0 0 0 3f800000 0 0 0 3f800000\n0 $Z4 $Z4 0\n" | "$M" batch ampere $TF --check 2>&1); rc=$?
[[ $rc -eq 0 && $(tail -1 <<<"$out") == *"2 passed, 0 failed" ]] && ok "batch --check all pass: exit 0, '2 passed, 0 failed'" \
  || not_ok "batch --check all pass: rc=$rc last='$(tail -1 <<<"$out")'"
# --nan-any: the model's 0x7fffffff matches a device's 0x7fc00000 only with the flag
out=$(printf "7fc00000 $Z4 $Z4 7fc00000\n" | "$M" batch ampere $TF --check 2>&1); rc=$?
[[ $rc -eq 1 && $(tail -1 <<<"$out") == *"0 passed, 1 failed" ]] && ok "batch --check: NaN payloads differ without --nan-any" \
  || not_ok "batch --check NaN without --nan-any: rc=$rc last='$(tail -1 <<<"$out")'"
out=$(printf "7fc00000 $Z4 $Z4 7fc00000\n" | "$M" batch ampere $TF --check --nan-any 2>&1); rc=$?
[[ $rc -eq 0 && $(tail -1 <<<"$out") == *"1 passed, 0 failed" ]] && ok "batch --check --nan-any accepts any NaN" \
  || not_ok "batch --check --nan-any: rc=$rc last='$(tail -1 <<<"$out")'"
# --max-report 0: the mismatch is counted but not printed
out=$(printf "0 $Z4 $Z4 3f800000\n" | "$M" batch ampere $TF --check --max-report 0 2>&1); rc=$?
[[ $rc -eq 1 && $(wc -l <<<"$out") -eq 1 && $out == *"0 passed, 1 failed" ]] && ok "batch --check --max-report 0" \
  || not_ok "batch --check --max-report 0: rc=$rc out='$out'"

# --- list
expect_error "list: two architectures" "more than one architecture" $M list hopper volta
expect_error "list: unknown option" "unknown option '--frob'" $M list --frob

# --- --help on every subcommand the top-level usage advertises (and on the top level): exit 0, text on stdout
top=$("$M" --help); rc=$?
[[ $rc -eq 0 && $top == *usage* ]] && ok "mmaref --help exits 0" || not_ok "mmaref --help: rc=$rc"
for cmd in $(awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}' <<<"$top"); do
  out=$("$M" "$cmd" --help 2>/dev/null); rc=$?
  [[ $rc -eq 0 && $out == *usage* ]] && ok "mmaref $cmd --help exits 0" || not_ok "mmaref $cmd --help: rc=$rc stdout='$out'"
done
"$M" >/dev/null 2>&1; rc=$?
[[ $rc -ne 0 && $rc -lt 128 ]] && ok "mmaref with no command exits non-zero" || not_ok "mmaref with no command: rc=$rc"

# ---- a broken run never looks like a pass --------------------------------------------------------
I10="hopper mma.m16n8k4.f32.tf32.tf32.f32"
# A bad line stops batch with exit 2 after writing the D of every line before it (10 and 10,000 lines).
for n in 10 10000; do
  out=$({ "$MMAREF" gen $I10 --n $n; echo zz; } | "$MMAREF" batch $I10 2>/dev/null); rc=$?
  [[ $rc == 2 && $(wc -l <<<"$out") == "$n" ]] && ok "batch: a bad line after $n good ones: exit 2, all $n D's written" \
    || not_ok "batch: bad line after $n: rc=$rc, $(wc -l <<<"$out") lines written"
done
# A write that fails (a full disk, a closed stdout) is an error, not a silent success.
expect_error "batch into /dev/full fails" "error writing standard output" bash -c "\"$MMAREF\" gen $I10 --n 100 | \"$MMAREF\" batch $I10 >/dev/full"
expect_error "list with stdout closed fails" "error writing standard output" bash -c "\"$MMAREF\" list >&-"
# A reader that has gone (mmaref list --json | head) is no error to report: every command that writes to
# stdout ends quietly by SIGPIPE, as cat does (tests/cli/closed_stdout.py: each command, its --help too).
python3 "$(dirname "$0")/cli/closed_stdout.py" "$MMAREF"
# An empty results file does not pass --check unless asked for.
expect_error "batch --check on empty input fails" "no line to check" "$MMAREF" batch $I10 --check </dev/null
"$MMAREF" batch $I10 --check --allow-empty </dev/null >/dev/null && ok "batch --check --allow-empty accepts empty input" \
  || not_ok "batch --check --allow-empty on empty input"
# make keeps the project's flags when CFLAGS is given on the command line.
flags=$(cd "$(dirname "$0")/.." && make -n -B CFLAGS=-O1 build/obj/format.o 2>/dev/null | grep -m1 ' -c ')
[[ $flags == *"-O1"* && $flags == *"-std=gnu11"* && $flags == *"-fPIC"* && $flags == *"-Wall"* ]] \
  && ok "make CFLAGS=-O1 keeps -std=gnu11 -Wall -fPIC" || not_ok "make CFLAGS=-O1 compiles with: $flags"
# Values: blanks around a value are dropped before it is read (' 0x3c00' is f16 bits 1.0, so
# 1*1 + 1 = 2 = 0x4000), a signed hex without a binary exponent is refused as ambiguous (-0x3c00 would
# be the number -15360), a signed hex float is a number (-0x1.8p1 = -3: -3*1 + 0 = -3 = 0xc200).
expect_dot "a value with blanks around it is read as written" 0x4000 hopper mma.m16n8k16.f16.f16.f16.f16 -a 1 -b 1 -c ' 0x3c00 '
expect_error "a signed hex without exponent is refused" "is ambiguous" "$MMAREF" dot hopper mma.m16n8k16.f16.f16.f16.f16 -a -0x3c00 -b 1 -c 0
expect_dot "a signed hex float is a number" 0xc200 hopper mma.m16n8k16.f16.f16.f16.f16 -a -0x1.8p1 -b 1 -c 0
# Counts are decimal: --random 010 is ten, not eight; a hex count is refused.
out=$("$MMAREF" diff cdna3 v_mfma_f32_32x32x8_f16 hopper mma.m16n8k16.f32.f16.f16.f32 --random 010 2>&1)
[[ $out == *" 10 random dot-adds"* ]] && ok "diff --random 010 is ten" || not_ok "diff --random 010: $(grep random <<<"$out")"
expect_error "a hex count is refused" "not a decimal count" "$MMAREF" study rounding-bias --samples 0x10 --no-plot
# Literals are read exactly, digit by digit: 1 + 10^-20 is not 1 although strtod and strtold
# both round it to 1; the same for a hex float with 81 significant bits.  Exact long forms are accepted:
# 2^-24 = 0.000000059604644775390625 exactly is the smallest f16 subnormal (0x0001; times 1 plus 0 in f16 = 0x0001).
expect_error "1.00000000000000000001 is not 1" "a[0] = '1.00000000000000000001' is not exactly representable in f16" \
  $M dot ampere $A8 -a 1.00000000000000000001 -b 1 -c 0
expect_error "a 21-digit hex float is not 1" "is not exactly representable in f64" \
  $M dot ampere mma.m8n8k4.f64.f64.f64.f64 -a 0x1.00000000000000000001p0 -b 1 -c 0
expect_error "2^-24 plus 10^-35 is not 2^-24" "is not exactly representable in f16" \
  $M dot hopper mma.m16n8k16.f16.f16.f16.f16 -a 0.00000005960464477539062500000000001 -b 1 -c 0
expect_dot "2^-24 written out in full is exactly f16 0x0001" 0x0001 hopper mma.m16n8k16.f16.f16.f16.f16 \
  -a 0.000000059604644775390625000 -b 1 -c 0
expect_dot "0x0.0000000000000000000000001p100 is exactly 1 (1*1 + 0 = f16 0x3c00)" 0x3c00 hopper \
  mma.m16n8k16.f16.f16.f16.f16 -a 0x0.0000000000000000000000001p100 -b 1 -c 0
# A NaN's sign and payload cannot come from a number: refused, not silently made canonical.
expect_error "-nan is refused" "a[0] = '-nan': a NaN's sign and payload are not taken from a number" \
  $M dot ampere $A8 -a -nan -b 1 -c 0
expect_error "nan(0x12) is refused" "a NaN's sign and payload are not taken" $M dot ampere $A8 -a 1 -b 1 -c 'nan(0x12)'
# study: an --out longer than a path says so (not "...: Success"); --samples is bounded with its cost.
long=/tmp/$(head -c 5000 /dev/zero | tr '\0' a)
expect_error "study --out longer than PATH_MAX" "is longer than a path can be" $M study rounding-bias --out "$long" --no-plot
expect_error "study --samples above 10^7" "--samples '100000000' is not a decimal count from 1 to 10000000 (about 100 bytes" \
  $M study rounding-bias --samples 100000000 --no-plot
# A name with control characters is quoted as \xNN: the message stays one line (fuzz_lookup's finding).
expect_error "a newline in an instruction name stays on one line" "has no instruction 'mma\\x0ax'" \
  $M dot ampere "$(printf 'mma\nx')" -a 1 -b 1 -c 0
# Control characters in a message are escaped: a quoted input cannot end the line or drive a terminal.
err=$("$M" $'frob\n\x1b[31mx' 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == "mmaref: unknown command 'frob\\n\\x1b[31mx' (try 'mmaref --help')" ]] \
  && ok "a newline and an ESC in a quoted input are shown as \\n and \\x1b" || not_ok "escaping: rc=$rc err='$err'"
expect_error "a tab and DEL in an option value, escaped" "--seed 'a\\tb\\x7f' is not" $M study rounding-bias --seed $'a\tb\x7f'
expect_error "a carriage return in a batch option, escaped" "unknown option '--x\\r'" batch_in "" ampere $TF $'--x\r'

# --- study --out: no byte of a path reaches gnuplot as code
# A control character is refused in every path (one shared check); the .gp scripts name their files
# relative to DIR (gnuplot runs there), so quotes, backslashes and backquotes in DIR are never in a script.
# (The first --out below ran `touch PWNED` through gnuplot's system() when DIR was written into the script.)
pwned_before=$(ls "$T")
for study in rounding-bias m3xu; do
  expect_error "study $study: a newline and system() in --out refused" "has a control character (byte $((${#T} + 3))): refused in a path" \
    $M study $study --samples 10 --out "$T/d"$'\n''system("touch '"$T"'/PWNED")'$'\n''#'
  expect_error "study $study: an ESC in --out refused" "--out '$T/d\\x1b' has a control character" $M study $study --out "$T/d"$'\x1b'
  expect_error "study $study: an empty --out refused" "--out is empty" $M study $study --out ""
  for name in "q'; touch $T/PWNED; '" 'b\\'"'"'\" `touch '"$T"'/PWNED` @x' "\$(touch $T/PWNED)"; do
    dir="$T/$name"
    gp=$dir/rounding-bias.gp; [[ $study == m3xu ]] && gp=$dir/m3xu.gp
    plot=--no-plot; command -v gnuplot >/dev/null && plot=
    if "$M" study $study --samples 100 --out "$dir" $plot >/dev/null 2>"$T_ERR" && [[ -s $gp ]] &&
       ! grep -qF "$T" "$gp" && [[ -n $plot || -s ${gp%.gp}.png ]]; then
      ok "study $study --out '${name:0:24}': runs, the script holds no byte of the path${plot:+ (no gnuplot here)}"
    else not_ok "study $study --out '$name': $(cat "$T_ERR") $(grep -F "$T" "$gp" | head -1)"; fi
  done
done
[[ ! -e $T/PWNED && ! -e PWNED ]] && ok "study: no hostile --out ran a command (no PWNED)" || not_ok "study: PWNED exists"

# --- study outputs are replaced only when complete: a run that fails writing (a file-size limit) leaves
# the previous files byte for byte and no temporary behind
"$M" study rounding-bias --samples 1000 --out "$T/keep" --no-plot >/dev/null
"$M" study m3xu --samples 1000 --out "$T/keep" --no-plot >/dev/null 2>&1
(cd "$T/keep" && md5sum *) >"$T/keep.md5"
for study in rounding-bias m3xu; do
  err=$( (trap "" XFSZ; ulimit -f 20; "$M" study $study --samples 20000 --seed 2 --out "$T/keep" --no-plot) 2>&1 >/dev/null ); rc=$?
  if [[ $rc -eq 2 && $(wc -l <<<"$err") -eq 1 && $err == *"cannot write '$T/keep/"*"write error: File too large"* ]] &&
     (cd "$T/keep" && md5sum -c --quiet "$T/keep.md5") && [[ -z $(ls "$T/keep" | grep tmp) ]]; then
    ok "study $study: a failed write leaves the previous outputs unchanged, no temporary"
  else not_ok "study $study failed write: rc=$rc err='$err' files: $(ls "$T/keep")"; fi
done
# the PNG too: gnuplot draws into a temporary renamed over it on success (a fake gnuplot that writes
# half a file and fails leaves the previous PNG and no temporary)
mkdir -p "$T/bin" "$T/png"; echo "previous png" >"$T/png/rounding-bias.png"
printf '#!/bin/sh\nfor f in *.png.tmp*; do [ -e "$f" ] && echo partial >"$f"; done\nexit 1\n' >"$T/bin/gnuplot"; chmod +x "$T/bin/gnuplot"
err=$(PATH="$T/bin:$PATH" "$M" study rounding-bias --samples 100 --out "$T/png" 2>&1 >/dev/null); rc=$?
[[ $rc -ne 0 && $err == *"gnuplot failed on rounding-bias.gp in $T/png"* && $(cat "$T/png/rounding-bias.png") == "previous png" &&
   -z $(ls "$T/png" | grep tmp) ]] && ok "study: a failing gnuplot leaves the previous PNG, no temporary" \
  || not_ok "study failing gnuplot: rc=$rc err='$err' png='$(head -c 20 "$T/png/rounding-bias.png")' $(ls "$T/png")"
