# Synthesis on real cell libraries, timed by OpenSTA (docs/synthesis.md): the smallest fda_unit (K = 1,
# e2m1 operands, F = 13, f32 C and D) through `synth/synth.sh` on each real library synth/liberty.py finds
# (nangate45, sky130hd: SYNTH_LIB, PDK_ROOT, FLOW_HOME or ../shared/liberty) and on the fallback
# synth/cells45.lib; per library: OpenSTA reads the netlist with no unconstrained endpoint, the SDC's
# period has slack >= 0 and 1 ps less, and 0.9 of it, a negative slack (the reported period is the minimum
# in whole ps),
# OpenSTA's combinational delay without wire load equals ABC's stime within 5 %; sky130's dont_use cells
# are not in its netlist; every flip-flop carries its register's name, and naming them changes no cell;
# the fallback is taken and announced when SYNTH_LIB points nowhere; a unit whose
# ABC script runs past SYNTH_TIMEOUT is redone without the SAT sweeps and its row says so; the default
# (bounded) script limits the sweep's conflicts, the full one does not and its row's command names it; a
# bad library name or path, or ABC script, stops with a one-line error naming it.  With no real library found the suite says
# so and checks cells45 only.
# runtime: 139 s (a clean clone on 2 cores, beside other suites; 40 s of it a wait)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null || ! command -v sta >/dev/null; then
  not_ok "synth lib: yosys and OpenSTA (sta) are needed (make setup)"
  exit 0
fi
dir=build/rtl/synth-lib-test
mkdir -p $dir
echo "0 FDA 1 13 1 0 512 2 1 0 fda_unit K=1,F=13,CHAIN=1,BLOCK=0,AB_MASK=512,C_MASK=2,OUT_MASK=1,ZERO_EXP=0" \
  >$dir/units.txt
TOL_PCT=5  # OpenSTA without wire load against ABC's stime

real=()
for name in nangate45 sky130hd; do
  python3 synth/liberty.py resolve $name >/dev/null 2>&1 && real+=("$name")
