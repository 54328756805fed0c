#!/usr/bin/env bash
# make verify (mk/verify.mk): builds any unit meeting the port contract into the generic bench
# (tb/verify/verify_top.sv) with Verilator, runs it against the golden model, and prints the mismatch
# reports, the coverage report and a pass table row (docs/verify-your-design.md).
#   DUT      the unit's source files, space-separated (.sv/.v; a .f file is read with -f)   [required]
#   DUT_TOP  its module (default: the first DUT file's name)
#   INSTR    ARCH:INSTRUCTION, e.g. hopper:mma.m16n8k16.f32.f16.f16.f32                  [required]
#   PARAMS   the module's parameters, NAME=VALUE,NAME=VALUE
#   DUT_AW   the unit's lane width in bits when wider than the instruction's operands (a unit serving
#            several formats, e.g. 8-bit lanes for e2m1): each operand goes in the low end of its lane
#   COUNT    vectors (default 100000); SEED (default 1); BP=1 random backpressure and bubbles
#   PLUSARGS more plusargs for the simulation, space-separated, each +NAME or +NAME=VALUE (the unit's
#            own, read with $value$plusargs: e.g. +mutant=3 of tests/verify/fda_mutants.sv); the
#            waveform re-run of the first failing vector gets them too
#   VECTORS  a file of vectors (`mmaref batch` lines: C A.. B.. [SA.. SB..]) run instead of the stream,
#            each D of the unit printed beside the model's (make prove's counterexample replays so)
#   VERIFY_BUILD_ONLY=1  build, do not run (the model is build/verify/DUT_TOP/Vverify; +pipe drives it
#                        from stdin, as `mmaref probe` does)
#   VERIFY_DIR  the build and results directory (default build/verify/DUT_TOP): several parameter sets
#               (or instructions) of one module each keep their build there
# Exit status: 0 pass, 1 mismatches, 2 bad arguments or a unit that does not build, 3 no mismatch but a
# coverage hole (a bin the instruction can reach that no vector hit).  `make verify` itself exits 2 on any
# failure (GNU make's own status); its last line, result.json and this script keep the code.
# Results: result.json and result.xml (JUnit, for CI systems) beside run.log in the build directory.
set -u
cd "$(dirname "$0")/../.."
die() { echo "verify: $*" >&2; exit 2; }
MMAREF=${MMAREF:-build/mmaref}
DPI_LIB=${DPI_LIB:-build/rtl/libmmaref_dpi.a}
LIB=${LIB:-build/libmmaref.a}
DUT=${DUT:-} INSTR=${INSTR:-} PARAMS=${PARAMS:-} DUT_AW=${DUT_AW:-} COUNT=${COUNT:-100000} SEED=${SEED:-1} BP=${BP:-}
PLUSARGS=${PLUSARGS:-}
[[ -n $DUT ]] || die "DUT= is required: make verify DUT=path/to/unit.sv INSTR=ARCH:INSTRUCTION (docs/verify-your-design.md)"
[[ -n $INSTR ]] || die "INSTR= is required, e.g. INSTR=hopper:mma.m16n8k16.f32.f16.f16.f32 (build/mmaref list)"
# every value against its grammar (tb/flow_values.py) before anything is built, written or removed
export DUT DUT_TOP=${DUT_TOP:-} INSTR PARAMS DUT_AW COUNT SEED BP PLUSARGS VECTORS=${VECTORS:-} VERIFY_DIR=${VERIFY_DIR:-} \
  VERIFY_BUILD_ONLY=${VERIFY_BUILD_ONLY:-}
python3 tb/flow_values.py verify || exit 2
read -r -a files <<<"$DUT"
TOP=${DUT_TOP:-$(basename "${files[0]%.*}")}
read -r -a plusargs <<<"$PLUSARGS"

# the sources: DUT files, and those a .f file lists
srcs=() vargs=()
for f in "${files[@]}"; do
  if [[ $f == *.f ]]; then
    vargs+=(-f "$f")
    while read -r s; do srcs+=("$s"); done < <(sed 's|//.*||' "$f" | tr ' ' '\n' | grep -v '^+' | grep .)
  else
    vargs+=("$f"); srcs+=("$f")
  fi
done
grep -qE "^\s*module\s+$TOP\b" "${srcs[@]}" 2>/dev/null ||
  die "DUT_TOP=$TOP: no 'module $TOP' in the DUT files (set DUT_TOP=the unit's module)"

