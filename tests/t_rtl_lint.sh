# RTL hygiene: rtl/mma_formats.svh is what the model's schema gives (its unit catalogue matching the
# modules' parameters and ports) and the DPI packages' limits hold
# the schema's; mma_unpack decodes every value of every format (f64, fnuz included) as the model does;
# rtl/rtl.f is the one list of the RTL; verilator --lint-only -Wall is clean for every unit
# parameter set the table needs, with no PINCONNECTEMPTY waiver; rtl/ has no `initial` and no delays;
# Yosys 0.23 maps the smallest unit onto the 45 nm library synth/cells45.lib (check -assert, no latch, area
# and delay read back) and rejects a latch and a library without a flip-flop (make synth does every unit
# in full; tests/t_synth_elaborate.sh, in make regress, elaborates the largest units of each kind).
# runtime: 160 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
# the flow's checks on the project's own library (tests/t_synth_lib.sh times the real ones)
export SYNTH_LIBRARY=cells45
if ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; then
  not_ok "rtl lint: verilator and yosys are needed (make setup)"
  exit 0
fi
make -s build/rtl/gen/configs.txt >/dev/null
# the format table and codes are written by hand in one place only, the model
if out=$(python3 synth/gen_formats.py --mmaref "$MMAREF" --check 2>&1); then
  ok "rtl: rtl/mma_formats.svh is what mmaref list --schema --json gives"
