# RTL co-simulation (docs/rtl.md): every FDA/GDFS/FDRDA/GFDRDA/GPS/SFMA configuration of the instruction
# table and every mode of every M3XU design (tests/t_rtl_m3xu.sh checks those further), 50,000 vectors
# each (RTL_TEST_COUNT; `make rtl-regress` runs 10,000,000), checked bit for bit against the model
# through DPI-C; every 4th run with random backpressure and bubbles on the valid/ready handshake.  The
# deliberately broken units (F one bit short; CoFDA built as a single pass; M3XU without a_L b_L, without
# FP32C's sign flip; FDRDA with C rounded toward zero; CDNA2 GPS without flushing; SFMA without its sticky
# bit; Hopper's FP8 mma.sync with C in the first pass, with passes over the halves of K, with the FP8
# operands' own exponents) must be caught, with a report and an FST waveform.  Bad +cfg / +instr
# arguments: one line on stderr, exit 2; +instr=ARCH:INSTRUCTION runs the instruction on its unit.
# runtime: 146 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
count=${RTL_TEST_COUNT:-50000}

if ! command -v verilator >/dev/null; then
  not_ok "rtl: verilator is not installed (make setup)"
  exit 0
fi
if out=$(make -s rtl 2>&1); then ok "rtl: Verilator model builds (build/rtl/obj/Vtb_mma)"
else not_ok "rtl: Verilator model builds: $(tail -5 <<<"$out")"; exit 0; fi

