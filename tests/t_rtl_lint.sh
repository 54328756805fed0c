# RTL hygiene: verilator --lint-only -Wall is clean for every unit parameter set the table needs, rtl/
# has no `initial` and no delays, Yosys 0.23 synthesizes the smallest unit to gates with no latch, and
# reads/elaborates a CoFDA unit and the GDFS unit with no latch (make synth does every unit in full).
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; then
  not_ok "rtl lint: verilator and yosys are needed (make setup)"
  exit 0
fi
make -s build/rtl/gen/configs.txt >/dev/null
bash synth/lint.sh
if grep -nE '^\s*initial\b|#[0-9]+\s*;|#\s*[0-9]+\s+[a-z_]' rtl/*.sv; then not_ok "rtl: no initial blocks or delays in rtl/"
else ok "rtl: no initial blocks or delays in rtl/"; fi
# Volta's FDA unit (K=4) and the GDFS unit: full synthesis, latch check, area report (make synth does all)
units=$(awk '$2 == "FDA" && $3 == 4 && $4 == 23 {print $1; exit}' build/rtl/gen/units.txt)
out=$(bash synth/synth.sh $units 2>&1); rc=$?
if [[ $rc == 0 && $out == *" ok"* ]]; then ok "rtl: yosys synthesizes unit $units with no latch ($(tail -1 <<<"$out" | awk '{print $8 " cells, " $10 " transistors"}'))"
else not_ok "rtl: yosys synthesis of unit $units: $(tail -3 <<<"$out")"; fi
cofda=$(awk '$2 == "FDA" && $5 == 2 {print $1; exit}' build/rtl/gen/units.txt)
gdfs=$(awk '$2 == "GDFS" {print $1; exit}' build/rtl/gen/units.txt)
out=$(bash synth/synth.sh --quick $cofda $gdfs 2>&1); rc=$?
if [[ $rc == 0 && $(grep -c ' ok$' <<<"$out") == 2 ]]; then ok "rtl: yosys reads and elaborates units $cofda (CoFDA) and $gdfs (GDFS) with no latch"
else not_ok "rtl: yosys elaboration of units $cofda, $gdfs: $(tail -3 <<<"$out")"; fi