else not_ok "rtl: rtl/mma_formats.svh differs from the model's schema (make rtl-formats): $(head -30 <<<"$out")"; fi
# the schema's unit catalogue is held against rtl/: a catalogue row whose port set differs fails the check
bad=$("$MMAREF" list --schema --json | python3 -c 'import json, sys
s = json.load(sys.stdin); s["units"][-1]["inputs"].remove("out_kind"); json.dump(s, sys.stdout)' 2>&1)
if out=$(python3 synth/gen_formats.py --json - --check <<<"$bad" 2>&1); then
  not_ok "rtl: gen_formats.py --check let through a unit catalogue row without a port of its module"
elif [[ $out == *"unit kind"*"ports are inputs"*"out_kind"* ]]; then
  ok "rtl: gen_formats.py --check holds the schema's unit catalogue against the modules' headers"
else not_ok "rtl: gen_formats.py --check on a wrong unit catalogue row: $(tail -3 <<<"$out")"; fi
if out=$(python3 synth/gen_formats.py --mmaref "$MMAREF" --dpi-limits dpi/mmaref_dpi_pkg.sv dpi/mmaref_dpi.h 2>&1)
then ok "rtl: $out"
else not_ok "rtl: DPI limits against the schema: $out"; fi
# the unpacker decodes every value of every format as the model does (f64 and fnuz too)
if out=$(make -s build/rtl/obj-unpack/Vtb_unpack 2>&1); then build/rtl/obj-unpack/Vtb_unpack
else not_ok "rtl: mma_unpack test builds: $(tail -5 <<<"$out")"; fi
# rtl/rtl.f lists every RTL file, and nothing else names them in a list
listed=$(python3 synth/rtl_files.py --all | xargs -n1 | sort)
missing=$(comm -23 <(ls rtl/*.sv | sort) <(echo "$listed"))
others=$(for f in Makefile mk/*.mk synth/*.sh synth/*.py tests/*.sh tb/*.sh tb/*.py; do   # two or more named
  [[ $(grep -oE 'rtl/[a-z_]+\.sv\b' "$f" | sort -u | wc -l) -ge 2 ]] && echo "$f"; done)
if [[ -z $missing && -z $others ]]; then ok "rtl: rtl/rtl.f is the one list of the RTL's $(wc -l <<<"$listed") files"
else not_ok "rtl: rtl/rtl.f misses '$missing'; other lists of RTL files in '$others'"; fi
if grep -n 'lint_off PINCONNECTEMPTY' rtl/*.sv rtl/*.svh; then not_ok "rtl: no PINCONNECTEMPTY waivers in rtl/"
else ok "rtl: no PINCONNECTEMPTY waivers in rtl/"; fi
bash synth/lint.sh
if grep -nE '^\s*initial\b|#[0-9]+\s*;|#\s*[0-9]+\s+[a-z_]' rtl/*.sv; then not_ok "rtl: no initial blocks or delays in rtl/"
else ok "rtl: no initial blocks or delays in rtl/"; fi
# The smallest unit (Volta's FDA, K=4) through the full flow onto synth/cells45.lib: check -assert, no
# latch, every cell mapped, and area, delay and depth read back (make synth does every unit in full)
units=$(awk '$2 == "FDA" && $3 == 4 && $4 == 23 {print $1; exit}' build/rtl/gen/units.txt)
out=$(SYNTH_OUT=build/rtl/synth-test SYNTH_NOREPORT=1 bash synth/synth.sh $units 2>&1); rc=$?
row=$(cat build/rtl/synth-test/unit$units.row 2>/dev/null)
val() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $row"; }
if [[ $rc == 0 && $(val status) == ok ]] && awk -v a="$(val area_um2)" -v d="$(val delay_ps)" -v l="$(val depth)" \
     -v f="$(val flops)" 'BEGIN {exit !(a > 0 && d > 0 && l > 0 && f > 0)}'; then
  ok "rtl: unit $units on the 45 nm library: $(val cells) cells, $(val area_um2) um^2, $(val flops) flops, $(val delay_ps) ps, depth $(val depth)"
else not_ok "rtl: 45 nm synthesis of unit $units: rc=$rc row='$row' $(tail -3 <<<"$out")"; fi
# The report names a row by what it serves, not only by its index (which shifts when units are added):
# Volta's K = 4 FDA unit serves Volta's three mma.m8n8k4 types (f32 and f16 D, f32 and f16 C)
rep=$(python3 synth/report.py --units build/rtl/gen/units.txt --dir build/rtl/synth-test $units 2>&1)
area=$(python3 -c 'import sys; print(f"{float(sys.argv[1]):,.0f}")' "$(val area_um2)" 2>/dev/null)  # as the report prints it
if grep -qF "| $units | volta: 3 instructions | fda_unit | 4 | 23 |" <<<"$rep" && grep -qF "| $area |" <<<"$rep"; then
  ok "rtl: synthesis report row: unit $units, volta: 3 instructions, $area um^2"
else not_ok "rtl: synthesis report row of unit $units: $(grep -F "| $units |" <<<"$rep" || tail -2 <<<"$rep")"; fi
# A report merges rows from an earlier report.json (how a unit synthesized apart joins the table): the row
# comes back with its area; a report.json first needs --out
rm -rf build/rtl/synth-test/merged
rep=$(python3 synth/report.py --units build/rtl/gen/units.txt --dir build/rtl/synth-test/report.json \
      --out build/rtl/synth-test/merged $units 2>&1)
if grep -qF "| $area |" build/rtl/synth-test/merged/report.md 2>/dev/null; then
  ok "rtl: synthesis report merged from an earlier report.json: unit $units, $area um^2"
else not_ok "rtl: synthesis report merged from report.json: $(tail -2 <<<"$rep")"; fi
expect_error "rtl: report.py refuses a report.json as its output directory" "name a directory with --out" \
  python3 synth/report.py --units build/rtl/gen/units.txt --dir build/rtl/synth-test/report.json $units
# The flow rejects what it must: a unit with a latch (synth/latch_mutant.sv), and a library that cannot map
# a flip-flop (synth/cells45.lib without DFF_X1); a tiny probe unit shows the library itself maps
tmp=build/rtl/synth-test/mutants
mkdir -p $tmp
printf '%s\n' "0 PROBE 1 0 1 0 0 0 0 0 mul_probe L=1,W=4" "1 LATCH 1 0 1 0 0 0 0 0 latch_mutant W=4" >$tmp/units.txt
awk '/^  cell \(DFF_X1\)/ {skip = 1} skip && /^  }$/ {skip = 0; next} !skip' synth/cells45.lib >$tmp/no-dff.lib
mutant() { # mutant WHAT UNIT WANT_STATUS [ENV...]
  local what=$1 u=$2 want=$3; shift 3
  local out rc st
  out=$(env "$@" SYNTH_UNITS=$tmp/units.txt SYNTH_OUT=$tmp SYNTH_NOREPORT=1 \
        SYNTH_EXTRA="synth/mul_probe.sv synth/latch_mutant.sv" bash synth/synth.sh "$u" 2>&1); rc=$?
  st=$(sed -n 's/.* status=\([^ ]*\).*/\1/p' $tmp/unit$u.row 2>/dev/null)
  if [[ $want == ok && $rc == 0 && $st == ok ]] || [[ $want != ok && $rc != 0 && $st == "$want"* ]]; then
    ok "rtl: synthesis flow: $what ($st)"
  else not_ok "rtl: synthesis flow: $what: rc=$rc status='$st', wanted $want: $(tail -2 <<<"$out")"; fi
}
mutant "a probe unit maps onto synth/cells45.lib" 0 ok
mutant "a unit with a latch is rejected" 1 LATCH
mutant "a library without a flip-flop is rejected (dfflibmap)" 0 FAILED SYNTH_LIBRARY=$tmp/no-dff.lib