DIR=${VERIFY_DIR:-build/verify/$TOP}
info=$(python3 tb/verify/gen_verify.py "$MMAREF" "$INSTR" "$TOP" "$PARAMS" "$DUT_AW" "$DIR") || exit 2
BENCH=(dpi/mmaref_dpi_pkg.sv tb/tb_support_pkg.sv tb/verify/verify_top.sv)
BENCH_INC=tb/bench_loop.svh   # the bench loop verify_top.sv includes (shared with tb/mma_bench.sv)
SIM=$DIR/Vverify
# the port contract, read from Verilator's log of the build: checked after every build and again before
# every run of a build kept from before (a wrong-width port is only a warning, so such a build exists)
check_contract() {
  local pin width
  pin=$(grep -m1 -oE "Pin not found: '[A-Za-z0-9_]+'" "$DIR/verilate.log" 2>/dev/null)
  [[ -n $pin ]] && die "$TOP does not meet the port contract: it has no port ${pin#Pin not found: } (docs/verify-your-design.md, port contract); Verilator: $DIR/verilate.log"
  width=$(grep -m1 'Warning-WIDTH: tb/verify/verify_top.sv' "$DIR/verilate.log" 2>/dev/null)
  width=${width#*: }
  [[ -n $width ]] && die "$TOP does not meet the port contract: a port of the wrong width for $info: ${width%.}$(lanes_hint "$width")"
  return 0
}
# A and B of the wrong width (K lanes of AW bits each) where PARAMS does not set K to the instruction's:
# the hint to set the unit's lane count (fda_unit's K; the parameter's default is not the instruction's)
lanes_hint() {
  local k=${info#* K=}
  k=${k%% *}
  [[ $1 == *"connection 'a' "* || $1 == *"connection 'b' "* ]] || return 0
  [[ $PARAMS =~ (^|,)\ *K\ *=\ *$k\ *(,|$) ]] && return 0
  echo "; if the unit's lane count is its parameter K, set it to the instruction's: PARAMS=${PARAMS:+$PARAMS,}K=$k"
}
# the build is kept while its inputs are unchanged: the files named, and those the last build read besides
# (Verilator's dependency list: the `include files of the unit's sources among them)
stamp_of() {
  local deps=()
  [[ -f $DIR/Vverify_top__ver.d ]] && mapfile -t deps < <(tr ' ' '\n' <"$DIR/Vverify_top__ver.d" |
    sed -n '/^:$/,$p' | grep -v '^:$' | grep -v '^\\$' | grep -v '^/usr/' | grep -v "^$DIR/" | grep .)
  { cat "${srcs[@]}" "${BENCH[@]}" "$BENCH_INC" tb/tb_main.cpp tb/verify/verify.sh "$DIR/verify_dut.svh" rtl/*.svh "$DPI_LIB" "$LIB"
    for f in "${deps[@]}"; do echo "$f"; cat "$f" 2>/dev/null; done
    echo "$TOP ${vargs[*]}"; } | md5sum | cut -c1-32
}
stamp=$(stamp_of)
if [[ ! -x $SIM || $(cat "$DIR/stamp" 2>/dev/null) != "$stamp" ]]; then
  echo "verify: building $TOP for $info (Verilator: 30-60 s on 2 cores, more for a large unit)"
  # Verilator skips a run whose inputs it has seen (its verFiles.dat), and its warnings with it: removed,
  # so that verilate.log always holds the messages the contract is read from
  rm -f "$SIM" "$DIR/stamp" "$DIR"/*__verFiles.dat
  # WIDTH warnings are on so that a port of the wrong width is reported (those at the bench's
  # instantiation break the contract); other lint is the unit's own business
  verilator --cc --exe --build -O3 --x-assign fast --x-initial fast --trace-fst -Wno-fatal -Wno-lint \
    -Wno-style -Wwarn-WIDTH --top-module verify_top -Irtl -Itb -I"$DIR" -Mdir "$DIR" -o Vverify -j "${RTL_JOBS:-2}" \
    -CFLAGS "-O1 -std=c++17 -DTB_VERIFY -DVL_USER_FINISH" -LDFLAGS "$(realpath "$DPI_LIB") $(realpath "$LIB") -lm -lz" \
    --MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1" \
    "${vargs[@]}" "${BENCH[@]}" "$(realpath tb/tb_main.cpp)" >"$DIR/verilate.log" 2>&1
  rc=$?
  [[ $rc == 0 && -x $SIM ]] && stamp_of >"$DIR/stamp"   # with the files this build read
  check_contract
  if [[ $rc != 0 || ! -x $SIM ]]; then
    echo "verify: $TOP did not build with the bench (Verilator's messages follow; full log $DIR/verilate.log)" >&2
    grep -E '%Error' "$DIR/verilate.log" | head -20 >&2
    exit 2
  fi
else
  check_contract
fi
[[ ${VERIFY_BUILD_ONLY:-} == 1 ]] && { echo "verify: built $SIM (+pipe: stdin lines in, D lines out)"; exit 0; }

# VECTORS=FILE: those vectors alone (`mmaref batch` lines, e.g. make prove's counterexample), each D of the
# unit beside the model's
if [[ -n ${VECTORS:-} ]]; then
  arch=${INSTR%%:*} name=${INSTR#*:}
  model=$("$MMAREF" batch "$arch" "$name" <"$VECTORS" 2>&1) || die "VECTORS: $VECTORS: $(tail -1 <<<"$model")"
  unit=$("$SIM" +pipe "${plusargs[@]}" <"$VECTORS" 2>"$DIR/vectors.err") ||
    die "VECTORS: the unit's run stopped: $(grep -v '^ *$' "$DIR/vectors.err" | head -1)"
  mapfile -t md <<<"$model"; mapfile -t ud <<<"$unit"
  mapfile -t lines < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$VECTORS")
  m=0
  for i in "${!lines[@]}"; do
    [[ ${ud[$i]:-} == "${md[$i]}" ]] && continue
    m=$((m + 1))
    echo "MISMATCH $INSTR unit $TOP vector $((i + 1)) of $VECTORS"
    echo "  vector:  ${lines[$i]}"
    echo "  model D: ${md[$i]}"
    echo "  unit D:  ${ud[$i]:-none}"
  done
  if [[ $m == 0 ]]; then echo "verify: pass: $TOP gives the model's D on all ${#lines[@]} vectors of $VECTORS"; exit 0; fi
  echo "verify: FAIL: $m of ${#lines[@]} vectors of $VECTORS differ ($MMAREF explain shows the model's steps)"
  exit 1
fi

bp=(); [[ -n $BP && $BP != 0 ]] && bp=(+bp)
log=$DIR/run.log
"$SIM" +seed="$SEED" +count="$COUNT" "${bp[@]}" "${plusargs[@]}" +fst="$DIR/fail.fst" 2>&1 | tee "$log" | grep -v -e '^RESULT'
res=$(grep -m1 '^RESULT' "$log")
field() { sed -n "s|.* $1=\([^ ]*\).*|\1|p" <<<"$res"; }
v=$(field vectors) m=$(field mismatches)
holes=$(grep -c '^COVERAGE HOLE' "$log")
first=$(sed -n 's/^MISMATCH .* index \([0-9]*\) .*/\1/p' "$log" | head -1)
# the verdict and its exit status: 0 pass, 1 mismatches, 3 a reachable coverage bin no vector hit
if [[ -z $res ]]; then verdict=ERROR status=1
elif [[ $m != 0 || $v != "$COUNT" ]]; then verdict=FAIL status=1
elif [[ $holes != 0 ]]; then verdict=HOLE status=3
else verdict=pass status=0; fi
[[ ${m:-0} -gt 5 ]] && echo "$m mismatches: the first 5 are decoded above; a waveform of the first: $DIR/fail.fst"
K=$(sed 's/.* K=\([0-9]*\).*/\1/' <<<"$info")
printf '%-16s %-46s %-4s %10s %10s %10s %7s %7s  %s\n' unit instruction K vectors mismatch "vec/s" cyc/op latency result
printf '%-16s %-46s %-4s %10s %10s %10s %7s %7s  %s\n' "$TOP" "${INSTR:0:46}" "$K" \
  "${v:-0}" "${m:-0}" "$(field rate)" "$(field cycles/op)" "$(field latency)" "$verdict"
[[ $verdict == HOLE ]] && echo "verify: coverage not closed: $holes reachable bins no vector hit (listed above: COVERAGE HOLE); more vectors (COUNT=) or another SEED= may reach them"
MMAREF=$MMAREF bash tb/verify/verify_results.sh "$DIR" "$TOP" "$INSTR" "$SEED" "$COUNT" "$verdict" "${v:-0}" "${m:-0}" \
  "${first:-}" "$log" "$(field seconds)"
echo "verify: $verdict (exit $status); results: $DIR/result.json, $DIR/result.xml (JUnit)"
exit $status
