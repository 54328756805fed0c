# Yosys 0.23 reads, elaborates and `proc`s the largest units of each kind with no latch (synth/synth.sh
# --quick): a CoFDA unit, the GDFS unit, a CoGFDRDA unit, CDNA2's K = 16 GPS unit and Hopper's FP8
# mma.sync unit (make synth maps every unit in full; tests/t_rtl_lint.sh maps the smallest).
# runtime: 200 s (a clean clone on 2 cores, beside other suites)
# tier: regress (make regress runs it: the largest units' elaboration, minutes on a clean clone)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
export SYNTH_LIBRARY=cells45
command -v yosys >/dev/null || { not_ok "synth elaborate: yosys is needed (make setup)"; exit 0; }
make -s build/rtl/gen/configs.txt >/dev/null
cofda=$(awk '$2 == "FDA" && $5 == 2 {print $1; exit}' build/rtl/gen/units.txt)
gdfs=$(awk '$2 == "GDFS" {print $1; exit}' build/rtl/gen/units.txt)
out=$(bash synth/synth.sh --quick $cofda $gdfs 2>&1); rc=$?
if [[ $rc == 0 && $(grep -c ' ok$' <<<"$out") == 2 ]]; then ok "synth elaborate: yosys reads and elaborates units $cofda (CoFDA) and $gdfs (GDFS) with no latch"
else not_ok "synth elaborate: yosys elaboration of units $cofda, $gdfs: $(tail -3 <<<"$out")"; fi
# the AMD units: CoGFDRDA (the largest fdrda_unit) and CDNA2's K = 16 GPS unit (flushing, four groups)
cogfdrda=$(awk '$2 == "FDRDA" && $5 == 2 && $3 == 32 && $10 == 0 {print $1; exit}' build/rtl/gen/units.txt)
gps=$(awk '$2 == "GPS" && $3 == 16 && $NF ~ /FLUSH=1/ && $10 == 0 {print $1; exit}' build/rtl/gen/units.txt)
out=$(bash synth/synth.sh --quick $cogfdrda $gps 2>&1); rc=$?
if [[ $rc == 0 && $(grep -c ' ok$' <<<"$out") == 2 ]]; then ok "synth elaborate: yosys reads and elaborates units $cogfdrda (CoGFDRDA) and $gps (GPS) with no latch"
else not_ok "synth elaborate: yosys elaboration of units $cogfdrda, $gps: $(tail -3 <<<"$out")"; fi
# the FP8 mma.sync schedule: Hopper's K = 16 fda_unit with pairs, f16 operands and C added last
fp8=$(awk '$2 == "FDA" && $3 == 16 && $NF ~ /C_LAST=1/ && $NF ~ /ZERO_EXP=-133/ && $10 == 0 {print $1; exit}' \
  build/rtl/gen/units.txt)
out=$(bash synth/synth.sh --quick $fp8 2>&1); rc=$?
if [[ -n $fp8 && $rc == 0 && $(grep -c ' ok$' <<<"$out") == 1 ]]; then
  ok "synth elaborate: yosys reads and elaborates unit $fp8 (FP8 mma.sync: pairs, f16 operands, C last) with no latch"
else not_ok "synth elaborate: yosys elaboration of unit '$fp8': $(tail -3 <<<"$out")"; fi
