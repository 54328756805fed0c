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
