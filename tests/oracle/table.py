#!/usr/bin/env python3
"""The oracle's own instruction table: (architecture, instruction name) -> the arithmetic schedule.

Written from the MMA-Sim paper (section IV, Tables III and IV,
Appendix B and C) and, for CDNA1, which the paper does not cover, from docs/algorithms.md ("CDNA1");
the M3XU design (architecture m3xu) from the M3XU paper (section IV) and
its exact definition (docs/m3xu.md).
It reads nothing of the model: the instruction's name is parsed here, and the parameters come from
rules that say what the paper's text says.  `mmaref list --json` serves only to enumerate the
instructions (tests/oracle/compare_table.py then compares the two tables entry by entry).

Two independent renderings of the paper are kept and checked against each other (--selftest):
  * RULES, from the text of section IV: which opcode uses which algorithm (IV-A, C, E; IV-A, B, F, H),
    F per architecture and opcode (IV-C Step 3), the output rounding (IV-C Step 5, IV-E Step 7, IV-A,
    IV-F Step 8), which instructions chain two passes (IV-D, IV-G, IV-I), G (IV-B), flushing (IV-B);
  * TABLE_III and TABLE_IV, the cells of the paper's tables transcribed as written ("CoFDA(F=24)").
The rules give every parameter; the tables say which instruction exists on which architecture, and
--selftest renders the rules of every cell back into the table's notation and compares.

The schedule is the form of the model's pass schedule (cmodel/include/mmaref.h): a list of passes, each
  {algo, k_first, k_count, frac_bits, group, align_products, align_c, scales, flush, out};
pass i > 0 takes pass i-1's result as its C; the last pass's out is D's.

  python3 tests/oracle/table.py ARCH NAME      # the schedule of one instruction, as JSON
  python3 tests/oracle/table.py --selftest     # rules == Tables III and IV, cell by cell
"""
import json
import re
import sys

NV_ARCHS = ('volta', 'turing', 'ampere', 'ada', 'hopper', 'blackwell', 'rtx-blackwell')
AMD_ARCHS = ('cdna1', 'cdna2', 'cdna3')
M3XU_ARCHS = ('m3xu',)

# The fields of an instruction that are inputs to the rules (its identity, shape and operand formats).
# Everything else the oracle uses comes from this file.
INPUT_FIELDS = ('arch', 'name', 'm', 'n', 'k', 'a', 'b', 'c', 'd', 'scale', 'block_size')
NAME_FIELDS = ('m', 'n', 'k', 'a', 'b', 'c', 'd', 'scale', 'block_size')   # what the name says
PASS_FIELDS = ('algo', 'k_first', 'k_count', 'frac_bits', 'group', 'align_products', 'align_c', 'scales',
               'flush', 'zero_term_exp', 'out', 'k_run', 'k_stride', 'ab_f16')


class NotInPaper(ValueError):
    """The instruction has no cell in the paper's tables (nor in docs/algorithms.md for CDNA1)."""


# ----------------------------------------------------------------------------------------------
# Parsing names.  NVIDIA: PTX spellings (Appendix B gives the SASS names, which are derived below).

FP8 = ('e4m3', 'e5m2')                               # Appendix B: "f8type"
F8F6F4 = ('e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1')    # "f8f6f4type"
NV_FORMATS = ('f64', 'f32', 'tf32', 'f16', 'bf16') + F8F6F4 + ('ue8m0', 'ue4m3')

_NV_NAME = re.compile(r'^(?P<op>mma|wgmma|tcgen05\.mma)\.m(?P<m>\d+)n(?P<n>\d+)k(?P<k>\d+)'
                      r'(?:\.block(?P<bs>\d+))?\.(?P<types>[a-z0-9.]+)$')


def parse_nv(name):
    """PTX-style name -> dict(op, m, n, k, a, b, c, d, scale, block_size)."""
    g = _NV_NAME.match(name)
    if not g:
        raise NotInPaper(f"not an NVIDIA instruction name: '{name}'")
    op, types = g['op'], g['types'].split('.')
    bs = int(g['bs']) if g['bs'] else 0
    # mma: .d.a.b.c[.scale]; wgmma / tcgen05.mma: .d.a.b[.scale] with C = D
    want = (4 if op == 'mma' else 3) + (1 if bs else 0)
    if len(types) != want or any(t not in NV_FORMATS for t in types):
        raise NotInPaper(f"cannot read the operand formats of '{name}'")
    d, a, b = types[0], types[1], types[2]
    c = types[3] if op == 'mma' else d
    scale = types[-1] if bs else ''
    return dict(op=op, m=int(g['m']), n=int(g['n']), k=int(g['k']), a=a, b=b, c=c, d=d, scale=scale,
                block_size=bs)


# AMD (Appendix C): CDNA1/CDNA2 v_mfma_<cd>_<M>x<N>x<K><ab>[_1k]; CDNA3 v_mfma_<cd>_<M>x<N>x<K>[_<T>b]_<ab>
# with ab = atype_btype for FP8.  xf32 = tf32, fp8 = e4m3fnuz, bf8 = e5m2fnuz.
AMD_FORMAT = {'f64': 'f64', 'f32': 'f32', 'xf32': 'tf32', 'f16': 'f16', 'bf16': 'bf16',
              'fp8': 'e4m3fnuz', 'bf8': 'e5m2fnuz'}
