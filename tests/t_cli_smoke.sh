# Smoke checks of the CLI contract; the derivations are by hand.
. "$(dirname "$0")/lib.sh"
# 1*1 + 1*1 + 0.5 = 2.5 exactly = 0x40200000 in f32.
expect_dot "hopper f16 dot 1+1+0.5" 0x40200000 hopper mma.m16n8k16.f32.f16.f16.f32 -a 1,1 -b 1,1 -c 0.5
# TF32 Step 0: NaN 0x7f800001 loses its low 13 bits and becomes +inf; inf*1 + 0 = +inf.
expect_dot "tf32 NaN 0x7f800001 becomes inf" 0x7f800000 hopper mma.m16n8k8.f32.tf32.tf32.f32 -a 0x7f800001 -b 1 -c 0
expect_error "unknown instruction lists what the arch has" "hopper has no instruction 'foo'; it has: mma.m16n8k8" \
  "$MMAREF" dot hopper foo -a 1 -b 1 -c 0
# A value the format cannot hold names its nearest: 1 + 5*2^-13 is 0.625 of a TF32 ulp (2^-10) above 1,
# so it rounds up to 1 + 2^-10 = f32 bits 0x3f800000 | 1 << 13 = 0x3f802000.
expect_error "tf32 inexact value names its nearest" "is not exactly representable in tf32 (nearest: 0x3f802000" \
  "$MMAREF" dot hopper mma.m16n8k8.f32.tf32.tf32.f32 -a 0x1.0028p0 -b 1 -c 0
# -1e-6 is not an f32; the nearest f32 is -0x1.0c6f7ap-20 = 0xb58637bd (IEEE round to nearest).
expect_error "f32 inexact decimal names its nearest" "(nearest: 0xb58637bd" \
  "$MMAREF" dot cdna3 v_mfma_f32_32x32x8_f16 -a 2048 -b 2048 -c -0.000001
# e2m1 (largest 6 = 0 11 1, neither inf nor NaN): 5 is a tie between 4 (0 11 0 = 0x6) and 6, to even: 4;
# 7 is past 6 (a tie between 6 and 8, to even: 8, an overflow e2m1 cannot hold): no nearest is named,
# as for a value past e4m3's largest, which rounds to its NaN.
E2M1=(blackwell tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3 -b 1 -c 0 --scale-a 1 --scale-b 1)
expect_error "e2m1 tie names its nearest" "a[0] = '5' is not exactly representable in e2m1 (nearest: 0x6 = 4)" \
  "$MMAREF" dot "${E2M1[@]}" -a 5
err=$("$MMAREF" dot "${E2M1[@]}" -a 7 2>&1)
[[ $err == "mmaref: dot: a[0] = '7' is not exactly representable in e2m1" ]] \
  && ok "e2m1 past its largest names no nearest (an overflow it cannot hold)" || not_ok "e2m1 7: '$err'"
# The studies: rounding-bias (cmd_study.c) and m3xu (cmd_study_m3xu.c).  `mmaref study --help` lists each
# in its STUDY list, each listed one runs, an unknown one's error names them all, `mmaref --help` names
# both, and `mmaref study m3xu --help` is m3xu's usage alone.
studies="rounding-bias m3xu"
listed=$("$MMAREF" study --help | sed -n '/^  STUDY is one of:/,/^  [^ ]/p' | awk '/^    [a-z]/ {print $1}' | xargs)
tmp_study=$(mktemp -d)
runs=1
for s in $listed; do "$MMAREF" study "$s" --samples 1 --no-plot --out "$tmp_study" >/dev/null 2>&1 || runs=0; done
rm -rf "$tmp_study"
err=$("$MMAREF" study nosuch 2>&1)
[[ $listed == "$studies" && $runs == 1 && $err == *"(available: rounding-bias, m3xu)" ]] \
  && ok "study --help lists every study ($listed), each runs, an unknown one names them" \
  || not_ok "study --help lists '$listed' (want '$studies'), each runs: $runs, unknown: '$err'"
main_line=$("$MMAREF" --help | grep -m1 '^  study ')
one=$("$MMAREF" study m3xu --help)
[[ $main_line == *rounding-bias* && $main_line == *m3xu* && $one == "usage: mmaref study m3xu "* && $one != *rounding-bias* ]] \
  && ok "mmaref --help names both studies; study m3xu --help is m3xu's usage alone" \
  || not_ok "mmaref --help's study line '$main_line'; study m3xu --help begins '${one:0:60}'"
