#!/usr/bin/env python3
"""tests/t_cli_mma.sh's helper: a stdlib writer/reader of .npy files (struct, not NumPy), the generator of
its cases and their checker.  Expected tiles come from exact arithmetic here (small integer-valued
operands: every dot-add is exact) or from hand derivations written beside each case.

usage: npy_cases.py gen DIR | check DIR CASE FILE.npy | cofda DIR ARCH FILE.npy"""
import ast, json, struct, sys, random

def header_dict(descr, shape, fortran=False):
    shp = "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shp)

def write(path, descr, shape, bits, version=(1, 0), header=None, tail=b"", cut=0):
    """bits: flat list of raw item bit patterns; header overrides the dict text."""
    h = (header if header is not None else header_dict(descr, shape)).encode("latin1")
    pre = 10 if version[0] == 1 else 12
    pad = (-(pre + len(h) + 1)) % 64
    h = h + b" " * pad + b"\n"
    size = int(descr[2:])
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
    order = ">" if descr[0] == ">" else "<"
    data = b"".join(struct.pack(order + fmt, b) for b in bits)
    lenfield = struct.pack("<H", len(h)) if version[0] == 1 else struct.pack("<I", len(h))
    blob = b"\x93NUMPY" + bytes(version) + lenfield + h + data + tail
    with open(path, "wb") as f:
        f.write(blob[:len(blob) - cut])

def read(path):
    blob = open(path, "rb").read()
    assert blob[:6] == b"\x93NUMPY", "no magic"
    assert blob[6:8] == b"\x01\x00", "version %r, expected 1.0" % blob[6:8]
    hlen = struct.unpack("<H", blob[8:10])[0]
    assert (10 + hlen) % 64 == 0, "header not padded to 64 bytes"
    text = blob[10:10 + hlen].decode("latin1")
    assert text.endswith("\n"), "header does not end in newline"
    d = ast.literal_eval(text)
    assert set(d) == {"descr", "fortran_order", "shape"}, "header keys %r" % d
    assert d["fortran_order"] is False
    size = int(d["descr"][2:])
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
    n = 1
    for s in d["shape"]:
        n *= s
    data = blob[10 + hlen:]
    assert len(data) == n * size, "data is %d bytes, expected %d" % (len(data), n * size)
    return d["descr"], tuple(d["shape"]), list(struct.unpack("<%d%s" % (n, fmt), data))

def f16(x):  return struct.unpack("<H", struct.pack("<e", x))[0]    # RNE, Python's own half packing
def f32(x):  return struct.unpack("<I", struct.pack("<f", x))[0]
def f64(x):  return struct.unpack("<Q", struct.pack("<d", x))[0]
def exact32(x):
    assert float(struct.unpack("<f", struct.pack("<f", x))[0]) == x, "not exact in f32: %r" % x
    return f32(x)