_AMD_OLD = re.compile(r'^(?:v_mfma_)?(?P<cd>f32|f64)_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)(?P<ab>f64|f32|f16|bf16)'
                      r'(?P<onek>_1k)?$')
_AMD_NEW = re.compile(r'^(?:v_mfma_)?(?P<cd>f32|f64)_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)(?:_(?P<t>\d+)b)?'
                      r'_(?P<ab>f64|f32|xf32|f16|bf16|(?:fp8|bf8)_(?:fp8|bf8))$')


def parse_amd(arch, name):
    """MFMA name -> dict(m, n, k, a, b, c, d, scale, block_size, bf16_kind).  bf16_kind: 'legacy' for the
    CDNA1 BF16 instructions CDNA2 kept (no _1k), '1k' for CDNA2's _1k ones and CDNA3's BF16 (Table IV
    writes f32_32x32x4_2b_bf16 where CDNA2 has GPS(G=4), the G of the _1k forms)."""
    g = (_AMD_NEW if arch == 'cdna3' else _AMD_OLD).match(name)
    if not g:
        raise NotInPaper(f"not a {arch} MFMA name: '{name}'")
    ab = g['ab'].split('_')
    a, b = AMD_FORMAT[ab[0]], AMD_FORMAT[ab[-1]]
    cd = g['cd']
    kind = ''
    if a == 'bf16':
        kind = '1k' if arch == 'cdna3' or g.groupdict().get('onek') else 'legacy'
    return dict(op='v_mfma', m=int(g['m']), n=int(g['n']), k=int(g['k']), a=a, b=b, c=cd, d=cd, scale='',
                block_size=0, bf16_kind=kind)


# ----------------------------------------------------------------------------------------------
# NVIDIA: the paper's SASS name of a PTX instruction (Appendix B), as the row label of Table III.

def nv_row(p):
    """The Table III row of a parsed NVIDIA instruction, and its opcode (HMMA, QMMA, ...)."""
    op, m, k, a, b, c, d = p['op'], p['m'], p['k'], p['a'], p['b'], p['c'], p['d']
    D, C = d.upper(), c.upper()
    if op == 'mma':
        if a == 'f64':                                            # DMMA: every operand FP64
            if (m, k) == (8, 4):
                return 'DMMA.884', 'DMMA'
            return f'DMMA.16x8x{k}', 'DMMA'
        if p['block_size']:                                       # QMMA.SF / OMMA.SF
            if k == 64 and a == b == 'e2m1':
                sf = 'UE4M3' if p['scale'] == 'ue4m3' else 'E8'
                return f"OMMA.SF.16864.F32.E2M1.E2M1.{sf}" + ('.4X' if p['block_size'] == 16 else ''), 'OMMA'
            return 'QMMA.SF.16832.F32.f8f6f4.E8', 'QMMA'
        if a in F8F6F4:                                           # QMMA
            kind = 'f8' if a in FP8 and b in FP8 else 'f8f6f4'
            return f'QMMA.{m}8{k}.{D}.{kind}', 'QMMA'
        if (m, k) == (8, 4):                                      # HMMA.884.<D>.<C>
            return f'HMMA.884.{D}.{C}', 'HMMA'
        suffix = {'tf32': '.F32.TF32', 'bf16': '.F32.BF16', 'f16': '.' + D}[a]
        return f'HMMA.{m}8{k}{suffix}', 'HMMA'
    if op == 'wgmma':
        if a in FP8:
            return f'QGMMA.64xNx32.{D}.f8', 'QGMMA'
        suffix = {'tf32': '.F32.TF32', 'bf16': '.F32.BF16', 'f16': '.' + D}[a]
        return f'HGMMA.64xNx{k}{suffix}', 'HGMMA'
    # tcgen05.mma: UTCHMMA (tf32, f16, bf16), UTCQMMA (f8f6f4, optional UE8M0 block-32 scales),
    # UTCOMMA (e2m1 with K = 64, block 32) and UTCOMMA.4X (block 16)
    if a in ('tf32', 'f16', 'bf16'):
        return 'UTCHMMA', 'UTCHMMA'
    if p['block_size'] and k == 64:
        return 'UTCOMMA' + ('.4X' if p['block_size'] == 16 else ''), 'UTCOMMA'
    return 'UTCQMMA', 'UTCQMMA'


