#!/usr/bin/env bash
# make prove-all (in make regress): the table of docs/formal.md -- make prove on the project's own units
# and fixtures, one row a run: wrappers proven equal to the unit they wrap, the planted mutants of
# tests/verify/fda_mutants.sv refuted, the independent example examples/naive_dot refuted, the M3XU
# designs against each other and against the fda_unit of their FP16 mode, and the properties the
# algorithms guarantee (make prove's PROPERTY: lane permutation, a zero C's sign, sign symmetry) proven
# or refuted where the algorithm itself breaks them (the model's D shows it too), or, past the solver's
# reach, UNKNOWN with the time it was given.  Every counterexample is replayed through make verify's
# bench (VECTORS=): the unit's D must differ from the model's there too (the mutants of one instruction
# share one build, +mutant=N).  Writes build/prove-all/table.jsonl (one record a row) and, rendered from
# it by tools/prove_table.py, table.md, boundary.md and boundary.json (the rows that ended UNKNOWN, with
# their reasons: the why map below); make prove-table merges the records into docs/data/prove-all.jsonl,
# which docs/formal.md's tables are rendered from.  Prints a line as each row starts and one as it ends
# (verdict, seconds, elapsed, rows done and left), and a summary.  Exit status 1 when a row's verdict
# contradicts what it must be (a mutant proven, a correct unit refuted); UNKNOWN is reported, not a
# failure: it is the measured boundary.
#   PROVE_TIMEOUT  seconds per row for the solver (default 1800)
#   PROVE_ONLY     run only the rows whose name contains this (or one of several, |-separated);
#   PROVE_SKIP     not those that contain this
#   PROVE_ROW      run only the row of exactly this name (a regression shard: tools/regress/shard.py)
#   PROVE_LIST=1   print each row's expected verdict and name, one row a line, and run nothing
#   PROVE_ALL_DIR  where the rows and the table go (default build/prove-all)
set -u
# the script is one brace group, which bash reads to its end before running it: an edit of this file
# while a run is in progress does not change what that run executes
{
cd "$(dirname "$0")/../.."
MMAREF=${MMAREF:-build/mmaref}
OUT=${PROVE_ALL_DIR:-build/prove-all}
TIMEOUT=${PROVE_TIMEOUT:-1800}
mkdir -p "$OUT"
code() { sed -n "s/.*localparam int $1 *= *\([0-9]*\);.*/\1/p" rtl/mma_formats.svh; }
bits() { local m=0 n; for n in "$@"; do m=$(( m | (1 << n) )); done; echo $m; }
# a field of the unit serving ARCH:NAME (the design database, build/rtl/gen/design.json, read once through
# tools/design.py): its params, its top module, its file
declare -A UNIT_OF UNIT_FIELDS
while read -r arch name unit; do UNIT_OF[$arch:$name]=$unit; done \
  < <(python3 tools/design.py instructions --field arch,name,unit)
while read -r unit top file params; do
  UNIT_FIELDS[$unit:top]=$top UNIT_FIELDS[$unit:file]=$file UNIT_FIELDS[$unit:params]=$params
done < <(python3 tools/design.py units --field index,top,file,params)
unit_field() { echo "${UNIT_FIELDS[${UNIT_OF[$1]:-none}:$2]:-}"; }
unit_params() { unit_field "$1" params; }
unit_file() { unit_field "$1" file; }
# the lane width of the unit serving ARCH:NAME (tb/prove/gen_prove.py unit_lane_width: its widest format),
# wider than the instruction's operands on the f8f6f4 units (8 bits for e2m1); a fixture wrapping the
# unit (@) has the unit's lanes, and make prove and make verify are told so (DUT_AW, REF_AW)
unit_aw() {
  "$MMAREF" list --schema --json | python3 -c 'import json, sys; sys.path.insert(0, "tb/prove"); import gen_prove
print(gen_prove.unit_lane_width(sys.argv[1], sys.argv[2], json.load(sys.stdin)) or "")' \
    "$(unit_field "$1" top)" "$(unit_params "$1")"
}
# the parameters of the M3XU design (not a mutant) whose parameter text matches the pattern
m3xu_params() { python3 tools/design.py units --kind M3XU --mutant 0 --field params | grep -m1 -E "$1"; }

VOLTA=volta:mma.m8n8k4.f32.f16.f16.f32                          # f16, K = 4, F = 23
ADA16=ada:mma.m16n8k16.f32.e4m3.e4m3.f32                        # e4m3, K = 16, F = 13, f32 (13 bits) RZ
ADA32=ada:mma.m16n8k32.f32.e4m3.e4m3.f32                        # e4m3, K = 32 in two passes (CoFDA)
HOPPER8=hopper:wgmma.m64n8k32.f32.e4m3.e4m3                     # e4m3, K = 32, zero terms at -133
FP4=blackwell:tcgen05.mma.m64n8k32.f32.e2m1.e2m1                # e2m1 (4 bits), K = 32, F = 25
FP6=blackwell:tcgen05.mma.m64n8k32.f32.e3m2.e3m2                # e3m2 (6 bits), K = 32
FP6B=blackwell:tcgen05.mma.m64n8k32.f32.e2m3.e2m3               # e2m3 (6 bits), K = 32
MIXED=blackwell:tcgen05.mma.m64n8k32.f32.e2m1.e4m3              # A e2m1, B e4m3 (8-bit lanes)
BLOCK32=blackwell:tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0  # e4m3, K = 32, UE8M0 scales
HOPPER16=hopper:mma.m16n8k16.f32.f16.f16.f32                    # f16, K = 16, F = 25
AMPERE8=ampere:mma.m16n8k8.f32.bf16.bf16.f32                     # bf16, K = 8, F = 24
E5M2=blackwell:tcgen05.mma.m64n8k32.f16.e5m2.e5m2               # e5m2 (infinities), K = 32, f16 RNE
SYNC16=hopper:mma.m16n8k16.f32.e4m3.e5m2.f32                     # mma.sync FP8: runs of 2 to two passes through f16, C added last
SYNC32=blackwell:mma.m16n8k32.f16.e5m2.e5m2.f16                  # the same at K = 32, f16 C and D
SYNC32H=hopper:mma.m16n8k32.f32.e4m3.e4m3.f32                   # Hopper's K = 32 unit, e4m3 both
SYNC16B=blackwell:mma.m16n8k16.f16.e4m3.e5m2.f16                 # Blackwell's K = 16 unit, f16 C and D
M3F32=m3xu:m3xu.m8n4k4.f32.f32.f32.f32                          # M3XU FP32: two steps on 12-bit halves
M3F32C=m3xu:m3xu.m8n4k2.f32c.f32c.f32c.f32c                     # M3XU FP32C: four steps, 64-bit C and D
M3F16=m3xu:m3xu.m8n4k8.f32.f16.f16.f32                          # M3XU FP16: one step, Ampere's FDA
M=tests/verify/fda_mutants.sv
X=tests/prove/m3xu_contract.sv
M3XU=$(m3xu_params 'AB_MASK=16410.*PIPE=0')                     # the M3XU: f16, bf16, f32, f32c
M3XU_NOC=$(m3xu_params 'AB_MASK=26,')                           # M3XU without FP32C
M3XU_11=$(m3xu_params 'MUL_W=11')                               # the FP16/BF16 baseline, 11-bit multipliers

# rows: EXPECT NAME INSTR DUT PARAMS [VAR=VALUE...]   (EXPECT: PROVEN or REFUTED; DUT @ = the unit serving
# INSTR, PARAMS @ = its parameters)
rows=()
for i in VOLTA ADA16 ADA32 HOPPER8 FP4 BLOCK32; do
  rows+=("PROVEN wrapper:fda_mutants-clean:$i ${!i} $M @,SELECT=0")
done
for m in 1 3 4 5 6 7; do rows+=("REFUTED mutant-$m:$ADA16 $ADA16 $M @,INTERNAL=$(bits 1 7 9),SELECT=$m"); done
# two mutants that cannot change this instruction's D, proven so: its output truncates (RZ), so the sticky
# bit is never read (9); e4m3 has no infinity and C alone cannot meet another one (11)
for m in 9 11; do rows+=("PROVEN mutant-$m-harmless:$ADA16 $ADA16 $M @,INTERNAL=$(bits 1 7 9),SELECT=$m"); done
for m in 9 11; do rows+=("REFUTED mutant-$m:$E5M2 $E5M2 $M @,INTERNAL=$(bits 9),SELECT=$m"); done
for m in 2 8 12; do
  rows+=("REFUTED mutant-$m:$BLOCK32 $BLOCK32 $M @,INTERNAL=$(bits 8),ROUND_OUT=$(code OUT_F32_RNE),SELECT=$m")
done
rows+=("REFUTED mutant-10:$ADA32 $ADA32 $M @,INTERNAL=$(bits 10),SELECT=10")
# the last lane left out of e_max on e2m1, whose 4-bit operands reach the unit's 8-bit lanes: refuted only
# when every lane of the instruction reaches the unit (DUT_AW), the last one included
rows+=("REFUTED mutant-7:$FP4 $FP4 $M @,INTERNAL=$(bits 7),SELECT=7")
rows+=("REFUTED example:naive_dot $HOPPER16 examples/naive_dot/naive_dot.sv K=16 BOUND=40")
# units written independently of rtl/ in other styles (tests/prove/styles/: heavy SystemVerilog that Yosys
# 0.23 cannot read, plain Verilog-2005 with another adder tree, normalizer and multiplier), read through
# make prove's front end (Verilator's elaboration as a netlist, checked against its simulation first):
# against the independent specification, which the row spec-fp8:ADA16 proves equal to fda_unit (so a
# PROVEN row here proves the unit equal to fda_unit too); kred-4: both built with K = 4; the planted bugs
STYLE_SPEC="REF=fda_spec REF_FILES=tests/prove/fda_spec.sv"
for u in sv_dot_e4m3.sv plain_dot_e4m3.v; do
  rows+=("PROVEN styles-spec:${u%.*} $ADA16 tests/prove/styles/$u K=16 $STYLE_SPEC REF_PARAMS=$(unit_params "$ADA16"),AW=8")
  rows+=("PROVEN styles-spec-kred-4:${u%.*} $ADA16 tests/prove/styles/$u K=4 $STYLE_SPEC REF_PARAMS=$(unit_params "$ADA16" | sed 's/^K=16/K=4/'),AW=8")
  rows+=("REFUTED styles-mutant:${u%.*} $ADA16 tests/prove/styles/$u K=16,MUTANT=1")
done
# make verify's timing fixture (a vector every other cycle, results through a FIFO 5 cycles late): proven
# equal to the unit it wraps; its mutant 1 (results handed out in swapped pairs) never answers a lone vector
rows+=("PROVEN wrapper:fda_pipe_wrap $HOPPER16 tests/verify/fda_pipe_wrap.sv SELECT=0 BOUND=24")
rows+=("REFUTED wrapper-mutant:fda_pipe_wrap-swapped-pairs $HOPPER16 tests/verify/fda_pipe_wrap.sv SELECT=1 BOUND=24")
# The properties (make prove PROPERTY=..., the unit against itself).  FDA sums exact products aligned to
# one e_max: lane 0 exchanged with lane 1 (its neighbour in the adder tree), with lane J (another pair:
# 2 or 3) and every lane moved one place change nothing, nor does a zero C's sign (+0 for every exact
# zero), and RZ and RNE are symmetric: D(-A, B, -C) = -D(A, B, C)
for iv in VOLTA:2 ADA16:3 FP4:2 HOPPER8:3; do
  i=${iv%:*} j=${iv#*:}
  rows+=("PROVEN lanes-swap-0-1:$i ${!i} @ @ PROPERTY=swap:0,1")
  rows+=("PROVEN lanes-swap-0-$j:$i ${!i} @ @ PROPERTY=swap:0,$j")
  rows+=("PROVEN lanes-rotate-1:$i ${!i} @ @ PROPERTY=rotate:1")
  rows+=("PROVEN c-zero-sign:$i ${!i} @ @ PROPERTY=c-zero")
  rows+=("PROVEN sign-symmetry:$i ${!i} @ @ PROPERTY=negate")
done
# a property can fail: A negated but C kept is no identity
rows+=("REFUTED sign-c-kept:VOLTA $VOLTA @ @ PROPERTY=negate-keep-c")
# sign symmetry in three parts (tests/prove/sign_harness.sv, each computing both copies and answering
# whether they break the claim, the reference 0): one product (PART 0; the unit's A and B are f16), the
# sum with C's format, the output kind and every product free (PART 1: Volta's four products read from
# Hopper's K = 16 vector), the rounding with the output kind free (PART 2): Volta's f16 unit, every
# instruction of it; each part's mutant (B negated too, C kept, D not negated back) refuted
sign_row() {  # EXPECT NAME PART SIDE VECTOR-INSTR-VARIABLE: Volta's pass, on that vector
  local ins=${!5} p
  p="$(unit_params "$VOLTA" | sed "s/^K=[0-9]*/K=$(sed 's/^K=\([0-9]*\).*/\1/' <<<"$(unit_params "$ins")")/"),KD=4,AW=16,PART=$3"
  rows+=("$1 $2:VOLTA $ins tests/prove/sign_harness.sv SIDE=$4,$p REF=sign_harness REF_PARAMS=SIDE=1,$p")
}
sign_row PROVEN sign-term 0 0 VOLTA
sign_row PROVEN sign-sum 1 0 HOPPER16
sign_row PROVEN sign-round 2 0 VOLTA
sign_row REFUTED sign-term-mutant 0 2 VOLTA
sign_row REFUTED sign-sum-mutant 1 2 HOPPER16
sign_row REFUTED sign-round-mutant 2 2 VOLTA
# GDFS: two lanes of one group trade places freely; lanes of two groups meet different scales
GDFS16=blackwell:tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue8m0   # e2m1, K = 64, groups of 16, UE8M0
rows+=("PROVEN lanes-swap-0-1:GDFS16 $GDFS16 @ @ PROPERTY=swap:0,1")
rows+=("REFUTED lanes-swap-0-16-across-groups:GDFS16 $GDFS16 @ @ PROPERTY=swap:0,16")
# GPS (CDNA1, f16, groups of 4 summed exactly, the groups added one after another in f32): lanes of a
# group trade places; lanes of two groups do not; a zero C's sign counts where every product is -0 (IEEE:
# -0 + -0 = -0, the model's D -0 with C = -0 and +0 with C = +0: a vector of the model's directed set,
# which the solvers alone did not reach in 600 s); RNE is symmetric in sign
GPS8=cdna1:v_mfma_f32_32x32x8f16                                 # f16, K = 8 (2 groups of 4)
rows+=("PROVEN lanes-swap-0-1:GPS8 $GPS8 @ @ PROPERTY=swap:0,1")
rows+=("REFUTED lanes-swap-0-4-across-groups:GPS8 $GPS8 @ @ PROPERTY=swap:0,4")
rows+=("REFUTED c-zero-sign:GPS8 $GPS8 @ @ PROPERTY=c-zero")
rows+=("PROVEN sign-symmetry:GPS8 $GPS8 @ @ PROPERTY=negate")
# FDRDA (CDNA3, f16, K = 4 in one pass): a fused pass, lanes trade places; its rounding of the products'
# sum is not symmetric in sign (round down: the model shows the counterexample too)
FDRDA4=cdna3:v_mfma_f32_32x32x4_2b_f16                           # f16, K = 4
rows+=("PROVEN lanes-swap-0-1:FDRDA4 $FDRDA4 @ @ PROPERTY=swap:0,1")
rows+=("PROVEN lanes-rotate-1:FDRDA4 $FDRDA4 @ @ PROPERTY=rotate:1")
rows+=("REFUTED sign-symmetry:FDRDA4 $FDRDA4 @ @ PROPERTY=negate")
# SFMA (IEEE fused multiply-adds one after another, RNE): symmetric in sign; a zero C's sign counts
# (IEEE: -0 + -0 = -0) and the order of the lanes counts (each step rounds)
SFMA1=cdna1:v_mfma_f32_32x32x1f32                                # f32, K = 1
SFMA2=cdna1:v_mfma_f32_32x32x2f32                                # f32, K = 2
rows+=("PROVEN sign-symmetry:SFMA1 $SFMA1 @ @ PROPERTY=negate")
rows+=("REFUTED c-zero-sign:SFMA1 $SFMA1 @ @ PROPERTY=c-zero")
rows+=("REFUTED lanes-swap-0-1:SFMA2 $SFMA2 @ @ PROPERTY=swap:0,1")
# the project's units against an independent specification of FDA (tests/prove/fda_spec.sv: written from
# the paper's steps, sharing only the format table with rtl/): fda_unit with the instruction's parameters
# (@) against the spec with the same ones, lanes as wide as the instruction's operands (AW); e2m1's 4-bit
# lanes reach the unit's 8-bit ones as make prove places them (the reference's own lane width).  e2m1 K = 32 (Blackwell, F = 25),
# e4m3 K = 16 (Ada, F = 13, f32 RZ to 13 bits), e4m3 K = 32 with zero terms at -133 (Hopper), e5m2 K = 32
# with infinities and an f16 RNE D (Blackwell), e4m3 K = 32 in two chained passes (Ada's CoFDA).  kred-N
# rows: the same unit and spec both built with K = N (lanes N.. of the vector unused): a proof of the
# parameterized design at that K, not of the instruction.  The spec's mutant aligns with F - 1 bits.
spec_row_of() {  # SPEC-FILE REF-UNIT EXPECT NAME INSTR-VARIABLE AW [K] [MORE-SPEC-PARAMS]
  local spec=$1 ref=$2; shift 2
  local ins=${!3} p
  p=$(unit_params "$ins")
  [[ -n ${5:-} ]] && p=$(sed "s/^K=[0-9]*/K=$5/" <<<"$p")
  rows+=("$1 $2:$3 $ins $spec $p,AW=$4${6:+,$6} REF=$ref REF_PARAMS=$p")
}
spec_row() { spec_row_of tests/prove/fda_spec.sv fda_unit "$@"; }        # FDA: fda_unit
fdrda_spec_row() { spec_row_of tests/prove/fdrda_spec.sv fdrda_unit "$@"; }  # FDRDA, GFDRDA: fdrda_unit
spec_row PROVEN spec-fp8 FP4 4
spec_row PROVEN spec-fp8 ADA16 8
spec_row PROVEN spec-fp8 HOPPER8 8
spec_row PROVEN spec-fp8 E5M2 8
spec_row PROVEN spec-fp8 ADA32 8
spec_row PROVEN spec-fp6 FP6 6
spec_row PROVEN spec-fp6 FP6B 6
spec_row PROVEN spec-mixed MIXED 8
spec_row PROVEN spec-block BLOCK32 8
spec_row PROVEN spec-fp8-kred-8 E5M2 8 8
spec_row PROVEN spec-fp8-kred-4 ADA16 8 4
spec_row REFUTED spec-mutant-F-short ADA16 8 "" SPEC_MUTANT=1
# mma.sync FP8 (K_RUN, AB_F16, C_LAST): the lanes dealt in runs, operands through f16, C added last by
# the spec's own IEEE adder
spec_row PROVEN spec-sync-kred-4 SYNC16 8 4
spec_row PROVEN spec-sync SYNC16 8
spec_row PROVEN spec-sync SYNC32 8
# ... and proven in three parts, cut where both sides hand the f16 operands to the passes and where they
# hand the passes' result P (in D's format) to their adder (fda_unit: rtl/mma_to_f16.sv and
# rtl/mma_add_last.sv, fda_spec: spec_to_f16 and fda_spec_add): the two conversions for every operand of
# the instruction's formats (tests/prove/to_f16_harness.sv: lane 0 of A and of B; its mutant leaves
# subnormals unnormalized), the passes from any C with the spec reading rtl/'s conversion (F16_CUT = 1;
# both built with C_LAST = 0: P is their result from C = +0), and the two adders for every P, C and D
# format (tests/prove/add_last_harness.sv: P in lanes 0-3 of A; its mutant rounds toward zero)
T=tests/prove/to_f16_harness.sv H=tests/prove/add_last_harness.sv
# a harness's DUT side (SIDE=N) against its spec side (SIDE=1), with K, lanes of 8 bits and the one unit
# parameter it reads taken from the unit serving the instruction
harness_row() {  # HARNESS-FILE UNIT-PARAMETER EXPECT NAME INSTR-VARIABLE DUT-SIDE
  local ins=${!5} p top
  p=$(unit_params "$ins") top=$(basename "$1" .sv)
  p="K=$(sed 's/^K=\([0-9]*\).*/\1/' <<<"$p"),$2=$(sed -n "s/.*$2=\([0-9]*\).*/\1/p" <<<"$p"),AW=8"
  rows+=("$3 $4:$5 $ins $1 SIDE=$6,$p REF=$top REF_PARAMS=SIDE=1,$p")
}
to_f16_row() { harness_row "$T" AB_MASK "$@"; }      # the conversions read A's and B's formats
add_last_row() { harness_row "$H" OUT_MASK "$@"; }   # the adders D's
to_f16_row PROVEN sync-to-f16 SYNC16 0
to_f16_row PROVEN sync-to-f16 SYNC32 0
to_f16_row PROVEN sync-to-f16 SYNC32H 0
to_f16_row PROVEN sync-to-f16 SYNC16B 0
to_f16_row REFUTED sync-to-f16-mutant SYNC16 2
sync_passes_row() { spec_row "$@"; rows[${#rows[@]}-1]=${rows[${#rows[@]}-1]//C_LAST=1/C_LAST=0}; }
sync_passes_row PROVEN spec-sync-passes SYNC16 8 "" F16_CUT=1
sync_passes_row PROVEN spec-sync-passes SYNC32 8 "" F16_CUT=1
sync_passes_row PROVEN spec-sync-passes SYNC32H 8 "" F16_CUT=1
sync_passes_row PROVEN spec-sync-passes SYNC16B 8 "" F16_CUT=1
sync_passes_row PROVEN spec-sync-passes-kred-4 SYNC16 8 4 F16_CUT=1
add_last_row PROVEN sync-add-last SYNC16 0
add_last_row PROVEN sync-add-last SYNC32 0
add_last_row REFUTED sync-add-last-mutant SYNC16 2
# Every format combination of a unit in one proof (make prove FORMATS=all: a free field of the vector picks
# A's and B's formats, C's and the output kind among those of the instructions the unit serves, every lane
# and C masked to their formats' widths): with these rows every FP8/FP6/FP4 instruction of the fused
# dot-add units is proven, not one per unit.  Ada's K = 16 and two-pass K = 32 units, Hopper's wgmma
# (zero terms at -133), Blackwell's f8f6f4 unit (five formats each side, two outputs: 50 combinations;
# the spec's lanes 8 bits) and its block-scaled unit (25); RTX Blackwell's K = 16 unit (F = 25) on its FP8
# combinations (FORMATS=e4m3,e5m2: it serves f16 and bf16 too, past the boundary below); the mma.sync
# units in their three parts (the adder's rows above already cover both of D's kinds)
all_formats() { rows[${#rows[@]}-1]+=" FORMATS=${1:-all}"; }
RTX16=rtx-blackwell:mma.m16n8k16.f32.e4m3.e4m3.f32              # e4m3/e5m2 (and f16, bf16), K = 16, F = 25
for i in ADA16 ADA32 HOPPER8 FP4 BLOCK32; do spec_row PROVEN spec-formats "$i" 8; all_formats; done
spec_row PROVEN spec-formats RTX16 8; all_formats e4m3,e5m2
spec_row REFUTED spec-formats-mutant-F-short ADA16 8 "" SPEC_MUTANT=1; all_formats
for i in SYNC16 SYNC32 SYNC32H SYNC16B; do
  to_f16_row PROVEN sync-to-f16-formats "$i" 0; all_formats
  sync_passes_row PROVEN spec-sync-passes-formats "$i" 8 "" F16_CUT=1; all_formats
done
# the 16-bit formats (8- and 11-bit significands, 16- and 22-bit products): bf16 K = 8 proven whole; the
# f16 units proven with a cut point at the operands' decoding (tests/prove/fda_cut_harness.sv PART 0:
# rtl/'s mma_unpack against the specification's spec_decode for every operand of the instruction's
# formats, lane 0 of A and of B; its mutant reads a subnormal's exponent one short), then the unit
# against the specification decoding its operands with rtl/'s mma_unpack (DECODE_CUT = 1): each product
# is then the same multiplication of the same significands on both sides, which the solver merges;
# whole, the two sides' multipliers fed by differently built decoders stall it (Volta's f16 K = 4: no
# verdict in 28 minutes).  Volta f16 K = 4 (F = 23), Hopper f16 K = 16 (F = 25, zero terms at -133) with
# an f32 D and with an f16 D (RNE), Ampere bf16 K = 8, tf32 K = 4 (Step 0 in the decoding), Ampere's
# f16 K = 16 in two chained passes (CoFDA, below); the spec's mutant aligns with F - 1 bits
HOPPER16D=hopper:mma.m16n8k16.f16.f16.f16.f16                    # f16, K = 16, F = 25, f16 D (RNE)
TF32_4=ampere:mma.m16n8k4.f32.tf32.tf32.f32                      # tf32, K = 4, F = 24
COFDA16=ampere:mma.m16n8k16.f32.f16.f16.f32                      # f16, K = 16 in two passes of 8
spec_row PROVEN spec-bf16 AMPERE8 16
fda_cut_row() {  # EXPECT NAME INSTR-VARIABLE AW PART WORD DUT-SIDE
  local ins=${!3} p
  p="$(unit_params "$ins"),AW=$4,PART=$5,WORD=$6"
  rows+=("$1 $2:$3 $ins tests/prove/fda_cut_harness.sv SIDE=$7,$p REF=fda_cut_harness REF_PARAMS=SIDE=1,$p")
}
for iv in VOLTA:16 HOPPER16:16 HOPPER16D:16 AMPERE8:16 TF32_4:32; do
  i=${iv%:*} aw=${iv#*:}
  fda_cut_row PROVEN fda-decode "$i" "$aw" 0 -1 0
  spec_row PROVEN spec-decode-cut "$i" "$aw" "" DECODE_CUT=1
done
# CoFDA's two passes: each pass is the datapath of Ampere's K = 8 unit (the same parameters), which the
# rows above prove on every format combination; the unit against the specification running that
# datapath for each pass (PASS_CUT = 1) is the chaining and the handshake, UNKNOWN where measured (934 s),
# as the two-pass FDRDA units' chaining is (whole, with DECODE_CUT: no verdict in 13 minutes)
spec_row PROVEN spec-passes COFDA16 16 "" PASS_CUT=1
# ... and proven with the pass cut (CUT: every fda_datapath instance, the unit's one and the
# specification's two, replaced by free values under congruence, tb/prove/cut_points.py): the chaining
# and the handshake for any function in the datapath's place, which with the pass's own proof (the K = 8
# unit's rows, the same parameters) is the unit; the mutant chains the passes in the other order
cut_at() { rows[${#rows[@]}-1]+=" CUT=$1 BOUND=${2:-6}"; }  # MODULE [BOUND]: the row cut at MODULE
spec_row PROVEN chain-cut COFDA16 16 "" PASS_CUT=1; cut_at fda_datapath
spec_row PROVEN chain-cut-formats COFDA16 16 "" PASS_CUT=1; cut_at fda_datapath; all_formats
spec_row REFUTED chain-cut-mutant COFDA16 16 "" PASS_CUT=1,SPEC_MUTANT=2; cut_at fda_datapath
fda_cut_row REFUTED fda-decode-mutant VOLTA 16 0 -1 2
# ... on every format combination of each of those units at once (FORMATS=all: f16 and bf16, f32 and f16
# D, C in f32 or f16, as each unit serves them)
for iv in VOLTA:16 HOPPER16:16 AMPERE8:16 TF32_4:32; do
  i=${iv%:*} aw=${iv#*:}
  fda_cut_row PROVEN fda-decode-formats "$i" "$aw" 0 -1 0; all_formats
  spec_row PROVEN spec-decode-cut-formats "$i" "$aw" "" DECODE_CUT=1; all_formats
done
spec_row REFUTED spec-decode-cut-mutant-F-short VOLTA 16 "" DECODE_CUT=1,SPEC_MUTANT=1
# ... and split into cases (make prove CASES=, tb/prove/cases.sh): the lane that holds e_max, each case
# a proof of its own, their cover (every vector meets a case) proven too; the spec's mutant refuted in
# a case
split_by() { rows[${#rows[@]}-1]+=" CASES=tests/prove/cases/$1.txt"; }  # the row split by that file's cases
spec_row PROVEN spec-decode-cut-emax VOLTA 16 "" DECODE_CUT=1; split_by emax-f16-k4
spec_row REFUTED spec-decode-cut-emax-mutant VOLTA 16 "" DECODE_CUT=1,SPEC_MUTANT=1; split_by emax-f16-k4
# the smallest split: the decoding of lane 0 (fda-decode) for a zero or subnormal A and for the rest;
# its mutant (a subnormal's exponent one short) refuted in a case
fda_cut_row PROVEN fda-decode-split VOLTA 16 0 -1 0; split_by a0-exp-zero-f16
fda_cut_row REFUTED fda-decode-split-mutant VOLTA 16 0 -1 2; split_by a0-exp-zero-f16
# ... and one pass cut finer (PART 1: the products and their sum with C, rtl/fda_term.sv and
# rtl/fda_sum.sv against fda_spec_term and fda_spec_sum, each of the three words of the exact sum a proof;
# PART 2: mma_encode against spec_round for every sum PART 1 allows), for a pass too large to prove whole:
# Hopper's f16 K = 16; the mutants leave the last product out of e_max and round to the other kind
for w in 0 1 2; do fda_cut_row PROVEN fda-sum-word-$w HOPPER16 16 1 $w 0; done
fda_cut_row REFUTED fda-sum-mutant HOPPER16 16 1 0 2
fda_cut_row PROVEN fda-round HOPPER16 16 2 -1 0
fda_cut_row PROVEN fda-round HOPPER16D 16 2 -1 0
fda_cut_row REFUTED fda-round-mutant HOPPER16 16 2 -1 2
# GDFS against its independent specification (tests/prove/gdfs_spec.sv, written alike from the paper's GDFS
# steps): gdfs_unit with the instruction's parameters against the spec with the same ones and the
# instruction's block size and scale format, which make verify's contract has no port for (gdfs_unit
# takes them at run time: block32, fmt_s); e2m1 in 4-bit lanes on both sides.  One row per GDFS kind
# (the RTX Blackwell mma.m16n8k64 instructions are served by the same three configurations); kred-N: both
# built with K = N.  The spec's mutant aligns with F - 1 bits.
GDFS_B32=blackwell:tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0
GDFS_B16=blackwell:tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue8m0
GDFS_UE4M3=blackwell:tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3
gdfs_spec_row() {  # EXPECT NAME INSTR-VARIABLE BLOCK SCALE-FORMAT [K] [MORE-SPEC-PARAMS]
  spec_row_of tests/prove/gdfs_spec.sv gdfs_unit "$1" "$2" "$3" 4 "${6:-}" "BLOCK=$4,SCALE_FMT=$(code "FMT_$5")${7:+,$7}"
}
gdfs_spec_row PROVEN spec-gdfs GDFS_B32 32 UE8M0
gdfs_spec_row PROVEN spec-gdfs GDFS_B16 16 UE8M0
gdfs_spec_row PROVEN spec-gdfs GDFS_UE4M3 16 UE4M3
gdfs_spec_row PROVEN spec-gdfs-kred-16 GDFS_UE4M3 16 UE4M3 16
gdfs_spec_row PROVEN spec-gdfs-kred-16 GDFS_B16 16 UE8M0 16
gdfs_spec_row PROVEN spec-gdfs-kred-32 GDFS_B32 32 UE8M0 32
gdfs_spec_row REFUTED spec-gdfs-mutant GDFS_UE4M3 16 UE4M3 "" SPEC_MUTANT=1
# ... and proven in parts (tests/prove/gdfs_cut_harness.sv): one group's term, rtl/gdfs_group.sv against
# gdfs_spec_group (PART = 0: every 16 lanes and two scales), C and the four terms summed, rtl/gdfs_sum.sv
# against gdfs_spec_sum (1: every term the first part allows, every C), the rounding (2: mma_encode
# against spec_round on every sum the second allows), for each scale format (the block size only picks
# the slots); the mutants: the term on F - 1 bits, the terms aligned with F - 1, D rounded to nearest
# even.  The rest (each group its lanes and its block's scales, the handshake): gdfs_unit against the
# spec running rtl/'s parts (GDFS_CUT = 1).
gdfs_cut_row() {  # EXPECT NAME INSTR-VARIABLE BLOCK SCALE-FORMAT PART DUT-SIDE
  local ins=${!3} p
  p="$(unit_params "$ins"),BLOCK=$4,SCALE_FMT=$(code "FMT_$5"),AW=4"
  rows+=("$1 $2:$3 $ins tests/prove/gdfs_cut_harness.sv SIDE=$7,PART=$6,$p REF=gdfs_cut_harness REF_PARAMS=SIDE=1,PART=$6,$p")
}
gdfs_cut_row PROVEN gdfs-group GDFS_B16 16 UE8M0 0 0
gdfs_cut_row PROVEN gdfs-group GDFS_UE4M3 16 UE4M3 0 0
gdfs_cut_row REFUTED gdfs-group-mutant GDFS_UE4M3 16 UE4M3 0 2
gdfs_cut_row PROVEN gdfs-sum GDFS_B16 16 UE8M0 1 0
gdfs_cut_row PROVEN gdfs-sum GDFS_UE4M3 16 UE4M3 1 0
gdfs_cut_row REFUTED gdfs-sum-mutant GDFS_UE4M3 16 UE4M3 1 2
gdfs_cut_row PROVEN gdfs-round GDFS_B16 16 UE8M0 2 0
gdfs_cut_row PROVEN gdfs-round GDFS_UE4M3 16 UE4M3 2 0
gdfs_cut_row REFUTED gdfs-round-mutant GDFS_UE4M3 16 UE4M3 2 2
gdfs_spec_row PROVEN spec-gdfs-cut GDFS_B32 32 UE8M0 "" GDFS_CUT=1
gdfs_spec_row PROVEN spec-gdfs-cut GDFS_B16 16 UE8M0 "" GDFS_CUT=1
gdfs_spec_row PROVEN spec-gdfs-cut GDFS_UE4M3 16 UE4M3 "" GDFS_CUT=1
# CDNA3's FP8 (e4m3fnuz "fp8", e5m2fnuz "bf8"; GFDRDA, F = 24) against the independent specification of
# FDRDA / GFDRDA (tests/prove/fdrda_spec.sv, written from the paper's steps and the C model's reading of
# them, sharing only the format table with rtl/): fdrda_unit with the instruction's parameters against the
# spec with the same ones.  K = 16 in one pass (fp8, bf8 and the mix), K = 32 in two chained passes
# (CoGFDRDA); kred-N: both built with K = N (lanes N.. unused, even and odd groups of N / 2).  The spec's
# mutant aligns the products (Step 4) with F - 1 bits.
FNUZ16=cdna3:v_mfma_f32_32x32x16_fp8_fp8                          # e4m3fnuz, K = 16
FNUZ16B=cdna3:v_mfma_f32_32x32x16_bf8_bf8                         # e5m2fnuz, K = 16
FNUZ16M=cdna3:v_mfma_f32_32x32x16_fp8_bf8                         # A e4m3fnuz, B e5m2fnuz, K = 16
FNUZ16N=cdna3:v_mfma_f32_32x32x16_bf8_fp8                         # A e5m2fnuz, B e4m3fnuz, K = 16
FNUZ32=cdna3:v_mfma_f32_16x16x32_fp8_fp8                          # e4m3fnuz, K = 32 in two passes
fdrda_spec_row PROVEN spec-fnuz FNUZ16 8
fdrda_spec_row PROVEN spec-fnuz FNUZ16B 8
fdrda_spec_row PROVEN spec-fnuz FNUZ16M 8
fdrda_spec_row PROVEN spec-fnuz FNUZ32 8
fdrda_spec_row PROVEN spec-fnuz-kred-4 FNUZ16 8 4
fdrda_spec_row PROVEN spec-fnuz-kred-8 FNUZ16 8 8
fdrda_spec_row REFUTED spec-fnuz-mutant-F-short FNUZ16 8 "" SPEC_MUTANT=1
# ... and proven in four parts (tests/prove/fdrda_cut_harness.sv): a pass cut where both sides' products'
# dot sum meets C and where the exact sum is rounded, rtl/fdrda_dot.sv against fdrda_spec_dot (PART = 0,
# for every operand pair of the instruction's formats), rtl/fdrda_add_c.sv against fdrda_spec_add_c (1,
# for every dot sum the first part allows and every C) and mma_encode against spec_round (2, every sum the
# second allows; the mutants align the products with F - 1 bits, C with RZ, round to RZ); and the
# unit against the spec running rtl/'s pass (PASS_CUT = 1): the chaining of the passes and the handshake.
# The K = 32 unit's pass is the K = 16 unit's (the same fdrda_datapath): its parts are those rows.
fdrda_cut_row() {  # EXPECT NAME INSTR-VARIABLE AW PART DUT-SIDE [MORE-SPEC-PARAMS]
  local ins=${!3} p
  p="$(unit_params "$ins"),AW=$4"
  rows+=("$1 $2:$3 $ins tests/prove/fdrda_cut_harness.sv SIDE=$6,PART=$5,$p REF=fdrda_cut_harness REF_PARAMS=SIDE=1,PART=$5,$p${7:+,$7}")
}
fdrda_cut_row PROVEN fnuz-dot FNUZ16 8 0 0
fdrda_cut_row PROVEN fnuz-dot FNUZ16B 8 0 0
fdrda_cut_row PROVEN fnuz-dot FNUZ16M 8 0 0
fdrda_cut_row PROVEN fnuz-dot FNUZ16N 8 0 0
fdrda_cut_row REFUTED fnuz-dot-mutant FNUZ16 8 0 2
fdrda_cut_row PROVEN fnuz-add-c FNUZ16 8 1 0
fdrda_cut_row REFUTED fnuz-add-c-mutant FNUZ16 8 1 2
fdrda_cut_row PROVEN fnuz-round FNUZ16 8 2 0
fdrda_cut_row REFUTED fnuz-round-mutant FNUZ16 8 2 2
fdrda_spec_row PROVEN spec-fnuz-passes FNUZ16 8 "" PASS_CUT=1
fdrda_spec_row PROVEN spec-fnuz-passes FNUZ32 8 "" PASS_CUT=1
# ... on every format combination at once (FORMATS=all: fp8 and bf8 for A and for B; the dot sum's rows
# above take each pair, C added and the rounding read no operand format)
for i in FNUZ16 FNUZ32; do fdrda_spec_row PROVEN spec-fnuz-passes-formats "$i" 8 "" PASS_CUT=1; all_formats; done
# the same parts on CDNA3's f16 and bf16 FDRDA unit (K = 8, 11- and 8-bit significands) and the
# chaining of its two-pass K = 16 form, whose pass it is
FDRDA8=cdna3:v_mfma_f32_32x32x8_f16                                # f16, K = 8
FDRDA8B=cdna3:v_mfma_f32_32x32x8_bf16                              # bf16, K = 8
FDRDA16=cdna3:v_mfma_f32_16x16x16_f16                              # f16, K = 16 in two passes
# the dot sum's part with the cut point at the operands' decoding (DECODE_CUT: the specification's products
# decode with rtl/'s mma_unpack, proven equal to spec_decode by the fda-decode rows, tests/prove/
# fda_cut_harness.sv PART 0 as fdrda_spec decodes, DECODE_OF = 1): without it the f16 part stays UNKNOWN
fdrda_decode_row() {  # NAME INSTR-VARIABLE AW: the cut's decoder against spec_decode, as fdrda_spec decodes
  local ins=${!2} p
  p="K=$(sed 's/^K=\([0-9]*\).*/\1/' <<<"$(unit_params "$ins")"),AB_MASK=$(sed -n 's/.*AB_MASK=\([0-9]*\).*/\1/p' <<<"$(unit_params "$ins")")"
  p="$p,AW=$3,PART=0,WORD=-1,DECODE_OF=1"
  rows+=("PROVEN $1:$2 $ins tests/prove/fda_cut_harness.sv SIDE=0,$p REF=fda_cut_harness REF_PARAMS=SIDE=1,$p")
}
fdrda_decode_row fda-decode FDRDA8 16
fdrda_cut_row PROVEN fdrda-dot FDRDA8 16 0 0 DECODE_CUT=1
fdrda_cut_row PROVEN fdrda-dot FDRDA8B 16 0 0 DECODE_CUT=1
fdrda_cut_row PROVEN fdrda-add-c FDRDA8 16 1 0
fdrda_cut_row PROVEN fdrda-round FDRDA8 16 2 0
fdrda_spec_row PROVEN spec-fdrda-passes FDRDA8 16 "" PASS_CUT=1
fdrda_spec_row PROVEN spec-fdrda-passes FDRDA16 16 "" PASS_CUT=1
# CDNA3's xf32 (tf32: 10 of f32's 23 mantissa bits kept) FDRDA units: K = 4 (xf32, f16, bf16 at run
# time), K = 8 in two passes of its K = 4 pass (xf32 only); 32-bit lanes
XF32_4=cdna3:v_mfma_f32_32x32x4_xf32                               # K = 4
XF32_8=cdna3:v_mfma_f32_16x16x8_xf32                               # K = 8 in two passes
fdrda_decode_row fda-decode XF32_4 32
fdrda_cut_row PROVEN fdrda-dot XF32_4 32 0 0 DECODE_CUT=1
fdrda_cut_row PROVEN fdrda-add-c XF32_4 32 1 0
fdrda_cut_row PROVEN fdrda-round XF32_4 32 2 0
fdrda_spec_row PROVEN spec-fdrda-passes XF32_4 32 "" PASS_CUT=1
fdrda_spec_row PROVEN spec-fdrda-passes XF32_8 32 "" PASS_CUT=1
# the two-pass units' chaining with the pass cut (as CoFDA's above): the f16 unit's pass is the K = 8 f16
# unit's datapath (the same parameters), proven in the rows above; the xf32 unit's pass serves xf32 alone
# (AB_MASK), the K = 4 unit's xf32, f16 and bf16: the one-pass unit with the xf32-only datapath equals the
# K = 4 unit on xf32 (xf32-only-pass), whose pass the rows above prove
rows+=("PROVEN xf32-only-pass:XF32_4 $XF32_4 rtl/fdrda_unit.sv $(unit_params "$XF32_8" | sed 's/K=8,/K=4,/; s/CHAIN=2,/CHAIN=1,/') REF=fdrda_unit REF_PARAMS=$(unit_params "$XF32_4")")
for iv in FDRDA16:16 XF32_8:32; do fdrda_spec_row PROVEN chain-cut "${iv%:*}" "${iv#*:}" "" PASS_CUT=1; cut_at fdrda_datapath; done
fdrda_spec_row REFUTED chain-cut-mutant FDRDA16 16 "" PASS_CUT=1,SPEC_MUTANT=2; cut_at fdrda_datapath
# GPS (CDNA1's and CDNA2's f16 and bf16 MFMA: products rounded to f32, each group of G summed pairwise in
# f32, the groups added to C one after another) against its independent specification (tests/prove/
# gps_spec.sv, written from the paper's Algorithms 2 and 3 and IEEE 754's multiplication and addition,
# sharing only the format table with rtl/).  Whole, one f16 group stays UNKNOWN (with DECODE_CUT too);
# proven in three parts instead (tests/prove/gps_cut_harness.sv): one product, rtl/'s mma_fp_mul against
# gps_spec_mul for every operand pair of the instruction's formats (PART 0, with the cut point at the
# operands' decoding, which the fda-decode rows prove as fdrda_spec decodes, DECODE_OF = 1), one f32
# addition, mma_fp_add against gps_spec_add for every two f32 values (PART 1), and the unit against the
# specification running rtl/'s two operations in its own order (OP_CUT = 1: the pairwise tree, C first,
# the groups in order, the handshake; its mutant sums a group in order).  The harness's mutants round
# toward zero.  Two groups (K = 8): the chaining of the unit's one group datapath, UNKNOWN as the two-pass
# units' is.
GPS4=cdna1:v_mfma_f32_32x32x4f16                                  # f16, K = 4: one group of 4
GPS4F=cdna2:v_mfma_f32_32x32x4f16                                 # f16 and bf16, K = 4, subnormals flushed
GPS2B=cdna1:v_mfma_f32_32x32x2bf16                                # bf16, K = 2: one group of 2
gps_spec_row() { spec_row_of tests/prove/gps_spec.sv gps_unit "$@"; }
gps_cut_row() {  # EXPECT NAME INSTR-VARIABLE PART DUT-SIDE [MORE-PARAMS] [REF-SIDE (1)]: no G, no OUT
  local ins=${!3} p
  p="$(unit_params "$ins" | sed 's/,G=[0-9]*//; s/,OUT=[0-9]*//'),AW=16,PART=$4${6:+,$6}"
  rows+=("$1 $2:$3 $ins tests/prove/gps_cut_harness.sv SIDE=$5,$p REF=gps_cut_harness REF_PARAMS=SIDE=${7:-1},$p")
}
for i in GPS4 GPS4F GPS2B; do
  fdrda_decode_row fda-decode "$i" 16
  gps_cut_row PROVEN gps-mul "$i" 0 0 DECODE_CUT=1
done
gps_cut_row REFUTED gps-mul-mutant GPS4 0 2 DECODE_CUT=1
# CDNA2's flushed product, undecided whole (gps-mul:GPS4F), in three steps (PART 2): rtl/'s product equals
# rtl/'s unflushed product between the flushing done outside it, which equals the specification's alike,
# which equals the specification's flushed product
gps_cut_row PROVEN gps-mul-flush-rtl GPS4F 2 0 DECODE_CUT=1 3
gps_cut_row PROVEN gps-mul-flush-outside GPS4F 2 3 DECODE_CUT=1 4
gps_cut_row PROVEN gps-mul-flush-spec GPS4F 2 4 DECODE_CUT=1 1
gps_cut_row PROVEN gps-add GPS4 1 0
gps_cut_row PROVEN gps-add GPS4F 1 0
gps_cut_row REFUTED gps-add-mutant GPS4 1 2
for i in GPS4 GPS4F GPS2B GPS8; do gps_spec_row PROVEN spec-gps-ops "$i" 16 "" OP_CUT=1; done
gps_spec_row REFUTED spec-gps-ops-mutant GPS4 16 "" OP_CUT=1,SPEC_MUTANT=1
# two groups chained (K = 8) with the group cut: every gps_datapath instance free under congruence; one
# group is spec-gps-ops:GPS4's (the same parameters); the mutant takes the groups in the other order
gps_spec_row PROVEN chain-cut GPS8 16 "" PASS_CUT=1; cut_at gps_datapath
gps_spec_row REFUTED chain-cut-mutant GPS8 16 "" PASS_CUT=1,SPEC_MUTANT=2; cut_at gps_datapath
# every GPS unit (CDNA1's and CDNA2's twelve, 30 instructions) has one of four group datapaths: G = 4 on
# f16 (GPS4's), G = 2 on bf16 (GPS2B's), CDNA2's flushed G = 4 on f16 and bf16 (GPS4F's, every format
# combination below: its flushed product on bf16 in the three steps, as f16's above, FORMATS=all in one
# proof undecided at 600 s) and flushed G = 2 on bf16 (GPS2BF's, below); the additions are GPS4's and
# GPS4F's gps-add (mma_fp_add depends on the flushing alone); each chained unit's groups with the group cut
GPS2BF=cdna2:v_mfma_f32_32x32x2bf16                               # bf16, K = 2, flushed: one group of 2
fdrda_decode_row fda-decode GPS2BF 16
gps_cut_row PROVEN gps-mul-flush-rtl GPS2BF 2 0 DECODE_CUT=1 3
gps_cut_row PROVEN gps-mul-flush-outside GPS2BF 2 3 DECODE_CUT=1 4
gps_cut_row PROVEN gps-mul-flush-spec GPS2BF 2 4 DECODE_CUT=1 1
gps_spec_row PROVEN spec-gps-ops GPS2BF 16 "" OP_CUT=1
fdrda_decode_row fda-decode-formats GPS4F 16; all_formats
GPS4FB=cdna2:v_mfma_f32_32x32x4bf16_1k                            # bf16 on GPS4F's unit
gps_cut_row PROVEN gps-mul-flush-rtl GPS4FB 2 0 DECODE_CUT=1 3
gps_cut_row PROVEN gps-mul-flush-outside GPS4FB 2 3 DECODE_CUT=1 4
gps_cut_row PROVEN gps-mul-flush-spec GPS4FB 2 4 DECODE_CUT=1 1
gps_spec_row PROVEN spec-gps-ops-formats GPS4F 16 "" OP_CUT=1; all_formats
GPS16=cdna1:v_mfma_f32_16x16x16f16                                # f16, K = 16: four groups of 4
GPS4B=cdna1:v_mfma_f32_32x32x4bf16                                # bf16, K = 4: two groups of 2
GPS8B=cdna1:v_mfma_f32_16x16x8bf16                                # bf16, K = 8: four groups of 2
GPS8F=cdna2:v_mfma_f32_32x32x8f16                                 # f16 and bf16, K = 8, flushed: two groups
GPS16F=cdna2:v_mfma_f32_16x16x16f16                               # f16 and bf16, K = 16, flushed: four groups
GPS4BF=cdna2:v_mfma_f32_32x32x4bf16                               # bf16, K = 4, flushed: two groups of 2
GPS8BF=cdna2:v_mfma_f32_16x16x8bf16                               # bf16, K = 8, flushed: four groups of 2
for i in GPS16 GPS4B GPS8B GPS4BF GPS8BF; do gps_spec_row PROVEN chain-cut "$i" 16 "" PASS_CUT=1; cut_at gps_datapath 8; done
for i in GPS8F GPS16F; do gps_spec_row PROVEN chain-cut-formats "$i" 16 "" PASS_CUT=1; cut_at gps_datapath 8; all_formats; done
gps_spec_row PROVEN spec-gps GPS4 16
gps_spec_row PROVEN spec-gps-decode-cut GPS4 16 "" DECODE_CUT=1
# SFMA (AMD's f32 and f64 MFMA: one IEEE fused multiply-add per product, in order) against its independent
# specification (tests/prove/sfma_spec.sv: the exact product and C on one grid, 556 bits in f32 and 4,198
# in f64, rounded once): one f32 FMA (K = 1), UNKNOWN, with the decoding cut too; f64 on the unit serving
# f32 and f64 (K = 4; its datapath alone, K = 1: no claim rests on it; the f64 mutant fails make verify,
# tests/t_rtl_sfma_spec.sh, its miter taking Yosys 20 minutes to build); the mutant rounds toward zero
sfma_spec_row() { spec_row_of tests/prove/sfma_spec.sv sfma_unit "$@"; }
SFMA64=cdna2:v_mfma_f64_16x16x4f64                               # f64 (and f32) unit, K = 4
sfma_spec_row PROVEN spec-sfma SFMA1 32
sfma_spec_row PROVEN spec-sfma-decode-cut SFMA1 32 "" DECODE_CUT=1
sfma_spec_row REFUTED spec-sfma-mutant SFMA1 32 "" SPEC_MUTANT=1
sfma_spec_row PROVEN spec-sfma-decode-cut-kred-1 SFMA64 64 1 DECODE_CUT=1
# the M3XU designs (tests/prove/m3xu_contract.sv): pipelined and not, without FP32C and with, 11-bit
# multipliers and 12-bit, on the modes they share; the FP16 mode against the fda_unit of the instruction
# (Ampere's m16n8k8); the two planted bugs of the RTL (a_L b_L dropped, FP32C's sign flip missing)
XR="REF=m3xu_contract REF_FILES=$X REF_PARAMS=$M3XU"
rows+=("PROVEN m3xu-pipelined:$M3F32 $M3F32 $X ${M3XU/PIPE=0/PIPE=1} $XR")
rows+=("PROVEN m3xu-pipelined:$M3F32C $M3F32C $X ${M3XU/PIPE=0/PIPE=1},PORT_W=64 $XR,PORT_W=64")
rows+=("PROVEN m3xu-without-fp32c:$M3F32 $M3F32 $X $M3XU_NOC $XR")
rows+=("PROVEN m3xu-mul11:$M3F16 $M3F16 $X $M3XU_11 $XR")
rows+=("PROVEN m3xu-f16-mode:$M3F16 $M3F16 $X $M3XU")
rows+=("REFUTED m3xu-mutant-1:$M3F32 $M3F32 $X $M3XU,MUTANT=1 $XR")
rows+=("REFUTED m3xu-mutant-2:$M3F32C $M3F32C $X $M3XU,MUTANT=2,PORT_W=64 $XR,PORT_W=64")
# the M3XU against its independent specification (tests/prove/m3xu_spec.sv: FP32 the closed form, the FDA
# specification at F = 46 on f32, each product in the M3XU's two steps on 12-bit halves; FP32C two such
# dots), the operands decoded by rtl/'s mma_unpack on the spec's side (DECODE_CUT); the spec's mutant
# aligns with 45 bits
MS="tests/prove/m3xu_spec.f"
rows+=("PROVEN spec-m3xu:$M3F32 $M3F32 $MS PARTS=1,DECODE_CUT=1 REF=m3xu_contract REF_FILES=$X REF_PARAMS=$M3XU")
rows+=("PROVEN spec-m3xu:$M3F32C $M3F32C $MS PARTS=2,DECODE_CUT=1 REF=m3xu_contract REF_FILES=$X REF_PARAMS=$M3XU,PORT_W=64")
rows+=("REFUTED spec-m3xu-mutant:$M3F32 $M3F32 $MS PARTS=1,DECODE_CUT=1,SPEC_MUTANT=1 REF=m3xu_contract REF_FILES=$X REF_PARAMS=$M3XU")
# the same with both sides' multipliers cut (CUT=mma_mul: the spec's halves multiplied by rtl/'s mma_mul,
# MUL_CUT; every multiplier's product a free value, equal where its halves are, related across the sides
# within the steps of one operation: CUT_PAIRS): the two steps' product register, the alignment, the sum
# and the rounding decided for any multiplier; the mutant is the spec's (F = 45)
# The decoding cut on f32 operands: rtl/'s mma_unpack against spec_decode on lane 0 of A and of B
# (tests/prove/fda_cut_harness.sv PART 0, the FDA specification's decoding at F = 46)
F32M=$((1 << $(code FMT_F32)))
DP="K=4,F=46,AB_MASK=$F32M,C_MASK=$F32M,OUT_MASK=$((1 << $(code OUT_F32_RNE))),AW=32,PART=0,WORD=-1"
rows+=("PROVEN spec-m3xu-decode:$M3F32 $M3F32 tests/prove/fda_cut_harness.sv SIDE=0,$DP REF=fda_cut_harness REF_PARAMS=SIDE=1,$DP")
MC="$MS PARTS=1,DECODE_CUT=1,MUL_CUT=12 REF=m3xu_contract REF_FILES=$X"
rows+=("PROVEN spec-m3xu-mul-cut:$M3F32 $M3F32 $MC REF_PARAMS=$M3XU CUT_PAIRS=across:1"); cut_at mma_mul 4
rows+=("PROVEN spec-m3xu-mul-cut:$M3F32C $M3F32C ${MC/PARTS=1/PARTS=2} REF_PARAMS=$M3XU,PORT_W=64 CUT_PAIRS=across:3"); cut_at mma_mul 6
rows+=("REFUTED spec-m3xu-mul-cut-mutant:$M3F32 $M3F32 ${MC/MUL_CUT=12/MUL_CUT=12,SPEC_MUTANT=1} REF_PARAMS=$M3XU CUT_PAIRS=across:1"); cut_at mma_mul 4

# the reasons a row that ends UNKNOWN stops, as docs/formal.md measures them (its record's "why", in
# tools/prove_table.py's boundary table): keyed by a row's full name or by its name's part before the first
# colon, the full name first, then that part without a -kred-N (the same miter at a smaller K); a line
# break and the spaces after it read as one space
declare -A why=(
  [lanes-rotate-1]="a rotation moves every lane across the adder tree, so the two copies' e_max comparisons,
    alignment shifters and adder trees must be proven equal internally, which SAT sweeping did not do in the
    time given (the boundary is the significand width and the distance a lane moves, more than K)"
  [lanes-swap-0-1:GPS8]="GPS's f16 group: the two copies' alignments and exact sums of 11-bit significands
    must be proven equal internally, which SAT sweeping did not do in the time given (the boundary is the
    significand width)"
  [sign-symmetry]="the unit sums the signed terms in two's complement, so every internal signal of the
    negated copy is the arithmetic negation of the other copy's, a relation SAT sweeping (which pairs
    signals equal or complementary) cannot use; random simulation and bmc3 found no counterexample; cut in
    three parts (sign-term, sign-sum, sign-round) it is proven on Volta's f16 unit"
  [sign-symmetry:GPS8]="undecided as on fda_unit, where the cause was measured (the negated copy's signals
    are the arithmetic negations of the other copy's, which SAT sweeping cannot pair); random simulation
    found no counterexample"
  [m3xu-pipelined]="the pipelined design's registers hold the M3XU's values one cycle later, so SAT sweeping
    finds no internal signal to pair; unrolled over the 17 cycles and fraiged it was undecided in 300 s too"
  [m3xu-without-fp32c]="32-bit C and D against the M3XU's 64-bit ones: adders of other widths, no internal
    signal for SAT sweeping to pair"
  [m3xu-mul11]="11-bit multipliers against the M3XU's 12-bit ones: multipliers and adders of other shapes,
    no internal signal for SAT sweeping to pair"
  [spec-m3xu]="the M3XU against its independent specification, with the decoding cut and the spec's products
    in the M3XU's two steps: undecided in the time given; with every multiplier of both sides cut
    (spec-m3xu-mul-cut) it stays undecided, so the multipliers are not the cause: what is left is the unit's
    two-cycle product register and its F = 46 alignment, sum and rounding against the specification's"
  [spec-m3xu-mul-cut]="the M3XU against its specification with both sides' 12-bit multipliers cut (24
    instances, free values under congruence across the sides): no multiplier is left and dprove still gives
    up or runs out of time, so what stalls it is each product assembled in the pair register over two cycles
    and the sum of 48-bit terms on the F = 46 grid, against the specification's products in one cycle on
    its own grid; not split further"
  [m3xu-f16-mode]="the M3XU's FP16 mode against Ampere's fda_unit: multipliers and adders of other shapes,
    no internal signal for SAT sweeping to pair"
  [spec-passes]="the chaining of the two passes with the datapaths' logic in the miter (the unit's one
    datapath run twice against the specification's two, PASS_CUT=1): the solver must pair the unit's
    datapath in two cycles with two copies; iprove on the unrolled miter undecided, then dprove; proven
    with the datapath cut instead (chain-cut), each pass proven by the K = 8 unit's rows"
  [spec-fdrda-passes:FDRDA16]="the chaining of CDNA3's two f16 passes with the datapaths' logic in the
    miter (PASS_CUT=1), as CoFDA's: undecided (916.5 s with PROVE_TIMEOUT=1500); proven with the datapath
    cut instead (chain-cut), the pass by the FDRDA8 rows"
  [spec-fdrda-passes:XF32_8]="the chaining of the two xf32 passes with the datapaths' logic in the miter
    (PASS_CUT=1), as the two-pass f16 units': undecided; proven with the datapath cut instead (chain-cut),
    the pass by xf32-only-pass and the XF32_4 rows"
  [styles-spec]="a unit written otherwise (e_max as a chain of comparisons, exponents of other widths and
    encodings, alignment on another grid): SAT sweeping finds no internal signal of one side equal to one of
    the other and the unrolled miter's SAT calls do not finish; its stages alone are proven in seconds
    (tests/prove/styles/parts.sh)"
  [spec-sync]="the whole mma.sync FP8 path in one miter: the unit's and the specification's two different
    f16 conversions sit in front of e_max and the alignments, and the solver does not pair them; proven in
    three parts instead (sync-to-f16, spec-sync-passes, sync-add-last)"
  [gps-mul:GPS4F]="CDNA2's flushed product (FLUSH = 1) in one step: the harness that proves CDNA1's f16
    product in seconds is undecided at 600 s; proven in three steps instead (gps-mul-flush-rtl,
    gps-mul-flush-outside, gps-mul-flush-spec: the flushing taken outside the product on both sides)"
  [spec-gps]="one f16 group whole: the two sides' products and the four f32 additions after them (each addition
    alone about two minutes: gps-add) must be paired in one sequential miter, which dprove did not do in
    900 s; proven in parts instead (gps-mul, gps-add, spec-gps-ops)"
  [spec-gps-decode-cut]="one f16 group with the decoding cut: the products merge, the four f32 additions of
    two different adders still must be paired one after another; proven in parts instead (gps-mul, gps-add,
    spec-gps-ops)"
  [spec-gps-ops:GPS8]="the chaining of two groups with the group's logic in the miter (the unit's one
    group datapath run twice against the specification's two), as the two-pass units': undecided; proven
    with the group cut instead (chain-cut:GPS8), one group by the GPS4 rows"
  [spec-sfma]="one f32 FMA: the unit adds in a window of 3p + 5 bits with C's far bits jammed into a sticky
    bit, the specification on an exact 556-bit grid, and the window's argument is what the solver would
    have to rediscover (with the decoding cut too: spec-sfma-decode-cut)"
  [spec-sfma-decode-cut]="one f32 FMA with the decoding cut: the unit's window of 3p + 5 bits with C's far
    bits jammed into a sticky bit against the specification's exact 556-bit grid, whose equality is the
    window's argument (rtl/sfma_datapath.sv's header) that the solver would have to rediscover"
  [spec-sfma-decode-cut-kred-1:SFMA64]="one f64 FMA with the decoding cut (the K = 4 unit's datapath alone):
    the specification's exact grid is 4,198 bits wide, its miter 713,160 AND gates (Yosys about 20 minutes
    of CPU to build it, most of it opt_reduce on the grid's leading-one search); as in f32
    (spec-sfma-decode-cut:SFMA1), the unit's window of 3p + 5 bits against the exact grid is the window's
    argument that the solver would have to rediscover"
  [spec-gdfs]="the four scale-multiplied groups in one miter, undecided (the cause of the whole not measured
    apart); proven in parts instead (gdfs-group, gdfs-sum, gdfs-round, spec-gdfs-cut)"
  [spec-gdfs-kred-16]="one group with UE4M3 scales, whose significands multiply the group sum: undecided,
    the cause not measured (with UE8M0 scales, which only move the exponent, the group is proven)"
  [spec-gdfs-kred-32]="two scale-multiplied groups in one miter, undecided (the cause not measured apart);
    proven in parts instead"
  [spec-fnuz]="the whole FDRDA pass in one miter: with C fixed to +0 or every A fixed to 0 it is proven in
    seconds, with both free the solver cannot pair the two sides' sums through their different normalizers
    while the sums themselves are still being paired; proven in parts instead (fnuz-dot, fnuz-add-c,
    fnuz-round, spec-fnuz-passes)"
)
n=${#rows[@]} i=0 bad=0
if [[ ${PROVE_LIST:-} == 1 ]]; then
  for row in "${rows[@]}"; do read -r expect name _ <<<"$row"; echo "$expect $name"; done
  exit 0
fi
if [[ -n ${PROVE_ROW:-} ]] && ! printf '%s\n' "${rows[@]}" | awk -v r="$PROVE_ROW" '$2 == r {f = 1} END {exit !f}'; then
  echo "prove-all: no row named '$PROVE_ROW' (PROVE_LIST=1 lists them)" >&2; exit 2
fi
# the rows this run takes (PROVE_ONLY, PROVE_ROW, PROVE_SKIP), counted first for the progress lines
picked() {
  local name=$1 hit w wants
  if [[ -n ${PROVE_ONLY:-} ]]; then
    hit=0; IFS='|' read -r -a wants <<<"$PROVE_ONLY"
    for w in "${wants[@]}"; do [[ $name == *"$w"* ]] && hit=1; done
    (( hit )) || return 1
  fi
  [[ -n ${PROVE_ROW:-} && $name != "$PROVE_ROW" ]] && return 1
  [[ -n ${PROVE_SKIP:-} && $name == *"$PROVE_SKIP"* ]] && return 1
  return 0
}
why_of() {  # the why map's reason for row NAME: its full name's entry, else its prefix's, one line
  local w=""
  local kind=${1%%:*}
  if [[ -n ${why[$1]+set} ]]; then w=${why[$1]}; elif [[ -n ${why[$kind]+set} ]]; then w=${why[$kind]}
  elif [[ $kind =~ ^(.*)-kred-[0-9]+$ && -n ${why[${BASH_REMATCH[1]}]+set} ]]; then w=${why[${BASH_REMATCH[1]}]}; fi
  w=${w//$'\n'/ }
  while [[ $w == *"  "* ]]; do w=${w//  / }; done
  echo "$w"
}
hms() { printf '%d:%02d:%02d' $(( $1 / 3600 )) $(( $1 % 3600 / 60 )) $(( $1 % 60 )); }
todo=0
for row in "${rows[@]}"; do read -r _ name _ <<<"$row"; picked "$name" && todo=$((todo + 1)); done
# build/prove-all/table.jsonl: one record a row (tools/prove_table.py --record: result.json's fields and
# the row's name, expected verdict, replay, wall seconds, date, machine, the why map's reason when
# UNKNOWN; a row without result.json an ERROR record), then table.md, boundary.md and boundary.json
# rendered from it (tools/prove_table.py --outdir)
machine="$(nproc) cores $(uname -m)" start=$(date +%s%N) ran=0 tool_bad=0
declare -A count=()
: >"$OUT/table.jsonl.tmp"
for row in "${rows[@]}"; do
  read -r expect name instr dut params extra <<<"$row"
  i=$((i + 1))
  picked "$name" || continue
  row_instr=$instr
  echo "[$i/$n] $name running (since $(date +%H:%M:%S))"
  daw="" raw=""
  [[ $params == *@* ]] && daw=$(unit_aw "$instr")
  [[ $dut == @ ]] && dut=$(unit_file "$instr")
  [[ $extra == *REF_PARAMS=@* ]] && raw=$(unit_aw "$instr")
  params=${params/@/$(unit_params "$instr")} extra=${extra//@/$(unit_params "$instr")}
  dir=$OUT/$(tr ':/' '__' <<<"$name")
  t0=$(date +%s%N)
  rm -f "$dir/result.json"
  out=$(env DUT="$dut" INSTR="$instr" PARAMS="$params" DUT_AW="$daw" REF_AW="$raw" TIMEOUT="$TIMEOUT" REPLAY=0 PROVE_DIR="$dir" MMAREF="$MMAREF" \
        ${extra:+$extra} bash tb/prove/prove.sh 2>&1)
  verdict=$(sed -n 's/^prove: \(PROVEN\|REFUTED\|UNKNOWN\) (exit.*/\1/p' <<<"$out")
  [[ -n $verdict ]] || verdict=ERROR
  note=""
  if [[ $verdict == ERROR || ($verdict != UNKNOWN && $verdict != "$expect") ]]; then
    bad=$((bad + 1)); note=" (must be $expect)"
  fi
  s_secs=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('solver_seconds'))" "$dir/result.json" 2>/dev/null)
  # a counterexample replayed in make verify's bench: fda_mutants with SELECT=0 and +mutant=N (one build
  # per instruction), any other unit as it is
  replay=""
  if [[ $verdict == REFUTED && $extra == *PROPERTY=* ]]; then
    # a property's counterexample: the model's D of the vector and of its moved copy (prove.sh's line)
    prop=$(sed -n 's/^  property: //p' <<<"$out")
    if [[ $prop == *"the model breaks the property too" ]]; then replay="${prop%%: the model*} (the model breaks it too)"
    else replay="NOT reproduced in the model${prop:+: $prop}"; bad=$((bad + 1)); note=" (the model keeps the property)"; fi
  elif [[ $verdict == REFUTED && $extra == *CUT=* ]]; then
    cm=${extra##*CUT=}
    replay="not replayed: refuted at the cut (${cm%% *}: some function in the module's place)"
  elif [[ $verdict == REFUTED && $dut == tests/prove/*_harness.sv ]]; then
    replay="not replayed: a harness's vector is not an instruction's ($(basename "$dut"))"
  elif [[ $verdict == REFUTED ]]; then
    # FORMATS=all: the counterexample's instruction is the one its formats pick
    cins=$(python3 tb/prove/aig_sim.py --cex-formats "$dir"); [[ -n $cins ]] && instr=${cins#* }
    rdut="rtl/rtl.f $dut" rparams=$params plus=""
    [[ $dut == "$M" ]] && { plus="+mutant=${params##*SELECT=}"; rparams=${params%,SELECT=*},SELECT=0; }
    rep=$(env DUT="$rdut" DUT_TOP="$(basename "${dut%.*}")" INSTR="$instr" PARAMS="$rparams" DUT_AW="$daw" PLUSARGS="$plus" VECTORS="$dir/cex.txt" MMAREF="$MMAREF" \
          VERIFY_DIR="$OUT/verify-$(basename "${dut%.*}")-$(tr ':/' '__' <<<"$instr")" bash tb/verify/verify.sh 2>&1); rrc=$?
    md=$("$MMAREF" batch "${instr%%:*}" "${instr#*:}" <"$dir/cex.txt" 2>&1) ud=$(sed -n 's/^  unit D: *//p' <<<"$rep")
    if [[ $rrc == 1 && -n $md && -n $ud && $md != "$ud" ]]; then replay="model $md, unit $ud"
    elif [[ $rrc == 2 && $rep == *"STALL "* ]]; then replay="model $md, unit: no result (STALL)"
    else replay="NOT reproduced"; bad=$((bad + 1)); note=" (its counterexample is not reproduced)"; fi
  fi
  ran=$((ran + 1)) count[$verdict]=$(( ${count[$verdict]:-0} + 1 ))
  wall=$(( ($(date +%s%N) - t0) / 100000000 ))
  wall="$((wall / 10)).$((wall % 10))"
  printf '[%d/%d] %-44s %-8s %s s%s%s | wall %s s, %s elapsed, %d done, %d left\n' "$i" "$n" "$name" "$verdict" \
    "${s_secs:-?}" "${replay:+; replay: $replay}" "$note" "$wall" "$(hms $(( ($(date +%s%N) - start) / 1000000000 )))" \
    "$ran" "$((todo - ran))"
  [[ $verdict == ERROR ]] && grep -m2 'prove:' <<<"$out" | sed 's/^/    /'
  note=${note# (} reason=""
  [[ $verdict == UNKNOWN ]] && reason=$(why_of "$name")
  python3 tools/prove_table.py --record "$dir/result.json" --row="$name" --instruction="$row_instr" --verdict="$verdict" \
    --expect="$expect" --replay="$replay" --wall="$wall" --date="$(date -u +%F)" --machine="$machine" --why="$reason" \
    --note="${note%)}" >>"$OUT/table.jsonl.tmp" || tool_bad=1
done
mv "$OUT/table.jsonl.tmp" "$OUT/table.jsonl"
python3 tools/prove_table.py --outdir "$OUT" "$OUT/table.jsonl" || tool_bad=1
verdicts=""
for v in PROVEN REFUTED UNKNOWN ERROR; do [[ -n ${count[$v]:-} ]] && verdicts+="${verdicts:+, }${count[$v]} $v"; done
echo "prove-all: $ran of $n rows run (${verdicts:-none}), $bad contradicting what they must be, $(hms $(( ($(date +%s%N) - start) / 1000000000 ))) wall" \
  "in all; table: $OUT/table.md, boundary: $OUT/boundary.md (TIMEOUT=$TIMEOUT s a row)"
(( tool_bad )) && echo "prove-all: tools/prove_table.py could not write a record or the tables (above)" >&2
[[ $bad == 0 && $tool_bad == 0 ]]
exit
}