done
if [[ ${#real[@]} == 0 ]]; then
  ok "synth lib: no real library found ($(python3 synth/liberty.py resolve nangate45 2>&1 | sed 's/.*(searched/searched/; s/;.*//')): only cells45 checked with OpenSTA"
fi

# every library at once, two at a time; the fallback through a SYNTH_LIB that points nowhere
run() { # run OUT_NAME ENV...
  local o=$1; shift
  rm -rf "${dir:?}/$o"
  env "$@" SYNTH_UNITS=$dir/units.txt SYNTH_OUT=$dir/$o SYNTH_NOREPORT=1 bash synth/synth.sh 0 >$dir/$o.out 2>&1
  echo $? >$dir/$o.rc
}
# ABC's default script past SYNTH_TIMEOUT: a yosys that hangs on a script with the SAT sweeps (&fraig -x)
# and is the real one otherwise; the unit is redone without them (first: its wait overlaps the others)
mkdir -p $dir/hang
printf '#!/bin/bash\n# hangs on an ABC script with its SAT sweeps, else the real yosys\nys=${@: -1}\n%s\n%s\n' \
  'abc=$(sed -n "s/.*-script \([^ ]*\).*/\1/p" "$ys"); [[ -n $abc ]] && grep -q "&fraig" "$abc" && exec sleep 60' \
  "exec $(command -v yosys) \"\$@\"" >$dir/hang/yosys
chmod +x $dir/hang/yosys
run timeout PATH="$PWD/$dir/hang:$PATH" SYNTH_TIMEOUT=40 SYNTH_LIBRARY=cells45 &
jobs=0
for name in "${real[@]}"; do
  run "$name" SYNTH_LIBRARY="$name" &
  if (( ++jobs % 2 == 0 )); then wait; fi
done
run fallback SYNTH_LIBRARY=auto SYNTH_LIB=$dir/no-such-folder &
run full SYNTH_LIBRARY=cells45 SYNTH_ABC=full &
wait

val() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $(cat "$dir/$1/unit0.row" 2>/dev/null)"; }
# OpenSTA on the flow's netlist and SDC, independently of synth/sta.py's reading of its own run:
# check_setup says nothing, worst slack at the SDC's period, at 1 ps less and at 0.9 of it
sta_check() { # sta_check OUT_NAME LIB_FILE
  local o=$1 lib=$2 period p1 p90 out
  period=$(sed -n 's/^create_clock .*-period \([0-9.]*\).*/\1/p' $dir/$o/unit0.sdc)
  # 1 ps in the SDC's time unit: the period in it over the row's period in ps
  p1=$(awk -v p="${period:-0}" -v ps="$(val $o period_ps)" 'BEGIN {printf "%.4f", (ps > 0 ? p - p / ps : 0)}')
  p90=$(awk -v p="${period:-0}" 'BEGIN {printf "%.4f", 0.9 * p}')
  sed "s/-period $period /-period $p1 /" $dir/$o/unit0.sdc >$dir/$o/unit0.1ps.sdc
  sed "s/-period $period /-period $p90 /" $dir/$o/unit0.sdc >$dir/$o/unit0.90.sdc
  printf '%s\n' "read_liberty $lib" "read_verilog $dir/$o/unit0.v" "link_design fda_unit" \
    "read_sdc $dir/$o/unit0.sdc" "puts \"== check\"" "check_setup -verbose -unconstrained_endpoints -no_clock" \
    "puts \"== at period\"" "report_worst_slack -digits 4" "read_sdc $dir/$o/unit0.1ps.sdc" \
    "puts \"== at 1 ps less\"" "report_worst_slack -digits 4" "read_sdc $dir/$o/unit0.90.sdc" \
    "puts \"== at 0.9\"" "report_worst_slack -digits 4" >$dir/$o/check.tcl
  out=$(sta -no_splash -exit $dir/$o/check.tcl 2>&1)
  local warn slack slack1 slack90
  warn=$(sed -n '/== check/,/== at period/p' <<<"$out" | grep -c 'Warning\|Error')
  slack=$(sed -n '/== at period/,/== at 1 ps less/s/^worst slack \(.*\)/\1/p' <<<"$out")
  slack1=$(sed -n '/== at 1 ps less/,/== at 0.9/s/^worst slack \(.*\)/\1/p' <<<"$out")
  slack90=$(sed -n '/== at 0.9/,$s/^worst slack \(.*\)/\1/p' <<<"$out")
  if [[ -n $period && $warn == 0 ]]; then ok "synth lib: $o: OpenSTA reads the netlist, every endpoint constrained ($(val $o flops) flip-flops)"
  else not_ok "synth lib: $o: OpenSTA check_setup: period='$period' $(head -5 <<<"$out")"; fi
  if [[ -n $slack && -n $slack1 && -n $slack90 ]] \
     && awk -v a="$slack" -v b="$slack1" -v c="$slack90" 'BEGIN {exit !(a >= 0 && b < 0 && c < 0)}'; then
    ok "synth lib: $o: minimum period $(val $o period_ps) ps: slack $slack ns there, $slack1 ns 1 ps less, $slack90 ns at 0.9 of it"
  else not_ok "synth lib: $o: slack at period $period: '$slack' (want >= 0), at $p1: '$slack1' and at $p90: '$slack90' (want < 0)"; fi
}

# every flip-flop named after the register it holds (instance NAME_reg) and the critical path's ends a port
# or reg:NAME; the naming is names only: the unit's Yosys script without it gives the same cells and area.
# A netlist whose flip-flops are numbers (the naming left out) must fail the count.
unnamed_ffs() { # unnamed_ffs NETLIST: the flip-flop instances whose name is not NAME_reg
  awk -v ff=" $FF_CELLS " 'index(ff, " " $1 " ") && $2 !~ /_reg$/ {n++} END {print n + 0}' "$1"
}
names_check() { # names_check OUT_NAME
  local o=$1 b=$dir/$1/unit0 FF_CELLS unnamed ends mutant
  FF_CELLS=$(python3 synth/liberty.py resolve "$(val $o lib)" | sed -n "s/^FF_CELLS=//p" | tr -d "'")
  unnamed=$(unnamed_ffs $b.v)
  ends="$(val $o crit_start) $(val $o crit_end)"
  sed -E 's/^(\s*\S+\s+)\\\S+_reg\s*\(/\1_1_ (/' $b.v >$b.unnamed.v
  mutant=$(unnamed_ffs $b.unnamed.v)
  sed "s#$b#$b.nonames#g; /^script .*ffnames/d" $b.ys >$b.nonames.ys
  cp $b.abc $b.nonames.abc
  yosys -q -s $b.nonames.ys >/dev/null 2>&1
  local area0 area1
  area0=$(sed -n 's/.*Chip area for.*: \([0-9.]*\).*/\1/p' $b.stat)
  area1=$(sed -n 's/.*Chip area for.*: \([0-9.]*\).*/\1/p' $b.nonames.stat 2>/dev/null)
  if [[ $unnamed == 0 && $(val $o flops) -gt 0 && $ends != *" _"* && $ends != _* && $mutant == "$(val $o flops)" \
        && -n $area0 && $area0 == "$area1" ]] && cmp -s <(tail -n +3 $b.stat) <(tail -n +3 $b.nonames.stat); then
    ok "synth lib: $o: all $(val $o flops) flip-flops named NAME_reg, critical path $ends; without the naming the same area ($area0 um^2) and cells; a netlist of numbered flip-flops is caught ($mutant unnamed)"
  else not_ok "synth lib: $o: flip-flop names: $unnamed of $(val $o flops) unnamed, path '$ends', area $area0 against $area1 without the naming, mutant $mutant"; fi
}

for o in "${real[@]}" fallback; do
  rc=$(cat $dir/$o.rc 2>/dev/null)
  if [[ $rc != 0 || $(val $o status) != ok ]]; then
    not_ok "synth lib: $o: synthesis and timing: rc=$rc status='$(val $o status)' $(tail -3 $dir/$o.out)"
    continue
  fi
  libfile=$(python3 synth/liberty.py resolve "$([[ $o == fallback ]] && echo cells45 || echo $o)" \
            | sed -n "s/^LIB_FILE=//p" | tr -d "'")
  ok "synth lib: $o: unit 0 (fda_unit K 1) on $(val $o lib): $(val $o area_um2) um^2, period $(val $o period_ps) ps, critical path $(val $o crit_start) -> $(val $o crit_end), $(val $o crit_levels) cells"
  sta_check "$o" "$libfile"
  names_check "$o"
  # two timers: OpenSTA without wire load against ABC's stime
  a=$(val $o sta_comb_ps) b=$(val $o delay_ps)
  if [[ -n $a && -n $b ]] && awk -v a="$a" -v b="$b" -v t=$TOL_PCT 'BEGIN {d = (a - b) / b * 100; exit !(d <= t && d >= -t)}'; then
    ok "synth lib: $o: OpenSTA's combinational delay without wire load $a ps = ABC's stime $b ps within $TOL_PCT %"
  else not_ok "synth lib: $o: OpenSTA $a ps against ABC $b ps: more than $TOL_PCT % apart"; fi
  # power at the default activity where the library has power data; none on cells45, which has no
  # power tables (OpenSTA reports 0 W for it: a figure that is not a measurement)
  pw=$(val $o power_mw)
  if [[ $o == fallback ]]; then
    if [[ -z $pw ]]; then ok "synth lib: $o: no power figure on $(val $o lib) (no power tables)"
    else not_ok "synth lib: $o: power_mw=$pw on a library without power tables"; fi
  elif awk -v p="$pw" 'BEGIN {exit !(p > 0)}'; then ok "synth lib: $o: power at the default activity $pw mW"
  else not_ok "synth lib: $o: power_mw='$pw' on a library with power tables"; fi
done

# sky130: the dont_use cells never reach the netlist
if [[ " ${real[*]} " == *" sky130hd "* && -f $dir/sky130hd/unit0.v ]]; then
  bad=$(grep -oE 'sky130_fd_sc_hd__(lpflow|probe|dlygate|dlymetal|clkdlybuf|clkbuf|clkinv)[a-z0-9_]*' \
        $dir/sky130hd/unit0.v | sort -u | head -3)
  dropped=$(python3 synth/liberty.py resolve sky130hd | sed -n 's/^LIB_DROPPED=//p')
  if [[ -z $bad && ${dropped:-0} -gt 0 ]]; then ok "synth lib: sky130hd: $dropped dont_use cells out of the mapping library, none in the netlist"
  else not_ok "synth lib: sky130hd: dont_use cells in the netlist: '$bad' (dropped: '$dropped')"; fi
fi

# the fallback: cells45, announced, and the report says its timing is approximate and that it has no power
if grep -q "no real library found" $dir/fallback.out && [[ $(val fallback lib) == cells45 && $(val fallback lib_real) == 0 ]] \
   && python3 synth/report.py --units $dir/units.txt --dir $dir/fallback 0 >/dev/null 2>&1 \
   && grep -q "approximate" $dir/fallback/report.md && grep -q "No power (mW, pJ)" $dir/fallback/report.md \
   && ! grep -q "mW: OpenSTA's report_power" $dir/fallback/report.md; then
  ok "synth lib: SYNTH_LIB pointing nowhere: cells45 fallback, announced ('$(grep -o 'no real library found[^:]*' $dir/fallback.out)'); the report calls its timing approximate and says it has no power"
else not_ok "synth lib: fallback to cells45: $(head -2 $dir/fallback.out); report: $(sed -n 3p $dir/fallback/report.md 2>/dev/null | grep -o 'approximate\|No power[^.]*\|mW: OpenSTA' | tr '\n' ' ')"; fi
# a real library's report describes its power columns
for o in "${real[@]}"; do
  if python3 synth/report.py --units $dir/units.txt --dir $dir/$o 0 >/dev/null 2>&1 \
     && grep -q "mW: OpenSTA's report_power" $dir/$o/report.md && ! grep -q "No power" $dir/$o/report.md; then
    ok "synth lib: $o: the report describes its power columns"
  else not_ok "synth lib: $o: the report's power note: $(sed -n 3p $dir/$o/report.md 2>/dev/null | grep -o 'No power[^.]*\|mW: OpenSTA' | tr '\n' ' ')"; fi
done

# the default script's time limit: the row is the unit without ABC's SAT sweeps, and says so
if [[ $(cat $dir/timeout.rc) == 0 && $(val timeout status) == ok && $(val timeout abc) == nosat \
      && $(val timeout abc_after_s) == 40 ]] && ! grep -q '&fraig' $dir/timeout/unit0.abc \
   && grep -q "ran past 40 s; again with SYNTH_ABC=nosat" $dir/timeout.out; then
  ok "synth lib: ABC's default script past SYNTH_TIMEOUT (40 s, a yosys that hangs on it): the unit again with SYNTH_ABC=nosat, $(val timeout area_um2) um^2, the row says abc=nosat abc_after_s=40"
else not_ok "synth lib: the default script past SYNTH_TIMEOUT: rc=$(cat $dir/timeout.rc) row: $(cat $dir/timeout/unit0.row 2>/dev/null | cut -c1-300) $(tail -2 $dir/timeout.out)"; fi

# the default script (the fallback's row, cells45): the SAT sweep with a conflict limit, its command names
# no script; SYNTH_ABC=full: the sweep without one, the row says which script made it, and merged into a
# report made without SYNTH_ABC in its environment it still gives the command that reproduces it
rm -rf $dir/full-merged $dir/default-merged
if [[ $(cat $dir/full.rc) == 0 && $(val full status) == ok && $(val full abc) == full \
      && $(val fallback abc) == bounded ]] && grep -qx '&fraig -x -C [0-9]*' $dir/fallback/unit0.abc \
   && grep -qx '&fraig -x' $dir/full/unit0.abc \
   && python3 synth/report.py --units $dir/units.txt --dir $dir/full --out $dir/full-merged 0 >/dev/null \
   && grep -q '"command": "SYNTH_ABC=full bash synth/synth.sh 0"' $dir/full-merged/report.json \
   && python3 synth/report.py --units $dir/units.txt --dir $dir/fallback --out $dir/default-merged 0 >/dev/null \
   && grep -q '"command": "bash synth/synth.sh 0"' $dir/default-merged/report.json; then
  ok "synth lib: default script '$(grep '&fraig' $dir/fallback/unit0.abc)' ($(val fallback area_um2) um^2), SYNTH_ABC=full '$(grep '&fraig' $dir/full/unit0.abc)' ($(val full area_um2) um^2), each row's command reproduces it"
else not_ok "synth lib: ABC scripts: full rc=$(cat $dir/full.rc) abc=$(val full abc) status=$(val full status), default abc=$(val fallback abc); scripts: $(grep '&fraig' $dir/full/unit0.abc $dir/fallback/unit0.abc 2>/dev/null | tr '\n' ' '); merged: $(grep -ho '"command": "[^"]*"' $dir/full-merged/report.json $dir/default-merged/report.json 2>/dev/null | tr '\n' ' ')"; fi

# a bad library stops the flow with a one-line error naming it
expect_error "synth lib: an unknown library name is refused" "LIB=nosuchlib" \
  env SYNTH_LIBRARY=nosuchlib SYNTH_UNITS=$dir/units.txt SYNTH_OUT=$dir/bad bash synth/synth.sh 0
expect_error "synth lib: a missing Liberty file is refused" "$dir/none.lib.gz" \
  env SYNTH_LIBRARY=$dir/none.lib.gz SYNTH_UNITS=$dir/units.txt SYNTH_OUT=$dir/bad bash synth/synth.sh 0
expect_error "synth lib: an unknown ABC script is refused" "SYNTH_ABC='fast'" \
  env SYNTH_ABC=fast SYNTH_UNITS=$dir/units.txt SYNTH_OUT=$dir/bad bash synth/synth.sh 0
