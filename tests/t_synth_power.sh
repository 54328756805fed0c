# Power from the unit's own activity (docs/synthesis.md, "Power"): the smallest FDA unit of the table that an
# instruction serves (Hopper's mma.m16n8k4.f32.tf32.tf32.f32, K = 4) through synth/synth.sh on each real
# library synth/liberty.py finds; per library: the activity-based power (synth/activity.py simulates the
# netlist on the instruction's random vectors, checked against the model's D) is there, positive and not
# the default-activity figure; pJ/MAC equals mW x period / K (computed here from the row's own fields);
# the idle figure equals OpenSTA's own total with no activity (an independent OpenSTA run); the same netlist
# on a stimulus with zero toggles (every cycle the first vector) gives that idle figure, leakage and the
# flip-flops' clock pins only, below the random stimulus's.  Also: `synth.sh` keeps each library's rows in
# a folder of its own (build/synth/LIB_NAME), and a unit no instruction serves has no stimulus (one-line
# error, non-zero exit).  With no real library found the suite says so and stops.
# runtime: 100 s (a clean clone on CI's 2 cores, beside other suites; most of it the two syntheses of a
# 6,000-7,000-cell unit, as no smaller unit has an instruction)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v sta >/dev/null; then
  not_ok "synth power: yosys and OpenSTA (sta) are needed (make setup)"
  exit 0
fi
dir=build/rtl/synth-power-test
rm -rf $dir
mkdir -p $dir
make -s build/rtl/gen/configs.txt >/dev/null || { not_ok "synth power: no build/rtl/gen/configs.txt"; exit 0; }
instr=mma.m16n8k4.f32.tf32.tf32.f32
unit=$(awk -v i=$instr '$3 == "check" && $4 == "hopper" && $5 == i {print $2; exit}' build/rtl/gen/configs.txt)
awk -v u="$unit" '$1 == u' build/rtl/gen/units.txt >$dir/units.txt
cp build/rtl/gen/configs.txt $dir/configs.txt
K=$(awk '{print $3}' $dir/units.txt)
if [[ -z $unit || $K != 4 ]]; then not_ok "synth power: no K = 4 unit serves hopper $instr (unit '$unit', K '$K')"; exit 0; fi

real=()
for name in nangate45 sky130hd; do
  python3 synth/liberty.py resolve $name >/dev/null 2>&1 && real+=("$name")
