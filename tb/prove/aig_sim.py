#!/usr/bin/env python3
"""Directed simulation of make prove's miter (tb/prove/prove.sh): every vector of a list, each one the
free vector of the miter, simulated through the cycles of one transaction at once (one bit of a Python
integer a vector), and the first whose check fails is printed.

The solver's own simulation draws random vectors, and bounded model checking is cut short: neither reaches
a vector that only a corner of the formats makes wrong (every product -0 with C = -0, an infinity against
a NaN, a scale at its limit).  The model's directed vectors (`mmaref gen --kind directed`, the vectors
make verify's bench drives first) are built for those corners; simulating them through the miter costs
seconds, whatever its size.

The miter: a binary AIGER file (Yosys write_aiger -zinit: latches start at 0; the check is a bad-state
property, or an output), its map (write_aiger -map: which input bit is which bit of vec_in) and the
vector's layout (layout.txt of gen_prove.py: field:width ..., the fields of a `mmaref batch` line in
order).  Vectors come one per line on stdin in `mmaref batch`'s format (hex fields).

usage: aig_sim.py MITER.aig MITER.aim LAYOUT.txt FRAMES < vectors
Prints the 0-based line number of the first vector whose check fails in one of FRAMES cycles, or
nothing; exit status 0 either way, 2 on a file it cannot read.
       aig_sim.py --decode DIR
Writes DIR/cex.txt, the vector of ABC's counterexample DIR/cex.abc (write_cex: the sequential miter's
piN@F=V, or the unrolled one's piN_F@0=V; the inputs of cycle 0) as a `mmaref batch` line, through the
same map and layout (DIR/miter.aim, DIR/layout.txt).
       aig_sim.py --directed DIR N
Writes DIR/cex.txt from line N (0-based) of DIR/directed.txt, the directed vectors prove.sh simulated.
       aig_sim.py --cex-formats DIR
Prints "SEL ARCH:NAME", the format combination DIR/cex.txt names (FORMATS=all), or nothing."""
import re
import sys


def fail(msg):
    print(f"aig_sim: {msg}", file=sys.stderr)
    sys.exit(2)


def varint(data, pos):
    """One unsigned integer of binary AIGER's delta encoding (7 bits a byte, low first)."""
    x = shift = 0
    while True:
        b = data[pos]
        pos += 1
        x |= (b & 0x7F) << shift
        if not b & 0x80:
            return x, pos
        shift += 7


def read_aiger(path):
    """(inputs, latches [(var, next literal)], checked literals, constraint literals, ands [(var, lit0,
    lit1)]).  The constraints are the miter's assumptions (make prove CASES=, CUT=): a trace counts only
    while every one of them holds."""
    data = open(path, "rb").read()
    end = data.index(b"\n")
    head = data[:end].split()
    if head[0] != b"aig":
        fail(f"{path}: not a binary AIGER file")
    m, i, l, o, a = (int(x) for x in head[1:6])
    b = int(head[6]) if len(head) > 6 else 0
    c = int(head[7]) if len(head) > 7 else 0
    if len(head) > 8 and any(int(x) for x in head[8:]):
        fail(f"{path}: justice or fairness properties (J, F) are not a miter's")
    pos = end + 1

    def line():
        nonlocal pos
        nl = data.index(b"\n", pos)
        text = data[pos:nl].split()
        pos = nl + 1
        return text

    latches = []
    for k in range(l):
        f = line()
        if len(f) > 1 and int(f[1]) != 0:
            fail(f"{path}: latch {k} does not start at 0 (write the miter with -zinit)")
        latches.append((i + 1 + k, int(f[0])))
    checked = [int(line()[0]) for _ in range(o + b)]
    constraints = [int(line()[0]) for _ in range(c)]
    ands = []
    for k in range(a):
        lhs = 2 * (i + l + 1 + k)
        d0, pos = varint(data, pos)
        d1, pos = varint(data, pos)
        rhs0 = lhs - d0
        ands.append((lhs >> 1, rhs0, rhs0 - d1))
    if m < i + l + a:
        fail(f"{path}: header M {m} below I + L + A")
    return i, latches, checked, constraints, ands


def read_vec_map(path):
    """AIGER input index -> bit of vec_in (Yosys write_aiger -map)."""
    vec_bit = {}
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == "input" and f[3] == "vec_in":
            vec_bit[int(f[1])] = int(f[2])
    return vec_bit


def read_layout(path):
    """The vector's fields in `mmaref batch` order: [(name, bits)] (gen_prove.py's layout.txt)."""
    return [(name, int(w)) for name, w in (item.split(":") for item in open(path).read().split())]


