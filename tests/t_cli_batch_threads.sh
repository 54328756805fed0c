# mmaref batch over many input chunks (1 MiB each) with worker threads: the output is the same for any
# --threads and in input order.  Expected D's come from `mmaref gen --with-d` (the generator calls the
# library directly, not batch's reader, parser or thread pool).  A bad line deep in the input stops the
# run with exit 2 after exactly the D's of the lines before it; --max-report counts across chunks; the
# longest line (65534 characters) passes and one more character is refused; --coverage counts the bins
# of every line whatever the chunking.
# runtime: 19 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
M=$MMAREF
I=(ampere mma.m16n8k4.f32.tf32.tf32.f32)   # K = 4: 9 fields, about 80 bytes a line
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=60000   # about 5 MiB: 5 chunks
"$M" gen "${I[@]}" --n $N --seed 3 --with-d >"$T/g" || { not_ok "gen failed"; exit 0; }
cut -d' ' -f1-9 "$T/g" >"$T/in"
awk '{print "0x" $10}' "$T/g" >"$T/want"
for t in 1 2 4 7; do
  if "$M" batch "${I[@]}" --threads $t <"$T/in" >"$T/out.$t" && cmp -s "$T/out.$t" "$T/want"; then
    ok "batch --threads $t: $N D's in input order, equal to gen --with-d"
  else not_ok "batch --threads $t: output differs from gen --with-d ($(cmp "$T/out.$t" "$T/want" 2>&1 | head -1))"; fi
done

# a bad line at 50001 (in the 5th chunk): the first 50000 D's, then the error, exit 2
awk 'NR == 50001 {$3 = "zz"} 1' "$T/in" >"$T/bad"
for t in 1 4; do
  "$M" batch "${I[@]}" --threads $t <"$T/bad" >"$T/bout" 2>"$T/berr"; rc=$?
  if [[ $rc -eq 2 && $(cat "$T/berr") == "mmaref: batch: stdin line 50001, field 3: not a hex number" ]] \
     && cmp -s "$T/bout" <(head -50000 "$T/want"); then
    ok "batch --threads $t: a bad line 50001 stops the run (exit 2) after the 50000 D's before it"
  else not_ok "batch --threads $t bad line: rc=$rc err='$(cat "$T/berr")' lines out=$(wc -l <"$T/bout")"; fi
done

# --check: every 7th expected D replaced by 0x7fc00001 (a NaN payload NVIDIA never writes: its NaN is
# 0x7fffffff); --max-report 5000 cuts the report inside a later chunk
awk 'NR % 7 == 0 {$NF = "7fc00001"} 1' "$T/g" >"$T/chk"
nbad=$((N / 7))
for t in 1 3; do
  "$M" batch "${I[@]}" --check --max-report 5000 --threads $t <"$T/chk" >"$T/cout"; rc=$?
  first=$(grep -m1 '^mismatch' "$T/cout"); last=$(grep '^mismatch' "$T/cout" | tail -1)
  if [[ $rc -eq 1 && $(grep -c '^mismatch' "$T/cout") -eq 5000 && $first == "mismatch line 7:"* && \
        $last == "mismatch line 35000:"* && $(tail -1 "$T/cout") == *": $((N - nbad)) passed, $nbad failed" ]]; then
    ok "batch --check --threads $t: 5000 of $nbad mismatches reported in line order, counts over all chunks"
  else not_ok "batch --check --threads $t: rc=$rc first='$first' last='$last' end='$(tail -1 "$T/cout")'"; fi
done

# --coverage: the bins of the lines read, summed over chunks and threads, as gen --coverage counts them
# while it writes them (exit 3 alike when a bin stays unhit); with --check, a bin's mismatches are the
# vectors of the failing lines alone (every 7th), classified as lines of their own
"$M" gen "${I[@]}" --n $N --seed 3 --coverage >/dev/null 2>"$T/gcov"; grc=$?
"$M" batch "${I[@]}" --coverage --threads 3 <"$T/in" >/dev/null 2>"$T/bcov"; brc=$?
if [[ $brc == "$grc" ]] && cmp -s "$T/gcov" "$T/bcov" && grep -q "^coverage of .*: $N vectors" "$T/bcov"; then
  ok "batch --coverage --threads 3: the bins of $N lines over 5 chunks equal gen --coverage's (exit $brc)"