done
if [[ ${#real[@]} == 0 ]]; then
  ok "synth power: no real library found: no power to check (cells45 has no power tables)"
  exit 0
fi

# every library at once
for name in "${real[@]}"; do
  SYNTH_LIBRARY=$name SYNTH_UNITS=$dir/units.txt SYNTH_OUT=$dir/$name SYNTH_NOREPORT=1 SYNTH_NOSHARE=1 \
    bash synth/synth.sh "$unit" >$dir/$name.out 2>&1 &
done
wait

val() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $(cat "$1" 2>/dev/null)"; }
for name in "${real[@]}"; do
  row=$dir/$name/unit$unit.row
  if [[ $(val $row status) != ok ]]; then
    not_ok "synth power: $name: unit $unit did not synthesize: $(tail -2 $dir/$name.out)"
    continue
  fi
  def=$(val $row power_mw) act=$(val $row power_act_mw) idle=$(val $row power_idle_mw) pj=$(val $row pj_mac)
  per=$(val $row period_ps) src=$(val $row act_source) modes=$(val $row power_modes)
  # present, positive, not the default activity's figure (more than 5 % apart)
  if [[ -n $act && -n $def ]] && awk -v a="$act" -v d="$def" 'BEGIN {exit !(a > 0 && (a - d > 0.05 * d || d - a > 0.05 * d))}'; then
    ok "synth power: $name: unit $unit at $per ps: $act mW on its own stimulus ($src, $modes) against $def mW at the default activity 0.1"
  else not_ok "synth power: $name: activity power '$act' mW, default '$def' mW (want both, positive and > 5 % apart; act_status '$(val $row act_status)')"; fi
  # pJ per multiply-add = mW x ps / 1000 / K (one vector a cycle: CHAIN 1), the row's fields rounded to 4 digits
  want=$(awk -v a="$act" -v p="$per" -v k="$K" 'BEGIN {printf "%.6g", a * p / 1000 / k}')
  if [[ -n $pj ]] && awk -v a="$pj" -v b="$want" 'BEGIN {d = (a - b) / b; exit !(d < 0.002 && d > -0.002)}'; then
    ok "synth power: $name: $pj pJ/MAC = $act mW x $per ps / $K products ($want)"
  else not_ok "synth power: $name: pJ/MAC '$pj', want $act x $per / 1000 / $K = $want"; fi
  # the idle figure against OpenSTA's own total with every net still (an independent run on the same files)
  libfile=$(python3 synth/liberty.py resolve $name | sed -n "s/^LIB_FILE=//p" | tr -d "'")
  printf '%s\n' "read_liberty $libfile" "read_verilog $dir/$name/unit$unit.v" "link_design fda_unit" \
    "read_sdc $dir/$name/unit$unit.sdc" "set_power_activity -global -activity 0 -duty 0.5" "report_power -digits 6" \
    >$dir/$name/idle.tcl
  total=$(sta -no_splash -exit $dir/$name/idle.tcl 2>&1 | awk '/^Total/ {print; exit}')
  sta_idle=$(awk '{printf "%.6g", $5 * 1000}' <<<"$total") leak=$(awk '{printf "%.4g", $4 * 1000}' <<<"$total")
  if [[ -n $idle && -n $sta_idle ]] && awk -v a="$idle" -v b="$sta_idle" 'BEGIN {exit !(a - b < 0.001 * b && b - a < 0.001 * b && b > 0)}'; then
    ok "synth power: $name: idle $idle mW = OpenSTA's total with no activity ($sta_idle mW, of which leakage $leak)"
  else not_ok "synth power: $name: idle '$idle' mW against OpenSTA's '$sta_idle' mW with no activity"; fi
  # zero toggles: the first vector every cycle; synth/sta.py again on the same netlist, as the flow calls it
  crow=$(eval "$(python3 synth/liberty.py resolve $name)"; export LIB_FILE CLK_Q_NS SETUP_NS WIRE_LOAD FF_CELLS TIE_LO TIE_HI TIME_UNIT_PS
         UNIT_ROW="$(cat $dir/units.txt)" SYNTH_CONFIGS=$dir/configs.txt SYNTH_POWER_CONSTANT=1 \
         python3 synth/sta.py $dir/$name/unit$unit fda_unit)
  cact=$(sed -n 's/.* power_act_mw=\([^ ]*\).*/\1/p' <<<" $crow")
  if [[ -n $cact ]] && awk -v c="$cact" -v i="$idle" -v a="$act" 'BEGIN {exit !(c - i < 0.001 * i && i - c < 0.001 * i && c < a)}'; then
    ok "synth power: $name: a stimulus with zero toggles gives $cact mW = the idle figure (leakage $leak mW and the clock pins), below $act"
  else not_ok "synth power: $name: zero-toggle stimulus '$cact' mW, want the idle '$idle' mW below '$act' ($crow)"; fi
done

# one folder per library: synth.sh's default output (the quick elaboration: no mapping)
for name in "${real[@]}"; do
  rm -f build/synth/$name/unit$unit-quick.row
  SYNTH_LIBRARY=$name bash synth/synth.sh --quick "$unit" >/dev/null 2>&1
done
got=$(for name in "${real[@]}"; do echo "$name:$(val build/synth/$name/unit$unit-quick.row lib)"; done | xargs)
want=$(for name in "${real[@]}"; do echo "$name:$name"; done | xargs)
if [[ $got == "$want" ]]; then ok "synth power: each library's rows in build/synth/LIB_NAME ($got)"
else not_ok "synth power: per-library folders: got '$got', want '$want'"; fi

# a unit no instruction serves has no stimulus: one line, non-zero exit
echo "999 ${unit:+$(cut -d' ' -f2- $dir/units.txt)}" >$dir/row999
first=${real[0]}
expect_error "synth power: a unit no instruction serves is refused (no stimulus)" "no instruction in the configs serves it" \
  python3 synth/activity.py $dir/$first/unit$unit.v fda_unit "$(python3 synth/liberty.py resolve $first | sed -n "s/^LIB_FILE=//p" | tr -d "'")" \
  $dir/row999 $dir/configs.txt build/mmaref $dir/none.json
