# SFMA RTL (docs/rtl.md, sfma_unit): the iterative IEEE FMA unit against the model.  tests/t_rtl_cosim.sh
# already runs every SFMA configuration (100,000 vectors each, IEEE corner vectors first) and the mutant;
# here:
#   - every SFMA instruction of the table (NVIDIA DMMA, AMD f32/f64 MFMA) is covered by a configuration
#     whose unit has its K and its output kind (so its formats);
#   - one FMA per cycle: cycles per dot-add and latency are K, measured in simulation, 0 mismatches;
#   - the IEEE corner vectors of cmodel/src/gen_ieee.c head every SFMA stream (the class cross product alone
#     is 26^3 = 17,576 of them);
#   - every SFMA unit under random backpressure and bubbles on its handshake;
#   - the mutant that loses C's sticky bit is caught by those corner vectors, with a decoded f64 report;
#   - Yosys elaborates every SFMA unit with no latch.
# runtime: 45 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
count=${RTL_SFMA_COUNT:-30000}
SIM=build/rtl/obj/Vtb_mma GEN=build/rtl/gen

if ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; then
  not_ok "rtl sfma: verilator and yosys are needed (make setup)"
  exit 0
fi
if ! out=$(make -s rtl 2>&1); then not_ok "rtl sfma: Verilator model builds: $(tail -5 <<<"$out")"; exit 0; fi

# ---- configurations against the table ----
if out=$("$MMAREF" list --json | python3 -c '
import json, sys
table = json.load(sys.stdin)
outs = {o["name"]: o["code"] for o in json.load(open(sys.argv[1]))["outputs"]}
units = {r.split()[0]: r.split() for r in open(sys.argv[2]) if not r.startswith("#")}
cfgs = [r.split() for r in open(sys.argv[3]) if not r.startswith("#")]
sfma = [i for i in table if all(p["algo"] == "SFMA" for p in i["schedule"])]
bad, covered = [], 0
for i in sfma:
    out = i["schedule"][-1]["out"]
    hit = [c for c in cfgs if c[2] == "check" and units[c[1]][1] == "SFMA" and c[8] == i["a"] and int(c[5]) == i["k"]
           and c[12] == out and (int(units[c[1]][8]) >> outs[out]) & 1 and int(units[c[1]][2]) == i["k"]]
    if len(hit) != 1:
        bad.append("%s:%s has %d configurations" % (i["arch"], i["name"], len(hit)))
checks = [c for c in cfgs if c[2] == "check" and units[c[1]][1] == "SFMA"]
covered = sum(int(c[15]) for c in checks)
if covered != len(sfma):
    bad.append(f"the configurations cover {covered} instructions, the table has {len(sfma)}")
print("; ".join(bad) if bad else f"{len(sfma)} SFMA instructions, {len(checks)} configurations, "
      f"{len({c[1] for c in checks})} units")
sys.exit(1 if bad else 0)' <("$MMAREF" list --schema --json) $GEN/units.txt $GEN/configs.txt)
then ok "rtl sfma: every SFMA instruction of the table has its configuration: $out"
else not_ok "rtl sfma: configurations against the table: $out"; fi

# ---- one FMA per cycle, the corner vectors, backpressure: every SFMA configuration ----
while read -r idx unit kind arch name k F passes a rest; do
  [[ $kind == check && $(awk -v u="$unit" '$1 == u {print $2}' $GEN/units.txt) == SFMA ]] || continue
  res=$($SIM +cfg="$idx" +seed=5 +count="$count" +nofst 2>&1 | grep '^RESULT')
  v=$(sed -n 's/.* vectors=\([0-9]*\).*/\1/p' <<<"$res")
  m=$(sed -n 's/.* mismatches=\([0-9]*\).*/\1/p' <<<"$res")
  dir=$(sed -n 's/.* directed=\([0-9]*\).*/\1/p' <<<"$res")
  cyc=$(sed -n 's|.* cycles/op=\([0-9.]*\).*|\1|p' <<<"$res")
  lat=$(sed -n 's/.* latency=\([0-9]*\).*/\1/p' <<<"$res")
  rate=$(sed -n 's/.* rate=\([0-9]*\).*/\1/p' <<<"$res")
  if [[ $v == "$count" && $m == 0 && $cyc == "$k.000" && $lat == "$k" && ${dir:-0} -gt 17576 ]]; then
    ok "rtl sfma: cfg $idx $arch:$name ($a, K=$k): $v vectors, 0 mismatches, $cyc cycles per dot-add, latency $lat, $dir directed, $rate vec/s"
  else
    not_ok "rtl sfma: cfg $idx $arch:$name: '$res' (want $count vectors, 0 mismatches, cycles/op $k, latency $k, > 17576 directed)"
  fi
  res=$($SIM +cfg="$idx" +seed=6 +count=$((count / 3)) +bp +nofst 2>&1 | grep '^RESULT')
  if [[ $res == *" vectors=$((count / 3)) mismatches=0 "* ]]; then ok "rtl sfma: cfg $idx under backpressure and bubbles: 0 mismatches"
  else not_ok "rtl sfma: cfg $idx with +bp: $res"; fi
done <$GEN/configs.txt

# ---- the mutant: C's shifted-out bits dropped instead of jammed ----
mut=$(awk '$3 == "mutant-no-sticky" {print $1; exit}' $GEN/configs.txt)
out=$($SIM +cfg="$mut" +seed=1 +count=30000 +nofst 2>&1); rc=$?
res=$(grep '^RESULT' <<<"$out")
if [[ $rc == 1 && $res == *" mutant "* && $res != *" mismatches=0 "* && $out == *"MISMATCH "*"(directed)"* \
      && $out == *"model  f64"* && $out == *"rtl    f64"* ]]; then
  ok "rtl sfma: the lost-sticky mutant is caught by the corner vectors ($(sed -n 's/.*\(mismatches=[0-9]*\).*/\1/p' <<<"$res") of 30000)"
else
  not_ok "rtl sfma: lost-sticky mutant: rc=$rc $res; $(head -3 <<<"$out")"
fi

# ---- Yosys: every SFMA unit reads, elaborates, no latch (make synth maps them to gates) ----
units=$(awk '$2 == "SFMA" && $10 == 0 {print $1}' $GEN/units.txt | xargs)
out=$(bash synth/synth.sh --quick $units 2>&1); rc=$?
n=$(wc -w <<<"$units")
if [[ $rc == 0 && $(grep -c ' ok$' <<<"$out") == "$n" ]]; then ok "rtl sfma: yosys elaborates the $n SFMA units ($units) with no latch"
else not_ok "rtl sfma: yosys elaboration of units $units: $(tail -3 <<<"$out")"; fi