# Configurations come from the table: as many check rows as distinct combinations among the instructions
# whose passes are all FDA or GDFS, truncating, unflushed (what the RTL implements), the zero terms' exponent
# and the FP8 mma.sync schedule's fields (runs, f16 operands, C last) included.
want=$("$MMAREF" list --json | python3 -c '
import json, sys
keys = set()
for i in json.load(sys.stdin):
    s = i["schedule"]
    if all(p["algo"] in ("FDA", "GDFS") and p["align_products"] == p["align_c"] == "rz" and not p["flush"]
           for p in s):
        keys.add((tuple((p["algo"], p["k_count"], p["frac_bits"], p["scales"], p["group"], p["out"], p["zero_term_exp"],
                         p["k_run"], p["k_stride"], p["ab_f16"]) for p in s),
                  i["a"], i["b"], i["c"], i["d"], i["scale"], i["block_size"], i["c_last"]))
print(len(keys))')
got=$(awk 'NR == FNR { algo[$1] = $2; next } $3 == "check" && (algo[$2] == "FDA" || algo[$2] == "GDFS")' \
  build/rtl/gen/units.txt build/rtl/gen/configs.txt | wc -l)
if [[ $got == "$want" && $got -gt 0 ]]; then ok "rtl: $got configurations generated from mmaref list --json"
else not_ok "rtl: configurations generated: $got, the table has $want distinct combinations"; fi
# ... and every AMD instruction of FDRDA, GFDRDA or GPS passes (fdrda_unit, gps_unit), flushing or not
want=$("$MMAREF" list --json | python3 -c '
import json, sys
keys = set()
for i in json.load(sys.stdin):
    s = i["schedule"]
    if all(p["algo"] in ("GPS", "FDRDA", "GFDRDA") for p in s):
        keys.add((tuple((p["algo"], p["k_count"], p["frac_bits"], p["group"], p["align_products"], p["align_c"],
                         p["flush"], p["out"]) for p in s), i["a"], i["b"], i["c"], i["d"]))
print(len(keys))')
got=$(awk 'NR == FNR { algo[$1] = $2; next } $3 == "check" && (algo[$2] == "FDRDA" || algo[$2] == "GPS")' \
  build/rtl/gen/units.txt build/rtl/gen/configs.txt | wc -l)
if [[ $got == "$want" && $got -gt 0 ]]; then ok "rtl: $got AMD configurations (FDRDA, GFDRDA, GPS) generated from mmaref list --json"
else not_ok "rtl: AMD configurations generated: $got, the table has $want distinct combinations"; fi

# every mutant is there (run_cosim.sh then requires each to be caught); the FP8 mma.sync unit's on Hopper's
# m16n8k32 (C first and halves: e4m3 x e4m3, f32 and f16 D; FP8 exponents: e4m3 x e5m2)
missing=""
for m in mutant-F-1 mutant-single-pass mutant-c-rz mutant-no-flush mutant-no-low-low mutant-no-sign-flip \
         mutant-no-sticky mutant-c-first mutant-halves mutant-fp8-exponents; do
  grep -q " $m " build/rtl/gen/configs.txt || missing+=" $m"
done
if [[ -z $missing ]]; then ok "rtl: every mutant has a configuration"
else not_ok "rtl: mutants without a configuration:$missing"; fi

bash tb/run_cosim.sh --tap --count "$count" --seed "${RTL_TEST_SEED:-1}" --bp-every 4

# A mismatch report names the configuration, decodes the operands, shows both results, seed and index,
# writes a waveform, and fails the run (exit status 1).
mut=$(awk '$3 == "mutant-F-1" {print $1; exit}' build/rtl/gen/configs.txt)
rm -f build/rtl/mutant-test.fst
out=$(build/rtl/obj/Vtb_mma +cfg="$mut" +seed=7 +count=2000 +fst=build/rtl/mutant-test.fst 2>&1); rc=$?
if [[ $rc == 1 && $out == *"MISMATCH hopper:mma.m16n8k16.f32.f16.f16.f32"*"seed 7 index"* && $out == *"sign"*"exp"*"sig"* \
      && $out == *"model  f32"* && $out == *"rtl    f32"* && -s build/rtl/mutant-test.fst ]]; then
  ok "rtl: a mismatch fails the run with a decoded report and an FST waveform"
else
  not_ok "rtl: mismatch report: rc=$rc, fst $(ls -la build/rtl/mutant-test.fst 2>&1); $(head -5 <<<"$out")"
fi

# The expected D's come from one mmaref_dot_batch per 256 vectors (tb/tb_support.c): a batch that fails
# (here MMAREF_SIMD naming no path) stops the bench with the batch's message, on 32-bit lanes and packed.
for cfg in 0 "$(awk '$3 == "check" && $4 == "m3xu" {print $1; exit}' build/rtl/gen/configs.txt)"; do
  out=$(MMAREF_SIMD=none build/rtl/obj/Vtb_mma +cfg="$cfg" +seed=1 +count=10 +nofst 2>&1); rc=$?
  if [[ $rc != 0 && $out == *"mmaref_tb_gen: "*"MMAREF_SIMD=none"* && $out == *"mmaref_tb_gen"*" failed"* ]]; then
    ok "rtl: cfg $cfg stops on a failing batch, with its message"
  else
    not_ok "rtl: cfg $cfg on a failing batch: rc=$rc $(head -3 <<<"$out" | tr '\n' ' ')"
  fi
done

# Arguments: a configuration out of range or an instruction no unit serves is one line on stderr and
# exit status 2; +instr=ARCH:INSTRUCTION picks the configuration of build/rtl/gen/instrs.txt and runs that
# instruction (here in pipe mode, one vector, against mmaref batch).
SIM=build/rtl/obj/Vtb_mma
ncfg=$(grep -vc '^#' build/rtl/gen/configs.txt)
for bad in "+cfg=$ncfg" "+cfg=-1"; do
  err=$("$SIM" "$bad" +count=1 +nofst 2>&1 >/dev/null); rc=$?
  [[ $rc == 2 && $(wc -l <<<"$err") == 1 && $err == "tb_mma: $bad: there are $ncfg configurations"* ]] \
    && ok "rtl: $bad is one line on stderr, exit 2" || not_ok "rtl: $bad: rc=$rc stderr='$err'"
done
err=$("$SIM" +instr=hopper:mma.no.such +count=1 +nofst 2>&1 >/dev/null); rc=$?
[[ $rc == 2 && $(wc -l <<<"$err") == 1 && $err == "tb_mma: +instr=hopper:mma.no.such: no unit serves that instruction"* ]] \
  && ok "rtl: an unknown +instr is one line on stderr, exit 2" || not_ok "rtl: unknown +instr: rc=$rc stderr='$err'"
err=$("$SIM" +instr=hopper:mma.m16n8k16.f32.f16.f16.f32 +cfg=0 +count=1 +nofst 2>&1 >/dev/null); rc=$?
[[ $rc == 2 && $err == *"not both"* ]] && ok "rtl: +instr with +cfg is refused, exit 2" || not_ok "rtl: +instr with +cfg: rc=$rc '$err'"
read -r arch name cfg < <(awk '$1 !~ /^#/ {n[$3]++; if (n[$3] == 2) {print $1, $2, $3; exit}}' build/rtl/gen/instrs.txt)
vec=$("$MMAREF" gen "$arch" "$name" --n 20 --seed 3 | tail -1)
want=$("$MMAREF" batch "$arch" "$name" <<<"$vec")
got=$("$SIM" +instr="$arch:$name" +pipe <<<"$vec" 2>&1); rc=$?
[[ $rc == 0 && $got == "$want" ]] \
  && ok "rtl: +instr=$arch:$name (configuration $cfg, shared) gives the model's D in pipe mode" \
  || not_ok "rtl: +instr=$arch:$name +pipe: rc=$rc got '$got', model '$want'"
# the same through make pipe (its build messages on stderr, stdout the D lines alone); no INSTR, or an
# instruction no unit serves, is an error naming it
got=$(make -s --no-print-directory pipe INSTR="$arch:$name" <<<"$vec" 2>/dev/null); rc=$?
[[ $rc == 0 && $got == "$want" ]] && ok "rtl: make pipe INSTR=$arch:$name gives the model's D" \
  || not_ok "rtl: make pipe INSTR=$arch:$name: rc=$rc got '$got', model '$want'"
err=$(make -s --no-print-directory pipe </dev/null 2>&1 >/dev/null); rc=$?
[[ $rc != 0 && $err == "make pipe: give INSTR=ARCH:NAME"* ]] && ok "rtl: make pipe without INSTR: says what to give, exit $rc" \
  || not_ok "rtl: make pipe without INSTR: rc=$rc '$err'"
err=$(make -s --no-print-directory pipe INSTR='hopper:no $(such)' </dev/null 2>&1 >/dev/null); rc=$?
[[ $rc != 0 && $err == *"+instr=hopper:no \$(such): no unit serves that instruction"* ]] \
  && ok "rtl: make pipe with an instruction no unit serves: the bench's one-line error, exit $rc" \
  || not_ok "rtl: make pipe INSTR='hopper:no \$(such)': rc=$rc '$err'"
