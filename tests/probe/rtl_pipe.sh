#!/usr/bin/env bash
# make probe-rtl: `mmaref probe` through a Verilated unit's pipe mode (+pipe) must give the report that
# probing its instruction gives.  Two units of `make verify` (tb/verify/): the project's fda_unit behind a
# wrapper with another timing (tests/verify/fda_pipe_wrap.sv), which must match Hopper's
# mma.m16n8k16.f32.f16.f16.f32 with the same report, and examples/naive_dot (an FP32 FMA chain), which
# must be named a sequential chain: GPS with group 1 (its NaN is 0x7fc00000, hence --nan-any).
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
[[ -f tb/verify/verify.sh ]] || { echo "probe-rtl: needs make verify's bench (tb/verify/verify.sh)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
INSTR=(hopper mma.m16n8k16.f32.f16.f16.f32)
build() {  # build DUT TOP: the bench's model of the unit, built only
  VERIFY_BUILD_ONLY=1 make -s verify DUT="$1" DUT_TOP="$2" INSTR="${INSTR[0]}:${INSTR[1]}" >"$tmp/build.log" 2>&1 \
    || { not_ok "make verify DUT=$1 does not build: $(tail -3 "$tmp/build.log")"; return 1; }
}
"$MMAREF" probe "${INSTR[@]}" >"$tmp/model.txt"
if build "rtl/rtl.f tests/verify/fda_pipe_wrap.sv" fda_pipe_wrap; then
  "$MMAREF" probe --formats f16,f16,f32,f32 --k 16 -- build/verify/fda_pipe_wrap/Vverify +pipe >"$tmp/rtl.txt"; rc=$?
  if [[ $rc -eq 0 ]] && diff <(tail -n +2 "$tmp/model.txt") <(tail -n +2 "$tmp/rtl.txt") >"$tmp/diff"; then
    ok "probe through fda_pipe_wrap +pipe: the same report as probe ${INSTR[*]} ($(grep '^device queries' "$tmp/rtl.txt"))"
  else not_ok "probe through fda_pipe_wrap +pipe (rc=$rc) differs: $(head -5 "$tmp/diff")"; fi
fi
if build examples/naive_dot/naive_dot.sv naive_dot; then
  "$MMAREF" probe --nan-any --formats f16,f16,f32,f32 --k 16 -- build/verify/naive_dot/Vverify +pipe >"$tmp/naive.txt"; rc=$?
  if [[ $rc -eq 1 ]] && grep -q '^  reason: group = 1 on the device' "$tmp/naive.txt" \
     && grep -q '^schedule: GPS .*"group": 1,' "$tmp/naive.txt"; then
    ok "probe through naive_dot +pipe: a sequential FP32 chain (GPS, group 1), no table instruction"
  else not_ok "probe through naive_dot +pipe (rc=$rc): $(grep -E '^(schedule|verdict|  reason)' "$tmp/naive.txt" | tr '\n' ' ')"; fi
fi
