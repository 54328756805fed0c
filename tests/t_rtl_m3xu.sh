# M3XU RTL (docs/m3xu.md, RTL section): the M3XU unit and its comparison designs against the model.
# tests/t_rtl_cosim.sh already runs every mode of every design (100,000 vectors each); here:
#   - every design runs every m3xu instruction of its modes (from units.txt's masks and the table);
#   - cycles per operation and latency measured in simulation, one run per (design, mode) without
#     backpressure: 1, 2, 4 steps for FP16/BF16, FP32, FP32C (the naive unit 1), one cycle more latency
#     when pipelined;
#   - the M3XU unit and the pipelined one under random backpressure and bubbles in every mode;
#   - the check value: vector 0 of the f32 stream is a = (1 + 2^-23, -1), b = (1 + 2^-22, 1), c = 0, and
#     the RTL returns 0x34c00001, as the model and the paper's definition do;
#   - the M3XU corner vectors (the library's generator, cmodel/src/gen.c d_split_halves, d_complex_parts)
#     head every f32/f32c stream, the bench offers the library's directed vectors and no others;
#   - both M3XU mutants (a_L b_L dropped; no sign flip in FP32C's real part) are caught, with a report
#     that decodes complex operands part by part;
#   - Yosys elaborates the full M3XU unit and the naive unit with no latch.
# runtime: 48 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
count=${RTL_M3XU_COUNT:-20000}
SIM=build/rtl/obj/Vtb_mma GEN=build/rtl/gen

if ! command -v verilator >/dev/null || ! command -v yosys >/dev/null; then
  not_ok "rtl m3xu: verilator and yosys are needed (make setup)"
  exit 0
fi
if ! out=$(make -s rtl 2>&1); then not_ok "rtl m3xu: Verilator model builds: $(tail -5 <<<"$out")"; exit 0; fi

