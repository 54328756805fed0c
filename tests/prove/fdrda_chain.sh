# Sourced by tests/t_rtl_prove_chain.sh and tests/t_rtl_prove_chain_fdrda.sh (after W is set): CDNA3's
# v_mfma_f32_16x16x16_f16 (FDRDA f16, two passes of 8), its unit's parameters UP and their F, and
# prove DIR PARAMS CUT [more env]: make prove of CDNA3's FDRDA specification against that unit, results
# in $W/DIR.
INSTR=cdna3:v_mfma_f32_16x16x16_f16
UP=$(python3 tools/design.py instructions --arch cdna3 --name "${INSTR#*:}" --field unit)
UP=$(python3 tools/design.py units --index "$UP" --field params)
F=$(sed -n 's/.*,F=\([0-9]*\).*/\1/p' <<<"$UP")
prove() {
  local dir=$1 params=$2 cut=$3; shift 3
  env DUT=tests/prove/fdrda_spec.sv INSTR=$INSTR PARAMS="$params" REF=fdrda_unit REF_PARAMS="$UP" CUT="$cut" BOUND=6 \
    REPLAY=0 TIMEOUT=120 PROVE_DIR="$W/$dir" "$@" bash tb/prove/prove.sh 2>&1
}
