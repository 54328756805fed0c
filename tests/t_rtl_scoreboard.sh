# The golden model as another testbench's scoreboard (docs/verify-your-design.md):
#   - examples/scoreboard (the mma_scoreboard class, Verilator --binary, the bridge and the model linked as
#     gcc-built objects) builds lint-clean under -Wall and runs: of three Hopper HMMA.1688.F32 transactions
#     (the precision case answered by an F = 25 and an F = 24 design, and -2 + 1.5 * 2 = 1) exactly the
#     F = 24 answer is reported, with both D and the operands (derivations in tb_scoreboard.sv);
#   - the shared library for simulators that load DPI libraries at run time (make dpi-shared) exports the
#     bridge, needs nothing undefined but libc/libm/pthread and the simulator's sv* functions, and gives
#     the precision case's 0x3f800001 through dlopen (tests/api/dpi_shared.c).
# runtime: 22 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
if ! command -v verilator >/dev/null; then not_ok "scoreboard: verilator is not installed (make setup)"; exit 0; fi

if ! out=$(make -s build/examples/scoreboard/Vtb_scoreboard 2>&1); then
  not_ok "scoreboard example builds: $(tail -5 <<<"$out")"; exit 0
fi
warn=$(grep -c '%Warning' build/examples/scoreboard/verilate.log)
[[ $warn == 0 ]] && ok "scoreboard example: Verilator --binary -Wall builds it with no warning" ||
  not_ok "scoreboard example: $warn Verilator warnings (build/examples/scoreboard/verilate.log)"
out=$(build/examples/scoreboard/Vtb_scoreboard 2>&1); rc=$?
mism=$(grep -c '^MISMATCH' <<<"$out")
if [[ $rc == 0 && $mism == 1 \
      && $out == *"MISMATCH hopper:mma.m16n8k8.f32.f16.f16.f32 transaction 1: design d=000000003f800000 model d=000000003f800001"* \
      && $out == *"  a[0]=0000000000000c00 b[0]=0000000000000800"* \
      && $out == *"SCOREBOARD hopper:mma.m16n8k8.f32.f16.f16.f32: 3 checked, 1 mismatches"* ]]; then
  ok "scoreboard example: 3 transactions checked, the F = 24 design's 0x3f800000 reported against the model's 0x3f800001"
else
  not_ok "scoreboard example: rc=$rc, $mism mismatch reports: $(head -3 <<<"$out" | tr '\n' ' ')"
fi

if ! out=$(make -s dpi-shared 2>&1); then not_ok "dpi-shared builds: $(tail -3 <<<"$out")"; exit 0; fi
SO=build/dpi/libmmaref_dpi.so
n=$(nm -D --defined-only "$SO" | grep -c ' T mmaref_dpi_')
# every undefined symbol is versioned glibc (libc, libm, pthread), a toolchain weak symbol, or svdpi.h's
# (sv*: the simulator provides them)
undef=$(nm -D --undefined-only "$SO" | awk '{print $2}' | grep -v -E '@GLIBC_|^_ITM_|^__gmon_start__$|^sv[A-Z]' | xargs)
if [[ $n -ge 7 && -z $undef ]]; then ok "dpi-shared: $SO exports the $n mmaref_dpi_* functions, nothing undefined but glibc and svdpi.h's sv*"
else not_ok "dpi-shared: $n exported; undefined beyond libc and sv*: '$undef'"; fi
mkdir -p build/test-dpi
if gcc -std=gnu11 -O1 -Wall -Wextra tests/api/dpi_shared.c -ldl -o build/test-dpi/dpi_shared 2>/dev/null &&
   out=$(build/test-dpi/dpi_shared "$SO") && [[ $out == "dpi shared: ok (hopper precision case 0x3f800001)" ]]; then
  ok "dpi-shared: dlopen'ed, mmaref_dpi_lookup + mmaref_dpi_dot give the precision case's 0x3f800001"
else not_ok "dpi-shared through dlopen: ${out:-build failed}"; fi