# Table III, transcribed.  Rows the paper draws as one merged cell are listed together; None is N/A.
# HMMA.1688.F32.TF32 shares the HMMA.16816 cell (section IV-D names it among the CoFDA instructions).
TABLE_III = [
    (('HMMA.884.F32.F32', 'HMMA.884.F32.F16', 'HMMA.884.F16.F16'),
     ('FDA(F=23)', 'FDA(F=24)', None, None, None, None, None)),
    (('HMMA.1688.F32', 'HMMA.1688.F16'),
     (None, 'FDA(F=24)', 'FDA(F=24)', 'FDA(F=24)', 'FDA(F=25)', 'FDA(F=25)', 'FDA(F=25)')),
    (('DMMA.884',),
     (None, None, 'SFMA', 'SFMA', 'SFMA', 'SFMA', 'SFMA')),
    (('HMMA.1688.F32.TF32', 'HMMA.16816.F32', 'HMMA.16816.F16', 'HMMA.16816.F32.BF16'),
     (None, None, 'CoFDA(F=24)', 'CoFDA(F=24)', 'FDA(F=25)', 'FDA(F=25)', 'FDA(F=25)')),
    (('HMMA.1684.F32.TF32', 'HMMA.1688.F32.BF16'),
     (None, None, 'FDA(F=24)', 'FDA(F=24)', 'FDA(F=25)', 'FDA(F=25)', 'FDA(F=25)')),
    (('QMMA.16832.F32.f8', 'QMMA.16832.F16.f8'),
     (None, None, None, 'CoFDA(F=13)', None, None, 'FDA(F=25)')),
    (('QMMA.16816.F32.f8', 'QMMA.16816.F16.f8'),
     (None, None, None, 'FDA(F=13)', None, None, 'FDA(F=25)')),
    (('DMMA.16x8x16', 'DMMA.16x8x8', 'DMMA.16x8x4'),
     (None, None, None, None, 'SFMA', None, None)),
    (('HGMMA.64xNx8.F32.TF32', 'HGMMA.64xNx16.F32', 'HGMMA.64xNx16.F16', 'HGMMA.64xNx16.F32.BF16'),
     (None, None, None, None, 'FDA(F=25)', None, None)),
    (('QGMMA.64xNx32.F32.f8', 'QGMMA.64xNx32.F16.f8'),
     (None, None, None, None, 'FDA(F=13)', None, None)),
    (('UTCHMMA', 'UTCQMMA'),
     (None, None, None, None, None, 'FDA(F=25)', None)),
    (('UTCOMMA', 'UTCOMMA.4X'),
     (None, None, None, None, None, 'GDFS', None)),
    (('QMMA.16832.F32.f8f6f4', 'QMMA.16832.F16.f8f6f4', 'QMMA.SF.16832.F32.f8f6f4.E8'),
     (None, None, None, None, None, None, 'FDA(F=25)')),
    (('OMMA.SF.16864.F32.E2M1.E2M1.E8', 'OMMA.SF.16864.F32.E2M1.E2M1.UE4M3.4X'),
     (None, None, None, None, None, None, 'GDFS')),
]

# Instructions the model lists whose row the paper does not name, and the paper row whose rules
# apply (reported by compare_table.py as notes, not hidden):
NV_BEYOND_PAPER = {
    # Appendix A: "NVIDIA also supports a variant of MXFP4 by reducing the block size from 32 to 16";
    # Table III names OMMA.SF only with E8 (block 32) and UE4M3.4X.  GDFS either way (IV-E Step 3:
    # "the summation group size is fixed to be 16" whatever the block size).
    'OMMA.SF.16864.F32.E2M1.E2M1.E8.4X': 'OMMA.SF.16864.F32.E2M1.E2M1.E8',
}


# Cells beyond the paper, from hardware measurements (not from the model): mma.sync with e4m3/e5m2 operands on
# Hopper (an H200, this project's tools/gpu/session.sh, docs/hardware-validation.md) and Blackwell (Khattak &
# Mikaitis, "Accurate Models of NVIDIA Tensor Cores", ACM TACO: B200 results of mma.sync.m16n8k32, their
# repository MATLAB-tensor-core, model_validation/B200/{E4M3,E5M2}).  Both agree with two f16 HMMA passes
# (F = 25 as Hopper's HMMA; the operands converted to f16) over the products k mod 4 in {0, 1} and then
# {2, 3}, from +0, and C added last with one IEEE addition (docs/algorithms.md, "mma.sync FP8").
# Blackwell's m16n8k16 is assumed to follow its m16n8k32.
MEASURED_CELLS = {(arch, row): 'CoFDA(F=25)' for arch in ('hopper', 'blackwell')
                  for row in ('QMMA.16832.F32.f8', 'QMMA.16832.F16.f8', 'QMMA.16816.F32.f8', 'QMMA.16816.F16.f8')}
MEASURED_NOTE = "not in Table III: mma.sync FP8 measured on an H200 (Hopper) and by Khattak & Mikaitis on a B200"
PAIR_RUN, PAIR_STRIDE = 2, 4   # the pass takes bytes 0-1, then 2-3, of each 32-bit A and B register


def table_iii_cell(row, arch):
    for rows, cells in TABLE_III:
        if row in rows:
            return cells[NV_ARCHS.index(arch)] or MEASURED_CELLS.get((arch, row))
    raise NotInPaper(f"Table III has no row {row}")


# ---- the rules of the text (section IV) --------------------------------------------------------