# ---- the designs and their configurations, against the table ----
if out=$("$MMAREF" list --json | python3 -c '
import json, sys
table = json.load(sys.stdin)
codes = {f["name"]: f["code"] for f in json.load(open(sys.argv[1]))["formats"]}
m3xu = {i["name"]: i for i in table if i["arch"] == "m3xu"}
units = {r.split()[0]: r.split() for r in open(sys.argv[2]) if not r.startswith("#")}
designs = dict(r.split(None, 1) for r in open(sys.argv[3]) if not r.startswith("#"))
runs = {}
for r in open(sys.argv[4]):
    c = r.split()
    if not r.startswith("#") and c[1] in designs and c[2] == "check":
        runs.setdefault(c[1], set()).add(c[4])
bad = []
for u, name in designs.items():
    if int(units[u][9]):
        continue
    want = {n for n, i in m3xu.items() if (int(units[u][6]) >> codes[i["a"]]) & 1}
    if runs.get(u, set()) != want or not want:
        bad.append(f"{name.strip()}: runs {sorted(runs.get(u, set()))}, serves {sorted(want)}")
print("; ".join(bad) if bad else f"{len(runs)} designs, {sum(len(v) for v in runs.values())} configurations")
sys.exit(1 if bad else 0)' <("$MMAREF" list --schema --json) $GEN/units.txt $GEN/designs.txt $GEN/configs.txt)
then ok "rtl m3xu: every design runs every m3xu instruction of its modes: $out"
else not_ok "rtl m3xu: designs and configurations: $out"; fi

# ---- cycles per operation, latency, vectors, mismatches: one run per (design, mode) ----
designs=$(awk '!/^#/ {print $1}' $GEN/designs.txt | xargs)
mutants=$(awk '!/^#/ && $2 ~ /:mutant-/ {print $1}' $GEN/designs.txt | xargs)
table=$(mktemp)
trap 'rm -f "$table"' EXIT
while read -r idx unit kind arch name k F steps a rest; do
  [[ $kind == check && " $designs " == *" $unit "* ]] || continue
  pipe=$(awk -v u="$unit" '$1 == u {print ($12 ~ /PIPE=1/) ? 1 : 0}' $GEN/units.txt)
  design=$(awk -v u="$unit" '$1 == u {print $2}' $GEN/designs.txt)
  res=$($SIM +cfg="$idx" +seed=11 +count="$count" +nofst 2>&1 | grep '^RESULT')
  v=$(sed -n 's/.* vectors=\([0-9]*\).*/\1/p' <<<"$res")
  m=$(sed -n 's/.* mismatches=\([0-9]*\).*/\1/p' <<<"$res")
  cyc=$(sed -n 's|.* cycles/op=\([0-9.]*\).*|\1|p' <<<"$res")
  lat=$(sed -n 's/.* latency=\([0-9]*\).*/\1/p' <<<"$res")
  printf '%-20s %-5s %4s %9s %9s %7s %7s\n' "$design" "$a" "$steps" "$v" "$m" "$cyc" "$lat" >>"$table"
  if [[ $v == "$count" && $m == 0 && $cyc == "$steps.000" && $lat == $((steps + pipe)) ]]; then
    ok "rtl m3xu: $design $a: $v vectors, 0 mismatches, $cyc cycles/op, latency $lat"
  else
    not_ok "rtl m3xu: $design $a (cfg $idx): vectors $v, mismatches $m, cycles/op $cyc (want $steps), latency $lat (want $((steps + pipe)))"
  fi
done <$GEN/configs.txt
echo "# design               mode  steps  vectors mismatch cyc/op latency"
sed 's/^/# /' "$table"

# ---- backpressure in every mode: the M3XU unit (an untaken D holds the next operation at its step 0)
# and the pipelined one (hold: a result waits for D, the stage keeps its step) ----
for design in m3xu m3xu-pipelined; do
  u=$(awk -v d=$design '$2 == d {print $1}' $GEN/designs.txt)
  for idx in $(awk -v u="$u" '$2 == u && $3 == "check" {print $1}' $GEN/configs.txt); do
    res=$($SIM +cfg="$idx" +seed=12 +count=$((2 * count)) +bp +nofst 2>&1 | grep '^RESULT')
    if [[ $res == *" vectors=$((2 * count)) mismatches=0 "* ]]; then ok "rtl m3xu: $design, backpressure: ${res#RESULT }"
    else not_ok "rtl m3xu: $design, backpressure, cfg $idx: $res"; fi
  done
done

# The check value in the f32 stream: on lanes 0-1 (c a0..a3 b0..b3); in the f32c one the same four values
# as the parts re0 (low word), im0 (high word) of complex lane 0: a0 = -1 : 1 + 2^-23, b0 = 1 : 1 + 2^-22;
# C = (+inf, -inf) is ff800000 : 7f800000.
check_f32="00000000 3f800001 bf800000 00000000 00000000 3f800002 3f800000 00000000 00000000"
check_f32c="0000000000000000 bf8000003f800001 0000000000000000 3f8000003f800002 0000000000000000"
# its index in the library's directed f32 stream (0: the split-significand corners open it)
at=$("$MMAREF" gen m3xu m3xu.f32 --kind directed | grep -n -m1 -xF "$check_f32" | cut -d: -f1)
at=$(( ${at:-0} - 1 ))

# ---- the check value through the RTL (the first of the split-significand corners of every f32 stream) ----
f32cfg=$(awk -v u="$(awk '$2 == "m3xu" {print $1}' $GEN/designs.txt)" '$2 == u && $9 == "f32" {print $1}' $GEN/configs.txt)
want=$("$MMAREF" dot m3xu m3xu.f32 -a 0x3f800001,0xbf800000 -b 0x3f800002,0x3f800000 -c 0 | awk '{print $1}')
out=$($SIM +cfg="$f32cfg" +first=$at +count=1 +show +nofst 2>&1)
if [[ $want == 0x34c00001 && $at == 0 && $out == *"index=$at rtl=0x34c00001 model=0x34c00001"* ]]; then
  ok "rtl m3xu: check value a = (1+2^-23, -1), b = (1+2^-22, 1) (directed vector $at): model $want, RTL 0x34c00001"
else not_ok "rtl m3xu: check value (directed vector $at): model $want, RTL run: $(grep '^D ' <<<"$out")"; fi

# ---- the corner vectors lead the f32c stream, the f32 one after the papers' experiments (the library's),
# and the bench offers them all ----
for mode in f32 f32c; do
  want=check_$mode
  cfg=$(awk -v u="$(awk '$2 == "m3xu" {print $1}' $GEN/designs.txt)" -v m=$mode '$2 == u && $9 == m {print $1}' $GEN/configs.txt)
  out=$($SIM +cfg="$cfg" +count=1 +nofst 2>&1 | grep '^RESULT')
  lib=$("$MMAREF" gen m3xu m3xu.$mode --kind directed | wc -l)
  i=$([[ $mode == f32 ]] && echo $at || echo 0)
  first=$("$MMAREF" gen m3xu m3xu.$mode --kind directed --n 1 --first $i)
  dir=$(sed -n 's/.* directed=\([0-9]*\).*/\1/p' <<<"$out")
  if [[ $dir == "$lib" && $first == "${!want}" ]]; then ok "rtl m3xu: $mode stream: the library's $lib directed vectors, the M3XU check value vector $i"
  else not_ok "rtl m3xu: $mode directed vectors: bench $dir, library $lib; check value '$first'"; fi
done
n=$("$MMAREF" gen m3xu m3xu.f32c --kind directed | grep -c '^ff8000007f800000 ')
[[ $n == 1 ]] && ok "rtl m3xu: f32c corners: C = (+inf, -inf) against ai = inf (the complex-only cases)" ||
  not_ok "rtl m3xu: f32c complex-only corner with C = (+inf, -inf): $n"

# ---- the mutants must be caught; the report decodes an f32c operand part by part ----
for u in $mutants; do
  idx=$(awk -v u="$u" '$2 == u {print $1; exit}' $GEN/configs.txt)
  label=$(awk -v u="$u" '$1 == u {print $2}' $GEN/designs.txt)
  out=$($SIM +cfg="$idx" +seed=13 +count="$count" +nofst 2>&1); rc=$?
  m=$(sed -n 's/.* mismatches=\([0-9]*\).*/\1/p' <<<"$out")
  if [[ $rc == 1 && ${m:-0} -gt 0 && $out == *"MISMATCH m3xu:"*"model"*"rtl"* ]]; then
    ok "rtl m3xu: $label caught: $m of $count vectors differ"
  else not_ok "rtl m3xu: $label not caught: rc=$rc mismatches=${m:-?}"; fi
  if [[ $label == *sign-flip* ]]; then
    if [[ $out == *"a[0].re"*"a[0].im"*"model.re"*"rtl.im"* ]]; then ok "rtl m3xu: an f32c mismatch report shows each part"
    else not_ok "rtl m3xu: f32c report: $(head -12 <<<"$out")"; fi
  fi
done

# ---- Yosys: the M3XU unit (every mode, 4 steps) and the naive unit elaborate with no latch ----
full=$(awk '$2 == "m3xu" {print $1}' $GEN/designs.txt)
naive=$(awk '$2 == "naive-fp32" {print $1}' $GEN/designs.txt)
out=$(bash synth/synth.sh --quick "$full" "$naive" 2>&1); rc=$?
if [[ $rc == 0 && $(grep -c ' ok$' <<<"$out") == 2 ]]; then ok "rtl m3xu: yosys reads and elaborates units $full (m3xu) and $naive (naive-fp32) with no latch"
else not_ok "rtl m3xu: yosys elaboration of units $full, $naive: $(tail -3 <<<"$out")"; fi