def gen(T):
    exp = {}          # case -> (descr, shape, flat expected bits)
    W = lambda name, *a, **k: write("%s/%s.npy" % (T, name), *a, **k)

    # -- int16: Ampere HMMA.1688.F32 (FDA, F=24), 16x8x8, small integers: every D is the exact sum.
    M, N, K = 16, 8, 8
    A = [[(i * 3 + k * 5) % 7 - 3 for k in range(K)] for i in range(M)]
    B = [[(k * 2 + j * 3) % 5 - 2 for j in range(N)] for k in range(K)]
    C = [[(i - j) * 0.5 for j in range(N)] for i in range(M)]
    D = [[C[i][j] + sum(A[i][k] * B[k][j] for k in range(K)) for j in range(N)] for i in range(M)]
    W("int_a_f2", "<f2", (M, K), [f16(v) for r in A for v in r])
    W("int_b_f2", "<f2", (K, N), [f16(v) for r in B for v in r])
    W("int_c_f4", "<f4", (M, N), [f32(v) for r in C for v in r])
    exp["int_bits"] = ("<u4", (M, N), [exact32(v) for r in D for v in r])
    # the same operands as raw bits in <u2 / <u8 / <u4 arrays, D as floats
    W("int_a_u2", "<u2", (M, K), [f16(v) for r in A for v in r])
    W("int_b_u8", "<u8", (K, N), [f16(v) for r in B for v in r])
    W("int_c_u4", "<u4", (M, N), [f32(v) for r in C for v in r])
    exp["int_float"] = ("<f4", (M, N), exp["int_bits"][2])
    # NPY 2.0 header, keys reordered, double quotes, no trailing comma: must read the same
    W("int_a_v2", "<f2", (M, K), [f16(v) for r in A for v in r], version=(2, 0),
      header='{"shape": (16, 8), "fortran_order": False, "descr": "<f2"}')
    exp["int_v2"] = exp["int_bits"]
    # f16 operands whose bits fit a byte (+0, subnormals 2^-24 .. 255 * 2^-24) may come as <u1
    A1 = [[(i + k) % 4 for k in range(K)] for i in range(M)]             # bits 0..3 = 0, 1, 2, 3 x 2^-24
    B1 = [[1.0 for j in range(N)] for k in range(K)]
    W("sub_a_u1", "|u1", (M, K), [v for r in A1 for v in r])
    W("sub_b_f2", "<f2", (K, N), [f16(v) for r in B1 for v in r])
    W("zero_c_f4", "<f4", (M, N), [0] * (M * N))
    exp["sub_u1"] = ("<u4", (M, N), [exact32(sum(A1[i][k] for k in range(K)) * 2.0 ** -24)
                                     for i in range(M) for j in range(N)])

    # -- f16 D: Hopper HMMA.16816.F16 (FDA, F=25, one RNE): C = 2048 on rows 8.., where f16's spacing
    #    is 2, so odd integer sums are ties and round to even (struct's RNE half packing is the oracle;
    #    e.g. 2048 + 1 -> 2048 = 0x6800, 2048 + 3 -> 2052 = 0x6802).
    M, N, K = 16, 8, 16
    A = [[(i + 2 * k) % 5 - 2 for k in range(K)] for i in range(M)]
    B = [[(3 * k + j) % 3 - 1 for j in range(N)] for k in range(K)]
    C = [[(2048.0 if i >= 8 else float(j - i)) for j in range(N)] for i in range(M)]
    D = [[C[i][j] + sum(A[i][k] * B[k][j] for k in range(K)) for j in range(N)] for i in range(M)]
    W("h_a", "<f2", (M, K), [f16(v) for r in A for v in r])
    W("h_b", "<f2", (K, N), [f16(v) for r in B for v in r])
    W("h_c", "<f2", (M, N), [f16(v) for r in C for v in r])
    exp["f16_d"] = ("<u2", (M, N), [f16(v) for r in D for v in r])
    assert any(v % 2 for r in D[8:] for v in r) and any(v % 4 == 1 for r in D[8:] for v in r)

    # -- CoFDA vs FDA, 16x8x16 f16 -> f32.  B columns 0..3 are all 1.0, C rows 0, 1 are 1.0.
    #    Row 0: a[0] = a[8] = 2^-24 (f16 0x0001), the rest 0.  Row 1: a[0] = a[1] = 2^-24.
    #    Ampere (CoFDA, F=24, RZ): row 0 pass 1 = 1 + 2^-24 -> RZ 1.0; pass 2 the same -> 1.0 = 0x3f800000.
    #      row 1: pass 1 = 1 + 2^-23 (exact in f32) -> 0x3f800001; pass 2 adds 0 -> 0x3f800001.
    #    Hopper (FDA, F=25): both rows sum 1 + 2 * 2^-24 = 1 + 2^-23 in one pass -> 0x3f800001.
    #    Rows 2.. and columns 4.. are random bits (specials included): cross-checked with mmaref batch.
    M, N, K = 16, 8, 16
    rnd = random.Random(7)
    A = [[rnd.getrandbits(16) for k in range(K)] for i in range(M)]
    A[0] = [1 if k in (0, 8) else 0 for k in range(K)]
    A[1] = [1 if k in (0, 1) else 0 for k in range(K)]
    B = [[0x3C00 if j < 4 else rnd.getrandbits(16) for j in range(N)] for k in range(K)]
    C = [[rnd.getrandbits(32) for j in range(N)] for i in range(M)]
    C[0] = C[1] = [0x3F800000] * N
    W("co_a", "<u2", (M, K), [v for r in A for v in r])
    W("co_b", "<u2", (K, N), [v for r in B for v in r])
    W("co_c", "<u4", (M, N), [v for r in C for v in r])
    with open(T + "/co.batch", "w") as f:
        for i in range(M):
            for j in range(N):
                f.write(" ".join("0x%x" % v for v in [C[i][j]] + A[i] + [B[k][j] for k in range(K)]) + "\n")

    # -- TF32 Step 0 (hopper HMMA.1688.F32.TF32, 16x8x8), <f4 inputs: A row 0 has a[0] = NaN 0x7f800001,
    #    which loses its low 13 bits and is +inf: D = +inf = 0x7f800000.  Row 1 has a[0] = 0x3f800001
    #    (1 + 2^-23), which becomes 1.0: D = C + 1 = j + 1.  Other rows small integers (exact).
    M, N, K = 16, 8, 8
    A = [[(i * k) % 5 - 2 for k in range(K)] for i in range(M)]
    A[0] = [None] + [0] * (K - 1)
    A[1] = [None] + [0] * (K - 1)
    B = [[1 if k == 0 else (k + j) % 3 - 1 for j in range(N)] for k in range(K)]
    C = [[float(j) if i == 1 else float(i + j) for j in range(N)] for i in range(M)]
    abits = [[0x7F800001 if (i == 0 and k == 0) else 0x3F800001 if (i == 1 and k == 0) else f32(A[i][k])
              for k in range(K)] for i in range(M)]
    W("tf_a", "<f4", (M, K), [v for r in abits for v in r])
    W("tf_b", "<f4", (K, N), [f32(v) for r in B for v in r])
    W("tf_c", "<f4", (M, N), [f32(v) for r in C for v in r])
    D = []
    for i in range(M):
        for j in range(N):
            if i == 0:
                D.append(0x7F800000)
            elif i == 1:
                D.append(exact32(j + 1.0))
            else:
                D.append(exact32(C[i][j] + sum(A[i][k] * B[k][j] for k in range(K))))
    exp["tf32"] = ("<f4", (M, N), D)

    # -- SFMA (hopper DMMA.884, 8x8x4, f64, round to nearest even after every FMA), <f8 in and out.
    #    B rows 0, 1 are 1.0.  Row 0: c = 1, a = [2^-53, 2^-53, 0, 0]: fma(2^-53, 1, 1) = 1 + 2^-53 is a
    #    tie -> 1.0 (even); again -> 1.0 = 0x3ff0000000000000 (an exact sum would give 1 + 2^-52).
    #    Row 1: c = 1 + 2^-52 (odd): 1 + 2^-52 + 2^-53 is a tie -> 1 + 2^-51 (even); + 2^-53 is below half
    #    an ulp -> 1 + 2^-51 = 0x3ff0000000000002.  Other rows: small integers, exact.
    M, N, K = 8, 8, 4
    A = [[float((i + 3 * k) % 5 - 2) for k in range(K)] for i in range(M)]
    A[0] = A[1] = [2.0 ** -53, 2.0 ** -53, 0.0, 0.0]
    B = [[1.0 if k < 2 else float((j - k) % 4 - 1) for j in range(N)] for k in range(K)]
    C = [[float(i * j - 7) for j in range(N)] for i in range(M)]
    C[0] = [1.0] * N
    C[1] = [1.0 + 2.0 ** -52] * N
    W("df_a", "<f8", (M, K), [f64(v) for r in A for v in r])
    W("df_b", "<f8", (K, N), [f64(v) for r in B for v in r])
    W("df_c", "<f8", (M, N), [f64(v) for r in C for v in r])
    D = []
    for i in range(M):
        for j in range(N):
            D.append(0x3FF0000000000000 if i == 0 else 0x3FF0000000000002 if i == 1 else
                     f64(C[i][j] + sum(A[i][k] * B[k][j] for k in range(K))))
    exp["f64"] = ("<f8", (M, N), D)

    # -- FDA with UE8M0 block scales (rtx-blackwell QMMA.SF.16832, K = 32, one scale per row/column):
    #    a = b = 1.0 (e4m3 0x38), sa[i] = 2^(i % 4) (127 + i % 4), sb[j] = 2^-j (127 - j), c = 0:
    #    D = 32 * 2^(i % 4 - j), exact.  Row 15 has sa = 0xFF (NaN): D = NaN = 0x7fffffff.
    M, N, K = 16, 8, 32
    W("sc_a", "|u1", (M, K), [0x38] * (M * K))
    W("sc_b", "|u1", (K, N), [0x38] * (K * N))
    W("sc_c", "<f4", (M, N), [0] * (M * N))
    W("sc_sa", "|u1", (M, 1), [0xFF if i == 15 else 127 + i % 4 for i in range(M)])
    W("sc_sb", "|u1", (1, N), [127 - j for j in range(N)])
    exp["scaled"] = ("<u4", (M, N), [0x7FFFFFFF if i == 15 else exact32(32 * 2.0 ** (i % 4 - j))
                                     for i in range(M) for j in range(N)])

    # -- GDFS (rtx-blackwell OMMA.SF.16864 block16 with UE4M3 scales, K = 64: SA 16x4, SB 4x8).
    #    e2m1: 1.0 = 0x2, 6.0 = 0x7; ue4m3: 1.0 = 0x38, 2.0 = 0x40, and 0xB8 is 1.0 (bit 7 ignored).
    #    a = 1 (row 1: 6), b = 1; sa = 1 (row 2: sa[0] = 2; row 3: 0xB8 everywhere); sb[g][j] = 2 if
    #    g == j % 4 else 1; c = 0.  D = sum over the 4 groups of 16 * a * b * sa[g] * sb[g][j], e.g.
    #    row 0: 16 * (1 + 1 + 1 + 2) = 80, row 1: 6 * 80 = 480, row 2 col 0: 16 * (4 + 1 + 1 + 1) = 112.
    M, N, K, G = 16, 8, 64, 4
    aval = [6.0 if i == 1 else 1.0 for i in range(M)]
    W("g_a", "|u1", (M, K), [0x7 if i == 1 else 0x2 for i in range(M) for k in range(K)])
    W("g_b", "|u1", (K, N), [0x2] * (K * N))
    W("g_c", "<f4", (M, N), [0] * (M * N))
    sa = [[2.0 if (i == 2 and g == 0) else 1.0 for g in range(G)] for i in range(M)]
    W("g_sa", "|u1", (M, G), [0xB8 if i == 3 else 0x40 if sa[i][g] == 2 else 0x38 for i in range(M) for g in range(G)])
    sb = [[2.0 if g == j % 4 else 1.0 for j in range(N)] for g in range(G)]
    W("g_sb", "|u1", (G, N), [0x40 if sb[g][j] == 2 else 0x38 for g in range(G) for j in range(N)])
    exp["gdfs"] = ("<u4", (M, N), [exact32(sum(16 * aval[i] * sa[i][g] * sb[g][j] for g in range(G)))
                                   for i in range(M) for j in range(N)])
    assert exp["gdfs"][2][0] == f32(80) and exp["gdfs"][2][8] == f32(480) and exp["gdfs"][2][16] == f32(112)

    # -- complex64 (<c8) for M3XU's f32c (8x4x2): small Gaussian integers, every product and sum exact,
    #    so D = A B + C in Python's complex arithmetic; an element's bits are re | im << 32 (complex64's
    #    memory layout: the real f32 first).
    M, N, K = 8, 4, 2
    cbits = lambda z: f32(z.real) | f32(z.imag) << 32
    A = [[complex((i + k) % 5 - 2, (i * k) % 3 - 1) for k in range(K)] for i in range(M)]
    B = [[complex((k + 2 * j) % 4 - 1, (j - k) % 5 - 2) for j in range(N)] for k in range(K)]
    C = [[complex(i - j, j * 0.5) for j in range(N)] for i in range(M)]
    D = [[C[i][j] + sum(A[i][k] * B[k][j] for k in range(K)) for j in range(N)] for i in range(M)]
    W("cx_a", "<c8", (M, K), [cbits(v) for r in A for v in r])
    W("cx_b", "<c8", (K, N), [cbits(v) for r in B for v in r])
    W("cx_c", "<c8", (M, N), [cbits(v) for r in C for v in r])
    exp["f32c"] = ("<c8", (M, N), [cbits(v) for r in D for v in r])
    exp["f32c_bits"] = ("<u8", (M, N), exp["f32c"][2])
    W("bad_c8", "<c8", (16, 8), [cbits(1 + 1j)] * 128)

    # -- malformed inputs (16x8 f16 A for mma.m16n8k8 unless said)
    a = [f16(1.0)] * 128
    W("bad_shape", "<f2", (8, 16), a)
    W("bad_1d", "<f2", (128,), a)
    W("bad_3d", "<f2", (1, 16, 8), a)
    W("bad_f4", "<f4", (16, 8), [f32(1.0)] * 128)
    W("bad_i2", "<i2", (16, 8), a)
    W("bad_wide", "<u4", (16, 8), [0x10000] + a[1:])
    W("bad_e4m3", "<u2", (16, 32), [0x38] * 100 + [0x1FF] + [0x38] * 411)
    W("bad_fortran", "<f2", (16, 8), a, header=header_dict("<f2", (16, 8), fortran=True))
    W("bad_bigendian", ">u2", (16, 8), a)
    W("bad_trunc", "<f2", (16, 8), a, cut=1)
    W("bad_tail", "<f2", (16, 8), a, tail=b"\0\0")
    W("bad_v3", "<f2", (16, 8), a, version=(3, 0))
    W("bad_noshape", "<f2", (16, 8), a, header="{'descr': '<f2', 'fortran_order': False, }")
    W("bad_struct", "<f2", (16, 8), a, header="{'descr': [('x', '<f2')], 'fortran_order': False, 'shape': (16, 8), }")
    W("bad_hdrcut", "<f2", (16, 8), a, cut=128 * 2 + 50)
    W("bad_f2_bf16", "<f2", (16, 8), a)
    W("bad_sa_shape", "|u1", (16, 2), [127] * 32)
    W("bad_sa_float", "<f4", (16, 1), [f32(1.0)] * 16)
    W("bad_lead0", "<f2", (16, 8), a, header="{'descr': '<f2', 'fortran_order': False, 'shape': (016, 8), }")
    # the reproducer: a 133-byte file whose header declares 3*6803659*6*6 items (7.3 GB as u8)
    W("bad_huge", "<u8", (3, 6803659, 6, 6, 1), [])
    # a header declaring (2^26, 8) <f2 = 1 GiB of data in a file that holds none
    W("bad_big_noshape_data", "<f2", (1 << 26, 8), [])
    # the right shape (16, 8) claimed, 512 MiB of data behind it: the size check refuses it unread
    W("bad_big_tail", "<f2", (16, 8), a)
    with open(T + "/bad_big_tail.npy", "r+b") as f:
        f.truncate(512 << 20)
    with open(T + "/bad_text.npy", "w") as f:
        f.write("1 2 3\n")
    open(T + "/bad_empty.npy", "wb").close()
    json.dump(exp, open(T + "/expect.json", "w"))

