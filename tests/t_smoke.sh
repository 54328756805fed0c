# Smoke checks of the CLI contract; the derivations are by hand.
. "$(dirname "$0")/lib.sh"
# 1*1 + 1*1 + 0.5 = 2.5 exactly = 0x40200000 in f32.
expect_dot "hopper f16 dot 1+1+0.5" 0x40200000 hopper mma.m16n8k16.f32.f16.f16.f32 -a 1,1 -b 1,1 -c 0.5
# TF32 Step 0: NaN 0x7f800001 loses its low 13 bits and becomes +inf; inf*1 + 0 = +inf.
expect_dot "tf32 NaN 0x7f800001 becomes inf" 0x7f800000 hopper mma.m16n8k8.f32.tf32.tf32.f32 -a 0x7f800001 -b 1 -c 0
expect_error "unknown instruction lists what the arch has" "hopper has no instruction 'foo'; it has: mma.m16n8k8" \
  "$MMAREF" dot hopper foo -a 1 -b 1 -c 0
