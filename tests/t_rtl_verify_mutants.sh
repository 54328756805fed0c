# make verify catches every realistic bug class: the project's fda_unit with a bug planted on purpose
# (tests/verify/fda_mutants.sv, +mutant=N through make verify's PLUSARGS) must FAIL make verify at its
# default count and seed (100,000 vectors, seed 1) with a decoded MISMATCH report, and the same build
# with no mutant (+mutant=0) must pass.  One build per instruction serves all of its mutants.
#  1  F one bit short (an fda_unit with F - 1): the aligner truncates one bit early, so a term lying
#     exactly F bits below e_max is lost -- the alignment and precision vectors (mma-sim's 1 + eps) and
#     most random sums with a term below e_max - F + 1 see it.
#  2  wrong output rounding (D rounded to nearest even where the instruction truncates): any inexact D
#     whose dropped part is at least half an ulp comes out one ulp larger.
#  3  input flush (a subnormal A, B or C taken as a zero of its sign): a subnormal operand whose product
#     or value reaches D's precision -- the directed subnormal x largest vectors, every lane.
#  4  output flush (a subnormal D returned as zero): any D in the subnormal range of D's format; an f16
#     D reaches it from f16 products (directed subnormal C, f16 ties), an f32 D from a subnormal C or
#     through the block scales (2^-127 each) -- the coverage model's "subnormal" bin.
#  5  sign of an exact zero (IEEE's -0 when C = -0 and every product is -0; NVIDIA and the model give
#     +0): needs exactly that vector -- C = -0 and, on every lane, a zero A or B with the signs of A and
#     B differing, no NaN or inf: the coverage model's bin "+-0, C = -0 and every product -0".
#  6  NaN payload (a NaN C passed through with its quiet bit set instead of the canonical NaN
#     0x7FFF / 0x7FFFFFFF): a NaN C with a payload other than the canonical one (raw and special vectors).
#  7  one lane left out of e_max (the last product is not in the max-exponent tree): when that product
#     is the largest term it is shifted out (its alignment wraps) -- directed vectors on every lane.
#  8  a block scale off by one (the two UE8M0 exponents' bias taken as 255, not 254): every D with a
#     nonzero product not dominated by C.
#  9  a dropped sticky bit (the round decision sees the guard bit alone): a round-to-nearest D whose
#     dropped part is just above half an ulp is taken as a tie and rounded to even (down).
# 10  an intermediate rounding skipped (a CoFDA instruction computed in one pass): pass 1's rounding to
#     D's format, at its own e_max, is lost -- the split-order vectors and random sums.
# 11  NaN rule: +inf and -inf together give -inf instead of NaN (mma_special without that rule): the
#     directed +inf and -inf lanes.
# 12  a block scale's largest value mishandled (UE8M0 0xFE, 2^127, taken as NaN): a scale slot 0xFE.
# Where a mutant is a rule of the inventory broken exactly so (rule_of below), its mismatches must be
# the vectors `mmaref rules --catch` counts for that rule on the same stream.
# Instructions (one build each; the F-1, e_max, sticky, scale and one-pass bugs are further fda_unit
# instances in the build, the others sit at the ports of the correct unit):
#   by default:    ampere mma.m16n8k16.f16.f16.f16.f16 (CoFDA, F = 24, f16 RNE): 1 3 4 5 6 7 9 10 11
#                  blackwell tcgen05 ... block32 e4m3 ue8m0 (F = 25, f32 RZ): 2 4 8 12
#   MUTANTS_ALL=1 (make regress) adds hopper mma.m16n8k16.f32.f16.f16.f32 (F = 25, f32 RZ): 1 2 3 4 5 6
#                  7 11, and blackwell tcgen05.mma.m64n8k32.f16.e4m3.e4m3 (F = 25, f16 RNE): 3 4 5 6 9.
# runtime: 260 s (a clean clone on CI's 2 cores, beside other suites)
# tier: regress (make regress runs it: too long for make test)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v verilator >/dev/null; then not_ok "verify mutants: verilator is not installed (make setup)"; exit 0; fi
if ! out=$(make -s build/mmaref build/libmmaref.a build/rtl/libmmaref_dpi.a 2>&1); then
  not_ok "verify mutants: the model and DPI library build: $(tail -3 <<<"$out")"; exit 0