def check(T, case, path):
    descr, shape, want = json.load(open(T + "/expect.json"))[case]
    try:
        got = read(path)
    except Exception as e:  # missing or malformed output
        print("not ok - %s: cannot read %s: %s" % (case, path, e)); return
    if got[0] != descr or got[1] != tuple(shape):
        print("not ok - %s: D is %s %s, expected %s %s" % (case, got[0], got[1], descr, tuple(shape))); return
    bad = [(n, g, w) for n, (g, w) in enumerate(zip(got[2], want)) if g != w]
    if bad:
        n, g, w = bad[0]
        print("not ok - %s: %d of %d elements differ, first D[%d][%d] = 0x%x, expected 0x%x"
              % (case, len(bad), len(want), n // shape[1], n % shape[1], g, w))
    else:
        print("ok - %s: %s %s, all %d elements as derived" % (case, descr, tuple(shape), len(want)))

def check_cofda(T, arch, path):
    _, shape, d = read(path)
    want = {0: {"ampere": 0x3F800000, "hopper": 0x3F800001}[arch], 1: 0x3F800001}
    bad = [(i, j, d[i * 8 + j]) for i in (0, 1) for j in range(4) if d[i * 8 + j] != want[i]]
    if bad:
        i, j, g = bad[0]
        print("not ok - %s CoFDA/FDA hand case: D[%d][%d] = 0x%x, expected 0x%x" % (arch, i, j, g, want[i]))
    else:
        print("ok - %s %s: rows 0, 1 (2^-24 products in different / the same half of K) = 0x%x, 0x%x"
              % (arch, "CoFDA" if arch == "ampere" else "FDA", want[0], want[1]))
    # batch --check input: the tile's D appended to each dot-add line
    lines = open(T + "/co.batch").read().splitlines()
    with open(T + "/co_%s.check" % arch, "w") as f:
        for n, line in enumerate(lines):
            f.write("%s 0x%x\n" % (line, d[n]))

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gen":
        gen(sys.argv[2])
    elif cmd == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "cofda":
        check_cofda(sys.argv[2], sys.argv[3], sys.argv[4])