# IV-C Step 3: F by architecture and opcode.
FDA_F = {
    'volta': {'HMMA': 23},
    'turing': {'HMMA': 24},
    'ampere': {'HMMA': 24},
    'ada': {'HMMA': 24, 'QMMA': 13},
    'hopper': {'HMMA': 25, 'HGMMA': 25, 'QGMMA': 13, 'QMMA': 25},               # QMMA: MEASURED_CELLS
    'blackwell': {'HMMA': 25, 'UTCHMMA': 25, 'UTCQMMA': 25, 'QMMA': 25},   # QMMA: MEASURED_CELLS
    'rtx-blackwell': {'HMMA': 25, 'QMMA': 25},
}
GDFS_F = 35          # IV-E Step 4: "fixed-point numbers with F = 35 fractional bits"
GDFS_GROUP = 16      # IV-E Step 3: "the summation group size is fixed to be 16"
# IV-D: "for HMMA.1688.F32.TF32, HMMA.16816.F32, HMMA.16816.F16, and HMMA.16816.F32.BF16 on Ampere and
# Ada Lovelace, and QMMA.16832.F32.f8type,f8type and QMMA.16832.F16,f8type,f8type on Ada Lovelace, [one]
# FDA operation can compute only K/2 pairs" (the paper's sentence is garbled in the text extraction).
COFDA = {
    'ampere': ('HMMA.1688.F32.TF32', 'HMMA.16816.F32', 'HMMA.16816.F16', 'HMMA.16816.F32.BF16'),
    'ada': ('HMMA.1688.F32.TF32', 'HMMA.16816.F32', 'HMMA.16816.F16', 'HMMA.16816.F32.BF16',
            'QMMA.16832.F32.f8', 'QMMA.16832.F16.f8'),
}
# IV-C Step 5: FP32 output rounds toward zero "at the 13th fractional bit for Ada Lovelace QMMA or Hopper
# QGMMA instructions or the 23rd fractional bit for other instructions"; FP16 output rounds to nearest even.
E8M13 = {('ada', 'QMMA'), ('hopper', 'QGMMA')}
# Measured on an H200 (docs/hardware-validation.md): a zero term of a Hopper FDA -- a zero C, a product with
# a zero factor -- enters e_max with exponent -133 instead of the paper's -126 per zero operand.
ZERO_TERM_EXP = {'hopper': -133}



def nv_algorithm(arch, row, opcode):
    """The algorithm kind of an opcode (IV-A: DMMA is SFMA; IV-E: OMMA and UTCOMMA are GDFS; IV-C: HMMA,
    QMMA, HGMMA, QGMMA, UTCHMMA, UTCQMMA are FDA)."""
    return {'DMMA': 'SFMA', 'OMMA': 'GDFS', 'UTCOMMA': 'GDFS'}.get(opcode, 'FDA')


def nv_out(arch, opcode, algo, d):
    if algo == 'SFMA':
        return d + '-rne'                     # IV-A: IEEE FMA in FP64
    if d == 'f16':
        return 'f16-rne'
    return 'f32_e8m13-rz' if (arch, opcode) in E8M13 else 'f32-rz'


