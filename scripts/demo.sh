#!/usr/bin/env bash
# The main job: the model at work on inputs that expose each architecture's arithmetic, then the RTL
# units co-simulated against the model (when built).  Every expected difference is derived beside it.
# usage: scripts/demo.sh [--sections]   (--sections: only list the sections, each with whether it
# would run on this machine and, if not, why, then exit)
set -euo pipefail
cd "$(dirname "$0")/.."
M=build/mmaref

# The sections, each headed "N. TITLE...": 1 to 4 run the model (build/mmaref, which `make demo` builds
# first); 5 and 6 need tools beyond the C compiler.
SECTION=(""
  "Accumulation precision F on FP16"
  "FP8 accumulation"
  "TF32 Step 0"
  "CoFDA"
  "RTL co-simulation"
  "SystemC tile array")
# Whether a section can run is decided from what it runs (never from `make -n`, whose $(MAKE) recipe
# lines run anyway and fail on a fresh clone); each prints "" when the section can run, else the one
# reason it cannot.
model_missing() { [[ -x $M ]] || echo "$M is not built (make)"; }
CXX=${CXX:-g++}
cc_finds_header() { printf '#include <%s>\n' "$1" | "$CXX" -E -x c++ - >/dev/null 2>&1; }
cc_finds_lib() { local f; f=$("$CXX" -print-file-name="$1" 2>/dev/null) && [[ $f == /* && -e $f ]]; }
cosim_missing() {
  if ! command -v verilator >/dev/null 2>&1; then echo "verilator is not installed (make setup)"
  elif ! command -v python3 >/dev/null 2>&1; then echo "python3 is not installed (make setup)"
  elif ! cc_finds_lib libz.so; then echo "zlib (libz.so, zlib1g-dev) is not found by $CXX (make setup)"
  fi
}
systemc_missing() {
  if ! command -v verilator >/dev/null 2>&1; then echo "verilator is not installed (make setup)"
  elif ! cc_finds_header systemc.h; then echo "SystemC headers (systemc.h, libsystemc-dev) are not found by $CXX (make setup)"
  elif ! cc_finds_lib libsystemc.so; then echo "the SystemC library (libsystemc.so, libsystemc-dev) is not found by $CXX (make setup)"
  fi
}
section_missing() {
  case $1 in
    5) cosim_missing ;;
    6) systemc_missing ;;
    *) model_missing ;;
  esac
}
if [[ ${1:-} == --sections ]]; then
  for n in 1 2 3 4 5 6; do
    why=$(section_missing $n); echo "$n. ${SECTION[n]}: ${why:+cannot run: }${why:-runs}"
  done
  exit 0
elif [[ $# -gt 0 ]]; then
  echo "usage: scripts/demo.sh [--sections]" >&2; exit 2
fi

unexpected=0
row() { # row EXPECTED_BITS ARCH INSTR ARGS...: the model's D beside the derivation's
  local want=$1 arch=$2 instr=$3; shift 3
  local got; got=$("$M" dot "$arch" "$instr" "$@")
  local verdict="= derived"
  if [[ ${got%% *} != "$want" ]]; then verdict="DIFFERS from the derived $want"; unexpected=1; fi
  printf '  %-14s %-40s %-28s %s\n' "$arch" "$instr" "$got" "$verdict"
}

echo "mmaref demo: the same inputs through several GPU architectures"
echo
echo "1. ${SECTION[1]} (c = 1.0, four products a*b = 2^-12 * 2^-13 = 2^-25)"
echo "   Exact: 1 + 4*2^-25 = 1 + 2^-23.  Each product is aligned to e_max = 0 keeping F fractional bits:"
echo "   Volta (F=23) and Turing (F=24) truncate every 2^-25 to 0 -> 1.0; Hopper (F=25) keeps them -> 1+2^-23."
A=0x1p-12,0x1p-12,0x1p-12,0x1p-12; B=0x1p-13,0x1p-13,0x1p-13,0x1p-13
row 0x3f800000 volta mma.m8n8k4.f32.f16.f16.f32 -a $A -b $B -c 1
row 0x3f800000 turing mma.m8n8k4.f32.f16.f16.f32 -a $A -b $B -c 1
row 0x3f800001 hopper mma.m16n8k8.f32.f16.f16.f32 -a $A -b $B -c 1
echo "   Why, step by step (mmaref explain ... --vs ...; docs/explain.md):"
"$M" explain volta mma.m8n8k4.f32.f16.f16.f32 -a $A -b $B -c 1 --vs hopper mma.m16n8k8.f32.f16.f16.f32 | tail -3 \
  | sed 's/^/     /'
echo
echo "   With products of 2^-24 (b = 2^-12) Turing's extra bit shows: 1 + 4*2^-24 = 1 + 2^-22."
B=0x1p-12,0x1p-12,0x1p-12,0x1p-12
row 0x3f800000 volta mma.m8n8k4.f32.f16.f16.f32 -a $A -b $B -c 1
row 0x3f800002 turing mma.m8n8k4.f32.f16.f16.f32 -a $A -b $B -c 1
echo
echo "2. ${SECTION[2]}: c = 1.0 plus 32 products 2^-6 * 2^-8 = 2^-14 (e4m3)"
echo "   Exact: 1 + 32*2^-14 = 1 + 2^-9.  Hopper QGMMA and Ada QMMA keep F=13 fractional bits: every"
echo "   2^-14 is truncated -> 1.0.  Blackwell and RTX Blackwell keep F=25 -> 1 + 2^-9 = 0x3f804000."
A=$(printf '0x1p-6,%.0s' {1..32}); A=${A%,}; B=$(printf '0x1p-8,%.0s' {1..32}); B=${B%,}
row 0x3f800000 hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a "$A" -b "$B" -c 1
row 0x3f800000 ada mma.m16n8k32.f32.e4m3.e4m3.f32 -a "$A" -b "$B" -c 1
row 0x3f804000 blackwell tcgen05.mma.m64n8k32.f32.e4m3.e4m3 -a "$A" -b "$B" -c 1
row 0x3f804000 rtx-blackwell mma.m16n8k32.f32.e4m3.e4m3.f32 -a "$A" -b "$B" -c 1
echo
echo "   Hopper's FP8 output also keeps only 13 fractional bits (e8m13): c = 1 + 2^-20 with zero"
echo "   products comes back as 1.0, where Blackwell returns c unchanged."
row 0x3f800000 hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a 0 -b 0 -c 0x1.00001p0
row 0x3f800008 blackwell tcgen05.mma.m64n8k32.f32.e4m3.e4m3 -a 0 -b 0 -c 0x1.00001p0
echo
echo "3. ${SECTION[3]}: the low 13 bits of a TF32 operand are ignored, so the f32 NaN 0x7f800001"
echo "   becomes +inf and inf*1 + 0 = +inf (IEEE arithmetic would return NaN)."
row 0x7f800000 ampere mma.m16n8k4.f32.tf32.tf32.f32 -a 0x7f800001 -b 1 -c 0
row 0x7f800000 hopper mma.m16n8k4.f32.tf32.tf32.f32 -a 0x7f800001 -b 1 -c 0
echo
echo "4. ${SECTION[4]}: Ampere splits HMMA.16816 into two chained FDAs over K/2 = 8 products; Hopper does one."
echo "   c = 0; first half: 2^20 and seven products 2^-2 * 2^-3 = 2^-5; second half: -2^20."
echo "   Hopper aligns all nine to e_max = 20 keeping F=25 bits (lsb 2^-5): the 2^-5 terms survive and"
echo "   the result is 7*2^-5 = 0.21875.  Ampere's first pass keeps F=24 bits (lsb 2^-4): they are"
echo "   truncated, pass 1 gives 2^20, and pass 2 subtracts 2^20 -> 0."
A="0x1p10,0x1p-2,0x1p-2,0x1p-2,0x1p-2,0x1p-2,0x1p-2,0x1p-2,-0x1p10"
B="0x1p10,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p-3,0x1p10"
row 0x00000000 ampere mma.m16n8k16.f32.f16.f16.f32 -a "$A" -b "$B" -c 0
row 0x3e600000 hopper mma.m16n8k16.f32.f16.f16.f32 -a "$A" -b "$B" -c 0
echo
why=$(cosim_missing)
if [[ -z $why ]]; then
  echo "5. RTL units co-simulated against the model (Verilator + DPI-C), bit for bit"
  make -s cosim-demo || unexpected=1
else
  echo "5. ${SECTION[5]}: skipped: $why"
fi
echo
why=$(systemc_missing)
if [[ -z $why ]]; then
  echo "6. SystemC: the 8x4 array of Verilated M3XU units as the paper's 8x4x8 Tensor Core, whole tiles"
  echo "   against the model; the paper's Corollaries 1-3: FP32 at 1/4 of the FP16 rate, FP32C at 1/16"
  [[ -x build/systemc/m3xu_systemc ]] ||
    echo "   (building it first: three Verilated M3XU units and the SystemC array, about 1 minute on 2 cores; logs in build/systemc/)"
  if out=$(make -s systemc-demo SYSTEMC_DEMO_TILES=200 2>&1); then
    grep -E '^SystemC 8x4 M3XU array: (FP|BF|mode)|RESULT|FAIL' <<<"$out" | sed 's/^/   /' || unexpected=1
  else # a failed build or run says so, with its last lines
    echo "   make systemc-demo failed:"; tail -15 <<<"$out" | sed 's/^/   /'; unexpected=1
  fi
else
  echo "6. ${SECTION[6]}: skipped: $why"
fi
exit $unexpected
