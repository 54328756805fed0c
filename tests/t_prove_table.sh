# docs/formal.md's tables of make prove-all rows are rendered from data (tools/prove_table.py), never typed:
#  (a) every block of docs/formal.md (<!-- prove-table: ... --> to <!-- /prove-table -->) is what
#      docs/data/prove-all.jsonl renders, and no table of rows stands outside a block; a block with one
#      figure edited by hand is reported, naming the line;
#  (b) a hand-written set of records renders to the exact expected markdown: the full table (a row's
#      name less its instruction, a pipe escaped, the notes column from variant, label and note) and the
#      boundary table (the UNKNOWN records with their timeout and reason, and as JSON); a doc's block
#      with rows= and cols= is rendered in place by --update;
#  (c) --merge replaces the record of the same row and instruction (its label kept), keeps the others (a
#      variant of the same row included), adds a new one and leaves an ERROR record (no result) out; --record makes an UNKNOWN row's record with
#      its reason and an ERROR record for a row without result.json;
#  (d) a malformed record, or a block never closed, is exit 2 and one line naming the file and line.
# runtime: 3 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
T=tools/prove_table.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
same() {  # same WHAT EXPECTED-FILE GOT-FILE
  if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1: $(diff "$2" "$3" | head -6 | tr '\n' ' ')"; fi
}

# (a) the document against its data
out=$("$PYTHON" $T --check docs/formal.md docs/data/prove-all.jsonl 2>&1); rc=$?
blocks=$(grep -c '^<!-- prove-table: ' docs/formal.md)
if [[ $rc == 0 && -z $out && $blocks -ge 9 ]]; then
  ok "docs/formal.md: its $blocks tables of rows are what docs/data/prove-all.jsonl renders"
else not_ok "docs/formal.md's tables against docs/data/prove-all.jsonl (rc=$rc, $blocks blocks; make prove-table renders them): $(head -3 <<<"$out" | tr '\n' ' ')"; fi
loose=$(awk '/^<!-- prove-table: /{b=1} /^<!-- \/prove-table -->/{b=0} !b && /^\| row \| instruction \|/{print NR}' docs/formal.md)
if [[ -z $loose ]]; then ok "docs/formal.md: no table of rows typed outside a block"
else not_ok "docs/formal.md: a table of rows typed by hand at line(s) $(tr '\n' ' ' <<<"$loose")(render it from the data)"; fi
# one figure of the first full block edited: the check names its line
line=$(awk '/^<!-- prove-table: full/{b=1; next} b && /^\| [^-]/ && ++k == 2 {print NR; exit}' docs/formal.md)
sed "${line}s/| \([0-9][0-9]*\)\.\([0-9]\) |/| \1.\2 9 |/" docs/formal.md >"$tmp/edited.md"
out=$("$PYTHON" $T --check "$tmp/edited.md" docs/data/prove-all.jsonl 2>&1); rc=$?
if [[ $rc == 1 && $out == "$tmp/edited.md:$line: the block "*"is not what docs/data/prove-all.jsonl renders"* ]]; then
  ok "a figure edited by hand in a block is reported at its line ($line)"
else not_ok "a figure edited by hand at line $line (rc=$rc, must be 1): $out"; fi