def decode(d):
    """ABC's counterexample d/cex.abc as a `mmaref batch` line in d/cex.txt (FORMATS=all: in the widths of
    the instruction its field sel picks, named on a comment line)."""
    try:
        vec_bit, layout = read_vec_map(f"{d}/miter.aim"), read_layout(f"{d}/layout.txt")
        vec = 0
        for line in open(f"{d}/cex.abc"):
            # piN@F=V: input N in cycle F (the sequential miter); piN_F@0=V: input N of cycle F (unrolled)
            m = re.fullmatch(r"pi(\d+)(?:_(\d+))?@(\d+)=([01])", line.strip())
            if m and int(m.group(2) or m.group(3)) == 0 and int(m.group(1)) in vec_bit:
                vec |= int(m.group(4)) << vec_bit[int(m.group(1))]
    except (OSError, ValueError, IndexError) as e:
        fail(f"cannot decode the counterexample: {e}")
    values, lo = {}, 0
    for name, w in layout:
        values[name] = (vec >> lo) & ((1 << w) - 1)
        lo += w
    # FORMATS=all: the field sel picks the combination (formats.txt: sel, instruction, widths of C, A, B;
    # a sel past the last is the first); the fields in its instruction's widths, sel left out
    combos = [line.split() for line in open(f"{d}/formats.txt")] if "sel" in values else []
    widths = {}
    if combos:
        combo = combos[values["sel"]] if values["sel"] < len(combos) else combos[0]
        widths = dict(c=int(combo[2]), a=int(combo[3]), b=int(combo[4]))
    fields = []
    for name, w in layout:
        if name != "sel":
            w = widths.get("c" if name == "c_raw" else name[0] if name[1:].isdigit() else "", w)
            fields.append(f"0x{values[name] & ((1 << w) - 1):0{(w + 3) // 4}x}")
    write_cex(d, fields, combo[:2] if combos else None)


def write_cex(d, fields, combo, note=None):
    """d/cex.txt: the counterexample as one `mmaref batch` line (fields: hex strings), after a comment
    line naming the combination (sel, ARCH:NAME) when the miter covers several (FORMATS=all), which
    prove.sh and tests/prove/all.sh read back as the instruction to replay."""
    with open(f"{d}/cex.txt", "w") as f:
        f.write("# the counterexample of make prove: C A0..A(K-1) B0..B(K-1) [SA.. SB..] (mmaref batch's format)\n")
        if combo:
            f.write(f"# formats: sel {combo[0]}, {combo[1]}\n")
        if note:
            f.write(f"# {note}\n")
        f.write(" ".join(fields) + "\n")


def read_cex_formats(d):
    """(sel, ARCH:NAME) of d/cex.txt's formats line (write_cex), or None when it has none."""
    for line in open(f"{d}/cex.txt"):
        m = re.fullmatch(r"# formats: sel (\d+), (\S+)", line.strip())
        if m:
            return int(m.group(1)), m.group(2)
    return None


def directed(d, hit):
    """d/cex.txt from the directed vector of 0-based line `hit` of d/directed.txt (prove.sh: with
    FORMATS=all each line ends in its sel, d/directed-sel.txt says which sel and instruction it is)."""
    several = sum(1 for _ in open(f"{d}/formats.txt")) > 1
    fields = open(f"{d}/directed.txt").read().splitlines()[hit].split()
    sel, ins = open(f"{d}/directed-sel.txt").read().splitlines()[hit].split()
    if several:
        fields = fields[:-1]
    write_cex(d, ["0x" + x for x in fields], (sel, ins) if several else None,
              f"the model's directed vector {hit} (mmaref gen {ins.split(':', 1)[0]} {ins.split(':', 1)[1]} --kind directed)")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--decode":
        return decode(sys.argv[2])
    if len(sys.argv) == 4 and sys.argv[1] == "--directed":
        try:
            return directed(sys.argv[2], int(sys.argv[3]))
        except (OSError, ValueError, IndexError) as e:
            fail(f"cannot write the directed counterexample: {e}")
    if len(sys.argv) == 3 and sys.argv[1] == "--cex-formats":
        try:
            combo = read_cex_formats(sys.argv[2])
        except OSError as e:
            fail(f"cannot read the counterexample: {e}")
        if combo:
            print(*combo)
        return
    if len(sys.argv) != 5:
        fail("usage: aig_sim.py MITER.aig MITER.aim LAYOUT.txt FRAMES < vectors | --decode DIR | --directed DIR N | --cex-formats DIR")
    try:
        n_in, latches, checked, constraints, ands = read_aiger(sys.argv[1])
        vec_bit, layout = read_vec_map(sys.argv[2]), read_layout(sys.argv[3])
    except (OSError, ValueError, IndexError) as e:
        fail(f"cannot read the miter: {e}")
    frames = int(sys.argv[4])

    # the vectors, one bit position each: vec_in bit j across all vectors as one integer
    vecs = []
    for line in sys.stdin:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if len(f) != len(layout):
            fail(f"vector {len(vecs)}: {len(f)} fields, the miter's layout has {len(layout)}")
        v, lo = 0, 0
        for text, (_, w) in zip(f, layout):
            v |= (int(text, 16) & ((1 << w) - 1)) << lo
            lo += w
        vecs.append(v)
    n = len(vecs)
    if n == 0:
        return
    ones = (1 << n) - 1
    width = sum(w for _, w in layout)
    column = [0] * width
    for k, v in enumerate(vecs):
        while v:
            low = v & -v
            column[low.bit_length() - 1] |= 1 << k
            v ^= low

    val = [0] * (1 + n_in + len(latches) + len(ands))
    lit = lambda x: val[x >> 1] ^ (ones if x & 1 else 0)  # noqa: E731
    failed, holds = 0, ones   # holds: the vectors whose trace has met every constraint so far
    for frame in range(frames):
        for k in range(n_in):  # the vector in cycle 0 (the miter loads it then), 0 after
            val[1 + k] = column[vec_bit[k]] if frame == 0 and k in vec_bit else 0
        for var, a, b in ands:
            val[var] = lit(a) & lit(b)
        for c in constraints:
            holds &= lit(c)
        for c in checked:
            failed |= lit(c) & holds
        if failed:
            break
        nxt = [lit(nx) for _, nx in latches]
        for (var, _), x in zip(latches, nxt):
            val[var] = x
    if failed:
        print((failed & -failed).bit_length() - 1)


if __name__ == "__main__":
    main()