fi
code() { sed -n "s/.*localparam int $1 *= *\([0-9]*\);.*/\1/p" rtl/mma_formats.svh; }  # a format/output code
bit() { echo $(( 1 << $(code "$1") )); }
bits() { local m=0 n; for n in "$@"; do m=$(( m | (1 << n) )); done; echo $m; }  # INTERNAL: mutants built in

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", b - a}'; }
field() { awk -v n="$2" '{print $n}' <<<"$1"; }
# mutants SET INSTR PARAMS N...: one build, then make verify with +mutant=N for each N (0: must pass)
mutants() {
  local set=$1 instr=$2 params=$3; shift 3
  local t0 out rc row m m_n first report model rtl c what caught
  export DUT="rtl/rtl.f tests/verify/fda_mutants.sv" DUT_TOP=fda_mutants INSTR=$instr PARAMS=$params \
         VERIFY_DIR=build/verify/mutants-$set MMAREF=build/mmaref COUNT=100000 SEED=1
  # per rule, the vectors of the run that catch it (mmaref rules --catch on the same stream)
  caught=$(build/mmaref gen "${instr%%:*}" "${instr#*:}" --n 100000 --seed 1 |
           build/mmaref rules "${instr%%:*}" "${instr#*:}" --catch)
  t0=$(now)
  if ! out=$(VERIFY_BUILD_ONLY=1 bash tb/verify/verify.sh 2>&1); then
    not_ok "verify mutants: $instr does not build: $(tail -3 <<<"$out")"; return
  fi
  ok "verify mutants: built $instr with mutants $* ($(secs "$t0" "$(now)") s)"
  for m in "$@"; do
    t0=$(now)
    out=$(PLUSARGS=+mutant=$m bash tb/verify/verify.sh 2>&1); rc=$?
    row=$(grep -A1 '^unit ' <<<"$out" | tail -1)
    what="$instr +mutant=$m ($(secs "$t0" "$(now)") s)"
    if [[ $m == 0 ]]; then
      if [[ $rc == 0 && $(field "$row" 4) == 100000 && $(field "$row" 5) == 0 && $row == *" pass" ]]; then
        ok "verify mutants: the unit without a mutant passes $what"
      else not_ok "verify mutants: the unit without a mutant: rc=$rc row '$row' $(grep -m2 -E 'MISMATCH|verify:|Error' <<<"$out" | tr '\n' ' ')"; fi
      continue
    fi
    # the first report: the MISMATCH line (seed, index, stimulus kind), C, the model's D and the unit's
    report=$(awk '/^MISMATCH/ {n++} n == 1' <<<"$out")
    first=$(sed -n '1s/^MISMATCH .* unit fda_mutants seed 1 index \([0-9]*\) (\([a-z]*\))$/\1 (\2)/p' <<<"$report")
    model=$(grep -m1 '^  model ' <<<"$report"); rtl=$(grep -m1 '^  rtl ' <<<"$report"); c=$(grep -m1 '^  c ' <<<"$report")
    m_n=$(field "$row" 5)
    if [[ $rc == 1 && $row == *" FAIL" && ${m_n:-0} -gt 0 && -n $first \
          && $model =~ ^\ \ model\ +[a-z0-9]+\ +0x[0-9a-f]+\ +sign\  && $rtl =~ ^\ \ rtl\ +[a-z0-9]+\ +0x[0-9a-f]+\ +sign\  ]]; then
      # and the counterexample shows the bug where its class says it must
      local mb rb bad=""
      mb=$(field "$model" 3); rb=$(field "$rtl" 3)
      case $m in
        2|9) (( rb - mb == 1 || mb - rb == 1 )) || bad="D's not one ulp away" ;;
        4) [[ $rtl =~ \ =\ -?0$ && $model != *"= 0" && $model != *"= -0" ]] || bad="D not flushed to zero" ;;
        5) [[ $mb =~ ^0x0+$ && $rtl == *"= -0" ]] || bad="not +0 against -0" ;;
        6) [[ $c == *"= nan" && $model == *"= nan" && $rtl == *"= nan" ]] || bad="not a NaN C and two NaN encodings" ;;
        11) [[ $model == *"= nan" && $rtl == *"= -inf" ]] || bad="not NaN against -inf" ;;
        12) [[ $report == *"ue8m0  0xfe "* && $rtl == *"= nan" && $model != *"= nan" ]] || bad="no 0xFE scale giving NaN" ;;
      esac
      # the same bug as a rule of the inventory (docs/rules.md): the model with that rule broken must
      # differ on exactly the vectors this independent unit gets wrong
      local rule=${rule_of[$m]:-} want
      if [[ -n $rule && -z $bad ]]; then
        want=$(awk -v r="$rule" '$1 == r {print $2}' <<<"$caught")
        [[ $want == "$m_n" ]] || bad="$m_n mismatches, but the model with rule $rule broken differs on ${want:-no} vectors"
      fi
      if [[ -z $bad ]]; then
        ok "verify mutants: mutant $m caught on $what: $m_n of 100,000 mismatch, first index $first${rule:+ = the vectors that catch rule $rule}"
      else not_ok "verify mutants: mutant $m on $what: its first counterexample does not show the bug ($bad): $(head -1 <<<"$report") / $model / $rtl"; fi
    else
      not_ok "verify mutants: mutant $m not caught on $what: rc=$rc row '$row' first '$first' $(grep -m2 -E 'verify:|Error' <<<"$out" | tr '\n' ' ')"
    fi
  done
}

