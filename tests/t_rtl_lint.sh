# RTL hygiene: rtl/mma_formats.svh is what the model's schema gives and the DPI packages' limits hold
# the schema's; mma_unpack decodes every value of every format (f64, fnuz included) as the model does;
# rtl/rtl.f is the one list of the RTL; verilator --lint-only -Wall is clean for every unit
# parameter set the table needs, with no PINCONNECTEMPTY waiver; rtl/ has no `initial` and no delays;
# Yosys 0.23 synthesizes the smallest unit to gates with no latch, and reads/elaborates a CoFDA unit,
# the GDFS unit, a CoGFDRDA unit and a GPS unit with no latch (make synth does every unit in full).
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; then
  not_ok "rtl lint: verilator and yosys are needed (make setup)"
  exit 0
fi
make -s build/rtl/gen/configs.txt >/dev/null
# the format table and codes are written by hand in one place only, the model
if out=$(python3 synth/gen_formats.py --mmaref "$MMAREF" --check 2>&1); then
  ok "rtl: rtl/mma_formats.svh is what mmaref list --schema --json gives"
else not_ok "rtl: rtl/mma_formats.svh differs from the model's schema (make rtl-formats): $(head -30 <<<"$out")"; fi
if out=$(python3 synth/gen_formats.py --mmaref "$MMAREF" --dpi-limits dpi/mmaref_dpi_pkg.sv dpi/mmaref_dpi.h 2>&1)
then ok "rtl: $out"
else not_ok "rtl: DPI limits against the schema: $out"; fi
# the unpacker decodes every value of every format as the model does (f64 and fnuz too)
if out=$(make -s build/rtl/obj-unpack/Vtb_unpack 2>&1); then build/rtl/obj-unpack/Vtb_unpack
else not_ok "rtl: mma_unpack test builds: $(tail -5 <<<"$out")"; fi
# rtl/rtl.f lists every RTL file, and nothing else names them in a list
listed=$(sed 's|//.*||; /^[[:space:]]*+incdir+/d' rtl/rtl.f | xargs -n1 | sort)
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
# the AMD units: CoGFDRDA (the largest fdrda_unit) and CDNA2's K = 16 GPS unit (flushing, four groups)
cogfdrda=$(awk '$2 == "FDRDA" && $5 == 2 && $3 == 32 && $10 == 0 {print $1; exit}' build/rtl/gen/units.txt)
gps=$(awk '$2 == "GPS" && $3 == 16 && $NF ~ /FLUSH=1/ && $10 == 0 {print $1; exit}' build/rtl/gen/units.txt)
out=$(bash synth/synth.sh --quick $cogfdrda $gps 2>&1); rc=$?
if [[ $rc == 0 && $(grep -c ' ok$' <<<"$out") == 2 ]]; then ok "rtl: yosys reads and elaborates units $cogfdrda (CoGFDRDA) and $gps (GPS) with no latch"
else not_ok "rtl: yosys elaboration of units $cogfdrda, $gps: $(tail -3 <<<"$out")"; fi
