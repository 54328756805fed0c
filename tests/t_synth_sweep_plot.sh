# The fda_unit sweep's report (synth/sweep_plot.py, the end of make synth-sweep) on rows written here by
# hand: the units table and the format sets come from synth/units_extra.py sweep --subset answers, five of
# its units get a row file with chosen figures, and the answers' percentages are derived below; the
# critical path is OpenSTA's period where a row has one, ABC's delay otherwise; sweep.json holds the rows
# and the answers; sweep.png is drawn; no row, no units table or no sets.txt stops with a one-line error.
# runtime: 4 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
dir=build/rtl/sweep-plot-test
rm -rf $dir
mkdir -p $dir
PY=/usr/bin/python3
python3 synth/units_extra.py sweep --subset answers $dir >/dev/null 2>&1 \
  && ok "sweep plot: units_extra.py sweep --subset answers wrote a units table" \
  || not_ok "sweep plot: units_extra.py sweep --subset answers failed"
out=$(python3 synth/sweep_plot.py $dir 2>&1)
[[ $? != 0 && $(wc -l <<<"$out") == 1 && $out == *"no synthesized unit in $dir"* ]] \
  && ok "sweep plot: no row yet gives one line: $out" || not_ok "sweep plot: no row: $out"

unit_of() { # unit_of SET K F: the unit's index from sets.txt and units.txt
  awk -v s="$1" -v k="$2" -v f="$3" 'FNR == 1 { file++ } /^#/ { next }
    file == 1 && $2 == s { in_set[$1] = 1 } file == 2 && in_set[$1] && $3 == k && $4 == f { print $1 }' \
    $dir/sets.txt $dir/units.txt
}
row() { # row SET K F AREA DELAY [PERIOD]: a row file as synth/synth_unit.sh writes it
  local u
  u=$(unit_of "$1" "$2" "$3")
  echo "unit=$u algo=FDA K=$2 F=$3 cells=1 area_um2=$4 flops=33 delay_ps=$5 depth=10 latches=0 status=ok" \
    "seconds=7 lib=testlib lib_real=1${6:+ period_ps=$6 power_mw=1.50}" >$dir/unit$u.row
}
# Hopper's extra bit at K = 8, timed by OpenSTA: area 1000 -> 1100 µm² is +10.0 %, period 2000 -> 1900 ps
# is -5.0 % (ABC's 3000 and 3100 are not the path)
row f16/bf16 8 24 1000 3000 2000
row f16/bf16 8 25 1100 3100 1900
# Blackwell's FP8 precision at K = 8, ABC's delay only: area 400 -> 500 is +25.0 %, delay 800 -> 1000 +25.0 %
row fp8 8 13 400 800
row fp8 8 25 500 1000
# run-time formats: e4m3 alone 250 µm², 900 ps against fp8's 500, 1000: +100.0 %, +11.1 %
row e4m3 8 25 250 900
out=$(python3 synth/sweep_plot.py $dir 2>&1) || not_ok "sweep plot: failed on the hand rows: $(tail -1 <<<"$out")"
md=$(cat $dir/sweep.md 2>/dev/null)
grep -q "^\*\*Hopper's extra bit.*K = 8: area +10.0 %, path -5.0 %\." <<<"$md" \
  && ok "sweep plot: Hopper's extra bit from OpenSTA's periods (+10.0 %, -5.0 %)" \
  || not_ok "sweep plot: Hopper's extra bit: $(grep Hopper <<<"$md")"
grep -q "^\*\*Blackwell's FP8 precision.*K = 8: area +25.0 %, path +25.0 %\." <<<"$md" \
  && ok "sweep plot: Blackwell's FP8 precision from ABC's delays (+25.0 %, +25.0 %)" \
  || not_ok "sweep plot: Blackwell's FP8: $(grep Blackwell <<<"$md")"
grep -q "fp8 against e4m3 (K = 8, F = 25): area +100.0 %, path +11.1 %" <<<"$md" \
  && ok "sweep plot: run-time formats fp8 against e4m3 (+100.0 %, +11.1 %)" \
  || not_ok "sweep plot: run-time formats: $(grep Run-time <<<"$md")"
grep -q "^| f16/bf16 | 8 | 24 | 1,000 | 2,000 | 3,000 | 1.50 | 10 | $(unit_of f16/bf16 8 24) | 7 |$" <<<"$md" \
  && grep -q "^| fp8 | 8 | 13 | 400 | 800 | 800 | - | 10 | $(unit_of fp8 8 13) | 7 |$" <<<"$md" \
  && grep -q "on testlib" <<<"$md" && grep -q "OpenSTA.s minimum period where a row has one, else ABC.s delay" <<<"$md" \
  && ok "sweep plot: table rows (period where timed, ABC's delay where not), library and path named" \
  || not_ok "sweep plot: table: $(grep -E '^\| (f16/bf16|fp8) \| 8 \| (24|13)' <<<"$md")"
# sweep.csv: a figure the row lacks (the ABC-only row has no power) is an empty field, not a word
grep -qx "fp8,8,13,400.0,800.0,800.0,,10,$(unit_of fp8 8 13)" $dir/sweep.csv \
  && grep -qx "f16/bf16,8,24,1000.0,2000.0,3000.0,1.5,10,$(unit_of f16/bf16 8 24)" $dir/sweep.csv \
  && ok "sweep plot: sweep.csv rows, an empty field where the row has no power" \
  || not_ok "sweep plot: sweep.csv: $(grep -E '^(fp8,8,13|f16/bf16,8,24),' $dir/sweep.csv | tr '\n' ' ')"
$PY - "$dir/sweep.json" <<'EOF' && ok "sweep plot: sweep.json holds the 5 rows and the 3 answers" || not_ok "sweep plot: sweep.json"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {(r["format_set"], r["K"], r["F"]): r for r in d["rows"]}
assert len(rows) == 5, rows
assert rows[("f16/bf16", 8, 24)]["path_ps"] == 2000 and rows[("f16/bf16", 8, 24)]["abc_ps"] == 3000
assert rows[("fp8", 8, 13)]["path_ps"] == 800 and rows[("fp8", 8, 13)]["period_ps"] is None
assert rows[("fp8", 8, 25)]["formats"] == ["e4m3", "e5m2"]
assert d["libraries"] == ["testlib"] and len(d["answers"]) == 3, d["answers"]
EOF
if command -v gnuplot >/dev/null; then
  [[ -s $dir/sweep.png ]] && ok "sweep plot: sweep.png drawn" || not_ok "sweep plot: no sweep.png"
fi
out=$(python3 synth/sweep_plot.py $dir/no-such 2>&1)
[[ $? != 0 && $(wc -l <<<"$out") == 1 && $out == usage:* ]] && ok "sweep plot: a folder without units.txt: $out" \
  || not_ok "sweep plot: missing folder: $out"
mv $dir/sets.txt $dir/sets.moved
out=$(python3 synth/sweep_plot.py $dir 2>&1)
[[ $? != 0 && $(wc -l <<<"$out") == 1 && $out == *"sets.txt: No such file or directory"* ]] \
  && ok "sweep plot: no sets.txt beside units.txt: $out" || not_ok "sweep plot: missing sets.txt: $out"