def nv_schedule(arch, p, row, opcode):
    algo = nv_algorithm(arch, row, opcode)
    K = p['k']
    if algo == 'SFMA':
        return [make_pass('SFMA', 0, K, 0, 0, 'rne', 'rne', 'none', 0, nv_out(arch, opcode, algo, p['d']))]
    if algo == 'GDFS':
        return [make_pass('GDFS', 0, K, GDFS_F, GDFS_GROUP, 'rz', 'rz', 'per-group', 0, 'f32-rz')]
    F = FDA_F[arch].get(opcode)
    if F is None:
        raise NotInPaper(f"IV-C gives no F for {opcode} on {arch}")
    scales = 'per-product' if p['scale'] else 'none'      # IV-C "Scale factor": e_k adds the scales' exponents
    out = nv_out(arch, opcode, algo, p['d'])
    zero = ZERO_TERM_EXP.get(arch, 0)
    if (arch, row) in MEASURED_CELLS:                     # two f16 passes over pairs of products; C last
        return [dict(make_pass('FDA', PAIR_RUN * i, K // 2, F, 0, 'rz', 'rz', scales, 0, out, zero),
                     k_run=PAIR_RUN, k_stride=PAIR_STRIDE, ab_f16=1) for i in range(2)]
    passes = 2 if row in COFDA.get(arch, ()) else 1
    step = K // passes
    return [make_pass('FDA', i * step, step, F, 0, 'rz', 'rz', scales, 0, out, zero) for i in range(passes)]


def c_last(arch, row):
    """Whether C is added last, after the passes (the measured mma.sync FP8 cells)."""
    return int((arch, row) in MEASURED_CELLS)


# ----------------------------------------------------------------------------------------------
# AMD: Table IV by (D, M, N, K, A, B, bf16 kind); T (concurrent blocks) does not change the arithmetic.

def amd_key(p):
    return (p['d'], p['m'], p['n'], p['k'], p['a'], p['b'], p.get('bf16_kind', ''))


TABLE_IV = [   # (names as the paper writes them, CDNA2 cell, CDNA3 cell)
    (('f64_16x16x4_f64', 'f64_4x4x4_4b_f64', 'f32_32x32x1_2b_f32', 'f32_16x16x1_4b_f32', 'f32_4x4x1_16b_f32',
      'f32_32x32x2_f32', 'f32_16x16x4_f32'), 'SFMA', 'SFMA'),
    (('f32_16x16x8_xf32',), None, 'CoFDRDA'),
    (('f32_32x32x4_xf32',), None, 'FDRDA'),
    (('f32_32x32x4_2b_f16', 'f32_16x16x4_4b_f16', 'f32_4x4x4_16b_f16', 'f32_32x32x8_f16'), 'GPS(G=4)', 'FDRDA'),
    (('f32_16x16x16_f16',), 'GPS(G=4)', 'CoFDRDA'),
    # "(CDNA2 names)": the legacy BF16 instructions, which CDNA3 dropped
    (('f32_32x32x2bf16', 'f32_16x16x2bf16', 'f32_4x4x2bf16', 'f32_32x32x4bf16', 'f32_16x16x8bf16'), 'GPS(G=2)',
     None),
    (('f32_32x32x4_2b_bf16', 'f32_16x16x4_4b_bf16', 'f32_4x4x4_16b_bf16', 'f32_32x32x8_bf16'), 'GPS(G=4)', 'FDRDA'),
    (('f32_16x16x16_bf16',), 'GPS(G=4)', 'CoFDRDA'),
    (('f32_16x16x32_bf8_bf8', 'f32_16x16x32_bf8_fp8', 'f32_16x16x32_fp8_bf8', 'f32_16x16x32_fp8_fp8'), None,
     'CoGFDRDA'),
    (('f32_32x32x16_bf8_bf8', 'f32_32x32x16_bf8_fp8', 'f32_32x32x16_fp8_bf8', 'f32_32x32x16_fp8_fp8'), None,
     'GFDRDA'),
]


def _table_iv_index():
    idx = {}
    for names, cdna2, cdna3 in TABLE_IV:
        for nm in names:
            p = parse_amd('cdna3', nm) if _AMD_NEW.match(nm) and not _AMD_OLD.match(nm) else parse_amd('cdna2', nm)
            idx[amd_key(p)] = (nm, {'cdna2': cdna2, 'cdna3': cdna3})
    return idx


_TABLE_IV_INDEX = _table_iv_index()


def table_iv_cell(arch, p):
    """Table IV's cell for the instruction; CDNA1 (not in the paper): docs/algorithms.md, "CDNA1": the
    CDNA2 instructions CDNA1 has (no FP64 MFMA, no _1k BF16) with CDNA2's algorithm and G, no flushing."""
    row = _TABLE_IV_INDEX.get(amd_key(p))
    if row is None:
        raise NotInPaper(f"Table IV has no instruction {p['d']}_{p['m']}x{p['n']}x{p['k']} {p['a']}x{p['b']}"
                         + (f" ({p['bf16_kind']} bf16)" if p.get('bf16_kind') else ''))
    if arch == 'cdna1':
        if p['a'] == 'f64' or p.get('bf16_kind') == '1k':
            return row[0], None
        return row[0], row[1]['cdna2']
    return row[0], row[1][arch]


# The rules of section IV for AMD.
FDRDA_F = 24          # IV-F Step 4 ("In this algorithm, F = 24"); IV-H Step 4 (GFDRDA, "F = 24")
GFDRDA_PASS = 16      # IV-I: "One GFDRDA operation can compute only 16 pairs of multiplicands"
# IV-G: "for v_mfma_f32_16x16x8_xf32, v_mfma_f32_16x16x16_f16, and v_mfma_f32_16x16x16_bf16, one FDRDA
# operation can compute only K/2 pairs of multiplicands"
COFDRDA = {('f32', 16, 16, 8, 'tf32'), ('f32', 16, 16, 16, 'f16'), ('f32', 16, 16, 16, 'bf16')}


def amd_algorithm(arch, p):
    """IV-A: FP64 and FP32 MFMA -> SFMA (every architecture).  IV-B: FP16 and BF16 on CDNA2 -> GPS (CDNA1:
    docs/algorithms.md).  IV-F: TF32, FP16, BF16 on CDNA3 -> FDRDA.  IV-H: FP8 on CDNA3 -> GFDRDA."""
    a = p['a']
    if a in ('f64', 'f32'):
        return 'SFMA'
    if arch in ('cdna1', 'cdna2') and a in ('f16', 'bf16'):
        return 'GPS'
    if arch == 'cdna3' and a in ('tf32', 'f16', 'bf16'):
        return 'FDRDA'
    if arch == 'cdna3' and a in ('e4m3fnuz', 'e5m2fnuz'):
        return 'GFDRDA'
    raise NotInPaper(f"section IV gives no algorithm for {a} MFMA on {arch}")


def gps_group(p):
    """IV-B: G = 4 for FP16, G = 4 for BF16 with "_1k", G = 2 for BF16 without."""
    if p['a'] == 'f16':
        return 4
    return 4 if p['bf16_kind'] == '1k' else 2


def amd_schedule(arch, p):
    algo = amd_algorithm(arch, p)
    K, d = p['k'], p['d']
    out = d + '-rne'        # IV-A IEEE FMA; IV-B FP32 arithmetic; IV-F Step 8 "RNE rule" (f32 D)
    if algo == 'SFMA':
        return [make_pass('SFMA', 0, K, 0, 0, 'rne', 'rne', 'none', 0, out)]
    if algo == 'GPS':
        # IV-B Steps 1-4 flush subnormals: a CDNA2 behaviour (paper VI-B); CDNA1 does not
        # (docs/algorithms.md, "CDNA1": the MMA-Sim code's choice).
        return [make_pass('GPS', 0, K, 0, gps_group(p), 'rne', 'rne', 'none', 1 if arch == 'cdna2' else 0, out)]
    if algo == 'FDRDA':
        passes = 2 if (d, p['m'], p['n'], K, p['a']) in COFDRDA else 1
    else:
        passes = max(1, K // GFDRDA_PASS)
    step = K // passes
    # FDRDA Step 6, GFDRDA Steps 6 and 8: the dot's sums and c are "rounded down" when aligned to e_max
    return [make_pass(algo, i * step, step, FDRDA_F, 0, 'rd', 'rd', 'none', 0, out) for i in range(passes)]


# ----------------------------------------------------------------------------------------------
# M3XU (the M3XU paper, section IV; docs/m3xu.md): m3xu.m<M>n<N>k<K>.<d>.<a>.<b>.<c>, one mode per A/B format.

_M3XU_NAME = re.compile(r'^m3xu\.m(?P<m>\d+)n(?P<n>\d+)k(?P<k>\d+)\.(?P<d>[a-z0-9]+)\.(?P<a>[a-z0-9]+)'
                        r'\.(?P<b>[a-z0-9]+)\.(?P<c>[a-z0-9]+)$')


def parse_m3xu(name):
    g = _M3XU_NAME.match(name)
    if not g:
        raise NotInPaper(f"not an M3XU instruction name: '{name}'")
    return dict(op='m3xu', m=int(g['m']), n=int(g['n']), k=int(g['k']), a=g['a'], b=g['b'], c=g['c'], d=g['d'],
                scale='', block_size=0)


# The modes, transcribed: (mode, A and B, C and D, M x N x K of one operation, the cell in the tables'
# notation).  Section IV-A: "Based on an 8 x 4 x 8 MXU of a Tensor Core, the resulting M3XU can perform
# 8 x 4 x 4 in FP32 in each 2-step operation"; IV-B: "an FP32C matrix multiplication of size 8 x 4 x 2 in
# a single 4-step operation"; the FP16/BF16 baseline accumulates into FP32 (docs/m3xu.md: Ampere's FDA).
M3XU_MODES = [
    ('FP16', 'f16', 'f32', (8, 4, 8), 'FDA(F=24)'),
    ('BF16', 'bf16', 'f32', (8, 4, 8), 'FDA(F=24)'),
    ('FP32', 'f32', 'f32', (8, 4, 4), 'M3XU(F=46)'),
    ('FP32C', 'f32c', 'f32c', (8, 4, 2), 'M3XU(F=46)'),
]
# docs/m3xu.md, Step 4: F_w = 46, the fractional bits of the 48-bit product register (two 24-bit
# significands with 23 fractional bits each), so that a product at e_max enters exactly.
M3XU_F = 2 * 23
# The baseline mode is Ampere's HMMA arithmetic (docs/m3xu.md): its F and output by the NVIDIA rules above.
M3XU_BASELINE = ('ampere', 'HMMA')


def m3xu_mode(p):
    """The mode of a parsed M3XU name (row label of M3XU_MODES), checking formats and shape against it."""
    for mode, ab, cd, shape, _ in M3XU_MODES:
        if p['a'] == p['b'] == ab and p['c'] == p['d'] == cd:
            if (p['m'], p['n'], p['k']) != shape:
                raise NotInPaper(f"M3XU's {mode} mode is {'x'.join(map(str, shape))}, not "
                                 f"{p['m']}x{p['n']}x{p['k']}")
            return mode
    raise NotInPaper(f"M3XU has no mode with A {p['a']}, B {p['b']}, C {p['c']}, D {p['d']}")


def m3xu_schedule(p, mode):
    K = p['k']
    if mode in ('FP16', 'BF16'):
        arch, opcode = M3XU_BASELINE
        return [make_pass('FDA', 0, K, FDA_F[arch][opcode], 0, 'rz', 'rz', 'none', 0,
                          nv_out(arch, opcode, 'FDA', p['d']))]
    # Steps 4 and 6: the alignment truncates, each result (part) rounds to nearest even
    return [make_pass('M3XU', 0, K, M3XU_F, 0, 'rz', 'rz', 'none', 0, p['d'] + '-rne')]


# ----------------------------------------------------------------------------------------------

def make_pass(algo, k_first, k_count, frac_bits, group, align_products, align_c, scales, flush, out,
              zero_term_exp=0):
    return dict(algo=algo, k_first=k_first, k_count=k_count, frac_bits=frac_bits, group=group,
                align_products=align_products, align_c=align_c, scales=scales, flush=flush,
                zero_term_exp=zero_term_exp, out=out, k_run=0, k_stride=0, ab_f16=0)


def display_algo(schedule):
    """The paper's name: the pass kind, "Co" + the kind for a chain of two passes of one kind."""
    kinds = {p['algo'] for p in schedule}
    assert len(kinds) == 1, schedule
    kind = kinds.pop()
    n = len(schedule)
    return kind if n == 1 else 'Co' + kind if n == 2 else f'{n}x{kind}'


def paper_cell(schedule):
    """The rules' result in the notation of the paper's tables: FDA(F=25), CoFDA(F=24), GPS(G=4), SFMA."""
    p0, name = schedule[0], display_algo(schedule)
    if p0['algo'] == 'FDA':
        return f"{name}(F={p0['frac_bits']})"
    if p0['algo'] == 'GPS':
        return f"{name}(G={p0['group']})"
    if p0['algo'] == 'M3XU':
        return f"{name}(F={p0['frac_bits']})"
    return name


def derive(arch, name):
    """What the paper says of an instruction: dict(parsed=the name's fields, schedule, algo, row=the paper's
    row, cell=its cell, note='' or why the instruction is beyond the paper's listing).  Raises NotInPaper
    when the paper (for CDNA1: docs/algorithms.md) does not have the instruction on that architecture."""
    if arch in NV_ARCHS:
        p = parse_nv(name)
        row, opcode = nv_row(p)
        ref_row, note = row, ''
        if row in NV_BEYOND_PAPER:
            ref_row = NV_BEYOND_PAPER[row]
            note = f"{row} is not named in Table III; the rules of {ref_row} are applied"
        if opcode == 'UTCHMMA' and p['a'] != p['b']:
            # Appendix B: "UTCHMMA supports the data type combinations same as HGMMA", and "for HMMA and
            # HGMMA instructions, the data types of A and B must be the same".
            note = "UTCHMMA with A and B of different types (f16 x bf16): Appendix B lists only A and B of one type"
        cell = table_iii_cell(ref_row, arch)
        if (arch, ref_row) in MEASURED_CELLS:
            note = MEASURED_NOTE
        if cell is None:
            raise NotInPaper(f"Table III: {ref_row} is N/A on {arch}")
        sched = nv_schedule(arch, p, ref_row, opcode)
    elif arch in AMD_ARCHS:
        p = parse_amd(arch, name)
        ref_row, cell = table_iv_cell(arch, p)
        if cell is None:
            raise NotInPaper(f"Table IV: {ref_row} is N/A on {arch}")
        opcode = 'v_mfma'
        note = 'CDNA1 is not in the paper: docs/algorithms.md "CDNA1"' if arch == 'cdna1' else ''
        sched = amd_schedule(arch, p)
    elif arch in M3XU_ARCHS:
        p = parse_m3xu(name)
        ref_row = m3xu_mode(p)
        cell = next(c for mode, _, _, _, c in M3XU_MODES if mode == ref_row)
        opcode, note = 'm3xu', ''
        sched = m3xu_schedule(p, ref_row)
    else:
        raise NotInPaper(f"unknown architecture '{arch}'")
    return dict(parsed=p, schedule=sched, algo=display_algo(sched), row=ref_row, cell=cell, opcode=opcode,
                note=note, c_last=c_last(arch, ref_row) if arch in NV_ARCHS else 0)


def available_cells():
    """Every (architecture, row) that the paper's tables (and docs/algorithms.md for CDNA1) mark available."""
    out = set()
    for rows, cells in TABLE_III:
        for row in rows:
            out |= {(arch, row) for arch, cell in zip(NV_ARCHS, cells) if cell}
    out |= set(MEASURED_CELLS)
    for names, cdna2, cdna3 in TABLE_IV:
        for nm in names:
            out |= {(arch, nm) for arch, cell in (('cdna2', cdna2), ('cdna3', cdna3)) if cell}
            p = parse_amd('cdna2', nm) if _AMD_OLD.match(nm) else parse_amd('cdna3', nm)
            if cdna2 and table_iv_cell('cdna1', p)[1]:
                out.add(('cdna1', nm))
    out |= {('m3xu', mode) for mode, _, _, _, _ in M3XU_MODES}
    return out


def schedule(arch, name):
    return derive(arch, name)['schedule']


def instruction(entry):
    """The oracle's instruction object for one entry of `mmaref list --json`: only INPUT_FIELDS are taken
    from the entry (and checked against the name); algo and schedule are the oracle's own."""
    t = derive(entry['arch'], entry['name'])
    x = {f: entry[f] for f in INPUT_FIELDS}
    for f in NAME_FIELDS:
        if t['parsed'][f] != x[f]:
            raise ValueError(f"{entry['arch']} {entry['name']}: the name says {f} = {t['parsed'][f]!r}, "
                             f"the list {x[f]!r}")
    x['algo'] = t['algo']
    x['schedule'] = t['schedule']
    x['c_last'] = t['c_last']
    x['paper'] = f"{t['row']} on {entry['arch']}: {t['cell']}"
    x['note'] = t['note']
    return x


def schedule_key(x):
    """A hashable form of an oracle instruction's arithmetic (operand formats, K, scales, schedule)."""
    return (x['a'], x['b'], x['c'], x['d'], x['k'], x['scale'], x['block_size'],
            tuple(tuple(p[f] for f in PASS_FIELDS) for p in x['schedule']))


# ----------------------------------------------------------------------------------------------

def selftest():
    """The rules, rendered in the tables' notation, give every cell of Tables III and IV; prints one
    ok / not ok line and returns the number of failures."""
    bad, cells = [], 0
    # Table III: one representative PTX instruction per row label
    examples = {
        'HMMA.884.F32.F32': 'mma.m8n8k4.f32.f16.f16.f32', 'HMMA.884.F32.F16': 'mma.m8n8k4.f32.f16.f16.f16',
        'HMMA.884.F16.F16': 'mma.m8n8k4.f16.f16.f16.f16', 'HMMA.1688.F32': 'mma.m16n8k8.f32.f16.f16.f32',
        'HMMA.1688.F16': 'mma.m16n8k8.f16.f16.f16.f16', 'DMMA.884': 'mma.m8n8k4.f64.f64.f64.f64',
        'HMMA.1688.F32.TF32': 'mma.m16n8k8.f32.tf32.tf32.f32', 'HMMA.16816.F32': 'mma.m16n8k16.f32.f16.f16.f32',
        'HMMA.16816.F16': 'mma.m16n8k16.f16.f16.f16.f16', 'HMMA.16816.F32.BF16': 'mma.m16n8k16.f32.bf16.bf16.f32',
        'HMMA.1684.F32.TF32': 'mma.m16n8k4.f32.tf32.tf32.f32', 'HMMA.1688.F32.BF16': 'mma.m16n8k8.f32.bf16.bf16.f32',
        'QMMA.16832.F32.f8': 'mma.m16n8k32.f32.e4m3.e5m2.f32', 'QMMA.16832.F16.f8': 'mma.m16n8k32.f16.e5m2.e4m3.f16',
        'QMMA.16816.F32.f8': 'mma.m16n8k16.f32.e5m2.e5m2.f32', 'QMMA.16816.F16.f8': 'mma.m16n8k16.f16.e4m3.e4m3.f16',
        'DMMA.16x8x16': 'mma.m16n8k16.f64.f64.f64.f64', 'DMMA.16x8x8': 'mma.m16n8k8.f64.f64.f64.f64',
        'DMMA.16x8x4': 'mma.m16n8k4.f64.f64.f64.f64', 'HGMMA.64xNx8.F32.TF32': 'wgmma.m64n8k8.f32.tf32.tf32',
        'HGMMA.64xNx16.F32': 'wgmma.m64n8k16.f32.f16.f16', 'HGMMA.64xNx16.F16': 'wgmma.m64n8k16.f16.f16.f16',
        'HGMMA.64xNx16.F32.BF16': 'wgmma.m64n8k16.f32.bf16.bf16', 'QGMMA.64xNx32.F32.f8': 'wgmma.m64n8k32.f32.e4m3.e4m3',
        'QGMMA.64xNx32.F16.f8': 'wgmma.m64n8k32.f16.e5m2.e4m3', 'UTCHMMA': 'tcgen05.mma.m128n8k16.f32.bf16.bf16',
        'UTCQMMA': 'tcgen05.mma.m128n8k32.f32.e2m1.e3m2', 'UTCOMMA': 'tcgen05.mma.m128n8k64.block32.f32.e2m1.e2m1.ue8m0',
        'UTCOMMA.4X': 'tcgen05.mma.m128n8k64.block16.f32.e2m1.e2m1.ue4m3',
        'QMMA.16832.F32.f8f6f4': 'mma.m16n8k32.f32.e2m3.e4m3.f32', 'QMMA.16832.F16.f8f6f4': 'mma.m16n8k32.f16.e2m1.e5m2.f16',
        'QMMA.SF.16832.F32.f8f6f4.E8': 'mma.m16n8k32.block32.f32.e3m2.e2m1.f32.ue8m0',
        'OMMA.SF.16864.F32.E2M1.E2M1.E8': 'mma.m16n8k64.block32.f32.e2m1.e2m1.f32.ue8m0',
        'OMMA.SF.16864.F32.E2M1.E2M1.UE4M3.4X': 'mma.m16n8k64.block16.f32.e2m1.e2m1.f32.ue4m3',
    }
    for rows, cells_ in TABLE_III:
        for row in rows:
            ptx = examples[row]
            p = parse_nv(ptx)
            got_row, opcode = nv_row(p)
            if got_row != row:
                bad.append(f"{ptx} parses as {got_row}, not {row}")
            for arch, cell in zip(NV_ARCHS, cells_):
                if cell is None:
                    continue
                cells += 1
                r = paper_cell(nv_schedule(arch, p, row, opcode))
                if r != cell:
                    bad.append(f"{row} on {arch}: rules give {r}, Table III {cell}")
    for names, cdna2, cdna3 in TABLE_IV:
        for nm in names:
            for arch, cell in (('cdna2', cdna2), ('cdna3', cdna3)):
                if cell is None:
                    continue
                cells += 1
                spelled = nm
                if arch == 'cdna2' and _AMD_NEW.match(nm) and not _AMD_OLD.match(nm):
                    # the CDNA2 spelling of a renamed instruction: drop _<T>b, join ab, bf16 -> bf16_1k
                    g = _AMD_NEW.match(nm)
                    spelled = f"{g['cd']}_{g['m']}x{g['n']}x{g['k']}{g['ab']}" + ('_1k' if g['ab'] == 'bf16' else '')
                try:
                    r = paper_cell(amd_schedule(arch, parse_amd(arch, spelled)))
                except NotInPaper as e:
                    r = f'error: {e}'
                if r != cell:
                    bad.append(f"{nm} on {arch}: rules give {r}, Table IV {cell}")
    # M3XU: each mode's name, spelled from the transcription, gets the transcribed cell from the rules
    for mode, ab, cd, (m, n, k), cell in M3XU_MODES:
        cells += 1
        nm = f"m3xu.m{m}n{n}k{k}.{cd}.{ab}.{ab}.{cd}"
        p = parse_m3xu(nm)
        try:
            r = paper_cell(m3xu_schedule(p, m3xu_mode(p)))
        except NotInPaper as e:
            r = f'error: {e}'
        if r != cell:
            bad.append(f"M3XU {mode} ({nm}): rules give {r}, the modes' table {cell}")
    what = f"oracle table.py: its rules reproduce all {cells} cells of Tables III and IV and the M3XU modes"
    if bad:
        print(f"not ok - {what}: " + '; '.join(bad[:5]))
    else:
        print(f"ok - {what}")
    return len(bad)


def main(argv):
    if argv[1:] == ['--selftest']:
        return 1 if selftest() else 0
    if len(argv) != 3:
        print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
        return 2
    try:
        t = derive(argv[1], argv[2])
    except NotInPaper as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 1
    print(json.dumps({'arch': argv[1], 'name': argv[2], 'algo': t['algo'], 'paper': f"{t['row']}: {t['cell']}",
                      'note': t['note'], 'schedule': t['schedule']}, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