# (b) records written here, and the tables they must give
cat >"$tmp/t.jsonl" <<'EOF'
{"row": "lanes-swap-0-1:VOLTA", "instruction": "volta:mma.m8n8k4.f32.f16.f16.f32", "verdict": "PROVEN", "solver": "abc dprove", "solver_seconds": 29.1, "and_gates": 23050, "timeout": 150, "replay": null, "why": null}
{"row": "mutant-1:ada:mma.m16n8k16.f32.e4m3.e4m3.f32", "instruction": "ada:mma.m16n8k16.f32.e4m3.e4m3.f32", "verdict": "REFUTED", "solver": "abc bmc3", "solver_seconds": 0.6, "and_gates": 34268, "replay": "model 0xe5000400, unit 0xe5000000", "label": "must fail | replayed"}
{"row": "lanes-rotate-1:ADA16", "instruction": "ada:mma.m16n8k16.f32.e4m3.e4m3.f32", "verdict": "UNKNOWN", "solver": "abc dprove", "solver_seconds": 600.1, "and_gates": 39368, "timeout": 600, "note": "`iprove` unrolled first", "why": "a rotation moves every lane across the adder tree"}
{"row": "fdrda-dot:FDRDA8", "instruction": "cdna3:v_mfma_f32_32x32x8_f16", "verdict": "UNKNOWN", "variant": "without `DECODE_CUT`", "solver": "abc dprove", "solver_seconds": 900.7, "and_gates": 64864, "timeout": 900, "why": "the products behind differently built decoders"}
{"row": "fdrda-dot:FDRDA8", "instruction": "cdna3:v_mfma_f32_32x32x8_f16", "verdict": "PROVEN", "label": "`DECODE_CUT=1`", "solver": "abc iprove (unrolled)", "solver_seconds": 36.9, "and_gates": 49233, "date": "2026-11-28"}
EOF
cat >"$tmp/full.want" <<'EOF'
| row | instruction | verdict | solver | seconds | AND gates | make verify replay | notes |
|---|---|---|---|---|---|---|---|
| lanes-swap-0-1:VOLTA | volta:mma.m8n8k4.f32.f16.f16.f32 | PROVEN | abc dprove | 29.1 | 23050 |  |  |
| mutant-1 | ada:mma.m16n8k16.f32.e4m3.e4m3.f32 | REFUTED | abc bmc3 | 0.6 | 34268 | model 0xe5000400, unit 0xe5000000 | must fail \| replayed |
| lanes-rotate-1:ADA16 | ada:mma.m16n8k16.f32.e4m3.e4m3.f32 | UNKNOWN | abc dprove | 600.1 | 39368 |  | `iprove` unrolled first |
| fdrda-dot:FDRDA8 | cdna3:v_mfma_f32_32x32x8_f16 | UNKNOWN | abc dprove | 900.7 | 64864 |  | without `DECODE_CUT` |
| fdrda-dot:FDRDA8 | cdna3:v_mfma_f32_32x32x8_f16 | PROVEN | abc iprove (unrolled) | 36.9 | 49233 |  | `DECODE_CUT=1` |
EOF
cat >"$tmp/boundary.want" <<'EOF'
| row | instruction | seconds | AND gates | timeout | solver | reason | notes |
|---|---|---|---|---|---|---|---|
| lanes-rotate-1:ADA16 | ada:mma.m16n8k16.f32.e4m3.e4m3.f32 | 600.1 | 39368 | 600 | abc dprove | a rotation moves every lane across the adder tree | `iprove` unrolled first |
| fdrda-dot:FDRDA8 | cdna3:v_mfma_f32_32x32x8_f16 | 900.7 | 64864 | 900 | abc dprove | the products behind differently built decoders | without `DECODE_CUT` |
EOF
"$PYTHON" $T "$tmp/t.jsonl" >"$tmp/full.got" 2>&1
same "the full table of five records, exactly" "$tmp/full.want" "$tmp/full.got"
"$PYTHON" $T --boundary "$tmp/t.jsonl" >"$tmp/boundary.got" 2>&1
same "the boundary table: the two UNKNOWN records with timeout and reason, exactly" "$tmp/boundary.want" "$tmp/boundary.got"
got=$("$PYTHON" $T --boundary --json "$tmp/t.jsonl" | "$PYTHON" -c 'import json, sys
print(";".join("%s,%s,%s" % (r["row"], r["timeout"], r["why"]) for r in json.load(sys.stdin)))')
want="lanes-rotate-1:ADA16,600,a rotation moves every lane across the adder tree;fdrda-dot:FDRDA8,900,the products behind differently built decoders"
if [[ $got == "$want" ]]; then ok "the boundary as JSON: rows, timeouts, reasons"; else not_ok "the boundary as JSON: '$got', expected '$want'"; fi
"$PYTHON" $T --outdir "$tmp" "$tmp/t.jsonl"
if [[ $(tail -n +3 "$tmp/table.md" | wc -l) == 7 && $(head -1 "$tmp/table.md") == "make prove-all: 5 rows (2 PROVEN, 1 REFUTED, 2 UNKNOWN); 2026-11-28" ]] &&
   cmp -s "$tmp/boundary.md" "$tmp/boundary.want" && [[ -s $tmp/boundary.json ]]; then
  ok "--outdir: table.md (a line of counts, the table), boundary.md, boundary.json"
else not_ok "--outdir: $(head -1 "$tmp/table.md"); $(ls "$tmp" | tr '\n' ' ')"; fi
printf 'Before.\n\n<!-- prove-table: full rows=fdrda-dot:.* cols=row,verdict,seconds -->\nstale\n<!-- /prove-table -->\n\nAfter.\n' >"$tmp/doc.md"
printf 'Before.\n\n<!-- prove-table: full rows=fdrda-dot:.* cols=row,verdict,seconds -->\n\n| row | verdict | seconds | notes |\n|---|---|---|---|\n| fdrda-dot:FDRDA8 | UNKNOWN | 900.7 | without `DECODE_CUT` |\n| fdrda-dot:FDRDA8 | PROVEN | 36.9 | `DECODE_CUT=1` |\n\n<!-- /prove-table -->\n\nAfter.\n' >"$tmp/doc.want"
"$PYTHON" $T --check "$tmp/doc.md" "$tmp/t.jsonl" >/dev/null; rc1=$?
"$PYTHON" $T --update "$tmp/doc.md" "$tmp/t.jsonl" >/dev/null; "$PYTHON" $T --check "$tmp/doc.md" "$tmp/t.jsonl" >/dev/null; rc2=$?
if [[ $rc1 == 1 && $rc2 == 0 ]] && cmp -s "$tmp/doc.md" "$tmp/doc.want"; then
  ok "--update renders a block (rows=, cols=) in place, the text around it kept; --check fails before, passes after"
else not_ok "--update/--check on a stale block (rc $rc1, $rc2): $(diff "$tmp/doc.want" "$tmp/doc.md" | head -4 | tr '\n' ' ')"; fi

# (c) merging a run's records into the data
cp "$tmp/t.jsonl" "$tmp/data.jsonl"
cat >"$tmp/new.jsonl" <<'EOF'
{"row": "fdrda-dot:FDRDA8", "instruction": "cdna3:v_mfma_f32_32x32x8_f16", "verdict": "PROVEN", "solver": "abc iprove (unrolled)", "solver_seconds": 30.2, "and_gates": 49000, "date": "2026-12-08"}
{"row": "fda-decode:FDRDA8", "instruction": "cdna3:v_mfma_f32_32x32x8_f16", "verdict": "PROVEN", "solver": "abc iprove (unrolled)", "solver_seconds": 1.4, "and_gates": null}
{"row": "lanes-swap-0-1:VOLTA", "instruction": "volta:mma.m8n8k4.f32.f16.f16.f32", "verdict": "ERROR", "note": "must be PROVEN"}
EOF
out=$("$PYTHON" $T --merge "$tmp/data.jsonl" "$tmp/new.jsonl")
got=$("$PYTHON" $T --cols row,verdict,seconds,date "$tmp/data.jsonl")
want='| row | verdict | seconds | date | notes |
|---|---|---|---|---|
| lanes-swap-0-1:VOLTA | PROVEN | 29.1 |  |  |
| mutant-1 | REFUTED | 0.6 |  | must fail \| replayed |
| lanes-rotate-1:ADA16 | UNKNOWN | 600.1 |  | `iprove` unrolled first |
| fdrda-dot:FDRDA8 | UNKNOWN | 900.7 |  | without `DECODE_CUT` |
| fdrda-dot:FDRDA8 | PROVEN | 30.2 | 2026-12-08 | `DECODE_CUT=1` |
| fda-decode:FDRDA8 | PROVEN | 1.4 |  |  |'
if [[ $got == "$want" && $out == *"1 records replaced, 1 added, 1 ERROR records left out (6 in all)"* ]]; then
  ok "--merge: the same row and instruction replaced in place (its label kept), its variant and the others kept, a new row added, an ERROR left out"
else not_ok "--merge ($out): got $(tr '\n' ' ' <<<"$got")"; fi
printf '{"unit": "fda_unit", "instruction": "volta:mma.m8n8k4.f32.f16.f16.f32", "verdict": "UNKNOWN", "solver": "abc dprove", "timeout": 60, "solver_seconds": 60.2, "and_gates": 23962}\n' >"$tmp/result.json"
r1=$("$PYTHON" $T --record "$tmp/result.json" --row=sign-symmetry:VOLTA --verdict=UNKNOWN --expect=PROVEN --wall=75.3 \
     --date=2026-12-08 --machine="2 cores x86_64" --why="the negated copy's signals are negations")
r2=$("$PYTHON" $T --record "$tmp/none.json" --row=fda-decode:VOLTA --instruction=volta:mma.m8n8k4.f32.f16.f16.f32 \
     --verdict=ERROR --expect=PROVEN --note="must be PROVEN" --wall=1.0 --why="not for an ERROR")
got=$(printf '%s\n%s\n' "$r1" "$r2" | "$PYTHON" -c 'import json, sys
for r in map(json.loads, sys.stdin):
    print(r["row"], r["verdict"], r.get("unit"), r["expect"], r["wall_seconds"], r.get("timeout"), r["why"], r.get("note"))')
want="sign-symmetry:VOLTA UNKNOWN fda_unit PROVEN 75.3 60 the negated copy's signals are negations None
fda-decode:VOLTA ERROR None PROVEN 1.0 None None must be PROVEN"
if [[ $got == "$want" ]]; then ok "--record: result.json's fields and the row's (the reason only when UNKNOWN); an ERROR record without result.json"
else not_ok "--record: $(tr '\n' ' ' <<<"$got")"; fi

# (d) malformed input: exit 2, one line naming the file and line
head -2 "$tmp/t.jsonl" >"$tmp/bad.jsonl"; echo '{"row": "x", "instruction": "y", "verdict": "PROVEN"' >>"$tmp/bad.jsonl"
printf '{"row": "x", "instruction": "y"}\n' >"$tmp/noverdict.jsonl"
printf '{"row": "x", "instruction": "y", "verdict": "PROVEN", "and_gates": "many"}\n' >"$tmp/notnumber.jsonl"
printf 'x\n<!-- prove-table: full -->\n' >"$tmp/unclosed.md"
for c in "bad.jsonl:3: not JSON|$T $tmp/bad.jsonl" "noverdict.jsonl:1: no \"verdict\"|$T --merge $tmp/data.jsonl $tmp/noverdict.jsonl" \
         "notnumber.jsonl:1: \"and_gates\" is not a number|$T --boundary $tmp/notnumber.jsonl" \
         "unclosed.md:2: the prove-table block is not closed|$T --check $tmp/unclosed.md $tmp/t.jsonl"; do
  want=${c%%|*}; read -r -a cmd <<<"${c#*|}"
  err=$("$PYTHON" "${cmd[@]}" 2>&1 >/dev/null); rc=$?
  if [[ $rc == 2 && $(wc -l <<<"$err") == 1 && $err == *"$want"* ]]; then ok "malformed input: exit 2, one line: $want"
  else not_ok "malformed input (rc=$rc, must be 2 and one line with '$want'): $err"; fi
done