else not_ok "batch --coverage: exit $brc (gen $grc); $(diff "$T/gcov" "$T/bcov" | head -3 | tr '\n' ' ')"; fi
"$M" batch "${I[@]}" --check --coverage-bins --max-report 0 --threads 3 <"$T/chk" >/dev/null 2>"$T/ccov"
awk 'NR % 7 == 0' "$T/in" | "$M" batch "${I[@]}" --coverage-bins --threads 1 >/dev/null 2>"$T/mcov"
miss=$(awk '/^COVERAGE BIN/ {$3 = ""; $4 = ($4 == "0" ? "" : $4); print}' "$T/ccov" | awk '{$1 = $1} 1')
alone=$(awk '/^COVERAGE BIN/ {$4 = ""; $3 = ($3 == "0" ? "" : $3); print}' "$T/mcov" | awk '{$1 = $1} 1')
lanes=$(grep -c '^COVERAGE BIN [0-9]* [0-9]* lane: lane ' "$T/ccov")
if [[ -n $miss && $miss == "$alone" && $lanes -ge 4 ]] && grep -q "[1-9]" <<<"$miss"; then
  ok "batch --check --coverage-bins: each bin's mismatches (lanes one by one: $lanes lines) are the $nbad failing lines' bins"
else not_ok "batch --coverage-bins mismatches differ from the failing lines' bins: $(diff <(echo "$miss") <(echo "$alone") | head -3 | tr '\n' ' ')"; fi

# line length: 65534 characters pass (a comment), 65535 are refused, naming the line
{ head -3 "$T/in"; head -c 65534 /dev/zero | tr '\0' '#'; echo; head -2 "$T/in"; } >"$T/long"
[[ $("$M" batch "${I[@]}" --threads 2 <"$T/long" | wc -l) -eq 5 ]] && ok "a line of 65534 characters is read" \
  || not_ok "a line of 65534 characters is refused"
{ head -3 "$T/in"; head -c 65535 /dev/zero | tr '\0' '#'; echo; head -2 "$T/in"; } >"$T/long"
expect_error "a line of 65535 characters is refused" "stdin line 4 is longer than 65534 characters" \
  "$M" batch "${I[@]}" --threads 2 <"$T/long"
expect_error "--threads 0 is refused" "--threads needs a number from 1 to 256" "$M" batch "${I[@]}" --threads 0

# the thread pool under ThreadSanitizer: the CLI built with -fsanitize=thread runs 25 chunks on 3
# workers (the slot ring wraps around twice) and a run stopped by a bad line; any report fails
cd "$(dirname "$0")/.." || exit 1
B=build/tsan-batch
mkdir -p "$B"
if ! err=$(gcc -std=gnu11 -O1 -g -fsanitize=thread -Icmodel/include -Icmodel/tools cmodel/src/*.c cmodel/tools/*.c \
             -o "$B/mmaref" -lm -pthread 2>&1); then
  not_ok "batch under ThreadSanitizer: build failed: $err"; exit 0
fi
for i in 1 2 3 4 5; do cat "$T/in"; done | head -300000 >"$T/big"   # about 25 MiB
TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$B/mmaref" batch "${I[@]}" --threads 3 <"$T/big" >"$T/tout" 2>"$T/terr"; rc=$?
TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$B/mmaref" batch "${I[@]}" --threads 3 <"$T/bad" >/dev/null 2>>"$T/terr"; rc2=$?
if [[ $rc -eq 0 && $rc2 -eq 2 && $(wc -l <"$T/tout") -eq 300000 ]] && ! grep -q ThreadSanitizer "$T/terr" \
   && cmp -s "$T/tout" <(for i in 1 2 3 4 5; do cat "$T/want"; done | head -300000); then
  ok "batch --threads 3 under ThreadSanitizer: 300000 lines in order, a bad line stops it, no report"
else
  not_ok "batch under ThreadSanitizer: rc=$rc (bad line: $rc2) $(grep -m3 'WARNING\|SUMMARY' "$T/terr" | tr '\n' ' ')"
fi
