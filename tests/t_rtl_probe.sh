# mmaref probe through Verilated units in pipe mode (tests/probe/rtl_pipe.sh, also `make probe-rtl`):
# the project's fda_unit behind another timing gives the same report as probing Hopper's
# mma.m16n8k16.f32.f16.f16.f32, and the independent example examples/naive_dot is named for what it is,
# a sequential FP32 chain (GPS with group 1) that no table instruction matches.
# runtime: 74 s (a clean clone on 2 cores, beside other suites)
# shares: verify-builds (make verify's build/verify/fda_pipe_wrap and naive_dot, built by t_rtl_verify too)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v verilator >/dev/null; then not_ok "rtl probe: verilator is needed (make setup)"; exit 0; fi
bash tests/probe/rtl_pipe.sh
