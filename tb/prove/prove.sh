#!/usr/bin/env bash
# make prove (mk/prove.mk, docs/formal.md): formal equivalence of a unit against the reference for one
# instruction, for every input.  tb/prove/gen_prove.py writes the miter of one transaction (both units
# reset, offered the same free vector, their first results compared in cycle BOUND); Yosys flattens it
# and maps it to an AIG; random simulation, the model's directed vectors (tb/prove/aig_sim.py) and ABC
# decide it (bounded model checking, then iprove on the miter unrolled into one combinational circuit and
# dprove on the sequential one: SAT sweeping that merges what the two sides compute alike, induction)
# for every value of the vector and every cycle: the answer is a proof, not a sample.
#   DUT        the unit's source files, space-separated (.sv/.v; a .f file is read as a list)   [required]
#   DUT_TOP    its module (default: the first DUT file's name)
#   INSTR      ARCH:INSTRUCTION                                                               [required]
#   PARAMS     the unit's parameters, NAME=VALUE,... (integers)
#   DUT_AW     the unit's lane width in bits when wider than the instruction's operands (as make verify's)
#   REF, REF_PARAMS  the reference module and its parameters (default: the project's unit serving the
#              instruction, build/rtl/gen/instrs.txt); REF_FILES: more files it needs; REF_AW: its lane
#              width (default: the project's units' own, from their parameters; another module's: the
#              instruction's)
#   PROPERTY   instead of a reference, a property of the unit proven against the unit itself (REF
#              defaults to the DUT): swap:I,J (lanes I and J of A and B exchanged), rotate:N (every lane
#              N places up), swap-ab (A and B exchanged), c-zero (a zero C's sign flipped), negate (A and
#              C negated, D negated back; a NaN D as it is, a zero D's sign not compared), negate-keep-c
#              (A and D negated, C kept: false wherever C counts)
#   FORMATS    instr (default): the instruction's formats and output kind; all: every combination of
#              formats (A, B, C, D and output kind, scale format and block) among the instructions that the
#              project's unit serving INSTR serves with its K, picked by a free field of the vector -- one
#              proof for all of them (a counterexample names its instruction); a list of formats
#              (e4m3,e5m2): those of the combinations whose A and B formats it holds
#   BOUND      cycles from reset to the check (default 16: the unit must answer within BOUND - 1)
#   CUT        a cut point at a combinational module, MODULE[,MODULE..]: every instance of it, on either
#              side, is replaced by free values under the one assumption that equal inputs give equal
#              outputs (tb/prove/cut_points.py: two instances of the same module and parameters, in any
#              cycles up to BOUND), so that PROVEN says the two sides agree whatever function the module
#              computes: a chained unit's passes against the specification's, the pass's own equality
#              proven apart.  A counterexample at the cut holds for some function in the module's place;
#              the replay through make verify (REPLAY=1) says whether the real module shows it, and the
#              verdict is UNKNOWN when it does not.  Keep BOUND small (its cycles are kept as history).
#   CUT_PAIRS  all (default): the congruence relates every two instances of a CUT module; across: only
#              an instance of the unit with one of the reference; across:N: those, up to N cycles apart
#              (weaker assumptions, so PROVEN carries all the same; far fewer comparisons where each side
#              has many instances)
#   CASES      a case split (tb/prove/cases.sh): a file of cases, one SV expression a line over the
#              vector's fields (c_raw, a0 .. a{K-1}, b0 .., sa0 .., sb0 .., sel; `#` starts a comment),
#              each proven on its own (JOBS at once, default the cores), and the cover -- every vector
#              meets one case -- proven too: PROVEN only when the cover and every case are
#   ASSUME     one case: the proof covers the vectors for which this expression holds (what CASES runs)
#   TIMEOUT    seconds for the solver (default 600); past it the verdict is UNKNOWN, never a pass
#   INIT       zero (default): registers that reset does not set start at 0 on both sides, as in the
#              benches; any: they start from any value (a unit whose D depends on power-up state is then
#              refuted, but two sides' free pipeline registers cannot be matched up: proofs of multi-pass
#              units mostly end UNKNOWN)
#   REPLAY=0   do not replay a counterexample through make verify's bench (it costs a Verilator build)
#   PROVE_DIR  the work and results directory (default build/prove/DUT_TOP)
#   FRONTEND   how the DUT's files are read: verilator (the default for a unit outside this project's
#              rtl/, tests/verify/ and tests/prove/): Verilator elaborates them and tb/prove/sv_frontend.py
#              writes the netlist Yosys reads, which tb/prove/fe_check.py first holds against Verilator's
#              simulation of the sources (FE_CYCLES cycles, default 2000); yosys (the default for the
#              project's own files): Yosys reads them itself.  A user's REF module (defined outside the
#              project's files) goes through the front end too, its netlist's top named REF__ref
# One verdict line: PROVEN (solver, seconds), REFUTED (the counterexample as a `mmaref batch` line in
# PROVE_DIR/cex.txt, the model's D, the unit's D from the replay, and the commands that replay it), or
# UNKNOWN after N s.  Exit status: 0 proven, 1 refuted, 2 bad arguments or a unit Yosys cannot read,
# 4 unknown.  `make prove` itself exits 2 on any failure (GNU make's own status); its last line,
# result.json and result.xml (JUnit) keep the verdict.
set -u
cd "$(dirname "$0")/../.."
die() { echo "prove: $*" >&2; exit 2; }
MMAREF=${MMAREF:-build/mmaref}
DUT=${DUT:-} INSTR=${INSTR:-} PARAMS=${PARAMS:-} DUT_AW=${DUT_AW:-} REF_AW=${REF_AW:-} PROPERTY=${PROPERTY:-} REF=${REF:--} REF_PARAMS=${REF_PARAMS:-} REF_FILES=${REF_FILES:-}
FORMATS=${FORMATS:-instr} BOUND=${BOUND:-16} TIMEOUT=${TIMEOUT:-600} REPLAY=${REPLAY:-1} INIT=${INIT:-zero}
FRONTEND=${FRONTEND:-} FE_CYCLES=${FE_CYCLES:-2000} CUT=${CUT:-} ASSUME=${ASSUME:-} CASES=${CASES:-}
CUT_PAIRS=${CUT_PAIRS:-all}
[[ -z $CASES || -z $ASSUME ]] || die "CASES=$CASES and ASSUME: a split, or one case of it, not both"
[[ -n $DUT ]] || die "DUT= is required: make prove DUT=path/to/unit.sv INSTR=ARCH:INSTRUCTION (docs/formal.md)"
[[ -n $INSTR ]] || die "INSTR= is required, e.g. INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 (build/mmaref list)"
# every value against its grammar (tb/flow_values.py) before anything is built, written or removed
export DUT DUT_TOP=${DUT_TOP:-} INSTR PARAMS DUT_AW REF_AW PROPERTY REF REF_PARAMS REF_FILES FORMATS BOUND TIMEOUT REPLAY \
  INIT FRONTEND FE_CYCLES CUT ASSUME CASES CUT_PAIRS JOBS=${JOBS:-} PROVE_DIR=${PROVE_DIR:-}