# The mutants that are a rule of the inventory broken exactly so (the flush of 3 is two rules at once,
# 7 and 9 are not rules of the inventory, 8's bias also moves the scale 0x00): their mismatches must be
# the rule's catching vectors, vector for vector counted.
declare -A rule_of=([1]=window-F [2]=output-rounding [4]=subnormal-result [5]=zero-sign [6]=nan-canonical
                    [10]=intermediate-rounding [11]=inf-minus-inf [12]=scale-max)
t_all=$(now)
mutants ampere16 ampere:mma.m16n8k16.f16.f16.f16.f16 \
  "K=16,F=24,CHAIN=2,AB_MASK=$(bit FMT_F16),C_MASK=$(bit FMT_F16),OUT_MASK=$(bit OUT_F16_RNE),INTERNAL=$(bits 1 7 9 10)" \
  0 1 3 4 5 6 7 9 10 11
mutants block32 blackwell:tcgen05.mma.m128n8k32.block32.f32.e4m3.e4m3.ue8m0 \
  "K=32,F=25,BLOCK=32,AB_MASK=$(bit FMT_E4M3),C_MASK=$(bit FMT_F32),OUT_MASK=$(bit OUT_F32_RZ),INTERNAL=$(bits 8),ROUND_OUT=$(code OUT_F32_RNE)" \
  0 2 4 8 12
if [[ ${MUTANTS_ALL:-} == 1 ]]; then
  mutants hopper hopper:mma.m16n8k16.f32.f16.f16.f32 \
    "K=16,F=25,ZERO_EXP=-133,AB_MASK=$(bit FMT_F16),C_MASK=$(bit FMT_F32),OUT_MASK=$(bit OUT_F32_RZ),INTERNAL=$(bits 1 7),ROUND_OUT=$(code OUT_F32_RNE)" \
    0 1 2 3 4 5 6 7 11
  mutants fp8 blackwell:tcgen05.mma.m64n8k32.f16.e4m3.e4m3 \
    "K=32,F=25,AB_MASK=$(bit FMT_E4M3),C_MASK=$(bit FMT_F16),OUT_MASK=$(bit OUT_F16_RNE),INTERNAL=$(bits 9)" \
    0 3 4 5 6 9
fi
echo "verify mutants: $(secs "$t_all" "$(now)") s in all"

# a bad PLUSARGS word is one line and exit status 2, before anything is built
expect_error "verify mutants: PLUSARGS with a word that is not +NAME[=VALUE]" "PLUSARGS=mutant=3: 'mutant=3' is not +NAME or +NAME=VALUE" \
  env DUT="rtl/rtl.f tests/verify/fda_mutants.sv" INSTR=hopper:mma.m16n8k16.f32.f16.f16.f32 PLUSARGS=mutant=3 \
  VERIFY_BUILD_ONLY=1 bash tb/verify/verify.sh
