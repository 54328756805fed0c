# Hopper on silicon: dot-adds measured on an NVIDIA H200 (tests/silicon/h200/, written by tools/gpu/session.sh;
# docs/hardware-validation.md has the runs and their tables) must come out of the model bit for bit, and out of
# the independent oracle (tests/oracle/ref.py with its own table.py) too.  Two findings rest on them:
# - how a zero term enters e_max (bf16, tf32 files): every one of 1,048,576 seeded vectors per instruction
#   whose D differs from the MMA-Sim paper's convention (a zero operand of exponent -126), and crafted ones
#   whose products all lie below 2^-149; the oracle with the paper's convention must fail on them;
# - mma.sync FP8 (e4m3/e5m2 files): the first 1,536 seeded vectors of each instruction (raw, cluster, cancel
#   and special tiles); the oracle with C in the first pass instead of added last must fail on them.
# The hand cases below separate each rule from its neighbours in one dot-add; the H200 returned each of them
# (tools/gpu/session.sh --crafted, second run: 0 mismatches).
# runtime: 8 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
set -u
PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3
dir=tests/silicon/h200

for f in "$dir"/*.txt.gz; do
  name=$(basename "$f" .txt.gz)
  n=$(gzip -dc "$f" | grep -vc '^#')
  verdict=$(gzip -dc "$f" | "$MMAREF" batch hopper "$name" --check --max-report 3 | tail -n 1)
  [[ $verdict == *": $n passed, 0 failed" ]] && ok "H200 $name: the model gives the measured D on all $n vectors" ||
    not_ok "H200 $name: $verdict (of $n)"
done

# The oracle, with its own table (zero_term_exp from table.py), and with the paper's convention as a mutant.
out=$("$PY" - "$dir" <<'PY'
import glob, gzip, json, os, subprocess, sys
sys.path.insert(0, 'tests/oracle')
import ref, table
listing = {(x['arch'], x['name']): x for x in json.loads(subprocess.check_output([os.environ['MMAREF'], 'list', 'hopper', '--json']))}
for path in sorted(glob.glob(sys.argv[1] + '/*.txt.gz')):
    name = os.path.basename(path)[:-len('.txt.gz')]
    x = table.instruction(listing[('hopper', name)])
    if x['c_last']:      # the neighbour: C in the first pass
        other = dict(x, c_last=0)
    else:                # the neighbour: the paper's convention for zeros
        other = dict(x, schedule=[dict(p, zero_term_exp=0) for p in x['schedule']])
    k = x['k']
    good = bad_paper = n = 0
    for line in gzip.open(path, 'rt'):
        if line.startswith('#'):
            continue
        v = [int(t, 16) for t in line.split()]
        c, a, b, d = v[0], v[1:1 + k], v[1 + k:1 + 2 * k], v[1 + 2 * k]
        n += 1
        good += ref.dot_add(x, c, a, b) == d
        bad_paper += ref.dot_add(other, c, a, b) != d
    print(name, n, good, bad_paper, 'C-first' if x['c_last'] else 'zeros-at--126')
PY
)
while read -r name n good bad_other other; do
  [[ $good == "$n" ]] && ok "H200 $name: the oracle (its own table) agrees on all $n" ||
    not_ok "H200 $name: the oracle agrees on $good of $n"
  [[ ${bad_other:-0} -gt 0 ]] && ok "H200 $name: the neighbouring rule ($other) misses $bad_other of $n: the file decides" ||
    not_ok "H200 $name: the neighbouring rule ($other) agrees with every measured vector: the file cannot tell them apart"
done <<<"$out"
[[ $(wc -l <<<"$out") -eq 22 ]] || not_ok "oracle check printed $(wc -l <<<"$out") lines, wanted 22"

# Hand case, mma.m16n8k8.f32.bf16.bf16.f32 (FDA, F = 25, f32 RZ), C = +0:
#   p0 = 0x7f7f * 0 = 0 with a factor of exponent 127;  p1 = 1 * 1 = 1 (exponent 0);
#   p2..p5 = 2^-25 * 1 (0x3300 * 0x3f80), four of them;  p6 = p7 = 0 * 0.
# Exact sum 1 + 4 * 2^-25 = 1 + 2^-23 = 0x3f800001.
# Hopper (zero terms at -133): e_max = 0 (from p1), the window keeps bits down to 2^-25, so every 2^-25
# survives: 0x3f800001.  The paper's convention would give p0 exponent 127 + (-126) = 1, e_max = 1, a
# window down to 2^-24 that truncates each 2^-25 to 0: 0x3f800000.
expect_dot "hand (H200-confirmed): a zero product with a 2^127 factor does not set e_max on Hopper (0x3f800001, not 0x3f800000)" \
  0x3f800001 hopper mma.m16n8k8.f32.bf16.bf16.f32 \
  -a 0x7f7f,0x3f80,0x3300,0x3300,0x3300,0x3300,0,0 -b 0,0x3f80,0x3f80,0x3f80,0x3f80,0x3f80,0,0 -c 0
# The same dot-add on Ampere, which keeps the paper's convention (no measurement there says otherwise):
# F = 24 and e_max = 1 from the zero product: the window ends at 2^-23 and the 2^-25s are lost.
expect_dot "hand: the same on Ampere keeps the paper's convention (0x3f800000)" \
  0x3f800000 ampere mma.m16n8k8.f32.bf16.bf16.f32 \
  -a 0x7f7f,0x3f80,0x3300,0x3300,0x3300,0x3300,0,0 -b 0,0x3f80,0x3f80,0x3f80,0x3f80,0x3f80,0,0 -c 0

# mma.sync FP8, f16 D (units u = 2^-11, half an ulp of 1.0; tests/t_model_paper_blackwell.sh has the same
# derivations for Blackwell): p0 = 1 (0x38 x 0x38), p2 = u (0x08 x 0x10, pass 1), C = 1.5u: C last gives
# RNE(1 + 1.5u) after the passes' 1 = 0x3c01; C in the first pass 0x3c02.
z=0,0,0,0,0,0,0,0,0,0,0,0,0
expect_dot "hand (H200-confirmed): C is added after both passes (0x3c01; C first: 0x3c02)" \
  0x3c01 hopper mma.m16n8k16.f16.e4m3.e4m3.f16 -a 0x38,0,0x08,$z -b 0x38,0,0x10,$z -c 0x1200
# p0 = 1, p2 = u (k mod 4 = 2: pass 1), p8 = 1.5u (k mod 4 = 0: pass 0), C = 0: pass 0 = 1 + 2u, pass 1 =
# RNE(1 + 3u), a tie -> 1 + 4u = 0x3c02; passes over halves of K, or one exact pass, give 0x3c01.
expect_dot "hand (H200-confirmed): passes over k mod 4 in {0,1} then {2,3} (0x3c02; halves: 0x3c01)" \
  0x3c02 hopper mma.m16n8k16.f16.e4m3.e4m3.f16 -a 0x38,0,0x08,0,0,0,0,0,0x0c,0,0,0,0,0,0,0 \
  -b 0x38,0,0x10,0,0,0,0,0,0x10,0,0,0,0,0,0,0 -c 0
# wgmma FP8 (QGMMA, F = 13): one fused group of all 32 products, not two groups of 16.  p0 = 1 (0x38 x 0x38),
# and every odd k: 2^-7 x 2^-7 = 2^-14 (0x04, an e4m3 subnormal), 16 of them, summing to 2^-10; C = 0.  One
# group: e_max = 0, F = 13 keeps bits down to 2^-13, each 2^-14 is truncated: D = 1 (f32 0x3f800000, f16
# 0x3c00).  Two interleaved groups of 16 (even k, odd k) would keep the odd group's 2^-10 whole (1 + 2^-10:
# 0x3f802000, f16 0x3c01), two halves of K its 2^-11.  The H200 returned 0x3f800000 and 0x3c00.
a8="0x38,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04,0,0x04"
expect_dot "hand (H200-confirmed): QGMMA sums all 32 products in one group (0x3f800000; two groups of 16: 0x3f802000)" \
  0x3f800000 hopper wgmma.m64n8k32.f32.e4m3.e4m3 -a "$a8" -b "$a8" -c 0
expect_dot "hand (H200-confirmed): the same with f16 D (0x3c00; two groups of 16: 0x3c01)" \
  0x3c00 hopper wgmma.m64n8k32.f16.e4m3.e4m3 -a "$a8" -b "$a8" -c 0