python3 tb/flow_values.py prove || exit 2
case $INIT in zero) init_cmd="setundef -init -zero; opt -fast;" ;; any) init_cmd="" ;; esac
command -v yosys >/dev/null && command -v yosys-abc >/dev/null || die "needs yosys and yosys-abc (scripts/setup.sh installs them)"

# the sources: the reference's (rtl/rtl.f: the package first), then the DUT's files and those a .f file
# lists, each file once
srcs=()
add_files() {
  local f
  for f in "$@"; do
    [[ -f $f ]] || die "DUT: no such file '$f'"
    if [[ $f == *.f ]]; then
      while read -r s; do [[ -f $s ]] || die "$f lists '$s', which does not exist"; srcs+=("$s"); done \
        < <(sed 's|//.*||' "$f" | tr ' ' '\n' | grep -v '^+' | grep .)
    else srcs+=("$f"); fi
  done
}
add_files rtl/rtl.f
n_ref=${#srcs[@]}
read -r -a files <<<"$DUT"
add_files "${files[@]}"
dut_srcs=("${srcs[@]:n_ref}")
TOP=${DUT_TOP:-$(basename "${files[0]%.*}")}
grep -qE "^\s*module\s+$TOP\b" "${srcs[@]}" 2>/dev/null ||
  die "DUT_TOP=$TOP: no 'module $TOP' in the DUT files (set DUT_TOP=the unit's module)"
read -r -a ref_files <<<"$REF_FILES"
[[ ${#ref_files[@]} -gt 0 ]] && add_files "${ref_files[@]}"
ref_srcs=("${srcs[@]:n_ref+${#dut_srcs[@]}}")
mapfile -t srcs < <(printf '%s\n' "${srcs[@]}" | awk '!seen[$0]++')

DIR=${PROVE_DIR:-build/prove/$TOP}
mkdir -p "$DIR" || die "PROVE_DIR=$DIR: cannot create it"
rm -f "$DIR"/{result.json,result.xml,cex.txt,cex.abc,miter.aig,abc-*.log}
# a case split: the cover, then one run of this script a case (ASSUME set), tb/prove/cases.sh
[[ -n $CASES ]] && { export PROVE_DIR=$DIR DUT_TOP=$TOP; exec bash tb/prove/cases.sh; }

# the front end: the project's own files (the Verilog-2005 + SystemVerilog subset both tools read) go to
# Yosys as they are; any other unit through Verilator's elaboration (tb/prove/sv_frontend.py), whose
# netlist must first agree with Verilator's simulation of the sources (tb/prove/fe_check.py).  A reference
# module of the user's (REF= in REF_FILES or the DUT's files) is read the same way.
project_file() { [[ $1 == rtl/* || $1 == tests/verify/* || ( $1 == tests/prove/* && $1 != tests/prove/*/* ) ]]; }
front_end() {  # front_end MODULE PARAMS NETLIST RENAME SOURCE...: the checked netlist of MODULE
  local mod=$1 params=$2 out=$3 rename=$4 p; shift 4
  local fe_params=() plist=()
  IFS=, read -r -a plist <<<"$params"
  for p in "${plist[@]}"; do [[ -n $p ]] && fe_params+=(--param "$p"); done
  local t_fe=$(date +%s) base=${out%.v}
  python3 tb/prove/sv_frontend.py --top "$mod" "${fe_params[@]}" --incdir rtl ${rename:+--rename "$rename"} \
    --prefix "fe_${rename:-$mod}__" --out "$out" "$@" || die "the front end cannot read $mod (above); nothing was proven"
  python3 tb/prove/sv_frontend.py --top "$mod" "${fe_params[@]}" --incdir rtl --rename "fe_check_$mod" --prefix fe_check_ \
    --xml "$base.xml" --out "$base.check.v" "$@" || die "the front end cannot read $mod; nothing was proven"
  # the check passed before for the same files read, netlist, parameters and tools (make prove CASES= runs
  # the front end once a case): not built again
  local key chk
  key=$(python3 tb/prove/fe_check.py --key "$base.xml" "$base.check.v" "$params" "$FE_CYCLES" 1) || die "the front end's check of $mod: no key"
  if [[ -f build/prove/fe-checked/$key ]]; then
    echo "prove: front end: Verilator's elaboration of $mod, as a netlist ($out), equal to the sources on $FE_CYCLES simulated cycles (checked before: the same files, netlist and parameters)"
    return
  fi
  chk=$(python3 tb/prove/fe_check.py "$base.fe-check" "$mod" "fe_check_$mod" "$base.check.v" "$params" "$FE_CYCLES" 1 "$@" 2>&1) ||
    die "the front end's netlist of $mod differs from Verilator's simulation of its sources, so nothing is proven: ${chk##*$'\n'}"
  mkdir -p build/prove/fe-checked && echo "$mod $params $FE_CYCLES" >"build/prove/fe-checked/$key"
  echo "prove: front end: Verilator's elaboration of $mod, as a netlist ($out), equal to the sources on $FE_CYCLES simulated cycles ($(( $(date +%s) - t_fe )) s)"
}
fe_forced=$FRONTEND
if [[ -z $FRONTEND ]]; then
  FRONTEND=yosys
  for f in "${dut_srcs[@]}"; do project_file "$f" || FRONTEND=verilator; done
fi
# the front end writes one flat module: no instance of a CUT module is left in it to cut
cut_flat() { die "CUT=$CUT: $1 is read through the Verilator front end, whose netlist is one flat module, so no instance of $CUT is left in it to cut; read it with FRONTEND=yosys (where Yosys reads it) or prove without CUT"; }
[[ -n $CUT && $FRONTEND == verilator ]] && cut_flat "the unit $TOP"
if [[ $FRONTEND == verilator || ($REF != - && -z $fe_forced) ]]; then
  command -v verilator >/dev/null || die "the front end needs verilator (scripts/setup.sh installs it)"
fi
# the unit's files after the project's (rtl/rtl.f: a unit may use its packages and modules), as make verify reads them
fe_srcs=(rtl/rtl.f "${files[@]}")
if [[ $FRONTEND == verilator ]]; then
  grep -qE "^\s*module\s+$TOP\b" "${srcs[@]:0:n_ref}" 2>/dev/null &&
    die "DUT_TOP=$TOP is a module of rtl/: read it with FRONTEND=yosys"
  front_end "$TOP" "$PARAMS" "$DIR/dut_netlist.v" "" "${fe_srcs[@]}"
  srcs=("${srcs[@]:0:n_ref}" "$DIR/dut_netlist.v" "${ref_srcs[@]}")
fi
# the reference: through the front end when the file that defines it is not the project's (or FRONTEND=verilator
# says so and it is not a module of rtl/); its netlist's top is REF__ref, so that it can be the DUT's own module
if [[ $REF != - ]]; then
  ref_def=$(grep -lE "^\s*module\s+$REF\b" "${srcs[@]:0:n_ref}" "${dut_srcs[@]}" "${ref_srcs[@]}" 2>/dev/null | head -1)
  [[ -n $ref_def ]] || die "REF=$REF: no 'module $REF' in rtl/, the DUT's files or REF_FILES"
  ref_fe=yosys
  case $fe_forced in
    verilator) [[ $ref_def == rtl/* ]] || ref_fe=verilator ;;
    '') project_file "$ref_def" || ref_fe=verilator ;;
  esac
  [[ -n $CUT && $ref_fe == verilator ]] && cut_flat "the reference $REF"
  if [[ $ref_fe == verilator ]]; then
    front_end "$REF" "$REF_PARAMS" "$DIR/ref_netlist.v" "${REF}__ref" rtl/rtl.f "${files[@]}" "${ref_files[@]}"
    srcs=("${srcs[@]:0:n_ref}" "$DIR/ref_netlist.v")
    [[ $FRONTEND == verilator ]] && srcs+=("$DIR/dut_netlist.v") || srcs+=("${dut_srcs[@]}")
    REF=${REF}__ref
  fi
fi
# a CUT module that no file defines (the sources, and the headers beside them that they may include) is
# refused before any tool runs; tb/prove/cut_points.py checks the rest
if [[ -n $CUT ]]; then
  mapfile -t hdrs < <(for f in "${srcs[@]}"; do ls "$(dirname "$f")"/*.svh "$(dirname "$f")"/*.vh 2>/dev/null; done | sort -u)
fi
for m in ${CUT//,/ }; do
  grep -qE "^\s*module\s+$m\b" "${srcs[@]}" "${hdrs[@]}" 2>/dev/null ||
    die "CUT=$CUT: no module $m in the design (CUT names a module of the unit or the reference)"
done
[[ -f build/rtl/gen/instrs.txt ]] || make -s build/rtl/gen/configs.txt >/dev/null || die "cannot build build/rtl/gen (make rtl)"
info=$(python3 tb/prove/gen_prove.py "$MMAREF" "$INSTR" "$TOP" "$PARAMS" "$DUT_AW" "$REF" "$REF_PARAMS" "$REF_AW" "$PROPERTY" "$BOUND" "$FORMATS" "$ASSUME" "$DIR") || exit 2
arch=${info%%:*} name=${info#*:}; name=${name%% *}
K=$(sed 's/.* K=\([0-9]*\).*/\1/' <<<"$info") ref=${info##*ref=} nf=$(sed 's/.* formats=\([0-9]*\).*/\1/' <<<"$info")
ni=$(sed 's/.* instructions=\([0-9]*\).*/\1/' <<<"$info")
# what is proven: the instruction, or (FORMATS=all) every format combination of its unit
what="$arch:$name"; (( nf > 1 )) && what="every format combination of the unit serving $arch:$name ($nf, $DIR/formats.txt)"
[[ -n $ASSUME ]] && what+=", the vectors where $ASSUME"

t0=$(date +%s%N)
secs() { local ms=$(( ($(date +%s%N) - $1) / 1000000 )); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }
# Yosys: read, flatten (what the two sides share, e.g. identical multipliers, merges), map to an AIG
echo "prove: $TOP against $ref for $what (K = $K), bound $BOUND cycles, unreset registers at $([[ $INIT == zero ]] && echo 0 || echo 'any value')"
read_miter="read_verilog -sv -formal -Irtl ${srcs[*]} $DIR/prove_top.sv; prep -top prove_top;"
if [[ -n $CUT ]]; then
  # the cut: the CUT modules' instances kept as cells while the rest is flattened, then turned into ports
  # of prove_top (expose -evert), which tb/prove/cut_points.py drives with free values under congruence
  # (a module of one parameter elaborates as $paramod\MODULE\NAME=VALUE, of more as $paramod$HASH\MODULE)
  keep="" evert=""
  for m in ${CUT//,/ }; do
    keep+=" *\\$m \$paramod\\$m\\*"; evert+=" prove_top/t:*$m prove_top/t:\$paramod\\$m\\*"
  done
  yosys -q -l "$DIR/cut.log" -p "read_verilog -sv -formal -Irtl ${srcs[*]} $DIR/prove_top.sv; hierarchy -top prove_top; proc;
    opt_clean; setattr -mod -set keep_hierarchy 1 $keep; flatten; opt_clean; write_json $DIR/cut-pre.json;
    expose -evert -sep __$evert; write_json $DIR/cut.json; write_rtlil $DIR/cut.il" >/dev/null 2>&1 || {
    echo "prove: Yosys could not cut the miter at $CUT ($DIR/cut.log):" >&2; grep -m3 -E 'ERROR|error' "$DIR/cut.log" >&2; exit 2; }
  cut_info=$(python3 tb/prove/cut_points.py "$DIR/cut.json" "$DIR/cut-pre.json" "$CUT" "$BOUND" "$DIR/prove_cut_top.sv" "$CUT_PAIRS") || exit 2
  echo "prove: cut at $cut_info"
  read_miter="read_rtlil $DIR/cut.il; read_verilog -sv -formal $DIR/prove_cut_top.sv; prep -top prove_cut_top;"
fi
yosys -q -l "$DIR/yosys.log" -p "$read_miter
  flatten; memory_map; opt -full; async2sync; techmap; opt -fast; $init_cmd dffunmap; abc -g AND -fast; opt_clean; stat;
  write_aiger -zinit -map $DIR/miter.aim $DIR/miter.aig" >/dev/null 2>&1 || {
  echo "prove: Yosys could not build the miter ($DIR/yosys.log):" >&2
  grep -m3 -E 'ERROR|error' "$DIR/yosys.log" >&2; exit 2; }
t_yosys=$(secs "$t0")
and=$(grep -A6 'Number of cells' "$DIR/yosys.log" | tail -6 | sed -n 's/.*\$_AND_ *\([0-9]*\)/\1/p' | tail -1)

# ABC: the miter's output (the assertion failing) is never 1, from the reset state on; the vector is free
# in cycle 0.  First random simulation of those cycles (sim, 32 x 32 vectors in seconds: a bug many
# vectors show), then the model's directed vectors, then bounded model checking over the BOUND + 1
# cycles the check spans (bmc3, a tenth of TIMEOUT and 10 s at most: finds a counterexample fast, and
# when it covers every cycle it is a proof), then the two provers for the rest of the time: the miter
# unrolled over those cycles into one combinational circuit (the vector in cycle 0, every register from
# its reset value: the check is a combinational equivalence) decided by iprove (rewriting, SAT sweeping
# with growing conflict limits, SAT), and dprove on the sequential miter (SAT sweeping, induction).  Any
# may give up: UNKNOWN.
t1=$(date +%s%N)
abc() {  # abc NAME SECONDS COMMANDS: runs one engine into abc-NAME.log; sets engine, verdict, status
  ( cd "$DIR" && rm -f cex.abc && timeout "$2" yosys-abc -c "read_aiger miter.aig; fold; strash; $3; write_cex -n cex.abc" ) \
    >"$DIR/abc-$1.log" 2>&1
  local rc=$? log=$DIR/abc-$1.log
  engine=$1
  if grep -qiE 'Networks are not equivalent|was asserted in frame|asserted output [0-9]+ in frame|^SATISFIABLE' "$log" &&
     [[ -s $DIR/cex.abc ]]; then verdict=REFUTED status=1
  elif [[ $1 != sim && $rc == 0 ]] && grep -qE 'Networks are equivalent|No output asserted in [0-9]+ frames|^UNSATISFIABLE' "$log" &&
       ! grep -qiE 'timeout|limit reached' "$log"; then verdict=PROVEN status=0
  else verdict=UNKNOWN status=4 abc_rc=$rc; fi
}
left() { echo $(( TIMEOUT - ($(date +%s%N) - t1) / 1000000000 )); }  # seconds of TIMEOUT left
bmc_s=$(( TIMEOUT / 10 > 10 ? 10 : TIMEOUT / 10 > 0 ? TIMEOUT / 10 : 1 ))
abc sim 30 "sim -F $((BOUND + 1)) -W 32"
# the model's directed vectors (make verify's first ones: every corner of the formats, built to close the
# coverage bins) through the miter (tb/prove/aig_sim.py): a counterexample that only a corner shows (every
# product -0 with C = -0, a scale at its limit) is one random simulation and a short bmc3 do not reach
# (FORMATS=all: those of every combination's instruction, each line followed by its sel)
# (not with CUT: the cut's free values are inputs the directed vectors do not set)
if [[ $verdict != REFUTED && -z $CUT ]]; then
  : >"$DIR/directed.txt" && : >"$DIR/directed-sel.txt"
  while read -r sel ins _; do
    "$MMAREF" gen "${ins%%:*}" "${ins#*:}" --kind directed >"$DIR/directed-one.txt" 2>/dev/null ||
      { echo "prove: mmaref gen $ins --kind directed failed" >&2; exit 2; }
    if (( nf > 1 )); then sed "s/\$/ $(printf '%x' "$sel")/" "$DIR/directed-one.txt"; else cat "$DIR/directed-one.txt"; fi >>"$DIR/directed.txt"
    sed "s/.*/$sel $ins/" "$DIR/directed-one.txt" >>"$DIR/directed-sel.txt"
  done <"$DIR/formats.txt"
  hit=$(python3 tb/prove/aig_sim.py "$DIR/miter.aig" "$DIR/miter.aim" "$DIR/layout.txt" $((BOUND + 1)) <"$DIR/directed.txt") ||
    { echo "prove: the directed simulation failed ($DIR/directed.txt)" >&2; exit 2; }
  if [[ -n $hit ]]; then
    verdict=REFUTED status=1 engine=directed
    python3 tb/prove/aig_sim.py --directed "$DIR" "$hit" || exit 2
  fi
fi
[[ $verdict == REFUTED ]] || abc bmc3 $((bmc_s + 5)) "bmc3 -F $((BOUND + 1)) -T $bmc_s"
# the unrolled miter, half the time left: iprove raises its conflict limits round by round and stops
# UNDECIDED when the last round fails (an e2m3 unit, K = 32, against the independent specification:
# proven in about a minute, where dprove did not finish in 25)
if [[ $verdict == UNKNOWN && $(left) -gt 1 ]]; then
  abc cec $(( $(left) / 2 > 1 ? $(left) / 2 : 1 )) "frames -F $((BOUND + 1)) -i; strash; orpos; dc2; iprove"
fi
# dprove with 20 times its default conflicts a node (-C) and 10 times in all (-G): with the defaults, SAT
# sweeping gives up on the pairs of signals that are equal but take more than 1,000 conflicts to show
# equal (the two sides' alignment of a 3- or 4-bit significand), and the proof stops UNKNOWN where it
# then succeeds (an e3m2 unit, K = 32, against the independent specification)
if [[ $verdict == UNKNOWN && $(left) -gt 0 ]]; then abc dprove "$(left)" "dprove -C 20000 -G 50000000"; fi
t_abc=$(secs "$t1")

# a counterexample: the vector register's bits (vec_in in cycle 0) as one `mmaref batch` line (a directed
# vector is one already)
if [[ $verdict == REFUTED ]]; then
  [[ $engine == directed ]] || python3 tb/prove/aig_sim.py --decode "$DIR" ||
    { echo "prove: could not decode the counterexample ($DIR/cex.abc)" >&2; exit 2; }
  line=$(grep -v '^#' "$DIR/cex.txt")
  # FORMATS=all: the counterexample's combination names the instruction the rest is about
  sel_line=$(python3 tb/prove/aig_sim.py --cex-formats "$DIR") || exit 2
  sim_line=$line
  if [[ -n $sel_line ]]; then
    read -r sel ins <<<"$sel_line"; arch=${ins%%:*} name=${ins#*:} sim_line="$line $(printf '%x' "$sel")"
  fi
  # every counterexample simulated on the miter once more, whichever engine found it: it must fail the check
  # (with CUT, the cut's free values are part of it: the replay below stands for this)
  [[ -n $CUT || $(python3 tb/prove/aig_sim.py "$DIR/miter.aig" "$DIR/miter.aim" "$DIR/layout.txt" $((BOUND + 1)) <<<"$sim_line") == 0 ]] ||
    { echo "prove: the counterexample of $engine ($DIR/cex.txt) does not fail the miter in simulation" >&2; exit 2; }
  model_d=$("$MMAREF" batch "$arch" "$name" <"$DIR/cex.txt" 2>&1)
  read -r -a v <<<"$line"
  ns=$(( (${#v[@]} - 1 - 2 * K) / 2 ))
  join() { local IFS=,; echo "$*"; }
  explain="$MMAREF explain $arch $name -c ${v[0]} -a $(join "${v[@]:1:K}") -b $(join "${v[@]:1+K:K}")"
  [[ $ns -gt 0 ]] && explain+=" --scale-a $(join "${v[@]:1+2*K:ns}") --scale-b $(join "${v[@]:1+2*K+ns:ns}")"
fi

solver="abc $engine"; [[ $engine == cec ]] && solver="abc iprove (unrolled)"; [[ $engine == directed ]] && solver="directed simulation"
detail="solver $solver, $t_abc s (Yosys $t_yosys s, ${and:-?} AND gates)"
case $verdict in
  PROVEN)  echo "prove: PROVEN: $TOP equals $ref on $what for every $([[ -n $ASSUME ]] && echo "such vector" || echo input)${CUT:+, whatever function each instance of $CUT computes (the cut)}; $detail" ;;
  UNKNOWN) why="the solver gave up"; [[ $abc_rc == 124 ]] && why="the solver did not finish (TIMEOUT=$TIMEOUT)"
           echo "prove: UNKNOWN after $t_abc s: $why; nothing is proven ($detail)" ;;
  REFUTED)
    echo "prove: REFUTED: $TOP differs from $ref on $arch:$name ($detail)"
    echo "  counterexample ($DIR/cex.txt): $line"
    echo "  model D: $model_d"
    if [[ -n $PROPERTY ]]; then
      # the counterexample and its moved copy in the model: does the instruction itself break the property?
      echo "  property: $(python3 tb/prove/gen_prove.py --replay-property "$MMAREF" "$arch:$name" "$PROPERTY" "$DIR/cex.txt" 2>&1)"
    fi
    if [[ $REPLAY != 0 ]]; then
      # the bench reads the DUT's files as given; the project's RTL is added when the DUT does not list it
      rdut=$DUT; [[ " $DUT " == *" rtl/rtl.f "* ]] || rdut="rtl/rtl.f $DUT"
      rep=$(DUT="$rdut" DUT_TOP="$TOP" INSTR="$arch:$name" PARAMS="$PARAMS" DUT_AW="$DUT_AW" VECTORS="$DIR/cex.txt" \
            VERIFY_DIR="$DIR/verify" MMAREF="$MMAREF" bash tb/verify/verify.sh 2>&1)
      unit_d=$(sed -n 's/^  unit D: *//p' <<<"$rep" | head -1)
      if [[ -n $unit_d ]]; then echo "  unit D:  $unit_d (make verify's bench, the same vector)"
      else echo "  unit D:  the replay did not report one: $(tail -1 <<<"$rep")"; fi
      if [[ -n $CUT && ( -z $unit_d || $unit_d == "$model_d" ) ]]; then
        verdict=UNKNOWN status=4
        echo "  the difference is one at the cut ($CUT as some other function) that the real $CUT does not show on this vector: nothing is proven or refuted"
      fi
    elif [[ -n $CUT ]]; then
      echo "  at the cut: the sides differ when $CUT computes some function; the replay (REPLAY=1) says whether the real one shows it"
    fi
    echo "  replay:  make verify DUT=\"${rdut:-$DUT}\" DUT_TOP=$TOP INSTR=$arch:$name${PARAMS:+ PARAMS=$PARAMS}${DUT_AW:+ DUT_AW=$DUT_AW} VECTORS=$DIR/cex.txt"
    echo "           $MMAREF batch $arch $name < $DIR/cex.txt"
    echo "           $explain" ;;
esac

# result.json and result.xml (JUnit), each written whole and renamed
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
xml_str() { local s=${1//&/&amp;}; s=${s//</&lt;}; s=${s//>/&gt;}; printf '%s' "${s//\"/&quot;}"; }
{
  printf '{"unit": %s, "reference": %s, "instruction": %s, "verdict": %s, "solver": "%s",\n' \
    "$(json_str "$TOP")" "$(json_str "$ref")" "$(json_str "$arch:$name")" "$(json_str "$verdict")" "$solver"
  printf ' "init": "%s", "bound": %s, "timeout": %s, "solver_seconds": %s, "yosys_seconds": %s, "and_gates": %s,\n' \
    "$INIT" "$BOUND" "$TIMEOUT" "$t_abc" "$t_yosys" "${and:-null}"
  printf ' "formats": %s, "instructions": %s, "property": %s, "cut": %s, "assume": %s, "counterexample": %s}\n' "$nf" "$ni" \
    "$([[ -n $PROPERTY ]] && json_str "$PROPERTY" || echo null)" "$([[ -n $CUT ]] && json_str "$CUT" || echo null)" \
    "$([[ -n $ASSUME ]] && json_str "$ASSUME" || echo null)" "$([[ $verdict == REFUTED ]] && json_str "$line" || echo null)"
} >"$DIR/result.json.tmp" && mv "$DIR/result.json.tmp" "$DIR/result.json"
{
  fail=0; [[ $verdict != PROVEN ]] && fail=1
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  printf '<testsuites tests="1" failures="%d"><testsuite name="mmaref prove" tests="1" failures="%d" time="%s">\n' \
    "$fail" "$fail" "$t_abc"
  printf '<testcase classname="%s" name="%s against %s" time="%s">' "$(xml_str "$TOP")" "$(xml_str "$arch:$name")" \
    "$(xml_str "$ref")" "$t_abc"
  case $verdict in
    REFUTED) printf '<failure message="refuted">counterexample: %s; model D %s</failure>' "$(xml_str "$line")" \
               "$(xml_str "$model_d")" ;;
    UNKNOWN) printf '<failure message="unknown after %s s">the solver did not finish</failure>' "$t_abc" ;;
  esac
  printf '</testcase></testsuite></testsuites>\n'
} >"$DIR/result.xml.tmp" && mv "$DIR/result.xml.tmp" "$DIR/result.xml"
echo "prove: $verdict (exit $status); results: $DIR/result.json, $DIR/result.xml (JUnit)"
exit $status
